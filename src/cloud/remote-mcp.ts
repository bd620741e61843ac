// Remote MCP servers (descriptor type "http"): the client side of MCP Streamable HTTP (spec
// 2025-11-25), written on fetch so the serving path never loads the SDK.
//
// One session per namespace, opened on first use and reused; a 404 for a session id means the
// server forgot the session, so a new one is opened and the request sent again (once). Each
// request is one POST; the answer is JSON or an SSE stream that may carry progress and server
// requests (ping) before our response. No GET stream is opened: pml only needs answers to its
// own requests, and servers must not rely on a client holding one open.
import { createParser } from "eventsource-parser";
import { EnvResolver, envRequestFor, missingMessage } from "../config/env-resolver.ts";
import { ToolError, type CallContext } from "../gateway/types.ts";
import type { CallToolResult, ToolInfo } from "../mcp/types.ts";
import { log } from "../log.ts";
import type { HttpDescriptor } from "../registry/descriptor.ts";
import { version } from "../version.ts";
import { isLoopbackHost } from "../config/secure-url.ts";
import { raceAbort } from "../abort.ts";
import { Peer, type Failure } from "../mcp/peer.ts";

export const REMOTE_PROTOCOL_VERSION = "2025-11-25";
export const DEFAULT_REMOTE_TIMEOUT_MS = 60_000;
const SHUTDOWN_TIMEOUT_MS = 1_000;
const CANCEL_TIMEOUT_MS = 2_000;
const MAX_TOOL_PAGES = 100;

export interface RemoteServersOptions {
  /** Workspace root: its .env is where `${VAR}` placeholders in headers are looked up second. */
  workspace: string;
  /** Per request; progress from the server restarts it. Default 60 s. */
  timeoutMs?: number;
  /** Looked up before the workspace .env; default process.env. */
  env?: Record<string, string | undefined>;
}

export interface RemoteServerStatus {
  ns: string;
  url: string;
  state: "connecting" | "connected";
  sessionId?: string;
}

interface Session {
  ns: string;
  url: URL;
  headers: Record<string, string>;
  /** What the server chose in initialize; sent as MCP-Protocol-Version afterwards. */
  protocolVersion: string;
  sessionId?: string;
  capabilities: Record<string, unknown>;
  /** Ids, timeouts (restarted by progress), cancellation notices: the one peer (src/mcp/peer.ts);
   * each request's line goes out as its own POST (see `request`). */
  peer: Peer<number>;
}

interface Entry {
  /** url + expanded headers: a change (edited .pml.json, rotated key) opens a new session. */
  key: string;
  session: Promise<Session>;
  settled?: Session;
}

interface RpcMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: any;
  result?: any;
  error?: { code?: number; message?: string; data?: unknown };
}

type RequestOptions = { signal?: AbortSignal; progress?: CallContext["progress"]; label: string; timeoutMs: number };

/** A session-level 404: the server no longer knows our Mcp-Session-Id. */
class SessionExpired extends Error {}

export class RemoteServers {
  private readonly entries = new Map<string, Entry>();
  private readonly tools = new Map<string, { key: string; tools: ToolInfo[] }>();
  private readonly timeoutMs: number;
  private closed = false;

