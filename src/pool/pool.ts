// The stdio MCP server pool: one process per namespace, started on first use, shared by every
// concurrent call, stopped when idle, restarted after a crash (with backoff when it keeps
// crashing). Children notice pml's death through stdin EOF (see server-process.ts), and
// shutdown() stops them all explicitly.
import { pathToFileURL } from "node:url";
import { logsDir } from "../config/paths.ts";
import { ToolError, type CallContext } from "../mcp/tool-result.ts";
import type { CallToolResult, ToolInfo } from "../mcp/types.ts";
import { version } from "../version.ts";
import type { LaunchSource, LaunchSpec } from "./launch.ts";
import { formatMs } from "../duration.ts";
import { ServerProcess } from "./server-process.ts";
import { raceAbort } from "../mcp/abort.ts";
import type { Settle } from "../mcp/peer.ts";

/** `origins`: whose calls were in flight on the server when it asked (see ProcessHooks). */
export type ServerRequestHandler = (ns: string, method: string, params: any, origins: unknown[]) => unknown;

export interface PoolOptions {
  /** Stop a server after this long without calls; 0 = never. Default 5 minutes. */
  idleTimeoutMs?: number;
  /** Default per-call timeout (a call may pass its own). Default 60 s. */
  callTimeoutMs?: number;
  /** Time allowed for initialize + tools/list after spawning. Default 30 s. */
  startTimeoutMs?: number;
  /** Where `<ns>.log` (the child's stderr) goes. Default `<PML_HOME>/logs`. */
  logDir?: string;
  /** Answered to roots/list by the default server-request handler. Default: process.cwd(). */
  workspace?: string;
  /** Called when a server sent notifications/tools/list_changed and its new list was fetched. */
  onToolsChanged?(ns: string, tools: ToolInfo[]): void;
  /** Requests from servers (sampling/createMessage, elicitation/create, roots/list...). Return
   * the result or throw (an error with a numeric `code` becomes that JSON-RPC error). `ping` is
   * always answered by the pool. Default: `defaultServerRequestHandler(workspace)`. */
  onServerRequest?: ServerRequestHandler;
  /** Capabilities pml declares in initialize. Default `{roots: {listChanged: false}}`. */
  clientCapabilities?: Record<string, unknown>;
  /** Restart backoff after consecutive crashes: min, max and the uptime that resets it. */
  backoff?: { minMs?: number; maxMs?: number; stableMs?: number };
  /** Wait this long after closing stdin (then after SIGTERM) before escalating. Default 2 s. */
  stopGraceMs?: number;
}

export interface ServerStatus {
  ns: string;
  state: "stopped" | "starting" | "ready" | "closing";
  pid?: number;
  active: number;
  crashes: number;
  logPath?: string;
  /** Calls sent to it by this pml since it first started (across restarts). */
  calls: number;
  /** Why it last failed to start or exited on its own. */
  lastError?: string;
  /** When its current process started (ISO time). */
  startedAt?: string;
  /** How its last process ended: on its own, stopped for idleness, or stopped by pml. */
  lastExit?: "crashed" | "idle" | "stopped";
  /** Its tools as last listed. */
  tools?: string[];
}

interface Entry {
  ns: string;
  proc: ServerProcess | undefined;
  starting: Promise<ServerProcess> | undefined;
  /** Survives idle stops, so tools/list never needs a respawn. */
  tools: ToolInfo[] | undefined;
  crashes: number;
  lastCrashAt: number;
  lastError: string | undefined;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Calls sent (a counter on the hot path, read by status()). */
  calls: number;
  lastExit: ServerStatus["lastExit"];
}

/** Backoff waits up to this long inside a call; a longer wait fails the call at once instead. */
const MAX_INLINE_BACKOFF_MS = 1000;

/** Answers roots/list with the workspace; everything else is "method not found". */
export function defaultServerRequestHandler(workspace: string): ServerRequestHandler {
  return (_ns, method) => {
    if (method === "roots/list") return { roots: [{ uri: pathToFileURL(workspace).href, name: "workspace" }] };
    throw Object.assign(new Error(`pml does not support ${method}`), { code: -32601 });
  };
}

