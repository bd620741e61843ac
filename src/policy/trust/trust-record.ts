// Which grants of a workspace's .pml.json (and of its .mcp.json's env for pml) the user trusted:
// kept in $PML_HOME (never in the workspace, which a repository controls), one file per workspace
// named by a digest of its real path, holding the trusted grant ids. A grant the file holds and the record does not (a clone's,
// or an outside edit's) is not honoured until the user trusts it again; pml's own edits ("Always")
// are written here, their grants trusted first (`recordAlways`).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { pmlHome } from "../../config/paths.ts";
import { isToolId, permissionFor } from "../../config/permission-patterns.ts";
import type { LoadedProjectConfig } from "../../config/pml-json.ts";
import { userEnv } from "../../config/workspace-env.ts";
import { ConfigError } from "../../errors.ts";
import { writeFileAtomic, withFileLock } from "../../fs/atomic.ts";
import { alwaysGrant } from "./grants.ts";

export interface TrustRecord {
  workspace: string;
  grants: string[];
  trusted_at: string;
}

type Env = Record<string, string | undefined>;

export function realWorkspace(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return workspace;
  }
}

/** Where a workspace's record lives: in the user's own home, never in a PML_HOME that the
 * workspace's .mcp.json chose (config/workspace-env.ts), trusted or not. */
export function trustRecordPath(workspace: string, env: Env = process.env): string {
  const real = realWorkspace(workspace);
  return join(pmlHome(userEnv(env)), "trust", `${createHash("sha256").update(real).digest("hex").slice(0, 32)}.json`);
}

/** The record, or undefined when the user never trusted this workspace (or revoked it). */
export function readTrust(workspace: string, env: Env = process.env): TrustRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(trustRecordPath(workspace, env), "utf8"));
  } catch {
    return undefined;
  }
  const r = parsed as Partial<TrustRecord>;
  // A record of another path under the same digest is not this workspace's.
  if (r?.workspace !== realWorkspace(workspace) || !Array.isArray(r.grants)) return undefined;
  return { workspace: r.workspace, grants: r.grants.filter((g) => typeof g === "string"), trusted_at: String(r.trusted_at ?? "") };
}

