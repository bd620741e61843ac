// A client's tools/call as the tool host sees it, and what the protocol core expects of the host.
import type { Id } from "../../mcp/jsonrpc.ts";
import type { Cancellation, CancelSignal } from "../../mcp/abort.ts";
import type { InputRequiredResult } from "../../mcp/protocol.ts";
import { NOT_RELAYED, type Session } from "../../mcp/session.ts";
import type { CallOrigin } from "../../mcp/tool-result.ts";
import type { CallToolResult } from "../../mcp/types.ts";
import type { Round } from "../../policy/approval-channel.ts";
import type { LaneCall } from "./lane.ts";

export interface WireTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface CallRequest extends Round {
  name: string;
  arguments: Record<string, unknown>;
  signal: AbortSignal;
  cancel?: CancelSignal;
  progress?(message: string, progress?: number, total?: number): void;
  /** 2026-07-28 multi round-trip retry: the client's answers and the state pml gave it. */
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  /** Who the call is for (child servers' requests go back there only). */
  origin?: CallOrigin;
  interrupt?: () => void;
}

export interface ToolHost {
  /** `continued`: the list is asked for a page after the first (see list-page.ts). */
  listTools(session: Session, continued?: boolean): Promise<WireTool[]>;
  callTool(session: Session, req: CallRequest): Promise<CallToolResult | InputRequiredResult>;
  /** A plain call by the short lane (./lane.ts), already sent; undefined: take `callTool`. */
  lane?(session: Session, requestId: Id, name: string, args: Record<string, unknown>): LaneCall | undefined;
  /** Called once per session when the client says it is initialized. */
  onSessionReady?(session: Session): void;
  onSessionClosed?(session: Session): void;
  shutdown(): Promise<void>;
}

/**
 * One client tools/call, and its own origin (a child server's request made while serving it goes
 * back to this client, on this request), with what the call carries across 2026-07-28 rounds.
 * A class: one is made per call, and an object literal with a getter and a closure cost more.
 */
export class ClientCall implements CallRequest, CallOrigin {
  readonly origin: CallOrigin = this;
  readonly arguments: Record<string, unknown>;
  relayAnswers?: Record<string, unknown>;
  pendingInput?: Round["pendingInput"];
  interrupt?: () => void;

  constructor(
    readonly name: string,
    args: Record<string, unknown>,
    readonly cancel: Cancellation,
    readonly session: Session,
    private readonly requestId: Id,
    readonly progress: CallRequest["progress"],
    readonly inputResponses: Record<string, unknown> | undefined,
    readonly requestState: string | undefined,
  ) {
    this.arguments = args;
  }

  get signal(): AbortSignal {
    return this.cancel.signal;
  }

  /**
   * A child server's sampling/elicitation request made while serving this call. NOT_RELAYED when
   * the client did not declare the capability. A 2026-07-28 request is answered from the answers
   * its retry carries, or else the call is stopped to ask the client for them.
   */
  relay(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    if (!this.session.modern) return this.session.relayRequest(method, params, this.requestId, signal);
    if (!this.session.canRelay(method)) return Promise.resolve(NOT_RELAYED);
    const key = inputKey(method, params);
    if (this.relayAnswers && key in this.relayAnswers) return Promise.resolve(this.relayAnswers[key]);
    this.pendingInput ??= { key, request: { method, params } };
    (this.interrupt ?? (() => this.cancel.abort(new Error("input required"))))();
    return Promise.reject(Object.assign(new Error("pml asked its client for this input; the call starts again when the client answers"), { code: -32001 }));
  }
}

/** The same request (method and params) gets the same key in every round of a retried call. */
function inputKey(method: string, params: Record<string, unknown>): string {
  return `child_${new Bun.CryptoHasher("sha256").update(method).update("\0").update(JSON.stringify(params)).digest("hex").slice(0, 16)}`;
}
