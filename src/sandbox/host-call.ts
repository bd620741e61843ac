// One host call of the guest, answered on pml's main thread: `tool` (ctx.mcp / mcp.*) goes to
// the gateway's callTool, which checks and routes it; any other op to the host functions the run
// was given (host-functions.ts). The answer goes back as JSON, within the run's size limit.
import type { CallTool, SandboxHost } from "./call-state.ts";
import type { SandboxLimits } from "./limits.ts";

/** What a run answers host calls with. */
export interface HostCallTarget {
  limits: SandboxLimits;
  callTool?: CallTool;
  host?: SandboxHost;
  /** Aborted when the run ends: host calls still in flight for it stop. */
  controller: AbortController;
}

export async function hostCall(run: HostCallTarget, op: string, payload: string): Promise<string | undefined> {
  const args = JSON.parse(payload);
  let result: unknown;
  if (op === "tool") {
    if (!run.callTool) throw new Error("no tools are reachable from this code");
    if (typeof args?.tool !== "string") throw new TypeError("tool calls need a tool id");
    result = await run.callTool(args.tool, args.args);
  } else {
    const ops = run.host?.ops;
    if (!ops || !Object.hasOwn(ops, op)) throw new Error(`"${op}" is not available in this sandbox`);
    result = await ops[op]!(args, run.controller.signal);
  }
  if (result === undefined) return undefined;
  const text = JSON.stringify(result);
  if (text !== undefined && text.length > run.limits.maxHostResultBytes) {
    throw new Error(`the result of ${op === "tool" ? args.tool : op} is ${text.length} characters, over the sandbox's limit of ${run.limits.maxHostResultBytes}`);
  }
  return text;
}
