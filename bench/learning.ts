// Learning from use (issue 24, outcome 2): what one successful use teaches discover, and what the
// associations cost it. Among 10k synthetic capabilities, the targets of bench/memory-intents.ts
// and the catalog's and built-in tools: for every target with two or more paraphrases across the
// four query sets, the first is taught (as a discover followed by a successful call of the target
// would teach it) and the others are asked before and after; the taught words themselves are
// asked again; and discover's latency is measured with no associations and with the per-owner cap.
// Run: bun build.ts && bun bench/learning.ts [--quick]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_PER_OWNER } from "../src/memory/association-policy.ts";
import { codeHash } from "../src/memory/code-hash.ts";
import { capKey, toolKey } from "../src/memory/discover-state.ts";
import type { ToolEntry } from "../src/memory/search-docs.ts";
import { Memory, memorySettings } from "../src/memory/memory.ts";
import { checkName } from "../src/memory/names.ts";
import { SqliteCapabilityStore } from "../src/memory/sqlite-store.ts";
import type { CaptureInput } from "../src/memory/store.ts";
import { builtinCatalog } from "../src/registry/catalog.ts";
import { builtinModules } from "../src/sandbox/builtins/builtins.ts";
import { HELD_OUT, HELD_OUT_2, HELD_OUT_3, QUERIES, TARGETS } from "./memory-intents.ts";
import { printTable, summarize } from "./stats.ts";

const quick = process.argv.includes("--quick");
const dir = mkdtempSync(join(tmpdir(), "pml-bench-learning-"));
const scope = { org: "local", project: "bench", owner: "/bench/workspace" };
const settings = { ...memorySettings({} as any, "/x/bench"), scope };

let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
const VERBS =
  "read write list copy move delete parse convert validate format merge split sort filter count fetch send sync upload download generate render check compute extract compress archive scan index search".split(
    " ",
  );
const OBJECTS =
  "file json_file csv_report log_entries user_records invoices images config_values api_keys orders emails pull_requests issues metrics backups schemas tokens sessions events".split(
    " ",
  );
const QUALS = ["for the weekly report", "before deploy", "with logging", "for customers", "in parallel", "for the admin panel", "after the nightly job"];
const NSS = ["fs", "git", "db", "api", "transform", "util"];

function capture(name: { namespace: string; action: string }, code: string, intent: string, params: string[]): CaptureInput {
  return {
    scope,
    name,
    code,
    code_hash: codeHash(code),
    intent,
    description: intent,
    parameters_schema: { type: "object", properties: Object.fromEntries(params.map((p) => [p, { type: "string" }])) },
    default_args: {},
    tools_used: [],
    routing: "local",
    routing_explicit: false,
    by: "bench",
    latency_ms: 1,
  };
}

const store = new SqliteCapabilityStore(join(dir, "memory.db"));
store.db.transaction(() => {
  for (let i = 0; i < 10_000; i++) {
    const verb = pick(VERBS);
    const obj = pick(OBJECTS);
    const intent = `${verb} the ${obj.replace("_", " ")} ${pick(QUALS)}`;
    void store.capture(capture({ namespace: pick(NSS), action: `${verb}_${obj}_v${i}` }, `return ${i};`, intent, [pick(["path", "id", "text"])]));
  }
})();
for (const t of TARGETS) {
  const n = checkName(t.name);
  if (!n.ok) throw new Error(n.error);
  await store.capture(capture(n.name, `return ${JSON.stringify(t.name)};`, t.intent, t.params));
}
store.close();

const tools: ToolEntry[] = [];
for (const [ns, d] of Object.entries({ ...builtinCatalog, ...builtinModules() }))
  for (const t of d.tools ?? []) tools.push({ ns, name: t.name, description: t.description, inputSchema: t.inputSchema as Record<string, unknown> });
const memory = new Memory(join(dir, "memory.db"));
await memory.discover(settings, "warm up", tools, 10);

// Paraphrases per target, in the order of the sets (the tuning set first).
const byTarget = new Map<string, string[]>();
for (const [q, want] of [...QUERIES, ...HELD_OUT, ...HELD_OUT_2, ...HELD_OUT_3]) {
  const first = want.split("|")[0]!;
  byTarget.set(first, [...(byTarget.get(first) ?? []), q]);
}
const taught = [...byTarget].filter(([, qs]) => qs.length >= 2);
const asked = taught.flatMap(([want, qs]) => qs.slice(1).map((q) => [q, want] as const));

