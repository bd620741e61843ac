// One tool call, end to end, written once (`Invoker.call`): the gate (src/policy/gate.ts) decides;
// a question is asked at once where the client can answer in-line (the asker), else it comes
// back as `needsAnswer` for the caller to put the way its protocol allows; then the backend runs
// the call. Every origin comes through here: a client's call, `call`, module code, `execute` code
// and capabilities (src/gateway/tools/execute.ts), pml's own tools. scripts/check-one-gate.ts keeps it so.
import type { EnvPlan } from "../../env/env-resolver.ts";
import { log } from "../../log.ts";
import type { InputRequiredResult } from "../../mcp/protocol.ts";
import type { Session } from "../../mcp/session.ts";
import { formatToolId, parseToolName, toolIdText, type ToolId } from "../../mcp/tool-names.ts";
import { UserError } from "../../errors.ts";
import { errorResult, resultText, resultValue, type CallContext } from "../../mcp/tool-result.ts";
import type { CallToolResult } from "../../mcp/types.ts";
import { CAP_NS, CAP_SERVER_ID } from "../../memory/names.ts";
import type { ToolUsage } from "../../memory/store.ts";
import type { Resolved } from "../../registry/resolved.ts";
import type { Asker } from "../../policy/asker.ts";
import { isRefusal, refusedText, type ContinueWorkflow, type Pause, type Round } from "../../policy/approval-channel.ts";
import type { Gate, Plan, RefusalCode } from "../../policy/gate.ts";
import type { Question } from "../../policy/question.ts";
import { appendAudit } from "../../sandbox/audit.ts";
import type { Backends } from "./backends.ts";
import type { CallRequest } from "./call.ts";
import { LaneCall, type LaneEnd } from "./lane.ts";
import type { Id } from "../../mcp/jsonrpc.ts";
import type { Surface } from "./surface.ts";
import { withoutPosition } from "../../sandbox/errors.ts";
import { argumentsProblemNow, NOT_LOADED, warmValidator } from "./validate-args.ts";

/** A call in progress: the session it is for, and its context (cancellation, progress, origin). */
export interface CallCtx {
  session: Session;
  call: CallContext;
}

/**
 * What became of one call (`Invoker.call`). `needsAnswer`: the user has to answer first and the
 * client cannot answer in-line; `resume` puts the question with the caller's result (how the
 * caller's protocol asks), so that the answer comes back to the paused call (`pause`).
 */
export type Outcome =
  | { kind: "ran"; result: CallToolResult }
  | { kind: "refused"; code: RefusalCode | "declined"; message: string }
  | { kind: "needsAnswer"; question: Question; resume: (round: Round, pause: Pause, question?: Question) => CallToolResult | InputRequiredResult };

export class Invoker implements LaneEnd {
  /** Told about every tool call that ran (the tool_usage log). */
  onToolCall?: (u: ToolUsage) => void;
  /** Asked when a client's call starts (learn-from-use.ts): what to do with its result, if anything. */
  watchClientCall?: (session: Session, id: ToolId, intent?: string) => ((r: CallToolResult | InputRequiredResult) => Promise<CallToolResult | InputRequiredResult>) | undefined;
  private readonly warnedWithheld = new Set<string>();

  constructor(
    private readonly gate: Gate,
    readonly asker: Asker,
    private readonly backends: Backends,
    private readonly surface: Surface,
    private readonly workspace: string,
  ) {}

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

  /** A client's call: a continuation is redeemed first; the outcome becomes the client's result. */
  private invokeNow(
    session: Session,
    id: ToolId,
    args: Record<string, unknown>,
    call: CallRequest,
    opts: { calledAs: string; continueWorkflow?: ContinueWorkflow },
  ): Promise<CallToolResult | InputRequiredResult> {
    const ctx = { session, call };
    if (!opts.continueWorkflow && call.requestState === undefined) return this.call(ctx, id, args).then((o) => this.clientResult(ctx, o, opts.calledAs, id, args));
    return this.resumed(session, id, args, call, opts).then((r) =>
      "content" in r ? this.asker.noted(session, r) : this.call(ctx, id, r.args).then((o) => this.clientResult(ctx, o, opts.calledAs, id, r.args)),
    );
  }

