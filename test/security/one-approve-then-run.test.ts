// Approve-then-run is written once (Invoker.call, src/gateway/dispatch/invoke.ts): scripts/check-one-gate.ts,
// which `npm test` runs, finds a second one. Each case plants one in a copy of src/ the way a
// change could (a caller reaching the gate itself, a new entry to the gate, a backend run without
// the decision) and expects the script to refuse it, naming the place.
import { afterAll, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers/pml.ts";

const SCRIPT = resolve(import.meta.dir, "../../scripts/check-one-gate.ts");
const SRC = resolve(import.meta.dir, "../../src");
const dirs: Array<{ cleanup(): void }> = [];
afterAll(() => {
  for (const d of dirs) d.cleanup();
});

/** A copy of src/, changed by `plant`, checked by the script: its exit code and what it said. */
function check(plant?: (root: string) => void): { code: number; out: string } {
  const dir = tempDir("pml-one-gate-");
  dirs.push(dir);
  cpSync(SRC, join(dir.path, "src"), { recursive: true });
  plant?.(dir.path);
  const run = Bun.spawnSync([process.execPath, SCRIPT], { cwd: dir.path, stdout: "pipe", stderr: "pipe" });
  return { code: run.exitCode, out: `${run.stdout.toString()}${run.stderr.toString()}` };
}

const append = (root: string, file: string, text: string) => writeFileSync(join(root, file), `${readFileSync(join(root, file), "utf8")}\n${text}\n`);

test("the source as it is: one place", () => {
  const r = check();
  expect(r.out).toContain("one place (Invoker.call)");
  expect(r.code).toBe(0);
});

test("execute's code asking the gate itself (as it once did through invoker.gate) is found", () => {
  const r = check((root) => append(root, "src/gateway/tools/execute.ts", "export const sneak = (deps: any, id: any) => deps.invoker.gate.evaluate({ id });"));
  expect(r.code).toBe(1);
  expect(r.out).toContain("src/gateway/tools/execute.ts:");
  expect(r.out).toContain("deps.invoker.gate.evaluate() outside src/gateway/dispatch/invoke.ts");
});

test("a second entry to the gate (an authorize that asks and records) is found", () => {
  const r = check((root) => {
    const file = join(root, "src/policy/gate.ts");
    writeFileSync(file, readFileSync(file, "utf8").replace("export class Gate {", "export class Gate {\n  async authorize(): Promise<void> {}\n"));
  });
  expect(r.code).toBe(1);
  expect(r.out).toContain("Gate.authorize is a new entry to the gate");
});

test("a backend run, or a yes recorded, outside Invoker.call is found", () => {
  const r = check((root) =>
    append(root, "src/gateway/tools/pml/call.ts", "export const sneak = (deps: any, s: any, q: any) => (deps.asker.approve(s, q, true), deps.backends.run(q, 'x', {}, {}, {}));"),
  );
  expect(r.code).toBe(1);
  expect(r.out).toContain("recording the user's yes (approve)");
  expect(r.out).toContain("running a tool's backend (run)");
});

test("the short lane's send to a pooled server outside Invoker.lane (no decision before it) is found", () => {
  const r = check((root) => append(root, "src/gateway/tool-host.ts", "export const sneak = (backends: any, call: any) => backends.relayStdio('fx', 'echo', {}, call);"));
  expect(r.code).toBe(1);
  expect(r.out).toContain("src/gateway/tool-host.ts:");
  expect(r.out).toContain("sending a call to a pooled server by the short lane (relayStdio)");
});

test("the pure decision asked outside the gate (facts of its own, around the invoker) is found", () => {
  const r = check((root) =>
    append(root, "src/gateway/tools/execute.ts", 'import { evaluate } from "../../policy/evaluate.ts";\nexport const sneak = (facts: any, req: any) => evaluate(facts, req);'),
  );
  expect(r.code).toBe(1);
  expect(r.out).toContain("src/gateway/tools/execute.ts:");
  expect(r.out).toContain("the gate's decision (evaluate) outside src/policy/gate.ts");
});
