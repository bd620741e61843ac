// Each record's known words (word-vector ranks), kept once the record has been a candidate: the
// alignment (meaning.ts) reads them for every candidate of every request, and making them again was
// a fifth of a warm discover (the old cache held 5,000 and started over). In one array rather than a
// typed array per record (an object and an allocation each): 10k records' lists take ~0.5 MB.

export class WordLists {
  /** Per list: its length, then its ranks. Lists are only appended; a replaced one is left dead. */
  private data = new Int32Array(4096);
  private used = 0;
  private dead = 0;
  private readonly at = new Map<string, number>();

  get size(): number {
    return this.at.size;
  }

  /** A view of the list (a compaction copies the lists into a new array: a view handed out keeps its values). */
  get(key: string): Int32Array | undefined {
    const from = this.at.get(key);
    return from === undefined ? undefined : this.data.subarray(from + 1, from + 1 + this.data[from]!);
  }

  set(key: string, ranks: Int32Array): void {
    this.delete(key);
    if (this.used + ranks.length + 1 > this.data.length) this.make(ranks.length + 1);
    this.at.set(key, this.used);
    this.data[this.used] = ranks.length;
    this.data.set(ranks, this.used + 1);
    this.used += ranks.length + 1;
  }

  delete(key: string): void {
    const from = this.at.get(key);
    if (from === undefined) return;
    this.dead += this.data[from]! + 1;
    this.at.delete(key);
  }

  /** Room for `more`: the live lists copied into a new array, grown when they fill half of it. */
  private make(more: number): void {
    const live = this.used - this.dead;
    const next = new Int32Array(Math.max(this.data.length, 2 * (live + more)));
    let used = 0;
    for (const [key, from] of this.at) {
      const n = this.data[from]! + 1;
      next.set(this.data.subarray(from, from + n), used);
      this.at.set(key, used);
      used += n;
    }
    this.data = next;
    this.used = used;
    this.dead = 0;
  }
}
