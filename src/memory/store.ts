// What the capability store does, whatever holds it: bun:sqlite on the user's machine
// (sqlite-store.ts), PostgreSQL behind `pml registry serve` later. Calls are async so a networked
// store can implement the same interface.
import { UserError } from "../errors.ts";
import type { Routing } from "../routing/route.ts";
import type { CapName } from "./names.ts";
import type { UsageBucket } from "./usage-buckets.ts";

export type Visibility = "private" | "project" | "org" | "public";
export type RecordType = "capability" | "mcp-server";
export const VISIBILITIES: readonly Visibility[] = ["private", "project", "org", "public"];

/**
 * Whose records these are, and how they are labelled. `owner` decides who sees and writes a record:
 * a workspace's real path, or USER_OWNER (the user's scope, read from every workspace of this
 * PML_HOME). org and project only label the FQDN and team publishing (.pml.json `memory`, which a
 * cloned repository may set), so they never decide what a workspace sees.
 */
export interface Scope {
  org: string;
  project: string;
  owner: string;
}

/** The owner of the user's scope: readable from every workspace, written only when asked for. */
export const USER_OWNER = "user";
/** The FQDN project label of the user's scope. */
export const USER_PROJECT = "user";

/** Records from before workspaces owned them (memory.db step 8): `legacy:<org>/<project>` until the
 * first workspace of that old scope name opens the store and adopts them. */
export function legacyOwner(org: string, project: string): string {
  return `legacy:${org}/${project}`;
}

/** The user's scope as seen from a workspace scope (same org label). */
export function userScopeOf(scope: Scope): Scope {
  return { org: scope.org, project: USER_PROJECT, owner: USER_OWNER };
}

export interface Capability {
  /** Stable internal id; never changes (the FQDN does when the name, org or project does). */
  id: string;
  record_type: RecordType;
  org: string;
  project: string;
  /** Whose it is (see Scope): a workspace's real path, or "user". */
  owner: string;
  namespace: string;
  action: string;
  /** `ns:action`, or `unnamed_<8 hex>`. */
  display_name: string;
  named: boolean;
  fqdn: string;
  description: string;
  intent: string;
  code: string;
  code_hash: string;
  parameters_schema: Record<string, unknown>;
  /** The first run's arguments of a record saved before issue 23 (never applied to a call; read
   * as the schema's examples, see parameters.ts); {} since. */
  default_args: Record<string, unknown>;
  tools_used: string[];
  routing: Routing;
  /** True when the routing was given explicitly (inheritance does not overwrite it). */
  routing_explicit: boolean;
  tags: string[];
  visibility: Visibility;
  version_tag: string;
  created_by: string;
  created_at: string;
  updated_by: string;
  updated_at: string;
  usage_count: number;
  success_count: number;
  total_latency_ms: number;
  verified: boolean;
  signature: string | null;
  last_used_at: string | null;
  /** When a call of it last succeeded (what orders the bounded tool list after the pinned ones). */
  last_success_at: string | null;
  /** Listed in tools/list before any other capability (dns:pin). */
  pinned: boolean;
  /** Set while the user has it deprecated (dns:deprecate). */
  deprecated: Deprecation | null;
  /** The capability this one was copied from (dns:fork). */
  forked_from: string | null;
  /** Bumped on every change to the record, across processes: what search indexes refresh from. */
  seq: number;
  /** The kinds of the values its successful runs of the current code returned, in the order first
   * seen (empty until one is). */
  returns: AnswerKind[];
}

/** A returned value's JSON kind. */
export type AnswerKind = "null" | "boolean" | "number" | "string" | "array" | "object";
export const ANSWER_KINDS: ReadonlySet<string> = new Set<AnswerKind>(["null", "boolean", "number", "string", "array", "object"]);

export function answerKind(v: unknown): AnswerKind {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  return t === "number" || t === "boolean" || t === "string" || t === "object" ? t : "string";
}

/** Why and since when a capability is deprecated, and what to call instead. */
export interface Deprecation {
  at: string;
  by: string;
  reason?: string;
  /** A capability name or tool id to use instead. */
  replacement?: string;
}

/** A finished `execute` run worth keeping. */
export interface CaptureInput {
  scope: Scope;
  name?: CapName;
  code: string;
  code_hash: string;
  intent?: string;
  description?: string;
  parameters_schema: Record<string, unknown>;
  default_args: Record<string, unknown>;
  tools_used: string[];
  routing: Routing;
  routing_explicit: boolean;
  tags?: string[];
  visibility?: Visibility;
  version_tag?: string;
  by: string;
  latency_ms: number;
  /** False when saved without running (learn:save): the counters start at 0. */
  ran?: boolean;
  /** The kind of the value the run returned. */
  returned?: AnswerKind;
}

