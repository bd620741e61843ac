// One tool call, end to end: .pml.json readable? -> denied? -> resolve the namespace -> tool
// exists? -> environment (src/env/env-resolver.ts: what it may receive, all set?) -> approval
// (ask, or variables the user has not granted) -> backend. A denied tool is never resolved,
// installed or started; nothing is installed or started before the env and approval checks pass.
import { asksNothing, describeEnvPlan, EnvResolver, envRequestFor, missingMessage, type EnvPlan } from "../env/env-resolver.ts";
import { cloudKey } from "../config/settings.ts";
import { cloudKeyMissing } from "../cloud/missing-key.ts";
import type { Descriptor } from "../registry/descriptor.ts";
import type { ProjectConfig } from "../config/pml-json.ts";
import { allowAlways, grantEnvAlways, permissionFor, type Decision } from "../policy/permissions.ts";
import { appendAudit } from "../sandbox/audit.ts";
import { isBuiltinShell } from "../sandbox/builtins/builtins.ts";
import { closest } from "../config/did-you-mean.ts";
import { log } from "../log.ts";
import { argumentsProblem } from "./validate-args.ts";
import { approvalElicitation, approvalRequired, decisionOf, elicitApproval, Workflows } from "../policy/approvals.ts";
import { approvalKey, commandLine, confinementNote } from "../policy/approval-text.ts";
import { APPROVAL_INPUT, inputRequired, redeemState } from "../policy/mrtr.ts";
import { argsDigest, RequestStates, type StatePayload } from "../policy/request-state.ts";
import type { CallRequest } from "./server.ts";
import type { InputRequiredResult } from "../mcp/protocol.ts";
import type { Backends } from "./backends.ts";
import type { Resolved } from "../registry/resolved.ts";
import { isCloudRouted } from "../routing/route.ts";
import { formatToolId, parseToolName, type ToolId } from "./names.ts";
import type { Project } from "../policy/project.ts";
import type { Session } from "../mcp/session.ts";
import type { Surface } from "./surface.ts";
import { CAP_NS, CAP_SERVER_ID } from "../memory/names.ts";
import type { ToolUsage } from "../memory/store.ts";
import { errorResult, resultText, resultValue, ToolError, type CallContext } from "../mcp/tool-result.ts";
import type { CallToolResult, ToolInfo } from "../mcp/types.ts";

export interface ContinueWorkflow {
  workflow_id?: unknown;
  approved?: unknown;
  always?: unknown;
}

/** Variables the user is asked to give to a namespace (an approval grants them). */
export interface EnvGrant {
  ns: string;
  names: string[];
}

export type Prepared =
  | { kind: "refused"; result: CallToolResult }
  | { kind: "ready"; resolved: Resolved; needsApproval: boolean; why: string; env: EnvPlan; grant?: EnvGrant; key: string };

/** A tool that passed the .pml.json-derived checks under one generation of the file. */
interface Passed {
  generation: number;
  resolved: Resolved;
  permission: Decision;
  /** Its outcome, when nothing but the file decides it (see `prepare`). */
  allowed?: Prepared;
}

/** The session-approval key of a variable granted to a namespace (never a tool id: spaces). */
const grantKey = (ns: string, name: string) => `env ${ns} ${name}`;

/** What a paused request needs to be resumed by its retry (2026-07-28) or its continuation. */
export interface PauseBase {
  kind: "tool" | "execute";
  /** The tool the retry calls (as the client named it). */
  tool: string;
  args: Record<string, unknown>;
  /** What the state binds the retry to (its digest): the tool id and arguments, or execute's input. */
  bind?: unknown;
  replay?: unknown[];
}

