// Learning from use, the ranking side: the words that once led to a successful call of an item
// (associations kept per workspace owner, sqlite-associations.ts) lift that item for a query close
// to them, even when the item's own text shares no word with the query. Loaded with the first
// `discover {query}`, beside the search index.
import { decayed } from "./association-policy.ts";
import { terms, type Hit } from "./search.ts";
import type { Association, CapabilityStore } from "./store.ts";

/**
 * How close a new query is to words kept before, 0..1: given the query once, a function of each
 * past phrasing. The seam for a sentence embedding; lexical (stemmed terms, cosine of the sets)
 * until then.
 */
export type QuerySimilarity = (query: string) => (past: string) => number;

/** Below this similarity a past phrasing does not count (one shared word of five is chance). */
const MIN_SIMILARITY = 0.5;
/** A fully learned item (similarity 1, several uses) gains this many times the best lexical score. */
const LEARNED_WEIGHT = 2;
/** Uses at which an association is at half its strength: one use already counts. */
const HALF_STRENGTH_USES = 0.5;

const termCache = new Map<string, Set<string>>();
function termSet(text: string): Set<string> {
  let set = termCache.get(text);
  if (set === undefined) {
    if (termCache.size > 20_000) termCache.clear();
    set = new Set(terms(text));
    termCache.set(text, set);
  }
  return set;
}

export const lexicalSimilarity: QuerySimilarity = (query) => {
  const q = termSet(query);
  return (past) => {
    if (!q.size) return 0;
    const p = termSet(past);
    if (!p.size) return 0;
    let shared = 0;
    for (const t of q) if (p.has(t)) shared++;
    return shared / Math.sqrt(q.size * p.size);
  };
};

/** What past use adds to an item for one query: 0..1, the phrasing that counted most, and its uses. */
export interface LearnedBoost {
  weight: number;
  query: string;
  uses: number;
}

export class AssociationIndex {
  private cached?: { owner: string; stamp: string; rows: Association[] };

  constructor(
    private readonly open: () => Promise<CapabilityStore>,
    private readonly similarity: QuerySimilarity = lexicalSimilarity,
  ) {}

  /** Per item key, what the owner's past use adds for `query` (only items it was learned for). */
  async boosts(owner: string, query: string, now = Date.now()): Promise<Map<string, LearnedBoost>> {
    const rows = await this.rows(owner);
    const out = new Map<string, LearnedBoost>();
    if (!rows.length) return out;
    const near = this.similarity(query);
    for (const r of rows) {
      const sim = near(r.query);
      if (sim < MIN_SIMILARITY) continue;
      const uses = decayed(r.count, r.last_at, now);
      const weight = sim * (uses / (uses + HALF_STRENGTH_USES));
      const had = out.get(r.item_key);
      if (!had || weight > had.weight) out.set(r.item_key, { weight, query: r.query, uses: Math.max(1, Math.round(uses)) });
    }
    return out;
  }

  /** The owner's rows, read again only when the store says they may have changed. */
  private async rows(owner: string): Promise<Association[]> {
    const store = await this.open();
    const stamp = await store.associationStamp();
    const c = this.cached;
    if (c && c.owner === owner && c.stamp === stamp) return c.rows;
    const rows = await store.associations(owner);
    this.cached = { owner, stamp, rows };
    return rows;
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
