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
