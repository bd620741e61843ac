// `pml serve`: the same Gateway over MCP Streamable HTTP on a loopback port, both revisions on
// one endpoint. POST carries one JSON-RPC message; a request is answered with JSON, or with an
// SSE stream when something (progress, an elicitation request) must reach the client first.
//
// 2025-11-25 (legacy): `initialize` opens a session (Mcp-Session-Id); GET opens the session's
// stream for server-initiated messages; DELETE ends it. Sessions are capped.
// 2026-07-28 (modern): no session; each request carries its version and capabilities in _meta,
// mirrored in the MCP-Protocol-Version / Mcp-Method / Mcp-Name headers (checked against the
// body), and is served on its own, so replicas behind a load balancer need nothing in common
// but the workspace and the state key. Closing a request's stream cancels it.
//
// Slow bodies and idle connections are cut after the idle timeout; a request whose body has
// been read may then run as long as its tool takes. The transport only routes messages: the
// protocol lives in server.ts.
import { AsyncLocalStorage } from "node:async_hooks";
import { log } from "../log.ts";
import { ErrorCode, errorResponse, invalidReason, type Id, type Message, type Response as RpcResponse } from "../mcp/jsonrpc.ts";
import { isModernRequest, META } from "../mcp/protocol.ts";
import { Gateway, SUPPORTED_PROTOCOLS, type ToolHost } from "./server.ts";
import type { Session } from "../mcp/session.ts";

export const MCP_PATH = "/mcp";
/** What `pml serve` listens on without --port (and what `pml init --http` should write). */
export const DEFAULT_HTTP_PORT = 7331;
const MAX_BODY = 64 * 1024 * 1024;
const KEEPALIVE_MS = 15_000;
/** A session nobody used for this long (no request, no open stream) is ended, as if DELETEd. */
const SESSION_IDLE_MS = 60 * 60_000;
/** Legacy sessions open at once, by default; beyond it the least recently used idle one goes,
 * else initialize is refused. */
export const DEFAULT_MAX_SESSIONS = 64;
/** Seconds a connection may stay silent (headers or body bytes trickling in, keep-alive idle). */
export const DEFAULT_IDLE_TIMEOUT_S = 15;
/** A session idle this long may be ended to make room for a new one. */
const EVICTABLE_AFTER_MS = 60_000;
const encoder = new TextEncoder();

export interface HttpServeOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  loadHost?: () => Promise<ToolHost>;
  /** Legacy (initialize) sessions open at once; default 64. */
  maxSessions?: number;
  /** Seconds a slow body or an idle connection is given; default 15. */
  idleTimeoutS?: number;
}

export interface HttpGatewayServer {
  /** e.g. http://127.0.0.1:41234/mcp */
  readonly url: string;
  readonly port: number;
  readonly gateway: Gateway;
  sessionCount(): number;
  /** Closes every session and stream, stops listening, shuts the gateway down. */
  stop(): Promise<void>;
}

/** Loopback Origin values a local tool (inspector, browser devtool) may send; any port. */
const LOCAL_ORIGIN = /^https?:\/\/(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])(:\d+)?$/i;

/** One POST that carries a request: its HTTP answer becomes JSON if the JSON-RPC response comes
 * first, or an SSE stream as soon as anything else has to go out before it. */
class Exchange {
  readonly response: Promise<Response>;
  private resolve!: (r: Response) => void;
  private stream?: ReadableStreamDefaultController<Uint8Array>;
  private done = false;

  constructor(
    readonly requestId: Id,
    private readonly accept: { json: boolean; sse: boolean },
    private readonly headers: Record<string, string>,
    /** 2026-07-28: protocol errors carry their HTTP status (400, 404) too. */
    private readonly modern = false,
  ) {
    this.response = new Promise((r) => (this.resolve = r));
  }

  get canStream(): boolean {
    return !this.done && this.accept.sse;
  }

  deliver(msg: Message): boolean {
    if (this.done) return false;
    const final = !("method" in msg) && msg.id === this.requestId;
    if (!this.stream) {
      if (final && (this.accept.json || !this.accept.sse)) {
        this.done = true;
        const status = this.modern && "error" in msg ? modernStatus(msg.error!.code) : 200;
        this.resolve(new Response(JSON.stringify(msg), { status, headers: { ...this.headers, "content-type": "application/json" } }));
        return true;
      }
      if (!this.accept.sse) return false;
      this.openStream();
    }
    try {
      this.stream!.enqueue(sseEvent(msg));
      if (final) {
        this.done = true;
        this.stream!.close();
      }
    } catch {
      this.done = true; // the client went away
      return false;
    }
    return true;
  }