export class Invoker {
  readonly workflows = new Workflows();
  private requestStates?: RequestStates;
  /** Told about every tool call that ran (the tool_usage log). */
  onToolCall?: (u: ToolUsage) => void;
  /** Tools that passed the .pml.json-derived checks, per config generation. */
  private readonly passed = new Map<string, Passed>();
  /** Plans of tools that ask for no variable: they depend on nothing but the resolution (hot path). */
  private readonly plainPlans = new WeakMap<Resolved, Map<string, EnvPlan>>();
  private readonly warnedWithheld = new Set<string>();

  constructor(
    private readonly workspace: string,
    private readonly project: Project,
    private readonly backends: Backends,
    private readonly surface: Surface,
  ) {}

  /**
   * A call the client made. Not async: a tool that already passed every check under the current
   * .pml.json, and needs no approval, runs without an async frame of its own (the proxy's hot
   * path); everything else goes through `invokeChecked`, given what `prepare` found.
   */
  invoke(
    session: Session,
    id: ToolId,
    args: Record<string, unknown>,
    call: CallContext & Pick<CallRequest, "inputResponses" | "requestState">,
    opts: { calledAs: string; continueWorkflow?: ContinueWorkflow },
  ): Promise<CallToolResult | InputRequiredResult> {
    if (opts.continueWorkflow || call.requestState !== undefined) return this.invokeChecked(session, id, args, call, opts);
    const prepared = this.prepare(session, id, call, args);
    if (prepared instanceof Promise || prepared.kind !== "ready" || prepared.needsApproval) return this.invokeChecked(session, id, args, call, opts, prepared);
    const running = this.run(session, prepared.resolved, id, args, call, prepared.env);
    if (!session.modern) return running;
    return running.then((result) => (session.pendingInput ? this.relayInput(session, pauseBase(opts.calledAs, id, args)) : result));
  }

  private async invokeChecked(
    session: Session,
    id: ToolId,
    args: Record<string, unknown>,
    call: CallContext & Pick<CallRequest, "inputResponses" | "requestState">,
    opts: { calledAs: string; continueWorkflow?: ContinueWorkflow },
    preparedBefore?: Prepared | Promise<Prepared>,
  ): Promise<CallToolResult | InputRequiredResult> {
    const toolId = formatToolId(id.ns, id.action);
    if (opts.continueWorkflow && session.modern) {
      const st = this.redeemWorkflow(opts.continueWorkflow, opts.calledAs, "tool");
      if (typeof st === "string") return workflowGone(opts.continueWorkflow.workflow_id);
      if (st.dependency !== toolId) return workflowGone(opts.continueWorkflow.workflow_id);
      for (const t of st.approved ?? []) session.approved.add(t);
      if (opts.continueWorkflow.approved !== true) return declined(toolId);
      await this.approve(session, toolId, opts.continueWorkflow.always === true, st.grant, st.key);
      args = st.carried ?? {};
    } else if (opts.continueWorkflow) {
      const wf = this.workflows.take(opts.continueWorkflow.workflow_id, session.id, opts.calledAs);
      if (!wf || wf.dependency !== toolId) return workflowGone(opts.continueWorkflow.workflow_id);
      if (opts.continueWorkflow.approved !== true) return declined(toolId);
      await this.approve(session, toolId, opts.continueWorkflow.always === true, wf.grant, wf.key);
      args = wf.args;
    }
    const base = pauseBase(opts.calledAs, id, args);
    if (session.modern && call.requestState !== undefined) {
      const st = redeemState(this.states(), call.requestState, opts.calledAs, base.bind, "tool");
      const stop = await this.resume(session, st, call.inputResponses, base);
      if (stop) return stop;
    }

    // (Prepared before only when nothing above ran: no continuation, no retry.)
    let prepared = preparedBefore ?? this.prepare(session, id, call, args);
    if (prepared instanceof Promise) prepared = await prepared;
    if (prepared.kind === "refused") return prepared.result;
    if (prepared.needsApproval) {
      const why = prepared.why + commandLine(prepared.resolved, id.action, args);
      if (session.modern) return this.askInput(session, toolId, why, base, prepared.grant, prepared.key);
      const decision = await elicitApproval(session, toolId, why, call.signal);
      if (decision === "abort") return declined(toolId);
      if (decision === "fallback") {
        const wf = this.workflows.open({ sessionId: session.id, tool: opts.calledAs, dependency: toolId, kind: "tool", args, grant: prepared.grant, key: prepared.key });
        return approvalRequired(wf, why);
      }
      await this.approve(session, toolId, decision === "always", prepared.grant, prepared.key);
      // The grant changes what the call receives: check again with it.
      if (prepared.grant) {
        prepared = await this.prepare(session, id, call, args);
        if (prepared.kind === "refused") return prepared.result;
      }
    }
    // A child server may need the client's input mid-call: the call is stopped (the gateway set
    // session.interrupt), and its result asks for the input (see Session.relayRequest).
    const result = await this.run(session, prepared.resolved, id, args, call, prepared.env);
    return session.modern && session.pendingInput ? this.relayInput(session, base) : result;
  }

