// CPU time a proxy process spends per proxied tools/call, several builds side by side: the figure
// of bench/proxy.ts's "proxy CPU/call" measured over enough calls that the kernel's 10 ms clock
// tick does not matter (bench/proxy.ts's blocks are too short for that on a 2-core machine).
// `bun bench/proxy-cpu.ts [--calls 20000] [--rounds 6] [--warmup 30000] [--tool plain|everything]
// [--pml dist/pml] [--compare other/pml ...] [--pin] [--load N]` (a build given with spaces is a command line,
// e.g. "bun --cpu-prof-md src/main.ts" to profile the source). `--pin` (Linux, taskset): every
// proxy and its server on CPU 0; run the bench itself elsewhere (`taskset -c 1 bun bench/...`).
// On a shared 2-core machine the rounds then spread over ~3 us rather than ~12 (the same builds
// read 17-21 us pinned, 15-33 unpinned), enough to tell a 0.5 us change; the ratio to bare is
// not the unpinned one (pml and its server share a core: 1.5x where unpinned reads ~2x).
//
// Every proxy gets a minimal line client (no SDK: less client CPU competing for the cores) and
// its own PML_HOME; `plain` is a private_mcps entry starting server-everything with this runtime
// (pml's own cost), `everything` the catalog server as users get it (installed, confined). The
// bare proxy (bench/bare-proxy.ts) is the baseline. Each round runs a block of --calls calls at
// concurrency 32 on each proxy, in a rotating order; the figures are medians over rounds of the
// proxy process's CPU time (all threads, /proc/<pid>/stat) per call, and each proxy's throughput
// (calls per second of a block, on the bench's clock: the client, proxy and server together), also
// as the median of each round's ratio to bare's block of the same round.
// Each proxy's server (its descendants) is timed too: a proxy can make its server work harder.
// `--syscalls` (Linux, perf with tracepoints): also counts each proxy's system calls per call
// during its blocks (`perf stat -p`, all threads), by kind: how many wake-ups a call costs.
// `--load N`: N busy loops, each in a session of its own, for the run (a busy machine as a user's
// proxy meets it: other sessions' work; on Linux each session is a scheduling group of its own).
// `--detached-bare`: a second baseline, bare-d, the bare proxy with its server in a session of its
// own as pml's pool starts servers (setsid: a process group). Linux gives each session its own
// scheduling group (autogroup); unpinned on a busy 2-core machine that alone can turn batched
// rounds (~1.4 system calls and ~0.15 context switches per call) into one wake-up per message
// (~5-7 and ~0.6-0.9) and double the CPU per call, for the bare proxy as much as for pml.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { trustWorkspace } from "../test/helpers/trust.ts";
import { LineClient } from "./line-client.ts";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "20000" },
    rounds: { type: "string", default: "6" },
    warmup: { type: "string", default: "30000" },
    concurrency: { type: "string", default: "32" },
    tool: { type: "string", default: "plain" },
    pml: { type: "string", default: "dist/pml" },
    compare: { type: "string", multiple: true, default: [] },
    pin: { type: "boolean", default: false },
    syscalls: { type: "boolean", default: false },
    "detached-bare": { type: "boolean", default: false },
    load: { type: "string", default: "0" },
  },
});
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);
const WARMUP = Number(values.warmup);
const C = Number(values.concurrency);
const PIN = values.pin ? ["taskset", "-c", "0"] : [];
if (values.syscalls && !Bun.which("perf")) throw new Error("--syscalls counts with `perf stat` (linux-perf), which is not on PATH");
const root = resolve(import.meta.dir, "..");
const serverScript = join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const tmp = mkdtempSync(join(tmpdir(), "pml-bench-proxy-cpu-"));

/** CPU time of each thread of a process, by the thread's name, in ms (threads that exit are lost). */
function threadsMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
      out.set(name, (out.get(name) ?? 0) + ((Number(f[11]) + Number(f[12])) * 1000) / 100);
    } catch {}
  }
  return out;
}

/** CPU time of a process, all threads, in ms (Linux; clock ticks of 10 ms): user + system, and
 * system; and its minor page faults (kernel time that is no system call: a heap that grows). */
function cpuMs(pid: number): [number, number, number] {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return [((Number(f[11]) + Number(f[12])) * 1000) / 100, (Number(f[12]) * 1000) / 100, Number(f[7])];
}

/** CPU time of a process's descendants (the server it runs), in ms: what the proxy makes its server do. */
function descendantsMs(pid: number): number {
  let ms = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let children: string[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    } catch {}
    for (const child of children) {
      try {
        ms += cpuMs(Number(child))[0] + descendantsMs(Number(child));
      } catch {}
    }
  }
  return ms;
}

