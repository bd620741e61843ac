// Who a request comes from. Legacy clients (2025-11-25 and earlier) open a session with
// `initialize`: one per stdio process or per HTTP session, holding what they declared, their
// requests in flight, the requests pml sent them (elicitation) and what the user approved.
// A modern request (2026-07-28) is its own session: everything it declares is in its `_meta`,
// it is gone when answered, and pml asks it for input by multi round-trip requests instead.
import { errorResponse, type Id, type Message, type Response } from "./jsonrpc.ts";
import type { Cancellation } from "./abort.ts";
import { Peer, type Failure } from "./peer.ts";
import { logLevelAtLeast, supportsFormElicitation, type LogLevel, type ModernClient } from "./protocol.ts";
import { visibleChars } from "../visible-text.ts";

/** What `relayRequest` answers when this client cannot take the request (no such capability). */
export const NOT_RELAYED = Symbol("not relayed");
const RELAY_TIMEOUT_MS = 10 * 60_000;

export interface ClientInfo {
  protocolVersion?: string;
  capabilities: Record<string, any>;
  info?: { name?: string; version?: string };
}

export class Session {
  client: ClientInfo = { capabilities: {} };
  /** A 2026-07-28 request: no server-to-client requests, input comes by MRTR. */
  modern = false;
  /** What `logging/setLevel` (legacy) or `_meta` logLevel (modern) asked for; none: no log messages. */
  logLevel?: LogLevel;
  private approvedSet?: Set<string>;
  /** Tools (and variables) the user approved for this session. Made on first use: a 2026-07-28
   * request is a session of its own, and most never ask. */
  get approved(): Set<string> {
    return (this.approvedSet ??= new Set());
  }
  private inflightMap?: Map<Id, Cancellation>;
  /** Calls in flight on this connection (a 2026-07-28 request's own session never has any). */
  get inflight(): Map<Id, Cancellation> {
    return (this.inflightMap ??= new Map());
  }
  /** pml's own requests to the client (elicitation, relayed sampling). Rare, so the line the
   * peer writes is parsed back into a message for the transport, which routes by it. */
  private peerInstance?: Peer<string>;
  /** Created on first use: most sessions (every 2026-07-28 request) never send the client one. */
  private get peer(): Peer<string> {
    this.peerInstance ??= new Peer<string>((line, related) => this.send(JSON.parse(line), related as Id | undefined), "pml-");
    if (this.closedWith !== undefined) this.peerInstance.close(this.closedWith);
    return this.peerInstance;
  }
  private closedWith?: string;

  constructor(
    readonly id: string,
    /** `related`: the client request this message belongs to, so a transport can put it on
     * that request's stream. */
    private readonly send: (msg: Message, related?: Id) => void,
    /** Served over HTTP (`pml serve`): what a model relays in a tool result is not taken as the
     * user's word for "Always" (only a form the client shows the user is). */
    readonly servedOverHttp = false,
  ) {}

  /** The session of one 2026-07-28 request arriving on this connection. */
  forRequest(requestId: Id, client: ModernClient): Session {
    const s = new Session(`${this.id}#${String(requestId)}`, this.send, this.servedOverHttp);
    s.modern = true;
    s.client = { protocolVersion: client.protocolVersion, capabilities: client.capabilities, info: client.info };
    s.logLevel = client.logLevel;
    return s;
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.send(params ? { jsonrpc: "2.0", method, params } : { jsonrpc: "2.0", method });
  }

  /** A `notifications/message` when the client asked for messages at this level. */
  log(level: LogLevel, data: string): void {
    // A warning may quote a file or a server; the client may show it to the user: escaped.
    if (this.logLevel !== undefined && logLevelAtLeast(level, this.logLevel)) this.notify("notifications/message", { level, logger: "pml", data: visibleChars(data) });
  }

  reply(msg: Response): void {
    this.send(msg);
  }

  /** Sends a request to the client; resolves with its response (or a -32001 error on timeout/abort). */
  request(method: string, params: Record<string, unknown>, opts: { timeoutMs: number; signal?: AbortSignal; related?: Id }): Promise<Response> {
    if (this.modern) return Promise.resolve(errorResponse(null, -32001, "a 2026-07-28 request cannot be sent requests; use an input_required result"));
    return this.peer.request(method, params, { label: method, timeoutMs: opts.timeoutMs, signal: opts.signal, route: opts.related, fail: clientFailure }).then(
      (result): Response => ({ jsonrpc: "2.0", id: null, result }),
      (e: ClientFailure): Response => errorResponse(null, e.code, e.message, e.data),
    );
  }

  /** Whether the client declared the capability a child server's request needs. */
  canRelay(method: string): boolean {
    return this.client.capabilities[method === "sampling/createMessage" ? "sampling" : "elicitation"] !== undefined;
  }

  /**
   * A child server's sampling/elicitation request made while serving this client's call
   * `related` (2025-11-25: sent to the client). NOT_RELAYED when the client did not declare the
   * capability. A 2026-07-28 call relays through its call object instead (gateway/dispatch/call.ts).
   */
  async relayRequest(method: string, params: Record<string, unknown>, related: Id, signal?: AbortSignal): Promise<unknown> {
    if (!this.canRelay(method)) return NOT_RELAYED;
    const res = await this.request(method, params, { timeoutMs: RELAY_TIMEOUT_MS, signal, related });
    if (res.error) throw Object.assign(new Error(res.error.message), { code: res.error.code, data: res.error.data });
    return res.result;
  }

  /** Routes a response from the client to the request pml sent; false if it matches none. */
  settle(msg: Response): boolean {
    return msg.id !== null && (this.peerInstance?.receive(msg) ?? false);
  }

  supportsFormElicitation(): boolean {
    return supportsFormElicitation(this.client.capabilities);
  }

  /** URL-mode elicitation (a link the client shows and opens; sign-ins). */
  supportsUrlElicitation(): boolean {
    const e = this.client.capabilities.elicitation;
    return !!e && typeof e === "object" && e.url !== undefined;
  }

  /** The client can no longer answer (its input closed): requests pml sent it fail at once,
   * and later ones too. Calls in flight go on. */
  endInput(): void {
    this.closedWith = "the client closed its input";
    this.peerInstance?.close(this.closedWith);
  }

  close(): void {
    for (const c of this.inflightMap?.values() ?? []) c.abort();
    this.closedWith = "session closed";
    this.peerInstance?.close(this.closedWith);
  }
}

class ClientFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

function clientFailure(f: Failure, label: string): ClientFailure {
  switch (f.kind) {
    case "error":
      return new ClientFailure(f.code, f.message, f.data);
    case "timeout":
      return new ClientFailure(-32001, `no answer to ${label} within ${f.timeoutMs} ms`);
    case "cancelled":
      return new ClientFailure(-32001, "cancelled");
    case "closed":
      return new ClientFailure(-32001, String(f.reason));
  }
}

/** The session a call is for (the client its origin serves). */
export function sessionOf(ctx: { origin?: { readonly session?: Session } }): Session | undefined {
  return ctx.origin?.session;
}
