// What `pml trust`, `pml doctor` and `status` say about a workspace's trust: the grants its
// .pml.json holds (and the env its .mcp.json gives pml: ./env-grants.ts), which of them the user trusted, and the record to write when they trust it.
import { loadProjectConfig } from "../../config/pml-json.ts";
import { envGrantsOf } from "./env-grants.ts";
import { grantsOf, type Grant } from "./grants.ts";
import { readTrust, realWorkspace, revokeTrust, trustRecordPath, writeTrust } from "./trust-record.ts";

export interface TrustReview {
  workspace: string;
  file: string;
  exists: boolean;
  /** Whether the user ever trusted this workspace (a record exists). */
  recorded: boolean;
  /** Grants of the file the user trusted. */
  trusted: Grant[];
  /** Grants of the file the user has not trusted: they do not apply. */
  untrusted: Grant[];
  record: string;
}

type Env = Record<string, string | undefined>;

/** Throws a ConfigError when .pml.json cannot be read (the user fixes it first). */
export async function reviewTrust(workspace: string, env: Env = process.env): Promise<TrustReview> {
  const root = realWorkspace(workspace);
  const loaded = await loadProjectConfig(root);
  const record = readTrust(root, env);
  const ids = new Set(record?.grants ?? []);
  const grants = [...grantsOf(loaded.config), ...envGrantsOf(root)];
  return {
    workspace: root,
    file: loaded.path,
    exists: loaded.exists,
    recorded: record !== undefined,
    trusted: grants.filter((g) => ids.has(g.id)),
    untrusted: grants.filter((g) => !ids.has(g.id)),
    record: trustRecordPath(root, env),
  };
}

/** Trusts what the file grants now (exactly that: a later edit that adds a grant needs trust again). */
export async function trustAll(review: TrustReview, env: Env = process.env): Promise<void> {
  await writeTrust(
    review.workspace,
    [...review.trusted, ...review.untrusted].map((g) => g.id),
    env,
  );
}

export function revoke(workspace: string, env: Env = process.env): boolean {
  return revokeTrust(realWorkspace(workspace), env);
}

/** One line for `status` and `pml doctor`. */
export function trustSummary(r: TrustReview): string {
  if (!r.exists && r.untrusted.length === 0) return "no .pml.json: pml's defaults apply (nothing is granted)";
  if (r.untrusted.length === 0) return r.trusted.length ? `trusted (${r.trusted.length} grants)` : "grants nothing (only restricts): nothing to trust";
  return `${r.untrusted.length} grant(s) of ${r.workspace}'s .pml.json or .mcp.json not trusted, so not applied (${r.untrusted.map((g) => g.text).join("; ")}); run \`pml trust\` in ${r.workspace} to review and trust them`;
}
