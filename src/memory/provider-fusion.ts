// The embeddings provider's part of discover's ranking, a step of its own after the built-in fusion
// (hybrid.ts): the provider's cosine is mixed into each candidate's score, and the provider's nearest
// records are candidates too, so a request that shares no word with a capability's name or intent
// still finds it when the provider's vectors say they mean the same. Cosines of different models
// live on different scales (one model's unrelated texts score 0.1, another's 0.5), so they are read
// relative to the nearest records of this request: the best of them counts 1, the last of the pool 0.
// How well a result matches (its label) is not read from here.
import type { ProviderQuery } from "./provider-slot.ts";
import type { Hit } from "./search.ts";

export const PROVIDER_FUSION = {
  /** The provider's share of the score (the built-in ranking keeps the rest). Tuned on the tuning
   * and meaning-tuning sets with USE lite (bench/memory.ts --provider, 2,040 capabilities): 0.2 best
   * there (0.25, 0.3 close; 0.4 lost top-1 on both); judged on the held-out sets. */
  weight: 0.2,
  /** How many records the provider brings as candidates at least, nearest first. */
  pool: 50,
};

export interface ProviderFuseInput {
  /** The built-in ranking's candidates, best first. */
  fused: Hit[];
  query: ProviderQuery;
  /** How many results the ranking wants (the pool is at least this). */
  want: number;
  accept: (key: string) => boolean;
  /** The share of its score a key keeps (pml's own tools, demo servers, misfits; discover-rank.ts). */
  factor: (key: string) => number;
  /** The built-in similarity of meaning of a key the built-in side did not rank (for its label). */
  similarity: (key: string) => number | undefined;
  weight?: number;
}

/** A candidate with the provider's cosine (benches print it). */
export type ProviderHit = Hit & { provider?: number };

/** The candidates of both rankings ordered by the mixed score, best first. */
export function fuseProvider(input: ProviderFuseInput): ProviderHit[] {
  const w = input.weight ?? PROVIDER_FUSION.weight;
  const nearest = input.query.nearest(Math.max(input.want, PROVIDER_FUSION.pool), input.accept);
  if (!nearest.length) return input.fused;
  const cos = new Map(nearest);
  for (const h of input.fused) if (!cos.has(h.key)) cos.set(h.key, input.query.cosine(h.key) ?? -1);
  const hi = nearest[0]![1];
  const lo = nearest[nearest.length - 1]![1];
  const span = hi - lo;
  const top = input.fused[0]?.score || 1;
  const built = new Map(input.fused.map((h) => [h.key, h]));
  const out: ProviderHit[] = [];
  for (const [key, c] of cos) {
    const h = built.get(key);
    const p = span > 0 ? Math.max(0, (c - lo) / span) : 1;
    const score = top * ((1 - w) * ((h?.score ?? 0) / top) + w * p * input.factor(key));
    if (score <= 0) continue;
    const similarity = h ? h.similarity : input.similarity(key);
    out.push({ ...(h ?? { key, covered: 0 }), key, score, provider: c, ...(similarity !== undefined ? { similarity } : {}) });
  }
  return out.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
