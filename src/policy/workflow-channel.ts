// The 2025-11-25 channels. Without form elicitation (or when the user dismissed the form) the
// result asks the model to ask the user, and the continuation is the same tool called with
// `continue_workflow` (a workflow, in memory); with it the user is asked at once, in a form that
// a `pml ui` page may answer too.
import type { Session } from "../mcp/session.ts";
import type { CallToolResult } from "../mcp/types.ts";
import { approvalRequired, elicitApproval, WORKFLOW_TTL_MS } from "./approvals.ts";
import {
  answerOf,
  continued,
  type ApprovalChannel,
  type Approvals,
  type Continuable,
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

/** A question asked with a call's result: what its continuation resumes, single-use, bound to the
 * session and the tool it was issued for, expiring. */
export interface Workflow {
  id: string;
  sessionId: string;
  /** The tool the continuation must be called on (wire name or meta-tool name). */
  tool: string;
  /** The tool id that needs the user's approval. */
  dependency: string;
  kind: "tool" | "execute";
  args: Record<string, unknown>;
  expires: number;
  /** execute: results of the tool calls made before the pause, replayed on the re-run. */
  replay?: unknown[];
  /** Variables the prompt named, granted to their namespace when the user approves. */
  grant?: { ns: string; names: string[] };
  /** What the user's yes approves for the session, when narrower than the tool (see approvalKey). */
  key?: string;
  /** .pml.json allows the tool already (see Question.fileAllows). */
  fileAllows?: boolean;
  /** A capability's run paused in a call of its own tool (or `call`): that tool's id. */
  via?: string;
}

export class Workflows {
  private readonly byId = new Map<string, Workflow>();

  open(w: Omit<Workflow, "id" | "expires">, now = Date.now()): Workflow {
    this.sweep(now);
    const wf: Workflow = { ...w, id: crypto.randomUUID(), expires: now + WORKFLOW_TTL_MS };
    this.byId.set(wf.id, wf);
    return wf;
  }

  /** A workflow of this session, not taken; undefined when unknown or expired. */
  peek(id: unknown, sessionId: string, now = Date.now()): Workflow | undefined {
    const wf = typeof id === "string" ? this.byId.get(id) : undefined;
    return wf && wf.sessionId === sessionId && wf.expires > now ? wf : undefined;
  }

  /** Takes a workflow once; undefined when unknown, used, expired, or issued elsewhere; the tool
   * it was issued for (not taken) when it is called on another one. */
  take(id: unknown, sessionId: string, tool: string, now = Date.now()): Workflow | { issuedFor: string } | undefined {
    if (typeof id !== "string") return undefined;
    const wf = this.byId.get(id);
    if (!wf || wf.sessionId !== sessionId) return undefined;
    if (wf.tool !== tool) return wf.expires > now ? { issuedFor: wf.tool } : undefined;
    this.byId.delete(id);
    return wf.expires > now ? wf : undefined;
  }

  private sweep(now: number): void {
    for (const [id, wf] of this.byId) if (wf.expires <= now) this.byId.delete(id);
  }
}

/** Asks through a form the client shows, for a session that may have none (sampling): "later" then. */
export async function askByForm(session: Session, q: Question, signal: AbortSignal): Promise<Answer> {
  if (session.modern) return "later";
  return answerOf(await elicitApproval(session, q.toolId, q.why, signal));
}

export class WorkflowChannel implements ApprovalChannel, Continuable {
  constructor(
    readonly session: Session,
    readonly approvals: Approvals,
    private readonly workflows: Workflows,
  ) {}

  ask(_q: Question, _signal: AbortSignal): Promise<Answer> {
    return Promise.resolve("later");
  }

  later(_round: Round, q: Question, pause: Pause): CallToolResult {
    const { kind, tool, via } = pause;
    const wf = this.workflows.open({
      sessionId: this.session.id,
      tool,
      dependency: q.toolId,
      kind,
      args: pause.args,
      replay: pause.replay,
      grant: q.grant,
      key: q.key,
      fileAllows: q.fileAllows,
      via,
    });
    return approvalRequired(wf, q.why, this.approvals.publish(this.session, q, kind, "tool-result", wf.id), q.dismissed);
  }

  take(cw: ContinueWorkflow, expected: Expected, hold: boolean): Taken | { issuedFor: string } | "held" | undefined {
    if (hold && this.workflowTool(cw.workflow_id) !== undefined) return "held";
    const wf = this.workflows.take(cw.workflow_id, this.session.id, expected.tool);
    if (!wf || "issuedFor" in wf) return wf;
    if (!resumes(wf, expected)) return undefined;
    return { toolId: wf.dependency, grant: wf.grant, key: wf.key ?? wf.dependency, fileAllows: wf.fileAllows, args: wf.args, replay: wf.replay, via: wf.via };
  }

  /** Without a continuation a call is a plain one: nothing to resume. */
  redeem(round: Round, back: Comeback, expected: Expected): Promise<Resumed | CallToolResult> {
    return back.continueWorkflow ? continued(this, round, back.continueWorkflow, expected) : Promise.resolve({});
  }

  /** A child server's request went to the client as a request of its own. */
  relayInput(): undefined {
    return undefined;
  }

  workflowTool(workflowId: unknown): string | undefined {
    const wf = this.workflows.peek(workflowId, this.session.id);
    return wf?.via ?? wf?.dependency;
  }

  pausedTool(continuation: unknown): string | undefined {
    const wf = this.workflows.peek(continuation, this.session.id);
    return wf && wf.kind === "tool" && wf.via === undefined ? wf.dependency : undefined;
  }
}

/** A client that shows forms: asked at once (a `pml ui` page may answer first); the tool-result
 * flow when the client could not ask or the user dismissed the form. */
export class FormChannel extends WorkflowChannel {
  override async ask(q: Question, signal: AbortSignal): Promise<Answer> {
    const live = this.approvals.live;
    if (!live) return askByForm(this.session, q, signal);
    // The form the client shows and the page race: the first answer wins and the other question
    // is withdrawn (the form's request is cancelled).
    const pending = live.add({ tool: q.toolId, question: q.why, kind: "tool", channel: "elicitation", ttlMs: WORKFLOW_TTL_MS });
    const asking = new AbortController();
    const stop = () => asking.abort(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    try {
      return answerOf(await Promise.race([elicitApproval(this.session, q.toolId, q.why, asking.signal), pending.answered]));
    } finally {
      signal.removeEventListener("abort", stop);
      asking.abort();
      pending.done();
    }
  }
}
