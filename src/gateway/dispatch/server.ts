// The MCP protocol core, independent of transport: stdio and Streamable HTTP both feed it
// messages and give it a way to send. Tool work lives behind ToolHost, loaded lazily so that
// `initialize` is answered before anything heavy is imported.
import { version } from "../../version.ts";
import { ErrorCode, errorResponse, invalidReason, ProtocolError, type Id, type Message, type Request, type Response } from "../../mcp/jsonrpc.ts";
import { isLogLevel, isModernRequest, LEGACY_PROTOCOLS, META, readModernMeta, SUPPORTED_PROTOCOLS, type InputRequiredResult } from "../../mcp/protocol.ts";
import { Session } from "../../mcp/session.ts";
import { ClientCall, type CallRequest, type ToolHost, type WireTool } from "./call.ts";
import { pageOf } from "./list-page.ts";
import { errorToResult } from "../../mcp/tool-result.ts";
import { Cancellation } from "../../mcp/abort.ts";
import type { CallToolResult } from "../../mcp/types.ts";
import type { Answered, LaneCall } from "./lane.ts";

export { SUPPORTED_PROTOCOLS };

const SERVER_INFO = { name: "pml", title: "pml (Procedural Memory Layer)", version };
/** How long a 2026-07-28 client may cache tools/list and server/discover: the surface grows
 * when a namespace is first used, so not for long. */
const LIST_TTL_MS = 60_000;

const INSTRUCTIONS = [
  "pml gives you every tool through this one server.",
  "Tools are named <namespace>__<action> (e.g. memory__create_entities).",
  "Use `discover` to find tools not listed here, `call` to run any tool by id (namespace:action),",
  "and `execute` to run a short program that calls several tools (`await mcp.ns.action(args)`).",
  "If a result says approval_required, ask the user exactly what it says, then continue as it explains.",
].join(" ");

export class Gateway {
  private hostPromise?: Promise<ToolHost>;
  /** The loaded host, so a call does not await the (settled) promise each time. */
  private host?: ToolHost;

  constructor(private readonly loadHost: () => Promise<ToolHost>) {}

  /** Starts loading the tool host (config, registry, pool) in the background. */
  warm(): Promise<ToolHost> {
    this.hostPromise ??= this.loadHost().then((h) => (this.host = h));
    return this.hostPromise;
  }

  /** A client connection's session (stdio, or one HTTP session). */
  openSession(id: string, send: (msg: Message, related?: Id) => void, opts: { overHttp?: boolean } = {}): Session {
    return new Session(id, send, opts.overHttp === true);
  }

  /** Ends a session: its calls are aborted and the host forgets it. */
  disconnect(session: Session): void {
    session.close();
    this.hostPromise?.then(
      (h) => h.onSessionClosed?.(session),
      () => {},
    );
  }

