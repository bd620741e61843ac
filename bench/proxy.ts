// Added latency and throughput of proxying through pml, against a direct connection measured in the
// same run. `bun bench/proxy.ts [--n 2000] [--concurrency 32] [--pml dist/pml]`
//
//   direct   SDK Client -> StdioClientTransport -> server-everything
//   bare     SDK Client -> bench/bare-proxy.ts (parse, remap the id, forward) -> server-everything:
//            the least a proxy process can cost, the baseline pml is held to
//   pool     pml's Pool (in-process, no client hop) -> server-everything: the pool's own cost
//   pml      SDK Client -> `pml stdio` -> pool -> server-everything (tool everything__echo)
//   raw-2025 / raw-2026  a minimal line client (no SDK) -> `pml stdio`, the same call under
//            2025-11-25 (after initialize) and under 2026-07-28 (_meta on every request)
//
// The server runs on the same runtime in every case (bun, BUN_BE_BUN=1), as pml launches it.
// The pml case needs a built dist/pml whose gateway serves catalog tools; it is skipped (with the
// reason) otherwise. Targets: pml's added median over direct <= 0.1 ms, and its throughput at
// concurrency 32 >= 90% of the bare proxy's.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Pool } from "../src/pool/pool.ts";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "32" },
    pml: { type: "string", default: "dist/pml" },
    warmup: { type: "string", default: "300" },
  },
});
const N = Number(values.n);
const C = Number(values.concurrency);
const WARMUP = Number(values.warmup);
const root = resolve(import.meta.dir, "..");
const serverScript = join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const env: Record<string, string> = { ...(process.env as Record<string, string>), BUN_BE_BUN: "1" };
const tmp = mkdtempSync(join(tmpdir(), "pml-bench-proxy-"));

type Call = (i: number) => Promise<unknown>;
interface Figures {
  median: number;
  p99: number;
  mean: number;
  throughput: number;
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

async function measure(call: Call): Promise<Figures> {
  for (let i = 0; i < WARMUP; i++) await call(i);
  const lat = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await call(i);
    lat[i] = performance.now() - t;
  }
  const sorted = Array.from(lat).sort((a, b) => a - b);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next < N) await call(next++);
    }),
  );
  const elapsed = performance.now() - t0;
  return { median: pct(sorted, 0.5), p99: pct(sorted, 0.99), mean: sorted.reduce((a, b) => a + b, 0) / N, throughput: (N / elapsed) * 1000 };
}

async function sdkClient(command: string, args: string[], cenv: Record<string, string>, cwd?: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command, args, env: cenv, cwd, stderr: "ignore" }));
  return client;
}

function check(text: string, i: number) {
  if (text !== `Echo: m${i}`) throw new Error(`response mismatch for call ${i}: ${text}`);
}

/** JSON-RPC over a child's stdin/stdout with nothing else: no schema validation, no SDK. */
class LineClient {
  private readonly proc: ReturnType<typeof Bun.spawn>;
  private readonly waiting = new Map<number, (m: any) => void>();
  private next = 1;
  constructor(cmd: string, args: string[], cenv: Record<string, string>, cwd: string) {
    const proc = Bun.spawn([cmd, ...args], { cwd, env: cenv, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
    this.proc = proc;
    void (async () => {
      const dec = new TextDecoder();
      let buf = "";
      for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
        buf += dec.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf("\n")) !== -1) {
          const m = JSON.parse(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
          if (m.method === undefined) this.waiting.get(m.id)?.(m);
        }
      }
    })();
  }
  call(method: string, params: unknown): Promise<any> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (m) => {
        this.waiting.delete(id);
        if (m.error) reject(new Error(m.error.message));
        else if (m.result?.resultType !== undefined && m.result.resultType !== "complete") reject(new Error(`resultType ${m.result.resultType}`));
        else resolve(m.result);
      });
      const sink = this.proc.stdin as import("bun").FileSink;
      sink.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      sink.flush();
    });
  }
  notify(method: string): void {
    (this.proc.stdin as import("bun").FileSink).write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  }
  async close(): Promise<void> {
    (this.proc.stdin as import("bun").FileSink).end();
    await this.proc.exited;
  }
}

const results: Record<string, Figures | string> = {};
const ms = (x: number) => `${x.toFixed(3)} ms`;

// direct
{
  const client = await sdkClient(process.execPath, [serverScript, "stdio"], env);
  results.direct = await measure(async (i) => {
    const r: any = await client.callTool({ name: "echo", arguments: { message: `m${i}` } });
    check(r.content[0].text, i);
  });
  await client.close();
}

// bare proxy
{
  const client = await sdkClient(process.execPath, [join(root, "bench/bare-proxy.ts"), process.execPath, serverScript, "stdio"], env);
  results.bare = await measure(async (i) => {
    const r: any = await client.callTool({ name: "echo", arguments: { message: `m${i}` } });
    check(r.content[0].text, i);
  });
  await client.close();
}