  /** The input a child server asked for, as an input_required result (2026-07-28). */
  relayInput(session: Session, base: PauseBase): InputRequiredResult {
    const { key, request } = session.pendingInput!;
    session.pendingInput = undefined;
    const state = this.states().issue({
      kind: base.kind,
      tool: base.tool,
      args: argsDigest(base.bind),
      approved: [...session.approved],
      answers: session.relayAnswers,
      replay: base.replay,
    });
    return inputRequired({ [key]: request }, state);
  }

  /** The tool an approval workflow was issued for (without using it up), for `call`'s continuation. */
  workflowTool(session: Session, workflowId: unknown): string | undefined {
    if (session.modern) {
      const st = this.states().verify(workflowId);
      return typeof st === "string" ? undefined : st.dependency;
    }
    return this.workflows.peek(workflowId, session.id)?.dependency;
  }

  /** The key that authenticates request states; read or created on first use. */
  states(): RequestStates {
    this.requestStates ??= new RequestStates(this.workspace);
    return this.requestStates;
  }

  /**
   * A 2026-07-28 approval: an input_required result whose elicitation the client shows the user;
   * the state lets any replica finish the call on the retry. Without form elicitation, the
   * tool-result flow, whose workflow id is such a state too.
   */
  askInput(session: Session, toolId: string, why: string, base: PauseBase, grant?: EnvGrant, key?: string): InputRequiredResult | CallToolResult {
    if (!session.supportsFormElicitation()) return this.fallback(session, toolId, why, base, grant, key);
    const state = this.states().issue({
      kind: base.kind,
      tool: base.tool,
      args: argsDigest(base.bind),
      dependency: toolId,
      grant,
      key,
      approved: [...session.approved],
      answers: session.relayAnswers,
      replay: base.replay,
    });
    return inputRequired({ [APPROVAL_INPUT]: { method: "elicitation/create", params: approvalElicitation(toolId, why, "this call") } }, state);
  }

  /** The tool-result flow under 2026-07-28: its workflow id is a request state carrying the arguments. */
  fallback(session: Session, toolId: string, why: string, base: PauseBase, grant?: EnvGrant, key?: string): CallToolResult {
    const id = this.states().issue({ kind: base.kind, tool: base.tool, dependency: toolId, grant, key, approved: [...session.approved], carried: base.args, replay: base.replay });
    return approvalRequired({ id, tool: base.tool, dependency: toolId, kind: base.kind }, why);
  }

  /**
   * Applies a verified retry: approvals of earlier rounds, answers for child servers, and the
   * user's decision on the pending approval. A result means the call ends here (declined, or
   * the client could not ask: the tool-result flow); undefined means go on.
   */
  async resume(session: Session, st: StatePayload, inputResponses: Record<string, unknown> | undefined, base: PauseBase): Promise<CallToolResult | undefined> {
    for (const t of st.approved ?? []) session.approved.add(t);
    const { [APPROVAL_INPUT]: answer, ...relayed } = inputResponses ?? {};
    session.relayAnswers = { ...st.answers, ...relayed };
    if (!st.dependency || answer === undefined) return undefined; // not answered: asked again
    const decision = decisionOf(answer);
    if (decision === "abort") return declined(st.dependency);
    if (decision === "fallback") return this.fallback(session, st.dependency, "", { ...base, replay: st.replay }, st.grant, st.key);
    await this.approve(session, st.dependency, decision === "always", st.grant, st.key);
    return undefined;
  }

