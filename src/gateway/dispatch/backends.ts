// Where a resolved tool actually runs: a pooled stdio server (installed on first use), module
// code in the sandbox, or the cloud. Heavy parts (pool, sandbox, registry client) load on first use.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { workspaceId, type EnvPlan } from "../../env/env-resolver.ts";
import type { ProjectConfig } from "../../config/pml-json.ts";
import { builtinCatalog } from "../../registry/catalog.ts";
import type { Descriptor, HttpDescriptor, ModuleDescriptor, StdioDescriptor } from "../../registry/descriptor.ts";
import type { Resolver } from "../../registry/resolve.ts";
import type { Resolved } from "../../registry/resolved.ts";
import { isCloudRouted } from "../../routing/route.ts";
import { builtinModules } from "../../sandbox/builtins/builtins.ts";
import type { Project } from "../../policy/project.ts";
import type { ForeignCheck, ToolCatalog } from "../../policy/gate.ts";
import type { ToolId } from "../../mcp/tool-names.ts";
import { sessionOf, type Session } from "../../mcp/session.ts";
import { clientOf, ToolError, valueResult, type CallContext } from "../../mcp/tool-result.ts";
import type { CallToolResult, ToolInfo } from "../../mcp/types.ts";
import { ToolHolds } from "./tool-holds.ts";
import type { LaneCall } from "./lane.ts";
import { InstalledNamespaces } from "./installed.ts";

/** pml's own namespaces served in this process (`cap`: learned capabilities, `dns`: their names). */
export interface InProcessNamespace {
  description: string;
  /** Its tools check their own arguments (defineTool), so the invoker does not check them again. */
  readonly validatesArguments?: boolean;
  /** Its tools for `discover`, when it has a fixed list. */
  tools?: ToolInfo[];
  run(session: Session, action: string, args: Record<string, unknown>, call: CallContext): Promise<CallToolResult>;
  /** Someone else's code that `action` would run (the gate asks before it does). */
  foreignCode?(action: string): Promise<ForeignCheck | undefined>;
}

type Pool = import("../../pool/pool.ts").Pool;
type RemoteServers = import("../../remote/remote-servers.ts").RemoteServers;
type ServerRequestHandler = import("../../pool/pool.ts").ServerRequestHandler;
type LaunchSource = import("../../pool/launch.ts").LaunchSource;

export class Backends implements ToolCatalog {
  readonly builtinModules: Record<string, ModuleDescriptor> = builtinModules();
  /** Built-in modules and the embedded catalog: what every registry falls back to. */
  readonly builtins: Record<string, Descriptor> = Object.assign(Object.create(null), builtinCatalog, this.builtinModules);
  private pool?: Pool;
  private remote?: RemoteServers;
  private resolver?: { generation: number; resolver: Resolver };
  private readonly toolsSeen = new Map<string, ToolInfo[]>();
  /** Per stdio namespace: the key of its definition (pool/tool-lists.ts) and the list last kept for it. */
  private readonly toolLists = new Map<string, { key: string; kept?: readonly ToolInfo[]; fromDisk?: boolean }>();
  /** Per namespace, the server's list last compared with its pins (a new one is compared again). */
  private readonly noted = new Map<string, readonly ToolInfo[]>();
  /** Tool pinning: what changed since the user approved it is held (./tool-holds.ts). */
  readonly holds: ToolHolds;
  /** Namespaces pml serves itself; they shadow any registry namespace of the same name. Without a
   * prototype: a namespace named "constructor" or "toString" is simply not one of them. */
  readonly inProcess: Record<string, InProcessNamespace> = Object.create(null);
  /** Requests from child servers (sampling, elicitation, roots); set by the host. */
  onServerRequest?: ServerRequestHandler;

  constructor(
    private readonly workspace: string,
    private readonly project: Project,
  ) {
    this.holds = new ToolHolds(workspace);
  }

  async getResolver(): Promise<Resolver> {
    const state = await this.project.get();
    if (!this.resolver || this.resolver.generation !== state.generation) {
      const { createResolver } = await import("../../registry/resolve.ts");
      this.resolver = { generation: state.generation, resolver: createResolver({ config: state.config, workspace: this.workspace, builtins: this.builtins }) };
    }
    return this.resolver.resolver;
  }