// pool (library)
{
  const pool = new Pool({ logDir: join(tmp, "logs"), workspace: tmp });
  const spec = { command: process.execPath, args: [serverScript, "stdio"], env };
  const ctx = { signal: new AbortController().signal, progress() {} };
  results.pool = await measure(async (i) => {
    const r: any = await pool.call("everything", spec, "echo", { message: `m${i}` }, ctx);
    check(r.content[0].text, i);
  });
  await pool.shutdown();
}

// through pml stdio
const pmlBin = resolve(root, values.pml);
if (!existsSync(pmlBin)) {
  results.pml = `skipped: ${pmlBin} not found (run \`bun build.ts\`)`;
} else {
  const ws = join(tmp, "ws");
  mkdirSync(ws);
  writeFileSync(join(ws, ".pml.json"), JSON.stringify({ permissions: { allow: ["everything:*"], ask: [], deny: [] } }));
  const penv = { ...env, PML_HOME: join(tmp, "home"), PML_WORKSPACE: ws, PML_LOG: "warn" };
  delete (penv as any).BUN_BE_BUN;
  let client: Client | undefined;
  try {
    client = await sdkClient(pmlBin, ["stdio"], penv, ws);
    // the first call installs server-everything into the temp PML_HOME (network) and starts it
    const first: any = await client.callTool({ name: "everything__echo", arguments: { message: "m0" } }, undefined, { timeout: 120_000 });
    if (first?.content?.[0]?.text !== "Echo: m0") throw new Error(`everything__echo answered ${JSON.stringify(first).slice(0, 300)}`);
    results.pml = await measure(async (i) => {
      const r: any = await client!.callTool({ name: "everything__echo", arguments: { message: `m${i}` } });
      check(r.content[0].text, i);
    });
  } catch (e: any) {
    results.pml = `skipped: pml stdio cannot call everything__echo yet (${e?.message ?? e})`;
  } finally {
    await client?.close().catch(() => {});
  }
  // Both revisions through the same minimal client, so only the protocol differs.
  if (typeof results.pml === "object") {
    const META = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    for (const revision of ["2025", "2026"] as const) {
      const raw = new LineClient(pmlBin, ["stdio"], penv, ws);
      if (revision === "2025") {
        await raw.call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
        raw.notify("notifications/initialized");
      }
      const extra = revision === "2026" ? { _meta: META } : {};
      results[`raw-${revision}`] = await measure(async (i) => {
        const r: any = await raw.call("tools/call", { name: "everything__echo", arguments: { message: `m${i}` }, ...extra });
        check(r.content[0].text, i);
      });
      await raw.close();
    }
  }
}
rmSync(tmp, { recursive: true, force: true });

console.log(`server-everything echo, ${N} sequential calls (after ${WARMUP} warm-up) + ${N} calls at concurrency ${C}\n`);
console.log("case      median      p99         mean        throughput");
for (const [name, f] of Object.entries(results)) {
  if (typeof f === "string") console.log(`${name.padEnd(9)} ${f}`);
  else console.log(`${name.padEnd(9)} ${ms(f.median).padEnd(11)} ${ms(f.p99).padEnd(11)} ${ms(f.mean).padEnd(11)} ${f.throughput.toFixed(0)} calls/s`);
}
const d = results.direct as Figures;
const bare = results.bare as Figures;
for (const name of ["bare", "pool", "pml"]) {
  const f = results[name];
  if (typeof f !== "object") continue;
  console.log(
    `\n${name} vs direct: added median ${ms(f.median - d.median)}, added p99 ${ms(f.p99 - d.p99)}, ` +
      `throughput ${((f.throughput / d.throughput) * 100).toFixed(0)}% of direct, ${((f.throughput / bare.throughput) * 100).toFixed(0)}% of bare`,
  );
}
const p = results.pml;
if (typeof p === "object")
  console.log(
    `\ntargets: pml added median ${ms(p.median - d.median)} (<= 0.1 ms: ${p.median - d.median <= 0.1 ? "met" : "not met"}), ` +
      `c=${C} throughput ${((p.throughput / bare.throughput) * 100).toFixed(0)}% of bare (>= 90%: ${p.throughput >= 0.9 * bare.throughput ? "met" : "not met"})`,
  );
const r5 = results["raw-2025"];
const r6 = results["raw-2026"];
if (typeof r5 === "object" && typeof r6 === "object")
  console.log(`2026-07-28 vs 2025-11-25 tools/call round trip (line client): median ${ms(r6.median)} vs ${ms(r5.median)}, c=${C} ${r6.throughput.toFixed(0)} vs ${r5.throughput.toFixed(0)} calls/s`);
