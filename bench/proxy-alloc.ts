// Objects allocated per proxied tools/call, by JSC cell type, in process: the real Gateway, tool
// host and pool with server-everything as a private_mcps entry (bench/proxy-cpu.ts's `plain`),
// driven at concurrency 32 by a client that hands lines to Gateway.receiveText. After a full
// collection, a short block of calls runs (too short for the young generation to be collected),
// and the live cells by type are compared with before. The figures include this client's own
// cells (about 10 objects, 8 strings, 5 functions and 5 scopes per call); compare builds, not
// absolute numbers. `bun bench/proxy-alloc.ts [--calls 300] [--rounds 5]`.
import { heapStats } from "bun:jsc";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { trustWorkspace } from "../test/helpers/trust.ts";

const { values } = parseArgs({ options: { calls: { type: "string", default: "300" }, rounds: { type: "string", default: "5" } } });
const N = Number(values.calls);
const root = resolve(import.meta.dir, "..");
const serverScript = join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const tmp = mkdtempSync(join(tmpdir(), "pml-bench-proxy-alloc-"));
const ws = join(tmp, "ws");
mkdirSync(ws);
writeFileSync(
  join(ws, ".pml.json"),
  JSON.stringify({
    permissions: { allow: ["plain:*"], ask: [], deny: [] },
    private_mcps: { plain: { type: "stdio", command: process.execPath, args: [serverScript, "stdio"], env: { BUN_BE_BUN: "1" } } },
  }),
);
const home = join(tmp, "home");
Object.assign(process.env, { PML_WORKSPACE: ws, PML_HOME: home, PML_LOG: "warn" });
await trustWorkspace(ws, home);
const { Gateway } = await import("../src/gateway/dispatch/server.ts");
const { createToolHost } = await import("../src/gateway/tool-host.ts");

const waiting = new Map<unknown, () => void>();
let out = "";
const gateway = new Gateway(() => createToolHost());
const session = gateway.openSession("stdio", (msg) => {
  out += `${JSON.stringify(msg)}\n`; // what stdio does with an answer
  if (out.length > 1e6) out = "";
  if ("id" in msg) waiting.get(msg.id)?.();
});
let next = 1;
function call(method: string, params: unknown): Promise<void> {
  const id = next++;
  return new Promise((done) => {
    waiting.set(id, () => {
      waiting.delete(id);
      done();
    });
    void gateway.receiveText(session, JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  });
}
async function block(n: number): Promise<void> {
  let k = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (k < n) await call("tools/call", { name: "plain__echo", arguments: { message: `m${k++}` } });
    }),
  );
}

await call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
void gateway.receiveText(session, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
await block(20_000); // warm: the JIT settled, every cache filled
const rounds: Map<string, number>[] = [];
for (let r = 0; r < Number(values.rounds); r++) {
  Bun.gc(true);
  const before = heapStats().objectTypeCounts as Record<string, number>;
  await block(N);
  const after = heapStats().objectTypeCounts as Record<string, number>;
  rounds.push(new Map(Object.entries(after).map(([type, n]) => [type, (n - (before[type] ?? 0)) / N])));
}
const types = [...new Set(rounds.flatMap((m) => [...m.keys()]))];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows = types.map((t) => [t, median(rounds.map((m) => m.get(t) ?? 0))] as const).filter(([, n]) => n >= 0.05);
console.log(`cells allocated per proxied call (median of ${rounds.length} rounds of ${N} calls), by type:`);
for (const [t, n] of rows.sort((a, b) => b[1] - a[1])) console.log(`  ${t.padEnd(24)} ${n.toFixed(2)}`);
console.log(`  ${"all".padEnd(24)} ${rows.reduce((s, [, n]) => s + n, 0).toFixed(1)}`);
await gateway.shutdown();
rmSync(tmp, { recursive: true, force: true });
process.exit(0);
