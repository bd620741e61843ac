// What every session's approval channel shares (./approval-channel.ts): the channel chosen once per
// session, the user's yes recorded (for the session, or with "Always" in .pml.json), the `pml ui`
// page that may answer, and the request states of this workspace.
import { recordAlways } from "./trust/trust-record.ts";
import { WORKFLOW_TTL_MS, type Decision } from "./approvals.ts";
import type { ApprovalChannel, Approvals } from "./approval-channel.ts";
import type { LiveBoard } from "./live/board.ts";
import { grantKey, type Question } from "./question.ts";
import type { Project } from "./project.ts";
import { RequestStates, StateChannel } from "./state-channel.ts";
import { FormChannel, WorkflowChannel, Workflows } from "./workflow-channel.ts";
import type { InputRequiredResult } from "../mcp/protocol.ts";
import type { Session } from "../mcp/session.ts";
import type { CallToolResult } from "../mcp/types.ts";
import { log } from "../log.ts";
import { visibleName } from "../visible-text.ts";

export class Asker implements Approvals {
  /** Questions asked with a 2025-11-25 result, until their continuation comes (any session's). */
  private readonly workflows = new Workflows();
  /** The session's live files, where a `pml ui` page sees and answers its approvals. */
  live?: LiveBoard;
  private requestStates?: RequestStates;
  private readonly channels = new WeakMap<Session, { client: object; channel: ApprovalChannel }>();
  /** "Always" answers .pml.json did not take as asked, told in the session's next result (`noted`). */
  private readonly unrecorded = new WeakMap<Session, string[]>();

  constructor(
    private readonly workspace: string,
    private readonly project: Project,
  ) {}

  /** The session's channel, chosen once for what its client declared at `initialize` (chosen
   * again only if the client initializes anew; a 2026-07-28 request is a session of its own). */
  channel(session: Session): ApprovalChannel {
    const kept = this.channels.get(session);
    if (kept?.client === session.client) return kept.channel;
    const channel = session.modern
      ? new StateChannel(session, this)
      : session.supportsFormElicitation()
        ? new FormChannel(session, this, this.workflows)
        : new WorkflowChannel(session, this, this.workflows);
    this.channels.set(session, { client: session.client, channel });
    return channel;
  }

  /** The key that authenticates request states; read or created on first use. */
  states(): RequestStates {
    this.requestStates ??= new RequestStates(this.workspace);
    return this.requestStates;
  }

  /**
   * The user said yes: the tool (or, for a shell command, that command: `key`) for this session,
   * and the variables the question named; "always" writes the variables into .pml.json, and the
   * tool unless the file allows it already (the gate said so: `fileAllows`).
   */
  async approve(session: Session, q: Pick<Question, "toolId" | "grant" | "key" | "fileAllows">, always: boolean): Promise<void> {
    session.approved.add(q.key);
    for (const name of q.grant?.names ?? []) session.approved.add(grantKey(q.grant!.ns, name));
    if (!always) return;
    try {
      const { denied } = await recordAlways(this.workspace, q.fileAllows ? undefined : q.toolId, q.grant);
      this.project.invalidate();
      if (denied)
        this.note(
          session,
          `"Always" for ${visibleName(q.toolId)} was not written to .pml.json: the file denies it now (permissions.deny), and the deny stays. To allow it, remove the matching deny pattern.`,
        );
    } catch (e) {
      this.note(session, `"Always" was approved for this session only: could not record the approval of ${visibleName(q.toolId)} in .pml.json: ${(e as Error).message}`);
    }
  }

  /** Told on stderr, to the client's log, and in the session's next result (`noted`). */
  private note(session: Session, text: string): void {
    log.warn(text);
    session.log("warning", text);
    this.unrecorded.set(session, [...(this.unrecorded.get(session) ?? []), text]);
  }

  /** The result, with a note for each "Always" of this session that .pml.json did not take as
   * asked; the notes are told once. */
  noted<R extends CallToolResult | InputRequiredResult>(session: Session, result: R): R {
    const notes = this.unrecorded.get(session);
    if (!notes || !("content" in result)) return result;
    this.unrecorded.delete(session);
    const told = notes.map((n) => ({ type: "text" as const, text: `pml: ${n}` }));
    return { ...result, content: [...(result as CallToolResult).content, ...told] };
  }

  /**
   * Lists an approval asked with the call's result for a `pml ui` page, found again by the id
   * its continuation carries. "Always" from the page is the user's own word: recorded at once.
   * True when a page is open for the workspace now (the result then says to answer there).
   */
  publish(session: Session, q: Question, kind: string, channel: "tool-result" | "input_required", key: string): boolean {
    const live = this.live;
    if (!live) return false;
    const onAnswer = (d: Decision) => {
      if (d === "always") void this.approve(session, q, true);
    };
    live.add({ tool: q.toolId, question: q.why, kind, channel, key, ttlMs: WORKFLOW_TTL_MS, onAnswer });
    return channel === "tool-result" && live.pageOpen();
  }
}
