// Learning from use, the ranking side: the words that once led to a successful call of an item
// (associations kept per workspace owner, sqlite-associations.ts) lift that item for a query close
// to them, even when the item's own text shares no word with the query. Loaded with the first
// `discover {query}`, beside the search index.
import { decayed } from "./association-policy.ts";
import { terms, type Hit } from "./search.ts";
import type { Association, CapabilityStore } from "./store.ts";
import { taskWords } from "./value-kinds.ts";
import type { WordVectors } from "./word-vectors.ts";

/**
 * How close a new query is to phrasings kept before, 0..1. The seam for a sentence embedding:
 * given the past phrasings once (when they change), a function from a query to the ones that are
 * at all similar, as [index into `past`, similarity]. Lexical (stemmed terms, cosine of the sets,
 * through an inverted index) until then.
 */
export type QuerySimilarity = (past: readonly string[]) => (query: string) => Array<[number, number]>;

/** How past phrasings are compared with a query, and below which similarity one does not count. */
export interface AssociationSimilarity {
  /** Names it (a prepared index is made again when the similarity changes, e.g. vectors loaded). */
  name: string;
  prepare: QuerySimilarity;
  min: number;
}

/** Words alone: below half a past phrasing does not count (one shared word of five is chance). */
export const LEXICAL: AssociationSimilarity = { name: "lexical", prepare: (past) => lexicalSimilarity(past), min: 0.5 };

/**
 * The word vectors' side fused with the words' (tuned by bench/association-similarity.ts on pairs of
 * paraphrases of bench/memory-intents.ts's QUERIES and MEANING_TUNE, a split the reuse bench does
 * not report): "how many ft is a 3 m ceiling" is close to "convert 10 meters to feet" though they
 * share no word.
 */
export const MEANING_FUSION = {
  /** The vectors' share of the fused similarity. */
  vectorWeight: 0.3,
  /** A vector similarity below this is no evidence (unrelated short requests score about this much). */
  floor: 0.4,
  /** The word-by-word alignment's share of the vectors' similarity (the rest: the mean vectors'
   * cosine, which still picks the phrasings to align). */
  alignmentShare: 1,
  /** Below this fused similarity a past phrasing does not count. */
  min: 0.6,
  /** Phrasings aligned word by word per query (the nearest by mean vectors, and those sharing a word). */
  aligned: 64,
};

/** The similarity to use: words and vectors when the vectors are loaded, else words alone. */
export function associationSimilarity(words: WordVectors | undefined): AssociationSimilarity {
  if (!words) return LEXICAL;
  return { name: `meaning:${words.model}`, prepare: (past) => fusedSimilarity(words, past), min: MEANING_FUSION.min };
}

/** Lexical cosine and word-vector similarity of a query to each past phrasing, fused (MEANING_FUSION). */
export function fusedSimilarity(words: WordVectors, past: readonly string[], f = MEANING_FUSION): (query: string) => Array<[number, number]> {
  const lexical = lexicalSimilarity(past);
  const ranks = past.map((p) => words.ranks(taskWords(p)));
  // The phrasings' unit mean vectors, one flat array (a zero vector where no word is known).
  const dims = words.dims;
  const means = new Float32Array(past.length * dims);
  past.forEach((p, i) => {
    const v = unit(words.embed(taskWords(p)));
    if (v) means.set(v, i * dims);
  });
  return (query) => {
    const lex = lexical(query);
    const q = unit(words.embed(taskWords(query)));
    if (!q) return lex.map(([i, s]) => [i, fuseSimilarity(s, 0, 0, f)] as [number, number]);
    const cos = new Float32Array(past.length);
    for (let i = 0, at = 0; i < past.length; i++, at += dims) {
      let d = 0;
      for (let k = 0; k < dims; k++) d += q[k]! * means[at + k]!;
      cos[i] = d;
    }
    // Aligned word by word (the costly part): the nearest by mean vectors only. A phrasing sharing
    // words but not among them counts by its words alone.
    const align = words.aligner(words.ranks(taskWords(query)));
    const near = nearest(cos, f.aligned);
    const lexOf = new Map(lex);
    const out: Array<[number, number]> = [];
    for (const i of near) {
      const sim = fuseSimilarity(lexOf.get(i) ?? 0, cos[i]!, align(ranks[i]!), f);
      if (sim > 0) out.push([i, sim]);
    }
    const aligned = new Set(near);
    for (const [i, l] of lex) if (!aligned.has(i)) out.push([i, fuseSimilarity(l, 0, 0, f)]);
    return out;
  };
}

/** The indexes of the `k` highest values (no full sort: `k` is small, the values many). */
function nearest(values: Float32Array, k: number): number[] {
  if (values.length <= k) return Array.from(values.keys());
  const top: number[] = [];
  let floor = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (top.length === k && v <= floor) continue;
    let at = top.length;
    while (at > 0 && values[top[at - 1]!]! < v) at--;
    top.splice(at, 0, i);
    if (top.length > k) top.pop();
    floor = values[top[top.length - 1]!]!;
  }
  return top;
}

