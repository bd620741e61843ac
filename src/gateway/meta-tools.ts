// pml's own tools, always in tools/list: `status`, `discover`, `call`, `execute`.
import { cloudKey } from "../config/settings.ts";
import type { Workspace } from "../config/workspace.ts";
import type { InputRequiredResult } from "../mcp/protocol.ts";
import { version } from "../version.ts";
import { ContinueWorkflowSchema } from "../policy/approvals.ts";
import type { Backends } from "./backends.ts";
import type { Resolved } from "../registry/resolved.ts";
import { runExecute } from "./execute.ts";
import { curate } from "./curate.ts";
import { CURATE_DESCRIPTION, CURATE_SCHEMA, summary } from "./stdlib-tools.ts";
import type { ContinueWorkflow, Invoker } from "./invoke.ts";
import { parseToolName } from "../mcp/tool-names.ts";
import { memorySettings, type Memory } from "../memory/memory.ts";
import { capWireName, parseCallName } from "../memory/names.ts";
import type { ProjectConfig } from "../config/pml-json.ts";
import type { TeamHit } from "../memory/team.ts";
import type { Project } from "../policy/project.ts";
import type { CallRequest, WireTool } from "./server.ts";
import type { Session } from "../mcp/session.ts";
import type { Surface } from "./surface.ts";
import { errorResult, textResult, ToolError } from "../mcp/tool-result.ts";
import type { CallToolResult } from "../mcp/types.ts";

export interface MetaDeps {
  workspace: Workspace;
  project: Project;
  backends: Backends;
  surface: Surface;
  invoker: Invoker;
  memory: Memory;
}

type Handler = (session: Session, req: CallRequest) => Promise<CallToolResult | InputRequiredResult>;

