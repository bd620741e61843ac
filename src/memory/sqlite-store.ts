// The capability store on the user's machine: one bun:sqlite file ($PML_HOME/memory.db) shared by
// every pml process of the user (two Claude Code windows). WAL lets readers run beside a writer;
// writers queue on the file lock for up to busy_timeout; every read-modify-write runs in an
// IMMEDIATE transaction, so two processes saving the same code make one record, not two.
// The writes (sqlite-writes.ts), versions, queries and the tool_usage log have modules of their own.
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { migrate } from "./migrations.ts";
import { formatName, type CapName } from "./names.ts";
import { queryCapabilities } from "./sqlite-query.ts";
import { rowParameters, toCapability, toSearchRecord, type Row } from "./sqlite-rows.ts";
import { adoptLegacy } from "./sqlite-adopt.ts";
import { prepareStatements, readableOwners, recordRun, takenBy, type StoreDb } from "./sqlite-statements.ts";
import { learnAssociation, readAssociations } from "./sqlite-associations.ts";
import { recordToolUsage, usageLog, usageStats, writeUsage } from "./sqlite-tool-usage.ts";
import type { UsageBucket } from "./usage-buckets.ts";
import { appendVersion, listVersions } from "./sqlite-versions.ts";
import { captureRecord, deprecateRecord, forkRecord, pinRecord, renameRecord, tagRecord } from "./sqlite-writes.ts";
import { listedNamed } from "./sqlite-listing.ts";
import { readProviderVectors, writeProviderVectors } from "./sqlite-provider-vectors.ts";
import type {
  AnswerKind,
  Association,
  Capability,
  CapabilityStore,
  Deprecation,
  CaptureInput,
  CaptureOutcome,
  Resolution,
  Scope,
  SearchRecord,
  StoredVector,
  ToolUsage,
  NewVersion,
  Version,
  CapabilityQuery,
  UsageLogQuery,
  UsageRow,
  UsageStat,
  Learned,
} from "./store.ts";
import { BUSY_TIMEOUT_MS, whileBusy } from "../sqlite-busy.ts";