  async resolve(ns: string, signal: AbortSignal): Promise<Resolved> {
    const own = this.inProcess[ns];
    if (own) return { ns, descriptor: { type: "inprocess", description: own.description, env_required: [], tools: own.tools }, source: "pml", origin: "user" };
    const { descriptor, source, origin } = await (await this.getResolver()).resolve(ns, { signal });
    this.holds.track(ns, descriptor);
    if (descriptor.tools?.length) this.toolsSeen.set(ns, descriptor.tools as ToolInfo[]);
    else if (descriptor.type === "stdio") await this.adoptToolList(ns, descriptor);
    return { ns, descriptor, source, origin: origin ?? "other" };
  }

  /** A stdio server's list as kept by an earlier session, for its current definition; a list seen
   * for another definition (the entry was edited) is dropped. */
  private async adoptToolList(ns: string, d: StdioDescriptor): Promise<void> {
    const { readToolList, toolListKey } = await import("../../pool/tool-lists.ts");
    const key = toolListKey(d);
    if (this.toolLists.get(ns)?.key === key) return;
    const kept = readToolList(ns, key);
    this.toolLists.set(ns, { key, kept, fromDisk: kept !== undefined });
    if (kept) this.toolsSeen.set(ns, kept);
    else this.toolsSeen.delete(ns);
    if (kept) await this.holds.note(ns, kept, false);
  }

  /** The list a running server gave: known from now on, compared with its pins, and kept for the
   * next sessions. Undefined when it is the list already noted (the hot path). */
  private noteServerTools(ns: string, tools: ToolInfo[] | undefined): Promise<unknown> | undefined {
    if (!tools || this.noted.get(ns) === tools) return;
    this.noted.set(ns, tools);
    this.toolsSeen.set(ns, tools);
    const pinning = this.holds.note(ns, tools, true);
    const entry = this.toolLists.get(ns);
    if (!entry || entry.kept === tools) return pinning;
    entry.kept = tools;
    entry.fromDisk = false;
    return Promise.all([pinning, import("../../pool/tool-lists.ts").then(({ writeToolList }) => writeToolList(ns, entry.key, tools))]);
  }

  /** `env` is what the environment resolver granted this call (src/env/env-resolver.ts). */
  run(r: Resolved, action: string, args: Record<string, unknown>, call: CallContext, env: EnvPlan): Promise<CallToolResult> {
    const d = r.descriptor;
    switch (d.type) {
      case "inprocess":
        throw new Error(`${r.ns} is served in-process: the invoker runs it with its session`);
      case "stdio":
        return this.runStdio(r.ns, d, action, args, call, env);
      case "module":
        if (isCloudRouted(r.ns, d, action)) return this.runCloud(r, action, args, call, env);
        return this.runModule(r.ns, d, action, args, call, env);
      case "cloud":
        return this.runCloud(r, action, args, call, env);
      case "http":
        // An OAuth client secret is the user's: a registry's entry cannot name a variable that
        // pml would send to an authorization server of the entry's choosing.
        return this.runRemote(r.ns, r.origin === "user" || !d.oauth ? d : { ...d, oauth: { client_id: d.oauth.client_id } }, action, args, call, env);
    }
  }

