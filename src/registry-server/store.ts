// What the registry server serves, behind a small interface: a directory of files (read-only), or a
// database of published capabilities (src/registry-server/capability-store.ts, SQLite or PostgreSQL).
import { createHash } from "node:crypto";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { join, sep } from "node:path";
import { isValidFqdn } from "../registry/fqdn.ts";
import { metaFromComment, metaFromExport } from "../registry/module-meta.ts";
import type { Identity } from "./api-keys.ts";
import type { PublishInput, PublishResult } from "./capability-record.ts";

export interface CatalogEntry {
  fqdn: string;
  /** "module" for code; the descriptor's type ("stdio", "cloud", "http") for JSON; "capability". */
  type: string;
  description?: string;
  /** Capabilities only: `ns:action`, latest version tag, who may see it, and who changed it last. */
  name?: string;
  org?: string;
  project?: string;
  version?: string;
  visibility?: string;
  updated_by?: string;
  updated_at?: string;
}

export interface StoredEntry {
  body: Uint8Array;
  contentType: string;
  /** Strong ETag, quoted: "\"<hash>\"". */
  etag: string;
}

export interface CatalogSlice {
  items: CatalogEntry[];
  /** Opaque; pass back as `cursor` for the next page; null at the end. */
  next_cursor: string | null;
  /** The caller as its key identifies it (absent when anonymous), so a client tells its own org's
   * entries from other orgs'. */
  viewer?: { org: string; user: string };
}

export interface ListQuery {
  cursor: string | null;
  limit: number;
  /** Words that must all match (name, description, intent, tags, tools used); ranked when the store can. */
  text?: string;
  /** Only capabilities with this `ns:action` name in the caller's own org (every project of it the
   * caller may see; none for an anonymous caller): what a short name may mean to it. */
  name?: string;
  /** The caller's identity (from its API key), or null for an anonymous request. */
  viewer: Identity | null;
}

export interface RegistryStore {
  list(q: ListQuery): Promise<CatalogSlice>;
  /** Null when missing or when `viewer` may not see it: the caller cannot tell the two apart. */
  get(fqdn: string, viewer: Identity | null): Promise<StoredEntry | null>;
  /** A capability's whole record as JSON (code included), for pml to run it; absent on the directory. */
  getRecord?(fqdn: string, viewer: Identity | null): Promise<StoredEntry | null>;
  /** Absent on read-only stores (the directory). */
  publish?(viewer: Identity, input: PublishInput): Promise<PublishResult>;
  close?(): Promise<void>;
  /** Where entries come from, for the start-up line ("data: DIR", "database: sqlite:…"). */
  readonly label: string;
}

