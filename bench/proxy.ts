// Added latency and throughput of proxying through pml, against a direct connection measured in the
// same run. `bun bench/proxy.ts [--n 8000] [--concurrency 32] [--rounds 20] [--warmup 20000]
// [--pml dist/pml] [--compare other/pml ...]` (--compare, repeatable: another build measured in the same rounds,
// e.g. main's).
//
//   direct   SDK Client -> StdioClientTransport -> server-everything
//   bare     SDK Client -> bench/bare-proxy.ts (parse, remap the id, forward) -> server-everything:
//            the least a proxy process can cost, the baseline pml is held to
//   pool     pml's Pool (in-process, no client hop) -> server-everything: the pool's own cost
//   pml      SDK Client -> `pml stdio` -> pool -> server-everything (tool everything__echo), the
//            catalog server as users get it (installed, confined by bubblewrap where available)
//   pml-plain  the same pml, to a private_mcps entry starting the server as direct and bare do
//            (same runtime, not confined): pml's own cost without the confinement's
//   raw-2025 / raw-2026  a minimal line client (no SDK) -> `pml stdio`, the same call under
//            2025-11-25 (after initialize) and under 2026-07-28 (_meta on every request)
//
// The server runs on the same runtime in every case (bun, BUN_BE_BUN=1), as pml launches it.
// The pml case needs a built dist/pml whose gateway serves catalog tools; it is skipped (with the
// reason) otherwise. Targets: pml's added median over direct <= 0.1 ms, and its throughput at
// concurrency 32 >= 90% of the bare proxy's.
//
// Warm-up: each case first makes --warmup calls at concurrency 32, then 300 one by one. pml's JIT
// compiler keeps working long after a few hundred calls (its JIT thread spent 3.0 µs per call
// between calls 5k and 65k and 0.1 µs after 200k; the bare proxy's, 0.8 µs), and on a 2-core
// machine that thread takes a core from the client and the server: after 300 warm-up calls the
// c=32 figures measured pml's warm-up more than its proxying (`--warmup 0` shows that case).
// "proxy CPU/call" is the proxy process's CPU time, all threads, per call in the c=32 blocks
// (Linux): the figure least moved by other load on the machine.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Pool } from "../src/pool/pool.ts";
import { trustWorkspace } from "../test/helpers/trust.ts";
import { LineClient } from "./line-client.ts";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "8000" },
    concurrency: { type: "string", default: "32" },
    pml: { type: "string", default: "dist/pml" },
    warmup: { type: "string", default: "20000" },
    rounds: { type: "string", default: "20" },
    compare: { type: "string", multiple: true, default: [] },
  },
});
const N = Number(values.n);
const C = Number(values.concurrency);
const WARMUP = Number(values.warmup);
const ROUNDS = Math.max(1, Number(values.rounds));
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
/** One way of making the call, measured in blocks interleaved with the other cases. */
interface Case {
  name: string;
  call: Call;
  lat: number[];
  /** Throughput of each round's concurrent block (calls/s). */
  rounds: number[];
  calls: number;
  elapsed: number;
  /** The proxy process (none for direct and pool): its CPU time in the concurrent blocks. */
  pid?: () => number | null | undefined;
  cpuMs: number;
}

/**
 * CPU time of a process, all its threads (the JIT compiler's and the garbage collector's count:
 * they take a core from the client and the server on a busy machine), in ms; Linux only. From
 * the process's own counters, which keep the time of threads that have exited (summing the live
 * threads' lost it), in clock ticks: summed over the rounds, the rounding evens out.
 */
function cpuMs(pid: number): number | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

function median(xs: number[]): number {
  return pct(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
}

// The machine is shared (other processes come and go), so the cases are not measured one after
// the other: every round runs a block of each (sequential calls, then calls at concurrency C),
// in a rotating order, and the ratios below are medians of the per-round ratios.
async function block(c: Case, from: number, n: number): Promise<void> {
  for (let i = from; i < from + n; i++) {
    const t = performance.now();
    await c.call(i);
    c.lat.push(performance.now() - t);
  }
  let next = from;
  const pid = c.pid?.() ?? undefined;
  const cpu0 = pid ? cpuMs(pid) : undefined;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next < from + n) await c.call(next++);
    }),
  );
  const elapsed = performance.now() - t0;
  c.rounds.push((n / elapsed) * 1000);
  if (cpu0 !== undefined) c.cpuMs += cpuMs(pid!)! - cpu0;
  c.calls += n;
  c.elapsed += elapsed;
}

