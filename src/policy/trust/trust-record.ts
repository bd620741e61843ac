// Which grants of a workspace's .pml.json (and of its .mcp.json's env for pml) the user trusted:
// kept in $PML_HOME (never in the workspace, which a repository controls), one file per workspace
// named by a digest of its real path, holding the trusted grant ids. A grant the file holds and the record does not (a clone's,
// or an outside edit's) is not honoured until the user trusts it again; pml's own edits ("Always")
// add theirs.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { pmlHome } from "../../config/paths.ts";
import { userEnv } from "../../config/workspace-env.ts";
import { writeFileAtomic, withFileLock } from "../../fs/atomic.ts";

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
