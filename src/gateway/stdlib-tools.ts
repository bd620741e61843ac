// pml's standard library, served in-process: `dns` (names, versions and records of capabilities
// and MCP servers), `meta` (what pml knows and how tools are used), `learn` (saving code and
// feedback). Reachable with `call`, from code as `mcp.dns.lookup({...})`, and found by `discover`;
// like every tool they pass the invoker's checks.
import { currentUser, memorySettings, type MemorySettings, VersionError } from "../memory/memory.ts";
import { capWireName, checkName } from "../memory/names.ts";
import { NameTakenError, NotFoundError, VISIBILITIES, type Capability, type Visibility } from "../memory/store.ts";
import { splitSpecifier } from "../memory/versions.ts";
import { publishAfterSave } from "../memory/team.ts";
import type { InProcessNamespace } from "./backends.ts";
import { curate } from "./curate.ts";
import type { MetaDeps } from "./meta-tools.ts";
import type { Session } from "../mcp/session.ts";
import { errorResult, textResult, ToolError, type CallContext } from "../mcp/tool-result.ts";
import { type CallToolResult, type ToolInfo } from "../mcp/types.ts";

/** dns:query counts matches up to this many; beyond, `total_at_least` says the total is a floor
 * (counting 25k matches cost as much as the query itself at 100k records). */
const QUERY_COUNT_LIMIT = 1000;

interface Tool {
  info: ToolInfo;
  run(args: Record<string, unknown>, ctx: { settings: MemorySettings; session: Session; call: CallContext }): Promise<unknown>;
}

const str = (description: string) => ({ type: "string", description });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, ...(required.length ? { required } : {}) });

/** A namespace of tools whose results are JSON; a ToolError or store error becomes an isError result. */
function namespace(deps: MetaDeps, description: string, tools: Tool[]): InProcessNamespace {
  const byName = new Map(tools.map((t) => [t.info.name, t]));
  return {
    description,
    tools: tools.map((t) => t.info),
    async run(session, action, args, call): Promise<CallToolResult> {
      const tool = byName.get(action);
      if (!tool) return errorResult(`There is no tool "${action}" here. Its tools: ${tools.map((t) => t.info.name).join(", ")}.`);
      try {
        const settings = await deps.project.memorySettings();
        const value = await tool.run(args, { settings, session, call });
        return textResult(JSON.stringify(value, null, 2), { structuredContent: value as Record<string, unknown> });
      } catch (e) {
        if (e instanceof ToolError || e instanceof NameTakenError || e instanceof NotFoundError || e instanceof VersionError) return errorResult(e.message);
        throw e;
      }
    },
  };
}

function need(args: Record<string, unknown>, key: string, example: string): string {
  const v = args[key];
  if (typeof v !== "string" || !v.trim()) throw new ToolError(`"${key}" is required, e.g. ${example}.`);
  return v.trim();
}

function strings(v: unknown, key: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || !x.trim())) throw new ToolError(`"${key}" must be an array of non-empty strings.`);
  return v as string[];
}

/** A capability as short results show it. */
export function summary(c: Capability) {
  return {
    name: c.display_name,
    fqdn: c.fqdn,
    description: c.description || c.intent,
    version: c.version_tag,
    usage_count: c.usage_count,
    success_rate: c.usage_count ? Math.round((c.success_count / c.usage_count) * 1000) / 1000 : null,
    ...(c.named ? { tool: capWireName(c) } : {}),
  };
}

