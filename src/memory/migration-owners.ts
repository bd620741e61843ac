// memory.db step 8 (migrations.ts): a record belongs to an owner, a workspace's real path or the
// user's scope, instead of to the org/project a .pml.json names (any repository could name another
// project's and read or replace its capabilities). Names become unique per owner, which SQLite can
// only do by rebuilding the tables (its own procedure: new table, copy, drop, rename, with foreign
// keys off). Records from before get the owner `legacy:<org>/<project>` until a workspace of that
// old scope name adopts them (sqlite-adopt.ts). Never edited once released, like every step.
import type { Database } from "bun:sqlite";

/** Every column of capabilities before the step, in the order copied. */
const COLUMNS = `id, record_type, org, project, namespace, action, named, fqdn, description, intent, code, code_hash, parameters_schema,
    default_args, tools_used, routing, routing_explicit, visibility, version_tag, created_by, created_at, updated_by, updated_at,
    usage_count, success_count, total_latency_ms, verified, signature, seq, last_used_at, forked_from`;

// The rowid is copied too: the text index (step 6) is keyed by it.
const CAPABILITIES = `
  CREATE TABLE capabilities_owned (
    id TEXT PRIMARY KEY,
    record_type TEXT NOT NULL DEFAULT 'capability' CHECK (record_type IN ('capability', 'mcp-server')),
    owner TEXT NOT NULL,
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
    last_used_at TEXT,
    forked_from TEXT REFERENCES capabilities (id),
    UNIQUE (owner, namespace, action)
  );
  INSERT INTO capabilities_owned (rowid, owner, ${COLUMNS})
    SELECT rowid, 'legacy:' || org || '/' || project, ${COLUMNS} FROM capabilities;
  DROP TABLE capabilities;
  ALTER TABLE capabilities_owned RENAME TO capabilities;
  CREATE INDEX capabilities_code ON capabilities (owner, code_hash);
  CREATE INDEX capabilities_fqdn ON capabilities (fqdn);
  CREATE INDEX capabilities_seq ON capabilities (seq);
  CREATE INDEX capabilities_creator ON capabilities (owner, created_by, record_type, namespace, action);
`;

const ALIASES = `
  CREATE TABLE capability_aliases_owned (
    owner TEXT NOT NULL,
    org TEXT NOT NULL,
    project TEXT NOT NULL,
    namespace TEXT NOT NULL,
    action TEXT NOT NULL,
    capability_id TEXT NOT NULL REFERENCES capabilities (id),
    created_at TEXT NOT NULL,
    PRIMARY KEY (owner, namespace, action)
  );
  INSERT INTO capability_aliases_owned (owner, org, project, namespace, action, capability_id, created_at)
    SELECT 'legacy:' || org || '/' || project, org, project, namespace, action, capability_id, created_at FROM capability_aliases;
  DROP TABLE capability_aliases;
  ALTER TABLE capability_aliases_owned RENAME TO capability_aliases;
  CREATE INDEX capability_aliases_target ON capability_aliases (capability_id);
`;

// Tag rows carry their capability's owner for dns:query's tag index (as step 5 made them carry
// org and project), kept equal by the triggers.
const TAGS = `
  ALTER TABLE capability_tags ADD COLUMN owner TEXT NOT NULL DEFAULT '';
  UPDATE capability_tags SET owner = (SELECT c.owner FROM capabilities c WHERE c.id = capability_tags.capability_id);
  DROP INDEX capability_tags_query;
  CREATE INDEX capability_tags_query ON capability_tags (tag, owner, record_type, namespace, action, created_by);
  CREATE TRIGGER capability_tags_copy AFTER INSERT ON capability_tags BEGIN
    UPDATE capability_tags SET (owner, org, project, record_type, namespace, action, created_by) =
      (SELECT c.owner, c.org, c.project, c.record_type, c.namespace, c.action, c.created_by FROM capabilities c WHERE c.id = NEW.capability_id)
    WHERE rowid = NEW.rowid;
  END;
  CREATE TRIGGER capability_tags_follow AFTER UPDATE OF owner, org, project, record_type, namespace, action, created_by ON capabilities BEGIN
    UPDATE capability_tags SET owner = NEW.owner, org = NEW.org, project = NEW.project, record_type = NEW.record_type,
      namespace = NEW.namespace, action = NEW.action, created_by = NEW.created_by
    WHERE capability_id = NEW.id;
  END;
`;

// Step 6's triggers went with the old table; its index keeps its rows.
const TEXT_TRIGGERS = `
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
`;

export function ownerStep(db: Database): void {
  const textIndex = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'capability_text'").get() !== null;
  // Its body names capabilities, which the rename checks: it must not exist while the table does not.
  db.run("DROP TRIGGER capability_tags_copy");
  db.run(CAPABILITIES);
  db.run(ALIASES);
  db.run(TAGS);
  if (textIndex) db.run(TEXT_TRIGGERS);
}