  private async runRemote(ns: string, d: HttpDescriptor, action: string, args: Record<string, unknown>, call: CallContext, env: EnvPlan) {
    const { RemoteServers } = await import("../../remote/remote-servers.ts");
    if (!this.remote) {
      const cfg = await this.project.config();
      this.remote ??= new RemoteServers({
        workspace: this.workspace,
        timeoutMs: (cfg.pool?.call_timeout_s ?? 120) * 1000,
        // A remote's sampling and elicitation go where a pooled server's go (the caller's client).
        onServerRequest: (ns, method, params, origins) => {
          if (!this.onServerRequest) throw Object.assign(new Error(`pml has no client to relay ${method} to`), { code: -32601 });
          return this.onServerRequest(ns, method, params, origins);
        },
        onToolsChanged: (ns, tools) => void this.noteServerTools(ns, tools),
        // A sign-in link goes to the client as URL-mode elicitation when it can show one: a
        // request under 2025-11-25; under 2026-07-28 the call stops with an input_required result
        // (the relay throws), and its retry carries the answer.
        onAuthorization: async (ns, url, elicitationId, ctx) => {
          const session = sessionOf(ctx);
          if (!session?.supportsUrlElicitation()) return "not shown";
          const params = { mode: "url", message: `Sign in to ${ns} so pml can call its tools.`, url: url.href, elicitationId };
          let answer: unknown;
          if (session.modern) answer = await ctx.origin!.relay("elicitation/create", params, ctx.signal);
          else {
            const res = await session.request("elicitation/create", params, { timeoutMs: 60_000, signal: ctx.signal });
            if (res.error) return "not shown";
            answer = res.result;
          }
          const action = (answer as { action?: string } | undefined)?.action;
          return action === "accept" ? "accepted" : action === "decline" || action === "cancel" ? "declined" : "not shown";
        },
      });
    }
    // Its list is compared with the pins before a call reaches it.
    await this.noteServerTools(ns, await this.remote.listTools(ns, d, env, call));
    const stopped = this.holds.heldTool(ns, action) && (await this.holds.stop(ns, action, call));
    if (stopped) return stopped;
    const result = await this.remote.call(ns, d, action, args, call, env);
    await this.noteServerTools(ns, this.remote.cachedTools(ns));
    return result;
  }

  /** Not async on purpose: with the server up and its tools noted, a call is the pool's call
   * itself, with no launcher made (a closure and its scope per call, used only to start a server).
   * The waiting branches are methods of their own: a closure written here would give every call
   * a scope object, the branch taken or not. */
  private runStdio(ns: string, d: StdioDescriptor, action: string, args: Record<string, unknown>, call: CallContext, env: EnvPlan): Promise<CallToolResult> {
    const pool = this.pool;
    if (pool === undefined || !pool.isReady(ns)) return this.runStdioLater(ns, d, action, args, call, env);
    // A list the server gave since the last call (it changed its tools) is compared with the pins
    // before this call goes to it.
    const noted = this.noteServerTools(ns, pool.cachedTools(ns));
    if (noted === undefined && !this.holds.heldTool(ns, action)) {
      const running = pool.callRunning(ns, action, args, call);
      if (running !== undefined) return running;
    }
    return this.callStdio(noted, pool, ns, this.launcher(ns, d, env), action, args, call);
  }

  /** The short lane's call (./lane.ts), sent when nothing stands before the running server (its
   * list noted and compared with the pins, the tool not held); false: take `run`. */
  relayStdio(ns: string, action: string, args: Record<string, unknown>, call: LaneCall): boolean {
    const pool = this.pool;
    return pool !== undefined && pool.cachedTools(ns) === this.noted.get(ns) && !this.holds.heldTool(ns, action) && pool.relayRunning(ns, action, args, call);
  }

  /** The pool to load, or the server to start (which gives its list first). */
  private async runStdioLater(ns: string, d: StdioDescriptor, action: string, args: Record<string, unknown>, call: CallContext, env: EnvPlan): Promise<CallToolResult> {
    const pool = this.pool ?? (await this.getPool());
    if (pool.isReady(ns)) return this.runStdio(ns, d, action, args, call, env);
    const launch = this.launcher(ns, d, env);
    const noted = pool.started(ns, launch, call).then((tools) => this.noteServerTools(ns, tools));
    return this.callStdio(noted, pool, ns, launch, action, args, call);
  }

  /** After `noted` (the server's list compared with the pins): a held tool is stopped, else called. */
  private async callStdio(noted: unknown, pool: Pool, ns: string, launch: LaunchSource, action: string, args: Record<string, unknown>, call: CallContext): Promise<CallToolResult> {
    await noted;
    const stopped = this.holds.heldTool(ns, action) ? await this.holds.stop(ns, action, call) : undefined;
    return stopped ?? pool.call(ns, launch, action, args, call);
  }