  /** A continuation or a retry, redeemed: a result ends the call; else the arguments it resumes with. */
  private async resumed(session: Session, id: ToolId, args: Record<string, unknown>, call: CallRequest, opts: { calledAs: string; continueWorkflow?: ContinueWorkflow }) {
    const toolId = formatToolId(id.ns, id.action);
    const expected = { tool: opts.calledAs, kind: "tool" as const, toolId, bind: (a?: Record<string, unknown>) => pause(opts.calledAs, id, a ?? {}).bind };
    const back = { continueWorkflow: opts.continueWorkflow, requestState: call.requestState, inputResponses: call.inputResponses };
    const resumed = await this.asker.channel(session).redeem(call, back, expected, args);
    return "content" in resumed ? resumed : { args: resumed.args ?? args };
  }

  /** An outcome as a client's result (with the notes the session is owed). A child server may
   * need the client's input mid-call: the call is stopped (ClientCall.relay), and its result asks
   * for the input. */
  private clientResult({ session, call }: { session: Session; call: CallRequest }, o: Outcome, calledAs: string, id: ToolId, args: Record<string, unknown>) {
    let result: CallToolResult | InputRequiredResult;
    if (o.kind === "refused") result = errorResult(o.message);
    else if (o.kind === "needsAnswer") result = o.resume(call, pause(calledAs, id, args));
    else result = (call.pendingInput && this.asker.channel(session).relayInput(call, pause(calledAs, id, args))) || o.result;
    return this.asker.noted(session, result);
  }

  /**
   * The one approve-then-run, whoever calls (a client, `call`, module code, `execute` code, a
   * capability): the gate's decision; a question asked at once where the client can answer in-line
   * (a yes recorded); then the run. Not async: a tool the gate already allows under the current
   * .pml.json runs without an async frame of its own (the proxy's hot path).
   */
  call(ctx: CallCtx, id: ToolId, args: Record<string, unknown>): Promise<Outcome> {
    const plan = this.gate.fast(id);
    const running = plan && this.runNow(ctx.session, plan.resolved, id, args, ctx.call, plan.env);
    return running ?? this.callChecked(ctx, id, args);
  }

  /**
   * The short lane (./lane.ts) for a client's plain call, when it may take it: the same decision
   * `call` starts with (the gate allows the tool at once under the current .pml.json and trust,
   * so it asks nothing and needs no answer, audit or grant), a running pooled server's tool, its
   * arguments valid for its schema, and nothing before the server (a changed list, a hold).
   * Undefined: take `invoke`. `laneResult` does what `runChecked` and `clientResult` do after.
   */
  lane(session: Session, requestId: Id, id: ToolId, args: Record<string, unknown>): LaneCall | undefined {
    const plan = this.gate.fast(id);
    if (plan === undefined || plan.resolved.descriptor.type !== "stdio" || this.argumentsProblemNow(id, args) !== undefined) return undefined;
    const call = new LaneCall(session, requestId, id, this);
    session.inflight.set(requestId, call);
    if (this.backends.relayStdio(plan.resolved.ns, id.action, args, call)) return call;
    session.inflight.delete(requestId);
    return undefined;
  }

  /** A lane call's end as the client's result: as runChecked's continuation and clientResult. */
  laneResult(call: LaneCall, ok: boolean, value: unknown): CallToolResult {
    if (ok) this.surface.noteUsed(call.id.ns);
    const result = this.logged(call.id, call.started, ok ? (value as CallToolResult) : this.failed(call.id, call, value));
    return this.asker.noted(call.session, result);
  }

  private async callChecked({ session, call }: CallCtx, id: ToolId, args: Record<string, unknown>): Promise<Outcome> {
    const request = { id, args, approved: session.approved, signal: call.signal };
    let decision = await this.gate.evaluate(request);
    if (decision.kind !== "deny") this.warnWithheld(session, decision.plan);
    if (decision.kind === "ask") {
      const { question } = decision;
      const answer = await this.asker.channel(session).ask(question, call.signal);
      if (answer === "later" || answer === "dismissed") return this.needsAnswer(session, answer === "dismissed" ? { ...question, dismissed: true } : question);
      if (isRefusal(answer)) return { kind: "refused", code: "declined", message: refusedText(question.toolId, answer) };
      await this.asker.approve(session, question, answer === "always");
      // The grant changes what the call receives: decided again with it.
      if (question.grant) decision = await this.gate.evaluate(request);
    }
    if (decision.kind === "deny") {
      for (const e of decision.audit ?? []) await appendAudit(this.workspace, e).catch(() => {});
      return { kind: "refused", code: decision.code, message: decision.message };
    }
    return this.run(session, decision.plan.resolved, id, args, call, decision.plan.env);
  }

