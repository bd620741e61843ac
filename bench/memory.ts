// Procedural memory: name resolution at 10k and 100k capabilities, discover latency and quality
// (paraphrased intents among 10k synthetic capabilities + the catalog's and built-in tools), the
// cost of calling a capability tool vs running the same code through execute, and the agent's
// view of reuse (tool calls and bytes for a 3-tool task done directly, by execute, by capability),
// and dns:query by tags, creator glob and text at 20k and 100k (bench/memory-query.ts).
// Run: bun build.ts && bun bench/memory.ts [--quick]
// --provider: the quality sets with and without an embeddings provider (memory.embeddings), a local
// stand-in embedding with Universal Sentence Encoder lite (bench/embed-server.ts, installed on demand),
// among PROVIDER_CAPS capabilities (default 2,040: 1,968 synthetic + the 72 targets); implies --quality.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { capabilityDoc } from "../src/memory/search-docs.ts";
import { FUSION } from "../src/memory/hybrid.ts";
import { Memory, memorySettings } from "../src/memory/memory.ts";
import { SearchIndex, type SearchOptions } from "../src/memory/search.ts";
import { SqliteCapabilityStore } from "../src/memory/sqlite-store.ts";
import { RawPeer } from "../test/helpers/pml.ts";
import { HELD_OUT, HELD_OUT_2, HELD_OUT_3, HELD_OUT_4, HELD_OUT_5, HELD_OUT_6, HELD_OUT_7, MEANING_TUNE, QUERIES, TARGETS } from "./memory-intents.ts";
import { HELD_OUT_8, HELD_OUT_9 } from "./memory-intents-blind.ts";
import { HELD_OUT_10 } from "./memory-intents-blind-2.ts";
import { HELD_OUT_11, HELD_OUT_12, NO_TARGET_11, NO_TARGET_12 } from "./memory-intents-blind-3.ts";
import { HELD_OUT_13, NO_TARGET_13 } from "./memory-intents-blind-4.ts";
import { HELD_OUT_14, NO_TARGET_14 } from "./memory-intents-blind-5.ts";
import { HELD_OUT_15, NO_TARGET_15 } from "./memory-intents-blind-6.ts";
import { HELD_OUT_16, NO_TARGET_16 } from "./memory-intents-blind-7.ts";
import { HELD_OUT_17, NO_TARGET_17 } from "./memory-intents-blind-8.ts";
import { HELD_OUT_18, NO_TARGET_18 } from "./memory-intents-blind-9.ts";
import { benchTools, capabilityGenerator } from "./memory-caps.ts";
import { queryBench } from "./memory-query.ts";
import { printTable, summarize } from "./stats.ts";
import { trustWorkspace } from "../test/helpers/trust.ts";

const quick = process.argv.includes("--quick");
const provider = process.argv.includes("--provider");
// --no-judges (with --provider): held-out 19, the set kept to judge, is neither asked nor printed (tuning runs).
const qualityOnly = provider || process.argv.includes("--quality");
// --no-judges: skip the sets that still judge (held-out 19 and later): not even their figures print,
// so that a session tuning the ranking cannot look at them. Held-out 13 to 18 have judged a change
// (2026-12-07; 17: the thesaurus's blind extension; 18: its second pass, not kept): retired, they
// are measured and their misses print like 8 to 12.
const noJudges = process.argv.includes("--no-judges");
const { HELD_OUT_19, NO_TARGET_19 } = noJudges ? { HELD_OUT_19: [] as Array<[string, string]>, NO_TARGET_19: [] as string[] } : await import("./memory-intents-blind-10.ts");
/** Sets that judge a change: their misses are never printed, nor anything with --no-judges. */
const judge = (label: string) => /^held.out (?:19|[2-9]\d)$/.test(label);
const CAPS = provider ? Number(process.env.PROVIDER_CAPS ?? 2_040) - TARGETS.length : 10_000;
const root = resolve(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "pml-bench-memory-"));
const scope = { org: "local", project: "bench", owner: "/bench/workspace" };
const settings = { ...memorySettings({} as any, "/x/bench"), scope };

