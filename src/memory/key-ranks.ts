// Per slot of the search index, its key's place in key order: a long scan's equal scores rank by
// key, and 10k synthetic-looking records tie often (2-3k string compares a discover at 10k
// records, a few percent of it); two numbers compare for less. Kept up to date lazily: the slots
// changed since the last search are taken out and put back in their place, the rest keep theirs.

/** Past this share of changed slots, sorting every key again costs less than inserting each. */
const RESORT_SHARE = 1 / 8;

export class KeyRanks {
  /** Live slots in key order. */
  private order: number[] = [];
  private rank = new Int32Array(0);
  /** Slots added or removed since the last `ranks()`. */
  private readonly changed = new Set<number>();

  constructor(private readonly keyOf: (slot: number) => string | undefined) {}

  /** A slot was given a key or lost it. */
  touch(slot: number): void {
    this.changed.add(slot);
  }

  /** Per slot, its rank in key order (lower: the key sorts first); valid until the next touch. */
  ranks(): Int32Array {
    if (this.changed.size) this.settle();
    return this.rank;
  }

  private settle(): void {
    const keyOf = this.keyOf;
    const live = [...this.changed].filter((s) => keyOf(s) !== undefined);
    if (this.changed.size > this.order.length * RESORT_SHARE) {
      this.order = [...this.order.filter((s) => !this.changed.has(s)), ...live];
      this.order.sort((a, b) => compare(keyOf(a)!, keyOf(b)!));
    } else {
      this.order = this.order.filter((s) => !this.changed.has(s));
      for (const s of live) this.order.splice(this.place(keyOf(s)!), 0, s);
    }
    this.changed.clear();
    let max = 0;
    for (const s of this.order) if (s > max) max = s;
    if (this.rank.length <= max) this.rank = new Int32Array(Math.max(64, (max + 1) * 2));
    for (let i = 0; i < this.order.length; i++) this.rank[this.order[i]!] = i;
  }

  /** Where a key goes in `order` (binary search). */
  private place(key: string): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.keyOf(this.order[mid]!)! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