interface Proxy {
  name: string;
  client: LineClient;
  tool: string;
  perCall: number[];
  /** The system (kernel) part of each block's figure. */
  sysPerCall: number[];
  /** Minor page faults per call, each block. */
  faultsPerCall: number[];
  /** The CPU of the proxy's descendants (the server) per call, each block. */
  serverPerCall: number[];
  /** Calls per second of each block (the bench's wall clock). */
  rate: number[];
  /** CPU ms per thread name over the measured blocks. */
  threads: Map<string, number>;
  /** System calls per kind over the measured blocks (--syscalls). */
  syscalls: Map<string, number>;
}

const SYSCALLS = ["recvfrom", "sendto", "read", "write", "epoll_pwait2", "epoll_ctl", "futex", "madvise", "openat"];

/** Counts `pid`'s system calls (all threads) until the returned function is called. */
function countSyscalls(pid: number): () => Promise<Map<string, number>> {
  const events = ["raw_syscalls:sys_enter", ...SYSCALLS.map((s) => `syscalls:sys_enter_${s}`), "context-switches"];
  const perf = Bun.spawn(["perf", "stat", "-x", ",", "-e", events.join(","), "-p", String(pid)], { stdout: "ignore", stderr: "pipe" });
  return async () => {
    await Bun.sleep(50); // perf attaches after it starts; a late start loses a few calls, not more
    perf.kill("SIGINT");
    const text = await new Response(perf.stderr).text();
    const out = new Map<string, number>();
    for (const row of text.split("\n")) {
      const [count, , event] = row.split(",");
      if (event && count && /^\d+$/.test(count)) out.set(event.replace("syscalls:sys_enter_", "").replace("raw_syscalls:sys_enter", "all"), Number(count));
    }
    return out;
  };
}

const ws = join(tmp, "ws");
mkdirSync(ws);
writeFileSync(
  join(ws, ".pml.json"),
  JSON.stringify({
    permissions: { allow: ["everything:*", "plain:*"], ask: [], deny: [] },
    private_mcps: { plain: { type: "stdio", command: process.execPath, args: [serverScript, "stdio"], env: { BUN_BE_BUN: "1" } } },
  }),
);
const baseEnv: Record<string, string | undefined> = { ...process.env, PML_WORKSPACE: ws, PML_LOG: "warn" };
delete baseEnv.BUN_BE_BUN;

async function echo(p: Proxy, i: number): Promise<void> {
  const r = await p.client.call("tools/call", { name: p.tool, arguments: { message: `m${i}` } });
  if (r?.content?.[0]?.text !== `Echo: m${i}`) throw new Error(`${p.name}: call ${i} answered ${JSON.stringify(r).slice(0, 300)}`);
}

async function start(name: string, cmd: string[], env: Record<string, string | undefined>, tool: string): Promise<Proxy> {
  const client = new LineClient(cmd, env, ws);
  await client.call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
  client.notify("notifications/initialized");
  return { name, client, tool, perCall: [], sysPerCall: [], faultsPerCall: [], serverPerCall: [], rate: [], threads: new Map(), syscalls: new Map() };
}

// --load N: N busy processes, each in a session of its own (as other terminals' and services' work
// is): on Linux each is then a scheduling group of its own, the busy machine a user's proxy meets.
const hogs = Array.from({ length: Number(values.load) }, () => Bun.spawn(["sh", "-c", "while :; do :; done"], { detached: true, stdio: ["ignore", "ignore", "ignore"] }));
process.on("exit", () => {
  for (const h of hogs) h.kill("SIGKILL");
});

const bareCmd = (...flags: string[]) => [...PIN, process.execPath, join(root, "bench/bare-proxy.ts"), ...flags, process.execPath, serverScript, "stdio"];
const proxies: Proxy[] = [await start("bare", bareCmd(), { ...process.env, BUN_BE_BUN: "1" }, "echo")];
if (values["detached-bare"]) proxies.push(await start("bare-d", bareCmd("--detached"), { ...process.env, BUN_BE_BUN: "1" }, "echo"));
const builds = [["pml", values.pml], ...values.compare.map((b, i) => [values.compare.length > 1 ? `cmp${i + 1}` : "cmp", b])] as [string, string][];
for (const [name, bin] of builds) {
  const home = join(tmp, `home-${name}`);
  await trustWorkspace(ws, home);
  const tool = values.tool === "everything" ? "everything__echo" : "plain__echo";
  const cmd = bin.includes(" ") ? bin.split(" ") : [resolve(bin)];
  const p = await start(name, [...PIN, ...cmd, "stdio"], { ...baseEnv, PML_HOME: home }, tool);
  const first = await p.client.call("tools/call", { name: tool, arguments: { message: "m0" } });
  if (first?.content?.[0]?.text !== "Echo: m0") throw new Error(`${name} (${bin}): ${tool} answered ${JSON.stringify(first).slice(0, 300)}`);
  proxies.push(p);
}

