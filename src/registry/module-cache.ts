// The on-disk cache of registry entries under <PML_HOME>/cache/registry/:
//   blobs/<sha256>.json   a resolved Descriptor (module code already transpiled), named by the
//                         SHA-256 of its own bytes, so a damaged file is detected on read
//   index/<key>.json      one small record per (registry, fqdn): blob hash, ETag, source URL,
//                         fetched-at, max-age
// One index file per entry rather than one shared index: several pml processes (one per project)
// share ~/.pml, and per-entry files written atomically never lose each other's updates.
// Reads are synchronous: a warm load is two small file reads and a hash, well under a millisecond.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, existsSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { writeFileAtomic } from "../fs/atomic.ts";
import { cacheDir } from "../config/paths.ts";
import { DescriptorSchema, type Descriptor } from "./descriptor.ts";
import { normalizeRegistryUrl } from "./fqdn.ts";
import { log } from "../log.ts";

const CacheRecordSchema = v.object({
  registry: v.string(),
  fqdn: v.string(),
  /** The URL the entry was fetched from. */
  url: v.string(),
  /** SHA-256 (hex) of the blob file's bytes; also its file name. */
  blob: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  /** SHA-256 (hex) of the document as the registry served it (before transpiling). */
  sourceSha256: v.string(),
  contentType: v.string(),
  etag: v.optional(v.string()),
  /** Epoch milliseconds of the last fetch or successful revalidation. */
  fetchedAt: v.number(),
  /** Cache-Control max-age in seconds (0: revalidate on every new process). */
  maxAgeS: v.number(),
});

export type CacheRecord = v.InferOutput<typeof CacheRecordSchema>;

export interface CachedEntry {
  record: CacheRecord;
  descriptor: Descriptor;
}

export interface PutInfo {
  url: string;
  sourceSha256: string;
  contentType: string;
  etag?: string;
  maxAgeS: number;
  fetchedAt?: number;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export class ModuleCache {
  readonly root: string;
  private readonly indexDir: string;
  private readonly blobDir: string;

  constructor(root: string = join(cacheDir(), "registry")) {
    this.root = root;
    this.indexDir = join(root, "index");
    this.blobDir = join(root, "blobs");
  }

  private indexPath(registry: string, fqdn: string): string {
    const key = sha256Hex(`${normalizeRegistryUrl(registry)}\n${fqdn}`).slice(0, 40);
    return join(this.indexDir, `${key}.json`);
  }

  private blobPath(hash: string): string {
    return join(this.blobDir, `${hash}.json`);
  }

  /** Cheap existence check (one stat), for messages that only need to know "is it cached". */
  has(registry: string, fqdn: string): boolean {
    return existsSync(this.indexPath(registry, fqdn));
  }

  /** The cached entry, verified against its hash; null when absent, unreadable or damaged. */
  get(registry: string, fqdn: string): CachedEntry | null {
    const indexPath = this.indexPath(registry, fqdn);
    let record: CacheRecord;
    try {
      const parsed = v.safeParse(CacheRecordSchema, JSON.parse(readFileSync(indexPath, "utf8")));
      if (!parsed.success || parsed.output.registry !== normalizeRegistryUrl(registry) || parsed.output.fqdn !== fqdn) {
        this.discard(indexPath, undefined, `index entry for '${fqdn}' is unreadable`);
        return null;
      }
      record = parsed.output;
    } catch (e: any) {
      if (e?.code !== "ENOENT") this.discard(indexPath, undefined, `index entry for '${fqdn}' is unreadable`);
      return null;
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.blobPath(record.blob));
    } catch {
      this.discard(indexPath, undefined, `cached code for '${fqdn}' is missing`);
      return null;
    }
    if (sha256Hex(bytes) !== record.blob) {
      this.discard(indexPath, this.blobPath(record.blob), `cached code for '${fqdn}' does not match its hash`);
      return null;
    }
    let descriptor: Descriptor;
    try {
      const parsed = v.safeParse(DescriptorSchema, JSON.parse(bytes.toString("utf8")));
      if (!parsed.success) throw new Error("invalid descriptor");
      descriptor = parsed.output;
    } catch {
      this.discard(indexPath, this.blobPath(record.blob), `cached descriptor for '${fqdn}' is invalid`);
      return null;
    }
    return { record, descriptor };
  }

  isFresh(record: CacheRecord, now: number = Date.now()): boolean {
    return now - record.fetchedAt < record.maxAgeS * 1000;
  }

  async put(registry: string, fqdn: string, descriptor: Descriptor, info: PutInfo): Promise<CacheRecord> {
    const body = JSON.stringify(descriptor);
    const blob = sha256Hex(body);
    mkdirSync(this.blobDir, { recursive: true });
    mkdirSync(this.indexDir, { recursive: true });
    const blobPath = this.blobPath(blob);
    // Content-addressed: an existing blob with this name already holds these bytes (verified on read).
    if (!existsSync(blobPath)) await writeFileAtomic(blobPath, body);
    const record: CacheRecord = {
      registry: normalizeRegistryUrl(registry),
      fqdn,
      url: info.url,
      blob,
      sourceSha256: info.sourceSha256,
      contentType: info.contentType,
      etag: info.etag,
      fetchedAt: info.fetchedAt ?? Date.now(),
      maxAgeS: info.maxAgeS,
    };
    await writeFileAtomic(this.indexPath(registry, fqdn), JSON.stringify(record));
    return record;
  }

  /** After a 304: the entry is good for another max-age. */
  async touch(record: CacheRecord, update: { maxAgeS: number; etag?: string; fetchedAt?: number }): Promise<CacheRecord> {
    const next: CacheRecord = { ...record, maxAgeS: update.maxAgeS, etag: update.etag ?? record.etag, fetchedAt: update.fetchedAt ?? Date.now() };
    await writeFileAtomic(this.indexPath(record.registry, record.fqdn), JSON.stringify(next));
    return next;
  }

  /** Forget an entry (the registry no longer has it). Blobs may be shared, so they stay. */
  delete(registry: string, fqdn: string): void {
    try {
      unlinkSync(this.indexPath(registry, fqdn));
    } catch {}
  }

  private discard(indexPath: string, blobPath: string | undefined, why: string): void {
    log.warn(`module cache: ${why}; discarding it and fetching again`);
    for (const p of [indexPath, blobPath]) {
      if (!p) continue;
      try {
        unlinkSync(p);
      } catch {}
    }
  }
}

let shared: ModuleCache | undefined;
/** The process-wide cache under the current PML_HOME. */
export function defaultModuleCache(): ModuleCache {
  return (shared ??= new ModuleCache());
}
