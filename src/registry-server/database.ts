// One small interface over the registry's two databases, so the queries are written once with
// `$1, $2…` parameters: PostgreSQL through Bun's SQL client (a pool; several replicas share one
// database) and a SQLite file through bun:sqlite (one host).
//
// Why not Bun's SQL client for SQLite too: measured on Bun 1.4.5, statements of two concurrent
// `begin()` transactions interleave on its single SQLite connection, and `tx.unsafe()` writes
// inside a transaction were not kept. bun:sqlite is synchronous, so a transaction here is a
// BEGIN IMMEDIATE … COMMIT that no other query of this process can enter (one queue), and other
// processes wait on the busy timeout.
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { BUSY_TIMEOUT_MS, whileBusy } from "../sqlite-busy.ts";

export type Dialect = "postgres" | "sqlite";
export type Query = (text: string, params?: unknown[]) => Promise<any[]>;

export interface Db {
  readonly dialect: Dialect;
  /** The URL without its password, for logs. */
  readonly label: string;
  query: Query;
  /** Runs `fn` in one transaction; a throw rolls it back. */
  transaction<T>(fn: (q: Query) => Promise<T>): Promise<T>;
  /** PostgreSQL only: calls `onNotify` on each NOTIFY on `channel`; resolves to a function that stops listening. */
  listen?(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The database's own clock in epoch milliseconds, read when the expression runs (not at transaction start). */
export function nowMs(d: Dialect): string {
  return d === "postgres" ? `(extract(epoch from clock_timestamp()) * 1000)::bigint` : `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`;
}

/** `postgres://user:secret@host/db` -> `postgres://user@host/db`. */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*):[^@/]*@/, "$1@");
}

export interface DbOptions {
  /** PostgreSQL connections per replica (default 10). */
  poolSize?: number;
}

/** `postgres://…`, `postgresql://…` or `sqlite:PATH`; throws an Error saying what to write otherwise. */
export function openDb(url: string, opts: DbOptions = {}): Db {
  if (/^postgres(ql)?:\/\//.test(url)) return postgresDb(url, opts);
  if (url.startsWith("sqlite:")) {
    const filename = url.slice("sqlite:".length);
    if (!filename) throw new Error(`--database ${url}: give a file, e.g. sqlite:./registry.db`);
    return sqliteDb(filename, url);
  }
  throw new Error(`--database ${redactUrl(url)}: expected postgres://user@host:5432/dbname or sqlite:PATH`);
}

function postgresDb(url: string, opts: DbOptions): Db {
  const sql = new SQL(url, { max: opts.poolSize ?? 10, connectionTimeout: 10, idleTimeout: 60 });
  const q =
    (s: SQL): Query =>
    (text, params = []) =>
      s.unsafe(text, params as any[]) as unknown as Promise<any[]>;
  return {
    dialect: "postgres",
    label: redactUrl(url),
    query: q(sql),
    transaction: (fn) => sql.begin((tx) => fn(q(tx as unknown as SQL))) as Promise<any>,
    async listen(channel, onNotify) {
      const sub = await sql.listen(channel, () => onNotify());
      return async () => {
        await sub.unlisten();
      };
    },
    close: () => sql.close(),
  };
}

function sqliteDb(filename: string, url: string): Db {
  let db: Database;
  try {
    db = new Database(filename, { create: true, readwrite: true, strict: false });
    // The busy timeout first: two replicas opening a new file at once both switch it to WAL.
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    whileBusy(() => db.exec("PRAGMA journal_mode = WAL"));
    db.exec("PRAGMA foreign_keys = ON");
  } catch (e) {
    throw new Error(`--database ${url}: cannot open the SQLite file (${(e as Error).message}); check that its folder exists and is writable`);
  }
  // `$3` is a *named* parameter to SQLite (bound in order of appearance); `?3` is positional.
  const cache = new Map<string, ReturnType<Database["query"]>>();
  const prepare = (text: string) => {
    let st = cache.get(text);
    if (!st) {
      st = db.query(text.replace(/\$(\d+)/g, "?$1"));
      cache.set(text, st);
    }
    return st;
  };
  const run = (text: string, params: unknown[] = []) => prepare(text).all(...(params as any[])) as any[];
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const p = queue.then(fn, fn);
    queue = p.catch(() => {});
    return p;
  };
  return {
    dialect: "sqlite",
    label: url,
    query: (text, params) => exclusive(async () => run(text, params)),
    transaction: (fn) =>
      exclusive(async () => {
        whileBusy(() => db.exec("BEGIN IMMEDIATE"));
        try {
          const out = await fn(async (text, params) => run(text, params));
          db.exec("COMMIT");
          return out;
        } catch (e) {
          db.exec("ROLLBACK");
          throw e;
        }
      }),
    close: async () => {
      await queue;
      db.close();
    },
  };
}
