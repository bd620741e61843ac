// Builds dist/pml for this machine (options shared with release.ts in scripts/compile.ts).
// `bun build.ts [--target bun-linux-arm64 --outfile dist/pml-linux-arm64] [--no-bytecode]`;
// every platform at once, with archives and checksums: `bun run release`.
import { parseArgs } from "node:util";
import { compile } from "./scripts/compile.ts";
import { targetByBunName } from "./scripts/release/targets.ts";

const { values } = parseArgs({
  options: {
    target: { type: "string" },
    outfile: { type: "string", default: "dist/pml" },
    "no-bytecode": { type: "boolean", default: false },
  },
});

const started = performance.now();
try {
  const built = await compile({
    outfile: values.outfile,
    bunTarget: values.target,
    target: values.target ? targetByBunName(values.target).name : undefined,
    bytecode: !values["no-bytecode"],
  });
  console.error(`built ${built.outfile}${built.bytecode ? "" : " (without bytecode)"} in ${Math.round(performance.now() - started)} ms`);
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}