  /** Handles a raw line/body: parse errors get -32700 and never stop the server. A promise only
   * while the answer is not ready (see `receive`). */
  receiveText(session: Session, text: string): void | Promise<unknown> | Answered {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      session.reply(errorResponse(null, ErrorCode.ParseError, `Parse error: ${(e as Error).message}`));
      return;
    }
    return this.receive(session, msg);
  }

  /**
   * Handles one message. Not async: a proxied tool call is the hot path, and every async frame
   * between the client's line and the pooled server's answer is a promise and a microtask turn
   * more per call. A promise is returned while the answer is pending.
   */
  receive(session: Session, msg: unknown): void | Promise<unknown> | Answered {
    const reason = invalidReason(msg);
    if (reason) {
      const id = (msg as any)?.id;
      session.reply(errorResponse(typeof id === "string" || typeof id === "number" ? id : null, ErrorCode.InvalidRequest, `Invalid request: ${reason}`));
      return;
    }
    const m = msg as Message;
    if (!("method" in m)) {
      session.settle(m as Response);
      return;
    }
    if (!("id" in m)) return this.onNotification(session, m.method, m.params ?? {});
    const req = m as Request;
    if (req.method === "tools/call") {
      const lane = this.lane(session, req);
      if (lane !== undefined) return lane;
      // Only here, under both revisions. The call's own continuation sends the answer: one
      // promise turn fewer.
      const res = isModernRequest(req.params) ? this.onModernCall(session, req, session) : this.onCall(session, session, req, session);
      if (res instanceof Promise) return res;
      return session.reply(res);
    }
    const res = this.onRequest(session, req);
    if (res instanceof Promise) return res.then((r) => session.reply(r));
    session.reply(res);
  }

  /** The short lane (./lane.ts) for a stdio client's call that carries nothing but a tool's name
   * and arguments (no progress token, no retry, no 2026-07-28 _meta), when the host takes it. */
  private lane(session: Session, req: Request): LaneCall | undefined {
    const params = req.params;
    const host = this.host;
    if (host?.lane === undefined || params === undefined || session.servedOverHttp || session.modern || session.logLevel !== undefined) return undefined;
    if (params._meta !== undefined || params.inputResponses !== undefined || params.requestState !== undefined) return undefined;
    const { name, arguments: args } = params;
    if (typeof name !== "string" || args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
    return host.lane(session, req.id, name, args);
  }

  private onNotification(session: Session, method: string, params: Record<string, any>): void {
    if (method === "notifications/cancelled") {
      session.inflight.get(params.requestId)?.abort(new Error(params.reason ?? "cancelled by the client"));
    } else if (method === "notifications/initialized") {
      this.warm().then(
        (h) => h.onSessionReady?.(session),
        () => {},
      );
    }
  }

  private async onRequest(session: Session, req: Request): Promise<Response> {
    if (req.method === "server/discover") return this.discover(req);
    if (isModernRequest(req.params)) return this.onModernRequest(session, req);
    const ok = (result: unknown): Response => ({ jsonrpc: "2.0", id: req.id, result });
    const params = req.params ?? {};
    switch (req.method) {
      case "initialize": {
        // A 2026-07-28 client does not send initialize: this one gets the newest legacy revision.
        const asked = typeof params.protocolVersion === "string" ? params.protocolVersion : undefined;
        session.client = {
          protocolVersion: asked && LEGACY_PROTOCOLS.includes(asked) ? asked : LEGACY_PROTOCOLS[0],
          capabilities: params.capabilities ?? {},
          info: params.clientInfo,
        };
        queueMicrotask(() => void this.warm().catch(() => {}));
        return ok({
          protocolVersion: session.client.protocolVersion,
          capabilities: { tools: { listChanged: true }, logging: {} },
          serverInfo: SERVER_INFO,
          instructions: INSTRUCTIONS,
        });
      }
      case "ping":
        return ok({});
      case "logging/setLevel":
        if (!isLogLevel(params.level))
          return errorResponse(req.id, ErrorCode.InvalidParams, 'logging/setLevel needs "level": debug, info, notice, warning, error, critical, alert or emergency');
        session.logLevel = params.level;
        return ok({});
      case "tools/list": {
        const page = await this.toolsPage(session, req);
        return "error" in page ? page.error : ok(page);
      }
      default:
        return errorResponse(req.id, ErrorCode.MethodNotFound, `Method not found: ${req.method}`);
    }
  }

  /** server/discover: what a 2026-07-28 client asks first (answered with or without _meta). */
  private discover(req: Request): Response {
    return {
      jsonrpc: "2.0",
      id: req.id,
      result: {
        resultType: "complete",
        supportedVersions: SUPPORTED_PROTOCOLS,
        capabilities: { tools: {}, logging: {} },
        instructions: INSTRUCTIONS,
        ttlMs: LIST_TTL_MS,
        cacheScope: "private",
        _meta: { [META.serverInfo]: SERVER_INFO },
      },
    };
  }

  /**
   * A 2026-07-28 request: everything about its client is in its `_meta`, so it gets a session of
   * its own that lives as long as the request. Calls in flight stay registered on the
   * connection, where `notifications/cancelled` (stdio) looks for them.
   */
  private async onModernRequest(connection: Session, req: Request): Promise<Response> {
    const client = readModernMeta(req.id, req.params);
    if ("jsonrpc" in client) return client;
    const complete = (result: Record<string, unknown>) => completed(req.id, result);
    switch (req.method) {
      case "tools/list": {
        const page = await this.toolsPage(connection, req);
        return "error" in page ? page.error : complete({ ...page, ttlMs: LIST_TTL_MS, cacheScope: "private" });
      }
      case "ping":
        return complete({});
      default:
        return errorResponse(req.id, ErrorCode.MethodNotFound, `Method not found: ${req.method}`);
    }
  }

  /** A 2026-07-28 tools/call: its session lives as long as the request. Not async, as onCall. */
  private onModernCall(connection: Session, req: Request, replyTo: Session): Response | Promise<Response> {
    const client = readModernMeta(req.id, req.params);
    if ("jsonrpc" in client) return client;
    const shape = (res: Response): Response =>
      res.error || (res.result as InputRequiredResult).resultType === "input_required" ? res : completed(req.id, res.result as Record<string, unknown>);
    const res = this.onCall(connection, connection.forRequest(req.id, client), req);
    if (!(res instanceof Promise)) return shape(res); // (the caller sends a plain answer)
    return res.then((r) => sent(replyTo, shape(r)));
  }

  /** A tools/call, answered by the tool host; a plain value when refused before reaching it.
   * With `replyTo`, an answer that comes later is also sent there; a plain one is the caller's to send. */
  private onCall(connection: Session, session: Session, req: Request, replyTo?: Session): Response | Promise<Response> {
    const params = req.params ?? {};
    if (typeof params.name !== "string" || !params.name) return errorResponse(req.id, ErrorCode.InvalidParams, 'tools/call needs "name": the tool to call');
    const args = params.arguments ?? {};
    if (args === null || typeof args !== "object" || Array.isArray(args)) return errorResponse(req.id, ErrorCode.InvalidParams, '"arguments" must be an object');
    const inputResponses = params.inputResponses;
    if (inputResponses !== undefined && (inputResponses === null || typeof inputResponses !== "object" || Array.isArray(inputResponses)))
      return errorResponse(req.id, ErrorCode.InvalidParams, '"inputResponses" must be an object keyed like the inputRequests it answers');
    if (params.requestState !== undefined && typeof params.requestState !== "string")
      return errorResponse(req.id, ErrorCode.InvalidParams, '"requestState" must be the string pml returned, unchanged');
    const host = this.host;
    if (!host) {
      const later = this.hostOrError(req).then((loaded) => ("error" in loaded ? loaded.error : this.onCall(connection, session, req)));
      return replyTo ? later.then((r) => sent(replyTo, r)) : later;
    }

    const cancellation = new Cancellation();
    connection.inflight.set(req.id, cancellation);
    const token = params._meta?.progressToken;
    const progress = token === undefined && session.logLevel === undefined ? undefined : progressTo(session, token);
    let pending: Promise<CallToolResult | InputRequiredResult>;
    try {
      pending = host.callTool(session, new ClientCall(params.name, args, cancellation, session, req.id, progress, inputResponses, params.requestState));
    } catch (e) {
      return this.callFailed(connection, req, e);
    }
    return pending.then(
      (result): Response => {
        connection.inflight.delete(req.id);
        const res: Response = { jsonrpc: "2.0", id: req.id, result };
        return replyTo ? sent(replyTo, res) : res;
      },
      (e) => {
        const res = this.callFailed(connection, req, e);
        return replyTo ? sent(replyTo, res) : res;
      },
    );
  }

  private callFailed(connection: Session, req: Request, e: unknown): Response {
    connection.inflight.delete(req.id);
    if (e instanceof ProtocolError) return errorResponse(req.id, e.code, e.message, e.data);
    return { jsonrpc: "2.0", id: req.id, result: errorToResult(e, "internal error") };
  }

  /** One page of tools/list (the same under both revisions; see list-page.ts). */
  private async toolsPage(session: Session, req: Request): Promise<{ tools: WireTool[]; nextCursor?: string } | { error: Response }> {
    const host = await this.hostOrError(req);
    if ("error" in host) return host;
    try {
      const cursor = req.params?.cursor;
      const { items, nextCursor } = pageOf(await host.host.listTools(session, cursor !== undefined), cursor);
      return { tools: items, ...(nextCursor ? { nextCursor } : {}) };
    } catch (e) {
      if (e instanceof ProtocolError) return { error: errorResponse(req.id, e.code, e.message, e.data) };
      throw e;
    }
  }

  private async hostOrError(req: Request): Promise<{ host: ToolHost } | { error: Response }> {
    try {
      return { host: await this.warm() };
    } catch (e) {
      this.hostPromise = undefined; // let the next request try again (e.g. after fixing a file)
      return { error: errorResponse(req.id, ErrorCode.InternalError, `pml could not start: ${(e as Error).message}`) };
    }
  }

  async shutdown(): Promise<void> {
    if (!this.hostPromise) return;
    const host = await this.hostPromise.catch(() => undefined);
    await host?.shutdown();
  }
}

/** A 2026-07-28 result: its type, and pml's serverInfo in its _meta. */
function completed(id: Id, result: Record<string, unknown>): Response {
  return { jsonrpc: "2.0", id, result: { resultType: "complete", ...result, _meta: { ...(result._meta as object), [META.serverInfo]: SERVER_INFO } } };
}

/** Install and start-up progress: a progress notification when the call asked for one (`token`),
 * and a log message when the client asked for log messages. A function of its own: written in
 * onCall, its closure would give every call a scope object, progress wanted or not. */
function progressTo(session: Session, token: unknown): CallRequest["progress"] {
  let step = 0;
  return (message, progress, total) => {
    if (token !== undefined) {
      step = progress !== undefined && progress > step ? progress : step + 1;
      session.notify("notifications/progress", { progressToken: token, progress: step, ...(total ? { total } : {}), message });
    }
    session.log("info", message);
  };
}

function sent(to: Session, res: Response): Response {
  to.reply(res);
  return res;
}
