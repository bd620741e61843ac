// `mcp:<namespace>[@v<version>]` for dns:lookup: an MCP server pml can reach, as a record.
import { splitSpecifier } from "../../../memory/versions.ts";
import { ToolError } from "../../../mcp/tool-result.ts";
import type { StdlibDeps } from "../stdlib-namespace.ts";

/** One version of an MCP server pml knows, and where from. */
interface ServerVersion {
  version: string;
  /** The resolution source that pins it (builtin, a registry URL, .pml.json), and/or "installed". */
  known_from: string[];
  /** What pml runs for this namespace now (the pin of the source that answers first). */
  runs: boolean;
  installed_at?: string;
}

/**
 * `mcp:<namespace>[@v<version>]`: a server pml can reach, as a record of type mcp-server. The
 * versions it knows: the pin of the source that resolves the namespace (what runs), the built-in
 * catalog's pin of the same package when another source answers first, and every version of the
 * package installed under PML_HOME (deps.json, e.g. by an earlier pml). Specifiers pick among those.
 */
export async function serverRecord(deps: Pick<StdlibDeps, "backends">, raw: string, signal: AbortSignal) {
  const { name, spec } = splitSpecifier(raw.slice(4));
  let resolved;
  try {
    resolved = await deps.backends.resolve(name, signal);
  } catch (e) {
    throw new ToolError(`MCP server not found: mcp:${name} (${(e as Error).message})`);
  }
  const d = resolved.descriptor as { type: string; description?: string; package?: { identifier: string; version: string }; url?: string; tools?: unknown[] };
  const versions = d.package ? await knownServerVersions(name, d.package, resolved.source) : [];
  let picked = versions.find((v) => v.runs);
  if (spec !== undefined) {
    if (!/^v\d+$/.test(spec) && !/^v\d+\.\d+\.\d+/.test(spec))
      throw new ToolError(`Unknown version specifier "@${spec}" for an MCP server. Use @v2026 (newest 2026.x pml knows), @v2026.8.31 (exact) or @latest (the one pml runs).`);
    picked = /^v\d+$/.test(spec) ? versions.find((v) => v.version.split(".")[0] === spec.slice(1)) : versions.find((v) => v.version === spec.slice(1));
    if (!picked) {
      const known = versions.map((v) => `${v.version} (${v.known_from.join(", ")}${v.runs ? ", runs" : ""})`).join("; ");
      throw new ToolError(`Version ${spec} not found for mcp:${name}. ${known ? `pml knows ${known}.` : "Its source gives no package version."}`);
    }
  }
  const runs = versions.find((v) => v.runs);
  return {
    record_type: "mcp-server",
    name: `mcp:${name}`,
    type: d.type,
    source: resolved.source,
    description: d.description ?? "",
    version: picked?.version ?? null,
    ...(d.package && picked ? { package: `${d.package.identifier}@${picked.version}` } : {}),
    ...(picked && runs && picked !== runs
      ? { note: `pml runs ${runs.version} (pinned by ${resolved.source}); ${picked.version} is ${picked.known_from.join(", ")} but not what a call starts.` }
      : {}),
    ...(versions.length ? { versions } : {}),
    ...(d.url ? { url: d.url } : {}),
    tools: Array.isArray(d.tools) ? d.tools.length : null,
  };
}

async function knownServerVersions(ns: string, pkg: { identifier: string; version: string }, source: string): Promise<ServerVersion[]> {
  const byVersion = new Map<string, ServerVersion>();
  const add = (version: string, from: string, extra: Partial<ServerVersion> = {}) => {
    const v = byVersion.get(version) ?? { version, known_from: [], runs: false };
    if (!v.known_from.includes(from)) v.known_from.push(from);
    byVersion.set(version, Object.assign(v, extra));
  };
  add(pkg.version, source, { runs: true });
  // Loaded here: pml stdio starts without them (the release build splits lazily loaded modules).
  const [{ builtinCatalog }, { readDepsState }, { BUILTIN_SOURCE }] = await Promise.all([
    import("../../../registry/catalog.ts"),
    import("../../../loader/install.ts"),
    import("../../../registry/resolve.ts"),
  ]);
  const catalog = Object.hasOwn(builtinCatalog, ns) ? builtinCatalog[ns]!.package : undefined;
  if (catalog?.identifier === pkg.identifier) add(catalog.version, BUILTIN_SOURCE);
  for (const p of Object.values(readDepsState().packages)) if (p.name === pkg.identifier) add(p.version, "installed", { installed_at: p.installedAt });
  return [...byVersion.values()].sort((a, b) => Bun.semver.order(b.version, a.version));
}