export function stdlibNamespaces(deps: MetaDeps): Record<string, InProcessNamespace> {
  const resolveCap = async (settings: MemorySettings, raw: string) => {
    const found = await deps.memory.resolve(settings, raw);
    if (!found) throw new ToolError(`Capability not found: ${raw}`);
    return found;
  };

  const dns = namespace(deps, "names, versions and records of capabilities and MCP servers", [
    {
      info: {
        name: "lookup",
        description: "Looks a name up: a capability (fs:read_json, fs:read_json@v1) or an MCP server (mcp:memory, mcp:memory@v2026.8.31).",
        inputSchema: obj({ name: str("capability name (with an optional @version), or mcp:<namespace>") }, ["name"]),
      },
      async run(args, { settings, call }) {
        const raw = need(args, "name", '{"name": "fs:read_json"}');
        if (raw.startsWith("mcp:")) return serverRecord(deps, raw, call.signal);
        const found = await resolveCap(settings, raw);
        const c = found.capability;
        return {
          record_type: c.record_type,
          fqdn: c.fqdn,
          display_name: c.display_name,
          description: c.description || c.intent,
          usage_count: c.usage_count,
          success_rate: summary(c).success_rate,
          version: found.version ?? c.version_tag,
          ...(found.alias ? { deprecation: `${found.alias} is an old name of ${c.display_name}` } : {}),
        };
      },
    },
    {
      info: {
        name: "query",
        description: "Finds capabilities by creator (glob: ali*), tags (all must match), visibility, namespace and words (text).",
        inputSchema: obj({
          created_by: str("glob on the creator, e.g. ali*"),
          tags: { type: "array", items: { type: "string" } },
          visibility: { type: "string", enum: VISIBILITIES },
          namespace: str("e.g. fs"),
          text: str("words in the name, description or intent"),
          limit: { type: "integer", minimum: 1, maximum: 200 },
          offset: { type: "integer", minimum: 0 },
        }),
      },
      async run(args, { settings }) {
        if (args.visibility !== undefined && !VISIBILITIES.includes(args.visibility as Visibility)) throw new ToolError(`"visibility" must be one of ${VISIBILITIES.join(", ")}.`);
        const store = await deps.memory.open();
        const { total, total_at_least, items } = await store.query({
          scope: settings.scope,
          count_limit: QUERY_COUNT_LIMIT,
          created_by: typeof args.created_by === "string" ? args.created_by : undefined,
          tags: strings(args.tags, "tags"),
          visibility: args.visibility as Visibility | undefined,
          namespace: typeof args.namespace === "string" ? args.namespace : undefined,
          text: typeof args.text === "string" ? args.text : undefined,
          limit: typeof args.limit === "number" ? args.limit : 50,
          offset: typeof args.offset === "number" ? args.offset : 0,
        });
        const out = items.map((c) => ({ ...summary(c), tags: c.tags, created_by: c.created_by, visibility: c.visibility }));
        return total_at_least ? { total, total_at_least, items: out } : { total, items: out };
      },
    },
    {
      info: {
        name: "whois",
        description: "The whole record behind an FQDN (or a name): code, schema, defaults, tools used, routing, tags, visibility, authorship, counters, aliases, versions.",
        inputSchema: obj({ fqdn: str("e.g. local.myproject.fs.read_json.0fc0 (a name also works)") }, ["fqdn"]),
      },
      async run(args, { settings }) {
        const raw = need(args, "fqdn", '{"fqdn": "local.myproject.fs.read_json.0fc0"}');
        const { capability: c } = await resolveCap(settings, raw);
        const versions = await deps.memory.versions(c.id);
        const aliases = await (await deps.memory.open()).aliasesOf(c.id);
        return { ...c, aliases, versions: versions.map((v) => ({ version: v.version_tag, created_at: v.created_at, created_by: v.created_by, change_summary: v.change_summary })) };
      },
    },
    {
      info: {
        name: "history",
        description: "A capability's versions, newest first, each with its change summary and a unified diff of the code against the version before.",
        inputSchema: obj({ name: str("e.g. fs:read_json") }, ["name"]),
      },
      async run(args, { settings }) {
        const raw = need(args, "name", '{"name": "fs:read_json"}');
        const { capability: c } = await resolveCap(settings, splitSpecifier(raw).name);
        const versions = await deps.memory.versions(c.id);
        const { createTwoFilesPatch } = await import("diff");
        return {
          name: c.display_name,
          versions: versions.map((v, i) => {
            const prev = versions[i + 1];
            return {
              version: v.version_tag,
              created_at: v.created_at,
              created_by: v.created_by,
              change_summary: v.change_summary,
              diff: prev ? createTwoFilesPatch(`${c.display_name}@${prev.version_tag}`, `${c.display_name}@${v.version_tag}`, `${prev.code}\n`, `${v.code}\n`, "", "", { context: 3 }) : null,
            };
          }),
        };
      },
    },
    {
      info: {
        name: "rename",
        description: "Renames a capability: {name: \"fs:read_json\", newName: \"json:read_file\"}. The old name keeps working as a deprecated alias.",
        inputSchema: obj({ name: str("the current (or an old) name"), newName: str("namespace:action_target") }, ["name", "newName"]),
      },
      async run(args, { settings }) {
        const done = await deps.memory.rename(settings, need(args, "name", '{"name": "fs:read_json"}'), need(args, "newName", '{"newName": "json:read_file"}'));
        return {
          renamed: done.old,
          to: done.capability.display_name,
          fqdn: done.capability.fqdn,
          tool: capWireName(done.capability),
          note: `${done.old} keeps working as a deprecated alias of ${done.capability.display_name}.`,
          ...(done.warning ? { warnings: [done.warning] } : {}),
        };
      },
    },
    {
      info: {
        name: "tag",
        description: "Adds and removes tags of a capability: {name, add: [\"json\"], remove: [\"old\"]}.",
        inputSchema: obj({ name: str("e.g. fs:read_json"), add: { type: "array", items: { type: "string" } }, remove: { type: "array", items: { type: "string" } } }, ["name"]),
      },
      async run(args, { settings }) {
        const { capability } = await resolveCap(settings, need(args, "name", '{"name": "fs:read_json"}'));
        const add = strings(args.add, "add").map((t) => t.trim().toLowerCase());
        const remove = strings(args.remove, "remove").map((t) => t.trim().toLowerCase());
        if (!add.length && !remove.length) throw new ToolError('Give "add" and/or "remove": arrays of tags.');
        const c = await (await deps.memory.open()).tag(capability.id, add, remove, currentUser());
        return { name: c.display_name, tags: c.tags };
      },
    },
    {
      info: {
        name: "fork",
        description: "Copies a capability into another name in this project (it remembers forked_from): {name, newName}.",
        inputSchema: obj({ name: str("the capability to copy (a name or an FQDN)"), newName: str("namespace:action_target") }, ["name", "newName"]),
      },
      async run(args, { settings }) {
        const { capability } = await resolveCap(settings, need(args, "name", '{"name": "fs:read_json"}'));
        const checked = checkName(need(args, "newName", '{"newName": "fs:read_json_strict"}'), settings.strictNamespaces);
        if (!checked.ok) throw new ToolError(checked.error);
        const c = await deps.memory.fork(settings, capability.id, checked.name);
        return { ...summary(c), forked_from: capability.fqdn, ...(checked.warning ? { warnings: [checked.warning] } : {}) };
      },
    },
  ]);

  const meta = namespace(deps, "what pml knows and how its tools are used", [
    {
      info: { name: "tools", description: "Every tool pml knows without starting anything, by namespace.", inputSchema: obj({ namespace: str("only this namespace") }) },
      async run(args) {
        const only = typeof args.namespace === "string" ? args.namespace : undefined;
        const byNs: Record<string, string[]> = {};
        for (const { ns, tool } of deps.backends.allKnownTools()) if (!only || ns === only) (byNs[ns] ??= []).push(tool.name);
        return { namespaces: byNs };
      },
    },
    {
      info: { name: "servers", description: "MCP servers: installed, running in the pool, remote sessions.", inputSchema: obj({}) },
      async run() {
        return deps.backends.status();
      },
    },
    {
      info: {
        name: "stats",
        description: "Tool usage from the tool_usage log: calls, success rate and mean latency per tool (real tools and capabilities).",
        inputSchema: obj({ since: str("ISO date or time, e.g. 2026-11-22") }),
      },
      async run(args) {
        await deps.memory.flush();
        const since = typeof args.since === "string" ? args.since : undefined;
        if (since !== undefined && Number.isNaN(Date.parse(since))) throw new ToolError('"since" must be an ISO date or time, e.g. "2026-11-22".');
        const rows = await (await deps.memory.open()).usageStats(since);
        return {
          tools: rows.map((r) => ({ ...r, success_rate: Math.round((r.successes / r.calls) * 1000) / 1000, avg_latency_ms: Math.round(r.avg_latency_ms * 100) / 100 })),
        };
      },
    },
  ]);

  const learn = namespace(deps, "teaching pml: save code as a capability, feedback on runs", [
    {
      info: {
        name: "save",
        description: "Saves code as a named capability without running it (it must parse): {name, code, intent, description?, parameters?, args?, update?, version_tag?}.",
        inputSchema: obj(
          {
            name: str("namespace:action_target"),
            code: str("the body of an async function with mcp and args in scope"),
            intent: str("one line: what it is for"),
            description: str("what it does (default: intent)"),
            parameters: { type: "object", description: "JSON Schema of args" },
            args: { type: "object", description: "default args" },
            update: { type: "boolean", description: "save as a new version of an existing name" },
            version_tag: str("explicit version, greater than the current"),
            change_summary: str("what changed (for a new version)"),
            scope: { type: "string", enum: ["workspace", "user"], description: "workspace (default): this workspace only; user: every workspace of yours reads it" },
          },
          ["name", "code"],
        ),
      },
      async run(args, { settings }) {
        const code = need(args, "code", '{"code": "return await mcp.filesystem.read_file({path: args.path})"}');
        const problem = syntaxProblem(code);
        if (problem) throw new ToolError(`The code does not parse, so it was not saved: ${problem}`);
        const defaults = args.args ?? {};
        if (typeof defaults !== "object" || defaults === null || Array.isArray(defaults)) throw new ToolError('"args" must be an object.');
        const plan = await deps.memory.plan(settings, { code, name: args.name ?? "", parameters: args.parameters, update: args.update, version_tag: args.version_tag, change_summary: args.change_summary, scope: args.scope });
        if (!plan.ok) throw new ToolError(plan.error.replace(" Nothing was run.", " Nothing was saved."));
        if (!plan.capture) throw new ToolError(".pml.json memory.capture is false: nothing is saved.");
        const saved = await deps.memory.capture(settings, plan, {
          code,
          args: defaults as Record<string, unknown>,
          intent: typeof args.intent === "string" ? args.intent : undefined,
          description: typeof args.description === "string" ? args.description : undefined,
          toolsUsed: toolsIn(code),
          latencyMs: 0,
          ran: false,
        });
        if (saved.kind === "taken") throw new ToolError(`Capability name '${saved.name}' already exists`);
        const pushed = await publishAfterSave((await deps.project.config()), deps.workspace.root, saved);
        const warnings = [...plan.warnings, ...(pushed && "warning" in pushed && pushed.warning ? [pushed.warning] : [])];
        return {
          ...summary(saved.capability),
          saved: saved.kind === "created" ? "new" : saved.version ? `version ${saved.version.tag}` : "unchanged",
          ...(pushed && "published" in pushed ? { published: pushed.published } : {}),
          ...(warnings.length ? { warnings } : {}),
        };
      },
    },
    {
      info: { name: "curate", description: CURATE_DESCRIPTION, inputSchema: CURATE_SCHEMA },
      async run(args, { settings, call }) {
        return curate(deps, settings, args, { signal: call.signal, origin: call.origin });
      },
    },
    {
      info: {
        name: "feedback",
        description: "Reports how a capability run went when pml could not see it (e.g. its result was wrong): {name, success, latency_ms}.",
        inputSchema: obj({ name: str("e.g. fs:read_json"), success: { type: "boolean" }, latency_ms: { type: "number", minimum: 0 } }, ["name", "success"]),
      },
      async run(args, { settings }) {
        const { capability } = await resolveCap(settings, need(args, "name", '{"name": "fs:read_json"}'));
        if (typeof args.success !== "boolean") throw new ToolError('"success" must be true or false.');
        const latency = args.latency_ms === undefined ? 0 : args.latency_ms;
        if (typeof latency !== "number" || latency < 0) throw new ToolError('"latency_ms" must be a number >= 0.');
        await deps.memory.recordRun(capability.id, args.success, latency);
        const c = (await (await deps.memory.open()).byId(capability.id))!;
        return summary(c);
      },
    },
  ]);

  return { dns, meta, learn };
}