// --- synthetic capabilities (bench/memory-caps.ts: one seeded sequence for every fill here) ---
const caps = capabilityGenerator(scope);
const fill = caps.fill;
const targetInputs = caps.targets;

// --- 1. name resolution ----------------------------------------------------------------------
const resolution: Record<string, ReturnType<typeof summarize>> = {};
const store = new SqliteCapabilityStore(join(dir, "memory.db"));
for (const total of qualityOnly ? [] : quick ? [10_000] : [10_000, 100_000]) {
  const t0 = performance.now();
  await fill(store, total - (total === 10_000 ? 0 : 10_000), total === 10_000 ? 0 : 10_000);
  console.error(`stored ${total} capabilities (${Math.round(performance.now() - t0)} ms to insert)`);
  const names = store.db.query("SELECT namespace, action FROM capabilities WHERE named = 1 ORDER BY random() LIMIT 2000").all() as any[];
  for (const n of names.slice(0, 200)) await store.resolve(scope, n);
  const samples: number[] = [];
  for (const n of names) {
    const s = performance.now();
    const r = await store.resolve(scope, n);
    samples.push(performance.now() - s);
    if (!r) throw new Error("not resolved");
  }
  resolution[`resolve @ ${total / 1000}k`] = summarize(samples);
}
store.close();
printTable("name -> capability (store.resolve, bun:sqlite, WAL), ms", resolution);

// --- 1b. dns:query by tags, creator glob, both, text ----------------------------------------------
if (!qualityOnly) await queryBench(quick ? [20_000] : [20_000, 100_000]);

// --- 2. discover: quality and latency at 10k + tools ------------------------------------------
const qdir = join(dir, "q");
// FROM_DB=<memory.db kept by KEEP_DB>: the same records (ids included: ties rank by id) to compare two builds' answers.
// FUSION='{"vectorWeight":0.45}' measures other fusion settings (hybrid.ts); tune on QUERIES and MEANING_TUNE only.
if (process.env.FUSION) Object.assign(FUSION, JSON.parse(process.env.FUSION));
if (process.env.FROM_DB) {
  (await import("node:fs")).mkdirSync(qdir, { recursive: true });
  (await import("node:fs")).copyFileSync(process.env.FROM_DB, join(qdir, "memory.db"));
} else {
  const qstore = new SqliteCapabilityStore(join(qdir, "memory.db"));
  await fill(qstore, CAPS);
  for (const t of targetInputs()) await qstore.capture(t);
  qstore.close();
}
const tools = await benchTools();
const memory = new Memory(join(qdir, "memory.db"));

const t1 = performance.now();
await memory.discover(settings, "warm up the index", tools, 10);
const firstMs = performance.now() - t1;

const rank = (ids: string[], expected: string) => {
  const ok = expected.split("|");
  return ids.findIndex((id) => ok.includes(id));
};
const misses: string[] = [];
/** Sets written blind and still judging: their misses are never printed, so that they stay a judge
 * nothing was tuned on. Held-out 8 to 18 have each judged a change: retired, they print. */