/** The lower-cased words of a `text` query (at most 16, each at most 64 characters). */
export function searchWords(text: string | undefined): string[] {
  return (text ?? "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean)
    .slice(0, 16)
    .map((w) => w.slice(0, 64));
}

/** A cursor that is not one we issued. */
export class BadCursorError extends Error {
  override name = "BadCursorError";
}

export function encodeCursor(lastFqdn: string): string {
  return Buffer.from(lastFqdn, "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): string {
  const fqdn = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  if (!isValidFqdn(fqdn)) throw new BadCursorError("cursor is not one this registry issued; start again without it");
  return fqdn;
}

export function etagOf(body: Uint8Array): string {
  return `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
}

/** Extension -> content type, in the order a name is looked up when several files exist. */
const EXTENSIONS: [string, string][] = [
  [".ts", "application/typescript; charset=utf-8"],
  [".js", "application/javascript; charset=utf-8"],
  [".json", "application/json; charset=utf-8"],
];

/**
 * `<dir>/<fqdn>.ts` (a module), `<fqdn>.js`, or `<fqdn>.json` (a descriptor, or a server.json).
 * Names are validated before they touch the file system, and a symlink inside the directory that
 * points outside it is refused, so nothing outside the data directory is ever served.
 */
export class FileStore implements RegistryStore {
  private rootReal: Promise<string>;
  readonly label: string;
  private described = new Map<string, { mtimeMs: number; size: number; entry: CatalogEntry }>();

  constructor(readonly dir: string) {
    this.rootReal = realpath(dir);
    this.label = `data: ${dir}`;
  }

  private async names(): Promise<Map<string, string>> {
    const byName = new Map<string, string>();
    for (const file of (await readdir(this.dir)).sort()) {
      for (const [ext] of EXTENSIONS) {
        if (!file.endsWith(ext)) continue;
        const fqdn = file.slice(0, -ext.length);
        if (!isValidFqdn(fqdn)) continue;
        const prev = byName.get(fqdn);
        // First extension in EXTENSIONS order wins when two files share a name.
        if (!prev || EXTENSIONS.findIndex(([e]) => e === ext) < EXTENSIONS.findIndex(([e]) => prev.endsWith(e))) byName.set(fqdn, file);
      }
    }
    return byName;
  }

  /** The real path of a file in the data dir, or null if missing, not a file, or escaping the dir. */
  private async safePath(file: string): Promise<string | null> {
    try {
      const root = await this.rootReal;
      const real = await realpath(join(this.dir, file));
      if (!real.startsWith(root + sep)) return null;
      if (!(await stat(real)).isFile()) return null;
      return real;
    } catch {
      return null;
    }
  }

  async get(fqdn: string, _viewer?: Identity | null): Promise<StoredEntry | null> {
    if (!isValidFqdn(fqdn)) return null;
    for (const [ext, contentType] of EXTENSIONS) {
      const path = await this.safePath(fqdn + ext);
      if (!path) continue;
      const body = new Uint8Array(await readFile(path));
      return { body, contentType, etag: etagOf(body) };
    }
    return null;
  }

  async list({ cursor, limit, text, name }: ListQuery): Promise<CatalogSlice> {
    if (name) return { items: [], next_cursor: null }; // a directory holds no capabilities
    const after = cursor ? decodeCursor(cursor) : null;
    let names = [...(await this.names()).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const words = searchWords(text);
    if (words.length) {
      const hits: [string, string][] = [];
      for (const [fqdn, file] of names) {
        const d = await this.describe(fqdn, file);
        const hay = `${fqdn} ${d?.description ?? ""}`.toLowerCase();
        if (words.every((w) => hay.includes(w))) hits.push([fqdn, file]);
      }
      names = hits;
    }
    const start = after === null ? 0 : names.findIndex(([n]) => n > after);
    const page = start < 0 ? [] : names.slice(start, start + limit);
    const items: CatalogEntry[] = [];
    for (const [fqdn, file] of page) {
      const entry = await this.describe(fqdn, file);
      if (entry) items.push(entry);
    }
    const last = page[page.length - 1];
    const more = start >= 0 && start + limit < names.length;
    return { items, next_cursor: more && last ? encodeCursor(last[0]) : null };
  }

  /** Type and description for the catalog, remembered until the file changes. */
  private async describe(fqdn: string, file: string): Promise<CatalogEntry | null> {
    const path = await this.safePath(file);
    if (!path) return null;
    const st = await stat(path);
    const known = this.described.get(fqdn);
    if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) return known.entry;
    const text = await readFile(path, "utf8");
    let entry: CatalogEntry = { fqdn, type: file.endsWith(".json") ? "unknown" : "module" };
    try {
      if (file.endsWith(".json")) {
        let doc = JSON.parse(text);
        if (doc && doc.type === undefined && doc.server) doc = doc.server;
        const type = typeof doc?.type === "string" ? doc.type : Array.isArray(doc?.packages) ? "stdio" : Array.isArray(doc?.remotes) ? "http" : "unknown";
        entry = { fqdn, type, description: typeof doc?.description === "string" ? doc.description : undefined };
      } else {
        const js = () => new Bun.Transpiler({ loader: file.endsWith(".ts") ? "ts" : "js" }).transformSync(text);
        const meta = (metaFromComment(text) ?? metaFromExport(js())) as { description?: unknown } | undefined;
        if (typeof meta?.description === "string") entry.description = meta.description;
      }
    } catch {
      // A broken file still lists; fetching it gives the client the precise error.
    }
    this.described.set(fqdn, { mtimeMs: st.mtimeMs, size: st.size, entry });
    return entry;
  }
}
