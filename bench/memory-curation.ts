// Procedural memory part 2 (issue 13): dns:query by tag and by creator glob at 100k capabilities,
// version resolution by date among 100 versions, and heuristic curation on sets of snippets named
// the way a careful person would (bench/curation-quality.ts, which also runs alone).
// Run: bun bench/memory-curation.ts [--count 100000]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { codeHash } from "../src/memory/code-hash.ts";
import { SqliteCapabilityStore } from "../src/memory/sqlite-store.ts";
import { pickVersion } from "../src/memory/versions.ts";
import { CURATION_SETS, curationReport } from "./curation-quality.ts";
import { printTable, summarize } from "./stats.ts";

const { values } = parseArgs({ options: { count: { type: "string", default: "100000" }, misses: { type: "boolean", default: false } } });
const COUNT = Number(values.count);
const dir = mkdtempSync(join(tmpdir(), "pml-bench-curation-"));
const scope = { org: "local", project: "bench" };
const CREATORS = ["alice", "alina", "bob", "carol", "dave", "erin", "frank", "grace"];

// --- dns:query at COUNT capabilities ------------------------------------------------------------
const store = new SqliteCapabilityStore(join(dir, "memory.db"));
const t0 = performance.now();
store.db.transaction(() => {
  for (let i = 0; i < COUNT; i++) {
    const code = `return ${i};`;
    void store.capture({
      scope, name: { namespace: ["fs", "git", "api", "util"][i % 4]!, action: `task_${i}` }, code, code_hash: codeHash(code),
      intent: `task number ${i}`, description: `task number ${i}`, parameters_schema: { type: "object", properties: {} }, default_args: {},
      tools_used: [], routing: "local", routing_explicit: false, by: CREATORS[i % CREATORS.length]!, latency_ms: 1,
    });
  }
})();
console.error(`stored ${COUNT} capabilities in ${Math.round(performance.now() - t0)} ms`);
// Tags on 2% of them: "team-a" on every 50th, "release" on every 100th.
const ids = store.db.query("SELECT id FROM capabilities ORDER BY rowid").all() as { id: string }[];
// (Written in one transaction, as the records were: store.tag() is one transaction per call.)
store.db.transaction(() => {
  for (let i = 0; i < ids.length; i += 50) {
    for (const t of i % 100 === 0 ? ["team-a", "release"] : ["team-a"]) store.db.run("INSERT INTO capability_tags (capability_id, tag) VALUES (?1, ?2)", [ids[i]!.id, t]);
  }
})();

async function timeQuery(q: Parameters<SqliteCapabilityStore["query"]>[0], n = 300): Promise<{ s: ReturnType<typeof summarize>; total: number }> {
  let total = 0;
  for (let i = 0; i < 20; i++) total = (await store.query(q)).total;
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = performance.now();
    await store.query(q);
    samples.push(performance.now() - a);
  }
  return { s: summarize(samples), total };
}
// As dns:query asks: a page of 20, matches counted up to 1000 (then "at least").
const DNS = { limit: 20, count_limit: 1000 };
const byTag = await timeQuery({ scope, tags: ["team-a", "release"], ...DNS });
const byCreator = await timeQuery({ scope, created_by: "ali*", ...DNS });
const byBoth = await timeQuery({ scope, created_by: "ali*", tags: ["team-a"], ...DNS });
const byCreatorExact = await timeQuery({ scope, created_by: "ali*", limit: 20 }, 100);
const byText = await timeQuery({ scope, text: "number 123", ...DNS }, 20);
printTable(`dns:query at ${COUNT} capabilities (store.query, limit 20, counted up to 1000), ms`, {
  [`tags team-a+release (${byTag.total} match)`]: byTag.s,
  [`created_by ali* (>= ${byCreator.total} match)`]: byCreator.s,
  [`both (${byBoth.total} match)`]: byBoth.s,
  [`created_by ali*, exact total (${byCreatorExact.total})`]: byCreatorExact.s,
  [`text "number 123" (${byText.total}, no index: LIKE)`]: byText.s,
});
console.log(`target: p95 <= 5 ms\n`);
store.close();

// --- version resolution by date among 100 versions ------------------------------------------------
const versions = Array.from({ length: 100 }, (_, i) => ({
  version_tag: `${1 + Math.floor(i / 20)}.${i % 20}.0`,
  created_at: new Date(Date.UTC(2026, 0, 1) + i * 3 * 86_400_000).toISOString(),
}));
const dates = Array.from({ length: 1000 }, (_, i) => new Date(Date.UTC(2026, 0, 1) + (i % 300) * 86_400_000).toISOString().slice(0, 10));
const vs: number[] = [];
for (const d of dates) {
  const a = performance.now();
  pickVersion(versions, d);
  vs.push(performance.now() - a);
}
printTable("version resolution by date (@YYYY-MM-DD) among 100 versions, ms", { pickVersion: summarize(vs) });
console.log(`target: p95 <= 0.1 ms\n`);

// --- heuristic curation (bench/curation-quality.ts) ------------------------------------------------
for (const [label, set] of CURATION_SETS) curationReport(label, set, values.misses);
rmSync(dir, { recursive: true, force: true });
