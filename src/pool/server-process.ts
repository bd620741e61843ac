// One running stdio MCP server: spawn, newline-delimited JSON-RPC over its stdin/stdout, request
// multiplexing (pml owns the ids on this link, so concurrent calls never cross), the initialize
// handshake, and a clean or forced stop. The Pool decides when to start, reap and restart these.
// The OS side (process group, exit hook) is in process-group.ts, the log file in server-log.ts.
import { formatMs } from "../duration.ts";
import type { Subprocess } from "bun";
import { ToolError } from "../mcp/tool-result.ts";
import { Peer, type Failure, type ProgressFn, type Settle } from "../mcp/peer.ts";
import type { CancelSignal } from "../mcp/abort.ts";
import type { CallToolResult, ToolInfo } from "../mcp/types.ts";
import type { LaunchSpec } from "./launch.ts";
import { forget, killGroup, remember, settlesWithin, spawnInGroup, type StopSignal } from "./process-group.ts";
import { ServerLog } from "./server-log.ts";

export const PROTOCOL_VERSION = "2025-11-25";

/** The largest tools/call line pml writes to a stdio server (characters, ~bytes for ASCII JSON). */
export const MAX_CALL_BYTES = 4 * 1024 * 1024;

/** Tool names whose label and request head are kept (a client naming ever new tools gets them
 * made each time). */
const NAMED_MAX = 512;

/** A JSON-RPC error the server answered with; still a tool-level failure for the gateway. */
export class ServerError extends ToolError {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface ProcessHooks {
  /** A request from the server (roots/list, sampling/createMessage, elicitation/create...).
   * `origins`: the distinct origins of the calls in flight on this server when it asked, i.e.
   * who the request can be on behalf of. */
  onRequest(method: string, params: any, origins: unknown[]): unknown;
  onToolsListChanged(): void;
  onExit(proc: ServerProcess, code: number | null, signal: string | null): void;
}

/** Why a request failed when the link closed because pml stopped the server. */
const STOPPED = Symbol("stopped");

export type ProcessState = "starting" | "ready" | "closing" | "exited";

export class ServerProcess {
  state: ProcessState = "starting";
  tools: ToolInfo[] | undefined;
  protocolVersion = PROTOCOL_VERSION;
  serverInfo: Record<string, unknown> | undefined;
  capabilities: Record<string, any> = {};
  readonly startedAt = Date.now();
  lastUsed = Date.now();
  /** Calls in flight (not counting pml's own handshake requests). */
  active = 0;
  exitCode: number | null = null;
  exitSignal: string | null = null;
  /** pml asked it to stop (idle, shutdown): its exit is not a crash. */
  stopRequested = false;
  readonly exited: Promise<void>;
  readonly pid: number;

  private readonly proc: Subprocess<"pipe", "pipe", number>;
  private readonly guard?: LaunchSpec["guard"];
  private unguard?: () => void;
  private readonly peer: Peer<number>;
  private flushQueued = false;
  private outgoing = "";
  private readonly log: ServerLog;
  private buffer = "";
  private readonly decoder = new TextDecoder();
  /** Per tool name called: its label and the start of its request line (see `named`). */
  private readonly byName = new Map<string, { label: string; head: string }>();
  private stdoutDone!: Promise<void>;
  private resolveExited!: () => void;

  constructor(
    readonly ns: string,
    spec: LaunchSpec,
    logDir: string,
    private readonly hooks: ProcessHooks,
  ) {
    this.exited = new Promise((r) => (this.resolveExited = r));
    this.peer = new Peer<number>((line) => this.write(line));
    this.guard = spec.guard;
    this.log = new ServerLog(logDir, ns, [spec.command, ...spec.args].join(" "));
    try {
      this.proc = spawnInGroup(spec, this.log.fd, (code, signal) => {
        killGroup(this.pid, "SIGKILL"); // descendants of a server that exited on its own
        this.unguard?.();
        spec.release?.();
        this.handleExit(code, signal);
      });
    } catch (e: any) {
      this.log.close();
      spec.release?.();
      throw new ToolError(
        `Could not start MCP server "${ns}": ${spec.command}: ${e?.message ?? e}. Check the command in its descriptor (.pml.json private_mcps) exists and is executable.`,
      );
    }
    this.pid = this.proc.pid;
    remember(this);
    this.stdoutDone = this.readStdout();
  }