/** One past phrasing's fused similarity from its lexical cosine, mean vectors' cosine and alignment. */
export function fuseSimilarity(lexical: number, cosine: number, alignment: number, f: Omit<typeof MEANING_FUSION, "min" | "aligned"> = MEANING_FUSION): number {
  const v = (1 - f.alignmentShare) * cosine + f.alignmentShare * alignment;
  const scaled = Math.max(0, v - f.floor) / (1 - f.floor);
  return (1 - f.vectorWeight) * lexical + f.vectorWeight * scaled;
}

function unit(v: Float32Array | undefined): Float32Array | undefined {
  if (!v) return undefined;
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (!n) return undefined;
  for (let d = 0; d < v.length; d++) v[d]! /= n;
  return v;
}

/** A fully learned item (similarity 1, several uses) gains this many times the best lexical score. */
const LEARNED_WEIGHT = 2;
/** Uses at which an association is at half its strength: one use already counts for 0.8. */
const HALF_STRENGTH_USES = 0.25;

export const lexicalSimilarity: QuerySimilarity = (past) => {
  const sizes = new Uint16Array(past.length);
  const postings = new Map<string, number[]>();
  past.forEach((p, i) => {
    const ts = new Set(terms(taskWords(p)));
    sizes[i] = ts.size;
    for (const t of ts) {
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  });
  return (query) => {
    const q = new Set(terms(taskWords(query)));
    const shared = new Map<number, number>();
    for (const t of q) for (const i of postings.get(t) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1);
    return [...shared].map(([i, n]) => [i, n / Math.sqrt(q.size * sizes[i]!)]);
  };
};

/** What past use adds to an item for one query: 0..1, the phrasing that counted most, and its uses. */
export interface LearnedBoost {
  weight: number;
  query: string;
  uses: number;
}

interface Prepared {
  owner: string;
  stamp: string;
  similarity: string;
  min: number;
  rows: Association[];
  near: (query: string) => Array<[number, number]>;
}

export class AssociationIndex {
  private cached?: Prepared;

  constructor(
    private readonly open: () => Promise<CapabilityStore>,
    private readonly similarity: () => AssociationSimilarity = () => LEXICAL,
  ) {}

  /** Per item key, what the owner's past use adds for `query` (only items it was learned for). */
  async boosts(owner: string, query: string, now = Date.now()): Promise<Map<string, LearnedBoost>> {
    const { rows, near, min } = await this.prepared(owner);
    const out = new Map<string, LearnedBoost>();
    if (!rows.length) return out;
    for (const [i, sim] of near(query)) {
      if (sim < min) continue;
      const r = rows[i]!;
      const uses = decayed(r.count, r.last_at, now);
      const weight = sim * (uses / (uses + HALF_STRENGTH_USES));
      const had = out.get(r.item_key);
      if (!had || weight > had.weight) out.set(r.item_key, { weight, query: r.query, uses: Math.max(1, Math.round(uses)) });
    }
    return out;
  }

  /** The owner's rows, read and prepared again only when the store says they may have changed. */
  private async prepared(owner: string): Promise<Prepared> {
    const store = await this.open();
    const stamp = await store.associationStamp();
    const similarity = this.similarity();
    const c = this.cached;
    if (c && c.owner === owner && c.stamp === stamp && c.similarity === similarity.name) return c;
    const rows = await store.associations(owner);
    this.cached = { owner, stamp, similarity: similarity.name, min: similarity.min, rows, near: similarity.prepare(rows.map((r) => r.query)) };
    return this.cached;
  }
}

/** `unlearned`: its score before past use was added (0 for an item only past use found). */
export type LearnedHit = Hit & { learned?: LearnedBoost; unlearned?: number };

/**
 * The index's hits with past use fused in: each learned item gains its weight times the best
 * lexical score (or 1 when nothing matched by words), and a learned item the words missed joins
 * the list, if `visible` (the same scope check as the hits: an association never shows an item
 * the workspace may not see). `keeps`: the share of its gain an item keeps (one the request
 * contradicts steps back here as in the ranking).
 */
export function fuseLearned(
  hits: readonly Hit[],
  learned: Map<string, LearnedBoost>,
  visible: (key: string) => boolean,
  limit: number,
  keeps: (key: string) => number = () => 1,
): LearnedHit[] {
  if (!learned.size) return [...hits];
  const top = hits[0]?.score ?? 0;
  const scale = LEARNED_WEIGHT * (top > 0 ? top : 1);
  const out: LearnedHit[] = hits.map((h) => {
    const l = learned.get(h.key);
    return l ? { ...h, score: h.score + l.weight * scale * keeps(h.key), learned: l, unlearned: h.score } : h;
  });
  const present = new Set(hits.map((h) => h.key));
  for (const [key, l] of learned) if (!present.has(key) && visible(key)) out.push({ key, score: l.weight * scale * keeps(key), learned: l, unlearned: 0 });
  return out
    .map((h, i) => ({ h, i }))
    .sort((a, b) => b.h.score - a.h.score || a.i - b.i)
    .slice(0, limit)
    .map(({ h }) => h);
}
