// gateway/ is in layers that import only downward (.dependency-cruiser.cjs GATEWAY, README
// "Layers"): transports -> the composition root (tool-host.ts) -> tools -> dispatch. Each case
// plants an import the wrong way in a copy of src/ and expects `npm run deps`' check to refuse it,
// naming the rule; a file outside the four parts is refused too.
import { afterAll, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers/pml.ts";

const ROOT = resolve(import.meta.dir, "../..");
const dirs: Array<{ cleanup(): void }> = [];
afterAll(() => {
  for (const d of dirs) d.cleanup();
});

/** A copy of src/ (and the rules), changed by `plant`, cruised: its exit code and what it said. */
function cruise(plant?: (root: string) => void): { code: number; out: string } {
  const dir = tempDir("pml-layers-");
  dirs.push(dir);
  cpSync(join(ROOT, "src"), join(dir.path, "src"), { recursive: true, filter: (p) => !p.includes("/generated") });
  for (const f of [".dependency-cruiser.cjs", "tsconfig.json"]) cpSync(join(ROOT, f), join(dir.path, f));
  symlinkSync(join(ROOT, "node_modules"), join(dir.path, "node_modules"));
  plant?.(dir.path);
  const bin = join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
  const run = Bun.spawnSync(["node", bin, "src/gateway", "--config", ".dependency-cruiser.cjs"], { cwd: dir.path, stdout: "pipe", stderr: "pipe" });
  return { code: run.exitCode, out: `${run.stdout.toString()}${run.stderr.toString()}` };
}

const prepend = (root: string, file: string, line: string) => writeFileSync(join(root, file), `${line}\n${readFileSync(join(root, file), "utf8")}`);

test("the source as it is: no import goes the wrong way", () => {
  const r = cruise();
  expect(r.out).toContain("no dependency violations found");
  expect(r.code).toBe(0);
});

test("dispatch importing a tool, a tool importing the root or a transport, the root importing a transport, a file outside the parts: each refused", () => {
  const r = cruise((root) => {
    prepend(root, "src/gateway/dispatch/invoke.ts", 'import "../tools/meta-tools.ts";');
    prepend(root, "src/gateway/tools/stdlib-tools.ts", 'import "../tool-host.ts";');
    prepend(root, "src/gateway/tools/pml/status.ts", 'import "../../transports/stdio.ts";');
    prepend(root, "src/gateway/tool-host.ts", 'import "./transports/http.ts";');
    mkdirSync(join(root, "src/gateway/extra"));
    writeFileSync(join(root, "src/gateway/extra/loose.ts"), 'import "../dispatch/call.ts";\n');
  });
  expect(r.code).not.toBe(0);
  expect(r.out).toMatch(/layer-gateway\/dispatch: src\/gateway\/dispatch\/invoke\.ts → src\/gateway\/tools\/meta-tools\.ts/);
  expect(r.out).toMatch(/layer-gateway\/tools: src\/gateway\/tools\/stdlib-tools\.ts → src\/gateway\/tool-host\.ts/);
  expect(r.out).toMatch(/layer-gateway\/tools: src\/gateway\/tools\/pml\/status\.ts → src\/gateway\/transports\/stdio\.ts/);
  expect(r.out).toMatch(/layer-gateway\/\*\.ts: src\/gateway\/tool-host\.ts → src\/gateway\/transports\/http\.ts/);
  expect(r.out).toMatch(/no-unknown-gateway-folder: src\/gateway\/extra\/loose\.ts/);
});