  /** What the pool calls when it has to start the server (install on first use). */
  private launcher(ns: string, d: StdioDescriptor, env: EnvPlan): LaunchSource {
    return async (progress: (m: string) => void, signal: AbortSignal) => {
      const { ensureInstalled } = await import("../../loader/install.ts");
      const spec = await ensureInstalled(d, { signal, progress, workspace: this.workspace, name: ns, plan: env });
      const { confineServer, serverDataDir } = await import("../../pool/confine-server.ts");
      // Catalog servers keep their state there, one folder per project (MEMORY_FILE_PATH), confined or not.
      mkdirSync(join(serverDataDir(ns), workspaceId(this.workspace)), { recursive: true, mode: 0o700 });
      if (d.confine === false) return spec;
      const network = (await this.project.config()).sandbox?.server_net?.includes(ns) === true;
      return confineServer(spec, { ns, workspace: this.workspace, network, ownCommand: env.request.origin === "user" });
    };
  }

  /** Starts (installing on first use) a stdio server to read its tools, for `discover`. */
  async listStdio(r: Resolved, env: EnvPlan, ctx: Partial<CallContext>): Promise<ToolInfo[]> {
    const pool = await this.getPool();
    const tools = await pool.listTools(r.ns, this.launcher(r.ns, r.descriptor as StdioDescriptor, env), ctx);
    await this.noteServerTools(r.ns, tools); // kept before discover answers
    return tools;
  }

  private async runModule(ns: string, d: ModuleDescriptor, action: string, args: Record<string, unknown>, call: CallContext, env: EnvPlan) {
    const { runModuleTool } = await import("../../sandbox/module-runner.ts");
    const cfg = await this.project.config();
    const value = await runModuleTool({
      ns,
      descriptor: d,
      action,
      args,
      workspace: this.workspace,
      signal: call.signal,
      owner: clientOf(call.origin?.session),
      limits: await this.sandboxLimits(cfg),
      callTool: call.callTool,
      netAllow: cfg.sandbox?.net_allow ?? [],
      shellNet: cfg.sandbox?.shell_net === true,
      env: env.values,
      grant: cfg.sandbox?.grants && Object.hasOwn(cfg.sandbox.grants, ns) ? cfg.sandbox.grants[ns] : undefined,
    });
    return valueResult(value);
  }

  private async runCloud(r: Resolved, action: string, args: Record<string, unknown>, call: CallContext, env: EnvPlan): Promise<CallToolResult> {
    const { callCloud } = await import("../../cloud/call.ts");
    const state = await this.project.get();
    return callCloud({ ns: r.ns, action, args, config: state.config, workspace: this.workspace, signal: call.signal, plan: env });
  }

  async sandboxLimits(config?: ProjectConfig) {
    const { limitsFromConfig } = await import("../../sandbox/limits.ts");
    return limitsFromConfig((config ?? (await this.project.config())).sandbox);
  }

  /** Tools known for a namespace without starting anything: descriptor, catalog, or a past run. */
  servesInProcess(ns: string): boolean {
    return this.inProcess[ns] !== undefined;
  }

  foreignCode(id: ToolId): Promise<ForeignCheck | undefined> {
    return this.inProcess[id.ns]?.foreignCode?.(id.action) ?? Promise.resolve(undefined);
  }

  knownTools(ns: string): ToolInfo[] | undefined {
    return this.toolsSeen.get(ns) ?? (this.builtins[ns]?.tools as ToolInfo[] | undefined) ?? this.inProcess[ns]?.tools;
  }

  /** The known tools that may be shown (tools/list, `discover`): held ones left out. */
  shownTools(ns: string): ToolInfo[] | undefined {
    return this.holds.shown(ns, this.knownTools(ns));
  }

  /** Whether a stdio server's known tools come from an earlier session (its program may have changed since). */
  keptFromEarlierRun(ns: string): boolean {
    return this.toolLists.get(ns)?.fromDisk === true;
  }