function figures(c: Case): Figures {
  const sorted = [...c.lat].sort((a, b) => a - b);
  return { median: pct(sorted, 0.5), p99: pct(sorted, 0.99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length, throughput: (c.calls / c.elapsed) * 1000 };
}

/** Median over rounds of a's throughput relative to b's in the same round. */
function roundRatio(a: Case, b: Case): number {
  return median(a.rounds.map((t, i) => t / b.rounds[i]!));
}

async function sdkClient(command: string, args: string[], cenv: Record<string, string>, cwd?: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command, args, env: cenv, cwd, stderr: "ignore" }));
  return client;
}

/** The pid of the process a client talks to (the proxy, for bare and pml). */
const pidOf = (client: Client) => () => (client.transport as StdioClientTransport | undefined)?.pid;

function check(text: string, i: number) {
  if (text !== `Echo: m${i}`) throw new Error(`response mismatch for call ${i}: ${text}`);
}

const ms = (x: number) => `${x.toFixed(3)} ms`;
const cases: Case[] = [];
const skipped: Record<string, string> = {};
const closers: (() => Promise<unknown>)[] = [];
const add = (name: string, call: Call, pid?: Case["pid"]) => cases.push({ name, call, lat: [], rounds: [], calls: 0, elapsed: 0, pid, cpuMs: 0 });
const echo =
  (client: Client, tool: string): Call =>
  async (i) => {
    const r: any = await client.callTool({ name: tool, arguments: { message: `m${i}` } });
    check(r.content[0].text, i);
  };

// direct
{
  const client = await sdkClient(process.execPath, [serverScript, "stdio"], env);
  closers.push(() => client.close());
  add("direct", echo(client, "echo"));
}

// bare proxy
{
  const client = await sdkClient(process.execPath, [join(root, "bench/bare-proxy.ts"), process.execPath, serverScript, "stdio"], env);
  closers.push(() => client.close());
  add("bare", echo(client, "echo"), pidOf(client));
}

// pool (library)
{
  const pool = new Pool({ logDir: join(tmp, "logs"), workspace: tmp });
  const spec = { command: process.execPath, args: [serverScript, "stdio"], env };
  const ctx = { signal: new AbortController().signal, progress() {} };
  closers.push(() => pool.shutdown());
  add("pool", async (i) => {
    const r: any = await pool.call("everything", spec, "echo", { message: `m${i}` }, ctx);
    check(r.content[0].text, i);
  });
}

// through pml stdio (and, with --compare, another pml binary measured in the same rounds)
const ws = join(tmp, "ws");
mkdirSync(ws);
// `plain`: the same server started exactly as direct and bare start it (this runtime, no
// confinement), to tell pml's own cost from the confined catalog server's.
writeFileSync(
  join(ws, ".pml.json"),
  JSON.stringify({
    permissions: { allow: ["everything:*", "plain:*"], ask: [], deny: [] },
    private_mcps: { plain: { type: "stdio", command: process.execPath, args: [serverScript, "stdio"], env: { BUN_BE_BUN: "1" } } },
  }),
);
const penv = { ...env, PML_HOME: join(tmp, "home"), PML_WORKSPACE: ws, PML_LOG: "warn" };
// The user trusts the file they wrote (as `pml trust --yes`); older builds ignore the record.
await trustWorkspace(ws, penv.PML_HOME);
delete (penv as any).BUN_BE_BUN;
const binaries: [string, string][] = [["pml", resolve(root, values.pml)]];
// One compared build is pml-cmp; more are pml-cmp2, pml-cmp3, ...
const compared = values.compare.map((bin, i): [string, string] => [i ? `pml-cmp${i + 1}` : "pml-cmp", bin]);
for (const [name, bin] of compared) {
  binaries.push([name, resolve(bin)]);
  // The trust record lives in PML_HOME: each compared build's home trusts the file too.
  await trustWorkspace(ws, join(tmp, `home-${name}`));
}
for (const [name, bin] of binaries) {
  if (!existsSync(bin)) {
    skipped[name] = `skipped: ${bin} not found (run \`bun build.ts\`)`;
    continue;
  }
  try {
    // Each build its own PML_HOME: an older build cannot write a memory.db a newer one migrated
    // (it would skip its tool_usage writes and look faster than it is).
    const client = await sdkClient(bin, ["stdio"], name === "pml" ? penv : { ...penv, PML_HOME: join(tmp, `home-${name}`) }, ws);
    closers.push(() => client.close().catch(() => {}));
    // the first call installs server-everything into the temp PML_HOME (network) and starts it
    const first: any = await client.callTool({ name: "everything__echo", arguments: { message: "m0" } }, undefined, { timeout: 120_000 });
    if (first?.content?.[0]?.text !== "Echo: m0") throw new Error(`everything__echo answered ${JSON.stringify(first).slice(0, 300)}`);
    add(name, echo(client, "everything__echo"), pidOf(client));
    if (name === "pml") {
      const plain: any = await client.callTool({ name: "plain__echo", arguments: { message: "m0" } }, undefined, { timeout: 60_000 });
      if (plain?.content?.[0]?.text !== "Echo: m0") throw new Error(`plain__echo answered ${JSON.stringify(plain).slice(0, 300)}`);
      add("pml-plain", echo(client, "plain__echo"), pidOf(client));
    }
  } catch (e: any) {
    skipped[name] = `skipped: pml stdio cannot call everything__echo yet (${e?.message ?? e})`;
  }
}
// Both revisions through the same minimal client, so only the protocol differs.
if (cases.some((c) => c.name === "pml")) {
  const META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  for (const revision of ["2025", "2026"] as const) {
    const raw = new LineClient([binaries[0]![1], "stdio"], penv, ws);
    closers.push(() => raw.close());
    if (revision === "2025") {
      await raw.call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
      raw.notify("notifications/initialized");
    }
    const extra = revision === "2026" ? { _meta: META } : {};
    add(
      `raw-${revision}`,
      async (i) => {
        const r: any = await raw.call("tools/call", { name: "everything__echo", arguments: { message: `m${i}` }, ...extra });
        check(r.content[0].text, i);
      },
      () => raw.proc.pid,
    );
  }
}

