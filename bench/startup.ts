// Start-up: spawn `dist/pml stdio`, send `initialize`, time until the response arrives.
// Floor, in the same run: a compiled Bun binary that only answers `initialize`.
// Run: bun build.ts && bun bench/startup.ts [runs=30]
// Before/after a change: PML_BASELINE_BIN=/path/to/older/pml adds that binary's stdio, interleaved.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { summarize, printTable } from "./stats.ts";

const runs = Number(process.argv[2] ?? 30);
const root = resolve(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "pml-bench-startup-"));

const floorSrc = join(dir, "floor.ts");
writeFileSync(
  floorSrc,
  `process.stdin.on("data", (d) => {
    const m = JSON.parse(String(d).split("\\n")[0]);
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "floor", version: "0" } } }) + "\\n");
  });`,
);
const floorBin = join(dir, "floor");
const built = await Bun.build({ entrypoints: [floorSrc], minify: true, bytecode: true, format: "esm", compile: { outfile: floorBin } });
if (!built.success) throw new Error("could not build the floor binary");

const init = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } } })}\n`;

async function once(cmd: string[]): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn(cmd, { cwd: dir, stdin: "pipe", stdout: "pipe", stderr: "ignore", env: { ...process.env, PML_WORKSPACE: dir } });
  p.stdin.write(init);
  p.stdin.flush();
  const reader = p.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${cmd[0]} exited before answering`);
    text += new TextDecoder().decode(value);
  }
  const ms = performance.now() - t0;
  JSON.parse(text.split("\n")[0]!);
  p.stdin.end();
  await p.exited;
  return ms;
}

const baseline = process.env.PML_BASELINE_BIN;
const cases: Record<string, string[]> = { floor: [floorBin], "pml stdio": [join(root, "dist/pml"), "stdio"], ...(baseline ? { "baseline stdio": [baseline, "stdio"] } : {}) };
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const cmd of Object.values(cases)) await once(cmd); // warm the page cache
for (let i = 0; i < runs; i++) for (const [name, cmd] of Object.entries(cases)) samples[name]!.push(await once(cmd));

const floor = summarize(samples.floor!);
const pml = summarize(samples["pml stdio"]!);
const base = baseline ? summarize(samples["baseline stdio"]!) : undefined;
printTable(`spawn -> initialize response, ${runs} runs each (ms)`, { floor, "pml stdio": pml, ...(base ? { "baseline stdio": base } : {}) });
if (base) console.log(`ratio pml/baseline (median): ${(pml.median / base.median).toFixed(2)}x  (${baseline})`);
console.log(`ratio pml/floor (median): ${(pml.median / floor.median).toFixed(2)}x  (target <= 2x and median < 40 ms)`);
