// Published capabilities in a database: PostgreSQL (`postgres://…`, several stateless replicas on
// one database) or a SQLite file (`sqlite:PATH`, one host). Both go through Bun's SQL client, so
// the queries are written once; the few dialect differences (row locks, text search, collation)
// are named where they occur. A replica started with a cache (`cacheBytes`, what `pml registry
// serve` does) answers fetches from memory and hears of every change through the database's change
// log (src/registry-server/change-feed.ts); without one it keeps only rendered module text, keyed by
// immutable version and visibility.
import { randomUUID } from "node:crypto";
import type { Identity } from "./api-keys.ts";
import {
  CAPABILITY_NAME,
  capabilityFqdn,
  capabilityRecord,
  checkCapabilityModule,
  codeHash,
  nextVersionTag,
  PublishError,
  renderCapabilityModule,
  splitName,
  versionFqdn,
  type PublishInput,
  type PublishResult,
  type VersionRecord,
  type Visibility,
} from "./capability-record.ts";
import { CapabilityCache, mayView, type CachedRow } from "./capability-cache.ts";
import { ChangeFeed, waitForReplicas, type ChangeFeedOptions } from "./change-feed.ts";
import { openDb, redactUrl, type Db, type DbOptions, type Query } from "./database.ts";
import { migrate } from "./migrations.ts";
import { BadCursorError, etagOf, searchWords, type CatalogEntry, type CatalogSlice, type ListQuery, type RegistryStore, type StoredEntry } from "./store.ts";

const TS = "application/typescript; charset=utf-8";
const RENDER_CACHE_MAX = 20_000;

/** Columns of a capability joined with one of its versions. */
const SELECT = `SELECT c.id, c.owner, c.org, c.project, c.namespace, c.action, c.visibility, c.created_by AS c_created_by, c.created_at AS c_created_at,
  v.seq, v.version_tag, v.code, v.code_hash, v.description, v.intent, v.parameters_schema, v.default_args, v.tools_used, v.routing, v.tags,
  v.change_summary, v.created_by AS v_created_by, v.created_at AS v_created_at
  FROM capabilities c JOIN capability_versions v ON v.capability_id = c.id`;

/**
 * Which rows a caller may see: public ones; else its org's shared ones and its own private ones.
 * `mayView` (capability-cache.ts) is the same rule on a cached row.
 */
function visibleTo(viewer: Identity | null, params: unknown[]): string {
  if (!viewer) return `c.visibility = 'public'`;
  params.push(viewer.org, viewer.user);
  const org = `$${params.length - 1}`;
  const user = `$${params.length}`;
  return `(c.visibility = 'public' OR (c.org = ${org} AND (c.visibility <> 'private' OR c.owner = ${user})))`;
}

const parseJson = <T>(text: unknown, fallback: T): T => (typeof text === "string" && text ? (JSON.parse(text) as T) : fallback);

function toRecord(row: any): VersionRecord & { seq: number } {
  return {
    id: row.id,
    org: row.org,
    project: row.project,
    namespace: row.namespace,
    action: row.action,
    visibility: row.visibility,
    seq: Number(row.seq),
    version_tag: row.version_tag,
    code: row.code,
    code_hash: row.code_hash,
    description: row.description ?? null,
    intent: row.intent ?? null,
    parameters_schema: parseJson(row.parameters_schema, null),
    default_args: parseJson(row.default_args, null),
    tools_used: parseJson(row.tools_used, []),
    routing: row.routing ?? null,
    tags: parseJson(row.tags, []),
    change_summary: row.change_summary ?? null,
    // The capability was created by its first author; this version by whoever published it.
    created_by: row.c_created_by,
    created_at: Number(row.c_created_at),
    updated_by: row.v_created_by,
    updated_at: Number(row.v_created_at),
  };
}