  private needsAnswer(session: Session, question: Question): Outcome {
    return { kind: "needsAnswer", question, resume: (round, paused, q = question) => this.asker.channel(session).later(round, q, paused) };
  }

  private warnWithheld(session: Session, { resolved, env }: Plan): void {
    if (!env.withheld.length || this.warnedWithheld.has(resolved.ns)) return;
    this.warnedWithheld.add(resolved.ns);
    const text = `${resolved.ns}: ${resolved.source} asks for ${env.withheld.join(", ")}; withheld (PML_API_KEY goes only to cloud.url).`;
    log.warn(text);
    session.log("warning", text);
  }

  /** Runs a permitted tool: its arguments checked against its schema, then its backend. */
  private async run(session: Session, resolved: Resolved, id: ToolId, args: Record<string, unknown>, call: CallContext, env: EnvPlan): Promise<Outcome> {
    let problem = this.argumentsProblemNow(id, args);
    if (problem === NOT_LOADED) {
      await warmValidator();
      problem = this.argumentsProblemNow(id, args);
    }
    return problem === undefined ? this.runChecked(session, resolved, id, args, call, env) : ran(errorResult(String(problem)));
  }

  /** The same without waiting (the fast path): undefined when it cannot tell at once. */
  private runNow(session: Session, resolved: Resolved, id: ToolId, args: Record<string, unknown>, call: CallContext, env: EnvPlan): Promise<Outcome> | undefined {
    const problem = this.argumentsProblemNow(id, args);
    if (problem === NOT_LOADED) return undefined;
    return problem === undefined ? this.runChecked(session, resolved, id, args, call, env) : Promise.resolve(ran(errorResult(problem)));
  }

  /** Every kind of tool, whoever calls it (client, `call`, module code, `execute`), is checked
   * here against the schema its server lists; pml's own tools check their arguments themselves. */
  private argumentsProblemNow(id: ToolId, args: Record<string, unknown>): string | undefined | typeof NOT_LOADED {
    if (this.backends.inProcess[id.ns]?.validatesArguments) return undefined;
    for (const t of this.backends.knownTools(id.ns) ?? []) if (t.name === id.action) return argumentsProblemNow(toolIdText(id), t.inputSchema, args);
    return undefined;
  }

  /** The backend's promise with one continuation: the outcome becomes a result and is logged. */
  private runChecked(session: Session, resolved: Resolved, id: ToolId, args: Record<string, unknown>, call: CallContext, env: EnvPlan): Promise<Outcome> {
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
        return ran(this.logged(id, started, result));
      },
      // A position in pml's own module code means nothing to the user: not shown.
      (e) => ran(this.logged(id, started, this.failed(id, call, e, d.type === "module" ? (d.source === "builtin" ? "own" : "module") : undefined))),
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
  private logged(id: ToolId, started: number, result: CallToolResult): CallToolResult {
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

  /** `ctx.mcp.ns.action()` inside module code: the same call; approval only in-line (elicitation). */
  private async callFromModule(session: Session, name: string, args: unknown, call: CallContext): Promise<unknown> {
    const id = parseToolName(name);
    if (!id) throw new Error(`"${name}" is not a tool id; use ctx.mcp.<namespace>.<action>(args)`);
    const o = await this.call({ session, call }, id, (args ?? {}) as Record<string, unknown>);
    if (o.kind === "refused") throw new Error(o.message);
    if (o.kind === "needsAnswer") throw new Error(`${o.question.toolId} needs the user's approval first: call it directly once (or allow it in .pml.json), then retry.`);
    if (o.result.isError) throw new Error(resultText(o.result));
    return resultValue(o.result);
  }

  /** For `discover {namespace}`: see Gate.startToList. */
  startToList(session: Session, r: Resolved, ctx: Partial<CallContext>) {
    return this.gate.startToList(session.approved, r, ctx);
  }
  /** For `call`'s continuation: see ApprovalChannel.workflowTool. */
  workflowTool(session: Session, workflowId: unknown): string | undefined {
    return this.asker.channel(session).workflowTool(workflowId);
  }
}

function ran(result: CallToolResult): Outcome {
  return { kind: "ran", result };
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
