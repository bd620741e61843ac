// The store's writes of capability records: saving a run, renaming (the old name becomes an alias),
// forking, tagging. Each runs in an IMMEDIATE transaction (sqlite-store.ts says why).
import { formatName, makeFqdn, type CapName } from "./names.ts";
import { toCapability, type Row } from "./sqlite-rows.ts";
import { nextSeq, recordRun, takenBy, type StoreDb } from "./sqlite-statements.ts";
import { NameTakenError, NotFoundError, type Capability, type CaptureInput, type CaptureOutcome, type Deprecation, type Scope } from "./store.ts";

export function captureRecord(s: StoreDb, input: CaptureInput): CaptureOutcome {
  return s.db
    .transaction((): CaptureOutcome => {
      const { scope } = input;
      const now = new Date().toISOString();
      const existing = s.q.byHash.get(scope.owner, input.code_hash) as Row | null;
      if (input.name) {
        const holder = takenBy(s, scope, input.name);
        if (holder && holder.code_hash !== input.code_hash) return { kind: "taken", name: formatName(input.name) };
      }
      return existing ? reuseRecord(s, toCapability(existing), input, now) : insertRecord(s, input, now);
    })
    .immediate();
}

/** The same code ran again: its usage is bumped, and a name or words it lacked are filled in. */
function reuseRecord(s: StoreDb, cap: Capability, input: CaptureInput, now: string): CaptureOutcome {
  recordRun(s, cap.id, true, input.latency_ms, now, input.returned);
  let named = false;
  // The code ran before without a name: this run names it.
  if (input.name && !cap.named) {
    setName(s, cap, input.name, input.by, now);
    named = true;
  }
  const patch: Row = {};
  if (input.intent && !cap.intent) patch.intent = input.intent;
  if (input.description && !cap.description) patch.description = input.description;
  if (Object.keys(patch).length || named) touch(s, cap.id, patch, input.by, now);
  return { kind: "reused", capability: toCapability(s.q.byId.get(cap.id) as Row), named };
}

function insertRecord(s: StoreDb, input: CaptureInput, now: string): CaptureOutcome {
  const { scope } = input;
  const id = crypto.randomUUID();
  const name = input.name ?? { namespace: "unnamed", action: `unnamed_${input.code_hash.slice(0, 8)}` };
  const seq = nextSeq(s);
  const schema = JSON.stringify(input.parameters_schema);
  s.db.run(
    `INSERT INTO capabilities (id, org, project, namespace, action, named, fqdn, description, intent, code, code_hash,
             parameters_schema, default_args, tools_used, routing, routing_explicit, visibility, created_by, created_at,
             updated_by, updated_at, usage_count, success_count, total_latency_ms, seq, last_used_at, version_tag, owner, last_success_at, returns)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?18, ?19, ?23, ?23, ?20, ?21, ?19, ?22, ?24,
             CASE WHEN ?23 = 1 THEN ?19 END, ?25)`,
    [
      id,
      scope.org,
      scope.project,
      name.namespace,
      name.action,
      input.name ? 1 : 0,
      makeFqdn(scope.org, scope.project, name, input.code_hash),
      input.description ?? "",
      input.intent ?? "",
      input.code,
      input.code_hash,
      schema,
      JSON.stringify(input.default_args),
      JSON.stringify(input.tools_used),
      input.routing,
      input.routing_explicit ? 1 : 0,
      input.visibility ?? "private",
      input.by,
      now,
      input.latency_ms,
      seq,
      input.version_tag ?? "1.0.0",
      input.ran === false ? 0 : 1,
      scope.owner,
      (input.ran !== false && input.returned) || "",
    ],
  );
  s.db.run(
    `INSERT INTO capability_versions (id, capability_id, version_tag, code, code_hash, parameters_schema, change_summary, created_by, created_at)
           VALUES (?1, ?2, ?8, ?3, ?4, ?5, 'first version', ?6, ?7)`,
    [crypto.randomUUID(), id, input.code, input.code_hash, schema, input.by, now, input.version_tag ?? "1.0.0"],
  );
  for (const tag of new Set(input.tags ?? [])) s.db.run("INSERT INTO capability_tags (capability_id, tag) VALUES (?1, ?2)", [id, tag]);
  return { kind: "created", capability: toCapability(s.q.byId.get(id) as Row) };
}

export function renameRecord(s: StoreDb, scope: Scope, from: CapName, to: CapName, by: string): { capability: Capability; old: string } {
  return s.db
    .transaction(() => {
      const found = s.q.byName.get(scope.owner, from.namespace, from.action) as Row | null;
      if (!found) {
        const alias = s.q.byAlias.get(scope.owner, from.namespace, from.action) as Row | null;
        if (alias) throw new NotFoundError(`${formatName(from)} (it is an old name of ${alias.namespace}:${alias.action}; rename that)`);
        throw new NotFoundError(formatName(from));
      }
      const cap = toCapability(found);
      const holder = takenBy(s, scope, to);
      if (holder && holder.id !== cap.id) throw new NameTakenError(formatName(to));
      const now = new Date().toISOString();
      // The old name becomes an alias; every alias points at the record's id, so older aliases
      // follow the new name without a chain. A name coming back drops its alias.
      if (cap.named)
        s.db.run("INSERT OR REPLACE INTO capability_aliases (owner, org, project, namespace, action, capability_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", [
          scope.owner,
          cap.org,
          cap.project,
          from.namespace,
          from.action,
          cap.id,
          now,
        ]);
      s.db.run("DELETE FROM capability_aliases WHERE owner = ?1 AND namespace = ?2 AND action = ?3", [scope.owner, to.namespace, to.action]);
      setName(s, cap, to, by, now);
      return { capability: toCapability(s.q.byId.get(cap.id) as Row), old: formatName(from) };
    })
    .immediate();
}

