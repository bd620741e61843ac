// How the user is asked, by protocol era, and how the answer comes back. One question (./question.ts)
// from the gate; the client decides the way:
// - 2025-11-25 with form elicitation: asked at once (`askNow`), the call waits for the answer;
// - 2025-11-25 without it (or the user cancelled): the result asks the model to ask the user, and
//   the continuation is the same tool called with `continue_workflow` (a workflow, in memory);
// - 2026-07-28: never a request to the client; an `input_required` result carries the form and a
//   signed request state, and the client's retry carries the answer. Without form elicitation,
//   the tool-result flow, whose workflow id is such a state.
// Whatever the way, the continuation is redeemed once, here (`redeem`).
import { allowAlways, grantEnvAlways, permissionFor } from "./permissions.ts";
import {
  approvalElicitation,
  approvalRequired,
  elicitApproval,
  refusedText,
  relayedNoText,
  replyOf,
  WORKFLOW_TTL_MS,
  workflowGone,
  Workflows,
  wrongTool,
  type Decision,
  type Refusal,
  type Reply,
} from "./approvals.ts";
import { APPROVAL_INPUT, inputRequired, redeemState } from "./mrtr.ts";
import type { LiveBoard } from "./live/board.ts";
import { pageAnswer, waitingForPage } from "./live/page-answers.ts";
import { argsDigest, RequestStates, type StatePayload } from "./request-state.ts";
import { grantKey, type Question } from "./question.ts";
import type { Project } from "./project.ts";
import type { InputRequiredResult } from "../mcp/protocol.ts";
import type { Session } from "../mcp/session.ts";
import { errorResult, type CallOrigin } from "../mcp/tool-result.ts";
import type { CallToolResult } from "../mcp/types.ts";
import { log } from "../log.ts";

/** "later": ask with the call's result; "dismissed": the same, after the user dismissed the form. */
export type Answer = "continue" | "always" | Refusal | "later" | "dismissed";

/** A reply as the caller acts on it: no answer or a dismissed form are asked again with the result. */
function answerOf(reply: Reply | "fallback"): Answer {
  return reply === "fallback" ? "later" : reply === "cancel" ? "dismissed" : reply;
}

/** Whether an answer approves nothing (Abort, a decline, a value that names no choice). */
export function isRefusal(a: Answer): a is Refusal {
  return a === "abort" || a === "decline" || typeof a === "object";
}

/**
 * Asks at once where the client can answer in-line: a 2025-11-25 client with form elicitation.
 * "later": ask with the call's result (`Asker.later`). A 2026-07-28 request is never sent a request.
 */
