// What the user is shown when pml asks: the approval form (elicitation/create), the answer read
// from it, and the result that asks the model to ask the user (the tool-result flow, whose workflow
// id a continuation brings back: ./workflow-channel.ts, ./state-channel.ts).
import type { Session } from "../mcp/session.ts";
import { log } from "../log.ts";
import { visible, visibleName } from "../visible-text.ts";
import { textResult } from "../mcp/tool-result.ts";
import type { CallToolResult } from "../mcp/types.ts";

export const WORKFLOW_TTL_MS = 5 * 60_000;

export type Decision = "continue" | "always" | "abort";

/** A question asked with a call's result: its id (what the continuation names), the tool the
 * continuation calls, the tool approved, and a capability's tool when its run paused. */
export interface AskedWith {
  id: string;
  tool: string;
  dependency: string;
  kind: string;
  via?: string;
}

/**
 * Asks the user through elicitation/create. "fallback" means the client cannot ask or did not
 * answer (no support, an error): the caller then uses the tool-result flow, as after a cancel.
 */
export async function elicitApproval(session: Session, toolId: string, why: string, signal: AbortSignal): Promise<Reply | "fallback"> {
  if (!session.supportsFormElicitation()) return "fallback";
  const res = await session.request("elicitation/create", approvalElicitation(toolId, why), { timeoutMs: WORKFLOW_TTL_MS, signal });
  return res.error ? "fallback" : replyOf(res.result);
}

/** The form pml shows the user for an approval (elicitation/create params). */
export function approvalElicitation(toolId: string, why: string, scope = "this session"): Record<string, unknown> {
  return {
    mode: "form",
    message: `pml: allow ${visibleName(toolId)}? ${visible(why)}`,
    requestedSchema: {
      type: "object",
      properties: {
        decision: {
          type: "string",
          title: `Run ${visibleName(toolId)}`,
          enum: ["continue", "always", "abort"],
          enumNames: [`Continue (${scope})`, "Always (remember in .pml.json)", "Abort"],
          default: "continue",
        },
      },
      required: ["decision"],
    },
  };
}

/** An answer that approves nothing: Abort chosen, the question declined, or a value that names no choice. */
export type Refusal = "abort" | "decline" | UnknownAnswer;

/** A value that names no choice, as the refusal shows it: escaped once, where it came in. */
export interface UnknownAnswer {
  unknown: string;
}

export function unknownAnswer(value: unknown): UnknownAnswer {
  return { unknown: value === undefined ? "(none)" : visible(JSON.stringify(value) ?? String(value)).slice(0, 80) };
}

/** What came back for a question: a choice, a refusal, or "cancel" (dismissed: asked again with the result). */
export type Reply = "continue" | "always" | "cancel" | Refusal;

/** The user's answer in an ElicitResult; "fallback" when there is none. */
export function replyOf(result: unknown): Reply | "fallback" {
  const r = result as { action?: string; content?: { decision?: string } } | undefined;
  if (!r || typeof r !== "object") return "fallback";
  if (r.action === "decline") return "decline";
  if (r.action === "cancel") return "cancel";
  if (r.action !== "accept") return "fallback";
  // Only a known choice approves: a client that sends something else (a typo, another form's
  // field) has not shown the user this question, so nothing runs.
  const d = r.content?.decision;
  const known = choiceOf(d);
  if (known) return known;
  log.warn(`An approval answer ${JSON.stringify(d ?? null).slice(0, 80)} is not one of continue, always, abort: not approved.`);
  return unknownAnswer(d);
}

/**
 * The choice a `decision` value names: the enum value, or the label the form showed for it
 * ("Continue", "Always (remember in .pml.json)", "ABORT"), which some clients send instead.
 * Any other text names no choice.
 */
function choiceOf(d: unknown): Decision | undefined {
  if (typeof d !== "string") return undefined;
  const t = d.trim().toLowerCase();
  for (const k of ["continue", "always", "abort"] as const) if (t === k || (t.startsWith(`${k} (`) && t.endsWith(")"))) return k;
  return undefined;
}

/** `inPage`: a `pml ui` page is open for the workspace, where the user answers it. */
/** `dismissed`: the user dismissed the form that asked it (cancel), so it is asked this way. */
export function approvalRequired(wf: AskedWith, why: string, inPage = false, dismissed = false): CallToolResult {
  // `call` also names the tool, so the text works when copied into either form.
  const tool = wf.tool === "call" ? `"tool": ${JSON.stringify(wf.via ?? wf.dependency)}, ` : "";
  const how = `call ${wf.tool} again with arguments {${tool}"continue_workflow": {"workflow_id": "${wf.id}", "approved": true}} (add "always": true if they chose Always; use "approved": false if they declined)`;
  const ask = inPage
    ? `The user answers it in the pml ui page open for this workspace: tell them pml is waiting for their answer there (Continue, Always or Abort).`
    : `Ask the user, telling them what it will do (above): "pml wants to run ${visibleName(wf.dependency)}. Continue (this session), Always (allow it from now on), or Abort?"`;
  const text = [
    ...(dismissed ? [`The question was dismissed (cancel): nothing ran. Ask again only if the user still wants it, as follows.`] : []),
    `Approval required: ${visibleName(wf.dependency)} needs the user's permission before it runs. ${visible(why)}`,
    ask,
    `Then ${how}. This approval request expires in 5 minutes and works once.`,
  ].join("\n");
  // isError: the tool did not run. A client validates a successful result against the tool's
  // outputSchema (the SDK's callTool throws when structuredContent is missing), and an approval
  // request can never match it; as an error result the model reads the text and asks the user.
  return textResult(text, {
    isError: true,
    approval_required: true,
    approval_context: { type: wf.kind === "execute" ? "execute_dependency" : "tool_permission", tool: wf.tool, dependency: wf.dependency, workflow_id: wf.id },
  });
}
