// Why the retired blind sets' requests miss their target in discover's first 20 (issue 46): for
// each miss, its target's rank by words alone and by meaning alone (the fusion's vector side's
// share set to 0 and to 1, 100 results), and so its class: never a candidate (past 100 on both
// sides: neither the words nor the word vectors reach it), found by one side but lost in the
// fusion (20th or better there), or ranked low on both. Retired sets only: a judging set's
// requests are never printed.
// Run: FROM_DB=<memory.db kept by bench/memory.ts KEEP_DB> bun bench/discover-misses.ts
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FUSION } from "../src/memory/hybrid.ts";
import { Memory } from "../src/memory/memory.ts";
import { memorySettings } from "../src/memory/memory-settings.ts";
import { benchTools } from "./memory-caps.ts";
import { HELD_OUT_8, HELD_OUT_9 } from "./memory-intents-blind.ts";
import { HELD_OUT_10 } from "./memory-intents-blind-2.ts";
import { HELD_OUT_11, HELD_OUT_12 } from "./memory-intents-blind-3.ts";
import { HELD_OUT_13 } from "./memory-intents-blind-4.ts";
import { HELD_OUT_14 } from "./memory-intents-blind-5.ts";
import { HELD_OUT_15 } from "./memory-intents-blind-6.ts";
import { HELD_OUT_16 } from "./memory-intents-blind-7.ts";
import { HELD_OUT_17 } from "./memory-intents-blind-8.ts";
import { HELD_OUT_18 } from "./memory-intents-blind-9.ts";

const from = process.env.FROM_DB;
if (!from) throw new Error("FROM_DB=<memory.db> is required (bench/memory.ts KEEP_DB keeps one)");
const dir = mkdtempSync(join(tmpdir(), "pml-bench-misses-"));
copyFileSync(from, join(dir, "memory.db"));
const settings = { ...memorySettings({} as Parameters<typeof memorySettings>[0], "/x/bench"), scope: { org: "local", project: "bench", owner: "/bench/workspace" } };
const tools = await benchTools();
const memory = new Memory(join(dir, "memory.db"));
const SETS: Record<string, Array<[string, string]>> = {
  "held-out 8": HELD_OUT_8,
  "held-out 9": HELD_OUT_9,
  "held-out 10": HELD_OUT_10,
  "held-out 11": HELD_OUT_11,
  "held-out 12": HELD_OUT_12,
  "held-out 13": HELD_OUT_13,
  "held-out 14": HELD_OUT_14,
  "held-out 15": HELD_OUT_15,
  "held-out 16": HELD_OUT_16,
  "held-out 17": HELD_OUT_17,
  "held-out 18": HELD_OUT_18,
};
const shipped = FUSION.vectorWeight;
/** The target's rank (1-based; 0: not in the results) with the vector side's share `weight`. */
async function rankOf(query: string, expected: string, weight: number, limit: number): Promise<number> {
  FUSION.vectorWeight = weight;
  const { results } = await memory.discover(settings, query, tools, limit);
  const ok = expected.split("|");
  return results.findIndex((r) => ok.includes(r.id)) + 1;
}
const classes: Record<string, number> = {};
console.log("set\twords alone\tmeaning alone\tclass\ttarget\trequest");
for (const [label, set] of Object.entries(SETS)) {
  for (const [query, expected] of set) {
    if ((await rankOf(query, expected, shipped, 20)) > 0) continue;
    const words = await rankOf(query, expected, 0, 100);
    const meaning = await rankOf(query, expected, 1, 100);
    const best = Math.min(words || Infinity, meaning || Infinity);
    const kind = best === Infinity ? "never a candidate" : best <= 20 ? "lost in the fusion" : "low on both";
    classes[kind] = (classes[kind] ?? 0) + 1;
    console.log(`${label}\t${words || "-"}\t${meaning || "-"}\t${kind}\t${expected}\t${query}`);
  }
}
FUSION.vectorWeight = shipped;
console.log(
  Object.entries(classes)
    .map(([k, n]) => `${k}: ${n}`)
    .join(", "),
);
await memory.close();
rmSync(dir, { recursive: true, force: true });
