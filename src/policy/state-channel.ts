// The 2026-07-28 channel: pml never sends the client a request. A question comes as an
// `input_required` result with the form and a signed request state, and the client's retry of the
// same call carries the answer; a call that cannot be retried as it was made (a capability's run, a
// continuation), or a client without forms, gets the tool-result flow, whose workflow id is a state.
import type { InputRequiredResult } from "../mcp/protocol.ts";
import type { Session } from "../mcp/session.ts";
import { errorResult } from "../mcp/tool-result.ts";
import type { CallToolResult } from "../mcp/types.ts";
import { approvalElicitation, approvalRequired, replyOf } from "./approvals.ts";
import {
  answerOf,
  continued,
  type ApprovalChannel,
  type Approvals,
  type Continuable,
  isRefusal,
  refusedText,
  resumes,
  type Answer,
  type Comeback,
  type ContinueWorkflow,
  type Expected,
  type Pause,
  type Resumed,
  type Round,
  type Taken,
} from "./approval-channel.ts";
import type { Question } from "./question.ts";
import { argsDigest, type RequestStates, type StatePayload } from "./request-state.ts";
import { ErrorCode, ProtocolError } from "../mcp/jsonrpc.ts";

export class StateChannel implements ApprovalChannel, Continuable {
  constructor(
    readonly session: Session,
    readonly approvals: Approvals,
  ) {}

  /** Never a request to the client: the question comes with the result. */
  ask(): Promise<Answer> {
    return Promise.resolve("later");
  }

  later(round: Round, q: Question, pause: Pause): CallToolResult | InputRequiredResult {
    const { kind, tool, via } = pause;
    const session = this.session;
    const common = { kind, tool, dependency: q.toolId, grant: q.grant, key: q.key, fileAllows: q.fileAllows, approved: [...session.approved], replay: pause.replay, via };
    const states = this.approvals.states();
    if (pause.bind !== undefined && session.supportsFormElicitation()) {
      const state = states.issue({ ...common, args: argsDigest(pause.bind), answers: round.relayAnswers });
      this.approvals.publish(session, q, kind, "input_required", state);
      return inputRequired({ [APPROVAL_INPUT]: { method: "elicitation/create", params: approvalElicitation(q.toolId, q.why, "this call") } }, state);
    }
    const id = states.issue({ ...common, carried: pause.args });
    return approvalRequired({ id, tool, dependency: q.toolId, kind, via }, q.why, this.approvals.publish(session, q, kind, "tool-result", id), q.dismissed);
  }

  relayInput(round: Round, pause: Pause): InputRequiredResult {
    const { key, request } = round.pendingInput!;
    round.pendingInput = undefined;
    const state = this.approvals.states().issue({
      kind: pause.kind,
      tool: pause.tool,
      args: argsDigest(pause.bind),
      approved: [...this.session.approved],
      answers: round.relayAnswers,
      replay: pause.replay,
    });
    return inputRequired({ [key]: request }, state);
  }

  take(cw: ContinueWorkflow, expected: Expected, hold: boolean): Taken | { issuedFor: string } | "held" | undefined {
    const states: RequestStates = this.approvals.states();
    const issued = states.verify(cw.workflow_id);
    if (typeof issued !== "string" && hold && (issued.via ?? issued.dependency) !== undefined) return "held";
    if (typeof issued !== "string" && issued.tool !== expected.tool) return { issuedFor: issued.tool };
    const st = states.redeem(cw.workflow_id, expected.tool);
    if (typeof st === "string" || !st.carried || !st.dependency || !resumes(st, expected)) return undefined;
    return {
      toolId: st.dependency,
      grant: st.grant,
      key: st.key ?? st.dependency,
      fileAllows: st.fileAllows,
      approved: st.approved,
      args: st.carried,
      replay: st.replay,
      via: st.via,
    };
  }

  /** A continuation, or a retry: the state pml issued, verified and used up, with the client's answers. */
  async redeem(round: Round, back: Comeback, expected: Expected, args: Record<string, unknown>): Promise<Resumed | CallToolResult> {
    if (back.continueWorkflow) return continued(this, round, back.continueWorkflow, expected);
    if (back.requestState === undefined) return {};
    const states: RequestStates = this.approvals.states();
    const st = states.redeem(back.requestState, expected.tool, { kind: expected.kind, bind: expected.bind(args) });
    // Anything but a state pml issued for this very retry is the client's fault, answered with a
    // JSON-RPC error that says what to do.
    if (typeof st === "string")
      throw new ProtocolError(ErrorCode.InvalidParams, `Invalid params: requestState refused: ${st}. Call ${expected.tool} again without requestState to start over.`);
    const fromPage = this.approvals.live?.forKey(back.requestState);
    fromPage?.done();
    const responses = fromPage?.answer ? { ...back.inputResponses, [APPROVAL_INPUT]: { action: "accept", content: { decision: fromPage.answer } } } : back.inputResponses;
    const stop = await this.resume(round, st, responses, { kind: expected.kind, tool: expected.tool, args, replay: st.replay });
    return stop ?? { replay: st.replay };
  }

  /**
   * Applies a verified retry: approvals of earlier rounds, answers for child servers, and the
   * user's decision on the pending approval. A result means the call ends here (declined, or the
   * client could not ask: the tool-result flow); undefined means go on.
   */
  private async resume(round: Round, st: StatePayload, inputResponses: Record<string, unknown> | undefined, pause: Pause): Promise<CallToolResult | undefined> {
    for (const t of st.approved ?? []) this.session.approved.add(t);
    const { [APPROVAL_INPUT]: answer, ...relayed } = inputResponses ?? {};
    round.relayAnswers = { ...st.answers, ...relayed };
    if (!st.dependency || answer === undefined) return undefined; // not answered: asked again
    const q: Question = { toolId: st.dependency, why: "", grant: st.grant, key: st.key ?? st.dependency, fileAllows: st.fileAllows };
    const reply = answerOf(replyOf(answer));
    if (reply === "later" || reply === "dismissed") return this.later(round, { ...q, dismissed: reply === "dismissed" }, { ...pause, bind: undefined }) as CallToolResult;
    if (isRefusal(reply)) return errorResult(refusedText(q.toolId, reply));
    await this.approvals.approve(this.session, q, reply === "always");
    return undefined;
  }

  workflowTool(workflowId: unknown): string | undefined {
    const st = this.approvals.states().verify(workflowId);
    return typeof st === "string" ? undefined : (st.via ?? st.dependency);
  }

  pausedTool(continuation: unknown): string | undefined {
    const p = this.approvals.states().verify(continuation);
    return typeof p !== "string" && p.kind === "tool" && p.via === undefined ? p.dependency : undefined;
  }
}

// Multi round-trip requests (MCP 2026-07-28): the result that asks with a state, and its form.

/** The key of the approval form among a result's inputRequests. */
export const APPROVAL_INPUT = "pml_approval";

export function inputRequired(inputRequests: InputRequiredResult["inputRequests"], requestState: string): InputRequiredResult {
  return { resultType: "input_required", inputRequests, requestState };
}
