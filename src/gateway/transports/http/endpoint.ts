// The MCP endpoint's three methods: POST carries one JSON-RPC message (a request gets an Exchange,
// answered with JSON or an SSE stream); GET opens a legacy session's stream; DELETE ends it.
import { AsyncLocalStorage } from "node:async_hooks";
import { log } from "../../../log.ts";
import { ErrorCode, errorResponse, invalidReason, type Id, type Message } from "../../../mcp/jsonrpc.ts";
import { isModernRequest } from "../../../mcp/protocol.ts";
import type { Gateway } from "../../dispatch/server.ts";
import { Exchange } from "./exchange.ts";
import { HttpSession, type SessionTable } from "./sessions.ts";
import { acceptOf, badMessage, checkProtocolVersion, headerMismatch, httpError, isModernVersion, type Accept } from "./wire.ts";

export const MAX_BODY = 64 * 1024 * 1024;

type RpcRequest = Extract<Message, { id: Id; method: string }>;

/** One POST body, read and checked. */
interface Post {
  req: Request;
  msg: Message;
  method: string | undefined;
  isRequest: boolean;
  /** A 2026-07-28 request: served on its own, no session read, minted or echoed. */
  modern: boolean;
  accept: Accept;
}

/** The session a POST is served in; an ephemeral one lives for this request only. */
interface Target {
  hs: HttpSession;
  ephemeral: boolean;
}

export class McpEndpoint {
  /** The exchange whose handling is running, so that what it makes pml send goes back on it. */
  private readonly context = new AsyncLocalStorage<Exchange>();

  constructor(
    private readonly gateway: Gateway,
    private readonly sessions: SessionTable,
    private readonly idleTimeoutS: number,
    /** Lifts the server's idle timeout for a request that may now run long. */
    private readonly keepOpen: (req: Request) => void,
  ) {}

  async post(req: Request): Promise<Response> {
    const accept = acceptOf(req);
    const refused = unservableBody(req, accept);
    if (refused) return refused;
    const msg = await this.readMessage(req);
    if (msg instanceof Response) return msg;
    const method = "method" in msg ? msg.method : undefined;
    const isRequest = method !== undefined && "id" in msg;
    const modern = isRequest && isModernRequest((msg as { params?: Record<string, any> }).params);
    const post: Post = { req, msg, method, isRequest, modern, accept };

    const target = this.targetOf(post);
    if (target instanceof Response) return target;
    const versionError = checkProtocolVersion(req);
    if (versionError && !target.ephemeral) return versionError;
    if (!isRequest) {
      await this.gateway.receive(target.hs.session, msg);
      return new Response(null, { status: 202 });
    }
    const { id } = msg as RpcRequest;
    if (target.hs.waiting.has(id)) return badMessage(id, ErrorCode.InvalidRequest, `Invalid request: id ${JSON.stringify(id)} is already in use by a request in flight`);
    return this.exchange(post, target);
  }

  get(req: Request): Response {
    if (!acceptOf(req).sse) return httpError(406, "Not Acceptable: GET needs Accept: text/event-stream");
    const found = this.sessionOf(req);
    if (found instanceof Response) return found;
    const versionError = checkProtocolVersion(req);
    if (versionError) return versionError;
    if (found.stream?.open) return httpError(409, "Conflict: this session already has a GET stream open");
    this.keepOpen(req); // kept alive by its keep-alive comments instead
    return found.openStream().response;
  }

  delete(req: Request): Response {
    const found = this.sessionOf(req);
    if (found instanceof Response) return found;
    const versionError = checkProtocolVersion(req);
    if (versionError) return versionError;
    this.sessions.end(found);
    return new Response(null, { status: 200 });
  }

  /** The message, or the answer when it is late, not JSON or not JSON-RPC. */
  private async readMessage(req: Request): Promise<Message | Response> {
    const body = await this.readBody(req);
    if (body instanceof Response) return body;
    // Read in time: from here on the request may take as long as its tool does.
    this.keepOpen(req);
    let msg: unknown;
    try {
      msg = JSON.parse(body);
    } catch (e) {
      return badMessage(null, ErrorCode.ParseError, `Parse error: ${(e as Error).message}`);
    }
    const reason = invalidReason(msg);
    if (reason) {
      const id = (msg as any)?.id;
      return badMessage(typeof id === "string" || typeof id === "number" ? id : null, ErrorCode.InvalidRequest, `Invalid request: ${reason}`);
    }
    return msg as Message;
  }

