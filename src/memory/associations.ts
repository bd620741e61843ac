// Learning from use, the ranking side: the words that once led to a successful call of an item
// (associations kept per workspace owner, sqlite-associations.ts) lift that item for a query close
// to them, even when the item's own text shares no word with the query. Loaded with the first
// `discover {query}`, beside the search index.
import { decayed } from "./association-policy.ts";
import { terms, type Hit } from "./search.ts";
import type { Association, CapabilityStore } from "./store.ts";

/**
 * How close a new query is to phrasings kept before, 0..1. The seam for a sentence embedding:
 * given the past phrasings once (when they change), a function from a query to the ones that are
 * at all similar, as [index into `past`, similarity]. Lexical (stemmed terms, cosine of the sets,
 * through an inverted index) until then.
 */
export type QuerySimilarity = (past: readonly string[]) => (query: string) => Array<[number, number]>;

/** Below this similarity a past phrasing does not count (one shared word of five is chance). */
const MIN_SIMILARITY = 0.5;
/** A fully learned item (similarity 1, several uses) gains this many times the best lexical score. */
const LEARNED_WEIGHT = 2;
/** Uses at which an association is at half its strength: one use already counts for 0.8. */
const HALF_STRENGTH_USES = 0.25;

export const lexicalSimilarity: QuerySimilarity = (past) => {
  const sizes = new Uint16Array(past.length);
  const postings = new Map<string, number[]>();
  past.forEach((p, i) => {
    const ts = new Set(terms(p));
    sizes[i] = ts.size;
    for (const t of ts) {
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  });
  return (query) => {
    const q = new Set(terms(query));
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
  rows: Association[];
  near: (query: string) => Array<[number, number]>;
}

export class AssociationIndex {
  private cached?: Prepared;

  constructor(
    private readonly open: () => Promise<CapabilityStore>,
    private readonly similarity: QuerySimilarity = lexicalSimilarity,
  ) {}

  /** Per item key, what the owner's past use adds for `query` (only items it was learned for). */
  async boosts(owner: string, query: string, now = Date.now()): Promise<Map<string, LearnedBoost>> {
    const { rows, near } = await this.prepared(owner);
    const out = new Map<string, LearnedBoost>();
    if (!rows.length) return out;
    for (const [i, sim] of near(query)) {
      if (sim < MIN_SIMILARITY) continue;
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
    const c = this.cached;
    if (c && c.owner === owner && c.stamp === stamp) return c;
    const rows = await store.associations(owner);
    this.cached = { owner, stamp, rows, near: this.similarity(rows.map((r) => r.query)) };
    return this.cached;
  }
}

export type LearnedHit = Hit & { learned?: LearnedBoost };

/**
 * The index's hits with past use fused in: each learned item gains its weight times the best
 * lexical score (or 1 when nothing matched by words), and a learned item the words missed joins
 * the list, if `visible` (the same scope check as the hits: an association never shows an item
 * the workspace may not see).
 */
export function fuseLearned(hits: readonly Hit[], learned: Map<string, LearnedBoost>, visible: (key: string) => boolean, limit: number): LearnedHit[] {
  if (!learned.size) return [...hits];
  const top = hits[0]?.score ?? 0;
  const scale = LEARNED_WEIGHT * (top > 0 ? top : 1);
  const out: LearnedHit[] = hits.map((h) => {
    const l = learned.get(h.key);
    return l ? { ...h, score: h.score + l.weight * scale, learned: l } : h;
  });
  const present = new Set(hits.map((h) => h.key));
  for (const [key, l] of learned) if (!present.has(key) && visible(key)) out.push({ key, score: l.weight * scale, learned: l });
  return out
    .map((h, i) => ({ h, i }))
    .sort((a, b) => b.h.score - a.h.score || a.i - b.i)
    .slice(0, limit)
    .map(({ h }) => h);
}
