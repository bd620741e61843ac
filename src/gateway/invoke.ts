// One tool call, end to end: the gate (src/policy/gate.ts) decides, the asker puts its question
// the way the client's protocol allows, then the backend runs the call. Every origin comes
// through here: a client's call, `call`, module code, `execute` code and capabilities
// (src/gateway/execute.ts), pml's own tools.
import type { EnvPlan } from "../env/env-resolver.ts";
import { log } from "../log.ts";
import type { InputRequiredResult } from "../mcp/protocol.ts";
import type { Session } from "../mcp/session.ts";
import { formatToolId, parseToolName, toolIdText, type ToolId } from "../mcp/tool-names.ts";
import { UserError } from "../errors.ts";
import { errorResult, resultText, resultValue, type CallContext } from "../mcp/tool-result.ts";
import type { CallToolResult } from "../mcp/types.ts";
import { CAP_NS, CAP_SERVER_ID } from "../memory/names.ts";
import type { ToolUsage } from "../memory/store.ts";
import type { Resolved } from "../registry/resolved.ts";
import type { Asker, ContinueWorkflow, Pause } from "../policy/asker.ts";
import type { Gate } from "../policy/gate.ts";
import type { Backends } from "./backends.ts";
import type { CallRequest } from "./call.ts";
import type { Surface } from "./surface.ts";
import { withoutPosition } from "../sandbox/errors.ts";
import { argumentsProblemNow, NOT_LOADED, warmValidator } from "./validate-args.ts";

export class Invoker {
  /** Told about every tool call that ran (the tool_usage log). */
  onToolCall?: (u: ToolUsage) => void;
  /** Asked when a client's call starts (learn-from-use.ts): what to do with its result, if anything. */
  watchClientCall?: (session: Session, id: ToolId, intent?: string) => ((r: CallToolResult | InputRequiredResult) => Promise<CallToolResult | InputRequiredResult>) | undefined;

  constructor(
    readonly gate: Gate,
    private readonly backends: Backends,
    private readonly surface: Surface,
  ) {}

  get asker(): Asker {
    return this.gate.asker;
  }

  /** A call the client made (`intent`: what the agent said it calls it for). */
  invoke(
    session: Session,
    id: ToolId,
    args: Record<string, unknown>,
    call: CallRequest,
    opts: { calledAs: string; continueWorkflow?: ContinueWorkflow; intent?: string },
  ): Promise<CallToolResult | InputRequiredResult> {
    const learn = this.watchClientCall?.(session, id, opts.intent);
    const result = this.invokeNow(session, id, args, call, opts);
    return learn ? result.then(learn) : result;
  }

  /**
   * Not async: a tool the gate already permits under the current .pml.json runs without an async
   * frame of its own (the proxy's hot path); everything else goes through `invokeChecked`.
   */
  private invokeNow(
    session: Session,
    id: ToolId,
    args: Record<string, unknown>,
    call: CallRequest,
    opts: { calledAs: string; continueWorkflow?: ContinueWorkflow },
  ): Promise<CallToolResult | InputRequiredResult> {
    const permitted = opts.continueWorkflow || call.requestState !== undefined ? undefined : this.gate.fast(id);
    const running = permitted && this.runNow(session, permitted.resolved, id, args, call, permitted.env);
    if (!running) return this.invokeChecked(session, id, args, call, opts).then((r) => this.asker.noted(session, r));
    if (!session.modern) return running;
    return running.then((result) => (call.pendingInput ? this.asker.relayInput(session, call, pause(opts.calledAs, id, args)) : result));
  }

  private async invokeChecked(
    session: Session,
    id: ToolId,
    args: Record<string, unknown>,
    call: CallRequest,
    opts: { calledAs: string; continueWorkflow?: ContinueWorkflow },
  ): Promise<CallToolResult | InputRequiredResult> {
    const toolId = formatToolId(id.ns, id.action);
    const expected = { tool: opts.calledAs, kind: "tool" as const, toolId, bind: (a?: Record<string, unknown>) => pause(opts.calledAs, id, a ?? {}).bind };
    const back = { continueWorkflow: opts.continueWorkflow, requestState: call.requestState, inputResponses: call.inputResponses };
    const resumed = await this.asker.redeem(session, call, back, expected, args);
    if ("content" in resumed) return resumed;
    if (resumed.args) args = resumed.args;
    const verdict = await this.gate.authorize(session, id, args, call.signal);
    if (verdict.kind === "refused") return errorResult(verdict.reason);
    if (verdict.kind === "later") return this.asker.later(session, call, verdict.question, pause(opts.calledAs, id, args));
    // A child server may need the client's input mid-call: the call is stopped (ClientCall.relay),
    // and its result asks for the input.
    const result = await this.run(session, verdict.resolved, id, args, call, verdict.env);
    return session.modern && call.pendingInput ? this.asker.relayInput(session, call, pause(opts.calledAs, id, args)) : result;
  }

  /** Runs a permitted tool: its arguments checked against its schema, then its backend. */
  async run(session: Session, resolved: Resolved, id: ToolId, args: Record<string, unknown>, call: CallContext, env: EnvPlan): Promise<CallToolResult> {
    let problem = this.argumentsProblemNow(id, args);
    if (problem === NOT_LOADED) {
      await warmValidator();
      problem = this.argumentsProblemNow(id, args);
    }
    return problem === undefined ? this.runChecked(session, resolved, id, args, call, env) : errorResult(String(problem));
  }