  /** initialize -> notifications/initialized -> tools/list. */
  async handshake(timeoutMs: number, capabilities: Record<string, unknown>, clientVersion: string): Promise<void> {
    const init = await this.request("initialize", { protocolVersion: PROTOCOL_VERSION, capabilities, clientInfo: { name: "pml", version: clientVersion } }, timeoutMs);
    // The server may answer an older version it supports; we speak the common subset pml uses.
    if (typeof init?.protocolVersion === "string") this.protocolVersion = init.protocolVersion;
    this.serverInfo = init?.serverInfo;
    this.capabilities = init?.capabilities ?? {};
    this.notify("notifications/initialized", undefined);
    this.tools = await this.fetchTools(timeoutMs);
    this.state = "ready";
    // Confined: its read-only binds are in place now; a protected file replaced on the host from
    // here on would be writable inside, so the server restarts (on the next call) to bind it anew.
    this.unguard = this.guard?.((path) => {
      this.log.note(`${path} was replaced on disk; stopping ${this.ns} so that it restarts with it read-only`);
      void this.stop(2000);
    });
  }

  async fetchTools(timeoutMs: number): Promise<ToolInfo[]> {
    if (!this.capabilities.tools) return [];
    const tools: ToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const res = await this.request("tools/list", cursor ? { cursor } : {}, timeoutMs);
      for (const t of res?.tools ?? []) tools.push({ ...t, inputSchema: t.inputSchema ?? { type: "object" } });
      cursor = res?.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  callTool(name: string, args: unknown, signal: CancelSignal | undefined, progress: ProgressFn | undefined, timeoutMs: number, origin?: unknown): Promise<CallToolResult> {
    const settle = Promise.withResolvers<CallToolResult>();
    this.relayCall(name, args, signal, progress, timeoutMs, origin, settle);
    return settle.promise;
  }

  /** The same call, its end told to `to` (the gateway's short lane: no promise). */
  relayCall(name: string, args: unknown, signal: CancelSignal | undefined, progress: ProgressFn | undefined, timeoutMs: number, origin: unknown, to: Settle): void {
    const { label, head } = this.named(name);
    if (this.state === "exited" || this.state === "closing") return to.reject(this.goneError(label));
    const id = this.peer.nextId();
    // A progress token only when someone listens: servers spend real time on progress bookkeeping.
    const line = `{"jsonrpc":"2.0","id":${id},${head}${args === undefined ? "{}" : JSON.stringify(args)}${progress === undefined ? "" : `,"_meta":{"progressToken":${id}}`}}}\n`;
    // Said before sending: a server handed a huge line tends to die without a word ("exited with
    // code 0 ... Not connected"), which tells the user nothing.
    if (line.length > MAX_CALL_BYTES) {
      return to.reject(
        new ToolError(
          `The arguments to ${this.ns}:${name} are ${(line.length / 1048576).toFixed(1)} MB; pml sends at most ${MAX_CALL_BYTES / 1048576} MB to a stdio server in one call. Write the data to a file in the workspace and pass its path instead.`,
        ),
      );
    }
    this.active++;
    this.peer.sendTo(id, line, { label, timeoutMs, signal, progress, fail: this.failure, owner: origin, settled: this.callSettled }, to);
  }

  /** What every call to tool `name` repeats, made once per name. */
  private named(name: string): { label: string; head: string } {
    let t = this.byName.get(name);
    if (t === undefined) {
      t = { label: `tools/call ${name}`, head: `"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":` };
      if (this.byName.size < NAMED_MAX) this.byName.set(name, t);
    }
    return t;
  }

  request(method: string, params: unknown, timeoutMs: number, signal?: AbortSignal): Promise<any> {
    if (this.state === "exited" || this.state === "closing") return Promise.reject(this.goneError(method));
    return this.peer.request(method, params, { label: method, timeoutMs, signal, fail: this.failure });
  }

  notify(method: string, params: unknown): void {
    this.peer.notify(method, params);
  }

  private readonly callSettled = (): void => {
    // Idle time counts from the last call to end (the reaper waits while any is active).
    if (--this.active === 0) this.lastUsed = Date.now();
  };

  /** What a caller sees when a request to this server fails. */
  private readonly failure = (f: Failure, label: string): Error => {
    switch (f.kind) {
      case "timeout":
        return new ToolError(
          `MCP server "${this.ns}" did not answer ${label} within ${formatMs(f.timeoutMs)}; pml cancelled the request. The server may be stuck; its log is ${this.logPath}.`,
        );
      case "cancelled":
        return new ToolError(`The call to ${this.ns} (${label}) was cancelled.`);
      case "closed":
        return f.reason === STOPPED ? new ToolError(`MCP server "${this.ns}" was stopped while handling ${label}.`) : this.goneError(label);
      case "error":
        return new ServerError(`MCP server "${this.ns}" answered ${label} with an error: ${f.message} (code ${f.code})`, f.code, f.data);
    }
  };

  private write(line: string): void {
    // Lines of one event-loop turn (many concurrent calls) go out in one write + flush: a
    // FileSink write per line costs a syscall each, the largest part of a proxied call.
    this.outgoing += line;
    if (!this.flushQueued) {
      this.flushQueued = true;
      setImmediate(this.flush);
    }
  }

  private readonly flush = (): void => {
    this.flushQueued = false;
    const out = this.outgoing;
    this.outgoing = "";
    if (!out) return;
    try {
      this.proc.stdin.write(out);
      const r = this.proc.stdin.flush();
      if (r instanceof Promise) r.catch(() => {});
    } catch {
      // the child is gone; handleExit fails whatever is pending
    }
  };

  private async readStdout(): Promise<void> {
    const reader = this.proc.stdout.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.onChunk(this.decoder.decode(value, { stream: true }));
      }
    } catch {
      // stream torn down with the process
    }
  }