/** What pml declares to the servers it runs when it relays their requests (sampling and
 * elicitation go to the client or the configured LLM API; roots are the workspace). A server's
 * tool list can depend on these, so the catalog's lists are generated with them too. */
export const RELAYING_CAPABILITIES = { roots: { listChanged: false }, sampling: {}, elicitation: { form: {} } };

export class Pool {
  private readonly entries = new Map<string, Entry>();
  private readonly idleTimeoutMs: number;
  private readonly callTimeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly logDir: string;
  private readonly onServerRequest: ServerRequestHandler;
  private readonly capabilities: Record<string, unknown>;
  private readonly backoffMin: number;
  private readonly backoffMax: number;
  private readonly stableMs: number;
  private readonly graceMs: number;
  private readonly lifetime = new AbortController();
  private closed = false;

  constructor(private readonly opts: PoolOptions = {}) {
    this.idleTimeoutMs = opts.idleTimeoutMs ?? 300_000;
    this.callTimeoutMs = opts.callTimeoutMs ?? 60_000;
    this.startTimeoutMs = opts.startTimeoutMs ?? 30_000;
    this.logDir = opts.logDir ?? logsDir();
    this.onServerRequest = opts.onServerRequest ?? defaultServerRequestHandler(opts.workspace ?? process.cwd());
    this.capabilities = opts.clientCapabilities ?? { roots: { listChanged: false } };
    this.backoffMin = opts.backoff?.minMs ?? 500;
    this.backoffMax = opts.backoff?.maxMs ?? 30_000;
    this.stableMs = opts.backoff?.stableMs ?? 60_000;
    this.graceMs = opts.stopGraceMs ?? 2000;
  }

  /** Calls `toolName` on the server of `ns`, starting it first if needed (`launch` is only
   * resolved then). Failures of the server (crash, timeout, cancel, JSON-RPC error) throw
   * ToolError; a result with isError is returned as is. */
  call(ns: string, launch: LaunchSource, toolName: string, args: unknown, ctx: CallContext, timeoutMs = this.callTimeoutMs): Promise<CallToolResult> {
    return this.callRunning(ns, toolName, args, ctx, timeoutMs) ?? this.callStarted(ns, launch, toolName, args, ctx, timeoutMs);
  }

  /** The same call when the server is up (the hot path: nothing to start, so no launch source);
   * undefined when it is not. */
  callRunning(ns: string, toolName: string, args: unknown, ctx: CallContext, timeoutMs = this.callTimeoutMs): Promise<CallToolResult> | undefined {
    return this.readyForCall(ns)?.callTool(toolName, args, ctx.cancel ?? ctx.signal, ctx.progress, timeoutMs, ctx.origin);
  }

  /** The same, told to `to` (the gateway's short lane); false when the server is not up. */
  relayRunning(ns: string, toolName: string, args: unknown, ctx: CallContext & Settle): boolean {
    const proc = this.readyForCall(ns);
    proc?.relayCall(toolName, args, ctx.cancel, undefined, this.callTimeoutMs, ctx.origin, ctx);
    return proc !== undefined;
  }

  /** The running server of `ns`, counted as called; undefined when it is not up. */
  private readyForCall(ns: string): ServerProcess | undefined {
    const e = this.entries.get(ns);
    const proc = e?.proc;
    if (proc === undefined || proc.state !== "ready") return undefined;
    e!.calls++;
    return proc;
  }

  private async callStarted(ns: string, launch: LaunchSource, toolName: string, args: unknown, ctx: CallContext, timeoutMs: number): Promise<CallToolResult> {
    const p = await this.ensure(ns, launch, ctx);
    this.entry(ns).calls++;
    return p.callTool(toolName, args, ctx.cancel ?? ctx.signal, ctx.progress, timeoutMs, ctx.origin);
  }

  /** The server's tools (cached from its last tools/list; starts the server if never seen). */
  async listTools(ns: string, launch: LaunchSource, ctx?: Partial<CallContext>): Promise<ToolInfo[]> {
    const cached = this.entries.get(ns)?.tools;
    if (cached) return cached;
    const proc = await this.ensure(ns, launch, ctx ?? {});
    return proc.tools ?? [];
  }

