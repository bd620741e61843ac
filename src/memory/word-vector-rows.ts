// Where WordVectors reads a word's int8 vector: from bytes in memory, or from the file by rank,
// one row at a time. A mapped file looked cheap, but the kernel reads ahead around every page a
// lookup touches, so the first discover (the tools' words, the candidates') made all 6.7 MB of it
// resident; reading the rows it needs (about a thousand, 100 bytes each) keeps a few hundred KB.
import { readSync } from "node:fs";

/** A vector is `data[at(r) .. at(r) + dims]`; read `data` after `at`, which may replace it. */
export interface VectorRows {
  readonly data: Int8Array;
  at(rank: number): number;
  /** Called before a new lookup starts (an embed, an alignment): a cache may start over here,
   * never in the middle of one (offsets handed out must stay valid until it ends). */
  settle(): void;
}

/** Every row in memory (the first process of a binary copies its embedded file out; tests). */
export class MemoryRows implements VectorRows {
  constructor(
    readonly data: Int8Array,
    private readonly dims: number,
  ) {}

  at(rank: number): number {
    return rank * this.dims;
  }

  settle(): void {}
}

/** Rows read once each from an open file (pread), kept in one growing slab. */
export class FileRows implements VectorRows {
  data: Int8Array;
  private readonly slotOf = new Map<number, number>();
  private used = 0;

  /** Past this many rows, the next lookup starts the cache over (16k rows: 1.6 MB). */
  static readonly KEEP = 16_384;

  constructor(
    private readonly fd: number,
    private readonly dims: number,
    /** Where the vectors start in the file. */
    private readonly offset: number,
  ) {
    this.data = new Int8Array(256 * dims);
  }

  at(rank: number): number {
    const slot = this.slotOf.get(rank);
    if (slot !== undefined) return slot * this.dims;
    if ((this.used + 1) * this.dims > this.data.length) {
      const grown = new Int8Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const at = this.used * this.dims;
    if (readSync(this.fd, this.data, at, this.dims, this.offset + rank * this.dims) !== this.dims) throw new Error("word vectors file is truncated");
    this.slotOf.set(rank, this.used++);
    return at;
  }

  settle(): void {
    if (this.used < FileRows.KEEP) return;
    this.slotOf.clear();
    this.used = 0;
    this.data = new Int8Array(256 * this.dims);
  }
}
