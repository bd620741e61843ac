// How a capability and one of its versions are read from the database (the store's reads and a
// publish's read of the latest version share it).
import type { Identity } from "./api-keys.ts";
import type { VersionRecord } from "./capability-record.ts";

/** A version as read back, with its position in the capability's history. */
export type StoredVersion = VersionRecord & { seq: number };

/** Columns of a capability joined with one of its versions. */
export const SELECT = `SELECT c.id, c.owner, c.org, c.project, c.namespace, c.action, c.visibility, c.created_by AS c_created_by, c.created_at AS c_created_at,
  v.seq, v.version_tag, v.code, v.code_hash, v.description, v.intent, v.parameters_schema, v.default_args, v.tools_used, v.routing, v.tags,
  v.change_summary, v.created_by AS v_created_by, v.created_at AS v_created_at
  FROM capabilities c JOIN capability_versions v ON v.capability_id = c.id`;

/**
 * Which rows a caller may see: public ones; else its org's shared ones and its own private ones.
 * `mayView` (capability-cache.ts) is the same rule on a cached row.
 */
export function visibleTo(viewer: Identity | null, params: unknown[]): string {
  if (!viewer) return `c.visibility = 'public'`;
  params.push(viewer.org, viewer.user);
  const org = `$${params.length - 1}`;
  const user = `$${params.length}`;
  return `(c.visibility = 'public' OR (c.org = ${org} AND (c.visibility <> 'private' OR c.owner = ${user})))`;
}

const parseJson = <T>(text: unknown, fallback: T): T => (typeof text === "string" && text ? (JSON.parse(text) as T) : fallback);

export function toRecord(row: any): StoredVersion {
  return {
    id: row.id,
    org: row.org,
    project: row.project,
    namespace: row.namespace,
    action: row.action,
    visibility: row.visibility,
    seq: Number(row.seq),
    version_tag: row.version_tag,
    code: row.code,
    code_hash: row.code_hash,
    description: row.description ?? null,
    intent: row.intent ?? null,
    parameters_schema: parseJson(row.parameters_schema, null),
    default_args: parseJson(row.default_args, null),
    tools_used: parseJson(row.tools_used, []),
    routing: row.routing ?? null,
    tags: parseJson(row.tags, []),
    change_summary: row.change_summary ?? null,
    // The capability was created by its first author; this version by whoever published it.
    created_by: row.c_created_by,
    created_at: Number(row.c_created_at),
    updated_by: row.v_created_by,
    updated_at: Number(row.v_created_at),
  };
}

export function searchText(r: Pick<VersionRecord, "namespace" | "action" | "description" | "intent" | "tags" | "tools_used">): string {
  return `${r.namespace} ${r.action.replace(/_/g, " ")} ${r.description ?? ""} ${r.intent ?? ""} ${JSON.stringify(r.tags)} ${JSON.stringify(r.tools_used)}`.toLowerCase();
}
