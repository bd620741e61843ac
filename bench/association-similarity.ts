// Tunes how learning from use compares a new request with the words kept from past use
// (src/memory/associations.ts MEANING_FUSION): on paraphrases of the same capability and of
// different ones, from bench/memory-intents.ts's QUERIES and held-out sets 1-3 (the pairs
// bench/learning.ts teaches; a split the reuse bench, bench/reuse.ts, does not report). For each
// request, the others are the past phrasings; the one that counts most (the highest similarity at
// or above the threshold) lifts its capability: right when it is the request's own, wrong when
// another's. Objective: right - 2 * wrong (a wrong lift can make a wrong reuse). Prints the best
// settings, and words alone for comparison.
// Run: bun build.ts && bun bench/association-similarity.ts
import { fuseSimilarity, lexicalSimilarity, MEANING_FUSION } from "../src/memory/associations.ts";
import { embeddedWordVectors } from "../src/memory/word-vectors.ts";
import { HELD_OUT, HELD_OUT_2, HELD_OUT_3, QUERIES } from "./memory-intents.ts";

const words = await embeddedWordVectors();
if (!words) throw new Error("no word vectors: run `bun build.ts` first");
const pairs = [...QUERIES, ...HELD_OUT, ...HELD_OUT_2, ...HELD_OUT_3];
const counts = new Map<string, number>();
for (const [, t] of pairs) counts.set(t, (counts.get(t) ?? 0) + 1);
const texts = pairs.map(([q]) => q);

// The three measures of every pair, once (the grid is arithmetic on them).
const lexical = lexicalSimilarity(texts);
const unit = (v: Float32Array | undefined) => {
  if (!v) return undefined;
  const n = Math.hypot(...v);
  return n ? v.map((x) => x / n) : undefined;
};
const means = texts.map((t) => unit(words.embed(t)));
const ranks = texts.map((t) => words.ranks(t));
const measures = texts.map((q, i) => {
  const lex = new Map(lexical(q));
  const align = words.aligner(ranks[i]!);
  return texts.map((_, j) => {
    const a = means[i];
    const b = means[j];
    let cos = 0;
    if (a && b) for (let d = 0; d < a.length; d++) cos += a[d]! * b[d]!;
    return { lex: lex.get(j) ?? 0, cos, align: align(ranks[j]!) };
  });
});

function judge(sim: (i: number, j: number) => number, min: number) {
  let right = 0;
  let wrong = 0;
  pairs.forEach(([, target], i) => {
    let best = -1;
    let bestSim = min;
    for (let j = 0; j < pairs.length; j++) {
      if (j === i) continue;
      const s = sim(i, j);
      if (s >= bestSim) [best, bestSim] = [j, s];
    }
    if (best < 0) return;
    if (pairs[best]![1] === target) right++;
    else wrong++;
  });
  return { right, wrong, score: right - 2 * wrong };
}

const learnable = pairs.filter(([, t]) => counts.get(t)! > 1).length;
console.log(`${pairs.length} requests, ${learnable} with another paraphrase of their capability`);
const mins = Array.from({ length: 13 }, (_, i) => 0.3 + i * 0.05);
const lex = (i: number, j: number) => measures[i]![j]!.lex;
console.log("words alone (min 0.5, as before):", judge(lex, 0.5));
const grid: Array<Record<string, number>> = [];
for (const vectorWeight of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
  for (const floor of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6])
    for (const alignmentShare of [0.5, 0.7, 0.85, 1]) {
      const f = { vectorWeight, floor, alignmentShare };
      const sim = (i: number, j: number) => {
        const m = measures[i]![j]!;
        return fuseSimilarity(m.lex, m.cos, m.align, f);
      };
      for (const min of mins) grid.push({ vectorWeight, floor, alignmentShare, min, ...judge(sim, min) });
    }
grid.sort((a, b) => b.score! - a.score! || b.right! - a.right!);
console.log("best fused settings:");
for (const g of grid.slice(0, 10))
  console.log(
    " ",
    Object.entries(g)
      .map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v!.toFixed(2)}`)
      .join(", "),
  );
const set = (i: number, j: number) => {
  const m = measures[i]![j]!;
  return fuseSimilarity(m.lex, m.cos, m.align);
};
console.log("MEANING_FUSION as set:", JSON.stringify(MEANING_FUSION), judge(set, MEANING_FUSION.min));