  constructor(private readonly opts: RemoteServersOptions) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
  }

  /** Calls `action` on the remote server of `ns`. Transport and protocol failures throw
   * ToolError; a result with isError comes back as is. */
  async call(ns: string, desc: HttpDescriptor, action: string, args: Record<string, unknown>, ctx: CallContext, headers?: Record<string, string>): Promise<CallToolResult> {
    const result = await this.withSession(ns, desc, ctx, headers, (s) => {
      const label = `tools/call ${action}`;
      return this.request(s, "tools/call", (id) => ({ name: action, arguments: args ?? {}, _meta: { progressToken: id } }), {
        signal: ctx.signal,
        progress: ctx.progress,
        label,
        timeoutMs: this.timeoutMs,
      });
    });
    return toCallToolResult(result, ns, desc.url);
  }

  /** The server's tools (fetched once per session target, then cached). */
  async listTools(ns: string, desc: HttpDescriptor, ctx?: Partial<CallContext>, headers?: Record<string, string>): Promise<ToolInfo[]> {
    const key = this.targetKey(ns, desc, headers);
    const cached = this.tools.get(ns);
    if (cached?.key === key) return cached.tools;
    // Opening the session fetches the tools already; ask again only if that did not work.
    return this.withSession(ns, desc, ctx ?? {}, headers, async (s) => {
      const seen = this.tools.get(ns);
      return seen?.key === key ? seen.tools : this.fetchTools(s, key, ctx?.signal);
    });
  }

  /** Tools seen for `ns` so far, without any request. */
  cachedTools(ns: string): ToolInfo[] | undefined {
    return this.tools.get(ns)?.tools;
  }

  status(): RemoteServerStatus[] {
    return [...this.entries.entries()].map(([ns, e]) => ({
      ns,
      url: e.settled?.url.href ?? e.key.slice(0, e.key.indexOf("\n")),
      state: e.settled ? "connected" : "connecting",
      sessionId: e.settled?.sessionId,
    }));
  }

  /** Ends every session with a DELETE (best effort, short timeout). */
  async shutdown(): Promise<void> {
    this.closed = true;
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.allSettled(entries.map(async (e) => this.endSession(await e.session)));
  }

  /** Runs `fn` on the namespace's session; a session the server forgot is replaced once. */
  private async withSession<T>(ns: string, desc: HttpDescriptor, ctx: Partial<CallContext>, granted: Record<string, string> | undefined, fn: (s: Session) => Promise<T>): Promise<T> {
    if (this.closed) throw new ToolError(`pml is shutting down; remote MCP server ${ns} was not called.`);
    const url = remoteUrl(ns, desc.url);
    const headers = granted ?? expandHeaders(ns, desc, { workspace: this.opts.workspace, env: this.opts.env });
    const key = `${url.href}\n${JSON.stringify(headers)}`;
    for (let attempt = 0; ; attempt++) {
      const entry = this.entry(ns, url, headers, key, ctx);
      // The session is shared: one caller cancelling must not fail the others' wait for it.
      const session = await raceAbort(entry.session, ctx.signal, () => new ToolError(`The call to ${ns} was cancelled while connecting to ${url.origin}.`));
      try {
        return await fn(session);
      } catch (e) {
        if (!(e instanceof SessionExpired)) throw e;
        if (this.entries.get(ns) === entry) this.entries.delete(ns);
        if (attempt >= 1) throw new ToolError(`remote MCP server ${ns} at ${url.href} dropped a new session at once (HTTP 404 twice); the server may be restarting, try again.`);
        log.debug(`remote ${ns}: session expired; opening a new one`);
      }
    }
  }

  private entry(ns: string, url: URL, headers: Record<string, string>, key: string, ctx: Partial<CallContext>): Entry {
    const current = this.entries.get(ns);
    if (current?.key === key) return current;
    if (current) {
      // The target or its credentials changed: the old session belongs to someone else now.
      this.entries.delete(ns);
      void current.session.then((s) => this.endSession(s), () => {});
    }
    const entry: Entry = { key, session: undefined as unknown as Promise<Session> };
    entry.session = this.open(ns, url, headers, key, ctx).then(
      (s) => {
        entry.settled = s;
        return s;
      },
      (e) => {
        if (this.entries.get(ns) === entry) this.entries.delete(ns);
        throw e;
      },
    );
    this.entries.set(ns, entry);
    return entry;
  }

  private async open(ns: string, url: URL, headers: Record<string, string>, key: string, ctx: Partial<CallContext>): Promise<Session> {
    const s = { ns, url, headers, protocolVersion: REMOTE_PROTOCOL_VERSION, capabilities: {} } as Session;
    // A request's line is POSTed by its route (request()); other lines (cancellation notices) are
    // notifications, posted on their own.
    s.peer = new Peer<number>((line, route) => {
      if (route) (route as () => void)();
      else void this.post(s, JSON.parse(line), AbortSignal.timeout(CANCEL_TIMEOUT_MS)).then((r) => r.body?.cancel(), () => {});
    });
    ctx.progress?.(`connecting to ${ns} (${url.origin})`);
    const init = await this.request(
      s,
      "initialize",
      () => ({ protocolVersion: REMOTE_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "pml", version } }),
      { label: "initialize", timeoutMs: this.timeoutMs },
    );
    if (!init || typeof init !== "object" || typeof init.protocolVersion !== "string")
      throw new ToolError(`remote MCP server ${ns} at ${url.href} sent a malformed initialize result (no protocolVersion).`);
    s.protocolVersion = init.protocolVersion;
    s.capabilities = init.capabilities && typeof init.capabilities === "object" ? init.capabilities : {};
    await this.notify(s, "notifications/initialized", undefined);
    // Like a pooled stdio server: the tools are known once it has been used.
    if (this.tools.get(ns)?.key !== key)
      await this.fetchTools(s, key, undefined).catch((e) => log.debug(`remote ${ns}: tools/list failed: ${(e as Error).message}`));
    return s;
  }

  private async fetchTools(s: Session, key: string, signal: AbortSignal | undefined): Promise<ToolInfo[]> {
    const tools: ToolInfo[] = [];
    if (s.capabilities.tools) {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_TOOL_PAGES; page++) {
        const res = await this.request(s, "tools/list", () => (cursor ? { cursor } : {}), { signal, label: "tools/list", timeoutMs: this.timeoutMs });
        if (!res || !Array.isArray(res.tools)) throw new ToolError(`remote MCP server ${s.ns} at ${s.url.href} sent a malformed tools/list result (no "tools" array).`);
        for (const t of res.tools)
          if (t && typeof t.name === "string") tools.push({ ...t, inputSchema: t.inputSchema && typeof t.inputSchema === "object" ? t.inputSchema : { type: "object" } });
        cursor = typeof res.nextCursor === "string" && res.nextCursor ? res.nextCursor : undefined;
        if (!cursor) break;
      }
    }
    this.tools.set(s.ns, { key, tools });
    return tools;
  }

  private targetKey(ns: string, desc: HttpDescriptor, headers?: Record<string, string>): string {
    return `${remoteUrl(ns, desc.url).href}\n${JSON.stringify(headers ?? expandHeaders(ns, desc, { workspace: this.opts.workspace, env: this.opts.env }))}`;
  }

  private httpHeaders(s: Session, initialized: boolean): Record<string, string> {
    const h: Record<string, string> = { ...s.headers, "content-type": "application/json", accept: "application/json, text/event-stream" };
    if (initialized) h["mcp-protocol-version"] = s.protocolVersion;
    if (s.sessionId) h["mcp-session-id"] = s.sessionId;
    return h;
  }

  /** One JSON-RPC request; resolves with its result. The peer times it out (progress restarts
   * the timer) and cancels it; this POSTs it and hands the answer back to the peer. */
  private request(s: Session, method: string, params: (id: number) => unknown, o: RequestOptions): Promise<any> {
    const id = s.peer.nextId();
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: params(id) });
    const http = new AbortController(); // the POST stops when the peer gives up on the request
    return s.peer.send(id, body, {
      label: o.label,
      timeoutMs: o.timeoutMs,
      signal: o.signal,
      progress: o.progress,
      fail: (f, label) => {
        http.abort();
        return this.failure(s, f, label);
      },
      route: () =>
        void this.exchange(s, method, id, body, o.label, http.signal).then(
          (answer) => s.peer.receive(answer),
          (e) => s.peer.reject(id, e instanceof ToolError || e instanceof SessionExpired ? e : new ToolError(`remote MCP server ${s.ns} at ${s.url.href} broke off its answer to ${o.label} (${reasonOf(e)}).`)),
        ),
    });
  }

  private failure(s: Session, f: Failure, label: string): Error {
    const where = `remote MCP server ${s.ns} at ${s.url.href}`;
    switch (f.kind) {
      case "timeout":
        return new ToolError(`${where} did not answer ${label} within ${formatMs(f.timeoutMs)}; pml cancelled the request.`);
      case "cancelled":
        return new ToolError(`The call to ${s.ns} (${label}) was cancelled.`);
      case "closed":
        return new ToolError(`pml is shutting down; remote MCP server ${s.ns} was not called.`);
      case "error":
        return new ToolError(`${where} answered ${label} with an error: ${f.message} (code ${f.code})`);
    }
  }

  /** The POST of one request and its answer (JSON, or an SSE stream carrying progress first). */
  private async exchange(s: Session, method: string, id: number, body: string, label: string, signal: AbortSignal): Promise<RpcMessage> {
    const where = `remote MCP server ${s.ns} at ${s.url.href}`;
    const initialized = method !== "initialize";
    const sentSession = s.sessionId;
    let res: Response;
    try {
      // redirect "manual": a redirect would carry the configured headers (keys) to another address.
      res = await fetch(s.url, { method: "POST", headers: this.httpHeaders(s, initialized), body, signal, redirect: "manual" });
    } catch (e) {
      throw new ToolError(`remote MCP server ${s.ns} at ${s.url.href} is unreachable (${reasonOf(e)}).`);
    }
    if (method === "initialize") {
      const sid = res.headers.get("mcp-session-id");
      if (sid) s.sessionId = sid;
    }
    if (!res.ok) {
      const text = await res.text().catch(() => "");
      if (res.status === 404 && sentSession) throw new SessionExpired();
      throw httpFailure(s, res.status, text);
    }
    const type = (res.headers.get("content-type") ?? "").toLowerCase();
    if (type.includes("text/event-stream")) return this.readStream(s, res, id, signal);
    const text = await res.text();
    const answer = findResponse(tryJson(text), id);
    if (!answer) throw new ToolError(`${where} sent a malformed answer to ${label} (not a JSON-RPC response${snippet(text)}).`);
    return answer;
  }

  /** Reads SSE events until the response to `id`; handles progress and server requests on the way. */
  private async readStream(s: Session, res: Response, id: number, signal: AbortSignal): Promise<RpcMessage> {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    // eventsource-parser: line ends split across chunks (a CR in one, its LF in the next), comments,
    // multi-line data and BOMs are handled as the SSE spec says.
    const events: string[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e.data) });
    const onAbort = () => void reader.cancel().catch(() => {});
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      for (;;) {
        if (signal.aborted) throw signal.reason;
        const { done, value } = await reader.read();
        if (signal.aborted) throw signal.reason;
        parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
        for (const data of events.splice(0)) {
          if (!data) continue; // id/retry-only events
          const msg = tryJson(data) as RpcMessage | undefined;
          if (!msg || typeof msg !== "object") {
            log.debug(`remote ${s.ns}: ignored a non-JSON SSE event`);
            continue;
          }
          const answer = findResponse(msg, id);
          if (answer) {
            void reader.cancel().catch(() => {});
            return answer;
          }
          this.onServerMessage(s, msg);
        }
        if (done) break;
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    throw new ToolError(`remote MCP server ${s.ns} at ${s.url.href} closed its event stream before answering request ${id}.`);
  }

  private onServerMessage(s: Session, msg: RpcMessage): void {
    if (typeof msg.method !== "string") return;
    if (msg.id !== undefined && msg.id !== null) {
      // A server request: only ping is something pml can answer for a remote server.
      const reply =
        msg.method === "ping"
          ? { jsonrpc: "2.0", id: msg.id, result: {} }
          : { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `pml does not support ${msg.method} for remote MCP servers` } };
      void this.post(s, reply, AbortSignal.timeout(CANCEL_TIMEOUT_MS)).catch((e) => log.debug(`remote ${s.ns}: answering ${msg.method} failed: ${reasonOf(e)}`));
      return;
    }
    if (msg.method === "notifications/progress") {
      // Our tokens are the request ids; some servers send them back as strings.
      const p = msg.params ?? {};
      s.peer.progress({
        progressToken: typeof p.progressToken === "string" ? Number(p.progressToken) : p.progressToken,
        message: typeof p.message === "string" ? p.message : "",
        progress: typeof p.progress === "number" ? p.progress : undefined,
        total: typeof p.total === "number" ? p.total : undefined,
      });
    } else if (msg.method === "notifications/message") {
      const p = msg.params ?? {};
      log.debug(`remote ${s.ns} [${p.level ?? "log"}] ${typeof p.data === "string" ? p.data : JSON.stringify(p.data)}`);
    }
  }

  private async notify(s: Session, method: string, params: unknown, signal?: AbortSignal): Promise<void> {
    const msg = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    const sig = signal ? AbortSignal.any([signal, AbortSignal.timeout(CANCEL_TIMEOUT_MS)]) : AbortSignal.timeout(CANCEL_TIMEOUT_MS);
    let res: Response;
    try {
      res = await this.post(s, msg, sig);
    } catch (e) {
      throw new ToolError(`remote MCP server ${s.ns} at ${s.url.href} is unreachable (${reasonOf(e)}).`);
    }
    const text = await res.text().catch(() => "");
    if (!res.ok) throw httpFailure(s, res.status, text);
  }

  /** A message that expects no JSON-RPC answer (notification or our response to the server). */
  private post(s: Session, msg: unknown, signal: AbortSignal): Promise<Response> {
    return fetch(s.url, { method: "POST", headers: this.httpHeaders(s, true), body: JSON.stringify(msg), signal, redirect: "manual" });
  }

  private async endSession(s: Session): Promise<void> {
    if (!s.sessionId) return;
    try {
      const res = await fetch(s.url, { method: "DELETE", headers: this.httpHeaders(s, true), signal: AbortSignal.timeout(SHUTDOWN_TIMEOUT_MS), redirect: "manual" });
      await res.body?.cancel().catch(() => {});
    } catch (e) {
      log.debug(`remote ${s.ns}: ending the session failed: ${reasonOf(e)}`);
    }
  }
}

