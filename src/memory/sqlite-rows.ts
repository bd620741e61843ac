// Rows of memory.db as the store hands them out: JSON columns parsed, 0/1 columns as booleans,
// the display name formatted.
import { formatName } from "./names.ts";
import { readSavedParameters } from "./parameters.ts";
import { ANSWER_KINDS, type AnswerKind, type Capability, type Deprecation, type SearchRecord, type Version } from "./store.ts";

export interface Row {
  [k: string]: unknown;
}

export function toCapability(r: Row): Capability {
  return {
    id: r.id as string,
    record_type: r.record_type as Capability["record_type"],
    org: r.org as string,
    project: r.project as string,
    owner: r.owner as string,
    namespace: r.namespace as string,
    action: r.action as string,
    display_name: formatName({ namespace: r.namespace as string, action: r.action as string }),
    named: r.named === 1,
    fqdn: r.fqdn as string,
    description: r.description as string,
    intent: r.intent as string,
    code: r.code as string,
    code_hash: r.code_hash as string,
    parameters_schema: rowParameters(r),
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
    last_success_at: (r.last_success_at as string | null) ?? null,
    pinned: r.pinned === 1,
    deprecated: deprecationOf(r.deprecated),
    forked_from: (r.forked_from as string | null) ?? null,
    seq: r.seq as number,
    returns: returnsOf(r.returns),
  };
}

/** A row's input schema, read as pml infers parameters now (first-run defaults of before issue 23
 * as examples, an inferred integer as a number). */
export function rowParameters(r: Row): Capability["parameters_schema"] {
  return readSavedParameters(JSON.parse(r.parameters_schema as string), JSON.parse(r.default_args as string));
}

/** The kinds a record's runs returned; anything else in the column (an edited file) is left out. */
function returnsOf(raw: unknown): AnswerKind[] {
  return typeof raw === "string" && raw ? (raw.split(",").filter((k) => ANSWER_KINDS.has(k)) as AnswerKind[]) : [];
}

function deprecationOf(raw: unknown): Deprecation | null {
  return typeof raw === "string" && raw ? (JSON.parse(raw) as Deprecation) : null;
}

export function toSearchRecord(r: Row): SearchRecord {
  return {
    id: r.id as string,
    record_type: r.record_type as SearchRecord["record_type"],
    owner: r.owner as string,
    namespace: r.namespace as string,
    action: r.action as string,
    display_name: formatName({ namespace: r.namespace as string, action: r.action as string }),
    named: r.named === 1,
    intent: r.intent as string,
    description: r.description as string,
    tools_used: JSON.parse(r.tools_used as string),
    // Once each, in the schema's order (JSON.parse keeps the first place of a repeated key).
    params: [...new Set((JSON.parse(r.params as string) as unknown[]).map(String))],
    deprecated: deprecationOf(r.deprecated),
    seq: r.seq as number,
    returns: returnsOf(r.returns),
    ...(r.vector ? { vector: { model: r.vector_model as string, source: r.vector_source as string, bytes: r.vector as Uint8Array } } : {}),
  };
}

export function toVersion(r: Row): Version {
  return {
    id: r.id as string,
    capability_id: r.capability_id as string,
    version_tag: r.version_tag as string,
    code: r.code as string,
    code_hash: r.code_hash as string,
    parameters_schema: JSON.parse(r.parameters_schema as string),
    change_summary: r.change_summary as string,
    created_by: r.created_by as string,
    created_at: r.created_at as string,
  };
}