export async function askNow(session: Session, q: Question, signal: AbortSignal): Promise<Answer> {
  if (session.modern) return "later";
  return answerOf(await elicitApproval(session, q.toolId, q.why, signal));
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
  approved?: unknown;
  always?: unknown;
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

export class Asker {
  readonly workflows = new Workflows();
  /** The session's live files, where a `pml ui` page sees and answers its approvals. */
  live?: LiveBoard;
  private requestStates?: RequestStates;
  /** "Always" answers pml could not write to .pml.json, told in the session's next result (`noted`). */
  private readonly unrecorded = new WeakMap<Session, string[]>();

  constructor(
    private readonly workspace: string,
    private readonly project: Project,
  ) {}

  /**
   * askNow, where a `pml ui` page may answer too: the form the client shows and the page race,
   * the first answer wins and the other question is withdrawn (the form's request is cancelled).
   */
  async askNow(session: Session, q: Question, signal: AbortSignal): Promise<Answer> {
    const live = this.live;
    if (!live || session.modern || !session.supportsFormElicitation()) return askNow(session, q, signal);
    const pending = live.add({ tool: q.toolId, question: q.why, kind: "tool", channel: "elicitation", ttlMs: WORKFLOW_TTL_MS });
    const asking = new AbortController();
    const stop = () => asking.abort(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    try {
      return answerOf(await Promise.race([elicitApproval(session, q.toolId, q.why, asking.signal), pending.answered]));
    } finally {
      signal.removeEventListener("abort", stop);
      asking.abort();
      pending.done();
    }
  }

  /** The key that authenticates request states; read or created on first use. */
  states(): RequestStates {
    this.requestStates ??= new RequestStates(this.workspace);
    return this.requestStates;
  }

  /**
   * The user said yes: the tool (or, for a shell command, that command: `key`) for this session,
   * and the variables the question named; "always" writes the tool and the variables into
   * .pml.json (allow only if it was not already allowed).
   */
  async approve(session: Session, q: Pick<Question, "toolId" | "grant" | "key">, always: boolean): Promise<void> {
    session.approved.add(q.key);
    for (const name of q.grant?.names ?? []) session.approved.add(grantKey(q.grant!.ns, name));
    if (!always) return;
    try {
      const state = await this.project.get();
      if (q.grant?.names.length) await grantEnvAlways(this.workspace, q.grant.ns, q.grant.names);
      if (state.error || permissionFor(state.config.permissions ?? {}, q.toolId) !== "allow") await allowAlways(this.workspace, q.toolId);
      this.project.invalidate();
    } catch (e) {
      const text = `could not record the approval of ${q.toolId} in .pml.json: ${(e as Error).message}`;
      log.warn(text);
      session.log("warning", text);
      this.unrecorded.set(session, [...(this.unrecorded.get(session) ?? []), text]);
    }
  }

  /** The result, with a note for each "Always" of this session that .pml.json did not take
   * (approved for this session only); the notes are told once. */
  noted<R extends CallToolResult | InputRequiredResult>(session: Session, result: R): R {
    const notes = this.unrecorded.get(session);
    if (!notes || !("content" in result)) return result;
    this.unrecorded.delete(session);
    const told = notes.map((n) => ({ type: "text" as const, text: `pml: "Always" was approved for this session only: ${n}` }));
    return { ...result, content: [...(result as CallToolResult).content, ...told] };
  }

  /** The question, asked with the call's result: a workflow (2025-11-25), an input_required
   * result (2026-07-28 with form elicitation, when the call can be retried), else the tool-result
   * flow with a state as its workflow id. */
  later(session: Session, round: Round, q: Question, pause: Pause): CallToolResult | InputRequiredResult {
    const { kind, tool, via } = pause;
    if (!session.modern) {
      const wf = this.workflows.open({ sessionId: session.id, tool, dependency: q.toolId, kind, args: pause.args, replay: pause.replay, grant: q.grant, key: q.key, via });
      return approvalRequired(wf, q.why, this.publish(session, q, kind, "tool-result", wf.id), q.dismissed);
    }
    const common = { kind, tool, dependency: q.toolId, grant: q.grant, key: q.key, approved: [...session.approved], replay: pause.replay, via };
    if (pause.bind !== undefined && session.supportsFormElicitation()) {
      const state = this.states().issue({ ...common, args: argsDigest(pause.bind), answers: round.relayAnswers });
      this.publish(session, q, kind, "input_required", state);
      return inputRequired({ [APPROVAL_INPUT]: { method: "elicitation/create", params: approvalElicitation(q.toolId, q.why, "this call") } }, state);
    }
    const id = this.states().issue({ ...common, carried: pause.args });
    return approvalRequired({ id, tool, dependency: q.toolId, kind, via }, q.why, this.publish(session, q, kind, "tool-result", id), q.dismissed);
  }

  /**
   * Lists an approval asked with the call's result for a `pml ui` page, found again by the id
   * its continuation carries. "Always" from the page is the user's own word: recorded at once.
   * True when a page is open for the workspace now (the result then says to answer there).
   */
  private publish(session: Session, q: Question, kind: string, channel: "tool-result" | "input_required", key: string): boolean {
    const live = this.live;
    if (!live) return false;
    const onAnswer = (d: Decision) => {
      if (d === "always") void this.approve(session, q, true);
    };
    live.add({ tool: q.toolId, question: q.why, kind, channel, key, ttlMs: WORKFLOW_TTL_MS, onAnswer });
    return channel === "tool-result" && live.pageOpen();
  }

  /** The input a child server asked for, as an input_required result (2026-07-28). */
  relayInput(session: Session, round: Round, pause: Pause): InputRequiredResult {
    const { key, request } = round.pendingInput!;
    round.pendingInput = undefined;
    const state = this.states().issue({
      kind: pause.kind,
      tool: pause.tool,
      args: argsDigest(pause.bind),
      approved: [...session.approved],
      answers: round.relayAnswers,
      replay: pause.replay,
    });
    return inputRequired({ [key]: request }, state);
  }

  /**
   * A call coming back after a pause, redeemed once: a continuation (the user's answer relayed
   * by the model, with the workflow id) or a 2026-07-28 retry (the state pml issued and the
   * client's answers). A result means the call ends here (declined, expired, or asked again).
   */
  async redeem(session: Session, round: Round, back: Comeback, expected: Expected, args: Record<string, unknown>): Promise<Resumed | CallToolResult> {
    const cw = back.continueWorkflow;
    if (cw) {
      const page = pageAnswer(this.live, cw.workflow_id);
      // The page is open and the user has not answered there: the model's yes is not taken (a
      // no is: refusing needs nobody's word).
      if (page === "waiting" && cw.approved === true && this.workflowTool(session, cw.workflow_id) !== undefined) return waitingForPage(expected.tool, cw.workflow_id);
      const taken = this.takeWorkflow(session, cw, expected);
      if (!taken) return workflowGone(cw.workflow_id);
      if ("issuedFor" in taken) return wrongTool(taken.issuedFor);
      this.live?.forKey(cw.workflow_id)?.done();
      for (const t of taken.approved ?? []) session.approved.add(t);
      if (page === "abort") return errorResult(refusedText(taken.toolId, "abort"));
      if (cw.approved === false) return errorResult(relayedNoText(taken.toolId));
      if (cw.approved !== true) return errorResult(refusedText(taken.toolId, { unknown: cw.approved }));
      // An answer from the page is the user's own ("always" included); else the model relayed it.
      const always = page === "continue" || page === "always" ? page === "always" : this.alwaysFromRelay(session, taken.toolId, cw.always === true);
      await this.approve(session, taken, always);
      // A capability's run resumed through its tool: the invoker runs the tool, which replays.
      if (taken.via !== undefined) {
        round.resumedRun = taken.replay ?? [];
        return { args: taken.args };
      }
      return { args: taken.args, replay: taken.replay };
    }
    if (!session.modern || back.requestState === undefined) return {};
    const st = redeemState(this.states(), back.requestState, expected.tool, expected.bind(args), expected.kind);
    const fromPage = this.live?.forKey(back.requestState);
    fromPage?.done();
    const responses = fromPage?.answer ? { ...back.inputResponses, [APPROVAL_INPUT]: { action: "accept", content: { decision: fromPage.answer } } } : back.inputResponses;
    const stop = await this.resume(session, round, st, responses, { kind: expected.kind, tool: expected.tool, args, replay: st.replay });
    return stop ?? { replay: st.replay };
  }

  /**
   * "Always" as a model relayed it in a continuation: taken on stdio (the user's own client runs
   * the model), never on `pml serve`, where only a form the client shows the user can say it.
   */
  private alwaysFromRelay(session: Session, toolId: string, always: boolean): boolean {
    if (!always || !session.servedOverHttp) return always;
    const text = `"always" for ${toolId} came in a continuation, which pml serve does not take as the user's word: approved for this session only. To allow it for good, add it to permissions.allow in .pml.json, or answer Always in a form your client shows.`;
    log.warn(text);
    session.log("warning", text);
    return false;
  }

  /** The workflow a continuation names, used up; undefined when it is not one for this call, the
   * tool it was issued for when the continuation was sent to another one. */
  private takeWorkflow(session: Session, cw: ContinueWorkflow, expected: Expected) {
    if (session.modern) {
      const issued = this.states().verify(cw.workflow_id);
      if (typeof issued !== "string" && issued.tool !== expected.tool) return { issuedFor: issued.tool };
      const st = this.states().redeem(cw.workflow_id, expected.tool);
      if (typeof st === "string" || !st.carried || !st.dependency || !resumes(st, expected)) return undefined;
      return { toolId: st.dependency, grant: st.grant, key: st.key ?? st.dependency, approved: st.approved, args: st.carried, replay: st.replay, via: st.via };
    }
    const wf = this.workflows.take(cw.workflow_id, session.id, expected.tool);
    if (!wf || "issuedFor" in wf) return wf;
    if (!resumes(wf, expected)) return undefined;
    return { toolId: wf.dependency, grant: wf.grant, key: wf.key ?? wf.dependency, approved: undefined, args: wf.args, replay: wf.replay, via: wf.via };
  }

  /**
   * Applies a verified retry: approvals of earlier rounds, answers for child servers, and the
   * user's decision on the pending approval. A result means the call ends here (declined, or the
   * client could not ask: the tool-result flow); undefined means go on.
   */
  private async resume(session: Session, round: Round, st: StatePayload, inputResponses: Record<string, unknown> | undefined, pause: Pause): Promise<CallToolResult | undefined> {
    for (const t of st.approved ?? []) session.approved.add(t);
    const { [APPROVAL_INPUT]: answer, ...relayed } = inputResponses ?? {};
    round.relayAnswers = { ...st.answers, ...relayed };
    if (!st.dependency || answer === undefined) return undefined; // not answered: asked again
    const q: Question = { toolId: st.dependency, why: "", grant: st.grant, key: st.key ?? st.dependency };
    const reply = answerOf(replyOf(answer));
    if (isRefusal(reply)) return errorResult(refusedText(q.toolId, reply));
    if (reply === "later" || reply === "dismissed") return this.later(session, round, { ...q, dismissed: reply === "dismissed" }, { ...pause, bind: undefined }) as CallToolResult;
    await this.approve(session, q, reply === "always");
    return undefined;
  }

  /** The tool an approval workflow was issued for (without using it up), for `call`'s continuation. */
  workflowTool(session: Session, workflowId: unknown): string | undefined {
    if (session.modern) {
      const st = this.states().verify(workflowId);
      return typeof st === "string" ? undefined : (st.via ?? st.dependency);
    }
    const wf = this.workflows.peek(workflowId, session.id);
    return wf?.via ?? wf?.dependency;
  }

  /** The tool id a continuation (workflow id or request state) resumes when it is the approval of
   * that tool itself, not of a call inside code (without using it up); undefined otherwise. */
  pausedTool(session: Session, continuation: unknown): string | undefined {
    const p = session.modern ? this.states().verify(continuation) : this.workflows.peek(continuation, session.id);
    return p && typeof p !== "string" && p.kind === "tool" && p.via === undefined ? p.dependency : undefined;
  }
}

/** Whether a pause is the one this call resumes: its kind and the tool approved, or a
 * capability's run paused in a call of the capability's tool (resumed by that tool). */
function resumes(p: { kind: string; dependency?: string; via?: string }, expected: Expected): boolean {
  if (p.via !== undefined) return expected.kind === "tool" && p.via === expected.toolId;
  return p.kind === expected.kind && (expected.toolId === undefined || p.dependency === expected.toolId);
}
