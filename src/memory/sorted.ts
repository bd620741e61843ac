// A binary search in a sorted list of strings, for the readers that ask which of its words start
// with a given text (search-variants.ts, opposites.ts): they begin at the first word after it.

/** The index of the first of `sorted` (ascending) that comes after `key`; its length when none does. */
export function firstAfter(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
