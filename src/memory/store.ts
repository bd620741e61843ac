// What the capability store does, whatever holds it: bun:sqlite on the user's machine
// (sqlite-store.ts), PostgreSQL behind `pml registry serve` later. Calls are async so a networked
// store can implement the same interface.
import type { Routing } from "../routing/route.ts";
import type { CapName } from "./names.ts";

export type Visibility = "private" | "project" | "org" | "public";
export type RecordType = "capability" | "mcp-server";
export const VISIBILITIES: readonly Visibility[] = ["private", "project", "org", "public"];

/** Where names are unique: one org/project (from .pml.json `memory`, else local/<folder>). */
export interface Scope {
  org: string;
  project: string;
}

export interface Capability {
  /** Stable internal id; never changes (the FQDN does when the name, org or project does). */
  id: string;
  record_type: RecordType;
  org: string;
  project: string;
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
  /** The capability this one was copied from (dns:fork). */
  forked_from: string | null;
  /** Bumped on every change to the record, across processes: what search indexes refresh from. */
  seq: number;
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
  by: string;
  latency_ms: number;
}

export type CaptureOutcome =
  | { kind: "created"; capability: Capability }
  | { kind: "reused"; capability: Capability; /** the unnamed record got the given name */ named?: boolean }
  | { kind: "taken"; name: string };

export interface Resolution {
  capability: Capability;
  /** Set when the caller used an old name (an alias): the current name is capability.display_name. */
  alias?: string;
}

export interface ToolUsage {
  tool_id: string;
  /** The server (namespace) that ran it; `pml-capabilities` for capabilities. */
  server_id: string;
  success: boolean;
  latency_ms: number;
  /** ISO time the call ended. */
  at: string;
}

export class NameTakenError extends Error {
  constructor(readonly taken: string) {
    super(`Capability name '${taken}' already exists`);
  }
}

export class NotFoundError extends Error {
  constructor(readonly wanted: string) {
    super(`Capability not found: ${wanted}`);
  }
}

export interface CapabilityStore {
  /** By name or alias within the scope; undefined when neither exists. */
  resolve(scope: Scope, name: CapName): Promise<Resolution | undefined>;
  byId(id: string): Promise<Capability | undefined>;
  byFqdn(fqdn: string): Promise<Capability | undefined>;
  byCodeHash(scope: Scope, hash: string): Promise<Capability | undefined>;
  /** Whether `name` is taken (by a name or an alias) by anything but the code `codeHash`. */
  nameTakenByOther(scope: Scope, name: CapName, codeHash: string): Promise<boolean>;
  /** Saves a run: same code -> the existing record (usage bumped), else a new one; atomic. */
  capture(input: CaptureInput): Promise<CaptureOutcome>;
  /** A call of a stored capability ended. */
  recordRun(id: string, success: boolean, latencyMs: number): Promise<void>;
  /** Named capabilities of the scope, by name. */
  listNamed(scope: Scope): Promise<Capability[]>;
  /** Records changed after `seq` (every scope); for search indexes. */
  changedSince(seq: number, limit?: number): Promise<Capability[]>;
  /** Renames in one transaction: the old name becomes an alias of the same record. */
  rename(scope: Scope, from: CapName, to: CapName, by: string): Promise<{ capability: Capability; old: string }>;
  aliasesOf(id: string): Promise<string[]>;
  recordToolUsage(rows: readonly ToolUsage[]): Promise<void>;
  close(): void;
}