async function run(p: Proxy, from: number, n: number): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next < from + n) await echo(p, next++);
    }),
  );
}

for (const p of proxies) await run(p, 0, WARMUP);
for (let round = 0; round < ROUNDS; round++)
  for (let k = 0; k < proxies.length; k++) {
    const p = proxies[(round + k) % proxies.length]!;
    const pid = p.client.proc.pid;
    const cpu0 = cpuMs(pid);
    const server0 = descendantsMs(pid);
    const t0 = threadsMs(pid);
    const counting = values.syscalls ? countSyscalls(pid) : undefined;
    const wall0 = performance.now();
    await run(p, WARMUP + round * CALLS, CALLS);
    p.rate.push((CALLS * 1000) / (performance.now() - wall0));
    const cpu1 = cpuMs(pid);
    p.perCall.push(((cpu1[0] - cpu0[0]) * 1000) / CALLS);
    p.sysPerCall.push(((cpu1[1] - cpu0[1]) * 1000) / CALLS);
    p.faultsPerCall.push((cpu1[2] - cpu0[2]) / CALLS);
    p.serverPerCall.push(((descendantsMs(pid) - server0) * 1000) / CALLS);
    if (counting) for (const [kind, n] of await counting()) p.syscalls.set(kind, (p.syscalls.get(kind) ?? 0) + n);
    for (const [name, ms] of threadsMs(pid)) p.threads.set(name, (p.threads.get(name) ?? 0) + ms - (t0.get(name) ?? 0));
  }
for (const p of proxies) await p.client.close();
for (const h of hogs) h.kill("SIGKILL");
rmSync(tmp, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const bare = median(proxies[0]!.perCall);
const bareRate = median(proxies[0]!.rate);
console.log(
  `proxy CPU per call (µs, all threads), ${values.tool}__echo, ${CALLS} calls at concurrency ${C} per block, ${ROUNDS} rounds after ${WARMUP} warm-up calls${hogs.length ? `, ${hogs.length} busy loops in sessions of their own` : ""}`,
);
for (const p of proxies) {
  const m = median(p.perCall);
  const bin = builds.find(([n]) => n === p.name)?.[1] ?? (p.name === "bare-d" ? "bench/bare-proxy.ts --detached" : "bench/bare-proxy.ts");
  const threads = [...p.threads].filter(([, ms]) => ms > 0).map(([name, ms]) => `${name} ${((ms * 1000) / (CALLS * ROUNDS)).toFixed(1)}`);
  console.log(`${p.name.padEnd(6)} median ${m.toFixed(1).padStart(5)}  ${(m / bare).toFixed(2)}x bare  rounds ${p.perCall.map((x) => x.toFixed(1)).join(" ")}  (${bin})`);
  console.log(
    `      of which system (kernel) median ${median(p.sysPerCall).toFixed(1)}, page faults per call ${median(p.faultsPerCall).toFixed(3)}; its server's CPU per call median ${median(p.serverPerCall).toFixed(1)}`,
  );
  console.log(`      per thread (µs/call, live threads only): ${threads.join(", ")}`);
  const sys = [...p.syscalls].filter(([, n]) => n > 0).map(([kind, n]) => `${kind} ${(n / (CALLS * ROUNDS)).toFixed(2)}`);
  if (sys.length) console.log(`      system calls per call: ${sys.join(", ")}`);
  console.log(
    `      throughput median ${(median(p.rate) / 1000).toFixed(1)}k calls/s, ${((median(p.rate) / bareRate) * 100).toFixed(0)}% of bare (rounds ${p.rate.map((r) => (r / 1000).toFixed(1)).join(" ")})`,
  );
  // Each round's blocks run back to back, so a round's ratio is what drift on a shared machine
  // moves least: the median of those, beside the ratio of the medians above.
  const paired = p.rate.map((r, i) => r / proxies[0]!.rate[i]!);
  if (p !== proxies[0])
    console.log(`      throughput in the same round as bare's: median ${(median(paired) * 100).toFixed(0)}% (rounds ${paired.map((x) => (x * 100).toFixed(0)).join(" ")})`);
}
