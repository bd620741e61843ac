// Where the memory of a first discover goes (issue 24): the steps CapabilityDiscovery takes on its
// first `discover {query}`, done one at a time in this process over the memory.db given, with the
// resident memory and JavaScriptCore's heap (objects + the buffers they hold) after each, collected.
// Run by bench/memory-vectors.ts in a fresh process: bun bench/memory-split.ts <memory.db> <owner>
import { heapStats } from "bun:jsc";
import { capKey } from "../src/memory/discover-state.ts";
import { capabilityDoc } from "../src/memory/search-docs.ts";

const [db, owner] = process.argv.slice(2) as [string, string];
const mib = (b: number) => b / 2 ** 20;
const sample = () => {
  Bun.gc(true);
  const h = heapStats();
  // heapSize already counts the buffers objects hold (extraMemorySize): adding it counted them twice.
  return { rss: process.memoryUsage().rss, heap: h.heapSize };
};
const rows: Array<[string, number, number]> = [];
let last = sample();
const step = (label: string) => {
  const now = sample();
  rows.push([label, mib(now.rss - last.rss), mib(now.heap - last.heap)]);
  last = now;
};

const { SqliteCapabilityStore } = await import("../src/memory/sqlite-store.ts");
const [{ SearchIndex }, { AssociationIndex, associationSimilarity }, hybrid, { Meaning }] = await Promise.all([
  import("../src/memory/search.ts"),
  import("../src/memory/associations.ts"),
  import("../src/memory/hybrid.ts"),
  import("../src/memory/meaning.ts"),
]);
const store = new SqliteCapabilityStore(db);
await store.associationStamp();
step("modules, store opened");
const meaning = (await Meaning.load())!;
step("word vectors file");
// One pass over the records per part, each taken one at a time and dropped (as discover does, in one pass).
let count = 0;
await store.searchableSince(0, [owner, "user"], () => count++);
step(`${count} records read, none kept`);
const index = new SearchIndex();
await store.searchableSince(0, [owner, "user"], (c) => index.add(capabilityDoc(capKey(c.id), c)));
step("search index");
const caps = new Map<string, object>();
await store.searchableSince(0, [owner, "user"], (c) =>
  caps.set(capKey(c.id), { owner: c.owner, name: c.display_name, named: c.named, description: c.description || c.intent, tools: c.tools_used }),
);
step("summaries (CapSummary)");
await store.searchableSince(0, [owner, "user"], (c) => meaning.record(capKey(c.id), c));
await meaning.save(store);
step("record vectors");
const learning = new AssociationIndex(
  async () => store,
  () => associationSimilarity(meaning.words),
);
await learning.boosts(owner, "convert a csv report");
step("associations");
const query = "convert a csv report";
index.search(
  query,
  10,
  () => true,
  (lexical, want, full) => {
    const m = meaning.nearest(query, Math.max(want, hybrid.FUSION.vectorPool), () => true);
    return hybrid.fuse({ lexical, full, nearest: m.nearest, cosine: m.cosine, factor: () => 1 });
  },
);
step("first search (WordNet, norms, caches)");
const total = rows.reduce((a, [, r, h]) => [a[0]! + r, a[1]! + h], [0, 0]);
// heap: JavaScriptCore's live objects and the buffers they hold; RSS also keeps what the allocator
// has not given back yet, and the JIT's code and data (not separable here: BUN_JSC_useJIT=0 to see).
console.log(`\nfirst discover, split by part (this process, ${count} records; each step collected), MiB`);
console.log(`  ${"".padEnd(42)}${"RSS".padStart(8)}${"heap".padStart(8)}`);
for (const [label, r, h] of rows) console.log(`  ${label.padEnd(42)}${r.toFixed(1).padStart(8)}${h.toFixed(1).padStart(8)}`);
console.log(`  ${"total".padEnd(42)}${total[0]!.toFixed(1).padStart(8)}${total[1]!.toFixed(1).padStart(8)}`);
store.close();
void caps;
void index;
