// The capability store on the user's machine: one bun:sqlite file ($PML_HOME/memory.db) shared by
// every pml process of the user (two Claude Code windows). WAL lets readers run beside a writer;
// writers queue on the file lock for up to busy_timeout; every read-modify-write runs in an
// IMMEDIATE transaction, so two processes saving the same code make one record, not two.
import { Database, type Statement } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { migrate } from "./migrations.ts";
import { formatName, makeFqdn, type CapName } from "./names.ts";

const SORTS = { name: "c.namespace, c.action", usage: "c.usage_count DESC, c.namespace, c.action", created: "c.created_at DESC, c.id" } as const;
import {
  NameTakenError,
  NotFoundError,
  type Capability,
  type CapabilityStore,
  type CaptureInput,
  type CaptureOutcome,
  type Resolution,
  type Scope,
  type SearchRecord,
  type ToolUsage,
  type NewVersion,
  type Version,
  type CapabilityQuery,
  type UsageStat,
} from "./store.ts";
import { BUSY_TIMEOUT_MS, whileBusy } from "../sqlite-busy.ts";

interface Row {
  [k: string]: unknown;
}

export class SqliteCapabilityStore implements CapabilityStore {
  readonly db: Database;
  private readonly q: Record<string, Statement>;
  private readonly textIndex: boolean;