async function rankOf(q: string, want: string): Promise<{ at: number; topLearned: boolean; called: boolean }> {
  const { results } = await memory.discover(settings, q, tools, 10);
  const at = results.findIndex((r) => r.id === want);
  return { at, topLearned: results[0]?.learned !== undefined && results[0]?.id !== want, called: at === 0 && results[0]!.match !== "weak" };
}
async function score(pairs: ReadonlyArray<readonly [string, string]>) {
  const out = { top1: 0, top5: 0, called: 0, wrongLearnedTop: 0, ranks: [] as number[] };
  for (const [q, want] of pairs) {
    const r = await rankOf(q, want);
    out.ranks.push(r.at);
    if (r.at === 0) out.top1++;
    if (r.called) out.called++;
    if (r.at >= 0 && r.at < 5) out.top5++;
    if (r.topLearned) out.wrongLearnedTop++;
  }
  return out;
}

const latency = async () => {
  const samples: number[] = [];
  for (let i = 0; i < (quick ? 3 : 10); i++)
    for (const [q] of QUERIES) {
      const s = performance.now();
      await memory.discover(settings, q, tools, 10);
      samples.push(performance.now() - s);
    }
  return summarize(samples);
};

const timing: Record<string, ReturnType<typeof summarize>> = {};
await latency(); // warm-up: the first pass pays for the JIT and the page cache
timing["no associations"] = await latency();
const teachSet = taught.map(([want, qs]) => [qs[0]!, want] as const);
const before = { others: await score(asked), same: await score(teachSet) };
for (const [q, want] of teachSet) {
  // A target is a capability or one of the tools.
  const found = await memory.resolve(settings, want);
  const [ns, name] = want.split(":") as [string, string];
  await memory.learn(settings, found ? capKey(found.capability.id) : toolKey(ns, name), q);
}
const after = { others: await score(asked), same: await score(teachSet) };
const lost = before.others.ranks.filter((r, i) => r === 0 && after.others.ranks[i] !== 0).length;
timing[`${taught.length} associations`] = await latency();

// The owner's cap of associations: random phrasings on random capabilities.
const ids = (await memory.open()).query({ scope, limit: 10_000 });
const items = (await ids).items.map((c) => capKey(c.id));
const sdb = new SqliteCapabilityStore(join(dir, "memory.db"));
const now = new Date().toISOString();
sdb.db.transaction(() => {
  const put = sdb.db.query("INSERT OR IGNORE INTO discover_associations (owner, item_key, query, count, last_at) VALUES (?1, ?2, ?3, 1, ?4)");
  for (let i = 0; i < MAX_PER_OWNER; i++) put.run(scope.owner, pick(items), `${pick(VERBS)} ${pick(OBJECTS).replace("_", " ")} ${pick(QUALS)} ${i}`, now);
})();
sdb.close();
timing[`${MAX_PER_OWNER} associations`] = await latency();
await memory.close();
rmSync(dir, { recursive: true, force: true });

const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}%`;
console.log(`\nlearning from use: ${taught.length} targets taught with one phrasing each (one use), ${asked.length} other phrasings of them asked`);
console.log(
  `  other phrasings   top-1 ${pct(before.others.top1, asked.length)} -> ${pct(after.others.top1, asked.length)}, top-5 ${pct(before.others.top5, asked.length)} -> ${pct(after.others.top5, asked.length)}, top-1 marked strong or fair ${pct(before.others.called, asked.length)} -> ${pct(after.others.called, asked.length)}`,
);
console.log(
  `  taught phrasings  top-1 ${pct(before.same.top1, teachSet.length)} -> ${pct(after.same.top1, teachSet.length)}, top-5 ${pct(before.same.top5, teachSet.length)} -> ${pct(after.same.top5, teachSet.length)}, top-1 marked strong or fair ${pct(before.same.called, teachSet.length)} -> ${pct(after.same.called, teachSet.length)}`,
);
console.log(`  harm: ${lost} of ${asked.length} other phrasings lost their top-1; ${after.others.wrongLearnedTop} have another learned item on top`);
printTable("discover {query} over 10k capabilities + tools (Memory.discover, warm), ms", timing);
