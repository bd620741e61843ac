// What OS confinement costs a shell command: `true` through the shell host (ctx.exec, the path
// shell:exec takes) confined by bubblewrap and unconfined (PML_CONFINE=off, the baseline), in one
// run, in a small workspace and in this repository (a real tree scanned for protected files).
// `bun bench/confine.ts [iterations]`
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { confinement } from "../src/sandbox/confine.ts";
import { createHost } from "../src/sandbox/host-functions.ts";

const N = Number(process.argv[2] ?? 100);
const c = confinement();
if (c.kind === "none") {
  console.log(`no confinement here (${c.summary}); nothing to measure`);
  process.exit(0);
}
const signal = new AbortController().signal;

async function measure(workspace: string, confine: boolean) {
  const exec = createHost({ workspace, grants: { exec: true } }).ops.exec!;
  if (confine) delete process.env.PML_CONFINE;
  else process.env.PML_CONFINE = "off";
  for (let i = 0; i < 5; i++) await exec({ command: "true" }, signal);
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await exec({ command: "true" }, signal);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(N / 2)]!, p95: times[Math.floor(N * 0.95)]! };
}

const small = mkdtempSync(join(tmpdir(), "pml-bench-confine-"));
writeFileSync(join(small, ".pml.json"), "{}");
const repo = resolve(import.meta.dir, "..");
console.log(`${c.summary}; ${N} runs of \`true\` each`);
for (const [label, ws] of [
  ["small workspace", small],
  ["this repository", repo],
] as const) {
  const off = await measure(ws, false);
  const on = await measure(ws, true);
  console.log(
    `${label.padEnd(16)} unconfined median ${off.median.toFixed(2)} ms (p95 ${off.p95.toFixed(2)}) | ` +
      `bubblewrap median ${on.median.toFixed(2)} ms (p95 ${on.p95.toFixed(2)}) | ratio ${(on.median / off.median).toFixed(2)}x`,
  );
}
rmSync(small, { recursive: true, force: true });
