// The open memory.db as every part of the store uses it: the connection, the statements prepared
// once per connection, and the few reads the write paths share.
import type { Database } from "bun:sqlite";
import type { CapName } from "./names.ts";
import type { Row } from "./sqlite-rows.ts";
import { USER_OWNER, type AnswerKind, type Scope } from "./store.ts";

/**
 * Only what discover indexes (the parameters' names, not their schema), of the owners given (?2, a
 * JSON list), changed after ?1. `+owner`: by the change number's index, whatever the owners. By
 * an owner's index instead, SQLite read all of a workspace's records on every discover to find the
 * few changed (10k: 15 ms a discover).
 */
export const SEARCHABLE_SQL = `SELECT id, record_type, owner, namespace, action, named, intent, description, tools_used, deprecated, seq, returns,
    (SELECT json_group_array(key) FROM json_each(c.parameters_schema, '$.properties') WHERE json_type(c.parameters_schema, '$.properties') = 'object') AS params,
    v.model AS vector_model, v.source AS vector_source, v.vector AS vector
  FROM capabilities c LEFT JOIN capability_vectors v ON v.capability_id = c.id
  WHERE seq > ?1 AND +owner IN (SELECT value FROM json_each(?2)) ORDER BY seq`;

export function prepareStatements(db: Database) {
  const cols = "c.*, (SELECT json_group_array(tag) FROM capability_tags t WHERE t.capability_id = c.id) AS tags";
  return {
    byName: db.query(`SELECT ${cols} FROM capabilities c WHERE owner = ?1 AND namespace = ?2 AND action = ?3`),
    byAlias: db.query(`SELECT ${cols} FROM capability_aliases a JOIN capabilities c ON c.id = a.capability_id WHERE a.owner = ?1 AND a.namespace = ?2 AND a.action = ?3`),
    byId: db.query(`SELECT ${cols} FROM capabilities c WHERE id = ?1`),
    parametersOf: db.query("SELECT id, parameters_schema, default_args FROM capabilities WHERE id IN (SELECT value FROM json_each(?1))"),
    // The labels read a body's first characters only (code-evidence.ts CODE_CHARS).
    codeOf: db.query("SELECT id, substr(code, 1, ?2) AS code, parameters_schema, default_args FROM capabilities WHERE id IN (SELECT value FROM json_each(?1))"),
    byFqdn: db.query(`SELECT ${cols} FROM capabilities c WHERE fqdn = ?1 AND owner = ?2`),
    byHash: db.query(`SELECT ${cols} FROM capabilities c WHERE owner = ?1 AND code_hash = ?2 AND record_type = 'capability' ORDER BY named DESC, created_at LIMIT 1`),
    aliasTarget: db.query("SELECT capability_id FROM capability_aliases WHERE owner = ?1 AND namespace = ?2 AND action = ?3"),
    nextSeq: db.query("SELECT COALESCE(MAX(seq), 0) + 1 AS s FROM capabilities"),
    // One write per call: the counters, and a returned kind (?5) not seen before added, with the
    // record's seq bumped so discover's index reads it (rare: a capability returns one or two kinds).
    run: db.query(
      `UPDATE capabilities SET usage_count = usage_count + 1, success_count = success_count + ?2, total_latency_ms = total_latency_ms + ?3, last_used_at = ?4,
         last_success_at = CASE WHEN ?2 = 1 THEN ?4 ELSE last_success_at END,
         returns = CASE WHEN ?5 IS NULL OR instr(',' || returns || ',', ',' || ?5 || ',') > 0 THEN returns WHEN returns = '' THEN ?5 ELSE returns || ',' || ?5 END,
         seq = CASE WHEN ?5 IS NULL OR instr(',' || returns || ',', ',' || ?5 || ',') > 0 THEN seq ELSE (SELECT COALESCE(MAX(seq), 0) + 1 FROM capabilities) END
       WHERE id = ?1`,
    ),
    listNamed: db.query(`SELECT ${cols} FROM capabilities c WHERE owner = ?1 AND named = 1 AND record_type = 'capability' ORDER BY namespace, action`),
    anyOwned: db.query("SELECT 1 FROM capabilities WHERE owner = ?1 LIMIT 1"),
    changed: db.query(`SELECT ${cols} FROM capabilities c WHERE seq > ?1 ORDER BY seq LIMIT ?2`),
    searchable: db.query(SEARCHABLE_SQL),
    saveVector: db.query(
      "INSERT OR REPLACE INTO capability_vectors (capability_id, model, source, vector) SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM capabilities WHERE id = ?1)",
    ),
    versions: db.query("SELECT * FROM capability_versions WHERE capability_id = ?1"),
    aliasesOf: db.query("SELECT namespace, action FROM capability_aliases WHERE capability_id = ?1 ORDER BY created_at"),
    usage: db.query(
      `INSERT INTO tool_usage (tool_id, server_id, second, calls, successes, latency_ms_total, last_at, last_error) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (tool_id, server_id, second) DO UPDATE SET calls = calls + excluded.calls, successes = successes + excluded.successes,
           latency_ms_total = latency_ms_total + excluded.latency_ms_total, last_at = max(last_at, excluded.last_at),
           last_error = coalesce(excluded.last_error, last_error)`,
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

/** A run of a record ended: its counters, and the kind a successful one returned. */
export function recordRun(s: StoreDb, id: string, success: boolean, latencyMs: number, now: string, returned?: AnswerKind): void {
  s.q.run.run(id, success ? 1 : 0, latencyMs, now, success && returned ? returned : null);
}

/** The change counter's next value: every change to a record takes one. */
export function nextSeq(s: StoreDb): number {
  return (s.q.nextSeq.get() as { s: number }).s;
}

/** The record of the scope's own holding `name` as its name or as an alias. */
export function takenBy(s: StoreDb, scope: Scope, name: CapName): { id: string; code_hash: string } | undefined {
  const own = s.q.byName.get(scope.owner, name.namespace, name.action) as Row | null;
  if (own) return { id: own.id as string, code_hash: own.code_hash as string };
  const alias = s.q.byAlias.get(scope.owner, name.namespace, name.action) as Row | null;
  return alias ? { id: alias.id as string, code_hash: alias.code_hash as string } : undefined;
}

/** Whose records `scope` reads, its own first: a workspace also reads the user's scope (only
 * asked for when that holds anything, so a workspace's queries keep their one-owner index order). */
export function readableOwners(s: StoreDb, scope: Scope): string[] {
  if (scope.owner === USER_OWNER || !s.q.anyOwned.get(USER_OWNER)) return [scope.owner];
  return [scope.owner, USER_OWNER];
}
