// One approval channel per session, chosen once by how the client can answer (Asker.channel):
// - 2025-11-25 with form elicitation: asked at once, in a form the client shows (FormChannel);
// - 2025-11-25 without it (or the user dismissed the form): the result asks the model to ask the
//   user, and the continuation is the same tool called with `continue_workflow` (WorkflowChannel);
// - 2026-07-28: never a request to the client; an `input_required` result carries the form and a
//   signed request state, and the client's retry carries the answer; without form elicitation the
//   tool-result flow, whose workflow id is such a state (StateChannel).
// Whatever the channel, a continuation is redeemed once, here (`redeem`).
import { log } from "../log.ts";
import type { InputRequiredResult } from "../mcp/protocol.ts";
import type { Session } from "../mcp/session.ts";
import { errorResult, type CallOrigin } from "../mcp/tool-result.ts";
import type { CallToolResult } from "../mcp/types.ts";
import { unknownAnswer, type Refusal, type Reply, type UnknownAnswer } from "./approvals.ts";
import type { LiveBoard } from "./live/board.ts";
import type { Question } from "./question.ts";
import type { RequestStates } from "./state-channel.ts";

/** "later": ask with the call's result; "dismissed": the same, after the user dismissed the form. */
export type Answer = "continue" | "always" | Refusal | "later" | "dismissed";

/** A reply as the caller acts on it: no answer or a dismissed form are asked again with the result. */
export function answerOf(reply: Reply | "fallback"): Answer {
  return reply === "fallback" ? "later" : reply === "cancel" ? "dismissed" : reply;
}

/** Whether an answer approves nothing (Abort, a decline, a value that names no choice). */
export function isRefusal(a: Answer): a is Refusal {
  return a === "abort" || a === "decline" || typeof a === "object";
}

/** What one 2026-07-28 call carries across its rounds: kept on the call object, not the session. */
export type Round = Pick<CallOrigin, "relayAnswers" | "pendingInput"> & {
  /** A capability's run resumed by a continuation of its tool: the calls made before the pause,
   * for the capability to replay (`takeResumedRun`). */
  resumedRun?: unknown[];
};

/** The recording a continuation left for the capability's run on this call, used up. */
export function takeResumedRun(call: object): unknown[] | undefined {
  const round = call as Round;
  const replay = round.resumedRun;
  round.resumedRun = undefined;
  return replay;
}

/** What a paused call needs to be resumed by its continuation or its retry. */
export interface Pause {
  kind: "tool" | "execute";
  /** The tool the continuation or retry calls (as the client named it). */
  tool: string;
  /** What the continuation runs with. */
  args: Record<string, unknown>;
  /** What a retry is bound to (its digest); undefined when the call cannot be retried as it was
   * made (a capability's run, a continuation): then the tool-result flow. */
  bind?: unknown;
  /** execute: results of the calls made before the pause, replayed on the re-run. */
  replay?: unknown[];
  /** A capability's run paused in a call of its own tool (`tool` is that tool or `call`): the
   * capability's tool id; the continuation resumes the run through it, `args` are its arguments. */
  via?: string;
}

export interface ContinueWorkflow {
  workflow_id?: unknown;
  /** The user's answer as the model relayed it; a value that is neither yes nor no comes only in
   * a proxied tool's arguments, which no schema of pml's reads (`relayedContinuation`). */
  approved: boolean | UnknownAnswer;
  always?: unknown;
}

/** A proxied tool's `continue_workflow` as it came: its answer read once, here, as `execute`'s
 * and `call`'s schema reads theirs. Nothing (null, false) is no continuation. */
export function relayedContinuation(raw: unknown): ContinueWorkflow | undefined {
  if (!raw) return undefined;
  const { workflow_id, approved, always } = raw as Record<string, unknown>;
  return { workflow_id, approved: typeof approved === "boolean" ? approved : unknownAnswer(approved), always };
}

/** How a call may come back after a pause. */
export interface Comeback {
  continueWorkflow?: ContinueWorkflow;
  requestState?: string;
  inputResponses?: Record<string, unknown>;
}