/** The endpoint URL, or a ToolError: headers may carry keys, so plain http only to loopback. */
export function remoteUrl(ns: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolError(`remote MCP server '${ns}': ${JSON.stringify(raw)} is not a URL; set its "url" to https://host/path.`);
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname))) return url;
  if (url.protocol === "http:")
    throw new ToolError(
      `Refusing to connect to remote MCP server '${ns}' at ${url.href}: plain http is allowed only for localhost/127.0.0.1/::1. Use https://${url.host}${url.pathname}.`,
    );
  throw new ToolError(`remote MCP server '${ns}' at ${url.href}: only https:// URLs (or http:// on localhost) are supported.`);
}

/** Headers for a descriptor taken as the caller's own config (tests; the gateway passes the
 * headers the environment resolver granted): `${VAR}` / `${VAR:-default}` filled from the
 * environment, then the workspace .env; an unset variable is a ToolError naming it. */
export function expandHeaders(
  ns: string,
  desc: Pick<HttpDescriptor, "url" | "headers" | "env_required">,
  opts: { workspace: string; env?: Record<string, string | undefined> },
): Record<string, string> {
  const plan = new EnvResolver({ workspace: opts.workspace, env: opts.env }).plan(envRequestFor(ns, { type: "http", ...desc }, "user"));
  if (plan.missing.length) throw new ToolError(missingMessage(plan, `remote MCP server '${ns}' (${desc.url})`, opts.workspace));
  return checkedHeaders(ns, plan.headers);
}

