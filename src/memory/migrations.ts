// The memory database's schema, as numbered steps. A step is never edited once released: a
// change is a new step, so a database made by any earlier pml upgrades in place and loses nothing
// (test/memory/migration.test.ts opens a database made by step 1 alone).
import type { Database } from "bun:sqlite";
import { UserError } from "../errors.ts";
import { ownerStep } from "./migration-owners.ts";

/** A step that may need what this SQLite lacks: when it fails with `unsupported`, it is recorded as
 * applied without its effect (its first statement must be the one that can fail). */
export interface OptionalStep {
  sql: string;
  unsupported: RegExp;
}

/** A step that rebuilds tables others reference: it runs with foreign keys off (SQLite's own
 * procedure for changing a table's constraints), and fails unless they all hold after it. */
export interface RebuildStep {
  rebuild(db: Database): void;
}

export const MIGRATIONS: ReadonlyArray<string | OptionalStep | RebuildStep> = [
  // 1: capabilities (the current state of each record), their append-only versions, tags,
  // aliases left by renames, and every tool call (tool_usage).
  `
  CREATE TABLE capabilities (
    id TEXT PRIMARY KEY,
    record_type TEXT NOT NULL DEFAULT 'capability' CHECK (record_type IN ('capability', 'mcp-server')),
    org TEXT NOT NULL,
    project TEXT NOT NULL,
    namespace TEXT NOT NULL,
    action TEXT NOT NULL,
    named INTEGER NOT NULL,
    fqdn TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    intent TEXT NOT NULL DEFAULT '',
    code TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    parameters_schema TEXT NOT NULL DEFAULT '{"type":"object"}',
    default_args TEXT NOT NULL DEFAULT '{}',
    tools_used TEXT NOT NULL DEFAULT '[]',
    routing TEXT NOT NULL CHECK (routing IN ('local', 'cloud')),
    routing_explicit INTEGER NOT NULL DEFAULT 0,
    visibility TEXT NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'project', 'org', 'public')),
    version_tag TEXT NOT NULL DEFAULT '1.0.0',
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    usage_count INTEGER NOT NULL DEFAULT 0,
    success_count INTEGER NOT NULL DEFAULT 0,
    total_latency_ms REAL NOT NULL DEFAULT 0,
    verified INTEGER NOT NULL DEFAULT 0,
    signature TEXT,
    seq INTEGER NOT NULL,
    UNIQUE (org, project, namespace, action)
  );
  CREATE INDEX capabilities_code ON capabilities (org, project, code_hash);
  CREATE INDEX capabilities_fqdn ON capabilities (fqdn);
  CREATE INDEX capabilities_seq ON capabilities (seq);

  CREATE TABLE capability_versions (
    id TEXT PRIMARY KEY,
    capability_id TEXT NOT NULL REFERENCES capabilities (id),
    version_tag TEXT NOT NULL,
    code TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    parameters_schema TEXT NOT NULL,
    change_summary TEXT NOT NULL DEFAULT '',
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (capability_id, version_tag)
  );
  CREATE INDEX capability_versions_time ON capability_versions (capability_id, created_at);
  CREATE TRIGGER capability_versions_no_update BEFORE UPDATE ON capability_versions
    BEGIN SELECT RAISE(ABORT, 'capability versions are immutable'); END;
  CREATE TRIGGER capability_versions_no_delete BEFORE DELETE ON capability_versions
    BEGIN SELECT RAISE(ABORT, 'capability versions are immutable'); END;

  CREATE TABLE capability_tags (
    capability_id TEXT NOT NULL REFERENCES capabilities (id),
    tag TEXT NOT NULL,
    PRIMARY KEY (capability_id, tag)
  );
  CREATE INDEX capability_tags_tag ON capability_tags (tag);

  CREATE TABLE capability_aliases (
    org TEXT NOT NULL,
    project TEXT NOT NULL,
    namespace TEXT NOT NULL,
    action TEXT NOT NULL,
    capability_id TEXT NOT NULL REFERENCES capabilities (id),
    created_at TEXT NOT NULL,
    PRIMARY KEY (org, project, namespace, action)
  );
  CREATE INDEX capability_aliases_target ON capability_aliases (capability_id);

  CREATE TABLE tool_usage (
    id INTEGER PRIMARY KEY,
    tool_id TEXT NOT NULL,
    server_id TEXT NOT NULL,
    success INTEGER NOT NULL,
    latency_ms REAL NOT NULL,
    at TEXT NOT NULL
  );
  CREATE INDEX tool_usage_tool ON tool_usage (tool_id, at);
  `,
  // 2: when a capability was last called, and what a fork was copied from (dns:fork).
  `
  ALTER TABLE capabilities ADD COLUMN last_used_at TEXT;
  ALTER TABLE capabilities ADD COLUMN forked_from TEXT REFERENCES capabilities (id);
  `,
  // 3: dns:query filters by creator (a glob, prefix patterns use the index) and by namespace.
  `
  CREATE INDEX capabilities_creator ON capabilities (org, project, created_by);
  CREATE INDEX capabilities_ns ON capabilities (org, project, namespace, action);
  `,
  // 4: dns:query by creator answers from the index alone (count and the sort keys): at 20k
  // records with a quarter matching, 17 ms -> under 1 ms. created_by before record_type: with
  // record_type third, lookups by (org, project, record_type, code_hash) chose this index and
  // scanned the project on every capture.
  `
  DROP INDEX capabilities_creator;
  CREATE INDEX capabilities_creator ON capabilities (org, project, created_by, record_type, namespace, action);
  `,
  // 5: dns:query by tags answers from one index: each tag row carries what the query filters and
  // sorts on (scope, record type, name, creator), kept equal to its capability's by triggers, so
  // a tag query reads no capability row until the page is known. At 100k records joining each
  // tagged row to its capability cost ~3 µs a row (17 ms p95 for 1000 matches).
  `
  ALTER TABLE capability_tags ADD COLUMN org TEXT NOT NULL DEFAULT '';
  ALTER TABLE capability_tags ADD COLUMN project TEXT NOT NULL DEFAULT '';
  ALTER TABLE capability_tags ADD COLUMN record_type TEXT NOT NULL DEFAULT '';
  ALTER TABLE capability_tags ADD COLUMN namespace TEXT NOT NULL DEFAULT '';
  ALTER TABLE capability_tags ADD COLUMN action TEXT NOT NULL DEFAULT '';
  ALTER TABLE capability_tags ADD COLUMN created_by TEXT NOT NULL DEFAULT '';
  UPDATE capability_tags SET (org, project, record_type, namespace, action, created_by) =
    (SELECT c.org, c.project, c.record_type, c.namespace, c.action, c.created_by FROM capabilities c WHERE c.id = capability_tags.capability_id);
  DROP INDEX capability_tags_tag;
  CREATE INDEX capability_tags_query ON capability_tags (tag, org, project, record_type, namespace, action, created_by);
  CREATE TRIGGER capability_tags_copy AFTER INSERT ON capability_tags BEGIN
    UPDATE capability_tags SET (org, project, record_type, namespace, action, created_by) =
      (SELECT c.org, c.project, c.record_type, c.namespace, c.action, c.created_by FROM capabilities c WHERE c.id = NEW.capability_id)
    WHERE rowid = NEW.rowid;
  END;
  CREATE TRIGGER capability_tags_follow AFTER UPDATE OF org, project, record_type, namespace, action, created_by ON capabilities BEGIN
    UPDATE capability_tags SET org = NEW.org, project = NEW.project, record_type = NEW.record_type, namespace = NEW.namespace,
      action = NEW.action, created_by = NEW.created_by
    WHERE capability_id = NEW.id;
  END;
  `,
  // 6: dns:query {text} reads a trigram index of each record's name, description and intent
  // instead of testing every record with LIKE (100k records: ~0.4 s). FTS5 trigram phrases match
  // substrings, case-insensitively, as the LIKE did; the LIKE still checks the candidates, so the
  // answer is exactly the LIKE's. Keyed by the capability's rowid (pml never VACUUMs memory.db).
  // Optional: on macOS Bun uses Apple's SQLite, which may lack FTS5 or its trigram tokenizer
  // (SQLite < 3.34); text queries then scan with LIKE as before.
  {
    unsupported: /no such (module|tokenizer)/i,
    sql: `
  CREATE VIRTUAL TABLE capability_text USING fts5 (text, tokenize = 'trigram');
  INSERT INTO capability_text (rowid, text)
    SELECT rowid, namespace || ':' || action || char(10) || description || char(10) || intent FROM capabilities;
  CREATE TRIGGER capability_text_insert AFTER INSERT ON capabilities BEGIN
    INSERT INTO capability_text (rowid, text) VALUES (NEW.rowid, NEW.namespace || ':' || NEW.action || char(10) || NEW.description || char(10) || NEW.intent);
  END;
  CREATE TRIGGER capability_text_update AFTER UPDATE OF namespace, action, description, intent ON capabilities BEGIN
    DELETE FROM capability_text WHERE rowid = OLD.rowid;
    INSERT INTO capability_text (rowid, text) VALUES (NEW.rowid, NEW.namespace || ':' || NEW.action || char(10) || NEW.description || char(10) || NEW.intent);
  END;
  CREATE TRIGGER capability_text_delete AFTER DELETE ON capabilities BEGIN
    DELETE FROM capability_text WHERE rowid = OLD.rowid;
  END;
  `,
  },
  // 7: tool calls counted per tool and second, not a row per call. A busy proxy wrote thousands
  // of rows a second (the table grew without bound, and each row was ~2 µs of the call's CPU);
  // stats only ever read sums. Rows of earlier steps are folded in.
  `
  CREATE TABLE tool_usage_by_second (
    tool_id TEXT NOT NULL,
    server_id TEXT NOT NULL,
    second TEXT NOT NULL,
    calls INTEGER NOT NULL,
    successes INTEGER NOT NULL,
    latency_ms_total REAL NOT NULL,
    last_at TEXT NOT NULL,
    PRIMARY KEY (tool_id, server_id, second)
  ) WITHOUT ROWID;
  INSERT INTO tool_usage_by_second (tool_id, server_id, second, calls, successes, latency_ms_total, last_at)
    SELECT tool_id, server_id, substr(at, 1, 19), COUNT(*), SUM(success), SUM(latency_ms), MAX(at) FROM tool_usage GROUP BY tool_id, server_id, substr(at, 1, 19);
  DROP TABLE tool_usage;
  ALTER TABLE tool_usage_by_second RENAME TO tool_usage;
  `,
  // 8: a record belongs to an owner (a workspace's real path, or the user's scope), not to the
  // org/project a .pml.json names; names are unique per owner (migration-owners.ts).
  { rebuild: ownerStep },
  // 9: learning from use: the words (a `discover` query, a stated intent) that led to a
  // successful call of a capability or tool, per workspace owner (associations.ts).
  `
  CREATE TABLE discover_associations (
    owner TEXT NOT NULL,
    item_key TEXT NOT NULL,
    query TEXT NOT NULL,
    count REAL NOT NULL,
    last_at TEXT NOT NULL,
    PRIMARY KEY (owner, item_key, query)
  ) WITHOUT ROWID;
  `,
  // 10: the bounded tool list (memory.list_tools): a capability the user pinned (dns:pin) is listed
  // first, then the ones that last succeeded; last_used_at counts failures too, so success has its own.
  `
  ALTER TABLE capabilities ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE capabilities ADD COLUMN last_success_at TEXT;
  UPDATE capabilities SET last_success_at = last_used_at WHERE success_count > 0;
  `,
  // 11: each record's text vector for discover (word-vectors.ts), computed when it is saved and
  // kept, so no process re-embeds every record at start: the recipe that made it (model) and a
  // hash of the text it was made from (source), so a changed record or recipe is embedded again.
  `
  CREATE TABLE capability_vectors (
    capability_id TEXT PRIMARY KEY REFERENCES capabilities (id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    source TEXT NOT NULL,
    vector BLOB NOT NULL
  ) WITHOUT ROWID;
  `,
  // 12: a capability the user deprecated (dns:deprecate): kept and callable, left out of tools/list
  // unless pinned, ranked last by discover; JSON {at, by, reason?, replacement?}, NULL when not.
  `
  ALTER TABLE capabilities ADD COLUMN deprecated TEXT;
  `,
  // 13: the JSON kinds of the values a capability's successful runs returned ("number,string"), what
  // discover checks a request that asks for a count against; '' until one is seen.
  `
  ALTER TABLE capabilities ADD COLUMN returns TEXT NOT NULL DEFAULT '';
  `,
  // 14: what a failed call said (the last failure of its tool and second, bounded), so the page's
  // Activity shows the reason and not only how many calls failed; NULL when none of them failed.
  `
  ALTER TABLE tool_usage ADD COLUMN last_error TEXT;
  `,
  // 15: vectors an embeddings provider (memory.embeddings) made, per provider and model (`model`: the
  // api, endpoint and model name) and hash of the text (`source`), so no process asks for a text twice;
  // `dims` kept so vectors of two dimensions never meet (embeddings-cache.ts).
  `
  CREATE TABLE provider_vectors (
    model TEXT NOT NULL,
    source TEXT NOT NULL,
    dims INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, source)
  ) WITHOUT ROWID;
  `,
];