  /** A continuation's workflow id under 2026-07-28: a request state carrying the arguments. */
  redeemWorkflow(cw: ContinueWorkflow, tool: string, kind: StatePayload["kind"]): StatePayload | string {
    const st = this.states().redeem(cw.workflow_id, tool);
    if (typeof st === "string") return st;
    return st.kind === kind && st.carried ? st : "it is not a workflow id";
  }

  /** Runs a tool that passed `prepare`: its arguments checked against its schema, then its backend. */
  run(session: Session, resolved: Resolved, id: ToolId, args: Record<string, unknown>, call: CallContext, env: EnvPlan): Promise<CallToolResult> {
    // Every kind of tool, whoever calls it (client, `call`, module code, `execute`), passes here.
    let schema: Record<string, unknown> | undefined;
    for (const t of this.backends.knownTools(id.ns) ?? []) {
      if (t.name === id.action) {
        schema = t.inputSchema;
        break;
      }
    }
    if (schema !== undefined) {
      const problem = argumentsProblem(formatToolId(id.ns, id.action), schema, args);
      if (problem instanceof Promise) return problem.then((p) => (p === undefined ? this.runChecked(session, resolved, id, args, call, env) : errorResult(p)));
      if (problem !== undefined) return Promise.resolve(errorResult(problem));
    }
    return this.runChecked(session, resolved, id, args, call, env);
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
      (e) => this.ran(id, started, this.failed(id, call, e)),
    );
  }

  private failed(id: ToolId, call: CallContext, e: unknown): CallToolResult {
    if (e instanceof ToolError) return errorResult(e.message);
    if (call.signal.aborted) return errorResult(`${formatToolId(id.ns, id.action)} was cancelled.`);
    log.error(`${id.ns}:${id.action} failed:`, e);
    return errorResult(`${formatToolId(id.ns, id.action)} failed: ${(e as Error)?.message ?? e}`);
  }

  /** Logs the call (tool_usage) and hands its result on. */
  private ran(id: ToolId, started: number, result: CallToolResult): CallToolResult {
    this.onToolCall?.({
      tool_id: formatToolId(id.ns, id.action),
      server_id: id.ns === CAP_NS ? CAP_SERVER_ID : id.ns,
      success: !result.isError && !result.approval_required,
      latency_ms: performance.now() - started,
      at: isoNow(),
    });
    return result;
  }

  /** Every check that comes before running; also used by `execute` for the tools its code calls.
   * A plain value (no await) when the tool already passed under the current .pml.json. */
  prepare(session: Session, id: ToolId, call: Pick<CallContext, "signal">, args?: Record<string, unknown>): Prepared | Promise<Prepared> {
    const state = this.project.current();
    if (state !== undefined && !state.error) {
      const toolId = formatToolId(id.ns, id.action);
      const hit = this.passed.get(toolId);
      if (hit !== undefined && hit.generation === state.generation) {
        if (hit.allowed !== undefined) return hit.allowed;
        const prepared = this.ready(session, id, hit.resolved, hit.permission, state.config, args);
        // Allowed by .pml.json and asking for no variable: nothing of the session or the
        // arguments can change the outcome until the file changes (a new generation).
        if (prepared.kind === "ready" && hit.permission === "allow" && !prepared.needsApproval && this.plainPlans.get(hit.resolved)?.get(id.action) === prepared.env)
          hit.allowed = prepared;
        return prepared;
      }
    }
    return this.check(session, id, call.signal, args);
  }

  private async check(session: Session, id: ToolId, signal: AbortSignal, args?: Record<string, unknown>): Promise<Prepared> {
    const toolId = formatToolId(id.ns, id.action);
    const state = await this.project.get();
    if (state.error)
      return refuse(`${state.error}\nNothing was run; pml rereads the file on the next call.`);

    // pml's own namespaces (capabilities, their names) run no code with authority of their own:
    // the tools a capability calls are checked one by one. Unless a pattern says otherwise they
    // are allowed, like `execute`.
    const permission = permissionFor(state.config.permissions ?? {}, toolId, this.backends.inProcess[id.ns] ? "allow" : "ask");
    if (permission === "deny") {
      await appendAudit(this.workspace, { tool: toolId, attempted: "call", reason: "denied by .pml.json permissions" }).catch(() => {});
      return refuse(`${toolId} is denied by ${state.path} (permissions.deny). It was not run. To allow it, remove the matching deny pattern.`);
    }

    let resolved: Resolved;
    try {
      resolved = await this.backends.resolve(id.ns, signal);
    } catch (e) {
      return refuse((e as Error).message);
    }
    // A cloud tool without PML_API_KEY cannot run: say that first, not an approval or a missing
    // variable of the tool.
    if (isCloudRouted(id.ns, resolved.descriptor as Descriptor, id.action) && !cloudKey({ workspace: this.workspace }))
      return refuse(cloudKeyMissing(toolId, this.workspace));

    // A tool that does not exist is refused before anyone is asked (an approval, or an "Always"
    // stored for it, would be for nothing). Lists that are known without starting anything are
    // definitive: a module's exported functions, a catalog server's list for its pinned version
    // (generated with the capabilities pml declares), a list this process saw from the server.
    let known = resolved.descriptor.type === "module" ? resolved.descriptor.tools : this.backends.knownTools(id.ns);
    const missing = () => known && known.length > 0 && !known.some((t) => t.name === id.action);
    // A list kept from an earlier session may predate a change to the user's own server: when it
    // may be started (allowed), it is asked again before a tool is refused.
    if (missing() && this.backends.keptFromEarlierRun(id.ns) && resolved.origin === "user" && permission === "allow") {
      const fresh = await this.startToList(session, resolved, { signal });
      if (typeof fresh !== "string") known = fresh;
    }
    if (known && missing()) {
      const names = known.map((t) => t.name);
      const near = closest(id.action, names);
      const kept = this.backends.keptFromEarlierRun(id.ns) ? ` (as it listed them in an earlier session; if it has changed since, allow "${id.ns}" in .pml.json so pml can list them again)` : "";
      return refuse(`"${id.ns}" has no tool "${id.action}"; nothing was run or asked.${near ? ` Did you mean ${id.ns}:${near}?` : ""} Its tools${kept}: ${names.join(", ")}.`);
    }

    // Resolutions are already kept per generation (the resolver's memo); remembering the outcome
    // spares the next calls the permission match, the resolver and several awaits.
    this.passed.set(toolId, { generation: state.generation, resolved, permission });
    return this.ready(session, id, resolved, permission, state.config, args);
  }

  /** What the call may receive from the user's environment, and from where (one resolver for all). */
  private planEnv(session: Session, resolved: Resolved, action: string, config: ProjectConfig): EnvPlan {
    const known = this.plainPlans.get(resolved)?.get(action);
    if (known) return known;
    const plan = this.computePlan(session, resolved, action, config);
    if (asksNothing(plan.request)) {
      let byAction = this.plainPlans.get(resolved);
      if (!byAction) this.plainPlans.set(resolved, (byAction = new Map()));
      byAction.set(action, plan);
    }
    return plan;
  }

  private computePlan(session: Session, resolved: Resolved, action: string, config: ProjectConfig): EnvPlan {
    const d = resolved.descriptor;
    const resolver = new EnvResolver({
      workspace: this.workspace,
      grants: config.env_grants,
      sessionGranted: (ns, name) => session.approved.has(grantKey(ns, name)),
    });
    // pml's own in-process tools (capabilities) ask for nothing.
    if (d.type === "inprocess") return resolver.plan({ ns: resolved.ns, kind: "module", origin: "user", required: [], destination: `pml's own ${resolved.ns} tools` });
    const cloudRouted = isCloudRouted(resolved.ns, d, action);
    const cloud = cloudRouted ? cloudUrlText(config) : undefined;
    return resolver.plan(envRequestFor(resolved.ns, d, resolved.origin, { cloudRouted, cloudEndpoint: cloud, substitute: (s) => resolver.substitute(s) }));
  }

  /** The checks that can change without .pml.json changing: env vars and this session's approvals. */
  private ready(session: Session, id: ToolId, resolved: Resolved, permission: Decision, config: ProjectConfig, args?: Record<string, unknown>): Prepared {
    const toolId = formatToolId(id.ns, id.action);
    const env = this.planEnv(session, resolved, id.action, config);
    if (env.missing.length) return refuse(missingMessage(env, toolId, this.workspace));
    if (env.withheld.length && !this.warnedWithheld.has(resolved.ns)) {
      this.warnedWithheld.add(resolved.ns);
      const text = `${resolved.ns}: ${resolved.source} asks for ${env.withheld.join(", ")}; withheld (PML_API_KEY goes only to cloud.url).`;
      log.warn(text);
      session.log("warning", text);
    }
    const grant = env.ungranted.length ? { ns: resolved.ns, names: [...env.ungranted] } : undefined;
    const key = approvalKey(resolved, toolId, id.action, args);
    const needsApproval = (permission === "ask" && !session.approved.has(key)) || grant !== undefined;
    const why = needsApproval ? describeRisk(resolved, env) + confinementNote(resolved, config) : "";
    return { kind: "ready", resolved, needsApproval, why, env, grant, key };
  }

  /** `ctx.mcp.ns.action()` inside module code: the same checks; approval only in-line (elicitation). */
  private async callFromModule(session: Session, name: string, args: unknown, call: CallContext): Promise<unknown> {
    const id = parseToolName(name);
    if (!id) throw new Error(`"${name}" is not a tool id; use ctx.mcp.<namespace>.<action>(args)`);
    const toolId = formatToolId(id.ns, id.action);
    const prepared = await this.prepare(session, id, call, args as Record<string, unknown>);
    if (prepared.kind === "refused") throw new Error(resultText(prepared.result));
    if (prepared.needsApproval) {
      const decision = await elicitApproval(session, toolId, prepared.why + commandLine(prepared.resolved, id.action, args as Record<string, unknown>), call.signal);
      if (decision === "fallback") throw new Error(`${toolId} needs the user's approval first: call it directly once (or allow it in .pml.json), then retry.`);
      if (decision === "abort") throw new Error(resultText(declined(toolId)));
      await this.approve(session, toolId, decision === "always", prepared.grant, prepared.key);
    }
    const again = prepared.grant ? await this.prepare(session, id, call, args as Record<string, unknown>) : prepared;
    if (again.kind === "refused") throw new Error(resultText(again.result));
    const result = await this.run(session, again.resolved, id, (args ?? {}) as Record<string, unknown>, call, again.env);
    if (result.isError) throw new Error(resultText(result));
    return resultValue(result);
  }

  /**
   * `discover {namespace}` of a stdio server whose tools are not known yet: start it to list them,
   * only when that runs nothing the user has not allowed. Starting a server runs its code, and a
   * private_mcps entry may have come with a cloned repository: the namespace must be allowed (as
   * a call would need), and a registry's server is started only by an approved call. A string says
   * why it was not started and what to do.
   */
  async startToList(session: Session, r: Resolved, ctx: Partial<CallContext>): Promise<ToolInfo[] | string> {
    const state = await this.project.get();
    if (r.origin !== "user")
      return `listed after its first call: pml starts a registry's server only for a call you approved. Call one of its tools (you will be asked first), or read its registry entry.`;
    const env = this.planEnv(session, r, "*", state.config);
    const permission = permissionFor(state.config.permissions ?? {}, `${r.ns}:*`);
    if (permission === "deny") return `not started: ${r.ns} is denied by ${state.path} (permissions.deny).`;
    if (permission !== "allow")
      return `not started to list its tools, since that runs ${env.request.destination} (from ${r.source}) on this machine: allow "${r.ns}" in permissions.allow of ${state.path} first, or call one of its tools (you will be asked).`;
    if (env.missing.length) return missingMessage(env, `${r.ns}`, this.workspace);
    try {
      return await this.backends.listStdio(r, env, ctx);
    } catch (e) {
      return `could not be started to list its tools: ${(e as Error).message}`;
    }
  }

  /** The user said yes: the tool (or, for a shell command, that command: `key`) for this session,
   * and the variables the prompt named for this session; "always" writes the tool and the
   * variables into .pml.json (allow only if it was not already allowed). */
  async approve(session: Session, toolId: string, always: boolean, grant?: EnvGrant, key = toolId): Promise<void> {
    session.approved.add(key);
    for (const name of grant?.names ?? []) session.approved.add(grantKey(grant!.ns, name));
    if (!always) return;
    try {
      const state = await this.project.get();
      if (grant?.names.length) await grantEnvAlways(this.workspace, grant.ns, grant.names);
      if (state.error || permissionFor(state.config.permissions ?? {}, toolId) !== "allow") await allowAlways(this.workspace, toolId);
      this.project.invalidate();
    } catch (e) {
      const text = `could not record the approval of ${toolId} in .pml.json: ${(e as Error).message}`;
      log.warn(text);
      session.log("warning", text);
    }
  }
}