/** Header values that cannot smuggle another header. */
export function checkedHeaders(ns: string, headers: Record<string, string>): Record<string, string> {
  for (const [header, value] of Object.entries(headers))
    if (!/^[\x20-\x7e\x80-\xff\t]*$/.test(value))
      throw new ToolError(`the header ${header} of remote MCP server '${ns}' contains a line break or control character; fix the value (or the variable it uses).`);
  return headers;
}

function httpFailure(s: Session, status: number, text: string): ToolError {
  if (status === 401 || status === 403)
    return new ToolError(`${s.url.href} rejected the credentials (HTTP ${status}); check the headers of '${s.ns}' in .pml.json (and the variables they use).`);
  if (status >= 300 && status < 400)
    return new ToolError(`remote MCP server ${s.ns} at ${s.url.href} answered with a redirect (HTTP ${status}); pml does not follow redirects with your headers. Set its "url" to the final address.`);
  const rpc = findResponse(tryJson(text), null);
  const detail = rpc?.error?.message ? `: ${rpc.error.message}` : snippet(text);
  if (status === 404) return new ToolError(`remote MCP server ${s.ns}: ${s.url.href} was not found (HTTP 404)${detail}; check its "url".`);
  return new ToolError(`remote MCP server ${s.ns} at ${s.url.href} failed with HTTP ${status}${detail}`);
}

