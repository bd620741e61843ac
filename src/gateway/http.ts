// `pml serve`: the same Gateway over MCP Streamable HTTP (spec 2025-11-25) on a loopback port.
// POST carries one JSON-RPC message; a request is answered with JSON, or with an SSE stream when
// something (progress, an elicitation request) must reach the client before the result. GET opens
// the session's stream for server-initiated messages outside a request; DELETE ends a session.
// The transport only routes messages: the protocol lives in server.ts.
import { AsyncLocalStorage } from "node:async_hooks";
import { log } from "../log.ts";
import { ErrorCode, errorResponse, invalidReason, type Id, type Message, type Response as RpcResponse } from "./jsonrpc.ts";
import { Gateway, SUPPORTED_PROTOCOLS, type ToolHost } from "./server.ts";
import type { Session } from "./session.ts";

export const MCP_PATH = "/mcp";
/** What `pml serve` listens on without --port (and what `pml init --http` should write). */
export const DEFAULT_HTTP_PORT = 7331;
const MAX_BODY = 64 * 1024 * 1024;
const KEEPALIVE_MS = 15_000;
/** A session nobody used for this long (no request, no open stream) is ended, as if DELETEd. */
const SESSION_IDLE_MS = 60 * 60_000;
const encoder = new TextEncoder();

export interface HttpServeOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  loadHost?: () => Promise<ToolHost>;
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
        this.resolve(new Response(JSON.stringify(msg), { status: 200, headers: { ...this.headers, "content-type": "application/json" } }));
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

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive" };

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
  route(msg: Message, current: Exchange | undefined): void {
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

  const open = (id: string): HttpSession => {
    const hs = new HttpSession(id, gateway);
    hs.session = gateway.connect(id, (msg) => hs.route(msg, context.getStore()));
    return hs;
  };

  async function handlePost(req: Request): Promise<Response> {
    const ct = req.headers.get("content-type") ?? "";
    if (!/^application\/json\b/i.test(ct.trim())) return httpError(415, "Unsupported Media Type: Content-Type must be application/json");
    const accept = acceptOf(req);
    if (!accept.json && !accept.sse) return httpError(406, "Not Acceptable: Accept must include application/json and text/event-stream");
    const len = Number(req.headers.get("content-length") ?? 0);
    if (len > MAX_BODY) return httpError(413, "Payload Too Large: a message is limited to 64 MiB");

    let msg: unknown;
    try {
      msg = JSON.parse(await req.text());
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

    let hs: HttpSession | undefined;
    let ephemeral = false;
    const sid = req.headers.get("mcp-session-id");
    if (method === "initialize" && isRequest) {
      hs = open(crypto.randomUUID());
    } else if (!sid) {
      // A client probing for a newer protocol gets its answer (method not found) at once.
      if (method === "server/discover" && isRequest) {
        hs = open("discover");
        ephemeral = true;
      } else return httpError(400, "Bad Request: Mcp-Session-Id header is required (send initialize first)");
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
    const ex = new Exchange(req_.id, accept, headers);
    if (hs.waiting.has(req_.id)) return Response.json(errorResponse(req_.id, ErrorCode.InvalidRequest, `Invalid request: id ${JSON.stringify(req_.id)} is already in use by a request in flight`), { status: 400 });
    hs.waiting.set(req_.id, ex);
    req.signal?.addEventListener("abort", () => ex.abandon(), { once: true });
    const session = hs;
    // Only a tool call can make pml talk to the client mid-request (progress, elicitation); the
    // async context that routes those costs a little on every await, so others go without it.
    const handle = () => gateway.receive(session.session, m);
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
    idleTimeout: 0, // a tool call may take minutes; streams carry their own keep-alives
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
  const { createToolHost } = await import("./host.ts");
  return createToolHost();
}
