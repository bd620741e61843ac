// Builds dist/pml: one self-contained executable (Bun runtime + pml), minified, with bytecode for
// faster start-up. `bun build.ts [--target bun-linux-x64 ...] [--outfile dist/pml-linux-x64]`.
import { parseArgs } from "node:util";
import pkg from "./package.json" with { type: "json" };

const { values } = parseArgs({
  options: {
    target: { type: "string" },
    outfile: { type: "string", default: "dist/pml" },
    "no-bytecode": { type: "boolean", default: false },
  },
});

const started = performance.now();
const result = await Bun.build({
  entrypoints: ["src/main.ts"],
  minify: true,
  sourcemap: "none",
  bytecode: !values["no-bytecode"],
  format: "esm",
  define: { PML_VERSION: JSON.stringify(pkg.version) },
  compile: {
    outfile: values.outfile,
    // pml reads the workspace .env itself (src/config/env-resolver.ts) and a cloned repository's
    // bunfig.toml must not configure (or preload code into) pml: the runtime loads neither.
    autoloadDotenv: false,
    autoloadBunfig: false,
    ...(values.target ? { target: values.target as any } : {}),
  },
});

if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.error(`built ${values.outfile} in ${Math.round(performance.now() - started)} ms`);