/** The response to `id` in a parsed body: one message or a batch. `null` matches any response. */
function findResponse(body: unknown, id: number | null): RpcMessage | undefined {
  const list = Array.isArray(body) ? body : [body];
  for (const m of list) {
    if (!m || typeof m !== "object" || "method" in m) continue;
    if (!("result" in m) && !("error" in m)) continue;
    const mid = (m as RpcMessage).id;
    if (id === null || mid === id || (mid === null && "error" in m)) return m as RpcMessage;
  }
  return undefined;
}

function toCallToolResult(result: unknown, ns: string, url: string): CallToolResult {
  const r = result as Partial<CallToolResult> | undefined;
  if (!r || typeof r !== "object" || Array.isArray(r) || !Array.isArray(r.content))
    throw new ToolError(`remote MCP server ${ns} at ${url} sent a malformed tool result (expected {"content": [...]}).`);
  return r as CallToolResult;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function snippet(text: string): string {
  const t = text.trim().replace(/\s+/g, " ");
  return t ? `: ${t.length > 200 ? `${t.slice(0, 200)}…` : t}` : "";
}

function reasonOf(e: unknown): string {
  const err = e as { code?: string; message?: string; cause?: { code?: string } };
  return err?.code ?? err?.cause?.code ?? err?.message ?? String(e);
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