export interface CapabilityQuery {
  /** The records this scope may read: its own, and the user's beside a workspace's. */
  scope: Scope;
  /** Glob on created_by (`ali*`). */
  created_by?: string;
  /** All must be present. */
  tags?: string[];
  visibility?: Visibility;
  namespace?: string;
  /** Words in the name, description or intent. */
  text?: string;
  named_only?: boolean;
  unnamed_only?: boolean;
  min_usage?: number;
  sort?: "name" | "usage" | "created";
  limit?: number;
  offset?: number;
  /** Count at most this many matches (then `total_at_least`); default: count them all. */
  count_limit?: number;
}

export interface UsageStat {
  tool_id: string;
  server_id: string;
  calls: number;
  successes: number;
  avg_latency_ms: number;
  last_at: string;
}

export interface UsageLogQuery {
  /** ISO time: rows of this second and later. */
  since?: string;
  /** Only these tool ids. */
  tool_ids?: readonly string[];
  limit?: number;
}

export interface UsageRow {
  tool_id: string;
  server_id: string;
  /** The second the calls ended in (`YYYY-MM-DDTHH:MM:SS`, UTC). */
  second: string;
  calls: number;
  successes: number;
  latency_ms_total: number;
  last_at: string;
  /** What the last failed call of the row said (bounded); null when none failed, or failed before pml kept it. */
  last_error: string | null;
}

export type CaptureOutcome =
  | { kind: "created"; capability: Capability }
  | { kind: "reused"; capability: Capability /** the unnamed record got the given name */; named?: boolean }
  | { kind: "taken"; name: string };

export interface Resolution {
  /** With a version specifier, code and parameters_schema are that version's. */
  capability: Capability;
  /** Set when the caller used an old name (an alias): the current name is capability.display_name. */
  alias?: string;
  /** Set when a version specifier picked a version. */
  version?: string;
}

/** One immutable version of a capability. */
export interface Version {
  id: string;
  capability_id: string;
  version_tag: string;
  code: string;
  code_hash: string;
  parameters_schema: Record<string, unknown>;
  change_summary: string;
  created_by: string;
  created_at: string;
}

/** A new version of an existing capability; `decide` runs inside the write transaction with the
 * record as it is then, and returns the tag and summary (or throws to refuse). */
export interface NewVersion {
  code: string;
  code_hash: string;
  parameters_schema: Record<string, unknown>;
  tools_used: string[];
  routing?: Routing;
  description?: string;
  intent?: string;
  by: string;
  decide(current: Capability): { version_tag: string; change_summary: string };
}

/** What search indexes need of a record (no code, no schema: its parameters' names). */
export type SearchRecord = Pick<
  Capability,
  "id" | "record_type" | "owner" | "namespace" | "action" | "display_name" | "named" | "intent" | "description" | "tools_used" | "deprecated" | "seq" | "returns"
> & { params: string[]; vector?: StoredVector };

/** A record's text vector for discover (word-vectors.ts): the recipe, a hash of the text, the packed vector. */
export interface StoredVector {
  model: string;
  source: string;
  bytes: Uint8Array;
}

export interface ToolUsage {
  tool_id: string;
  /** The server (namespace) that ran it; `pml-capabilities` for capabilities. */
  server_id: string;
  success: boolean;
  latency_ms: number;
  /** ISO time the call ended. */
  at: string;
  /** A failed call's result text. */
  error?: string;
}

/** Words that led to a successful call of an item (`cap:<id>`, `tool:<ns>:<name>`), as kept. */
export interface Association {
  item_key: string;
  query: string;
  /** As of last_at; it decays after (association-policy.ts). */
  count: number;
  last_at: string;
}

/** One use to count: `owner` is the workspace it happened in (never another's). */
export interface Learned {
  owner: string;
  item: string;
  query: string;
  at: string;
  /** The item the same words were credited to before, in the same job: its credit moves. */
  from?: string;
}

export class NameTakenError extends UserError {
  override name = "NameTakenError";
  constructor(readonly taken: string) {
    super(`Capability name '${taken}' already exists`);
  }
}

export class NotFoundError extends UserError {
  override name = "NotFoundError";
  constructor(readonly wanted: string) {
    super(`Capability not found: ${wanted}`);
  }
}