  /** Starts the server of `ns` if it is not up, and gives the list it has now (what the gateway
   * compares with the tools' pins before a call goes to a freshly started server). */
  async started(ns: string, launch: LaunchSource, ctx: Partial<CallContext>): Promise<ToolInfo[]> {
    return (await this.ensure(ns, launch, ctx)).tools ?? [];
  }

  /** Whether the server of `ns` is up and answering (a call goes straight to it). */
  isReady(ns: string): boolean {
    return this.entries.get(ns)?.proc?.state === "ready";
  }

  /** Tools seen for `ns` so far, without starting anything. */
  cachedTools(ns: string): ToolInfo[] | undefined {
    return this.entries.get(ns)?.tools;
  }

  status(): ServerStatus[] {
    return [...this.entries.values()].map((e) => ({
      ns: e.ns,
      state: e.proc ? (e.proc.state === "exited" ? "stopped" : e.proc.state) : e.starting ? "starting" : "stopped",
      pid: e.proc?.pid,
      active: e.proc?.active ?? 0,
      crashes: e.crashes,
      logPath: e.proc?.logPath,
      calls: e.calls,
      lastError: e.lastError,
      startedAt: e.proc ? new Date(e.proc.startedAt).toISOString() : undefined,
      lastExit: e.lastExit,
      tools: e.tools?.map((t) => t.name),
    }));
  }

  /** Namespaces with a live process. */
  running(): string[] {
    return [...this.entries.values()].filter((e) => e.proc && e.proc.state !== "exited").map((e) => e.ns);
  }

  /** Stops one server (it restarts on its next call). */
  async stop(ns: string): Promise<void> {
    const e = this.entries.get(ns);
    if (!e) return;
    await e.starting?.catch(() => {});
    const proc = e.proc;
    if (proc) await proc.stop(this.graceMs);
  }

  /** Stops every server: close stdin, SIGTERM, then SIGKILL after the grace period. */
  async shutdown(): Promise<void> {
    this.closed = true;
    this.lifetime.abort();
    await Promise.all(
      [...this.entries.values()].map(async (e) => {
        if (e.idleTimer) clearTimeout(e.idleTimer);
        await e.starting?.catch(() => {});
        await e.proc?.stop(this.graceMs);
      }),
    );
  }

  private entry(ns: string): Entry {
    let e = this.entries.get(ns);
    if (!e) {
      e = { ns, proc: undefined, starting: undefined, tools: undefined, crashes: 0, lastCrashAt: 0, lastError: undefined, idleTimer: undefined, calls: 0, lastExit: undefined };
      this.entries.set(ns, e);
    }
    return e;
  }

  private async ensure(ns: string, launch: LaunchSource, ctx: Partial<CallContext>): Promise<ServerProcess> {
    if (this.closed) throw new ToolError(`pml is shutting down; MCP server "${ns}" was not started.`);
    const e = this.entry(ns);
    if (e.proc?.state === "ready") return e.proc;
    if (!e.starting) {
      e.starting = this.start(e, launch, ctx).finally(() => (e.starting = undefined));
    }
    // A caller that gives up does not abort a start other callers share.
    return ctx.signal ? raceAbort(e.starting, ctx.signal, () => new ToolError(`The call to ${ns} was cancelled while the server was starting.`)) : e.starting;
  }

  private async start(e: Entry, launch: LaunchSource, ctx: Partial<CallContext>): Promise<ServerProcess> {
    const progress = (m: string) => ctx.progress?.(m);
    if (e.proc && e.proc.state !== "exited") await e.proc.exited; // an idle stop still finishing
    await this.backoff(e, ctx.signal, progress);
    return this.launch(e, launch, progress).catch((err) => {
      e.lastError = String((err as Error)?.message ?? err);
      throw err;
    });
  }

