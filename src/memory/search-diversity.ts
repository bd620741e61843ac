// Result diversity: variants of one capability (the same name but for a version number, as an
// agent makes them when a name is taken) take one place in the results, not five.
import type { Hit } from "./search.ts";

/** Candidates considered for the diverse top `limit`: this many times `limit`, at least POOL_MIN.
 * The pool decides the order, not only what enters: with 50 for 10 results and 100 for 20, the
 * first ten of `limit: 20` differed from `limit: 10` in 235 of 324 bench requests. 100 for every
 * limit up to 20 makes them the same (and top-5 at 10 results 85.8 -> 86.4%). */
const POOL_FACTOR = 5;
const POOL_MIN = 100;

export const poolFor = (limit: number) => Math.max(limit * POOL_FACTOR, POOL_MIN);

/** The scan keeps this many times the pool, and the pool is then its first groups of variants, not
 * its first records: variants share their words, so they score alike and come in a row (a capability
 * saved seven times as `_v2`..`_v7` took seven places of a hundred), and what the pool leaves out the
 * fusion never sees. 2, not more: at 3 to 8 more look-alikes reach the fusion too and two right
 * results at rank 17 and 20 left the top 20 (bench/memory.ts, retired held-out 10 and 11). */
export const POOL_SPREAD = 2;

/** The best of each group of variants among `raw` (best first), up to `want` groups; the others of
 * those groups by group, best first (the answer names them beside their lead: `also`). */
export function leadsOf<T extends { doc: number }>(raw: readonly T[], want: number, groupOf: (doc: number) => number): { leads: T[]; others: Map<number, T[]> } {
  const leads: T[] = [];
  const others = new Map<number, T[]>();
  for (const h of raw) {
    const g = groupOf(h.doc);
    const more = g ? others.get(g) : undefined;
    if (more) more.push(h);
    else if (leads.length < want) {
      leads.push(h);
      if (g) others.set(g, []);
    }
  }
  return { leads, others };
}

/** Each picked result's variants that the pool held back (leadsOf) added to those it outranked. */
export function withOthers<H extends Hit & { doc: number }>(picked: H[], others: ReadonlyMap<number, ReadonlyArray<{ key: string }>>, groupOf: (doc: number) => number): H[] {
  for (const h of picked) {
    const more = others.get(groupOf(h.doc))?.filter((o) => o.key !== h.key && !h.also?.includes(o.key));
    if (more?.length) (h.also ??= []).push(...more.map((o) => o.key));
  }
  return picked;
}

/** The best `limit` of `ranked`, one per group of variants (`groupOf`, variant-group.ts: 0 for
 * none): the best of a group stands for it and names the others it outranked (`also`). */
export function diverse<H extends Hit & { doc: number }>(ranked: readonly H[], limit: number, groupOf: (doc: number) => number): H[] {
  const first = new Map<number, H>();
  const out: H[] = [];
  for (const h of ranked) {
    const g = groupOf(h.doc);
    const lead = g ? first.get(g) : undefined;
    if (lead) {
      (lead.also ??= []).push(h.key);
      continue;
    }
    if (out.length === limit) continue;
    if (g) first.set(g, h);
    out.push(h);
  }
  return out;
}
