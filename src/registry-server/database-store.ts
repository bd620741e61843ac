// Published capabilities in a database: PostgreSQL (`postgres://…`, several stateless replicas on
// one database) or a SQLite file (`sqlite:PATH`, one host). Both go through Bun's SQL client, so
// the queries are written once; the few dialect differences (row locks, text search, collation)
// are named where they occur. A replica started with a cache (`cacheBytes`, what `pml registry
// serve` does) answers fetches from memory and hears of every change through the database's change
// log (src/registry-server/change-feed.ts); without one it keeps only rendered module text, keyed by
// immutable version and visibility.
import type { Identity } from "./api-keys.ts";
import { CAPABILITY_NAME, capabilityFqdn, capabilityRecord, renderCapabilityModule, type PublishInput, type PublishResult, type VersionRecord } from "./capability-record.ts";
import { CapabilityCache, mayView, type CachedRow } from "./capability-cache.ts";
import { ChangeFeed, waitForReplicas, type ChangeFeedOptions } from "./change-feed.ts";
import { openDb, redactUrl, type Db, type DbOptions } from "./database.ts";
import { migrate } from "./migrations.ts";
import { Publication } from "./publish.ts";
import { SELECT, toRecord, visibleTo, type StoredVersion } from "./rows.ts";
import { BadCursorError, etagOf, searchWords, type CatalogEntry, type CatalogSlice, type ListQuery, type RegistryStore, type StoredEntry } from "./store.ts";

const TS = "application/typescript; charset=utf-8";
const RENDER_CACHE_MAX = 20_000;

export interface OpenOptions extends DbOptions {
  /** Run migrations up to this schema version only (tests build older databases with it). */
  migrateTo?: number;
  /** Keep fetched capabilities in memory, up to about this many bytes (default 0: no cache). */
  cacheBytes?: number;
  /** Polling and lease of the cache's change feed (default: reads every 50 ms, a 2 s lease). */
  feed?: ChangeFeedOptions;
}

type Format = "module" | "record";

export class DatabaseStore implements RegistryStore {
  private readonly rendered = new Map<string, StoredEntry>();
  /** Postgres compares names byte-wise whatever the database's locale, like SQLite does. */
  private readonly coll: string;
  readonly label: string;

  private cache: CapabilityCache | null = null;
  private feed: ChangeFeed | null = null;
  private feedDb: Db | null = null;

  private constructor(readonly db: Db) {
    this.coll = db.dialect === "postgres" ? ` COLLATE "C"` : "";
    this.label = `database: ${db.label}`;
  }

  /**
   * `postgres://…`/`postgresql://…` or `sqlite:PATH`. Connects, migrates, and throws an Error whose
   * message says what to fix when the database cannot be used.
   */
  static async open(url: string, opts: OpenOptions = {}): Promise<DatabaseStore> {
    const db = openDb(url, opts);
    try {
      await migrate(db, opts.migrateTo);
    } catch (e) {
      await db.close().catch(() => {});
      const err = e as { code?: string; message?: string };
      const why = err.message ?? String(e);
      if (db.dialect === "postgres" && /ECONNREFUSED|ERR_POSTGRES_CONNECTION|connect|timed out/i.test(`${err.code} ${why}`))
        throw new Error(`--database ${redactUrl(url)}: cannot connect to PostgreSQL (${why}). Is it running, and do host, port, user, password and database name match?`);
      throw new Error(`--database ${redactUrl(url)}: ${why}`);
    }
    const store = new DatabaseStore(db);
    if (opts.cacheBytes) {
      try {
        await store.startCache(url, opts.cacheBytes, opts.feed);
      } catch (e) {
        await store.close().catch(() => {});
        throw new Error(`--database ${redactUrl(url)}: cannot start the change feed of the cache (${(e as Error).message})`);
      }
    }
    return store;
  }

  private async startCache(url: string, bytes: number, opts: ChangeFeedOptions = {}): Promise<void> {
    const cache = new CapabilityCache(bytes);
    // PostgreSQL: the feed has its own connections (one LISTENs), so its reads never queue behind
    // fetches. SQLite: one connection per process is the rule (database.ts).
    this.feedDb = this.db.dialect === "postgres" ? openDb(url, { poolSize: 2 }) : null;
    this.feed = await ChangeFeed.start(this.feedDb ?? this.db, (fqdns) => cache.drop(fqdns), opts);
    this.cache = cache;
  }

