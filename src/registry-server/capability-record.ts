// A published capability as the registry server sees it: the POST /mcp/capabilities body
// (valibot), the version rules (append-only, semver bump from what changed), and the module text a
// capability is served as, so any pml loads it like any registry module.
import * as v from "valibot";
import { codeHash as normalizedCodeHash } from "../memory/code-hash.ts";
import { compileModule, issuePath } from "../registry/module-code.ts";
import { NAME_SEGMENT } from "./api-keys.ts";

export const VISIBILITIES = ["private", "project", "org", "public"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** `namespace:action_target[_variant]`, lower snake case (the local store's rule, src/memory/names.ts). */
export const CAPABILITY_NAME = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)*):([a-z][a-z0-9]*(?:_[a-z0-9]+)*)$/;
const SEMVER = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/;
const MAX_CODE = 256 * 1024;

const JsonObject = v.record(v.string(), v.unknown());
const Segment = (what: string) => v.pipe(v.string(), v.regex(NAME_SEGMENT, `${what} must be 1-64 letters, digits, '_' or '-'`));
const Version = v.pipe(
  v.string(),
  v.transform((s) => s.replace(/^v/, "")),
  v.regex(SEMVER, "must be a version like 1.2.0"),
);

export const PublishSchema = v.object({
  name: v.pipe(
    v.string(),
    v.maxLength(97, "the name is too long"),
    v.regex(CAPABILITY_NAME, "Invalid capability name format. Expected: namespace:action_target (lower snake case, e.g. fs:read_json)"),
  ),
  project: Segment("project"),
  /** Optional: the API key's org is used; a different one is refused rather than silently changed. */
  org: v.optional(Segment("org")),
  code: v.pipe(v.string(), v.minLength(1, "code is empty"), v.maxLength(MAX_CODE, "code is larger than 256 KiB")),
  description: v.optional(v.pipe(v.string(), v.maxLength(4000))),
  intent: v.optional(v.pipe(v.string(), v.maxLength(4000))),
  parameters_schema: v.optional(JsonObject),
  default_args: v.optional(JsonObject),
  tools_used: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$/, "tool ids look like ns:action"))), v.maxLength(500))),
  routing: v.optional(v.picklist(["local", "cloud"])),
  tags: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "tags are lower-case words"))), v.maxLength(64))),
  /** Left out: `org` (every key with an identity has one), as pml's `memory.publish` would say. */
  visibility: v.optional(v.picklist(VISIBILITIES, `visibility must be one of ${VISIBILITIES.join(", ")}`)),
  /** Adding a version to an existing name must be asked for, and say which version it replaces. */
  update: v.optional(v.boolean()),
  base_version: v.optional(Version),
  version_tag: v.optional(Version),
  change_summary: v.optional(v.pipe(v.string(), v.maxLength(4000))),
});
export type PublishInput = v.InferOutput<typeof PublishSchema>;

export interface PublishResult {
  /** 201 created (new capability or version), 200 unchanged (same code already there) or
   * visibility (same code, `update` with another shared visibility: who sees it changed). */
  status: "created" | "version" | "unchanged" | "visibility";
  id: string;
  name: string;
  fqdn: string;
  /** The FQDN of this exact version: `<org>.<project>.<ns>.<action>.<hash4>`. */
  version_fqdn: string;
  version: string;
  visibility: Visibility;
}

