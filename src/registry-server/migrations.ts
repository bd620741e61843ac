// The registry database's schema, as numbered steps that only ever get appended to. A database
// records the steps it has in `schema_migrations`; at start every replica runs the missing ones
// in one transaction, PostgreSQL under an advisory lock (replicas starting together migrate once,
// the others wait and find nothing left to do), SQLite under BEGIN IMMEDIATE.
// Types are the common subset of both: TEXT (JSON kept as text), INTEGER, BIGINT (epoch ms).
import { nowMs, type Db, type Dialect, type Query } from "./database.ts";

/** Taken by every writer of the change log until it commits (migration 3's trigger). */
const CHANGE_LOCK = 0x706d6c02;
/** PostgreSQL wakes the replicas' change feeds on this channel. */
export const CHANGE_CHANNEL = "pml_registry_changes";

interface Migration {
  version: number;
  what: string;
  statements: (d: Dialect) => string[];
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    what: "capabilities and their append-only versions",
    statements: () => [
      `CREATE TABLE capabilities (
        id TEXT PRIMARY KEY,
        fqdn TEXT NOT NULL,
        org TEXT NOT NULL,
        project TEXT NOT NULL,
        namespace TEXT NOT NULL,
        action TEXT NOT NULL,
        owner TEXT NOT NULL,
        visibility TEXT NOT NULL,
        latest_seq INTEGER NOT NULL,
        created_by TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_by TEXT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (fqdn, owner)
      )`,
      `CREATE TABLE capability_versions (
        capability_id TEXT NOT NULL REFERENCES capabilities (id),
        seq INTEGER NOT NULL,
        version_tag TEXT NOT NULL,
        code TEXT NOT NULL,
        code_hash TEXT NOT NULL,
        description TEXT,
        intent TEXT,
        parameters_schema TEXT,
        default_args TEXT,
        tools_used TEXT NOT NULL,
        routing TEXT,
        tags TEXT NOT NULL,
        change_summary TEXT,
        created_by TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (capability_id, seq)
      )`,
    ],
  },
  {
    version: 2,
    what: "text search, record types, version lookup by hash, immutable versions",
    statements: (d) => [
      `ALTER TABLE capabilities ADD COLUMN record_type TEXT NOT NULL DEFAULT 'capability'`,
      `ALTER TABLE capabilities ADD COLUMN search_text TEXT NOT NULL DEFAULT ''`,
      // Rows written by version 1 get their search text from their latest version.
      `UPDATE capabilities SET search_text = lower((
        SELECT capabilities.namespace || ' ' || replace(capabilities.action, '_', ' ') || ' ' || coalesce(v.description, '') || ' ' || coalesce(v.intent, '') || ' ' || v.tags || ' ' || v.tools_used
        FROM capability_versions v WHERE v.capability_id = capabilities.id AND v.seq = capabilities.latest_seq))`,
      `CREATE INDEX capability_versions_hash ON capability_versions (capability_id, code_hash)`,
      ...(d === "postgres"
        ? [
            // Stored, so ranking reads the vector instead of re-parsing the text of every match.
            `ALTER TABLE capabilities ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED`,
            `CREATE INDEX capabilities_search ON capabilities USING gin (search_tsv)`,
            `CREATE INDEX capabilities_order ON capabilities (fqdn COLLATE "C", owner COLLATE "C")`,
            `CREATE FUNCTION pml_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
               BEGIN RAISE EXCEPTION 'capability versions are append-only: a version cannot be changed or deleted'; END $$`,
            `CREATE TRIGGER capability_versions_immutable BEFORE UPDATE OR DELETE ON capability_versions
               FOR EACH ROW EXECUTE FUNCTION pml_versions_immutable()`,
          ]
        : [
            `CREATE TRIGGER capability_versions_no_update BEFORE UPDATE ON capability_versions
               BEGIN SELECT RAISE(ABORT, 'capability versions are append-only: a version cannot be changed or deleted'); END`,
            `CREATE TRIGGER capability_versions_no_delete BEFORE DELETE ON capability_versions
               BEGIN SELECT RAISE(ABORT, 'capability versions are append-only: a version cannot be changed or deleted'); END`,
          ]),
    ],
  },
  {
    version: 3,
    what: "a change log of capabilities, and the replicas that cache them (src/registry-server/change-feed.ts)",
    statements: (d) => [
      // Every insert, update or delete of a capability row appends its fqdn here, from a trigger, so
      // no write path (nor an operator's SQL) can change a capability without replicas hearing of
      // it. Sequence numbers become visible in order: PostgreSQL writers take one lock until commit,
      // SQLite writers are serialized by the file; AUTOINCREMENT never reuses a pruned number.
      d === "postgres"
        ? `CREATE TABLE registry_changes (seq BIGINT PRIMARY KEY, fqdn TEXT NOT NULL, changed_at BIGINT NOT NULL)`
        : `CREATE TABLE registry_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, fqdn TEXT NOT NULL, changed_at BIGINT NOT NULL)`,
      `CREATE TABLE registry_replicas (id TEXT PRIMARY KEY, seen_seq BIGINT NOT NULL, lease_until BIGINT NOT NULL)`,
      ...(d === "postgres"
        ? [
            `CREATE SEQUENCE registry_change_seq`,
            `CREATE FUNCTION pml_capability_changed() RETURNS trigger LANGUAGE plpgsql AS $$
               DECLARE at BIGINT := ${nowMs("postgres")};
               BEGIN
                 PERFORM pg_advisory_xact_lock(${CHANGE_LOCK});
                 IF TG_OP <> 'INSERT' THEN INSERT INTO registry_changes VALUES (nextval('registry_change_seq'), OLD.fqdn, at); END IF;
                 IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.fqdn <> OLD.fqdn) THEN INSERT INTO registry_changes VALUES (nextval('registry_change_seq'), NEW.fqdn, at); END IF;
                 PERFORM pg_notify('${CHANGE_CHANNEL}', '');
                 RETURN NULL;
               END $$`,
            `CREATE TRIGGER capabilities_changed AFTER INSERT OR UPDATE OR DELETE ON capabilities FOR EACH ROW EXECUTE FUNCTION pml_capability_changed()`,
          ]
        : [
            `CREATE TRIGGER capabilities_inserted AFTER INSERT ON capabilities
               BEGIN INSERT INTO registry_changes (fqdn, changed_at) VALUES (NEW.fqdn, ${nowMs("sqlite")}); END`,
            `CREATE TRIGGER capabilities_updated AFTER UPDATE ON capabilities
               BEGIN
                 INSERT INTO registry_changes (fqdn, changed_at) VALUES (OLD.fqdn, ${nowMs("sqlite")});
                 INSERT INTO registry_changes (fqdn, changed_at) SELECT NEW.fqdn, ${nowMs("sqlite")} WHERE NEW.fqdn <> OLD.fqdn;
               END`,
            `CREATE TRIGGER capabilities_deleted AFTER DELETE ON capabilities
               BEGIN INSERT INTO registry_changes (fqdn, changed_at) VALUES (OLD.fqdn, ${nowMs("sqlite")}); END`,
          ]),
    ],
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/** An arbitrary constant naming pml's migration lock among the database's advisory locks. */
const ADVISORY_LOCK = 0x706d6c01;

/** Brings the schema up to `target` (default: the newest); returns the versions applied. */
export async function migrate(db: Db, target = SCHEMA_VERSION): Promise<number[]> {
  return db.transaction(async (q: Query) => {
    if (db.dialect === "postgres") await q(`SELECT pg_advisory_xact_lock(${ADVISORY_LOCK})`);
    await q(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`);
    const [row] = await q(`SELECT coalesce(max(version), 0) AS v FROM schema_migrations`);
    const current = Number(row.v);
    if (current > SCHEMA_VERSION) throw new Error(`the database has schema version ${current}, newer than this pml knows (${SCHEMA_VERSION}): upgrade pml on this host`);
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (m.version <= current || m.version > target) continue;
      for (const stmt of m.statements(db.dialect)) await q(stmt);
      await q(`INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)`, [m.version, Date.now()]);
      applied.push(m.version);
    }
    return applied;
  });
}
