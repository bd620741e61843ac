// Text vectors of the records discover ranks, compared with a request's by cosine after removing
// the direction they all share: averaged word vectors of short texts all lean the same way
// (frequent words, the domain), and that common part drowns the differences that matter. The
// shared direction is the mean of the stored (unit) vectors, recomputed when the set has grown or
// shrunk by a tenth. Records are kept as int8 unit vectors with a scale each (10k records: 1 MB);
// the dot products of a request with all of them are one SIMD scan (int8-dots.ts).

import { int8Dots, type Int8Dots, ROW_ALIGN } from "./int8-dots.ts";
import { grown } from "./grown.ts";
import { TopK } from "./top-k.ts";

/** Recompute the common direction once the record count has changed by this share. */
const RECOMPUTE_SHARE = 0.1;

export interface PreparedQuery {
  v: Float32Array;
  along: number;
}

export class VectorIndex {
  /** The records' int8 rows, one per slot; `dots.rows` is re-made when it grows. */
  private readonly dots: Int8Dots;
  /** Per slot: the scale of its int8 components. */
  private scale = new Float32Array(0);
  private readonly keys: Array<string | undefined> = [];
  private readonly slotOf = new Map<string, number>();
  private readonly free: number[] = [];
  /** Per slot: its unit vector's component along the common direction, and the norm of the rest. */
  private along = new Float32Array(0);
  private rest = new Float32Array(0);
  private common: Float32Array;
  private commonAt = -1;

  /** `dims` is rounded up to a multiple of ROW_ALIGN (one SIMD load; the padding stays 0). */
  readonly dims: number;

  constructor(dims: number) {
    this.dims = Math.ceil(dims / ROW_ALIGN) * ROW_ALIGN;
    this.common = new Float32Array(this.dims);
    this.dots = int8Dots(this.dims);
  }

  private get data(): Int8Array {
    return this.dots.rows;
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(key: string): boolean {
    return this.slotOf.has(key);
  }

  set(key: string, vector: Float32Array): void {
    let norm = 0;
    for (let d = 0; d < vector.length; d++) norm += vector[d]! * vector[d]!;
    norm = Math.sqrt(norm);
    if (!norm) return this.remove(key);
    const slot = this.slotFor(key);
    const at = slot * this.dims;
    let max = 0;
    for (let d = 0; d < vector.length; d++) max = Math.max(max, Math.abs(vector[d]!) / norm);
    const scale = max / 127;
    this.scale[slot] = scale;
    for (let d = 0; d < vector.length; d++) this.data[at + d] = Math.round(vector[d]! / norm / scale);
    this.project(slot);
  }

  /** A vector as stored (word-vectors.ts packVector: a float32 scale, then int8s), without unpacking it. */
  setPacked(key: string, packed: Uint8Array): void {
    const n = packed.byteLength - 4;
    if (n <= 0 || n > this.dims) return this.remove(key);
    const slot = this.slotFor(key);
    const at = slot * this.dims;
    this.scale[slot] = new DataView(packed.buffer, packed.byteOffset, 4).getFloat32(0, true);
    this.data.set(new Int8Array(packed.buffer, packed.byteOffset + 4, n), at);
    this.project(slot);
    if (!this.rest[slot] && !this.along[slot]) this.remove(key);
  }

  private slotFor(key: string): number {
    let slot = this.slotOf.get(key);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.keys.length;
      this.slotOf.set(key, slot);
      this.keys[slot] = key;
      this.grow(slot + 1);
    }
    return slot;
  }

  remove(key: string): void {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return;
    this.slotOf.delete(key);
    this.keys[slot] = undefined;
    this.data.fill(0, slot * this.dims, (slot + 1) * this.dims);
    this.rest[slot] = 0;
    this.free.push(slot);
  }

  /** A request's vector made ready for score and cosine; undefined for a zero vector. */
  prepare(query: Float32Array): PreparedQuery | undefined {
    this.refreshCommon();
    return this.removeCommon(query);
  }