export class SqliteCapabilityStore implements CapabilityStore {
  readonly db: Database;
  private readonly s: StoreDb;
  /** Scopes (owner and old name) whose legacy records were looked for in this process. */
  private readonly adopted = new Set<string>();

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
    const textIndex = this.db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'capability_text'").get() !== null;
    this.s = { db: this.db, q: prepareStatements(this.db), textIndex };
  }

  /** The scope, once the records its old name left from before owners are its own (sqlite-adopt.ts). */
  private own(scope: Scope): Scope {
    const key = `${scope.owner}\n${scope.org}/${scope.project}`;
    if (!this.adopted.has(key)) {
      adoptLegacy(this.s, scope);
      this.adopted.add(key);
    }
    return scope;
  }

  async adopt(scope: Scope): Promise<void> {
    this.own(scope);
  }

  async resolve(scope: Scope, name: CapName): Promise<Resolution | undefined> {
    for (const owner of readableOwners(this.s, this.own(scope))) {
      const found = this.byNameOf(owner, name);
      if (found) return found;
    }
    return undefined;
  }

  async resolveOwn(scope: Scope, name: CapName): Promise<Resolution | undefined> {
    return this.byNameOf(this.own(scope).owner, name);
  }

  private byNameOf(owner: string, name: CapName): Resolution | undefined {
    const row = this.s.q.byName.get(owner, name.namespace, name.action) as Row | null;
    if (row) return { capability: toCapability(row) };
    const aliased = this.s.q.byAlias.get(owner, name.namespace, name.action) as Row | null;
    return aliased ? { capability: toCapability(aliased), alias: formatName(name) } : undefined;
  }

  async byId(id: string) {
    const row = this.s.q.byId.get(id) as Row | null;
    return row ? toCapability(row) : undefined;
  }

  async parametersOf(ids: readonly string[]) {
    const rows = ids.length ? (this.s.q.parametersOf.all(JSON.stringify(ids)) as Row[]) : [];
    return new Map(rows.map((r) => [r.id as string, rowParameters(r)]));
  }

  async codeOf(ids: readonly string[], chars: number) {
    const rows = ids.length ? (this.s.q.codeOf.all(JSON.stringify(ids), chars) as Row[]) : [];
    return new Map(rows.map((r) => [r.id as string, { code: String(r.code ?? ""), parameters: rowParameters(r) }]));
  }

  async byFqdn(scope: Scope, fqdn: string) {
    for (const owner of readableOwners(this.s, this.own(scope))) {
      const row = this.s.q.byFqdn.get(fqdn, owner) as Row | null;
      if (row) return toCapability(row);
    }
    return undefined;
  }

  async byCodeHash(scope: Scope, hash: string) {
    const row = this.s.q.byHash.get(this.own(scope).owner, hash) as Row | null;
    return row ? toCapability(row) : undefined;
  }

  async nameTakenByOther(scope: Scope, name: CapName, codeHash: string): Promise<boolean> {
    const holder = takenBy(this.s, this.own(scope), name);
    return holder !== undefined && holder.code_hash !== codeHash;
  }

  async capture(input: CaptureInput): Promise<CaptureOutcome> {
    this.own(input.scope);
    return captureRecord(this.s, input);
  }

  async recordRun(id: string, success: boolean, latencyMs: number, returned?: AnswerKind): Promise<void> {
    recordRun(this.s, id, success, latencyMs, new Date().toISOString(), returned);
  }

  async listNamed(scope: Scope): Promise<Capability[]> {
    const [own, ...others] = readableOwners(this.s, this.own(scope));
    const caps = (this.s.q.listNamed.all(own!) as Row[]).map(toCapability);
    if (!others.length) return caps;
    // The user's capabilities beside the workspace's, but not under a name the workspace holds.
    const held = new Set(caps.map((c) => c.display_name));
    for (const owner of others) for (const c of (this.s.q.listNamed.all(owner) as Row[]).map(toCapability)) if (!held.has(c.display_name)) caps.push(c);
    // By (namespace, action), as the statement orders each owner's.
    return caps.sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.action < b.action ? -1 : a.action > b.action ? 1 : 0));
  }

  async listedNamed(scope: Scope, limit?: number): Promise<{ items: Capability[]; total: number; deprecated: string[] }> {
    return listedNamed(this.s, readableOwners(this.s, this.own(scope)), limit);
  }

  async setPinned(id: string, pinned: boolean, by: string): Promise<Capability> {
    return pinRecord(this.s, id, pinned, by);
  }

  async setDeprecated(id: string, deprecation: Deprecation | null, by: string): Promise<Capability> {
    return deprecateRecord(this.s, id, deprecation, by);
  }

  async changedSince(seq: number, limit = 1_000_000): Promise<Capability[]> {
    return (this.s.q.changed.all(seq, limit) as Row[]).map(toCapability);
  }

  async searchableSince(seq: number, owners: readonly string[], each: (r: SearchRecord) => void): Promise<void> {
    for (const r of this.s.q.searchable.iterate(seq, JSON.stringify(owners)) as IterableIterator<Row>) each(toSearchRecord(r));
  }

  async saveVectors(rows: ReadonlyArray<{ id: string } & StoredVector>): Promise<void> {
    this.db
      .transaction(() => {
        for (const r of rows) this.s.q.saveVector.run(r.id, r.model, r.source, r.bytes);
      })
      .immediate();
  }

  async providerVectors(model: string, sources?: readonly string[]) {
    return readProviderVectors(this.db, model, sources);
  }

  async saveProviderVectors(model: string, dims: number, rows: ReadonlyArray<{ source: string; bytes: Uint8Array }>): Promise<void> {
    writeProviderVectors(this.db, model, dims, rows);
  }

  async rename(scope: Scope, from: CapName, to: CapName, by: string) {
    return renameRecord(this.s, this.own(scope), from, to, by);
  }

  async namesInScope(scope: Scope): Promise<string[]> {
    const rows = this.db
      .query("SELECT namespace, action FROM capabilities WHERE owner = ?1 UNION SELECT namespace, action FROM capability_aliases WHERE owner = ?1")
      .all(this.own(scope).owner) as Array<{ namespace: string; action: string }>;
    return rows.map(formatName);
  }

  async aliasesOf(id: string): Promise<string[]> {
    return (this.s.q.aliasesOf.all(id) as Array<{ namespace: string; action: string }>).map(formatName);
  }

  async versions(id: string): Promise<Version[]> {
    return listVersions(this.s, id);
  }

  async appendVersion(id: string, v: NewVersion): Promise<Capability> {
    return appendVersion(this.s, id, v);
  }

  async query(q: CapabilityQuery): Promise<{ total: number; total_at_least?: boolean; items: Capability[] }> {
    return queryCapabilities(this.s, q, readableOwners(this.s, this.own(q.scope)));
  }

  async tag(id: string, add: readonly string[], remove: readonly string[], by: string): Promise<Capability> {
    return tagRecord(this.s, id, add, remove, by);
  }

  async fork(scope: Scope, id: string, to: CapName, by: string): Promise<Capability> {
    return forkRecord(this.s, this.own(scope), id, to, by);
  }

  async usageStats(since?: string): Promise<UsageStat[]> {
    return usageStats(this.db, since);
  }

  async usageLog(q?: UsageLogQuery): Promise<UsageRow[]> {
    return usageLog(this.db, q);
  }

  async recordToolUsage(rows: readonly ToolUsage[]): Promise<void> {
    recordToolUsage(this.s, rows);
  }

  async recordUsage(buckets: readonly UsageBucket[]): Promise<void> {
    writeUsage(this.s, buckets);
  }

  async associations(owner: string): Promise<Association[]> {
    return readAssociations(this.db, owner);
  }

  private learned = 0;
  async learn(l: Learned): Promise<void> {
    learnAssociation(this.db, l);
    this.learned++;
  }

  /** data_version moves when another connection commits; this connection's own writes are counted. */
  async associationStamp(): Promise<string> {
    return `${await this.othersStamp()}:${this.learned}`;
  }

  async othersStamp(): Promise<number> {
    return (this.db.query("PRAGMA data_version").get() as { data_version: number }).data_version;
  }

  close(): void {
    this.db.close();
  }
}