/** Brings `db` to the newest schema, one transaction per step; safe when several processes open
 * the same file at once (the step is re-checked inside the write lock). */
export function migrate(db: Database): number {
  db.run("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
  const current = () => (db.query("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations").get() as { v: number }).v;
  let version = current();
  if (version > MIGRATIONS.length) throw new UserError(`memory.db has schema version ${version}, newer than this pml understands (${MIGRATIONS.length}); update pml.`);
  while (version < MIGRATIONS.length) {
    const next = MIGRATIONS[version]!;
    const rebuild = typeof next === "object" && "rebuild" in next;
    // Foreign keys can only be switched outside a transaction.
    const keysWere = rebuild ? (db.query("PRAGMA foreign_keys").get() as { foreign_keys: number }).foreign_keys : 0;
    if (rebuild) db.run("PRAGMA foreign_keys = OFF");
    try {
      db.transaction(() => {
        version = current();
        if (version >= MIGRATIONS.length) return;
        runStep(db, MIGRATIONS[version]!);
        db.run("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", [version + 1, new Date().toISOString()]);
        version++;
      }).immediate();
    } finally {
      if (rebuild && keysWere) db.run("PRAGMA foreign_keys = ON");
    }
  }
  return version;
}

function runStep(db: Database, step: string | OptionalStep | RebuildStep): void {
  if (typeof step === "string") return void db.run(step);
  if ("rebuild" in step) {
    step.rebuild(db);
    const broken = db.query("PRAGMA foreign_key_check").all();
    if (broken.length) throw new Error(`memory.db migration left ${broken.length} broken references (${JSON.stringify(broken[0])}); nothing was changed`);
    return;
  }
  try {
    db.run(step.sql);
  } catch (e) {
    if (!step.unsupported.test((e as Error).message)) throw e;
  }
}