export function tagRecord(s: StoreDb, id: string, add: readonly string[], remove: readonly string[], by: string): Capability {
  return s.db
    .transaction(() => {
      if (!s.q.byId.get(id)) throw new NotFoundError(id);
      for (const t of add) s.db.run("INSERT OR IGNORE INTO capability_tags (capability_id, tag) VALUES (?1, ?2)", [id, t]);
      for (const t of remove) s.db.run("DELETE FROM capability_tags WHERE capability_id = ?1 AND tag = ?2", [id, t]);
      touch(s, id, {}, by, new Date().toISOString());
      return toCapability(s.q.byId.get(id) as Row);
    })
    .immediate();
}

export function pinRecord(s: StoreDb, id: string, pinned: boolean, by: string): Capability {
  return s.db
    .transaction(() => {
      if (!s.q.byId.get(id)) throw new NotFoundError(id);
      touch(s, id, { pinned: pinned ? 1 : 0 }, by, new Date().toISOString());
      return toCapability(s.q.byId.get(id) as Row);
    })
    .immediate();
}

export function deprecateRecord(s: StoreDb, id: string, deprecation: Deprecation | null, by: string): Capability {
  return s.db
    .transaction(() => {
      if (!s.q.byId.get(id)) throw new NotFoundError(id);
      touch(s, id, { deprecated: deprecation ? JSON.stringify(deprecation) : null }, by, new Date().toISOString());
      return toCapability(s.q.byId.get(id) as Row);
    })
    .immediate();
}

export function forkRecord(s: StoreDb, scope: Scope, id: string, to: CapName, by: string): Capability {
  return s.db
    .transaction(() => {
      const src = s.q.byId.get(id) as Row | null;
      if (!src) throw new NotFoundError(id);
      if (takenBy(s, scope, to)) throw new NameTakenError(formatName(to));
      const c = toCapability(src);
      const newId = crypto.randomUUID();
      const now = new Date().toISOString();
      const schema = JSON.stringify(c.parameters_schema);
      s.db.run(
        `INSERT INTO capabilities (id, org, project, namespace, action, named, fqdn, description, intent, code, code_hash,
             parameters_schema, default_args, tools_used, routing, routing_explicit, visibility, created_by, created_at,
             updated_by, updated_at, seq, forked_from, owner)
           VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, 'private', ?16, ?17, ?16, ?17, ?18, ?19, ?20)`,
        [
          newId,
          scope.org,
          scope.project,
          to.namespace,
          to.action,
          makeFqdn(scope.org, scope.project, to, c.code_hash),
          c.description,
          c.intent,
          c.code,
          c.code_hash,
          schema,
          JSON.stringify(c.default_args),
          JSON.stringify(c.tools_used),
          c.routing,
          c.routing_explicit ? 1 : 0,
          by,
          now,
          nextSeq(s),
          c.id,
          scope.owner,
        ],
      );
      s.db.run(
        `INSERT INTO capability_versions (id, capability_id, version_tag, code, code_hash, parameters_schema, change_summary, created_by, created_at)
           VALUES (?1, ?2, '1.0.0', ?3, ?4, ?5, ?6, ?7, ?8)`,
        [crypto.randomUUID(), newId, c.code, c.code_hash, schema, `forked from ${c.display_name}@${c.version_tag} (${c.fqdn})`, by, now],
      );
      for (const t of c.tags) s.db.run("INSERT INTO capability_tags (capability_id, tag) VALUES (?1, ?2)", [newId, t]);
      return toCapability(s.q.byId.get(newId) as Row);
    })
    .immediate();
}

function setName(s: StoreDb, cap: Capability, to: CapName, by: string, now: string): void {
  s.db.run("UPDATE capabilities SET namespace = ?2, action = ?3, named = 1, fqdn = ?4, updated_by = ?5, updated_at = ?6, seq = ?7 WHERE id = ?1", [
    cap.id,
    to.namespace,
    to.action,
    makeFqdn(cap.org, cap.project, to, cap.code_hash),
    by,
    now,
    nextSeq(s),
  ]);
}

function touch(s: StoreDb, id: string, patch: Row, by: string, now: string): void {
  const keys = Object.keys(patch);
  const set = keys.map((k, i) => `${k} = ?${i + 5}`).join(", ");
  s.db.run(`UPDATE capabilities SET updated_by = ?2, updated_at = ?3, seq = ?4${set ? `, ${set}` : ""} WHERE id = ?1`, [
    id,
    by,
    now,
    nextSeq(s),
    ...(keys.map((k) => patch[k]) as string[]),
  ]);
}