/** What the call expects to resume: its tool and kind, the tool id approved (tool calls), and
 * what a retry's state must be bound to. */
export interface Expected {
  tool: string;
  kind: "tool" | "execute";
  toolId?: string;
  bind: (args: Record<string, unknown> | undefined) => unknown;
}

/** A resumed call: the arguments and recording the pause kept (none for a plain retry). */
export interface Resumed {
  args?: Record<string, unknown>;
  replay?: unknown[];
}

/** How one session is asked, and how its calls come back after a pause. */
export interface ApprovalChannel {
  /** Asks at once where the client can answer in-line; "later": ask with the call's result. */
  ask(q: Question, signal: AbortSignal): Promise<Answer>;
  /** The question, asked with the call's result. */
  later(round: Round, q: Question, pause: Pause): CallToolResult | InputRequiredResult;
  /** A call coming back after a pause, redeemed once: a continuation (the user's answer relayed
   * by the model, with the workflow id) or a 2026-07-28 retry (the state pml issued and the
   * client's answers). A result means the call ends here (declined, expired, or asked again). */
  redeem(round: Round, back: Comeback, expected: Expected, args: Record<string, unknown>): Promise<Resumed | CallToolResult>;
  /** 2026-07-28: the input a child server asked for mid-call, as the call's result (undefined
   * where the channel relays no input: the child's request went to the client directly). */
  relayInput(round: Round, pause: Pause): InputRequiredResult | undefined;
  /** The tool an approval was issued for (without using it up), for `call`'s continuation. */
  workflowTool(workflowId: unknown): string | undefined;
  /** The tool id a continuation resumes when it is the approval of that tool itself, not of a
   * call inside code (without using it up); undefined otherwise. */
  pausedTool(continuation: unknown): string | undefined;
}

/** What every channel of a workspace shares (the Asker): recording a yes, the `pml ui` page. */
export interface Approvals {
  live?: LiveBoard;
  states(): RequestStates;
  /** The user said yes: for the session, and with "always" in .pml.json. */
  approve(session: Session, q: Pick<Question, "toolId" | "grant" | "key" | "fileAllows">, always: boolean): Promise<void>;
  /** Lists a question asked with a result for a `pml ui` page; true when a page is open now. */
  publish(session: Session, q: Question, kind: string, channel: "tool-result" | "input_required", key: string): boolean;
}

/** A paused call as its continuation finds it. */
export interface Taken extends Pick<Question, "toolId" | "grant" | "key" | "fileAllows"> {
  approved?: string[];
  args: Record<string, unknown>;
  replay?: unknown[];
  via?: string;
}

/** What a continuation needs of the channel it came to: whose session, and the pause it names. */
export interface Continuable {
  readonly session: Session;
  readonly approvals: Approvals;
  /**
   * The pause a continuation names, used up; undefined when it is not one for this call, the
   * tool it was issued for when the continuation was sent to another one. `hold`: the page has
   * the user's answer to give (see `continued`), so a pause that is still valid is kept ("held").
   */
  take(cw: ContinueWorkflow, expected: Expected, hold: boolean): Taken | { issuedFor: string } | "held" | undefined;
}

/**
 * A continuation: the user's answer, relayed by the model with the workflow id (or given in the
 * page), applied to the pause it names. Both eras take it the same way; what the id names differs.
 * The page and the pause are each looked up once, then the answer is applied.
 */