  /** The same without waiting (the fast path): undefined when it cannot tell at once. */
  private runNow(session: Session, resolved: Resolved, id: ToolId, args: Record<string, unknown>, call: CallContext, env: EnvPlan): Promise<CallToolResult> | undefined {
    const problem = this.argumentsProblemNow(id, args);
    if (problem === NOT_LOADED) return undefined;
    return problem === undefined ? this.runChecked(session, resolved, id, args, call, env) : Promise.resolve(errorResult(problem));
  }

  /** Every kind of tool, whoever calls it (client, `call`, module code, `execute`), is checked
   * here against the schema its server lists; pml's own tools check their arguments themselves. */
  private argumentsProblemNow(id: ToolId, args: Record<string, unknown>): string | undefined | typeof NOT_LOADED {
    if (this.backends.inProcess[id.ns]?.validatesArguments) return undefined;
    for (const t of this.backends.knownTools(id.ns) ?? []) if (t.name === id.action) return argumentsProblemNow(toolIdText(id), t.inputSchema, args);
    return undefined;
  }

  /** The backend's promise with one continuation: the outcome becomes a result and is logged. */
  private runChecked(session: Session, resolved: Resolved, id: ToolId, args: Record<string, unknown>, call: CallContext, env: EnvPlan): Promise<CallToolResult> {
    const started = performance.now();
    const d = resolved.descriptor;
    let running: Promise<CallToolResult>;
    try {
      if (d.type === "inprocess") running = this.backends.inProcess[id.ns]!.run(session, id.action, args, call);
      else {
        // Only module code calls other tools: other backends take the caller's context as it is.
        const inner = d.type === "module" ? { ...call, signal: call.signal, callTool: (toolId: string, a: unknown) => this.callFromModule(session, toolId, a, call) } : call;
        running = this.backends.run(resolved, id.action, args, inner, env);
      }
    } catch (e) {
      running = Promise.reject(e);
    }
    return running.then(
      (result) => {
        if (d.type !== "inprocess") this.surface.noteUsed(id.ns);
        return this.ran(id, started, result);
      },
      // A position in pml's own module code means nothing to the user: not shown.
      (e) => this.ran(id, started, this.failed(id, call, e, d.type === "module" ? (d.source === "builtin" ? "own" : "module") : undefined)),
    );
  }

  /** `code`: the tool is module code ("own": pml's own, whose positions mean nothing to the user). */
  private failed(id: ToolId, call: CallContext, e: unknown, code?: "own" | "module"): CallToolResult {
    if (e instanceof UserError) return errorResult(e.message);
    if (call.signal.aborted) return errorResult(`${formatToolId(id.ns, id.action)} was cancelled.`);
    log.error(`${id.ns}:${id.action} failed:`, e);
    let message = String((e as Error)?.message ?? e);
    if (code === "own") message = withoutPosition(message);
    // The sandbox names the class of what module code threw; a plain "Error: " says nothing, and
    // after "failed: " it reads as an error inside an error.
    if (code) message = message.replace(/^Error: /, "");
    return errorResult(`${formatToolId(id.ns, id.action)} failed: ${message}`);
  }

  /** Logs the call (tool_usage) and hands its result on. */
  private ran(id: ToolId, started: number, result: CallToolResult): CallToolResult {
    if (!this.onToolCall) return result;
    const success = !result.isError && !result.approval_required;
    const usage: ToolUsage = {
      tool_id: toolIdText(id),
      server_id: id.ns === CAP_NS ? CAP_SERVER_ID : id.ns,
      success,
      latency_ms: performance.now() - started,
      at: isoNow(),
    };
    // What the page's Activity shows as the reason (read only for a failure).
    if (!success) usage.error = resultText(result);
    this.onToolCall(usage);
    return result;
  }

  /** `ctx.mcp.ns.action()` inside module code: the same gate; approval only in-line (elicitation). */
  private async callFromModule(session: Session, name: string, args: unknown, call: CallContext): Promise<unknown> {
    const id = parseToolName(name);
    if (!id) throw new Error(`"${name}" is not a tool id; use ctx.mcp.<namespace>.<action>(args)`);
    const toolArgs = (args ?? {}) as Record<string, unknown>;
    const verdict = await this.gate.authorize(session, id, toolArgs, call.signal);
    if (verdict.kind === "refused") throw new Error(verdict.reason);
    if (verdict.kind === "later") throw new Error(`${verdict.question.toolId} needs the user's approval first: call it directly once (or allow it in .pml.json), then retry.`);
    const result = await this.run(session, verdict.resolved, id, toolArgs, call, verdict.env);
    if (result.isError) throw new Error(resultText(result));
    return resultValue(result);
  }

  /** For `discover {namespace}`: see Gate.startToList. */
  startToList(session: Session, r: Resolved, ctx: Partial<CallContext>) {
    return this.gate.startToList(session, r, ctx);
  }

  /** For `call`'s continuation: see Asker.workflowTool. */
  workflowTool(session: Session, workflowId: unknown): string | undefined {
    return this.asker.workflowTool(session, workflowId);
  }
}

/** What a paused call is bound to: the tool as the client named it, the tool id and the arguments. */
function pause(calledAs: string, id: ToolId, args: Record<string, unknown>): Pause {
  return { kind: "tool", tool: calledAs, args, bind: { tool: formatToolId(id.ns, id.action), arguments: args } };
}

// Calls that end in the same millisecond (many of them, under load) share one formatted time.
let lastMs = 0;
let lastIso = "";
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