  /** Every tool known without starting anything, for ranking in `discover {query}`. */
  allKnownTools(): Array<{ ns: string; tool: ToolInfo }> {
    const out: Array<{ ns: string; tool: ToolInfo }> = [];
    const seen = new Set<string>();
    const add = (ns: string, tools: ToolInfo[] | undefined) => {
      if (!tools || seen.has(ns)) return;
      seen.add(ns);
      for (const tool of this.holds.shown(ns, tools)!) out.push({ ns, tool });
    };
    for (const [ns, tools] of this.toolsSeen) add(ns, tools);
    for (const [ns, d] of Object.entries(this.builtins)) add(ns, d.tools as ToolInfo[] | undefined);
    for (const [ns, p] of Object.entries(this.inProcess)) add(ns, p.tools);
    return out;
  }

  /** Catalog servers already installed under PML_HOME (./installed.ts). */
  installedNamespaces(): string[] {
    return this.installed.namespaces();
  }
  private readonly installed = new InstalledNamespaces();

  /** `startToList`: starts a stdio server whose tools are not known yet, when that is allowed
   * (Invoker.startToList); a string says why not. */
  async discover(args: Record<string, unknown>, signal: AbortSignal, startToList?: (r: Resolved) => Promise<ToolInfo[] | string>) {
    const resolver = await this.getResolver();
    const ns = typeof args.namespace === "string" ? args.namespace : undefined;
    if (ns) {
      const r = await this.resolve(ns, signal).catch((e: Error) => {
        throw new ToolError(e.message);
      });
      let tools: ToolInfo[] | string | undefined = this.knownTools(ns) ?? this.pool?.cachedTools(ns) ?? this.remote?.cachedTools(ns);
      if (!tools && r.descriptor.type === "stdio" && startToList) tools = await startToList(r);
      if (typeof tools !== "string") tools = this.holds.shown(ns, tools);
      const held = this.holds.notes(ns);
      return {
        namespace: ns,
        type: r.descriptor.type,
        source: r.source,
        description: r.descriptor.description,
        tools:
          typeof tools === "string"
            ? tools
            : (tools?.map((t) => ({ id: `${ns}:${t.name}`, description: t.description, inputSchema: t.inputSchema })) ?? "listed after first use: call one of its tools"),
        ...(held.length ? { held } : {}),
      };
    }
    const words = typeof args.query === "string" ? args.query.toLowerCase().split(/\s+/).filter(Boolean) : [];
    const listed = await resolver.list({ signal });
    const out = listed.map((m) => ({
      namespace: m.ns,
      type: m.type,
      source: m.source,
      description: m.description,
      tools: this.shownTools(m.ns)?.map((t) => ({ id: `${m.ns}:${t.name}`, description: t.description })),
    }));
    const match = (x: unknown) => words.every((w) => JSON.stringify(x).toLowerCase().includes(w));
    const held = this.holds.notes();
    return {
      namespaces: words.length ? out.filter(match) : out,
      ...(held.length ? { held } : {}),
      how: 'call a tool with `call` {tool: "ns:action", arguments}; `discover` {namespace} shows input schemas',
    };
  }

  status() {
    return { installed: this.installedNamespaces(), ...this.serverStatus() };
  }

  /** The pool's servers and the remote sessions, from memory only (read at each heartbeat). */
  serverStatus() {
    return { servers: this.pool?.status() ?? [], remote: this.remote?.status() ?? [] };
  }

  private async getPool(): Promise<Pool> {
    if (!this.pool) {
      const { Pool, defaultServerRequestHandler, RELAYING_CAPABILITIES } = await import("../../pool/pool.ts");
      const cfg = await this.project.config();
      const fallback = defaultServerRequestHandler(this.workspace);
      // Calls that arrived together all waited above: the first to get here makes the one pool
      // (a pool each would start a server each).
      this.pool ??= new Pool({
        idleTimeoutMs: (cfg.pool?.idle_timeout_s ?? 300) * 1000,
        callTimeoutMs: (cfg.pool?.call_timeout_s ?? 120) * 1000,
        workspace: this.workspace,
        clientCapabilities: RELAYING_CAPABILITIES,
        onServerRequest: (ns, method, params, origins) => (this.onServerRequest ?? fallback)(ns, method, params, origins),
      });
    }
    return this.pool;
  }

  async shutdown(): Promise<void> {
    await Promise.all([this.pool?.shutdown(), this.remote?.shutdown()]);
  }
}
