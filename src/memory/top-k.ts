// The best `limit` of a long scan (10k records, a pool of 100) without keeping a sorted list:
// inserting into one moved ~100 entries for each of the ~500 that enter on the way, a tenth of a
// discover. A heap whose root is the worst kept entry costs a few comparisons per entry.

/** Bounded top-k by score; equal scores rank by `before(a, b)` (true: id a ranks first). */
export class TopK {
  private readonly ids: Int32Array;
  private readonly scores: Float64Array;
  private n = 0;

  constructor(
    readonly limit: number,
    private readonly before: (a: number, b: number) => boolean = (a, b) => a < b,
  ) {
    this.ids = new Int32Array(limit);
    this.scores = new Float64Array(limit);
  }

  /** Whether an entry with this score could be kept (ask before costlier checks). */
  admits(score: number): boolean {
    return this.n < this.limit || score >= this.scores[0]!;
  }

  offer(id: number, score: number): void {
    if (!this.limit) return;
    if (this.n < this.limit) {
      this.ids[this.n] = id;
      this.scores[this.n] = score;
      this.up(this.n++);
    } else if (this.worse(0, id, score)) {
      this.ids[0] = id;
      this.scores[0] = score;
      this.down(0);
    }
  }

  /** The kept entries, best first. */
  sorted(): Array<[id: number, score: number]> {
    const out: Array<[number, number]> = [];
    for (let i = 0; i < this.n; i++) out.push([this.ids[i]!, this.scores[i]!]);
    return out.sort((a, b) => b[1] - a[1] || (this.before(a[0], b[0]) ? -1 : this.before(b[0], a[0]) ? 1 : 0));
  }

  /** Whether the entry at heap index i ranks after (id, score). */
  private worse(i: number, id: number, score: number): boolean {
    const s = this.scores[i]!;
    return s < score || (s === score && this.before(id, this.ids[i]!));
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(i, this.ids[p]!, this.scores[p]!)) return;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    for (;;) {
      let w = i;
      const l = 2 * i + 1;
      if (l < this.n && this.worse(l, this.ids[w]!, this.scores[w]!)) w = l;
      if (l + 1 < this.n && this.worse(l + 1, this.ids[w]!, this.scores[w]!)) w = l + 1;
      if (w === i) return;
      this.swap(i, w);
      i = w;
    }
  }

  private swap(a: number, b: number): void {
    const id = this.ids[a]!;
    const s = this.scores[a]!;
    this.ids[a] = this.ids[b]!;
    this.scores[a] = this.scores[b]!;
    this.ids[b] = id;
    this.scores[b] = s;
  }
}
