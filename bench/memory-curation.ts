// Procedural memory part 2 (issue 13): dns:query by tag and by creator glob at 100k capabilities,
// version resolution by date among 100 versions, and heuristic curation on two sets of snippets named
// the way a careful person would (bench/curation-tuning.ts, bench/curation-heldout.ts).
// Run: bun bench/memory-curation.ts [--count 100000] [--curation-only] [--set tuning,held-out,held-out-2,held-out-3|all] [--misses]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { codeHash } from "../src/memory/code-hash.ts";
import { AUTO_THRESHOLD, suggestName, type CurationInput } from "../src/memory/curation.ts";
import { checkName } from "../src/memory/names.ts";
import { SqliteCapabilityStore } from "../src/memory/sqlite-store.ts";
import { pickVersion } from "../src/memory/versions.ts";
import { HELD_OUT } from "./curation-heldout.ts";
import { HELD_OUT_2 } from "./curation-heldout-2.ts";
import { HELD_OUT_3 } from "./curation-heldout-3.ts";
import { TUNING, type Snippet } from "./curation-tuning.ts";
import { printTable, summarize } from "./stats.ts";

const { values } = parseArgs({
  options: { count: { type: "string", default: "100000" }, "curation-only": { type: "boolean" }, set: { type: "string", default: "all" }, misses: { type: "boolean" } },
});
const COUNT = Number(values.count);
const dir = mkdtempSync(join(tmpdir(), "pml-bench-curation-"));
const scope = { org: "local", project: "bench" };
const CREATORS = ["alice", "alina", "bob", "carol", "dave", "erin", "frank", "grace"];

if (!values["curation-only"]) {
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
  const byTag = await timeQuery({ scope, tags: ["team-a", "release"], limit: 20 });
  const byCreator = await timeQuery({ scope, created_by: "ali*", limit: 20 });
  const byBoth = await timeQuery({ scope, created_by: "ali*", tags: ["team-a"], limit: 20 });
  printTable(`dns:query at ${COUNT} capabilities (store.query, limit 20), ms`, {
    [`tags team-a+release (${byTag.total} match)`]: byTag.s,
    [`created_by ali* (${byCreator.total} match)`]: byCreator.s,
    [`both (${byBoth.total} match)`]: byBoth.s,
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
}

// --- heuristic curation -----------------------------------------------------------------------------
// Four sets: the one the heuristics were tuned on and three held-out ones (see below).
// For each: share with the right namespace, a valid name, exactly the careful name; what `auto`
// (confidence > 0.8) would apply and how many of those are wrong; confidence of right vs wrong names.
function curationReport(label: string, set: Snippet[]): void {
  let nsRight = 0;
  let valid = 0;
  const right: number[] = [];
  const wrong: number[] = [];
  const misses: string[] = [];
  let applied = 0;
  let appliedWrong = 0;
  for (const [i, [intent, tools, code, want]] of set.entries()) {
    const c: CurationInput = { id: String(i), currentName: `unnamed_${codeHash(code).slice(0, 8)}`, intent, description: intent, code, tools_used: tools };
    const s = suggestName(c, () => false);
    if (s.suggestedName.split(":")[0] === want.split(":")[0]) nsRight++;
    if (checkName(s.suggestedName).ok) valid++;
    const ok = s.suggestedName === want;
    (ok ? right : wrong).push(s.confidence);
    if (s.confidence > AUTO_THRESHOLD) {
      applied++;
      if (!ok) appliedWrong++;
    }
    if (!ok) misses.push(`  "${intent}": ${s.suggestedName} (wanted ${want}, confidence ${s.confidence.toFixed(2)})`);
  }
  const pct = (n: number) => `${Math.round((100 * n) / set.length)}%`;
  const dist = (xs: number[]) => {
    if (!xs.length) return "none";
    const s = [...xs].sort((a, b) => a - b);
    const band = (lo: number, hi: number) => s.filter((x) => x > lo && x <= hi).length;
    const bands = [`<= 0.5: ${band(-1, 0.5)}`, `0.5-0.65: ${band(0.5, 0.65)}`, `0.65-0.8: ${band(0.65, AUTO_THRESHOLD)}`, `> 0.8 (auto): ${band(AUTO_THRESHOLD, 1)}`];
    return `n=${s.length} min ${s[0]!.toFixed(2)} median ${s[Math.floor(s.length / 2)]!.toFixed(2)} max ${s.at(-1)!.toFixed(2)} [${bands.join(", ")}]`;
  };
  console.log(`heuristic curation, ${label} (${set.length} snippets): right namespace ${pct(nsRight)}, valid name ${pct(valid)}, exactly right ${pct(right.length)} (${right.length})`);
  console.log(`  auto (> ${AUTO_THRESHOLD}) would apply ${applied}, of which wrong ${appliedWrong}`);
  console.log(`  confidence of right names: ${dist(right)}`);
  console.log(`  confidence of wrong names: ${dist(wrong)}`);
  if (values.misses) console.log(misses.join("\n"));
}
// Each held-out set was written before the heuristics were changed in the light of the previous
// one; held-out 1 and 2 were each looked at once and then tuned on too; held-out 3 was not tuned on.
const sets = values.set === "all" ? ["tuning", "held-out", "held-out-2", "held-out-3"] : String(values.set).split(",");
if (sets.includes("tuning")) curationReport("tuning set", TUNING);
if (sets.includes("held-out")) curationReport("held-out set 1 (seen once, then tuned on)", HELD_OUT);
if (sets.includes("held-out-2")) curationReport("held-out set 2 (seen once, then tuned on)", HELD_OUT_2);
if (sets.includes("held-out-3")) curationReport("held-out set 3 (not tuned on)", HELD_OUT_3);
rmSync(dir, { recursive: true, force: true });