export const CURATE_DESCRIPTION =
  "Proposes names for unnamed_… capabilities (from the tools they use, their intent and code; refined by a language model when one is available) " +
  "and applies them: mode suggest -> [{id, currentName, suggestedName, confidence, reasoning}]; auto -> applies those above 0.8; apply -> takes names: [{id, name}].";

export const CURATE_SCHEMA = obj({
  mode: { type: "string", enum: ["suggest", "auto", "apply"], description: "default suggest" },
  filter: obj({ unnamed_only: { type: "boolean", description: "default true" }, namespace: str("only this namespace"), min_usage: { type: "number", minimum: 0 } }),
  names: { type: "array", items: obj({ id: str("capability id from suggest"), name: str("ns:action_target") }, ["id", "name"]), description: "for mode apply" },
});

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
async function serverRecord(deps: MetaDeps, raw: string, signal: AbortSignal) {
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
    ...(picked && runs && picked !== runs ? { note: `pml runs ${runs.version} (pinned by ${resolved.source}); ${picked.version} is ${picked.known_from.join(", ")} but not what a call starts.` } : {}),
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
  const [{ builtinCatalog }, { readDepsState }, { BUILTIN_SOURCE }] = await Promise.all([import("../registry/catalog.ts"), import("../loader/install.ts"), import("../registry/resolve.ts")]);
  const catalog = Object.hasOwn(builtinCatalog, ns) ? builtinCatalog[ns]!.package : undefined;
  if (catalog?.identifier === pkg.identifier) add(catalog.version, BUILTIN_SOURCE);
  for (const p of Object.values(readDepsState().packages)) if (p.name === pkg.identifier) add(p.version, "installed", { installed_at: p.installedAt });
  return [...byVersion.values()].sort((a, b) => Bun.semver.order(b.version, a.version));
}

let transpiler: Bun.Transpiler | undefined;
function syntaxProblem(code: string): string | undefined {
  transpiler ??= new Bun.Transpiler({ loader: "ts" });
  try {
    transpiler.transformSync(`async function __pml(mcp, args) {\n${code}\n}`);
    return undefined;
  } catch (e) {
    return (e as Error).message.split("\n")[0];
  }
}

/** Tool ids the code calls as `mcp.ns.action(` (what learn:save records as tools used). */
export function toolsIn(code: string): string[] {
  const out = new Set<string>();
  for (const m of code.matchAll(/\bmcp\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\s*\(/g)) out.add(`${m[1]}:${m[2]}`);
  return [...out];
}
