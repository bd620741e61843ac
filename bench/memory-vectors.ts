// What word vectors cost pml (issue 24), measured against a baseline binary built from main in the
// same run: the binary's size, and the resident memory of a real `pml stdio` before and after its
// first discover over 10,000 stored capabilities (the vectors file is read, every record's kept
// vector loaded, the tools embedded), then after 50 more.
// Run: bun build.ts && bun bench/memory-vectors.ts <baseline pml binary> (e.g. main's dist/pml, copied)
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
const baseline = process.argv[2];
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
// The baseline's schema ends before the vectors table: a copy without it.
const oldDb = join(dir, "memory-old.db");
{
  const d = new Database(db);
  d.run("PRAGMA wal_checkpoint(TRUNCATE)");
  d.close();
  copyFileSync(db, oldDb);
  const o = new Database(oldDb);
  o.run("DROP TABLE capability_vectors");
  o.run("DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)");
  o.close();
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

async function measure(binary: string, memoryDb: string): Promise<{ before: number; first: number; after: number; firstMs: number }> {
  const home = join(dir, `home-${Math.random().toString(36).slice(2)}`);
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
  const t = performance.now();
  await send("tools/call", { name: "discover", arguments: { query: "convert a csv report" } });
  const firstMs = performance.now() - t;
  const first = rssMb(peer.proc.pid);
  for (const [q] of QUERIES.slice(0, 50)) await send("tools/call", { name: "discover", arguments: { query: q } });
  const after = rssMb(peer.proc.pid);
  peer.close();
  await peer.proc.exited;
  return { before, first, after, firstMs };
}

const RUNS = 3;
const size = (p: string) => statSync(p).size / 2 ** 20;
const rows: Array<[string, string, string]> = [];
if (baseline) rows.push(["baseline", baseline, oldDb]);
rows.push(["this branch", ours, db]);
console.log(`\nword vectors: binary size and resident memory of pml stdio (10,000 capabilities; median of ${RUNS} processes), MiB`);
console.log(
  `  ${"".padEnd(14)}${"binary".padStart(9)}${"RSS start".padStart(11)}${"1st disc.".padStart(11)}${"growth".padStart(9)}${"+50 disc.".padStart(11)}${"1st ms".padStart(9)}`,
);
const results: Record<string, { size: number; growth: number }> = {};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
for (const [label, bin, memoryDb] of rows) {
  // RSS depends on when the collector last ran: the median of a few fresh processes.
  const runs: Array<Awaited<ReturnType<typeof measure>>> = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measure(bin, memoryDb));
  const m = Object.fromEntries((["before", "first", "after", "firstMs"] as const).map((k) => [k, median(runs.map((r) => (k === "first" ? r.first - r.before : r[k])))])) as {
    before: number;
    first: number;
    after: number;
    firstMs: number;
  };
  m.first += m.before; // the median growth, shown as an RSS
  results[label] = { size: size(bin), growth: m.first - m.before };
  console.log(
    `  ${label.padEnd(14)}${size(bin).toFixed(1).padStart(9)}${m.before.toFixed(1).padStart(11)}${m.first.toFixed(1).padStart(11)}${(m.first - m.before).toFixed(1).padStart(9)}${m.after.toFixed(1).padStart(11)}${m.firstMs.toFixed(0).padStart(9)}`,
  );
}
if (baseline) {
  const b = results.baseline!;
  const o = results["this branch"]!;
  console.log(
    `  binary growth ${(o.size - b.size).toFixed(2)} MiB (target <= 10 MB); first-discover RSS growth ${o.growth.toFixed(1)} MiB vs ${b.growth.toFixed(1)} MiB without vectors (target <= 30 MB)`,
  );
}
rmSync(dir, { recursive: true, force: true });