const blind = judge;
/** Per set: how the right target and a wrong top-1 result were marked (Found.match). */
const matchShares: Record<string, Record<"right" | "rightStrong" | "rightFair" | "top1Right" | "top1RightCalled" | "wrong" | "wrongStrong" | "wrongFair", number>> = {};
/** Per set and label: how many first results carried it, how many of them were right; and the queries. */
const labelShares: Record<string, { queries: number; first: Record<string, number>; right: Record<string, number> }> = {};
const latency: number[] = [];
const dumped: string[] = [];
async function measure(set: Array<[string, string]>, label: string, mem = memory, times?: number[], asking = settings): Promise<[number, number, number]> {
  let top1 = 0;
  let top5 = 0;
  let top20 = 0;
  for (const [q, expected] of set) {
    const began = performance.now();
    const { results, evidence } = await mem.discover(asking, q, tools, 20);
    times?.push(performance.now() - began);
    // DUMP=<file>: every answer, to check that a change keeps the ranking identical (diff two runs);
    // DUMP_EVIDENCE=1 adds each result's evidence for its label (match-label.ts).
    const withEvidence = (i: number) => (process.env.DUMP_EVIDENCE && evidence ? [evidence[i]] : []);
    if (process.env.DUMP && !blind(label))
      dumped.push(`${label}	${q}	${expected}	${JSON.stringify(results.map((r, i) => [r.id, r.score, r.match, r.variants ?? [], ...withEvidence(i)]))}`);
    const at = rank(
      results.map((r) => r.id),
      expected,
    );
    if (at === 0) top1++;
    if (at >= 0) top20++;
    const m = (matchShares[label] ??= { right: 0, rightStrong: 0, rightFair: 0, top1Right: 0, top1RightCalled: 0, wrong: 0, wrongStrong: 0, wrongFair: 0 });
    if (at >= 0) {
      m.right++;
      if (results[at]!.match === "strong") m.rightStrong++;
      if (results[at]!.match === "fair") m.rightFair++;
    }
    if (at === 0) {
      m.top1Right++;
      if (results[0]!.match !== "weak") m.top1RightCalled++;
    } else if (results[0]) {
      m.wrong++;
      if (results[0].match === "strong") m.wrongStrong++;
      if (results[0].match === "fair") m.wrongFair++;
    }
    const l = (labelShares[label] ??= { queries: 0, first: {}, right: {} });
    l.queries++;
    const first = results[0]?.match ?? "none";
    l.first[first] = (l.first[first] ?? 0) + 1;
    if (at === 0) l.right[first] = (l.right[first] ?? 0) + 1;
    if (at >= 0 && at < 5) top5++;
    else if (!blind(label))
      misses.push(
        `  ${label}: "${q}" -> want ${expected}, got ${results
          .slice(0, 3)
          .map((r) => r.id)
          .join(", ")}${at >= 0 ? ` (rank ${at + 1})` : ""}`,
      );
  }
  return [top1, top5, top20];
}
const tuning = await measure(QUERIES, "tuning set");
const [top1, top5] = tuning;
const heldA = await measure(HELD_OUT, "held out");
const [held1, held5] = heldA;
const heldB = await measure(HELD_OUT_2, "held out 2");
const [heldB1, heldB5] = heldB;
const heldC = await measure(HELD_OUT_3, "held out 3");
const [heldC1, heldC5] = heldC;
const meaningTune = await measure(MEANING_TUNE, "meaning tuning");
const heldD = await measure(HELD_OUT_4, "held out 4");
const heldE = await measure(HELD_OUT_5, "held out 5");
const heldF = await measure(HELD_OUT_6, "held out 6");
const heldG = await measure(HELD_OUT_7, "held out 7");
const heldH = await measure(HELD_OUT_8, "held out 8");
const heldI = await measure(HELD_OUT_9, "held out 9");
const heldJ = await measure(HELD_OUT_10, "held out 10");
const heldK = await measure(HELD_OUT_11, "held out 11");
const heldL = await measure(HELD_OUT_12, "held out 12");
const heldM = await measure(HELD_OUT_13, "held out 13");
const heldN = await measure(HELD_OUT_14, "held out 14");
const heldO = await measure(HELD_OUT_15, "held out 15");
const heldP = await measure(HELD_OUT_16, "held out 16");
const heldQ = await measure(HELD_OUT_17, "held out 17");
const heldR = await measure(HELD_OUT_18, "held out 18");
const heldS = await measure(HELD_OUT_19, "held out 19");
const shipped = [tuning, heldA, heldB, heldC, meaningTune, heldD, heldE, heldF, heldG, heldH, heldI, heldJ, heldK, heldL, heldM, heldN, heldO, heldP, heldQ, heldR];
if (!noJudges) shipped.push(heldS);
const MATCH_LABELS: Array<[string, string]> = [
  ["tuning", "tuning set"],
  ["held-out", "held out"],
  ["held-out 2", "held out 2"],
  ["held-out 3", "held out 3"],
  ["meaning tune", "meaning tuning"],
  ["held-out 4", "held out 4"],
  ["held-out 5", "held out 5"],
  ["held-out 6", "held out 6"],
  ["held-out 7", "held out 7"],
  ["held-out 8", "held out 8"],
  ["held-out 9", "held out 9"],
  ["held-out 10", "held out 10"],
  ["held-out 11", "held out 11"],
  ["held-out 12", "held out 12"],
  ["held-out 13", "held out 13"],
  ["held-out 14", "held out 14"],
  ["held-out 15", "held out 15"],
  ["held-out 16", "held out 16"],
  ["held-out 17", "held out 17"],
  ["held-out 18", "held out 18"],
  ["held-out 19", "held out 19"],
].filter(([, label]) => !(noJudges && judge(label!))) as Array<[string, string]>;
const matchReport = MATCH_LABELS.map(([name, label]) => [name, { ...matchShares[label]! }] as const);
/** Every request set, named as the tables print them. */
const SETS: Array<[string, Array<[string, string]>]> = [
  ["tuning", QUERIES],
  ["held-out", HELD_OUT],
  ["held-out 2", HELD_OUT_2],
  ["held-out 3", HELD_OUT_3],
  ["meaning tune", MEANING_TUNE],
  ["held-out 4", HELD_OUT_4],
  ["held-out 5", HELD_OUT_5],
  ["held-out 6", HELD_OUT_6],
  ["held-out 7", HELD_OUT_7],
  ["held-out 8", HELD_OUT_8],
  ["held-out 9", HELD_OUT_9],
  ["held-out 10", HELD_OUT_10],
  ["held-out 11", HELD_OUT_11],
  ["held-out 12", HELD_OUT_12],
  ["held-out 13", HELD_OUT_13],
  ["held-out 14", HELD_OUT_14],
  ["held-out 15", HELD_OUT_15],
  ["held-out 16", HELD_OUT_16],
  ["held-out 17", HELD_OUT_17],
  ["held-out 18", HELD_OUT_18],
  ["held-out 19", HELD_OUT_19],
].filter(([name]) => !(noJudges && judge(name as string))) as Array<[string, Array<[string, string]>]>;
// --provider: the same sets through the provider's fusion (bench/memory-provider.ts), then done.
if (provider) {
  const { providerPass } = await import("./memory-provider.ts");
  await providerPass({
    dbPath: join(qdir, "memory.db"),
    settings,
    tools,
    sets: SETS,
    builtin: shipped,
    misses,
    labels: labelShares,
    measure: (set, label, mem, times, asking) => measure(set, label, mem, times, asking),
    builtinTimes: async () => {
      const times: number[] = [];
      const fresh = new Memory(join(qdir, "memory.db"));
      await fresh.discover(settings, "warm up the index", tools, 10);
      // Timing only: what it misses is not kept (a blind set's misses are never printed).
      const keep = misses.length;
      for (const [, set] of SETS) await measure(set, "timing", fresh, times);
      misses.length = keep;
      await fresh.close();
      return times;
    },
  });
  if (process.env.DUMP) writeFileSync(process.env.DUMP, `${dumped.join("\n")}\n`);
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
// The same pipeline with the vector side's weight at 0: words alone, as before issue 24.
const wordsOnly: Array<[string, number[]]> = [];
{
  const weight = FUSION.vectorWeight;
  FUSION.vectorWeight = 0;
  const keep = misses.length;
  for (const [label, set] of SETS) wordsOnly.push([label, await measure(set, label)]);
  misses.length = keep;
  FUSION.vectorWeight = weight;
}
for (let i = 0; i < (quick ? 5 : 20); i++)
  for (const [q] of QUERIES) {
    const s = performance.now();
    await memory.discover(settings, q, tools, 10);
    latency.push(performance.now() - s);
  }
await memory.close();
// Every set's requests, each asked once of a fresh index (after its first load): what a request
// costs whose candidates no earlier request brought (their words are read then, once: meaning.ts).
// Three fresh indexes: "first ask" is the first's timings; "first ask, best of 3" each request's
// fastest of the three, its own cost with less of a shared machine's noise (descheduling, a
// neighbour's load) in it.
const firstAsk: number[] = [];
const bestFirstAsk: number[] = [];
for (let round = 0; round < (quick ? 1 : 3); round++) {
  const fresh = new Memory(join(qdir, "memory.db"));
  await fresh.discover(settings, "warm up the index", tools, 10);
  let i = 0;
  for (const [q] of SETS.flatMap(([, set]) => set)) {
    const s = performance.now();
    await fresh.discover(settings, q, tools, 10);
    const ms = performance.now() - s;
    if (round === 0) firstAsk.push(ms);
    bestFirstAsk[i] = Math.min(bestFirstAsk[i] ?? Infinity, ms);
    i++;
  }
  await fresh.close();
}
if (process.env.DUMP) writeFileSync(process.env.DUMP, `${dumped.join("\n")}\n`);
if (process.env.KEEP_DB) {
  const { copyFileSync } = await import("node:fs");
  const { Database } = await import("bun:sqlite");
  const d = new Database(join(qdir, "memory.db"));
  d.run("PRAGMA wal_checkpoint(TRUNCATE)");
  d.close();
  copyFileSync(join(qdir, "memory.db"), process.env.KEEP_DB);
}

// The same documents under plainer rankings, measured in this run for comparison: top-1 and
// top-5 hits on each set.
async function quality(opts: SearchOptions): Promise<Array<[number, number]>> {
  const s = new SqliteCapabilityStore(join(qdir, "memory.db"));
  const index = new SearchIndex(opts);
  const names = new Map<string, string>();
  await s.searchableSince(0, [scope.owner, "user"], (c) => {
    index.add(capabilityDoc(c.id, c));
    names.set(c.id, c.display_name);
  });
  s.close();
  for (const t of tools)
    index.add({ key: `${t.ns}:${t.name}`, name: `${t.ns} ${t.name}`, description: t.description, params: Object.keys((t.inputSchema?.properties ?? {}) as object) });
  return SETS.map(([, set]) => {
    let a = 0;
    let b = 0;
    for (const [q, expected] of set) {
      const at = rank(
        index.search(q, 5).map((h) => names.get(h.key) ?? h.key),
        expected,
      );
      if (at === 0) a++;
      if (at >= 0) b++;
    }
    return [a, b];
  });
}
const pctOf = (x: number, n: number) => (n ? `${((100 * x) / n).toFixed(0)}%` : "-");
const row = (label: string, r: Array<[number, number]>) =>
  console.log(`  ${label.padEnd(40)}${r.map(([a, b], i) => `${pctOf(a, SETS[i]![1].length).padStart(6)} ${pctOf(b, SETS[i]![1].length).padStart(5)}`).join("    ")}`);
console.log(`\ndiscover quality: top-1 and top-5 hits; ${TARGETS.length} target capabilities among 10,000 synthetic ones + ${tools.length} real tools`);
console.log(
  `  tuning: ${QUERIES.length} paraphrases the ranking was tuned on; held-out: ${HELD_OUT.length} written after that tuning; held-out 2: ${HELD_OUT_2.length} written before result diversity; held-out 3: ${HELD_OUT_3.length} written before the next change. No held-out set was tuned on.`,
);
console.log(`  ${"".padEnd(40)}${SETS.map(([n]) => n.padStart(12)).join("    ")}`);
row("BM25F, fields only", await quality({ stemming: false, synonyms: false, diversity: false }));
row("+ stemming", await quality({ synonyms: false, diversity: false }));
row("+ thesaurus and prefixes", await quality({ wordnet: false, diversity: false }));
row("+ result diversity", await quality({ wordnet: false }));
row("+ WordNet synonyms (what pml ships)", await quality({}));
const all = QUERIES.length + HELD_OUT.length + HELD_OUT_2.length + HELD_OUT_3.length;
console.log(
  `  through Memory.discover (what pml ships): tuning top-5 ${pctOf(top5, QUERIES.length)}, held-out ${pctOf(held5, HELD_OUT.length)}, held-out 2 ${pctOf(heldB5, HELD_OUT_2.length)}, held-out 3 ${pctOf(heldC5, HELD_OUT_3.length)}; all ${all}: top-1 ${pctOf(top1 + held1 + heldB1 + heldC1, all)}, top-5 ${pctOf(top5 + held5 + heldB5 + heldC5, all)}  (target top-5 >= 90%)`,
);
const pct3 = ([a, b, c]: number[], n: number) => `top-1 ${pctOf(a!, n)}, top-5 ${pctOf(b!, n)}, top-20 ${pctOf(c!, n)}`;
console.log(
  `  through Memory.discover, meaning sets (issue 24): tuning ${MEANING_TUNE.length}: ${pct3(meaningTune, MEANING_TUNE.length)}; held-out 4 (${HELD_OUT_4.length}, never tuned on): ${pct3(heldD, HELD_OUT_4.length)}; held-out 5 (${HELD_OUT_5.length}, never tuned on): ${pct3(heldE, HELD_OUT_5.length)}; held-out 6 (${HELD_OUT_6.length}, never tuned on): ${pct3(heldF, HELD_OUT_6.length)}; held-out 7 (${HELD_OUT_7.length}, written blind): ${pct3(heldG, HELD_OUT_7.length)}; held-out 8 (${HELD_OUT_8.length}, written blind): ${pct3(heldH, HELD_OUT_8.length)}; held-out 9 (${HELD_OUT_9.length}, written blind): ${pct3(heldI, HELD_OUT_9.length)}; held-out 10 (${HELD_OUT_10.length}, written blind): ${pct3(heldJ, HELD_OUT_10.length)}; held-out 11 (${HELD_OUT_11.length}, written blind): ${pct3(heldK, HELD_OUT_11.length)}; held-out 12 (${HELD_OUT_12.length}, written blind): ${pct3(heldL, HELD_OUT_12.length)}; held-out 13 (${HELD_OUT_13.length}, written blind): ${pct3(heldM, HELD_OUT_13.length)}; held-out 14 (${HELD_OUT_14.length}, written blind): ${pct3(heldN, HELD_OUT_14.length)}; held-out 15 (${HELD_OUT_15.length}, written blind): ${pct3(heldO, HELD_OUT_15.length)}; held-out 16 (${HELD_OUT_16.length}, written blind): ${pct3(heldP, HELD_OUT_16.length)}; held-out 17 (${HELD_OUT_17.length}, written blind): ${pct3(heldQ, HELD_OUT_17.length)}; held-out 18 (${HELD_OUT_18.length}, written blind): ${pct3(heldR, HELD_OUT_18.length)}${noJudges ? "" : `; held-out 19 (${HELD_OUT_19.length}, written blind): ${pct3(heldS, HELD_OUT_19.length)}`}`,
);
console.log("  through Memory.discover, every set, top-1/5/20:");
for (const [i, [label, set]] of SETS.entries())
  console.log(`    ${label.padEnd(14)}${String(set.length).padStart(4)}  ${shipped[i]!.map((x) => pctOf(x, set.length).padStart(5)).join(" ")}`);
console.log(
  `  the same with the vector side off (words alone): ${wordsOnly.map(([l, r], i) => `${l} ${r.map((x) => pctOf(x, SETS[i]![1].length)).join("/")}`).join("; ")}  (top-1/5/20)`,
);
console.log(
  `  with vectors: tuning ${pctOf(top1, QUERIES.length)}/${pctOf(top5, QUERIES.length)}; held-out ${pctOf(held1, HELD_OUT.length)}/${pctOf(held5, HELD_OUT.length)}; held-out 2 ${pctOf(heldB1, HELD_OUT_2.length)}/${pctOf(heldB5, HELD_OUT_2.length)}; held-out 3 ${pctOf(heldC1, HELD_OUT_3.length)}/${pctOf(heldC5, HELD_OUT_3.length)}  (top-1/5)`,
);
console.log(
  '  match (Found.match, from absolute evidence): the right target (in the top 20) marked strong / fair; a right top-1 marked strong or fair ("called"); a wrong top-1 marked strong / fair',
);
for (const [name, m] of matchReport)
  console.log(
    `    ${name.padEnd(14)} right: strong ${pctOf(m.rightStrong, m.right).padStart(4)} fair ${pctOf(m.rightFair, m.right).padStart(4)} (of ${m.right});  right top-1 called ${pctOf(m.top1RightCalled, m.top1Right).padStart(4)} (of ${m.top1Right});  wrong top-1: strong ${pctOf(m.wrongStrong, m.wrong).padStart(4)} fair ${pctOf(m.wrongFair, m.wrong).padStart(4)} (of ${m.wrong})`,
  );
console.log(
  "  match labels of the first result: per label, first results carrying it, right among them (precision), share of the right first results (recall); wrong first results marked strong, of all queries (target ≤ 5%)",
);
for (const [name, label] of MATCH_LABELS) {
  const l = labelShares[label]!;
  const rights = Object.values(l.right).reduce((a, b) => a + b, 0);
  const cell = (m: string) =>
    `${m} ${String(l.first[m] ?? 0).padStart(3)}: ${String(l.right[m] ?? 0).padStart(3)} right ${pctOf(l.right[m] ?? 0, l.first[m] ?? 0).padStart(4)} (recall ${pctOf(l.right[m] ?? 0, rights).padStart(4)})`;
  const wrongStrong = (l.first.strong ?? 0) - (l.right.strong ?? 0);
  console.log(
    `    ${name.padEnd(14)} ${["strong", "fair", "weak"].map(cell).join(";  ")};  wrong strong first ${pctOf(wrongStrong, l.queries).padStart(4)} (${wrongStrong}/${l.queries})`,
  );
}
await genericRequests();
if (misses.length) console.log(`  not in the top 5:\n${misses.join("\n")}`);
console.log(`  first discover (loads 10,050 records into the index): ${firstMs.toFixed(1)} ms`);
printTable("discover {query} over 10k capabilities + tools (Memory.discover), ms", {
  "asked before": summarize(latency),
  "first ask": summarize(firstAsk),
  ...(quick ? {} : { "first ask, best of 3": summarize(bestFirstAsk) }),
});

if (qualityOnly) {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

// --- 3 and 4. through the real binary --------------------------------------------------------
const ws = join(dir, "ws");
const home = join(dir, "home");
const { mkdirSync } = await import("node:fs");
mkdirSync(ws, { recursive: true });
writeFileSync(join(ws, ".pml.json"), JSON.stringify({ permissions: { allow: ["filesystem"] } }));
await trustWorkspace(ws, home);
writeFileSync(join(ws, "package.json"), JSON.stringify({ name: "demo", version: "1.2.3", dependencies: { a: "1", b: "2" } }, null, 2));
const peer = new RawPeer([join(root, "dist/pml")], { cwd: ws, env: { ...process.env, PML_WORKSPACE: ws, PML_HOME: home } as Record<string, string> });
await peer.initialize();
let id = 1;
let bytes = 0;
const call = async (name: string, args: unknown) => {
  const req = { jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args } };
  const text = JSON.stringify(req);
  peer.write(`${text}\n`);
  const res = await peer.next((m) => m.id === req.id);
  bytes += text.length + JSON.stringify(res).length;
  if (res.result?.isError) throw new Error(JSON.stringify(res.result));
  return res.result;
};

const small = "return args.n + 1;";
await call("execute", { code: small, args: { n: 1 }, name: "util:add_one" });
const n = quick ? 200 : 1000;
const exec: number[] = [];
const cap: number[] = [];
for (let i = 0; i < 50; i++) {
  await call("execute", { code: small, args: { n: i } });
  await call("cap__util__add_one", { n: i });
}
for (let i = 0; i < n; i++) {
  let s = performance.now();
  await call("execute", { code: small, args: { n: i } });
  exec.push(performance.now() - s);
  s = performance.now();
  await call("cap__util__add_one", { n: i });
  cap.push(performance.now() - s);
}
const e = summarize(exec);
const c = summarize(cap);
printTable(`calling the same code: execute {code} vs its capability tool, ${n} calls each over stdio, ms`, { "execute {code}": e, cap__util__add_one: c });
console.log(`capability tool overhead vs execute (median): ${(c.median - e.median).toFixed(3)} ms  (target <= 0.2 ms)`);

// The agent's view: read package.json, list the workspace, write a summary file.
const task = `const pkg = JSON.parse(await mcp.filesystem.read_file({ path: args.manifest }));
const entries = await mcp.filesystem.list_directory({ path: "." });
const summary = pkg.name + "@" + pkg.version + ": " + Object.keys(pkg.dependencies ?? {}).length + " deps, " + entries.split("\\n").length + " entries";
await mcp.filesystem.write_file({ path: args.out, content: summary });
return summary;`;
const view: Array<[string, number, number]> = [];
bytes = 0;
const manifest = (await call("filesystem__read_file", { path: "package.json" })) as any;
const pkg = JSON.parse(manifest.content[0].text);
const listing = (await call("filesystem__list_directory", { path: "." })) as any;
await call("filesystem__write_file", {
  path: "summary.txt",
  content: `${pkg.name}@${pkg.version}: ${Object.keys(pkg.dependencies).length} deps, ${listing.content[0].text.split("\n").length} entries`,
});
view.push(["three direct tool calls", 3, bytes]);
bytes = 0;
await call("execute", {
  code: task,
  args: { manifest: "package.json", out: "summary.txt" },
  intent: "summarise package.json and the workspace into a file",
  name: "fs:summarize_project",
});
view.push(["execute (first time)", 1, bytes]);
bytes = 0;
await call("cap__fs__summarize_project", { manifest: "package.json", out: "summary.txt" });
view.push(["cap__fs__summarize_project", 1, bytes]);
console.log("\nthe agent's view of a 3-tool task (request + response JSON-RPC bytes):");
for (const [what, calls, b] of view) console.log(`  ${what.padEnd(30)} ${calls} tool call(s)  ${String(b).padStart(6)} bytes`);
peer.close();
await peer.proc.exited;
rmSync(dir, { recursive: true, force: true });

async function genericRequests(): Promise<void> {
  // Requests for a plain thing (a tool does exactly that), written for this bench: a tuning set. A
  // label is a promise: such a request marks at most 2 results [strong] (issue 46).
  const GENERIC = [
    "read a file",
    "write a file",
    "list a directory",
    "fetch a web page",
    "search files",
    "run a shell command",
    "query a database",
    "delete a file",
    "copy a file",
    "make a directory",
  ];
  const counts: number[] = [];
  for (const q of GENERIC) {
    const { results } = await memory.discover(settings, q, tools, 10);
    counts.push(results.filter((r) => r.match === "strong").length);
  }
  const over = counts.filter((n) => n > 2).length;
  console.log(`  generic requests (${GENERIC.length}, limit 10): results marked strong per answer ${counts.join(" ")}; over 2: ${over} (target 0)`);
  // Requests no saved capability does (written blind, never printed): a capability marked strong or
  // fair there is a wrong promise; more than 2 strong results, too many.
  for (const [name, set] of [
    ["no target 11", NO_TARGET_11],
    ["no target 12", NO_TARGET_12],
    ["no target 13", NO_TARGET_13],
    ["no target 14", NO_TARGET_14],
    ["no target 15", NO_TARGET_15],
    ["no target 16", NO_TARGET_16],
    ["no target 17", NO_TARGET_17],
    ["no target 18", NO_TARGET_18],
    ["no target 19", NO_TARGET_19],
  ] as const) {
    if (!set.length) continue;
    let capStrong = 0;
    let capFair = 0;
    let overTwo = 0;
    for (const q of set) {
      const { results } = await memory.discover(settings, q, tools, 10);
      const caps = results.filter((r) => r.kind !== "tool");
      if (caps.some((r) => r.match === "strong")) capStrong++;
      else if (caps.some((r) => r.match === "fair")) capFair++;
      if (results.filter((r) => r.match === "strong").length > 2) overTwo++;
    }
    console.log(
      `  ${name} (${set.length} requests no saved capability does, written blind): a capability marked strong ${capStrong}, fair ${capFair}; over 2 strong results ${overTwo}`,
    );
  }
}