export function metaTools(deps: MetaDeps) {
  const tools: Array<WireTool & { handler: Handler }> = [
    {
      name: "status",
      title: "pml status",
      description:
        "Shows pml's workspace, the .pml.json in force (or its error), permissions, mode (local or cloud), registries, and installed/running servers.",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
      handler: async () => jsonResult(await status(deps)),
    },
    {
      name: "discover",
      title: "Find tools",
      description:
        "Finds tools and learned capabilities. `query`: say in your own words what you want done " +
        "(\"keep a backup copy of a file before editing it\"); returns the best matches, each with the id to call. " +
        "`namespace`: one namespace's tools with input schemas. Neither: the namespaces pml can reach.",
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "what you want to do, in your own words" },
          namespace: { type: "string", description: "one namespace, e.g. memory" },
          limit: { type: "integer", minimum: 1, maximum: 50, description: "how many matches for a query (default 10)" },
        },
      },
      annotations: { readOnlyHint: true },
      handler: async (session, req) => {
        const { query, namespace } = req.arguments;
        if (typeof query === "string" && query.trim() && namespace === undefined) return jsonResult(await discoverQuery(deps, query, req.arguments.limit));
        const startToList = (r: Resolved) => deps.invoker.startToList(session, r, { signal: req.signal, progress: req.progress, origin: req.origin });
        return jsonResult(await deps.backends.discover(req.arguments, req.signal, startToList));
      },
    },
    {
      name: "call",
      title: "Call any tool",
      description:
        "Calls any tool pml can reach by its id (namespace:action, e.g. memory:create_entities), including tools not in this list. " +
        "Same permissions and approval as a direct call.",
      inputSchema: {
        type: "object",
        properties: {
          tool: { type: "string", description: "namespace:action (or namespace__action)" },
          arguments: { type: "object", description: "the tool's arguments" },
          continue_workflow: ContinueWorkflowSchema,
        },
        required: [],
      },
      handler: async (session, req) => {
        const cw = req.arguments.continue_workflow as ContinueWorkflow | undefined;
        // A continuation may name only the workflow: the tool is the one it was issued for.
        const name = typeof req.arguments.tool === "string" ? req.arguments.tool : cw ? deps.invoker.workflowTool(session, cw.workflow_id) : undefined;
        const id = name ? parseToolName(name) : undefined;
        if (!id) return errorResult('`call` needs "tool": a tool id like "memory:create_entities" (see `discover`).');
        const args = req.arguments.arguments ?? {};
        if (typeof args !== "object" || args === null || Array.isArray(args)) return errorResult('"arguments" must be an object.');
        return deps.invoker.invoke(session, id, args as Record<string, unknown>, req, { calledAs: "call", continueWorkflow: cw });
      },
    },
    {
      name: "list_capabilities",
      title: "List learned capabilities",
      description: "Lists the capabilities pml learned in this project (named and unnamed_…), with usage and version.",
      inputSchema: {
        type: "object",
        properties: {
          named_only: { type: "boolean", description: "leave out unnamed_… ones" },
          namespace: { type: "string", description: "only this namespace, e.g. fs" },
          sort: { type: "string", enum: ["name", "usage", "created"], description: "default name" },
          limit: { type: "integer", minimum: 1, maximum: 200, description: "default 50" },
          offset: { type: "integer", minimum: 0 },
        },
      },
      annotations: { readOnlyHint: true },
      handler: async (_s, req) => {
        const a = req.arguments;
        if (a.sort !== undefined && !["name", "usage", "created"].includes(a.sort as string)) return errorResult('"sort" must be "name", "usage" or "created".');
        for (const k of ["limit", "offset"]) if (a[k] !== undefined && (typeof a[k] !== "number" || !Number.isInteger(a[k]) || (a[k] as number) < (k === "limit" ? 1 : 0))) return errorResult(`"${k}" must be an integer${k === "limit" ? " >= 1" : " >= 0"}.`);
        const settings = await deps.project.memorySettings();
        const { total, items } = await (await deps.memory.open()).query({
          scope: settings.scope,
          named_only: a.named_only === true,
          namespace: typeof a.namespace === "string" ? a.namespace : undefined,
          sort: (a.sort as "name" | "usage" | "created" | undefined) ?? "name",
          limit: Math.min((a.limit as number | undefined) ?? 50, 200),
          offset: (a.offset as number | undefined) ?? 0,
        });
        return jsonResult({ total, items: items.map((c) => ({ ...summary(c), tools_used: c.tools_used, created_at: c.created_at })) });
      },
    },
    {
      name: "curate_capabilities",
      title: "Name learned capabilities",
      description: CURATE_DESCRIPTION,
      inputSchema: CURATE_SCHEMA,
      handler: async (_s, req) => {
        const settings = await deps.project.memorySettings();
        try {
          return jsonResult(await curate(deps, settings, req.arguments, { signal: req.signal, origin: req.origin }));
        } catch (e) {
          if (e instanceof ToolError) return errorResult(e.message);
          throw e;
        }
      },
    },
    {
      name: "execute",
      title: "Run code that calls tools",
      description:
        "Runs TypeScript/JavaScript as the body of an async function in pml's sandbox, with `args` and `mcp` in scope: " +
        "`const pkg = JSON.parse(await mcp.filesystem.read_file({path: \"package.json\"}))`. A call returns the tool's structured content, else its text. " +
        "The result is the value you return (as JSON) and the tools used. " +
        "No network, process or file access except through mcp tools; same permissions and approval as direct calls. " +
        "Code that works is remembered: give `name` (namespace:action_target, e.g. fs:read_json; namespaces fs, api, db, transform, git, shell, ai, util) " +
        "and it becomes the tool cap__<namespace>__<action>; `capability` + `args` runs a saved one.",
      inputSchema: {
        type: "object",
        properties: {
          code: { type: "string", description: "the body of an async function; `return` the result" },
          intent: { type: "string", description: "one line: what this code is for" },
          args: { type: "object", description: "a value available as `args` in the code" },
          name: { type: "string", description: "save it as this capability: namespace:action_target, lower snake case" },
          description: { type: "string", description: "what the capability does (default: intent)" },
          parameters: { type: "object", description: "JSON Schema of `args` (default: inferred from this run's args, which become defaults)" },
          routing: { type: "string", enum: ["local", "cloud"], description: "where the capability runs (default: inherited from the tools it uses)" },
          capability: { type: "string", description: "run a saved capability by name instead of `code` (fs:read_json, fs:read_json@v1, @v1.2.0, @2026-11-22); `args` are merged over its defaults" },
          update: { type: "boolean", description: "with `name` of an existing capability: save this code as its new version" },
          version_tag: { type: "string", description: "explicit version for `update` (must be greater than the current)" },
          change_summary: { type: "string", description: "what changed, for `update`" },
          continue_workflow: ContinueWorkflowSchema,
        },
      },
      handler: (session, req) => runExecute(deps, session, req),
    },
  ];
  const byName = new Map(tools.map((t) => [t.name, t.handler]));
  return {
    list: (): WireTool[] => tools.map(({ handler: _, ...t }) => t),
    get: (name: string): Handler | undefined => byName.get(name),
  };
}

