// A replica's memory of fetched capabilities: for one requested name and format, every row a caller
// might be shown (each owner's, in the order the database would pick them), with what deciding who
// may see it needs (org, owner, visibility) and the rendered answer. Authorization stays per
// request (`mayView`); the cache only saves the database round trip. Least recently used entries go
// first past `maxBytes`. What changed is dropped by 4-part name (src/registry-server/change-feed.ts); a fill
// that started before a drop is not kept, since it may have read the old row.
import type { Identity } from "./api-keys.ts";
import type { Visibility } from "./capability-record.ts";
import type { StoredEntry } from "./store.ts";

export interface CachedRow {
  org: string;
  /** "" for a shared capability; its creator for a private one. */
  owner: string;
  visibility: Visibility;
  entry: StoredEntry;
}

/**
 * The rule of `visibleTo` in rows.ts, on one cached row: public ones; else the caller's
 * org's shared ones and its own private ones.
 */
export function mayView(viewer: Identity | null, row: Pick<CachedRow, "org" | "owner" | "visibility">): boolean {
  if (row.visibility === "public") return true;
  if (!viewer || row.org !== viewer.org) return false;
  return row.visibility !== "private" || row.owner === viewer.user;
}

interface Slot {
  base: string;
  rows: CachedRow[];
  bytes: number;
}

/** Bookkeeping per slot and row beyond the bodies (keys, objects, map entries, typed-array headers), measured on Bun 1.4: about 2 KB per 900-byte module in all. */
const SLOT_OVERHEAD = 560;
const ROW_OVERHEAD = 480;

export class CapabilityCache {
  private readonly slots = new Map<string, Slot>();
  /** Keys (formats, version names) held for each 4-part name. */
  private readonly keysOf = new Map<string, Set<string>>();
  private bytes = 0;
  /** Moves on every drop; a fill records it before reading and is kept only if it has not moved. */
  epoch = 0;

  constructor(readonly maxBytes: number) {}

  get size(): number {
    return this.slots.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  get(key: string): CachedRow[] | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    // Map order is insertion order: re-inserting makes it the most recently used.
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.rows;
  }

  /** Keeps `rows` (possibly none: a name that does not exist) unless something was dropped since `epoch`. */
  set(key: string, base: string, rows: CachedRow[], epoch: number): void {
    if (epoch !== this.epoch) return;
    let bytes = SLOT_OVERHEAD + key.length * 2;
    for (const r of rows) bytes += ROW_OVERHEAD + r.entry.body.byteLength + r.entry.etag.length * 2 + r.owner.length * 2;
    if (bytes > this.maxBytes) return;
    this.remove(key);
    this.slots.set(key, { base, rows, bytes });
    let keys = this.keysOf.get(base);
    if (!keys) this.keysOf.set(base, (keys = new Set()));
    keys.add(key);
    this.bytes += bytes;
    for (const oldest of this.slots.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  /** Drops everything held for these 4-part names, or everything. */
  drop(bases: string[] | "all"): void {
    this.epoch++;
    if (bases === "all") {
      this.slots.clear();
      this.keysOf.clear();
      this.bytes = 0;
      return;
    }
    for (const base of bases) for (const key of this.keysOf.get(base) ?? []) this.remove(key);
  }

  private remove(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    this.slots.delete(key);
    this.bytes -= slot.bytes;
    const keys = this.keysOf.get(slot.base);
    keys?.delete(key);
    if (keys && !keys.size) this.keysOf.delete(slot.base);
  }
}
