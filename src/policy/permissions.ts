// What the user's .pml.json says about a tool and about a set of tools run together, and
// "always" from an approval: the exact tool id joins permissions.allow in the user's file.
import { alwaysGrant } from "./trust/grants.ts";
import { addTrustedGrants } from "./trust/trust-record.ts";
import { ConfigError } from "../errors.ts";
import { updateProjectConfig, type LoadedProjectConfig } from "../config/pml-json.ts";
import { exactAllows, isToolId, permissionFor, type Decision, type Permissions } from "../config/permission-patterns.ts";

export type { Decision, Permissions };
export { exactAllows, permissionFor };

export interface ApprovalMode {
  /** auto: run; hil: ask the user first (the tools in `ask`); blocked: refuse (see `denied`). */
  mode: "auto" | "hil" | "blocked";
  /** The first denied tool, when blocked. */
  denied?: string;
  /** Tools that need approval: permission "ask", or not known to pml. */
  ask: string[];
}

/** For a set of tools (a capability's tools_used): any denied -> blocked; any ask or unknown
 * -> hil; all allowed -> auto. */
export function approvalMode(perms: Permissions | undefined, toolIds: readonly string[], isKnown?: (toolId: string) => boolean): ApprovalMode {
  let denied: string | undefined;
  const ask: string[] = [];
  for (const id of toolIds) {
    const decision = permissionFor(perms, id);
    if (decision === "deny") denied ??= id;
    else if (decision === "ask" || (isKnown && !isKnown(id))) {
      if (!ask.includes(id)) ask.push(id);
    }
  }
  if (denied !== undefined) return { mode: "blocked", denied, ask };
  return { mode: ask.length ? "hil" : "auto", ask };
}

/**
 * Adds `toolId` to permissions.allow (idempotent; safe against concurrent approvals from other
 * processes). An exact entry for the same tool in `ask` is removed, since it would otherwise
 * keep winning over the new allow (same specificity, ask > allow). Broader ask/deny patterns stay.
 */
/**
 * "Always": the tool joins permissions.allow (`toolId`; undefined when the file allows it already)
 * and the variables join env_grants, trusted first and written in one update of the file.
 */
export async function recordAlways(workspace: string, toolId: string | undefined, grant?: { ns: string; names: readonly string[] }): Promise<LoadedProjectConfig | undefined> {
  if (toolId !== undefined && !isToolId(toolId)) {
    throw new ConfigError(`cannot always-allow ${JSON.stringify(toolId)}: expected an exact tool id like "memory:create_entities".`);
  }
  const names = grant?.names ?? [];
  const grants = [...(toolId === undefined ? [] : [alwaysGrant.allow(toolId)]), ...names.map((n) => alwaysGrant.env(grant!.ns, n))];
  if (!grants.length) return undefined;
  // The user's own answer: trusted before it is in the file, so it applies as soon as it is.
  await addTrustedGrants(workspace, grants);
  return updateProjectConfig(workspace, (raw) => {
    if (toolId !== undefined) addAllow(raw, toolId);
    if (names.length) addEnvGrants(raw, grant!.ns, names);
  });
}

export async function allowAlways(workspace: string, toolId: string): Promise<LoadedProjectConfig> {
  return (await recordAlways(workspace, toolId))!;
}

export async function grantEnvAlways(workspace: string, ns: string, names: readonly string[]): Promise<LoadedProjectConfig | undefined> {
  return recordAlways(workspace, undefined, { ns, names });
}

function addAllow(raw: Record<string, unknown>, toolId: string): void {
  if (raw.permissions === undefined) raw.permissions = {};
  const perms = raw.permissions;
  // Wrong shapes are left for validation to report with their key path.
  if (typeof perms !== "object" || perms === null || Array.isArray(perms)) return;
  const p = perms as Record<string, unknown>;
  if (p.allow === undefined) p.allow = [];
  if (Array.isArray(p.allow) && !p.allow.includes(toolId)) p.allow.push(toolId);
  if (Array.isArray(p.ask)) p.ask = p.ask.filter((x) => x !== toolId);
}

function addEnvGrants(raw: Record<string, unknown>, ns: string, names: readonly string[]): void {
  if (raw.env_grants === undefined) raw.env_grants = {};
  const grants = raw.env_grants;
  if (typeof grants !== "object" || grants === null || Array.isArray(grants)) return;
  const g = grants as Record<string, unknown>;
  // Defined, not assigned: a namespace named "__proto__" is a key like any other.
  if (!Object.hasOwn(g, ns)) Object.defineProperty(g, ns, { value: [], enumerable: true, writable: true, configurable: true });
  const list = g[ns];
  if (Array.isArray(list)) for (const n of names) if (!list.includes(n)) list.push(n);
}

export async function allowSamplingAlways(workspace: string, ns: string): Promise<LoadedProjectConfig> {
  await addTrustedGrants(workspace, [alwaysGrant.sampling(ns)]);
  return updateProjectConfig(workspace, (raw) => {
    if (raw.sampling === undefined) raw.sampling = {};
    const sampling = raw.sampling;
    if (typeof sampling !== "object" || sampling === null || Array.isArray(sampling)) return;
    const s = sampling as Record<string, unknown>;
    if (s.allow === undefined) s.allow = [];
    if (Array.isArray(s.allow) && !s.allow.includes(ns)) s.allow.push(ns);
  });
}
