// Multi round-trip requests (MCP 2026-07-28): where a legacy session gets a request from pml
// (elicitation, sampling), a modern request gets an `input_required` result and comes back as
// a retry carrying the answers and the state pml issued. The state is checked here, once.
import { ErrorCode, ProtocolError } from "../mcp/jsonrpc.ts";
import type { InputRequiredResult } from "../mcp/protocol.ts";
import { argsDigest, type RequestStates, type StatePayload } from "./request-state.ts";

/** The key of the approval form among a result's inputRequests. */
export const APPROVAL_INPUT = "pml_approval";

export function inputRequired(inputRequests: InputRequiredResult["inputRequests"], requestState: string): InputRequiredResult {
  return { resultType: "input_required", inputRequests, requestState };
}

/**
 * The state a retry carries, verified: authentic, unexpired, unused (it is used up now), issued
 * for this tool and these arguments, and of the expected kind. Anything else is the client's
 * fault, answered with a JSON-RPC error that says what to do.
 */
export function redeemState(states: RequestStates, state: string, tool: string, bind: unknown, kind: StatePayload["kind"]): StatePayload {
  const payload = states.redeem(state, tool);
  const refuse = (why: string) =>
    new ProtocolError(ErrorCode.InvalidParams, `Invalid params: requestState refused: ${why}. Call ${tool} again without requestState to start over.`);
  if (typeof payload === "string") throw refuse(payload);
  if (payload.kind !== kind) throw refuse(`it belongs to another kind of request (${payload.kind})`);
  if (payload.args !== argsDigest(bind)) throw refuse("the arguments differ from the call it was issued for");
  return payload;
}
