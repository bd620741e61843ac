// JSON documents a registry (or .pml.json) may hold for a namespace, turned into one Descriptor:
// pml's own descriptor shapes (stdio with `package` or the `install: "name@version"` shorthand,
// cloud, http), and the official MCP registry's server.json (bare, or wrapped as `{server, _meta}`
// the way its API returns it).
import * as v from "valibot";
import { DescriptorSchema, type Descriptor } from "./descriptor.ts";
import { issuePath, RegistryDocumentError } from "./module-code.ts";

const KeyValueInput = v.looseObject({
  name: v.optional(v.string()),
  value: v.optional(v.string()),
  default: v.optional(v.string()),
  isRequired: v.optional(v.boolean()),
  isSecret: v.optional(v.boolean()),
});

const ArgumentInput = v.looseObject({
  type: v.optional(v.string()),
  name: v.optional(v.string()),
  value: v.optional(v.string()),
  default: v.optional(v.string()),
});

/** The parts of server.json (static.modelcontextprotocol.io/schemas/.../server.schema.json) pml uses. */
export const ServerJsonSchema = v.looseObject({
  name: v.optional(v.string()),
  description: v.optional(v.string()),
  version: v.optional(v.string()),
  packages: v.optional(
    v.array(
      v.looseObject({
        registryType: v.pipe(v.string(), v.minLength(1)),
        identifier: v.pipe(v.string(), v.minLength(1)),
        version: v.optional(v.string()),
        fileSha256: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, "a hex SHA-256"))),
        transport: v.optional(v.looseObject({ type: v.string(), url: v.optional(v.string()) })),
        packageArguments: v.optional(v.array(ArgumentInput)),
        environmentVariables: v.optional(
          v.array(
            v.looseObject({
              name: v.pipe(v.string(), v.minLength(1)),
              isRequired: v.optional(v.boolean()),
              isSecret: v.optional(v.boolean()),
              description: v.optional(v.string()),
            }),
          ),
        ),
      }),
    ),
  ),
  remotes: v.optional(
    v.array(
      v.looseObject({
        type: v.string(),
        url: v.pipe(v.string(), v.minLength(1)),
        headers: v.optional(v.array(KeyValueInput)),
      }),
    ),
  ),
});

export interface DocumentOrigin {
  /** "registry http://..." or ".pml.json private_mcps": how messages name where the document came from. */
  where: string;
  fqdn: string;
}

function fail(origin: DocumentOrigin, path: string, message: string): never {
  throw new RegistryDocumentError(`${origin.where}: malformed descriptor for '${origin.fqdn}' at '${path}': ${message}`);
}

function isServerJson(doc: Record<string, unknown>): boolean {
  return doc.type === undefined && (Array.isArray(doc.packages) || Array.isArray(doc.remotes));
}

/** "npm:@scope/name@1.2.3" or "name@1.2.3" -> {identifier, version}. */
export function parseInstallSpec(spec: string): { identifier: string; version: string } | null {
  const s = spec.trim().replace(/^npm:/, "");
  const at = s.lastIndexOf("@");
  if (at <= 0) return null;
  return { identifier: s.slice(0, at), version: s.slice(at + 1) };
}

function packageArgs(args: v.InferOutput<typeof ArgumentInput>[] | undefined): string[] | undefined {
  if (!args?.length) return undefined;
  const out: string[] = [];
  for (const a of args) {
    const value = a.value ?? a.default;
    if (a.type === "named" && a.name) {
      out.push(a.name);
      if (value !== undefined) out.push(value);
    } else if (value !== undefined) out.push(value);
  }
  return out.length ? out : undefined;
}

function fromServerJson(doc: unknown, origin: DocumentOrigin): unknown {
  const parsed = v.safeParse(ServerJsonSchema, doc);
  if (!parsed.success) fail(origin, issuePath(parsed.issues[0]), parsed.issues[0].message);
  const sj = parsed.output;
  const packages = sj.packages ?? [];
  const index = packages.findIndex((p) => p.registryType === "npm" && (p.transport?.type ?? "stdio") === "stdio");
  if (index >= 0) {
    const p = packages[index]!;
    const version = p.version ?? sj.version;
    if (!version) fail(origin, `packages.${index}.version`, "missing (server.json gives no package or server version)");
    const warnings: string[] = [];
    if (!p.fileSha256) warnings.push("the registry pins no integrity for this package");
    return {
      type: "stdio",
      package: { registryType: "npm", identifier: p.identifier, version, args: packageArgs(p.packageArguments) },
      file_sha256: p.fileSha256,
      env_required: (p.environmentVariables ?? []).filter((e) => e.isRequired).map((e) => e.name),
      description: sj.description,
      warnings,
    };
  }
  const remote = (sj.remotes ?? []).find((r) => r.type === "streamable-http");
  if (remote) {
    const headers: Record<string, string> = {};
    for (const h of remote.headers ?? []) {
      const value = h.value ?? h.default;
      if (h.name && value !== undefined) headers[h.name] = value;
    }
    return { type: "http", url: remote.url, headers: Object.keys(headers).length ? headers : undefined, description: sj.description };
  }
  const found = [...packages.map((p) => `${p.registryType}/${p.transport?.type ?? "stdio"}`), ...(sj.remotes ?? []).map((r) => `remote/${r.type}`)];
  fail(
    origin,
    "packages",
    `no npm package with stdio transport and no streamable-http remote (found: ${found.join(", ") || "nothing"}); pml runs npm stdio servers and remote Streamable HTTP servers`,
  );
}

/** Any accepted JSON document -> a validated Descriptor (never a module: modules come as code). */
export function parseDescriptorDocument(doc: unknown, origin: DocumentOrigin): Descriptor {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) fail(origin, "(document)", "expected a JSON object");
  let d = doc as Record<string, unknown>;
  // The official registry API wraps server.json as {server: {...}, _meta: {...}}.
  if (d.type === undefined && d.server && typeof d.server === "object" && !Array.isArray(d.server)) d = d.server as Record<string, unknown>;
  let candidate: unknown = d;
  if (isServerJson(d)) candidate = fromServerJson(d, origin);
  else if (d.type === "stdio" && d.install !== undefined && d.package === undefined) {
    if (typeof d.install !== "string") fail(origin, "install", 'expected a string "name@version"');
    const spec = parseInstallSpec(d.install);
    if (!spec) fail(origin, "install", `"${d.install}" is not "name@version" (e.g. "@modelcontextprotocol/server-memory@2026.8.31")`);
    const { install: _drop, ...rest } = d;
    candidate = { ...rest, package: { registryType: "npm", ...spec } };
  } else if (d.type === "module") {
    fail(origin, "type", "module code is served as code (application/typescript), not as a JSON descriptor");
  }
  const parsed = v.safeParse(DescriptorSchema, candidate);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    fail(origin, issuePath(issue), issue.message);
  }
  const out = parsed.output;
  if (out.type === "stdio" && !out.package && !out.command) fail(origin, "package", 'a stdio descriptor needs "package" (or "install") or "command"');
  return out;
}
