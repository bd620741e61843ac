// bench/memory.ts --provider: what an embeddings provider adds to discover's own ranking. A local
// stand-in (bench/embed-server.ts: Universal Sentence Encoder lite behind OpenAI's /v1/embeddings)
// is started, every record and tool is embedded through pml's own background path (timed), then
// every quality set is asked again with the provider fused in: top-1/5/20 with and without it per
// set (blind sets' misses are never printed, here or anywhere), and discover's time per request with
// and without it (a first ask of each request: the provider's round trip included).
// PROVIDER_FUSION='{"weight":0.3}' measures other fusion settings (provider-fusion.ts).
import type { ToolEntry } from "../src/memory/search-docs.ts";
import { embeddingsTarget } from "../src/memory/embeddings-config.ts";
import { Memory, type MemorySettings } from "../src/memory/memory.ts";
import { PROVIDER_FUSION } from "../src/memory/provider-fusion.ts";
import { startEmbedServer } from "./embed-server.ts";
import { printTable, summarize } from "./stats.ts";

type Set = Array<[string, string]>;

/** The first results' labels with the provider, per set and in all: how many carried each, how many were right. */
function printProviderLabels(sets: Array<[string, Set]>, labels: Parameters<typeof providerPass>[0]["labels"]): void {
  console.log("match labels of the first result with the provider (carried / right):");
  const all: Record<string, [number, number]> = {};
  for (const [name] of sets) {
    const l = labels[name];
    if (!l) continue;
    const cells = ["strong", "fair", "weak"].map((m) => {
      const [f, r] = [l.first[m] ?? 0, l.right[m] ?? 0];
      const a = (all[m] ??= [0, 0]);
      a[0] += f;
      a[1] += r;
      return `${m} ${f}/${r}`;
    });
    console.log(`  ${name.padEnd(14)} ${cells.join("  ")}`);
  }
  console.log(
    `  ${"all".padEnd(14)} ${Object.entries(all)
      .map(([m, [f, r]]) => `${m} ${f}/${r} (wrong ${f - r})`)
      .join("  ")}`,
  );
}

export async function providerPass(o: {
  dbPath: string;
  settings: MemorySettings;
  tools: ToolEntry[];
  sets: Array<[string, Set]>;
  /** Top-1/5/20 of each set through the built-in ranking (measured before, same records). */
  builtin: number[][];
  measure(set: Set, label: string, mem: Memory, times: number[] | undefined, asking: MemorySettings): Promise<[number, number, number]>;
  builtinTimes(): Promise<number[]>;
  /** What `measure` found not in the top 5 (sets not written blind only: blind sets' misses are never kept). */
  misses: string[];
  /** Per set (by its name in `sets`), the labels of its first results and how many were right, as `measure` counted them. */
  labels: Record<string, { queries: number; first: Record<string, number>; right: Record<string, number> }>;
}): Promise<void> {
  if (process.env.PROVIDER_FUSION) Object.assign(PROVIDER_FUSION, JSON.parse(process.env.PROVIDER_FUSION));
  // EMBED_SERVER_PORT: the port of a run whose vectors FROM_DB's memory.db cached (its URL is part of the model's identity).
  const server = await startEmbedServer(process.env.EMBED_SERVER_PORT ? Number(process.env.EMBED_SERVER_PORT) : undefined);
  try {
    const asking: MemorySettings = { ...o.settings, embeddings: embeddingsTarget({ memory: { embeddings: { url: server.url, model: "use-lite" } } } as any, "/x/bench") };
    const mem = new Memory(o.dbPath);
    const began = performance.now();
    await mem.discover(asking, "warm up the index", o.tools, 10);
    const status = await mem.providerSettled();
    const embedS = (performance.now() - began) / 1000;
    console.log(
      `\nembeddings provider: ${server.url} (USE lite, 512 dimensions); ${status?.ready} texts embedded in ${embedS.toFixed(1)} s through pml's background batches${status?.failure ? `; FAILED: ${status.failure}` : ""}`,
    );
    const times: number[] = [];
    const withIt: number[][] = [];
    const before = new Set(o.misses.map((m) => m.replace(/ -> .*/, "")));
    o.misses.length = 0;
    for (const [label, set] of o.sets) withIt.push(await o.measure(set, label, mem, times, asking));
    printProviderLabels(o.sets, o.labels);
    const lost = o.misses.filter((m) => !before.has(m.replace(/ -> .*/, "")));
    if (process.env.PROVIDER_MISSES && lost.length) console.log(`  not in the top 5 with the provider, and in it without (sets not written blind):\n${lost.join("\n")}`);
    // Asked again at once: the request's vector is kept (the last 64 requests'), its round trip gone.
    const again: number[] = [];
    for (const [label, set] of o.sets.slice(0, 1)) {
      await o.measure(
        set.map(([q, want]) => [`${q} (again)`, want]),
        label,
        mem,
        undefined,
        asking,
      );
      await o.measure(
        set.map(([q, want]) => [`${q} (again)`, want]),
        label,
        mem,
        again,
        asking,
      );
    }
    await mem.close();
    const pct = (x: number, n: number) => `${((100 * x) / n).toFixed(0)}%`.padStart(5);
    console.log(`discover quality with and without the provider (weight ${PROVIDER_FUSION.weight}, pool ${PROVIDER_FUSION.pool}), top-1/5/20:`);
    console.log(`  ${"set".padEnd(14)}   n   ${"built-in".padEnd(17)}  ${"with provider".padEnd(17)}  change (points)`);
    const total = [0, 0, 0, 0, 0, 0];
    let n = 0;
    for (const [i, [label, set]] of o.sets.entries()) {
      const a = o.builtin[i]!;
      const b = withIt[i]!;
      for (let k = 0; k < 3; k++) {
        total[k]! += a[k]!;
        total[k + 3]! += b[k]!;
      }
      n += set.length;
      const d = b.map((x, k) => (((x - a[k]!) * 100) / set.length).toFixed(0).padStart(4));
      console.log(
        `  ${label.padEnd(14)}${String(set.length).padStart(4)}  ${a.map((x) => pct(x, set.length)).join(" ")}  ${b.map((x) => pct(x, set.length)).join(" ")}  ${d.join(" ")}`,
      );
    }
    console.log(
      `  ${"all".padEnd(14)}${String(n).padStart(4)}  ${total
        .slice(0, 3)
        .map((x) => pct(x, n))
        .join(" ")}  ${total
        .slice(3)
        .map((x) => pct(x, n))
        .join(" ")}`,
    );
    printTable(`discover {query} over the same records + tools, ms per request (limit 20)`, {
      "built-in, first ask": summarize(await o.builtinTimes()),
      "with provider, first ask (its round trip)": summarize(times),
      "with provider, asked again (no round trip)": summarize(again),
    });
  } finally {
    await server.stop();
  }
}