function cloudUrlText(config: ProjectConfig): string {
  const url = config.cloud?.url;
  return url ? `${url.replace(/\/+$/, "")}/mcp/tools/call` : "(no cloud.url configured)";
}

/** Plainly what will run and what it receives: the command line, the URL, the variables. */
function describeRisk(r: Resolved, env: EnvPlan): string {
  const d = r.descriptor;
  if (d.type === "inprocess") return `It is pml's own ${r.ns} tool (${d.description}).`;
  const dest = env.request.destination;
  let what: string;
  if (d.type === "stdio") what = `It runs ${dest} (from ${r.source}) on this machine.`;
  else if (d.type === "http") what = `It sends the arguments to ${dest} (from ${r.source}).`;
  else if (env.request.kind === "cloud") what = `It sends the arguments to ${dest}.`;
  else if (d.type === "module" && isBuiltinShell(d)) what = "It runs a shell command on this machine.";
  else what = `It runs module code from ${r.source} in pml's sandbox, scoped to the workspace.`;
  const vars = describeEnvPlan(env);
  return vars ? `${what} ${vars}` : what;
}

/** What a paused call is bound to: the tool as the client named it, the tool id and the arguments. */
function pauseBase(calledAs: string, id: ToolId, args: Record<string, unknown>): PauseBase {
  return { kind: "tool", tool: calledAs, args, bind: { tool: formatToolId(id.ns, id.action), arguments: args } };
}

function refuse(text: string): Prepared {
  return { kind: "refused", result: errorResult(text) };
}

export function workflowGone(id: unknown): CallToolResult {
  return errorResult(
    `Workflow expired or not found${typeof id === "string" ? ` (${id})` : ""}. Approval requests work once, for the tool they were issued for, within 5 minutes. Call the tool again to get a new one.`,
  );
}

export function declined(toolId: string): CallToolResult {
  return errorResult(`The user did not approve ${toolId} (declined, or an answer that was not Continue, Always or Abort); it was not run.`);
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