export interface CapabilityStore {
  /** Makes the records the scope's old name left from before owners the scope's own (the
   * other methods taking a scope do this first; search, which reads every scope, asks for it). */
  adopt(scope: Scope): Promise<void>;
  /** By name or alias among what the scope may read (its own first, then the user's); undefined
   * when neither exists. */
  resolve(scope: Scope, name: CapName): Promise<Resolution | undefined>;
  /** By name or alias in the scope's own records only (what a write to the scope may touch). */
  resolveOwn(scope: Scope, name: CapName): Promise<Resolution | undefined>;
  byId(id: string): Promise<Capability | undefined>;
  /** The input schemas of the records `ids` (as `resolve` gives them), in one read: what a
   * discover answer shows of its capabilities. */
  parametersOf(ids: readonly string[]): Promise<Map<string, Capability["parameters_schema"]>>;
  /** The first `chars` characters of the records' code and their input schemas, in one read: what
   * discover's labels read of the capabilities they answer (code-match.ts). */
  codeOf(ids: readonly string[], chars: number): Promise<Map<string, { code: string; parameters: Capability["parameters_schema"] }>>;
  /** Among what the scope may read. */
  byFqdn(scope: Scope, fqdn: string): Promise<Capability | undefined>;
  byCodeHash(scope: Scope, hash: string): Promise<Capability | undefined>;
  /** Whether `name` is taken (by a name or an alias) by anything but the code `codeHash`. */
  nameTakenByOther(scope: Scope, name: CapName, codeHash: string): Promise<boolean>;
  /** Saves a run: same code -> the existing record (usage bumped), else a new one; atomic. */
  capture(input: CaptureInput): Promise<CaptureOutcome>;
  /** A call of a stored capability ended; `returned`: the kind of value a successful one returned. */
  recordRun(id: string, success: boolean, latencyMs: number, returned?: AnswerKind): Promise<void>;
  /** Named capabilities the scope may read, by name (its own hide the user's of the same name). */
  listNamed(scope: Scope): Promise<Capability[]>;
  /** The named capabilities tools/list carries (not deprecated ones, unless pinned): pinned ones
   * first (by name), then by last successful call (newest first), then by name; at most `limit`
   * (all without one), how many there are in all, and the ids of the deprecated ones left out
   * (a use never brings those in). */
  listedNamed(scope: Scope, limit?: number): Promise<{ items: Capability[]; total: number; deprecated: string[] }>;
  /** Pins or unpins a record (see listedNamed); returns it. */
  setPinned(id: string, pinned: boolean, by: string): Promise<Capability>;
  /** Deprecates a record (null: no longer); returns it. */
  setDeprecated(id: string, deprecation: Deprecation | null, by: string): Promise<Capability>;
  /** Records changed after `seq` (every scope); for search indexes. */
  changedSince(seq: number, limit?: number): Promise<Capability[]>;
  /** The same, of the given owners only, with only what search needs, handed to `each` one at a
   * time and not kept (10k+ records held at once cost discover's first load ~20 MB more resident memory). */
  searchableSince(seq: number, owners: readonly string[], each: (r: SearchRecord) => void): Promise<void>;
  /** Keeps records' text vectors (a record deleted since is skipped). */
  saveVectors(rows: ReadonlyArray<{ id: string } & StoredVector>): Promise<void>;
  /** An embeddings provider's cached vectors of one model (packed as StoredVector's bytes), by
   * text hash (only those of `sources` when given), and their dimension (undefined when none are cached). */
  providerVectors(model: string, sources?: readonly string[]): Promise<{ dims?: number; vectors: Map<string, Uint8Array> }>;
  /** Caches a provider's vectors of one model (all of `dims`: a model's vectors of another dimension
   * are dropped first, never mixed). */
  saveProviderVectors(model: string, dims: number, rows: ReadonlyArray<{ source: string; bytes: Uint8Array }>): Promise<void>;
  /** Renames in one transaction: the old name becomes an alias of the same record. */
  rename(scope: Scope, from: CapName, to: CapName, by: string): Promise<{ capability: Capability; old: string }>;
  aliasesOf(id: string): Promise<string[]>;
  /** Every name and alias held in the scope (its own records). */
  namesInScope(scope: Scope): Promise<string[]>;
  /** Versions, newest first. */
  versions(id: string): Promise<Version[]>;
  /** Appends a version and makes it the record's current state, atomically. */
  appendVersion(id: string, v: NewVersion): Promise<Capability>;
  recordToolUsage(rows: readonly ToolUsage[]): Promise<void>;
  /** The same, calls already counted per tool and second (usage-buckets.ts). */
  recordUsage(buckets: readonly UsageBucket[]): Promise<void>;
  /** Capabilities the scope may read matching every given filter, and how many match in all. */
  query(q: CapabilityQuery): Promise<{ total: number /** more may match (see count_limit) */; total_at_least?: boolean; items: Capability[] }>;
  /** Adds and removes tags; returns the record. */
  tag(id: string, add: readonly string[], remove: readonly string[], by: string): Promise<Capability>;
  /** Copies a record into another name of the scope, remembering where it came from. */
  fork(scope: Scope, id: string, to: CapName, by: string): Promise<Capability>;
  /** Per tool: calls, successes, mean latency (tool_usage), optionally since an ISO time. */
  usageStats(since?: string): Promise<UsageStat[]>;
  /** The tool_usage log itself (one row per tool, server and second), newest first. */
  usageLog(q?: UsageLogQuery): Promise<UsageRow[]>;
  /** Learning from use: the owner's associations, one use counted, and a stamp that changes
   * whenever they may have (another process's write included). */
  associations(owner: string): Promise<Association[]>;
  learn(l: Learned): Promise<void>;
  associationStamp(): Promise<string>;
  /** Moves when another connection (another pml process, `pml ui`) commits; not on this one's writes. */
  othersStamp(): Promise<number>;
  close(): void;
}