export function searchText(r: Pick<VersionRecord, "namespace" | "action" | "description" | "intent" | "tags" | "tools_used">): string {
  return `${r.namespace} ${r.action.replace(/_/g, " ")} ${r.description ?? ""} ${r.intent ?? ""} ${JSON.stringify(r.tags)} ${JSON.stringify(r.tools_used)}`.toLowerCase();
}

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
  private async lookup(parts: string[], viewer: Identity | null): Promise<(VersionRecord & { seq: number }) | null> {
    const params: unknown[] = [];
    const version = this.version(parts, params);
    const rows = await this.db.query(
      `${SELECT} AND ${version} WHERE c.fqdn = $1 AND ${visibleTo(viewer, params)} ORDER BY (c.owner = '') ASC, v.seq DESC LIMIT 1`,
      params,
    );
    return rows.length ? toRecord(rows[0]) : null;
  }

  /** Every row any caller could be shown for the name, in `lookup`'s order, for the cache. */
  private async candidates(parts: string[]): Promise<{ owner: string; r: VersionRecord & { seq: number } }[]> {
    const params: unknown[] = [];
    const version = this.version(parts, params);
    const rows = await this.db.query(`${SELECT} AND ${version} WHERE c.fqdn = $1 ORDER BY (c.owner = '') ASC, v.seq DESC`, params);
    return rows.map((row: any) => ({ owner: row.owner as string, r: toRecord(row) }));
  }

  private render(r: VersionRecord & { seq: number }): StoredEntry {
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
    if (name) {
      const m = CAPABILITY_NAME.exec(name);
      if (!m) return { items: [], next_cursor: null };
      params.push(m[1], m[2]);
      where.push(`c.namespace = $${params.length - 1} AND c.action = $${params.length}`);
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
    if (input.org && input.org !== viewer.org)
      throw new PublishError(400, "wrong_org", `your API key belongs to org '${viewer.org}', not '${input.org}': publish without "org" or with "org": "${viewer.org}"`);
    const { namespace, action } = splitName(input.name);
    const visibility = input.visibility as Visibility;
    const now = Date.now();
    const next: Omit<VersionRecord, "version_tag"> = {
      id: "",
      org: viewer.org,
      project: input.project,
      namespace,
      action,
      visibility,
      code: input.code,
      code_hash: codeHash(input.code),
      description: input.description ?? null,
      intent: input.intent ?? null,
      parameters_schema: input.parameters_schema ?? null,
      default_args: input.default_args ?? null,
      tools_used: input.tools_used ?? [],
      routing: input.routing ?? null,
      tags: input.tags ?? [],
      change_summary: input.change_summary ?? null,
      created_by: viewer.user,
      created_at: now,
      updated_by: viewer.user,
      updated_at: now,
    };
    checkCapabilityModule({ ...next, version_tag: input.version_tag ?? "1.0.0" });
    const fqdn = capabilityFqdn(next);
    // Private capabilities live in their creator's own scope: a name taken privately by someone
    // else is not taken for you, and publishing never reveals that it exists.
    const owner = visibility === "private" ? viewer.user : "";
    const result = (s: PublishResult["status"], id: string, tag: string, vis: Visibility, hash: string): PublishResult => ({
      status: s,
      id,
      name: input.name,
      fqdn,
      version_fqdn: versionFqdn({ ...next, code_hash: hash }),
      version: tag,
      visibility: vis,
    });

    const work = async (tx: Query): Promise<PublishResult> => {
      const current = async () => {
        // Lock the capability row first, then read its latest version in a new statement: a
        // locking read over the join would drop the row when a concurrent publish moved latest_seq.
        if (this.db.dialect === "postgres") await tx(`SELECT id FROM capabilities WHERE fqdn = $1 AND owner = $2 FOR UPDATE`, [fqdn, owner]);
        return (await tx(`${SELECT} AND v.seq = c.latest_seq WHERE c.fqdn = $1 AND c.owner = $2`, [fqdn, owner]))[0] as any;
      };
      let row = await current();
      if (!row) {
        if (input.base_version)
          throw new PublishError(409, "no_base", `${input.name} does not exist in ${viewer.org}/${input.project} (or you cannot see it), so there is no version ${input.base_version} to update: publish without base_version to create it`);
        const id = randomUUID();
        const tag = input.version_tag ?? "1.0.0";
        const inserted = await tx(
          `INSERT INTO capabilities (id, fqdn, org, project, namespace, action, owner, visibility, latest_seq, created_by, created_at, updated_by, updated_at, search_text)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10, $9, $10, $11) ON CONFLICT (fqdn, owner) DO NOTHING RETURNING id`,
          [id, fqdn, viewer.org, input.project, namespace, action, owner, visibility, viewer.user, now, searchText(next)],
        );
        if (inserted.length) {
          await this.insertVersion(tx, id, 1, tag, next);
          return result("created", id, tag, visibility, next.code_hash);
        }
        // Someone created it between our read and our insert: treat it as existing from here.
        row = await current();
        if (!row) throw new Error("the capability vanished during the publish; try again");
      }
      const latest = toRecord(row);
      if (latest.code_hash === next.code_hash && !input.update) return result("unchanged", latest.id, latest.version_tag, latest.visibility, latest.code_hash);
      // The same code with another shared visibility (narrowing a capability published too widely,
      // or widening it): not a new version, the capability's visibility changes. A private one
      // stays its creator's own (another row), so there is nothing to move.
      if (latest.code_hash === next.code_hash && visibility !== latest.visibility && owner === "") {
        if (input.base_version && input.base_version !== latest.version_tag)
          throw new PublishError(409, "stale_base_version", `${input.name} changed since v${input.base_version}: the latest is v${latest.version_tag} by ${latest.updated_by}; fetch it before changing who sees it`);
        await tx(`UPDATE capabilities SET visibility = $2, updated_by = $3, updated_at = $4 WHERE id = $1`, [latest.id, visibility, viewer.user, now]);
        return result("visibility", latest.id, latest.version_tag, visibility, latest.code_hash);
      }
      const who = `v${latest.version_tag} by ${latest.updated_by}, ${new Date(latest.updated_at).toISOString()}`;
      if (!input.update)
        throw new PublishError(
          409,
          "name_taken",
          `Capability name '${input.name}' already exists in ${viewer.org}/${input.project} (${who}) with different code: to add a version, publish with "update": true and "base_version": "${latest.version_tag}"; or choose another name`,
        );
      if (!input.base_version)
        throw new PublishError(409, "base_version_required", `an update must say which version it replaces: add "base_version": "${latest.version_tag}" (the latest, ${who}) if your change is based on it`);
      if (input.base_version !== latest.version_tag)
        throw new PublishError(
          409,
          "stale_base_version",
          `${input.name} changed since v${input.base_version}: the latest is ${who}. Fetch it (GET /mcp/${fqdn}), merge your change, and publish again with "base_version": "${latest.version_tag}"`,
        );
      const tag = nextVersionTag(latest, next, input.version_tag);
      if (!tag) return result("unchanged", latest.id, latest.version_tag, latest.visibility, latest.code_hash);
      const seq = latest.seq + 1;
      await this.insertVersion(tx, latest.id, seq, tag, next);
      await tx(`UPDATE capabilities SET latest_seq = $2, updated_by = $3, updated_at = $4, visibility = $5, search_text = $6 WHERE id = $1`, [
        latest.id,
        seq,
        viewer.user,
        now,
        visibility,
        searchText(next),
      ]);
      return result("version", latest.id, tag, visibility, next.code_hash);
    };
    let published: { result: PublishResult; seq: number };
    try {
      published = await this.db.transaction(async (tx) => {
        const result = await work(tx);
        if (result.status === "unchanged") return { result, seq: 0 };
        // The trigger logged the change; this transaction holds the log's lock, so the last entry is ours.
        return { result, seq: Number((await tx(`SELECT max(seq) AS s FROM registry_changes`))[0].s) };
      });
    } catch (e) {
      // Two publishers racing past the row lock (only possible if a replica runs an older pml)
      // meet the (capability, seq) key: still one winner and one conflict.
      if (!(e instanceof PublishError) && /unique|duplicate key|PRIMARY KEY/i.test((e as Error).message ?? ""))
        throw new PublishError(409, "concurrent_publish", `${input.name} was published by someone else at the same moment: fetch the latest version and publish again`);
      throw e;
    }
    if (published.seq) {
      this.cache?.drop([fqdn]);
      // Once this returns, no replica answers with what the publish replaced (change-feed.ts).
      await waitForReplicas(this.db, published.seq, this.feed?.id ?? null);
    }
    return published.result;
  }

  private async insertVersion(tx: Query, id: string, seq: number, tag: string, r: Omit<VersionRecord, "version_tag">): Promise<void> {
    const json = (x: unknown) => (x == null ? null : JSON.stringify(x));
    await tx(
      `INSERT INTO capability_versions (capability_id, seq, version_tag, code, code_hash, description, intent, parameters_schema, default_args, tools_used, routing, tags, change_summary, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [id, seq, tag, r.code, r.code_hash, r.description, r.intent, json(r.parameters_schema), json(r.default_args), JSON.stringify(r.tools_used), r.routing, JSON.stringify(r.tags), r.change_summary, r.updated_by, r.updated_at],
    );
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
