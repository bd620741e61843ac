// What a first discover costs pml in memory (issue 24): the binary's size, and the resident memory
// of a real `pml stdio` before and after its first discover over 10,000 stored capabilities (the
// vectors file is read, every record's kept vector loaded, the tools embedded), then after 50 more;
// then the same steps one by one in a fresh process (bench/memory-split.ts), to say where it goes.
// No baseline binary: an older pml refuses a newer memory.db, so it would search nothing.
// Run: bun build.ts && bun bench/memory-vectors.ts [--discovers 4000]   (KEEP_DB=<path> keeps the 10k memory.db)
import { Database } from "bun:sqlite";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { codeHash } from "../src/memory/code-hash.ts";
import { Memory, memorySettings } from "../src/memory/memory.ts";
import { SqliteCapabilityStore } from "../src/memory/sqlite-store.ts";
import { RawPeer } from "../test/helpers/pml.ts";
import { QUERIES } from "./memory-intents.ts";

const root = resolve(import.meta.dir, "..");
const ours = join(root, "dist/pml");
const dir = mkdtempSync(join(tmpdir(), "pml-bench-vectors-"));
const scope = { org: "local", project: "bench", owner: join(dir, "ws") };

// 10,000 capabilities, their vectors kept (as a store whose records were saved by this pml is).
const db = join(dir, "memory.db");
const store = new SqliteCapabilityStore(db);
store.db.transaction(() => {
  for (let i = 0; i < 10_000; i++) {
    const intent = `${["read", "convert", "send", "parse", "count", "deploy"][i % 6]} the ${["json file", "csv report", "slack message", "invoice", "docker image"][i % 5]} number ${i}`;
    const code = `return ${i};`;
    void store.capture({
      scope,
      name: { namespace: ["fs", "api", "util", "git"][i % 4]!, action: `task_${i}` },
      code,
      code_hash: codeHash(code),
      intent,
      description: intent,
      parameters_schema: { type: "object" },
      default_args: {},
      tools_used: [],
      routing: "local",
      routing_explicit: false,
      by: "bench",
      latency_ms: 1,
    });
  }
})();
store.close();
const memory = new Memory(db);
await memory.discover({ ...memorySettings({} as Parameters<typeof memorySettings>[0], dir), scope }, "keep the vectors", [], 10);
await memory.close();
if (process.env.KEEP_DB) {
  const d = new Database(db);
  d.run("PRAGMA wal_checkpoint(TRUNCATE)");
  d.close();
  copyFileSync(db, process.env.KEEP_DB);
}

const statusMb = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
const rssMb = (pid: number) => statusMb(pid, "VmRSS");

/** One PML_HOME for every run (a fresh memory.db each time): the first process of the binary
 * copies the embedded word vectors into its cache, the later ones read rows from that copy (word-vectors.ts). */
const home = join(dir, "home");

interface LongRun {
  /** After this many discovers: RSS right then, and 3 s later, idle. */
  at: number;
  busy: number;
  idle: number;
}

async function measure(
  binary: string,
  memoryDb: string,
  discovers = 0,
): Promise<{ before: number; first: number; after: number; firstMs: number; anon: number; file: number; settled: number; long: LongRun[] }> {
  mkdirSync(home, { recursive: true });
  copyFileSync(memoryDb, join(home, "memory.db"));
  const ws = scope.owner;
  mkdirSync(ws, { recursive: true });
  const peer = new RawPeer([binary], { cwd: ws, env: { ...process.env, PML_WORKSPACE: ws, PML_HOME: home } as Record<string, string> });
  await peer.initialize();
  let id = 100;
  const send = async (method: string, params: unknown) => {
    const req = { jsonrpc: "2.0", id: id++, method, params };
    peer.write(`${JSON.stringify(req)}\n`);
    return peer.next((m) => m.id === req.id);
  };
  await send("tools/list", {});
  Bun.gc(true);
  const before = rssMb(peer.proc.pid);
  const [anon0, file0] = [statusMb(peer.proc.pid, "RssAnon"), statusMb(peer.proc.pid, "RssFile")];
  const t = performance.now();
  await send("tools/call", { name: "discover", arguments: { query: "convert a csv report" } });
  const firstMs = performance.now() - t;
  const first = rssMb(peer.proc.pid);
  // Private memory, and pages of the binary read (its code; the first process of a binary also copies the embedded word vectors and WordNet out of it).
  const [anon, file] = [statusMb(peer.proc.pid, "RssAnon") - anon0, statusMb(peer.proc.pid, "RssFile") - file0];
  // The allocator gives freed pages back in the background: the same a few seconds later, idle.
  await Bun.sleep(3000);
  const settled = rssMb(peer.proc.pid);
  for (const [q] of QUERIES.slice(0, 50)) await send("tools/call", { name: "discover", arguments: { query: q } });
  const after = rssMb(peer.proc.pid);
  // A long session: requests cycle through the tuning set, each with a number of its own (a word
  // never seen before, as real requests bring), RSS read every 1,000 and again once idle.
  const long: LongRun[] = [];
  for (let n = 50; n < discovers; ) {
    await send("tools/call", { name: "discover", arguments: { query: `${QUERIES[n % QUERIES.length]![0]} n${n}` } });
    if (++n % 1000 && n < discovers) continue;
    const busy = rssMb(peer.proc.pid);
    await Bun.sleep(3000);
    long.push({ at: n, busy, idle: rssMb(peer.proc.pid) });
  }
  peer.close();
  await peer.proc.exited;
  return { before, first, after, firstMs, anon, file, settled, long };
}