  /** The client disconnected: stop streaming (the call itself goes on, per the spec). */
  abandon(): void {
    if (this.done) return;
    this.done = true;
    try {
      this.stream?.close();
    } catch {}
    this.resolve(new Response(null, { status: 499 }));
  }

  private openStream(): void {
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        this.stream = c;
      },
      cancel: () => {
        this.done = true;
      },
    });
    this.resolve(new Response(body, { status: 200, headers: { ...this.headers, ...SSE_HEADERS } }));
  }
}

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" };

/** The HTTP status the 2026-07-28 transport gives a JSON-RPC error. */
function modernStatus(code: number): number {
  if (code === ErrorCode.MethodNotFound) return 404;
  if (code === ErrorCode.InvalidParams || code === ErrorCode.InvalidRequest || code === ErrorCode.ParseError) return 400;
  if (code === ErrorCode.HeaderMismatch || code === ErrorCode.UnsupportedProtocolVersion || code === ErrorCode.MissingRequiredClientCapability) return 400;
  return 200;
}

function sseEvent(msg: Message): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify(msg)}\n\n`);
}

/** The GET stream of a session. */
class Listener {
  readonly response: Response;
  private stream!: ReadableStreamDefaultController<Uint8Array>;
  private timer: ReturnType<typeof setInterval>;
  open = true;

  constructor(headers: Record<string, string>, onClose: () => void) {
    const close = () => {
      if (!this.open) return;
      this.open = false;
      clearInterval(this.timer);
      onClose();
    };
    this.response = new Response(
      new ReadableStream<Uint8Array>({
        start: (c) => {
          this.stream = c;
          // Bytes at once, so the client sees the headers without waiting for the first message.
          c.enqueue(encoder.encode(": stream open\n\n"));
        },
        cancel: close,
      }),
      { status: 200, headers: { ...headers, ...SSE_HEADERS } },
    );
    // A comment line now and then keeps proxies and idle timers from closing a quiet stream.
    this.timer = setInterval(() => this.write(encoder.encode(": keepalive\n\n")) || close(), KEEPALIVE_MS);
    this.close = () => {
      try {
        this.stream.close();
      } catch {}
      close();
    };
  }

  close: () => void;

  write(bytes: Uint8Array): boolean {
    if (!this.open) return false;
    try {
      this.stream.enqueue(bytes);
      return true;
    } catch {
      return false;
    }
  }
}

class HttpSession {
  readonly waiting = new Map<Id, Exchange>();
  listener?: Listener;
  /** Server requests that found no open stream; sent when a GET stream opens. */
  readonly queued: Message[] = [];
  session!: Session;
  lastActive = Date.now();

  constructor(
    readonly id: string,
    private readonly gateway: Gateway,
  ) {}

  idle(now: number): boolean {
    return !this.listener?.open && this.waiting.size === 0 && now - this.lastActive > SESSION_IDLE_MS;
  }

  /** Routes what the protocol core sends: a response to the POST that asked; anything else to the
   * POST whose handling produced it (async context), else to the GET stream. */
  route(msg: Message, current: Exchange | undefined, related?: Id): void {
    // A child server's request reaches here from the child's output, outside the POST's async
    // context: the request it belongs to says which stream it goes on.
    if (current === undefined && related !== undefined) current = this.waiting.get(related);
    if (!("method" in msg)) {
      const ex = msg.id === null ? current : this.waiting.get(msg.id);
      if (ex?.deliver(msg)) return;
      log.debug(`http: response ${JSON.stringify(msg.id)} has no open request to go to; dropped`);
      return;
    }
    const isRequest = "id" in msg;
    // list_changed and other session-wide news prefer the GET stream; progress and server
    // requests made while handling a POST go back on that POST.
    const sessionWide = !isRequest && msg.method !== "notifications/progress" && msg.method !== "notifications/message";
    if (sessionWide && this.listener?.write(sseEvent(msg))) return;
    if (current?.canStream && current.deliver(msg)) return;
    if (this.listener?.write(sseEvent(msg))) return;
    if (isRequest) this.queued.push(msg);
  }

  close(): void {
    this.gateway.disconnect(this.session);
    this.listener?.close();
  }
}

export function serveHttp(opts: HttpServeOptions = {}): HttpGatewayServer {
  const gateway = new Gateway(opts.loadHost ?? defaultHost);
  const sessions = new Map<string, HttpSession>();
  const context = new AsyncLocalStorage<Exchange>();
  const bindHost = opts.host ?? "127.0.0.1";
  let allowedHosts = new Set<string>();

  const maxSessions = opts.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleTimeoutS = opts.idleTimeoutS ?? DEFAULT_IDLE_TIMEOUT_S;
  const open = (id: string): HttpSession => {
    const hs = new HttpSession(id, gateway);
    hs.session = gateway.connect(id, (msg, related) => hs.route(msg, context.getStore(), related));
    return hs;
  };

  /** Room for one more session: the least recently used idle one is ended if need be. */
  const makeRoom = (): boolean => {
    if (sessions.size < maxSessions) return true;
    let oldest: HttpSession | undefined;
    const now = Date.now();
    for (const hs of sessions.values())
      if (!hs.listener?.open && hs.waiting.size === 0 && now - hs.lastActive > EVICTABLE_AFTER_MS && (!oldest || hs.lastActive < oldest.lastActive)) oldest = hs;
    if (!oldest) return false;
    log.debug(`http: session limit (${maxSessions}) reached; ending idle session ${oldest.id}`);
    sessions.delete(oldest.id);
    oldest.close();
    return true;
  };

  /** The body, or an answer when it does not arrive in time (a slow client holds a socket). */
  const readBody = async (req: Request): Promise<string | Response> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<Response>((r) => (timer = setTimeout(() => r(httpError(408, `Request Timeout: the body did not arrive within ${idleTimeoutS} s`)), idleTimeoutS * 1000)));
    try {
      return await Promise.race([req.text(), late]);
    } finally {
      clearTimeout(timer);
    }
  };

  async function handlePost(req: Request): Promise<Response> {
    const ct = req.headers.get("content-type") ?? "";
    if (!/^application\/json\b/i.test(ct.trim())) return httpError(415, "Unsupported Media Type: Content-Type must be application/json");
    const accept = acceptOf(req);
    if (!accept.json && !accept.sse) return httpError(406, "Not Acceptable: Accept must include application/json and text/event-stream");
    const len = Number(req.headers.get("content-length") ?? 0);
    if (len > MAX_BODY) return httpError(413, "Payload Too Large: a message is limited to 64 MiB");

    const body = await readBody(req);
    if (body instanceof Response) return body;
    // Read in time: from here on the request may take as long as its tool does.
    server.timeout(req, 0);
    let msg: unknown;
    try {
      msg = JSON.parse(body);
    } catch (e) {
      return Response.json(errorResponse(null, ErrorCode.ParseError, `Parse error: ${(e as Error).message}`), { status: 400 });
    }
    const reason = invalidReason(msg);
    if (reason) {
      const id = (msg as any)?.id;
      return Response.json(errorResponse(typeof id === "string" || typeof id === "number" ? id : null, ErrorCode.InvalidRequest, `Invalid request: ${reason}`), { status: 400 });
    }
    const m = msg as Message;
    const method = "method" in m ? m.method : undefined;
    const isRequest = method !== undefined && "id" in m;
    const modern = isRequest && isModernRequest((m as { params?: Record<string, any> }).params);

    let hs: HttpSession | undefined;
    let ephemeral = false;
    const sid = req.headers.get("mcp-session-id");
    if (modern) {
      // Served on its own: no session is read, minted or echoed.
      const mismatch = headerMismatch(req, m as Extract<Message, { id: Id; method: string }>);
      if (mismatch) return Response.json(errorResponse((m as { id: Id }).id, ErrorCode.HeaderMismatch, `Header mismatch: ${mismatch}`), { status: 400 });
      hs = open("stateless");
      ephemeral = true;
    } else if (method === "initialize" && isRequest) {
      if (!makeRoom())
        return httpError(503, `Service Unavailable: pml serve has ${sessions.size} sessions open, its limit (--max-sessions); end unused ones (HTTP DELETE) or try again later`);
      hs = open(crypto.randomUUID());
    } else if (!sid) {
      // A client probing for a newer protocol gets its answer at once.
      if (method === "server/discover" && isRequest) {
        hs = open("discover");
        ephemeral = true;
      } else if (!isRequest && isModernVersion(req.headers.get("mcp-protocol-version"))) {
        return new Response(null, { status: 202 }); // 2026-07-28 defines no client notifications over HTTP
      } else return httpError(400, "Bad Request: Mcp-Session-Id header is required (send initialize first, or use protocol 2026-07-28 with _meta on every request)");
    } else {
      hs = sessions.get(sid);
      if (!hs) return httpError(404, "Session not found: it ended or never existed; initialize a new session");
      hs.lastActive = Date.now();
    }
    const versionError = checkProtocolVersion(req);
    if (versionError && !ephemeral) return versionError;

    if (!isRequest) {
      await gateway.receive(hs.session, m);
      return new Response(null, { status: 202 });
    }

    const req_ = m as Extract<Message, { id: Id; method: string }>;
    const headers: Record<string, string> = ephemeral ? {} : { "mcp-session-id": hs.id };
    const ex = new Exchange(req_.id, accept, headers, modern);
    if (hs.waiting.has(req_.id)) return Response.json(errorResponse(req_.id, ErrorCode.InvalidRequest, `Invalid request: id ${JSON.stringify(req_.id)} is already in use by a request in flight`), { status: 400 });
    hs.waiting.set(req_.id, ex);
    const session = hs;
    req.signal?.addEventListener(
      "abort",
      () => {
        ex.abandon();
        // 2026-07-28: a closed response stream is the cancellation of its request.
        if (modern) session.session.inflight.get(req_.id)?.abort(new Error("the client closed the request's stream"));
      },
      { once: true },
    );
    // Only a tool call can make pml talk to the client mid-request (progress, elicitation); the
    // async context that routes those costs a little on every await, so others go without it.
    const handle = async () => gateway.receive(session.session, m);
    (method === "tools/call" ? context.run(ex, handle) : handle())
      .catch((e) => {
        log.error("http: unhandled:", e);
        ex.deliver(errorResponse(req_.id, ErrorCode.InternalError, `pml internal error: ${(e as Error)?.message ?? e}`));
      })
      .finally(() => {
        session.waiting.delete(req_.id);
        ex.abandon(); // no-op unless nothing answered
        if (ephemeral) session.close();
      });
    if (method === "initialize") sessions.set(hs.id, hs);
    return ex.response;
  }

  function handleGet(req: Request): Response {
    if (!acceptOf(req).sse) return httpError(406, "Not Acceptable: GET needs Accept: text/event-stream");
    const found = sessionOf(req);
    if (found instanceof Response) return found;
    const versionError = checkProtocolVersion(req);
    if (versionError) return versionError;
    if (found.listener?.open) return httpError(409, "Conflict: this session already has a GET stream open");
    server.timeout(req, 0); // kept alive by its keep-alive comments instead
    const listener = new Listener({ "mcp-session-id": found.id }, () => {
      if (found.listener === listener) found.listener = undefined;
    });
    found.listener = listener;
    for (const msg of found.queued.splice(0)) listener.write(sseEvent(msg));
    return listener.response;
  }

  function handleDelete(req: Request): Response {
    const found = sessionOf(req);
    if (found instanceof Response) return found;
    const versionError = checkProtocolVersion(req);
    if (versionError) return versionError;
    sessions.delete(found.id);
    found.close();
    return new Response(null, { status: 200 });
  }

  function sessionOf(req: Request): HttpSession | Response {
    const sid = req.headers.get("mcp-session-id");
    if (!sid) return httpError(400, "Bad Request: Mcp-Session-Id header is required");
    return sessions.get(sid) ?? httpError(404, "Session not found: it ended or never existed; initialize a new session");
  }

  const server = Bun.serve({
    port: opts.port ?? 0,
    hostname: bindHost,
    // Slow headers/bodies and idle keep-alive connections are cut; requests that are running
    // and GET streams lift it for themselves (server.timeout(req, 0)).
    idleTimeout: idleTimeoutS,
    maxRequestBodySize: MAX_BODY,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname !== MCP_PATH) return httpError(404, `Not Found: the MCP endpoint is ${MCP_PATH}`);
      // DNS rebinding: a page on evil.example resolving to 127.0.0.1 still sends Host: evil.example.
      const host = (req.headers.get("host") ?? "").toLowerCase();
      if (!allowedHosts.has(host)) return httpError(403, `Forbidden: Host ${JSON.stringify(host)} is not this server (use ${[...allowedHosts][0]})`);
      const origin = req.headers.get("origin");
      if (origin && !LOCAL_ORIGIN.test(origin)) return httpError(403, `Forbidden: Origin ${origin} is not allowed (only local origins may call pml)`);
      try {
        switch (req.method) {
          case "POST":
            return await handlePost(req);
          case "GET":
            return handleGet(req);
          case "DELETE":
            return handleDelete(req);
          default:
            return httpError(405, "Method Not Allowed: use POST, GET or DELETE", { allow: "POST, GET, DELETE" });
        }
      } catch (e) {
        log.error("http:", e);
        return httpError(500, `Internal error: ${(e as Error)?.message ?? e}`);
      }
    },
  });

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, hs] of sessions)
      if (hs.idle(now)) {
        sessions.delete(id);
        hs.close();
      }
  }, 60_000);
  sweep.unref?.();

  const port = server.port!;
  allowedHosts = new Set(
    ["127.0.0.1", "localhost", "[::1]", bindHost.includes(":") && !bindHost.startsWith("[") ? `[${bindHost}]` : bindHost].map((h) => `${h.toLowerCase()}:${port}`),
  );
  const shownHost = bindHost === "0.0.0.0" || bindHost === "::" ? "127.0.0.1" : bindHost.includes(":") ? `[${bindHost}]` : bindHost;
  let stopping: Promise<void> | undefined;

  return {
    url: `http://${shownHost}:${port}${MCP_PATH}`,
    port,
    gateway,
    sessionCount: () => sessions.size,
    stop() {
      stopping ??= (async () => {
        clearInterval(sweep);
        for (const hs of sessions.values()) hs.close();
        sessions.clear();
        server.stop(true);
        await gateway.shutdown();
      })();
      return stopping;
    },
  };
}