  /** The body, or an answer when it does not arrive in time (a slow client holds a socket). */
  private async readBody(req: Request): Promise<string | Response> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<Response>(
      (r) => (timer = setTimeout(() => r(httpError(408, `Request Timeout: the body did not arrive within ${this.idleTimeoutS} s`)), this.idleTimeoutS * 1000)),
    );
    try {
      return await Promise.race([req.text(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The session a POST is served in, or the answer refusing it. */
  private targetOf({ req, msg, method, isRequest, modern }: Post): Target | Response {
    if (modern) {
      const mismatch = headerMismatch(req, msg as RpcRequest);
      if (mismatch) return badMessage((msg as RpcRequest).id, ErrorCode.HeaderMismatch, `Header mismatch: ${mismatch}`);
      return { hs: this.open("stateless"), ephemeral: true };
    }
    if (method === "initialize" && isRequest) {
      if (!this.sessions.makeRoom())
        return httpError(
          503,
          `Service Unavailable: pml serve has ${this.sessions.size} sessions open, its limit (--max-sessions); end unused ones (HTTP DELETE) or try again later`,
        );
      return { hs: this.open(crypto.randomUUID()), ephemeral: false };
    }
    const sid = req.headers.get("mcp-session-id");
    if (sid) {
      const hs = this.sessions.get(sid);
      if (!hs) return httpError(404, "Session not found: it ended or never existed; initialize a new session");
      hs.lastActive = Date.now();
      return { hs, ephemeral: false };
    }
    // A client probing for a newer protocol gets its answer at once.
    if (method === "server/discover" && isRequest) return { hs: this.open("discover"), ephemeral: true };
    if (!isRequest && isModernVersion(req.headers.get("mcp-protocol-version"))) return new Response(null, { status: 202 }); // 2026-07-28 defines no client notifications over HTTP
    return httpError(400, "Bad Request: Mcp-Session-Id header is required (send initialize first, or use protocol 2026-07-28 with _meta on every request)");
  }

  /** Hands a request to the gateway; its answer (JSON or SSE) is the exchange's response. */
  private exchange({ req, msg, accept, modern }: Post, { hs, ephemeral }: Target): Promise<Response> {
    const m = msg as RpcRequest;
    const headers: Record<string, string> = ephemeral ? {} : { "mcp-session-id": hs.id };
    const ex = new Exchange(m.id, accept, headers, modern);
    hs.waiting.set(m.id, ex);
    req.signal?.addEventListener(
      "abort",
      () => {
        ex.abandon();
        // 2026-07-28: a closed response stream is the cancellation of its request.
        if (modern) hs.session.inflight.get(m.id)?.abort(new Error("the client closed the request's stream"));
      },
      { once: true },
    );
    // Only a tool call can make pml talk to the client mid-request (progress, elicitation); the
    // async context that routes those costs a little on every await, so others go without it.
    const handle = async () => this.gateway.receive(hs.session, m);
    (m.method === "tools/call" ? this.context.run(ex, handle) : handle())
      .catch((e) => {
        log.error("http: unhandled:", e);
        ex.deliver(errorResponse(m.id, ErrorCode.InternalError, `pml internal error: ${(e as Error)?.message ?? e}`));
      })
      .finally(() => {
        hs.waiting.delete(m.id);
        ex.abandon(); // no-op unless nothing answered
        if (ephemeral) hs.close();
      });
    if (m.method === "initialize") this.sessions.add(hs);
    return ex.response;
  }

  private open(id: string): HttpSession {
    return new HttpSession(id, this.gateway, this.context);
  }

  private sessionOf(req: Request): HttpSession | Response {
    const sid = req.headers.get("mcp-session-id");
    if (!sid) return httpError(400, "Bad Request: Mcp-Session-Id header is required");
    return this.sessions.get(sid) ?? httpError(404, "Session not found: it ended or never existed; initialize a new session");
  }
}

/** Refuses a POST by its headers alone, before its body is read. */
function unservableBody(req: Request, accept: Accept): Response | undefined {
  const ct = req.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(ct.trim())) return httpError(415, "Unsupported Media Type: Content-Type must be application/json");
  if (!accept.json && !accept.sse) return httpError(406, "Not Acceptable: Accept must include application/json and text/event-stream");
  const len = Number(req.headers.get("content-length") ?? 0);
  if (len > MAX_BODY) return httpError(413, "Payload Too Large: a message is limited to 64 MiB");
  return undefined;
}
