// A short list of integers per slot (a search record's term ids), all in one growing Int32Array.
// An array per record cost JavaScriptCore about 200 bytes, 2 MiB of a first discover over 10k
// records (bench/memory-vectors.ts); here an entry is 4 bytes. A cleared or replaced list leaves
// its entries behind until half of the array is such leftovers, then the live lists are packed.

import { grown } from "./grown.ts";

const EMPTY = new Int32Array(0);

export class SlotLists {
  private pool = new Int32Array(1024);
  private used = 0;
  /** Entries of cleared or replaced lists, still in `pool`. */
  private dead = 0;
  private start = new Int32Array(0);
  private length = new Int32Array(0);

  set(slot: number, values: readonly number[]): void {
    this.clear(slot);
    if (slot >= this.start.length) {
      this.start = grown(this.start, Math.max(64, (slot + 1) * 2));
      this.length = grown(this.length, this.start.length);
    }
    if (this.used + values.length > this.pool.length) this.makeRoom(values.length);
    this.pool.set(values, this.used);
    this.start[slot] = this.used;
    this.length[slot] = values.length;
    this.used += values.length;
  }

  /** The slot's list (a view: valid until the next `set`). */
  get(slot: number): Int32Array {
    return slot < this.start.length ? this.pool.subarray(this.start[slot]!, this.start[slot]! + this.length[slot]!) : EMPTY;
  }

  clear(slot: number): void {
    if (slot >= this.length.length) return;
    this.dead += this.length[slot]!;
    this.length[slot] = 0;
  }

  /** Packs the live lists when half the entries are dead, else doubles; either way `more` fits. */
  private makeRoom(more: number): void {
    const live = this.used - this.dead;
    const size = this.dead * 2 >= this.used ? Math.max(this.pool.length, (live + more) * 2) : Math.max(this.pool.length * 2, live + more);
    const pool = new Int32Array(size);
    let at = 0;
    for (let slot = 0; slot < this.start.length; slot++) {
      const n = this.length[slot]!;
      if (!n) continue;
      pool.set(this.pool.subarray(this.start[slot]!, this.start[slot]! + n), at);
      this.start[slot] = at;
      at += n;
    }
    this.pool = pool;
    this.used = at;
    this.dead = 0;
  }
}