  /** The best `limit` records `accept` lets through, as [key, cosine without the common direction]. */
  score(q: PreparedQuery, limit: number, accept: (key: string) => boolean): Array<[string, number]> {
    const top = new TopK(limit);
    const { along, rest, keys, scale } = this;
    const { out, unit } = this.dots.dots(q.v, keys.length);
    for (let slot = 0; slot < keys.length; slot++) {
      if (!rest[slot]) continue;
      const cos = (out[slot]! * unit * scale[slot]! - along[slot]! * q.along) / rest[slot]!;
      // Asked only of those that would enter the top: most records never are.
      if (!top.admits(cos)) continue;
      const key = keys[slot];
      if (key !== undefined && accept(key)) top.offer(slot, cos);
    }
    return top.sorted().map(([slot, cos]) => [keys[slot]!, cos]);
  }

  cosine(q: PreparedQuery, key: string): number | undefined {
    const slot = this.slotOf.get(key);
    return slot === undefined || !this.rest[slot] ? undefined : this.cosineAt(q, slot);
  }

  private cosineAt(q: PreparedQuery, slot: number): number {
    const dims = this.dims;
    const data = this.data;
    const v = q.v;
    let dot = 0;
    const at = slot * dims;
    for (let d = 0; d < dims; d++) dot += data[at + d]! * v[d]!;
    return (dot * this.scale[slot]! - this.along[slot]! * q.along) / this.rest[slot]!;
  }

  /** The query as a unit vector, with its component along the common direction. */
  private removeCommon(query: Float32Array): PreparedQuery | undefined {
    let norm = 0;
    for (let d = 0; d < query.length; d++) norm += query[d]! * query[d]!;
    norm = Math.sqrt(norm);
    if (!norm) return undefined;
    const v = new Float32Array(this.dims);
    let along = 0;
    for (let d = 0; d < this.dims; d++) {
      v[d] = (query[d] ?? 0) / norm;
      along += v[d]! * this.common[d]!;
    }
    // Scaled so that (v . x - along * along_x) / rest_x is the cosine of the two remainders.
    const rest = Math.sqrt(Math.max(1 - along * along, 1e-9));
    for (let d = 0; d < this.dims; d++) v[d]! /= rest;
    return { v, along: along / rest };
  }

  private refreshCommon(): void {
    const n = this.slotOf.size;
    if (this.commonAt >= 0 && Math.abs(n - this.commonAt) <= this.commonAt * RECOMPUTE_SHARE) return;
    const sum = new Float64Array(this.dims);
    const data = this.data;
    for (let slot = 0; slot < this.keys.length; slot++) {
      if (this.keys[slot] === undefined) continue;
      const at = slot * this.dims;
      for (let d = 0; d < this.dims; d++) sum[d]! += data[at + d]! * this.scale[slot]!;
    }
    let norm = 0;
    for (const x of sum) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < this.dims; d++) this.common[d] = sum[d]! / norm;
    this.commonAt = n;
    for (let slot = 0; slot < this.keys.length; slot++) if (this.keys[slot] !== undefined) this.project(slot);
  }

  private project(slot: number): void {
    const at = slot * this.dims;
    const data = this.data;
    let along = 0;
    let norm = 0;
    for (let d = 0; d < this.dims; d++) {
      along += data[at + d]! * this.common[d]!;
      norm += data[at + d]! * data[at + d]!;
    }
    // The int8 vector's own norm (within rounding of 1 / scale), so cosines stay cosines.
    norm = Math.sqrt(norm) * this.scale[slot]!;
    if (!norm) {
      this.along[slot] = this.rest[slot] = this.scale[slot] = 0;
      return;
    }
    along *= this.scale[slot]! / norm;
    this.scale[slot]! /= norm;
    this.along[slot] = along;
    this.rest[slot] = Math.sqrt(Math.max(1 - along * along, 0));
  }

  private grow(slots: number): void {
    if (this.along.length >= slots) return;
    const cap = Math.max(64, Math.ceil(slots * 1.25));
    this.dots.reserve(cap);
    this.scale = grown(this.scale, cap);
    this.along = grown(this.along, cap);
    this.rest = grown(this.rest, cap);
  }
}