  private async launch(e: Entry, launch: LaunchSource, progress: (m: string) => void): Promise<ServerProcess> {
    const spec: LaunchSpec = typeof launch === "function" ? await launch(progress, this.lifetime.signal) : launch;
    if (this.closed) throw new ToolError(`pml is shutting down; MCP server "${e.ns}" was not started.`);
    progress(`starting ${e.ns}`);
    const proc = new ServerProcess(e.ns, spec, this.logDir, {
      onRequest: (method, params, origins) => this.onServerRequest(e.ns, method, params, origins),
      onToolsListChanged: () => this.refreshTools(e, proc),
      onExit: (p) => this.exited(e, p),
    });
    e.proc = proc;
    e.lastExit = undefined;
    try {
      await proc.handshake(this.startTimeoutMs, this.capabilities, version);
    } catch (err: any) {
      // Exited during the handshake: the exit code and stderr say why.
      if (!proc.stopRequested && (proc.state === "exited" || proc.exitCode !== null || proc.exitSignal !== null)) {
        await proc.exited;
        throw new ToolError(`${proc.exitDescription()} while starting.${proc.stderrSection()}`);
      }
      void proc.stop(this.graceMs);
      throw new ToolError(
        // The log is named once, by stderrSection.
        `MCP server "${e.ns}" started but did not complete the MCP handshake: ${String(err?.message ?? err).replace(/ The server may be stuck; its log is .*$/s, " The server may be stuck.")}${proc.stderrSection()}`,
      );
    }
    e.tools = proc.tools;
    this.scheduleIdle(e, proc, this.idleTimeoutMs);
    return proc;
  }

  private async backoff(e: Entry, signal: AbortSignal | undefined, progress: (m: string) => void): Promise<void> {
    if (e.crashes < 2) return;
    const delay = Math.min(this.backoffMax, this.backoffMin * 2 ** (e.crashes - 2));
    const wait = e.lastCrashAt + delay - Date.now();
    if (wait <= 0) return;
    if (wait > MAX_INLINE_BACKOFF_MS) {
      throw new ToolError(
        `MCP server "${e.ns}" keeps crashing (${e.crashes} times in a row); pml will start it again in ${formatMs(Math.ceil(wait / 100) * 100)}. Last failure: ${e.lastError ?? "unknown"}`,
      );
    }
    progress(`waiting ${formatMs(wait)} before restarting ${e.ns}`);
    await raceAbort(Bun.sleep(wait), signal, () => new ToolError(`The call to ${e.ns} was cancelled.`));
  }

  private exited(e: Entry, proc: ServerProcess): void {
    if (e.idleTimer && e.proc === proc) {
      clearTimeout(e.idleTimer);
      e.idleTimer = undefined;
    }
    if (e.proc === proc) e.proc = undefined;
    // A stop pml asked for (idle, shutdown, failed handshake) is not a crash; any other exit is,
    // even with code 0: pml still held its stdin open.
    if (proc.stopRequested) {
      if (e.lastExit !== "idle") e.lastExit = "stopped";
      return;
    }
    e.lastExit = "crashed";
    const uptime = Date.now() - proc.startedAt;
    e.crashes = uptime >= this.stableMs ? 1 : e.crashes + 1;
    e.lastCrashAt = Date.now();
    e.lastError = `${proc.exitDescription()}.${proc.stderrSection()}`;
  }

  private scheduleIdle(e: Entry, proc: ServerProcess, ms: number): void {
    if (this.idleTimeoutMs <= 0) return;
    e.idleTimer = setTimeout(() => {
      e.idleTimer = undefined;
      if (e.proc !== proc || proc.state !== "ready") return;
      const idleFor = Date.now() - proc.lastUsed;
      if (proc.active > 0) return this.scheduleIdle(e, proc, this.idleTimeoutMs);
      if (idleFor < this.idleTimeoutMs) return this.scheduleIdle(e, proc, this.idleTimeoutMs - idleFor);
      e.lastExit = "idle";
      void proc.stop(this.graceMs);
    }, ms);
    // The reaper alone must not keep pml alive.
    e.idleTimer.unref?.();
  }

  private refreshTools(e: Entry, proc: ServerProcess): void {
    void proc
      .fetchTools(this.startTimeoutMs)
      .then((tools) => {
        proc.tools = tools;
        e.tools = tools;
        this.opts.onToolsChanged?.(e.ns, tools);
      })
      .catch(() => {});
  }
}
