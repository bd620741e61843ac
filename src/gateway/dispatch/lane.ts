// The short lane: a stdio client's tools/call (2025-11-25 and older) of a running pooled server's
// tool that the gate allows at once goes from the line read to the server and back without the
// general dispatch (a ClientCall, the call's contexts, an Outcome, and four promise turns).
// Invoker.lane decides whether a call may take it, asking the gate as every call does; what
// the general path does per call is done here too (the tool_usage row, the session's notes, the
// namespace noted as used, cancellation, a child's requests relayed on this call) or is a no-op
// for such a call (Invoker.lane says why). Anything else takes the general path.
//
// One object per call, with no promise: the call's cancellation (what notifications/cancelled
// aborts), its origin (a child server's sampling or elicitation goes back to this client, on
// this request), and what the server's answer is handed to (the pool's Settle).
import { log } from "../../log.ts";
import { Cancellation } from "../../mcp/abort.ts";
import type { Id } from "../../mcp/jsonrpc.ts";
import type { Settle } from "../../mcp/peer.ts";
import type { Session } from "../../mcp/session.ts";
import type { ToolId } from "../../mcp/tool-names.ts";
import { errorToResult, type CallOrigin } from "../../mcp/tool-result.ts";
import type { CallToolResult } from "../../mcp/types.ts";

/** What a lane call's answer (`ok`) or failure becomes for the client (Invoker.laneResult). */
export interface LaneEnd {
  laneResult(call: LaneCall, ok: boolean, value: unknown): CallToolResult;
}

/** A call answered later, not through a promise (what `Gateway.receive` returns for a lane call). */
export interface Answered {
  whenAnswered(answered: () => void): void;
}

export class LaneCall extends Cancellation implements CallOrigin, Settle, Answered {
  readonly started = performance.now();
  /** The transport's "answered" (stdio counts calls in flight until they are answered). */
  private answered?: () => void;
  private ended = false;

  constructor(
    readonly session: Session,
    readonly requestId: Id,
    readonly id: ToolId,
    private readonly end: LaneEnd,
  ) {
    super();
  }

  /** The call's context, as the pool reads it: the cancellation is this object itself. */
  get cancel(): Cancellation {
    return this;
  }
  get origin(): CallOrigin {
    return this;
  }

  /** A child server's request while serving this call: to this client, related to this request. */
  relay(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    return this.session.relayRequest(method, params, this.requestId, signal);
  }

  resolve(result: unknown): void {
    this.finish(true, result);
  }

  reject(error: Error): void {
    this.finish(false, error);
  }

  /** Called by the server's read loop (or at once): never throws into it. */
  private finish(ok: boolean, value: unknown): void {
    this.session.inflight.delete(this.requestId);
    let result: CallToolResult;
    try {
      result = this.end.laneResult(this, ok, value);
    } catch (e) {
      result = errorToResult(e, "internal error"); // what the general path answers (Gateway.callFailed)
    }
    try {
      this.session.reply({ jsonrpc: "2.0", id: this.requestId, result });
    } catch (e) {
      log.error("unhandled:", e);
    }
    this.ended = true;
    this.answered?.();
  }

  whenAnswered(answered: () => void): void {
    if (this.ended) answered();
    else this.answered = answered;
  }
}