function acceptOf(req: Request): { json: boolean; sse: boolean } {
  const a = (req.headers.get("accept") ?? "").toLowerCase();
  const any = a === "" || a.includes("*/*");
  return { json: any || a.includes("application/json"), sse: a.includes("text/event-stream") };
}

function isModernVersion(v: string | null): boolean {
  return v !== null && v >= "2026-07-28" && SUPPORTED_PROTOCOLS.includes(v);
}

/**
 * 2026-07-28 requests mirror body fields in headers so that load balancers can route on them;
 * a request whose headers say something else than its body is refused (the spec's
 * HeaderMismatch), or a router and pml would act on different requests.
 */
function headerMismatch(req: Request, m: { method: string; params?: Record<string, any> }): string | undefined {
  const version = req.headers.get("mcp-protocol-version");
  const inBody = m.params?._meta?.[META.protocolVersion];
  if (version === null) return "the MCP-Protocol-Version header is required";
  if (version !== inBody) return `MCP-Protocol-Version header ${JSON.stringify(version)} does not match _meta protocolVersion ${JSON.stringify(inBody)}`;
  const method = req.headers.get("mcp-method");
  if (method === null) return "the Mcp-Method header is required";
  if (method !== m.method) return `Mcp-Method header ${JSON.stringify(method)} does not match body method ${JSON.stringify(m.method)}`;
  if (m.method === "tools/call" || m.method === "prompts/get" || m.method === "resources/read") {
    const raw = req.headers.get("mcp-name");
    if (raw === null) return "the Mcp-Name header is required";
    const name = decodeHeaderValue(raw);
    const body = m.method === "resources/read" ? m.params?.uri : m.params?.name;
    if (name === undefined) return "the Mcp-Name header is not valid base64 in its =?base64?...?= form";
    if (name !== body) return `Mcp-Name header ${JSON.stringify(name)} does not match body value ${JSON.stringify(body)}`;
  }
  return undefined;
}

/** A header value, decoded from the spec's `=?base64?...?=` form when it uses it. */
function decodeHeaderValue(raw: string): string | undefined {
  const m = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(raw);
  if (!m) return raw;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(m[1]!), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function checkProtocolVersion(req: Request): Response | undefined {
  const v = req.headers.get("mcp-protocol-version");
  if (v === null || SUPPORTED_PROTOCOLS.includes(v)) return undefined;
  return httpError(400, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(v)} (supported: ${SUPPORTED_PROTOCOLS.join(", ")})`);
}

function httpError(status: number, message: string, headers: Record<string, string> = {}): Response {
  const body: RpcResponse = errorResponse(null, -32000, message);
  return Response.json(body, { status, headers });
}

async function defaultHost(): Promise<ToolHost> {
  const { createToolHost } = await import("./tool-host.ts");
  return createToolHost();
}