  constructor(readonly path: string) {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path, { create: true, strict: true });
    // busy_timeout first: switching to WAL itself needs the lock another process may hold.
    this.db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Two pml processes opening a new memory.db together: the switch to WAL and the first
    // migration can get SQLITE_BUSY at once (SQLite skips the busy handler where waiting could
    // deadlock), so those steps are retried for a while instead of losing the run's capture.
    whileBusy(() => this.db.run("PRAGMA journal_mode = WAL"));
    this.db.run("PRAGMA synchronous = NORMAL");
    this.db.run("PRAGMA foreign_keys = ON");
    whileBusy(() => migrate(this.db));
    // Absent when this SQLite lacks FTS5's trigram tokenizer (migration 6).
    this.textIndex = this.db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'capability_text'").get() !== null;
    const cols = "c.*, (SELECT json_group_array(tag) FROM capability_tags t WHERE t.capability_id = c.id) AS tags";
    this.q = {
      byName: this.db.query(`SELECT ${cols} FROM capabilities c WHERE org = ?1 AND project = ?2 AND namespace = ?3 AND action = ?4`),
      byAlias: this.db.query(
        `SELECT ${cols} FROM capability_aliases a JOIN capabilities c ON c.id = a.capability_id WHERE a.org = ?1 AND a.project = ?2 AND a.namespace = ?3 AND a.action = ?4`,
      ),
      byId: this.db.query(`SELECT ${cols} FROM capabilities c WHERE id = ?1`),
      byFqdn: this.db.query(`SELECT ${cols} FROM capabilities c WHERE fqdn = ?1`),
      byHash: this.db.query(`SELECT ${cols} FROM capabilities c WHERE org = ?1 AND project = ?2 AND code_hash = ?3 AND record_type = 'capability' ORDER BY named DESC, created_at LIMIT 1`),
      aliasTarget: this.db.query("SELECT capability_id FROM capability_aliases WHERE org = ?1 AND project = ?2 AND namespace = ?3 AND action = ?4"),
      nextSeq: this.db.query("SELECT COALESCE(MAX(seq), 0) + 1 AS s FROM capabilities"),
      run: this.db.query(
        `UPDATE capabilities SET usage_count = usage_count + 1, success_count = success_count + ?2, total_latency_ms = total_latency_ms + ?3, last_used_at = ?4 WHERE id = ?1`,
      ),
      listNamed: this.db.query(`SELECT ${cols} FROM capabilities c WHERE org = ?1 AND project = ?2 AND named = 1 AND record_type = 'capability' ORDER BY namespace, action`),
      changed: this.db.query(`SELECT ${cols} FROM capabilities c WHERE seq > ?1 ORDER BY seq LIMIT ?2`),
      searchable: this.db.query(
        "SELECT id, record_type, org, project, namespace, action, named, visibility, intent, description, tools_used, parameters_schema, seq FROM capabilities WHERE seq > ?1 ORDER BY seq",
      ),
      versions: this.db.query("SELECT * FROM capability_versions WHERE capability_id = ?1"),
      aliasesOf: this.db.query("SELECT namespace, action FROM capability_aliases WHERE capability_id = ?1 ORDER BY created_at"),
      usage: this.db.query(
        `INSERT INTO tool_usage (tool_id, server_id, second, calls, successes, latency_ms_total, last_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (tool_id, server_id, second) DO UPDATE SET calls = calls + excluded.calls, successes = successes + excluded.successes,
           latency_ms_total = latency_ms_total + excluded.latency_ms_total, last_at = max(last_at, excluded.last_at)`,
      ),
    };
  }

  async resolve(scope: Scope, name: CapName): Promise<Resolution | undefined> {
    const row = this.q.byName!.get(scope.org, scope.project, name.namespace, name.action) as Row | null;
    if (row) return { capability: toCapability(row) };
    const aliased = this.q.byAlias!.get(scope.org, scope.project, name.namespace, name.action) as Row | null;
    return aliased ? { capability: toCapability(aliased), alias: formatName(name) } : undefined;
  }

  async byId(id: string) {
    const row = this.q.byId!.get(id) as Row | null;
    return row ? toCapability(row) : undefined;
  }

  async byFqdn(fqdn: string) {
    const row = this.q.byFqdn!.get(fqdn) as Row | null;
    return row ? toCapability(row) : undefined;
  }

  async byCodeHash(scope: Scope, hash: string) {
    const row = this.q.byHash!.get(scope.org, scope.project, hash) as Row | null;
    return row ? toCapability(row) : undefined;
  }

  async nameTakenByOther(scope: Scope, name: CapName, codeHash: string): Promise<boolean> {
    const holder = this.takenBy(scope, name);
    return holder !== undefined && holder.code_hash !== codeHash;
  }

  /** The record holding `name` as its name or as an alias. */
  private takenBy(scope: Scope, name: CapName): { id: string; code_hash: string } | undefined {
    const own = this.q.byName!.get(scope.org, scope.project, name.namespace, name.action) as Row | null;
    if (own) return { id: own.id as string, code_hash: own.code_hash as string };
    const alias = this.q.byAlias!.get(scope.org, scope.project, name.namespace, name.action) as Row | null;
    return alias ? { id: alias.id as string, code_hash: alias.code_hash as string } : undefined;
  }

  async capture(input: CaptureInput): Promise<CaptureOutcome> {
    return this.db
      .transaction((): CaptureOutcome => {
        const { scope } = input;
        const now = new Date().toISOString();
        const existing = this.q.byHash!.get(scope.org, scope.project, input.code_hash) as Row | null;
        if (input.name) {
          const holder = this.takenBy(scope, input.name);
          if (holder && holder.code_hash !== input.code_hash) return { kind: "taken", name: formatName(input.name) };
        }
        if (existing) {
          const cap = toCapability(existing);
          this.q.run!.run(cap.id, 1, input.latency_ms, now);
          let named = false;
          // The code ran before without a name: this run names it.
          if (input.name && !cap.named) {
            this.setName(cap, input.name, input.by, now);
            named = true;
          }
          const patch: Row = {};
          if (input.intent && !cap.intent) patch.intent = input.intent;
          if (input.description && !cap.description) patch.description = input.description;
          if (Object.keys(patch).length || named) this.touch(cap.id, patch, input.by, now);
          return { kind: "reused", capability: toCapability(this.q.byId!.get(cap.id) as Row), named };
        }
        const id = crypto.randomUUID();
        const name = input.name ?? { namespace: "unnamed", action: `unnamed_${input.code_hash.slice(0, 8)}` };
        const seq = (this.q.nextSeq!.get() as { s: number }).s;
        const schema = JSON.stringify(input.parameters_schema);
        this.db.run(
          `INSERT INTO capabilities (id, org, project, namespace, action, named, fqdn, description, intent, code, code_hash,
             parameters_schema, default_args, tools_used, routing, routing_explicit, visibility, created_by, created_at,
             updated_by, updated_at, usage_count, success_count, total_latency_ms, seq, last_used_at, version_tag)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?18, ?19, ?23, ?23, ?20, ?21, ?19, ?22)`,
          [
            id, scope.org, scope.project, name.namespace, name.action, input.name ? 1 : 0,
            makeFqdn(scope.org, scope.project, name, input.code_hash), input.description ?? "", input.intent ?? "",
            input.code, input.code_hash, schema, JSON.stringify(input.default_args), JSON.stringify(input.tools_used),
            input.routing, input.routing_explicit ? 1 : 0, input.visibility ?? "private", input.by, now, input.latency_ms, seq, input.version_tag ?? "1.0.0",
            input.ran === false ? 0 : 1,
          ],
        );
        this.db.run(
          `INSERT INTO capability_versions (id, capability_id, version_tag, code, code_hash, parameters_schema, change_summary, created_by, created_at)
           VALUES (?1, ?2, ?8, ?3, ?4, ?5, 'first version', ?6, ?7)`,
          [crypto.randomUUID(), id, input.code, input.code_hash, schema, input.by, now, input.version_tag ?? "1.0.0"],
        );
        for (const tag of new Set(input.tags ?? [])) this.db.run("INSERT INTO capability_tags (capability_id, tag) VALUES (?1, ?2)", [id, tag]);
        return { kind: "created", capability: toCapability(this.q.byId!.get(id) as Row) };
      })
      .immediate();
  }

  async recordRun(id: string, success: boolean, latencyMs: number): Promise<void> {
    this.q.run!.run(id, success ? 1 : 0, latencyMs, new Date().toISOString());
  }

  async listNamed(scope: Scope): Promise<Capability[]> {
    return (this.q.listNamed!.all(scope.org, scope.project) as Row[]).map(toCapability);
  }

  async changedSince(seq: number, limit = 1_000_000): Promise<Capability[]> {
    return (this.q.changed!.all(seq, limit) as Row[]).map(toCapability);
  }

  async searchableSince(seq: number): Promise<SearchRecord[]> {
    return (this.q.searchable!.all(seq) as Row[]).map((r) => ({
      id: r.id as string,
      record_type: r.record_type as SearchRecord["record_type"],
      org: r.org as string,
      project: r.project as string,
      namespace: r.namespace as string,
      action: r.action as string,
      display_name: formatName({ namespace: r.namespace as string, action: r.action as string }),
      named: r.named === 1,
      visibility: r.visibility as SearchRecord["visibility"],
      intent: r.intent as string,
      description: r.description as string,
      tools_used: JSON.parse(r.tools_used as string),
      parameters_schema: JSON.parse(r.parameters_schema as string),
      seq: r.seq as number,
    }));
  }

  async rename(scope: Scope, from: CapName, to: CapName, by: string) {
    return this.db
      .transaction(() => {
        const found = this.q.byName!.get(scope.org, scope.project, from.namespace, from.action) as Row | null;
        if (!found) {
          const alias = this.q.byAlias!.get(scope.org, scope.project, from.namespace, from.action) as Row | null;
          if (alias) throw new NotFoundError(`${formatName(from)} (it is an old name of ${alias.namespace}:${alias.action}; rename that)`);
          throw new NotFoundError(formatName(from));
        }
        const cap = toCapability(found);
        const holder = this.takenBy(scope, to);
        if (holder && holder.id !== cap.id) throw new NameTakenError(formatName(to));
        const now = new Date().toISOString();
        // The old name becomes an alias; every alias points at the record's id, so older aliases
        // follow the new name without a chain. A name coming back drops its alias.
        if (cap.named)
          this.db.run("INSERT OR REPLACE INTO capability_aliases (org, project, namespace, action, capability_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", [
            scope.org, scope.project, from.namespace, from.action, cap.id, now,
          ]);
        this.db.run("DELETE FROM capability_aliases WHERE org = ?1 AND project = ?2 AND namespace = ?3 AND action = ?4", [scope.org, scope.project, to.namespace, to.action]);
        this.setName(cap, to, by, now);
        return { capability: toCapability(this.q.byId!.get(cap.id) as Row), old: formatName(from) };
      })
      .immediate();
  }

  async namesInScope(scope: Scope): Promise<string[]> {
    const rows = this.db
      .query("SELECT namespace, action FROM capabilities WHERE org = ?1 AND project = ?2 UNION SELECT namespace, action FROM capability_aliases WHERE org = ?1 AND project = ?2")
      .all(scope.org, scope.project) as Array<{ namespace: string; action: string }>;
    return rows.map(formatName);
  }

  async aliasesOf(id: string): Promise<string[]> {
    return (this.q.aliasesOf!.all(id) as Array<{ namespace: string; action: string }>).map(formatName);
  }

  async versions(id: string): Promise<Version[]> {
    const rows = (this.q.versions!.all(id) as Row[]).map(
      (r): Version => ({
        id: r.id as string,
        capability_id: r.capability_id as string,
        version_tag: r.version_tag as string,
        code: r.code as string,
        code_hash: r.code_hash as string,
        parameters_schema: JSON.parse(r.parameters_schema as string),
        change_summary: r.change_summary as string,
        created_by: r.created_by as string,
        created_at: r.created_at as string,
      }),
    );
    return rows.sort((a, b) => Bun.semver.order(b.version_tag, a.version_tag));
  }

  async appendVersion(id: string, v: NewVersion): Promise<Capability> {
    return this.db
      .transaction(() => {
        const row = this.q.byId!.get(id) as Row | null;
        if (!row) throw new NotFoundError(id);
        const current = toCapability(row);
        const { version_tag, change_summary } = v.decide(current);
        const now = new Date().toISOString();
        const schema = JSON.stringify(v.parameters_schema);
        this.db.run(
          `INSERT INTO capability_versions (id, capability_id, version_tag, code, code_hash, parameters_schema, change_summary, created_by, created_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
          [crypto.randomUUID(), id, version_tag, v.code, v.code_hash, schema, change_summary, v.by, now],
        );
        const name = { namespace: current.namespace, action: current.action };
        this.db.run(
          `UPDATE capabilities SET code = ?2, code_hash = ?3, parameters_schema = ?4, tools_used = ?5, routing = ?6, version_tag = ?7,
             fqdn = ?8, description = ?9, intent = ?10, updated_by = ?11, updated_at = ?12, seq = ?13 WHERE id = ?1`,
          [
            id, v.code, v.code_hash, schema, JSON.stringify(v.tools_used), current.routing_explicit ? current.routing : (v.routing ?? current.routing), version_tag,
            makeFqdn(current.org, current.project, name, v.code_hash), v.description ?? current.description, v.intent ?? current.intent, v.by, now,
            (this.q.nextSeq!.get() as { s: number }).s,
          ],
        );
        return toCapability(this.q.byId!.get(id) as Row);
      })
      .immediate();
  }

  async query(q: CapabilityQuery): Promise<{ total: number; total_at_least?: boolean; items: Capability[] }> {
    const tags = [...new Set(q.tags ?? [])];
    // With tags, the rows of the rarest tag drive the query: each carries the scope, name and
    // creator (migration 5), so filters and the name order come from one index and capability
    // rows are read only for the page (and for filters only they hold).
    const driver = tags.length ? this.rarestTag(q.scope, tags) : undefined;
    const k = driver === undefined ? "c" : "t";
    const where = [`${k}.org = ?`, `${k}.project = ?`, `${k}.record_type = 'capability'`];
    const params: Array<string | number> = [q.scope.org, q.scope.project];
    let from = "capabilities c";
    let needsCapability = false;
    if (driver !== undefined) {
      from = "capability_tags t";
      where.unshift("t.tag = ?");
      params.unshift(driver);
      for (const tag of tags) {
        if (tag === driver) continue;
        where.push("EXISTS (SELECT 1 FROM capability_tags o WHERE o.capability_id = t.capability_id AND o.tag = ?)");
        params.push(tag);
      }
    }
    if (q.created_by) {
      where.push(`${k}.created_by GLOB ?`);
      params.push(q.created_by);
    }
    if (q.namespace) {
      where.push(`${k}.namespace = ?`);
      params.push(q.namespace);
    }
    const onCapability = (cond: string, ...values: Array<string | number>) => {
      needsCapability = true;
      where.push(cond);
      params.push(...values);
    };
    if (q.visibility) onCapability("c.visibility = ?", q.visibility);
    if (q.named_only) onCapability("c.named = 1");
    if (q.unnamed_only) onCapability("c.named = 0");
    if (q.min_usage) onCapability("c.usage_count >= ?", q.min_usage);
    const words = (q.text ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    for (const word of words) {
      const like = `%${word.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      onCapability("(lower(c.namespace || ':' || c.action) LIKE ? ESCAPE '\\' OR lower(c.description) LIKE ? ESCAPE '\\' OR lower(c.intent) LIKE ? ESCAPE '\\')", like, like, like);
    }
    // Words of 3+ characters are looked up in the trigram index (migration 6) first; the LIKEs
    // above then check only its candidates. Shorter words have no trigram: the LIKEs scan.
    const phrases = words.filter((w) => [...w].length >= 3).map((w) => `"${w.replaceAll('"', '""')}"`);
    const textMatch = phrases.length && this.textIndex ? "SELECT rowid FROM capability_text WHERE capability_text MATCH ?" : undefined;
    if (textMatch && driver === undefined) {
      from = `(${textMatch}) x CROSS JOIN capabilities c ON c.rowid = x.rowid`;
      params.unshift(phrases.join(" AND "));
    } else if (textMatch) onCapability(`c.rowid IN (${textMatch})`, phrases.join(" AND "));
    const sort = q.sort ?? "name";
    if (driver !== undefined && (needsCapability || sort !== "name")) from += " CROSS JOIN capabilities c ON c.id = t.capability_id";
    const order = driver !== undefined && sort === "name" ? "t.namespace, t.action" : SORTS[sort];
    const id = driver === undefined ? "c.id" : "t.capability_id";
    const cond = where.join(" AND ");
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const page =
      (driver === undefined && q.created_by && sort === "name" && !needsCapability && this.pageByCreators(q, limit, offset)) ||
      (this.db.query(`SELECT ${id} AS id FROM ${from} WHERE ${cond} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...params, limit, offset) as { id: string }[]);
    // Counting every match of a broad query costs as much as the query; past count_limit the
    // total is a lower bound, said as such.
    const cap = q.count_limit === undefined ? -1 : Math.max(q.count_limit, offset + page.length + 1);
    const counted = (this.db.query(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${cond} LIMIT ?)`).get(...params, cap) as { n: number }).n;
    const items = page.map((r) => toCapability(this.q.byId!.get(r.id) as Row));
    return cap >= 0 && counted >= cap ? { total: counted, total_at_least: true, items } : { total: counted, items };
  }

  /**
   * A page by creator glob in name order, merged from each matching creator's own run of the
   * creator index (already in name order): a few short index reads instead of sorting every
   * match (a quarter of 100k records matching `ali*`: ~4 ms). Undefined when too many creators
   * match for that to pay; the caller then sorts.
   */
  private pageByCreators(q: CapabilityQuery, limit: number, offset: number): { id: string }[] | undefined {
    const { org, project } = q.scope;
    // The distinct creators from the glob's literal prefix on, one index seek each (with the glob
    // in the WHERE, SQLite seeks to the prefix and scans every record of the creators before).
    const glob = q.created_by!;
    const prefix = glob.slice(0, glob.search(/[*?[]/) === -1 ? glob.length : glob.search(/[*?[]/));
    const first = this.db.query("SELECT created_by FROM capabilities WHERE org = ?1 AND project = ?2 AND created_by >= ?3 ORDER BY created_by LIMIT 1");
    const next = this.db.query("SELECT created_by FROM capabilities WHERE org = ?1 AND project = ?2 AND created_by > ?3 ORDER BY created_by LIMIT 1");
    const matches = this.db.query("SELECT ?1 GLOB ?2 AS m");
    const creators: string[] = [];
    let seen = 0;
    for (let r = first.get(org, project, prefix) as { created_by: string } | null; r?.created_by.startsWith(prefix); r = next.get(org, project, r.created_by) as { created_by: string } | null) {
      if (++seen > 64) return undefined;
      if ((matches.get(r.created_by, glob) as { m: number }).m) creators.push(r.created_by);
    }
    const run = this.db.query(
      `SELECT id, namespace, action FROM capabilities WHERE org = ?1 AND project = ?2 AND created_by = ?3 AND record_type = 'capability'${q.namespace ? " AND namespace = ?5" : ""} ORDER BY namespace, action LIMIT ?4`,
    );
    const rows: Array<{ id: string; namespace: string; action: string }> = [];
    for (const by of creators) rows.push(...(run.all(org, project, by, offset + limit, ...(q.namespace ? [q.namespace] : [])) as typeof rows));
    // Names are [a-z0-9_]: JavaScript's order is SQLite's BINARY order for them.
    rows.sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.action < b.action ? -1 : a.action > b.action ? 1 : 0));
    return rows.slice(offset, offset + limit);
  }

  /** The tag with the fewest records in the scope (read from the tag index's counts). */
  private rarestTag(scope: Scope, tags: string[]): string {
    if (tags.length === 1) return tags[0]!;
    const count = this.db.query("SELECT COUNT(*) AS n FROM capability_tags WHERE tag = ?1 AND org = ?2 AND project = ?3");
    let best = tags[0]!;
    let bestN = Infinity;
    for (const tag of tags) {
      const n = (count.get(tag, scope.org, scope.project) as { n: number }).n;
      if (n < bestN) [best, bestN] = [tag, n];
    }
    return best;
  }

  async tag(id: string, add: readonly string[], remove: readonly string[], by: string): Promise<Capability> {
    return this.db
      .transaction(() => {
        if (!this.q.byId!.get(id)) throw new NotFoundError(id);
        for (const t of add) this.db.run("INSERT OR IGNORE INTO capability_tags (capability_id, tag) VALUES (?1, ?2)", [id, t]);
        for (const t of remove) this.db.run("DELETE FROM capability_tags WHERE capability_id = ?1 AND tag = ?2", [id, t]);
        this.touch(id, {}, by, new Date().toISOString());
        return toCapability(this.q.byId!.get(id) as Row);
      })
      .immediate();
  }

  async fork(scope: Scope, id: string, to: CapName, by: string): Promise<Capability> {
    return this.db
      .transaction(() => {
        const src = this.q.byId!.get(id) as Row | null;
        if (!src) throw new NotFoundError(id);
        if (this.takenBy(scope, to)) throw new NameTakenError(formatName(to));
        const c = toCapability(src);
        const newId = crypto.randomUUID();
        const now = new Date().toISOString();
        const schema = JSON.stringify(c.parameters_schema);
        this.db.run(
          `INSERT INTO capabilities (id, org, project, namespace, action, named, fqdn, description, intent, code, code_hash,
             parameters_schema, default_args, tools_used, routing, routing_explicit, visibility, created_by, created_at,
             updated_by, updated_at, seq, forked_from)
           VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, 'private', ?16, ?17, ?16, ?17, ?18, ?19)`,
          [
            newId, scope.org, scope.project, to.namespace, to.action, makeFqdn(scope.org, scope.project, to, c.code_hash), c.description, c.intent, c.code, c.code_hash,
            schema, JSON.stringify(c.default_args), JSON.stringify(c.tools_used), c.routing, c.routing_explicit ? 1 : 0, by, now,
            (this.q.nextSeq!.get() as { s: number }).s, c.id,
          ],
        );
        this.db.run(
          `INSERT INTO capability_versions (id, capability_id, version_tag, code, code_hash, parameters_schema, change_summary, created_by, created_at)
           VALUES (?1, ?2, '1.0.0', ?3, ?4, ?5, ?6, ?7, ?8)`,
          [crypto.randomUUID(), newId, c.code, c.code_hash, schema, `forked from ${c.display_name}@${c.version_tag} (${c.fqdn})`, by, now],
        );
        for (const t of c.tags) this.db.run("INSERT INTO capability_tags (capability_id, tag) VALUES (?1, ?2)", [newId, t]);
        return toCapability(this.q.byId!.get(newId) as Row);
      })
      .immediate();
  }

  async usageStats(since?: string): Promise<UsageStat[]> {
    // Counted per second: `since` is exact to the second (a second it falls in counts whole).
    return this.db
      .query(
        `SELECT tool_id, server_id, SUM(calls) AS calls, SUM(successes) AS successes, SUM(latency_ms_total) / SUM(calls) AS avg_latency_ms, MAX(last_at) AS last_at
         FROM tool_usage WHERE last_at >= ?1 GROUP BY tool_id, server_id ORDER BY calls DESC, tool_id`,
      )
      .all(since ?? "") as UsageStat[];
  }

  async recordToolUsage(rows: readonly ToolUsage[]): Promise<void> {
    if (!rows.length) return;
    // A flush holds a burst of calls: one upsert per tool and second.
    const seconds = new Map<string, { tool_id: string; server_id: string; second: string; calls: number; successes: number; latency: number; last: string }>();
    for (const r of rows) {
      const second = r.at.slice(0, 19);
      const key = `${r.tool_id}\n${r.server_id}\n${second}`;
      const b = seconds.get(key);
      if (b === undefined) seconds.set(key, { tool_id: r.tool_id, server_id: r.server_id, second, calls: 1, successes: r.success ? 1 : 0, latency: r.latency_ms, last: r.at });
      else {
        b.calls++;
        if (r.success) b.successes++;
        b.latency += r.latency_ms;
        if (r.at > b.last) b.last = r.at;
      }
    }
    this.db.transaction(() => {
      for (const b of seconds.values()) this.q.usage!.run(b.tool_id, b.server_id, b.second, b.calls, b.successes, b.latency, b.last);
    })();
  }

  close(): void {
    this.db.close();
  }

  private setName(cap: Capability, to: CapName, by: string, now: string): void {
    this.db.run("UPDATE capabilities SET namespace = ?2, action = ?3, named = 1, fqdn = ?4, updated_by = ?5, updated_at = ?6, seq = ?7 WHERE id = ?1", [
      cap.id, to.namespace, to.action, makeFqdn(cap.org, cap.project, to, cap.code_hash), by, now, (this.q.nextSeq!.get() as { s: number }).s,
    ]);
  }

  private touch(id: string, patch: Row, by: string, now: string): void {
    const keys = Object.keys(patch);
    const set = keys.map((k, i) => `${k} = ?${i + 5}`).join(", ");
    this.db.run(`UPDATE capabilities SET updated_by = ?2, updated_at = ?3, seq = ?4${set ? `, ${set}` : ""} WHERE id = ?1`, [
      id, by, now, (this.q.nextSeq!.get() as { s: number }).s, ...(keys.map((k) => patch[k]) as string[]),
    ]);
  }
}

function toCapability(r: Row): Capability {
  return {
    id: r.id as string,
    record_type: r.record_type as Capability["record_type"],
    org: r.org as string,
    project: r.project as string,
    namespace: r.namespace as string,
    action: r.action as string,
    display_name: formatName({ namespace: r.namespace as string, action: r.action as string }),
    named: r.named === 1,
    fqdn: r.fqdn as string,
    description: r.description as string,
    intent: r.intent as string,
    code: r.code as string,
    code_hash: r.code_hash as string,
    parameters_schema: JSON.parse(r.parameters_schema as string),
    default_args: JSON.parse(r.default_args as string),
    tools_used: JSON.parse(r.tools_used as string),
    routing: r.routing as Capability["routing"],
    routing_explicit: r.routing_explicit === 1,
    tags: r.tags ? (JSON.parse(r.tags as string) as string[]) : [],
    visibility: r.visibility as Capability["visibility"],
    version_tag: r.version_tag as string,
    created_by: r.created_by as string,
    created_at: r.created_at as string,
    updated_by: r.updated_by as string,
    updated_at: r.updated_at as string,
    usage_count: r.usage_count as number,
    success_count: r.success_count as number,
    total_latency_ms: r.total_latency_ms as number,
    verified: r.verified === 1,
    signature: (r.signature as string | null) ?? null,
    last_used_at: (r.last_used_at as string | null) ?? null,
    forked_from: (r.forked_from as string | null) ?? null,
    seq: r.seq as number,
  };
}