  private onChunk(text: string): void {
    let start = 0;
    let nl = text.indexOf("\n");
    if (nl === -1) {
      this.buffer += text;
      return;
    }
    if (this.buffer.length > 0) {
      const first = this.buffer + text.slice(0, nl);
      this.buffer = "";
      this.onLine(first);
      start = nl + 1;
      nl = text.indexOf("\n", start);
    }
    while (nl !== -1) {
      this.onLine(text.slice(start, nl));
      start = nl + 1;
      nl = text.indexOf("\n", start);
    }
    if (start < text.length) this.buffer = text.slice(start);
  }

  private onLine(line: string): void {
    let msg: any;
    try {
      msg = JSON.parse(line);
    } catch {
      if (line.trim()) this.log.note(`non-JSON line on stdout (ignored): ${line.slice(0, 500)}`);
      return;
    }
    if (msg === null || typeof msg !== "object") return;
    const method = msg.method;
    if (method === undefined) {
      this.peer.receive(msg); // false: the answer to an abandoned request
      return;
    }
    if (msg.id !== undefined) {
      void this.answer(msg.id, method, msg.params);
      return;
    }
    if (method === "notifications/progress") {
      // progress resets the call's timer: a server that reports progress is not stuck
      this.peer.progress(msg.params);
    } else if (method === "notifications/tools/list_changed") {
      if (this.state === "ready") this.hooks.onToolsListChanged();
    } else if (method === "notifications/message") {
      const params = msg.params ?? {};
      this.log.note(`[${params.level ?? "log"}] ${typeof params.data === "string" ? params.data : JSON.stringify(params.data)}`);
    }
  }

  private async answer(id: unknown, method: string, params: unknown): Promise<void> {
    const idText = JSON.stringify(id);
    try {
      const result = method === "ping" ? {} : await this.hooks.onRequest(method, params, this.origins());
      this.write(`{"jsonrpc":"2.0","id":${idText},"result":${JSON.stringify(result ?? {})}}\n`);
    } catch (e: any) {
      const code = typeof e?.code === "number" ? e.code : -32603;
      this.write(`{"jsonrpc":"2.0","id":${idText},"error":${JSON.stringify({ code, message: String(e?.message ?? e) })}}\n`);
    }
  }

  /** Whose calls are in flight: a server request can only be on behalf of one of them. */
  private origins(): unknown[] {
    return this.peer.owners();
  }

  private handleExit(code: number | null, signal: string | null): void {
    this.exitCode = code;
    this.exitSignal = signal;
    // Answers the server wrote just before exiting are still in the pipe: read them first.
    const drained = Promise.race([this.stdoutDone, Bun.sleep(250)]);
    void drained.then(() => {
      const wasClosing = this.state === "closing";
      this.state = "exited";
      this.peer.close(wasClosing ? STOPPED : "exited");
      this.log.close();
      forget(this);
      this.hooks.onExit(this, code, signal);
      this.resolveExited();
    });
  }

  /** Why a call failed because the process ended: exit code and the last lines of its stderr. */
  goneError(label: string): ToolError {
    return new ToolError(`${this.exitDescription()} while handling ${label}.${this.stderrSection()}`);
  }

  exitDescription(): string {
    const how = this.exitSignal ? `was killed by ${this.exitSignal}` : this.exitCode === null ? "stopped" : `exited with code ${this.exitCode}`;
    return `MCP server "${this.ns}" ${how}`;
  }

  stderrSection(): string {
    return this.log.stderrSection();
  }

  get logPath(): string {
    return this.log.path;
  }

  kill(signal: StopSignal): void {
    try {
      this.proc.kill(signal);
    } catch {}
    killGroup(this.pid, signal);
  }

  /** Close stdin (the MCP way to ask a stdio server to exit), then SIGTERM, then SIGKILL. */
  async stop(graceMs: number): Promise<void> {
    this.stopRequested = true;
    if (this.state === "exited") return;
    this.state = "closing";
    this.flush(); // lines still queued for this turn (e.g. a cancellation) go out before EOF
    try {
      this.proc.stdin.end();
    } catch {}
    if (await settlesWithin(this.exited, graceMs)) return;
    this.kill("SIGTERM");
    if (await settlesWithin(this.exited, graceMs)) return;
    this.kill("SIGKILL");
    await this.exited;
  }
}
