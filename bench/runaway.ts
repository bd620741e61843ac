// Ping latency of `pml stdio` while N runaway `execute` calls (`for (;;) {}`) spin, against the
// same pml with none running (the baseline), in one run. Before sandbox workers, one runaway held
// a ping for its whole CPU limit (9.8 s; three: 29.7 s).
//   bun bench/runaway.ts [--pings 200] [--bin dist/pml]   (default: dist/pml)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { onJsonLines } from "./line-client.ts";

const { values } = parseArgs({ options: { pings: { type: "string", default: "200" }, bin: { type: "string", default: "dist/pml" } } });
const PINGS = Number(values.pings);
const dir = mkdtempSync(join(tmpdir(), "pml-bench-runaway-"));
const ws = join(dir, "ws");
const home = join(dir, "home");
mkdirSync(ws);
mkdirSync(home);
writeFileSync(join(ws, ".pml.json"), JSON.stringify({ permissions: { allow: [], deny: [] }, sandbox: { timeout_ms: 600_000 } }));
const env = { ...process.env, PML_HOME: home, PML_WORKSPACE: ws, PML_LOG: "error" } as Record<string, string>;

const proc = Bun.spawn([resolve(values.bin!), "stdio"], { cwd: ws, env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
const waiting = new Map<string | number, (m: any) => void>();
onJsonLines(proc.stdout as ReadableStream<Uint8Array>, (m) => {
  waiting.get(m.id)?.(m);
  waiting.delete(m.id);
});
const stdin = proc.stdin as import("bun").FileSink;
const send = (m: unknown) => {
  stdin.write(`${JSON.stringify(m)}\n`);
  stdin.flush();
};
const request = (id: string | number, method: string, params?: unknown) =>
  new Promise<any>((resolve) => {
    waiting.set(id, resolve);
    send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
  });

await request("init", "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } });
send({ jsonrpc: "2.0", method: "notifications/initialized" });
await request("warm", "tools/call", { name: "execute", arguments: { code: "return 1" } });

let seq = 0;
async function pings(): Promise<{ median: number; p95: number; max: number }> {
  const times: number[] = [];
  for (let i = 0; i < PINGS; i++) {
    const t = performance.now();
    await request(`p${seq++}`, "ping");
    times.push(performance.now() - t);
    await Bun.sleep(2);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(PINGS / 2)]!, p95: times[Math.floor(PINGS * 0.95)]!, max: times[PINGS - 1]! };
}

const fmt = (ms: number) => `${ms.toFixed(2)} ms`.padStart(10);
console.log(`ping latency of pml stdio (${values.bin}) while N runaways spin, ${PINGS} pings each, ${navigator.hardwareConcurrency} cores`);
let base: number | undefined;
let runaway = 0;
for (const n of [0, 1, 3, 8]) {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = ++runaway;
    ids.push(id);
    waiting.set(id, () => {});
    send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "execute", arguments: { code: "for (;;) {}" } } });
  }
  await Bun.sleep(300);
  const r = await pings();
  base ??= r.median;
  console.log(`${String(n).padStart(2)} runaways   median ${fmt(r.median)}   p95 ${fmt(r.p95)}   max ${fmt(r.max)}   ratio ${(r.median / base).toFixed(1)}x`);
  for (const id of ids) send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } });
  await Bun.sleep(100);
}
proc.kill();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