async function discoverQuery(deps: MetaDeps, query: string, limit: unknown) {
  const n = typeof limit === "number" && Number.isInteger(limit) ? Math.min(Math.max(limit, 1), 50) : 10;
  const tools = deps.backends.allKnownTools().map(({ ns, tool }) => ({ ns, name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
  const config = (await deps.project.config());
  const settings = memorySettings(config, deps.workspace.root);
  const [{ results, warning }, team] = await Promise.all([deps.memory.discover(settings, query, tools, n), teamMatches(config, deps.workspace.root, query, n)]);
  // The team registry's capabilities come after this project's own (a name held here wins).
  const local = new Set(results.map((r: { id?: string }) => r.id));
  const shared = team.hits
    .filter((h) => !local.has(h.name))
    .map((h) => {
      const name = parseCallName(h.name);
      return { id: h.name, kind: "team capability", description: h.description, ...(name ? { tool: capWireName(name) } : {}), fqdn: h.fqdn, org: h.org, version: h.version, by: h.by };
    });
  return {
    query,
    results: [...results, ...shared],
    ...(team.note ? { team_registry: team.note } : {}),
    how: "call a tool with `call` {tool: id, arguments}; a capability with its tool (cap__ns__action), `call` {tool: \"cap:<id>\"} or `execute` {capability: id, args}; `discover` {namespace} shows a namespace's input schemas",
    ...(warning ? { warning } : {}),
  };
}

function jsonResult(value: unknown): CallToolResult {
  return textResult(JSON.stringify(value, null, 2));
}

/** What status says about cloud mode, naming what is missing for it to work. */
function modeOf(hasKey: boolean, url: string | undefined): string {
  if (hasKey && url) return "cloud";
  if (hasKey) return 'local: PML_API_KEY is set but .pml.json has no cloud.url; add "cloud": {"url": "https://…"} to use cloud tools';
  return "local (set PML_API_KEY in the workspace .env for cloud tools)";
}

async function status(deps: MetaDeps) {
  const state = await deps.project.get();
  const cfg = state.config;
  return {
    pml: version,
    workspace: { root: deps.workspace.root, resolved_from: deps.workspace.source },
    config: { path: state.path, exists: state.exists, ...(state.error ? { error: state.error } : {}), ...(state.warnings ? { warnings: state.warnings } : {}) },
    permissions: {
      allow: cfg.permissions?.allow ?? [],
      ask: cfg.permissions?.ask ?? [],
      deny: cfg.permissions?.deny ?? [],
      default: "ask",
    },
    mode: modeOf(!!cloudKey({ workspace: deps.workspace.root }), cfg.cloud?.url),
    cloud: cfg.cloud?.url ?? null,
    registries: cfg.registries ?? [],
    listed_namespaces: await deps.surface.enabledNamespaces(),
    ...deps.backends.status(),
  };
}

/** The team registry's capabilities for a query, when cloud.url is one (see memory/team.ts). */
async function teamMatches(config: ProjectConfig, workspace: string, query: string, n: number): Promise<{ hits: TeamHit[]; note?: string }> {
  const { searchTeam, teamRegistry } = await import("../memory/team.ts");
  const team = teamRegistry(config, workspace);
  return team ? searchTeam(team, query, n) : { hits: [] };
}
