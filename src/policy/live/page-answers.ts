// The tool-result flow while a `pml ui` page is open: the model relays the approval, but the
// user answers it in the page (their own channel), and a continuation is taken only on that answer.
import { errorResult } from "../../mcp/tool-result.ts";
import type { CallToolResult } from "../../mcp/types.ts";
import type { Decision } from "../approvals.ts";
import type { LiveBoard } from "./board.ts";

/**
 * What the page says about the approval a continuation names: the user's answer there;
 * "waiting" while a page is open for the workspace and the user has not answered; undefined when
 * the page has no say (no page open, or an approval it never listed): the model's word is taken.
 */
export function pageAnswer(live: LiveBoard | undefined, workflowId: unknown): Decision | "waiting" | undefined {
  const pending = live?.forKey(workflowId);
  if (!pending) return undefined;
  if (pending.answer !== undefined) return pending.answer;
  return live!.pageOpen() ? "waiting" : undefined;
}

/** The continuation's result while the page has not answered: nothing ran, the approval holds. */
export function waitingForPage(tool: string, workflowId: unknown): CallToolResult {
  const text = [
    "Not run yet: the user has not answered this approval. A pml ui page is open for this workspace, and approvals are answered there, not relayed.",
    `Ask the user to answer it in the pml ui page (Continue, Always or Abort), then call ${tool} again with the same "continue_workflow". The approval is still valid (it expires 5 minutes after it was asked).`,
  ].join("\n");
  return errorResult(text, { approval_required: true, approval_context: { type: "answer_in_page", workflow_id: workflowId } });
}