for (const c of cases) {
  let next = 0;
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next < WARMUP) await c.call(next++);
    }),
  );
  for (let i = 0; i < 300; i++) await c.call(i);
}
const per = Math.ceil(N / ROUNDS);
for (let round = 0; round < ROUNDS; round++) for (let k = 0; k < cases.length; k++) await block(cases[(round + k) % cases.length]!, round * per, per);
for (const close of closers) await close();
rmSync(tmp, { recursive: true, force: true });

console.log(
  `server-everything echo, ${per * ROUNDS} sequential calls + ${per * ROUNDS} calls at concurrency ${C} per case (after ${WARMUP} warm-up calls at concurrency ${C} and 300 one by one), ` +
    `in ${ROUNDS} rounds interleaving the cases\n`,
);
console.log("case      median      p99         mean        throughput      proxy CPU/call (c=32)");
const byName = Object.fromEntries(cases.map((c) => [c.name, c]));
const fig = Object.fromEntries(cases.map((c) => [c.name, figures(c)]));
for (const c of cases) {
  const f = fig[c.name]!;
  const cpu = c.cpuMs > 0 ? `${((c.cpuMs * 1000) / c.calls).toFixed(1)} µs` : "";
  console.log(`${c.name.padEnd(9)} ${ms(f.median).padEnd(11)} ${ms(f.p99).padEnd(11)} ${ms(f.mean).padEnd(11)} ${`${f.throughput.toFixed(0)} calls/s`.padEnd(15)} ${cpu}`);
}
for (const [name, why] of Object.entries(skipped)) console.log(`${name.padEnd(9)} ${why}`);
const d = fig.direct!;
const pct0 = (x: number) => `${(x * 100).toFixed(0)}%`;
console.log("\nthroughput ratios are medians of the per-round ratios");
for (const name of ["bare", "pool", "pml", "pml-plain", ...compared.map(([n]) => n)]) {
  const f = fig[name];
  if (!f) continue;
  console.log(
    `${name} vs direct: added median ${ms(f.median - d.median)}, added p99 ${ms(f.p99 - d.p99)}, ` +
      `throughput ${pct0(roundRatio(byName[name]!, byName.direct!))} of direct, ${pct0(roundRatio(byName[name]!, byName.bare!))} of bare`,
  );
}
const p = fig.pml;
if (p) {
  const ratio = roundRatio(byName.pml!, byName.bare!);
  console.log(
    `\ntargets: pml added median ${ms(p.median - d.median)} (<= 0.1 ms: ${p.median - d.median <= 0.1 ? "met" : "not met"}), ` +
      `c=${C} throughput ${pct0(ratio)} of bare (>= 90%: ${ratio >= 0.9 ? "met" : "not met"})`,
  );
}
for (const [name, bin] of compared)
  if (byName[name] && p)
    console.log(`pml vs ${name} (${bin}): median ${ms(p.median)} vs ${ms(fig[name]!.median)}, c=${C} throughput ${pct0(roundRatio(byName.pml!, byName[name]!))} of ${name}'s`);
const r5 = fig["raw-2025"];
const r6 = fig["raw-2026"];
if (r5 && r6)
  console.log(
    `2026-07-28 vs 2025-11-25 tools/call round trip (line client): median ${ms(r6.median)} vs ${ms(r5.median)}, c=${C} ${r6.throughput.toFixed(0)} vs ${r5.throughput.toFixed(0)} calls/s`,
  );
