// A capability's versions in the store: each immutable, the newest also the record's current state.
import { makeFqdn } from "./names.ts";
import { toCapability, toVersion, type Row } from "./sqlite-rows.ts";
import { nextSeq, type StoreDb } from "./sqlite-statements.ts";
import { NotFoundError, type Capability, type NewVersion, type Version } from "./store.ts";

/** Newest first. */
export function listVersions(s: StoreDb, id: string): Version[] {
  const rows = (s.q.versions.all(id) as Row[]).map(toVersion);
  return rows.sort((a, b) => Bun.semver.order(b.version_tag, a.version_tag));
}

export function appendVersion(s: StoreDb, id: string, v: NewVersion): Capability {
  return s.db
    .transaction(() => {
      const row = s.q.byId.get(id) as Row | null;
      if (!row) throw new NotFoundError(id);
      const current = toCapability(row);
      const { version_tag, change_summary } = v.decide(current);
      const now = new Date().toISOString();
      const schema = JSON.stringify(v.parameters_schema);
      s.db.run(
        `INSERT INTO capability_versions (id, capability_id, version_tag, code, code_hash, parameters_schema, change_summary, created_by, created_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
        [crypto.randomUUID(), id, version_tag, v.code, v.code_hash, schema, change_summary, v.by, now],
      );
      const name = { namespace: current.namespace, action: current.action };
      s.db.run(
        // What the old code returned says nothing of the new code (set from the old row's values).
        `UPDATE capabilities SET returns = CASE WHEN code_hash = ?3 THEN returns ELSE '' END, code = ?2, code_hash = ?3, parameters_schema = ?4, tools_used = ?5, routing = ?6, version_tag = ?7,
             fqdn = ?8, description = ?9, intent = ?10, updated_by = ?11, updated_at = ?12, seq = ?13 WHERE id = ?1`,
        [
          id,
          v.code,
          v.code_hash,
          schema,
          JSON.stringify(v.tools_used),
          current.routing_explicit ? current.routing : (v.routing ?? current.routing),
          version_tag,
          makeFqdn(current.org, current.project, name, v.code_hash),
          v.description ?? current.description,
          v.intent ?? current.intent,
          v.by,
          now,
          nextSeq(s),
        ],
      );
      return toCapability(s.q.byId.get(id) as Row);
    })
    .immediate();
}