  /** Entries and bytes held by the cache (null without one). */
  cacheStats(): { entries: number; bytes: number } | null {
    return this.cache ? { entries: this.cache.size, bytes: this.cache.usedBytes } : null;
  }

  async close(): Promise<void> {
    await this.feed?.close();
    await this.feedDb?.close();
    await this.db.close();
  }

  // ---- read ------------------------------------------------------------------------------------

  get(fqdn: string, viewer: Identity | null): Promise<StoredEntry | null> {
    return this.fetch(fqdn, viewer, "module");
  }

  getRecord(fqdn: string, viewer: Identity | null): Promise<StoredEntry | null> {
    return this.fetch(fqdn, viewer, "record");
  }

  private async fetch(fqdn: string, viewer: Identity | null, format: Format): Promise<StoredEntry | null> {
    const parts = fqdn.split(".");
    if (parts.length !== 4 && parts.length !== 5) return null;
    const cache = this.cache;
    if (!cache || !this.feed!.fresh()) {
      const r = await this.lookup(parts, viewer);
      return !r ? null : format === "module" ? this.render(r) : recordEntry(r);
    }
    const key = `${format} ${fqdn}`;
    let rows = cache.get(key);
    if (!rows) {
      const epoch = cache.epoch;
      rows = (await this.candidates(parts)).map(
        (c): CachedRow => ({ org: c.r.org, owner: c.owner, visibility: c.r.visibility, entry: format === "module" ? moduleEntry(c.r) : recordEntry(c.r) }),
      );
      cache.set(key, parts.slice(0, 4).join("."), rows, epoch);
    }
    return rows.find((row) => mayView(viewer, row))?.entry ?? null;
  }

  /** The version a 4-part name (latest) or 5-part name (code hash prefix) selects. */
  private version(parts: string[], params: unknown[]): string {
    params.push(parts.slice(0, 4).join("."));
    if (parts.length === 4) return `v.seq = c.latest_seq`;
    params.push(parts[4]);
    return `substr(v.code_hash, 1, 4) = $2`;
  }

  /** The one row `viewer` is shown: its own private capability of that name first, else the shared one. */
  private async lookup(parts: string[], viewer: Identity | null): Promise<StoredVersion | null> {
    const params: unknown[] = [];
    const version = this.version(parts, params);
    const rows = await this.db.query(`${SELECT} AND ${version} WHERE c.fqdn = $1 AND ${visibleTo(viewer, params)} ORDER BY (c.owner = '') ASC, v.seq DESC LIMIT 1`, params);
    return rows.length ? toRecord(rows[0]) : null;
  }

  /** Every row any caller could be shown for the name, in `lookup`'s order, for the cache. */
  private async candidates(parts: string[]): Promise<{ owner: string; r: StoredVersion }[]> {
    const params: unknown[] = [];
    const version = this.version(parts, params);
    const rows = await this.db.query(`${SELECT} AND ${version} WHERE c.fqdn = $1 ORDER BY (c.owner = '') ASC, v.seq DESC`, params);
    return rows.map((row: any) => ({ owner: row.owner as string, r: toRecord(row) }));
  }

  private render(r: StoredVersion): StoredEntry {
    const key = `${r.id}/${r.seq}/${r.visibility}`;
    let entry = this.rendered.get(key);
    if (!entry) {
      entry = moduleEntry(r);
      if (this.rendered.size >= RENDER_CACHE_MAX) this.rendered.delete(this.rendered.keys().next().value!);
      this.rendered.set(key, entry);
    }
    return entry;
  }

