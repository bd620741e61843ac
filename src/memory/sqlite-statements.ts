// The open memory.db as every part of the store uses it: the connection, the statements prepared
// once per connection, and the few reads the write paths share.
import type { Database } from "bun:sqlite";
import type { CapName } from "./names.ts";
import type { Row } from "./sqlite-rows.ts";
import type { Scope } from "./store.ts";

export function prepareStatements(db: Database) {
  const cols = "c.*, (SELECT json_group_array(tag) FROM capability_tags t WHERE t.capability_id = c.id) AS tags";
  return {
    byName: db.query(`SELECT ${cols} FROM capabilities c WHERE org = ?1 AND project = ?2 AND namespace = ?3 AND action = ?4`),
    byAlias: db.query(
      `SELECT ${cols} FROM capability_aliases a JOIN capabilities c ON c.id = a.capability_id WHERE a.org = ?1 AND a.project = ?2 AND a.namespace = ?3 AND a.action = ?4`,
    ),
    byId: db.query(`SELECT ${cols} FROM capabilities c WHERE id = ?1`),
    byFqdn: db.query(`SELECT ${cols} FROM capabilities c WHERE fqdn = ?1`),
    byHash: db.query(`SELECT ${cols} FROM capabilities c WHERE org = ?1 AND project = ?2 AND code_hash = ?3 AND record_type = 'capability' ORDER BY named DESC, created_at LIMIT 1`),
    aliasTarget: db.query("SELECT capability_id FROM capability_aliases WHERE org = ?1 AND project = ?2 AND namespace = ?3 AND action = ?4"),
    nextSeq: db.query("SELECT COALESCE(MAX(seq), 0) + 1 AS s FROM capabilities"),
    run: db.query(
      `UPDATE capabilities SET usage_count = usage_count + 1, success_count = success_count + ?2, total_latency_ms = total_latency_ms + ?3, last_used_at = ?4 WHERE id = ?1`,
    ),
    listNamed: db.query(`SELECT ${cols} FROM capabilities c WHERE org = ?1 AND project = ?2 AND named = 1 AND record_type = 'capability' ORDER BY namespace, action`),
    changed: db.query(`SELECT ${cols} FROM capabilities c WHERE seq > ?1 ORDER BY seq LIMIT ?2`),
    searchable: db.query(
      "SELECT id, record_type, org, project, namespace, action, named, visibility, intent, description, tools_used, parameters_schema, seq FROM capabilities WHERE seq > ?1 ORDER BY seq",
    ),
    versions: db.query("SELECT * FROM capability_versions WHERE capability_id = ?1"),
    aliasesOf: db.query("SELECT namespace, action FROM capability_aliases WHERE capability_id = ?1 ORDER BY created_at"),
    usage: db.query(
      `INSERT INTO tool_usage (tool_id, server_id, second, calls, successes, latency_ms_total, last_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (tool_id, server_id, second) DO UPDATE SET calls = calls + excluded.calls, successes = successes + excluded.successes,
           latency_ms_total = latency_ms_total + excluded.latency_ms_total, last_at = max(last_at, excluded.last_at)`,
    ),
  };
}

/** One open memory.db. */
export interface StoreDb {
  readonly db: Database;
  readonly q: ReturnType<typeof prepareStatements>;
  /** Absent when this SQLite lacks FTS5's trigram tokenizer (migration 6). */
  readonly textIndex: boolean;
}

/** The change counter's next value: every change to a record takes one. */
export function nextSeq(s: StoreDb): number {
  return (s.q.nextSeq.get() as { s: number }).s;
}

/** The record holding `name` as its name or as an alias. */
export function takenBy(s: StoreDb, scope: Scope, name: CapName): { id: string; code_hash: string } | undefined {
  const own = s.q.byName.get(scope.org, scope.project, name.namespace, name.action) as Row | null;
  if (own) return { id: own.id as string, code_hash: own.code_hash as string };
  const alias = s.q.byAlias.get(scope.org, scope.project, name.namespace, name.action) as Row | null;
  return alias ? { id: alias.id as string, code_hash: alias.code_hash as string } : undefined;
}
