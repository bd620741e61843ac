// call: any tool pml can reach, by its id, through the same checks as a direct call.
import * as v from "valibot";
import { ToolError } from "../../../mcp/tool-result.ts";
import { parseToolName } from "../../../mcp/tool-names.ts";
import { defineTool } from "../define-tool.ts";
import { plainObject, text, words } from "../schema.ts";
import type { MetaContext } from "./context.ts";
import { continueWorkflow } from "./continue-workflow.ts";

export const call = defineTool({
  name: "call",
  title: "Call any tool",
  description:
    "Calls any tool pml can reach by its id (namespace:action, e.g. memory:create_entities), including tools not in this list. " +
    "Same permissions and approval as a direct call.",
  args: {
    tool: v.optional(text("namespace:action (or namespace__action)")),
    arguments: v.optional(plainObject("the tool's arguments")),
    intent: v.optional(words("one line: what you call it for (helps `discover` find it next time)", 500)),
    continue_workflow: v.optional(continueWorkflow),
  },
  async run(args, { deps, session, req }: MetaContext) {
    const cw = args.continue_workflow;
    // A continuation may name only the workflow: the tool is the one it was issued for.
    const name = args.tool ?? (cw ? deps.invoker.workflowTool(session, cw.workflow_id) : undefined);
    const id = name ? parseToolName(name) : undefined;
    if (!id) throw new ToolError('`call` needs "tool": a tool id like "memory:create_entities" (see `discover`).');
    return deps.invoker.invoke(session, id, args.arguments ?? {}, req, { calledAs: "call", continueWorkflow: cw, intent: args.intent });
  },
});
