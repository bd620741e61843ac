// `execute`: agent code run in the sandbox with `mcp` and `args` in scope. Every mcp call goes
// through the same checks as a direct call. When one needs approval and the client cannot ask
// in-line, the run stops and returns an approval request; continuing re-runs the code, replaying
// the results of the calls made before the pause so they are not repeated.
import { approvalRequired, elicitApproval } from "./approvals.ts";
import { commandLine } from "./approval-text.ts";
import { declined, workflowGone, type ContinueWorkflow } from "./invoke.ts";
import type { MetaDeps } from "./meta-tools.ts";
import { parseToolName, formatToolId } from "./names.ts";
import type { CallRequest } from "./server.ts";
import type { Session } from "./session.ts";
import { errorResult, resultText as textOf, resultValue, textResult, type CallToolResult } from "./types.ts";

interface Recorded {
  tool: string;
  args: string;
  ok: boolean;
  value: unknown;
}

class ApprovalPause extends Error {
  constructor(
    readonly toolId: string,
    readonly why: string,
  ) {
    super(`paused: ${toolId} needs approval`);
  }
}

export async function runExecute(deps: MetaDeps, session: Session, req: CallRequest): Promise<CallToolResult> {
  let input = req.arguments;
  let replay: Recorded[] = [];
  const cw = input.continue_workflow as ContinueWorkflow | undefined;
  if (cw) {
    const wf = deps.invoker.workflows.take(cw.workflow_id, session.id, "execute");
    if (!wf) return workflowGone(cw.workflow_id);
    if (cw.approved !== true) return declined(wf.dependency);
    await deps.invoker.approve(session, wf.dependency, cw.always === true);
    input = wf.args;
    replay = (wf.replay as Recorded[]) ?? [];
  }
  const code = input.code;
  if (typeof code !== "string" || !code.trim())
    return errorResult('`execute` needs "code": the body of an async function, e.g. `return await mcp.filesystem.list_directory({path: "."})`.');

  const toolsUsed: string[] = [];
  const record: Recorded[] = [];
  const pause = new AbortController();
  const stop = AbortSignal.any([req.signal, pause.signal]);
  let paused: ApprovalPause | undefined;

  const callTool = async (name: string, toolArgs: unknown): Promise<unknown> => {
    const id = parseToolName(name);
    if (!id) throw new Error(`"${name}" is not a tool id; use mcp.<namespace>.<action>(args)`);
    const toolId = formatToolId(id.ns, id.action);
    const argsJson = JSON.stringify(toolArgs ?? {});
    const prior = replay[record.length];
    if (prior && prior.tool === toolId && prior.args === argsJson) {
      record.push(prior);
      toolsUsed.push(toolId);
      if (!prior.ok) throw new Error(String(prior.value));
      return prior.value;
    }
    replay = []; // the run diverged from the recording: everything from here runs for real

    const prepared = await deps.invoker.prepare(session, id, stop);
    if (prepared.kind === "refused") throw new Error(textOf(prepared.result));
    if (prepared.needsApproval) {
      const why = prepared.why + commandLine(prepared.resolved, id.action, toolArgs as Record<string, unknown> | undefined);
      const decision = await elicitApproval(session, toolId, why, stop);
      if (decision === "abort") throw new Error(textOf(declined(toolId)));
      if (decision === "fallback") {
        paused = new ApprovalPause(toolId, why);
        pause.abort(paused);
        throw paused;
      }
      await deps.invoker.approve(session, toolId, decision === "always");
    }
    const args = (toolArgs ?? {}) as Record<string, unknown>;
    const result = await deps.invoker.run(session, prepared.resolved, id, args, { signal: stop, progress: req.progress });
    toolsUsed.push(toolId);
    const rec: Recorded = { tool: toolId, args: argsJson, ok: !result.isError, value: result.isError ? textOf(result) : resultValue(result) };
    record.push(rec);
    if (!rec.ok) throw new Error(String(rec.value));
    return rec.value;
  };

  const { runCode } = await import("../sandbox/run-code.ts");
  try {
    const { value } = await runCode({
      code,
      args: input.args ?? {},
      callTool,
      signal: stop,
      limits: await deps.backends.sandboxLimits(),
    });
    const out = { result: value ?? null, tools_used: [...new Set(toolsUsed)] };
    return textResult(JSON.stringify(out, null, 2), { structuredContent: out });
  } catch (e) {
    if (paused) {
      const wf = deps.invoker.workflows.open({
        sessionId: session.id,
        tool: "execute",
        dependency: paused.toolId,
        kind: "execute",
        args: { code, args: input.args ?? {}, intent: input.intent },
        replay: record,
      });
      return approvalRequired(wf, `The code passed to execute calls it. ${paused.why}`);
    }
    const used = toolsUsed.length ? `\nTools used before the error: ${[...new Set(toolsUsed)].join(", ")}` : "";
    return errorResult(`${(e as Error)?.message ?? e}${used}`);
  }
}