/** A stamp that changes when the record does (for a cheap recheck beside .pml.json's). */
export function trustStamp(workspace: string, env: Env = process.env): string {
  try {
    const s = statSync(trustRecordPath(workspace, env));
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch {
    return "none";
  }
}

/** Trusts exactly these grants (what `pml trust` shows the user and records). */
export async function writeTrust(workspace: string, grants: readonly string[], env: Env = process.env): Promise<void> {
  const path = trustRecordPath(workspace, env);
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  const record: TrustRecord = { workspace: realWorkspace(workspace), grants: [...new Set(grants)].sort(), trusted_at: new Date().toISOString() };
  await writeFileAtomic(path, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

/** Adds grants the user just gave through pml itself ("Always"), keeping the others. */
export async function addTrustedGrants(workspace: string, grants: readonly string[], env: Env = process.env): Promise<void> {
  const path = trustRecordPath(workspace, env);
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  await withFileLock(path, async () => {
    const before = readTrust(workspace, env)?.grants ?? [];
    await writeTrust(workspace, [...before, ...grants], env);
  });
}

export function revokeTrust(workspace: string, env: Env = process.env): boolean {
  const path = trustRecordPath(workspace, env);
  try {
    statSync(path);
  } catch {
    return false;
  }
  rmSync(path, { force: true });
  return true;
}

// pml's own edits of .pml.json: "Always" from an approval. What they grant is the user's own
// answer: trusted before it is in the file, so it applies as soon as it is; then the file is
// updated once (idempotent; safe against concurrent approvals from other processes).

/**
 * "Always": the variables join env_grants and the tool joins permissions.allow (`toolId`;
 * undefined when the file allows it already). An exact entry for the same tool in `ask` is
 * removed, since it would otherwise keep winning over the new allow (same specificity, ask >
 * allow); broader ask and deny patterns stay. A tool the file denies now (the user denied it after
 * the question was asked) gets no allow: an exact one would outrank a deny of its namespace.
 * `denied` says so. The edit is decided on the file as read and written only over that same text
 * (`replaceProjectConfig`): a change meanwhile, another approval or the user's own, is read and
 * decided anew.
 */
export async function recordAlways(
  workspace: string,
  toolId: string | undefined,
  grant?: { ns: string; names: readonly string[] },
): Promise<{ loaded: LoadedProjectConfig | undefined; denied: boolean }> {
  if (toolId !== undefined && !isToolId(toolId)) {
    throw new ConfigError(`cannot always-allow ${JSON.stringify(toolId)}: expected an exact tool id like "memory:create_entities".`);
  }
  const names = grant?.names ?? [];
  const { readProjectDocument, replaceProjectConfig } = await projectConfig();
  // Each time the file changed meanwhile, another edit of it landed: this ends.
  for (;;) {
    const seen = await readProjectDocument(workspace);
    const edited = structuredClone(seen.raw);
    if (names.length) addEnvGrants(edited, grant!.ns, names);
    const denied = toolId !== undefined && !allowUnlessDenied(edited, toolId);
    const grants = [...(toolId === undefined || denied ? [] : [alwaysGrant.allow(toolId)]), ...names.map((n) => alwaysGrant.env(grant!.ns, n))];
    if (!grants.length) return { loaded: undefined, denied };
    await addTrustedGrants(workspace, grants);
    const loaded = await replaceProjectConfig(workspace, seen, edited);
    if (loaded) return { loaded, denied };
  }
}

/** The tool joins permissions.allow (its exact entry leaves `ask`), unless the file's patterns
 * deny it: false then, and nothing changes. */
function allowUnlessDenied(raw: Record<string, unknown>, toolId: string): boolean {
  const p = raw.permissions as Record<string, unknown> | undefined;
  const list = (k: string) => (Array.isArray(p?.[k]) ? (p[k] as unknown[]).filter((x): x is string => typeof x === "string") : []);
  if (permissionFor({ allow: list("allow"), ask: list("ask"), deny: list("deny") }, toolId) === "deny") return false;
  const perms = objectAt(raw, "permissions");
  if (!perms) return true;
  if (perms.allow === undefined) perms.allow = [];
  if (Array.isArray(perms.allow) && !perms.allow.includes(toolId)) perms.allow.push(toolId);
  if (Array.isArray(perms.ask)) perms.ask = perms.ask.filter((x) => x !== toolId);
  return true;
}

/** "Always" for a child server's sampling requests: the namespace joins sampling.allow. */
export async function allowSamplingAlways(workspace: string, ns: string): Promise<LoadedProjectConfig> {
  await addTrustedGrants(workspace, [alwaysGrant.sampling(ns)]);
  return (await projectConfig()).updateProjectConfig(workspace, (raw) => {
    const s = objectAt(raw, "sampling");
    if (!s) return;
    if (s.allow === undefined) s.allow = [];
    if (Array.isArray(s.allow) && !s.allow.includes(ns)) s.allow.push(ns);
  });
}

/** The object under `key`, made when absent; undefined when it has another shape (left for
 * validation to report with its key path). */
function objectAt(raw: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  if (raw[key] === undefined) raw[key] = {};
  const o = raw[key];
  return typeof o === "object" && o !== null && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined;
}

function addEnvGrants(raw: Record<string, unknown>, ns: string, names: readonly string[]): void {
  const g = objectAt(raw, "env_grants");
  if (!g) return;
  // Defined, not assigned: a namespace named "__proto__" is a key like any other.
  if (!Object.hasOwn(g, ns)) Object.defineProperty(g, ns, { value: [], enumerable: true, writable: true, configurable: true });
  const list = g[ns];
  if (Array.isArray(list)) for (const n of names) if (!list.includes(n)) list.push(n);
}

// The trust record is read as pml starts, for every command (env-grants.ts); .pml.json's schema and
// reader are loaded only when an "Always" writes the file (`pml --help` from a source checkout reads
// no schema).
function projectConfig() {
  return import("../../config/pml-json.ts");
}