/** A refusal the publisher can act on: 400 (bad input) or 409 (name taken, stale base version). */
export class PublishError extends Error {
  override name = "PublishError";
  constructor(
    readonly status: 400 | 409,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Parses and validates a publish body; the error names the field. */
export function parsePublish(raw: unknown): PublishInput {
  const r = v.safeParse(PublishSchema, raw);
  if (!r.success) {
    const issue = r.issues[0];
    throw new PublishError(400, "bad_request", `capability '${issuePath(issue)}': ${issue.message}`);
  }
  return r.output;
}

export function splitName(name: string): { namespace: string; action: string } {
  const m = CAPABILITY_NAME.exec(name)!;
  return { namespace: m[1]!, action: m[2]! };
}

/** The local store's hash (normalised code), so a version's `<hash4>` matches the FQDN pml shows locally. */
export const codeHash = normalizedCodeHash;

/** One stored version, as the store hands it to the renderer. */
export interface VersionRecord {
  id: string;
  org: string;
  project: string;
  namespace: string;
  action: string;
  visibility: Visibility;
  version_tag: string;
  code: string;
  code_hash: string;
  description: string | null;
  intent: string | null;
  parameters_schema: Record<string, unknown> | null;
  default_args: Record<string, unknown> | null;
  tools_used: string[];
  routing: "local" | "cloud" | null;
  tags: string[];
  change_summary: string | null;
  created_by: string;
  created_at: number;
  updated_by: string;
  updated_at: number;
}

export const capabilityFqdn = (r: Pick<VersionRecord, "org" | "project" | "namespace" | "action">) => `${r.org}.${r.project}.${r.namespace}.${r.action}`;
export const versionFqdn = (r: Pick<VersionRecord, "org" | "project" | "namespace" | "action" | "code_hash">) => `${capabilityFqdn(r)}.${r.code_hash.slice(0, 4)}`;

// ---- versions -------------------------------------------------------------------------------

export function parseVersion(tag: string): [number, number, number] {
  const m = SEMVER.exec(tag);
  if (!m) throw new Error(`not a version: ${tag}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

type Schema = { properties?: Record<string, { type?: unknown }>; required?: string[] } | null | undefined;

/** A caller written against `prev` can break against `next`: a required parameter added, or one removed or retyped. */
export function schemaIncompatible(prev: Schema, next: Schema): boolean {
  const pp = prev?.properties ?? {};
  const np = next?.properties ?? {};
  for (const [k, p] of Object.entries(pp)) {
    if (!(k in np)) return true;
    if (JSON.stringify(p?.type ?? null) !== JSON.stringify(np[k]?.type ?? null)) return true;
  }
  const had = new Set(prev?.required ?? []);
  return (next?.required ?? []).some((k) => !had.has(k));
}

/** Metadata a new version may change without new code (a patch). */
function metadataOf(r: Pick<VersionRecord, "description" | "intent" | "parameters_schema" | "default_args" | "tools_used" | "routing" | "tags">): string {
  return JSON.stringify([r.description, r.intent, r.parameters_schema, r.default_args, r.tools_used, r.routing, r.tags]);
}

/**
 * The tag of the version that follows `prev` with `next`'s content, or null when nothing changed.
 * Major on an incompatible schema change, minor on new code, patch on metadata only; an explicit
 * tag wins if it is greater.
 */
export function nextVersionTag(prev: VersionRecord, next: Omit<VersionRecord, "version_tag">, explicit?: string): string | null {
  const [ma, mi, pa] = parseVersion(prev.version_tag);
  let tag: string | null;
  if (schemaIncompatible(prev.parameters_schema as Schema, next.parameters_schema as Schema)) tag = `${ma + 1}.0.0`;
  else if (prev.code_hash !== next.code_hash) tag = `${ma}.${mi + 1}.0`;
  else if (metadataOf(prev) !== metadataOf(next)) tag = `${ma}.${mi}.${pa + 1}`;
  else tag = null;
  if (explicit) {
    if (compareVersions(explicit, prev.version_tag) <= 0)
      throw new PublishError(
        409,
        "version_not_greater",
        `version_tag ${explicit} is not greater than the latest version ${prev.version_tag}: choose a greater one or leave it out`,
      );
    return explicit;
  }
  return tag;
}

// ---- served as a module ---------------------------------------------------------------------

/** The whole record of one version, as `GET /mcp/{fqdn}?format=record` serves it to pml. */
export function capabilityRecord(r: VersionRecord) {
  return {
    record_type: "capability",
    id: r.id,
    name: `${r.namespace}:${r.action}`,
    org: r.org,
    project: r.project,
    fqdn: capabilityFqdn(r),
    version_fqdn: versionFqdn(r),
    version: r.version_tag,
    code: r.code,
    description: r.description,
    intent: r.intent,
    parameters_schema: r.parameters_schema ?? { type: "object" },
    default_args: r.default_args ?? {},
    tools_used: r.tools_used,
    routing: r.routing ?? "local",
    tags: r.tags,
    visibility: r.visibility,
    change_summary: r.change_summary,
    created_by: r.created_by,
    created_at: new Date(r.created_at).toISOString(),
    updated_by: r.updated_by,
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/**
 * The module text of one version: `// __meta__` (one tool named after the action, the capability's
 * record under `capability`) and `export async function <action>(args, ctx)` running the stored
 * body with `mcp` and `args` in scope, exactly as `execute` runs it, with the caller's arguments only.
 */
export function renderCapabilityModule(r: VersionRecord): string {
  const name = `${r.namespace}:${r.action}`;
  const meta = {
    type: "module",
    description: r.description ?? r.intent ?? name,
    routing: r.routing ?? "local",
    tools: [{ name: r.action, description: r.description ?? r.intent ?? name, inputSchema: r.parameters_schema ?? { type: "object" } }],
    capability: {
      id: r.id,
      name,
      fqdn: versionFqdn(r),
      version: r.version_tag,
      intent: r.intent,
      tools_used: r.tools_used,
      default_args: r.default_args ?? {},
      tags: r.tags,
      visibility: r.visibility,
      change_summary: r.change_summary,
      created_by: r.created_by,
      created_at: new Date(r.created_at).toISOString(),
      updated_by: r.updated_by,
      updated_at: new Date(r.updated_at).toISOString(),
      record_type: "capability",
    },
  };
  // JSON in a line comment: U+2028/9 are line terminators in JS, so escape them.
  const metaLine = JSON.stringify(meta)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return [
    `// __meta__: ${metaLine}`,
    `export async function ${r.action}(args, ctx) {`,
    `  return await (async (mcp, args) => {`,
    r.code,
    // A first run's arguments are never applied: a capability gets what its caller passes.
    `  })(ctx.mcp, args ?? {});`,
    `}`,
    ``,
  ].join("\n");
}

/**
 * Refuses code that does not make a self-contained module with exactly the one export: imports,
 * syntax errors, and a body that closes the wrapper to add exports of its own.
 */
export function checkCapabilityModule(r: VersionRecord): void {
  const source = renderCapabilityModule(r);
  let exported: string[];
  try {
    compileModule(source, { registryUrl: "this registry", fqdn: versionFqdn(r) }, "ts");
    exported = new Bun.Transpiler({ loader: "ts" }).scan(source).exports;
  } catch (e) {
    throw new PublishError(400, "bad_code", `capability code: ${(e as Error).message.replace(/ in \S+ \(registry this registry\)/, "")}`);
  }
  if (exported.length !== 1 || exported[0] !== r.action)
    throw new PublishError(400, "bad_code", "capability code must be the body of one async function (like `execute` code), not module declarations");
}