// Five: one process's growth varies by about a MiB with when its collector ran.
const RUNS = 5;
const size = (p: string) => statSync(p).size / 2 ** 20;
console.log(`\nword vectors: binary size and resident memory of pml stdio (10,000 capabilities; median of ${RUNS} processes), MiB`);
console.log(
  `  ${"".padEnd(14)}${"binary".padStart(9)}${"RSS start".padStart(11)}${"1st disc.".padStart(11)}${"growth".padStart(9)}${"+50 disc.".padStart(11)}${"1st ms".padStart(9)}`,
);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
// RSS depends on when the collector last ran: the median of a few fresh processes.
const runs: Array<Awaited<ReturnType<typeof measure>>> = [];
const cold = await measure(ours, db);
for (let i = 0; i < RUNS; i++) runs.push(await measure(ours, db));
const before = median(runs.map((r) => r.before));
const growth = median(runs.map((r) => r.first - r.before));
console.log(
  `  ${"this branch".padEnd(14)}${size(ours).toFixed(1).padStart(9)}${before.toFixed(1).padStart(11)}${(before + growth).toFixed(1).padStart(11)}${growth.toFixed(1).padStart(9)}${median(
    runs.map((r) => r.after),
  )
    .toFixed(1)
    .padStart(11)}${median(runs.map((r) => r.firstMs))
    .toFixed(0)
    .padStart(9)}`,
);
console.log(
  `  first-discover RSS growth ${growth.toFixed(1)} MiB (target <= 30 MB, i.e. 28.6 MiB): private ${median(runs.map((r) => r.anon)).toFixed(1)}, file pages (the binary's) ${median(runs.map((r) => r.file)).toFixed(1)}; 3 s later, idle: ${median(runs.map((r) => r.settled - r.before)).toFixed(1)}`,
);
console.log(
  `  the first process of this binary (no cached vectors yet; a child pml copies them): growth ${(cold.first - cold.before).toFixed(1)}, private ${cold.anon.toFixed(1)}, file pages ${cold.file.toFixed(1)}; 3 s later ${(cold.settled - cold.before).toFixed(1)}; first discover ${cold.firstMs.toFixed(0)} ms`,
);
// `--discovers N`: one more process serves N discovers; what it holds is bounded if its idle RSS stops growing.
const at = process.argv.indexOf("--discovers");
const discovers = at > 0 ? Number(process.argv[at + 1]) : 0;
if (discovers > 0) {
  const { before: start, long } = await measure(ours, db, discovers);
  console.log(`  a long session (${discovers} discovers), RSS (idle 3 s later), MiB; ${start.toFixed(1)} before the first:`);
  console.log(`    ${long.map((l) => `${l.at}: ${l.busy.toFixed(1)} (${l.idle.toFixed(1)})`).join("   ")}`);
}
// The same steps one by one in a fresh process of this checkout's source (bench/memory-split.ts).
const split = Bun.spawnSync(["bun", join(import.meta.dir, "memory-split.ts"), db, scope.owner], { stdout: "inherit", stderr: "inherit" });
if (split.exitCode) console.log(`  (the split failed: exit ${split.exitCode})`);
rmSync(dir, { recursive: true, force: true });