  async list({ cursor, limit, text, name, viewer }: ListQuery): Promise<CatalogSlice> {
    const params: unknown[] = [];
    const where = [visibleTo(viewer, params)];
    if (viewer) {
      // One row per fqdn, the one `get` serves: a name the viewer holds privately hides the shared one.
      params.push(viewer.user);
      where.push(`NOT (c.owner = '' AND EXISTS (SELECT 1 FROM capabilities p WHERE p.fqdn = c.fqdn AND p.owner = $${params.length}))`);
    }
    if (name) {
      // A short name is the caller's own org's: another org's capability (public or not) is
      // reached by its full FQDN only, so a name never resolves to code another org chose.
      const m = CAPABILITY_NAME.exec(name);
      if (!m || !viewer) return { items: [], next_cursor: null };
      params.push(m[1], m[2], viewer.org);
      where.push(`c.namespace = $${params.length - 2} AND c.action = $${params.length - 1} AND c.org = $${params.length}`);
    }
    const words = searchWords(text);
    if (words.length) {
      let rank: string;
      if (this.db.dialect === "postgres") {
        params.push(words.map((w) => `${w}:*`).join(" & "));
        where.push(`c.search_tsv @@ to_tsquery('simple', $${params.length})`);
        rank = `ts_rank(c.search_tsv, to_tsquery('simple', $${params.length})) DESC,`;
      } else {
        for (const w of words) {
          params.push(`%${w}%`);
          where.push(`c.search_text LIKE $${params.length}`);
        }
        rank = "";
      }
      params.push(limit);
      const rows = await this.db.query(
        `${SELECT} AND v.seq = c.latest_seq WHERE ${where.join(" AND ")} ORDER BY ${rank} c.fqdn${this.coll}, c.owner${this.coll} LIMIT $${params.length}`,
        params,
      );
      // Ranked results are one page: ask a narrower question rather than paging through matches.
      return { items: rows.map((r: any) => catalogEntry(toRecord(r))), next_cursor: null };
    }
    if (cursor) {
      const [fqdn, owner] = decodeDbCursor(cursor);
      params.push(fqdn, owner);
      const a = `$${params.length - 1}`;
      const b = `$${params.length}`;
      where.push(`(c.fqdn${this.coll} > ${a} OR (c.fqdn = ${a} AND c.owner${this.coll} > ${b}))`);
    }
    params.push(limit + 1);
    const rows = await this.db.query(
      `${SELECT} AND v.seq = c.latest_seq WHERE ${where.join(" AND ")} ORDER BY c.fqdn${this.coll}, c.owner${this.coll} LIMIT $${params.length}`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1) as any;
    return {
      items: page.map((r: any) => catalogEntry(toRecord(r))),
      next_cursor: rows.length > limit && last ? encodeDbCursor(capabilityFqdn(last), last.owner) : null,
    };
  }

  // ---- publish ---------------------------------------------------------------------------------

  async publish(viewer: Identity, input: PublishInput): Promise<PublishResult> {
    const publication = new Publication(this.db, viewer, input);
    const { result, seq } = await publication.commit();
    if (seq) await this.announce(publication.fqdn, seq);
    return result;
  }

  /** The change-feed step: once this returns, no replica answers with what the publish replaced
   * (change-feed.ts). */
  private async announce(fqdn: string, seq: number): Promise<void> {
    this.cache?.drop([fqdn]);
    await waitForReplicas(this.db, seq, this.feed?.id ?? null);
  }
}

function moduleEntry(r: VersionRecord): StoredEntry {
  const body = new TextEncoder().encode(renderCapabilityModule(r));
  return { body, contentType: TS, etag: etagOf(body) };
}

function recordEntry(r: VersionRecord): StoredEntry {
  const body = new TextEncoder().encode(JSON.stringify(capabilityRecord(r)));
  return { body, contentType: "application/json; charset=utf-8", etag: etagOf(body) };
}

function catalogEntry(r: VersionRecord): CatalogEntry {
  return {
    fqdn: capabilityFqdn(r),
    type: "capability",
    name: `${r.namespace}:${r.action}`,
    org: r.org,
    project: r.project,
    description: r.description ?? r.intent ?? undefined,
    version: r.version_tag,
    visibility: r.visibility,
    updated_by: r.updated_by,
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

function encodeDbCursor(fqdn: string, owner: string): string {
  return Buffer.from(JSON.stringify([fqdn, owner]), "utf8").toString("base64url");
}

function decodeDbCursor(cursor: string): [string, string] {
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && typeof v[1] === "string") return v as [string, string];
  } catch {}
  throw new BadCursorError("cursor is not one this registry issued; start again without it");
}
