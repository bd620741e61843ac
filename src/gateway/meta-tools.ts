// pml's own tools, always in tools/list: `status`, `discover`, `call`, `execute`.
import { cloudKey } from "../config/env-resolver.ts";
import type { Workspace } from "../config/workspace.ts";
import { version } from "../version.ts";
import { ContinueWorkflowSchema } from "./approvals.ts";
import type { Backends } from "./backends.ts";
import { runExecute } from "./execute.ts";
import type { ContinueWorkflow, Invoker } from "./invoke.ts";
import { parseToolName } from "./names.ts";
import type { Memory } from "../memory/memory.ts";
import type { Project } from "./project.ts";
import type { CallRequest, WireTool } from "./server.ts";
import type { Session } from "./session.ts";
import type { Surface } from "./surface.ts";
import { errorResult, textResult, type CallToolResult } from "./types.ts";

export interface MetaDeps {
  workspace: Workspace;
  project: Project;
  backends: Backends;
  surface: Surface;
  invoker: Invoker;
  memory: Memory;
}

type Handler = (session: Session, req: CallRequest) => Promise<CallToolResult>;

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
        "Lists the tool namespaces pml can reach (built-in, catalog, .pml.json private MCPs, registries) and their tools. " +
        "Give `namespace` for one namespace's tools with input schemas, or `query` to filter by words.",
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "words to match against names and descriptions" },
          namespace: { type: "string", description: "one namespace, e.g. memory" },
        },
      },
      annotations: { readOnlyHint: true },
      handler: async (_s, req) => jsonResult(await deps.backends.discover(req.arguments, req.signal)),
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
        required: ["tool"],
      },
      handler: async (session, req) => {
        const cw = req.arguments.continue_workflow as ContinueWorkflow | undefined;
        const name = typeof req.arguments.tool === "string" ? req.arguments.tool : undefined;
        const id = name ? parseToolName(name) : undefined;
        if (!id) return errorResult('`call` needs "tool": a tool id like "memory:create_entities" (see `discover`).');
        const args = req.arguments.arguments ?? {};
        if (typeof args !== "object" || args === null || Array.isArray(args)) return errorResult('"arguments" must be an object.');
        return deps.invoker.invoke(session, id, args as Record<string, unknown>, req, { calledAs: "call", continueWorkflow: cw });
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
          capability: { type: "string", description: "run a saved capability by name instead of `code`; `args` are merged over its defaults" },
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

function jsonResult(value: unknown): CallToolResult {
  return textResult(JSON.stringify(value, null, 2));
}

async function status(deps: MetaDeps) {
  const state = await deps.project.get();
  const cfg = state.config;
  return {
    pml: version,
    workspace: { root: deps.workspace.root, resolved_from: deps.workspace.source },
    config: { path: state.path, exists: state.exists, ...(state.error ? { error: state.error } : {}) },
    permissions: {
      allow: cfg.permissions?.allow ?? [],
      ask: cfg.permissions?.ask ?? [],
      deny: cfg.permissions?.deny ?? [],
      default: "ask",
    },
    mode: cloudKey({ workspace: deps.workspace.root }) ? "cloud" : "local (set PML_API_KEY in the workspace .env for cloud tools)",
    cloud: cfg.cloud?.url ?? null,
    registries: cfg.registries ?? [],
    listed_namespaces: await deps.surface.enabledNamespaces(),
    ...deps.backends.status(),
  };
}