export async function continued(ch: Continuable, round: Round, cw: ContinueWorkflow, expected: Expected): Promise<Resumed | CallToolResult> {
  const { session, approvals } = ch;
  const live = approvals.live;
  const listed = live?.forKey(cw.workflow_id);
  // What the page says: the user's answer there; "waiting" while a page is open for the workspace
  // and the user has not answered; undefined when the page has no say (no page open, or an
  // approval it never listed): the model's word is taken.
  const page = listed?.answer ?? (listed && live!.pageOpen() ? "waiting" : undefined);
  // The page is open and the user has not answered there: the model's yes is not taken (a
  // no is: refusing needs nobody's word).
  const taken = ch.take(cw, expected, page === "waiting" && cw.approved === true);
  if (taken === "held") return waitingForPage(expected.tool, cw.workflow_id);
  if (!taken) return workflowGone(cw.workflow_id);
  if ("issuedFor" in taken) return wrongTool(taken.issuedFor);
  listed?.done();
  for (const t of taken.approved ?? []) session.approved.add(t);
  if (page === "abort") return errorResult(refusedText(taken.toolId, "abort"));
  if (cw.approved === false) return errorResult(relayedNoText(taken.toolId));
  if (cw.approved !== true) return errorResult(refusedText(taken.toolId, cw.approved));
  // An answer from the page is the user's own ("always" included); else the model relayed it.
  const always = page === "continue" || page === "always" ? page === "always" : alwaysFromRelay(session, taken.toolId, cw.always === true);
  await approvals.approve(session, taken, always);
  // A capability's run resumed through its tool: the invoker runs the tool, which replays.
  if (taken.via !== undefined) {
    round.resumedRun = taken.replay ?? [];
    return { args: taken.args };
  }
  return { args: taken.args, replay: taken.replay };
}

/**
 * "Always" as a model relayed it in a continuation: taken on stdio (the user's own client runs
 * the model), never on `pml serve`, where only a form the client shows the user can say it.
 */
function alwaysFromRelay(session: Session, toolId: string, always: boolean): boolean {
  if (!always || !session.servedOverHttp) return always;
  const text = `"always" for ${toolId} came in a continuation, which pml serve does not take as the user's word: approved for this session only. To allow it for good, add it to permissions.allow in .pml.json, or answer Always in a form your client shows.`;
  log.warn(text);
  session.log("warning", text);
  return false;
}

/** Whether a pause is the one this call resumes: its kind and the tool approved, or a
 * capability's run paused in a call of the capability's tool (resumed by that tool). */
export function resumes(p: { kind: string; dependency?: string; via?: string }, expected: Expected): boolean {
  if (p.via !== undefined) return expected.kind === "tool" && p.via === expected.toolId;
  return p.kind === expected.kind && (expected.toolId === undefined || p.dependency === expected.toolId);
}

// What a continuation is answered when it runs nothing.

export function workflowGone(id: unknown): CallToolResult {
  return errorResult(
    `Workflow expired or not found${typeof id === "string" ? ` (${id})` : ""}. Approval requests work once, for the tool they were issued for, within 5 minutes. Call the tool again to get a new one.`,
  );
}

/** A continuation sent to another tool than the one its approval request named (not used up). */
export function wrongTool(issuedFor: string): CallToolResult {
  return errorResult(`This approval was issued for ${issuedFor}; call ${issuedFor} with it (the same "continue_workflow"). It is still valid.`);
}

/** Why nothing ran, for each answer that approves nothing. */
export function refusedText(toolId: string, r: Refusal): string {
  const nothing = `nothing ran (${toolId} was not run)`;
  if (r === "abort") return `You chose Abort: ${nothing}.`;
  if (r === "decline") return `You declined the question: ${nothing}.`;
  return `The answer ${r.unknown} was not Continue, Always or Abort: ${nothing}.`;
}

/** A continuation whose "approved" is false: the model relays that the user said no. */
export function relayedNoText(toolId: string): string {
  return `The user declined ("approved": false): nothing ran (${toolId} was not run).`;
}

// The tool-result flow while a `pml ui` page is open: the model relays the approval, but the
// user answers it in the page (their own channel), and a continuation is taken only on that answer.

/** The continuation's result while the page has not answered: nothing ran, the approval holds. */
export function waitingForPage(tool: string, workflowId: unknown): CallToolResult {
  const text = [
    "Not run yet: the user has not answered this approval. A pml ui page is open for this workspace, and approvals are answered there, not relayed.",
    `Ask the user to answer it in the pml ui page (Continue, Always or Abort), then call ${tool} again with the same "continue_workflow". The approval is still valid (it expires 5 minutes after it was asked).`,
  ].join("\n");
  return errorResult(text, { approval_required: true, approval_context: { type: "answer_in_page", workflow_id: workflowId } });
}
