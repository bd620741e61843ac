// One tool call, end to end: .pml.json readable? -> denied? -> resolve the namespace -> tool
// exists? -> environment (src/config/env-resolver.ts: what it may receive, all set?) -> approval
// (ask, or variables the user has not granted) -> backend. A denied tool is never resolved,
// installed or started; nothing is installed or started before the env and approval checks pass.
import { describeEnvPlan, EnvResolver, envRequestFor, missingMessage, type EnvPlan } from "../config/env-resolver.ts";
import type { ProjectConfig } from "../config/pml-json.ts";
import { allowAlways, grantEnvAlways, permissionFor, type Decision } from "../permissions/permissions.ts";
import { appendAudit } from "../sandbox/audit.ts";
import { log } from "../log.ts";
import { argumentsProblem } from "./validate-args.ts";
import { approvalRequired, elicitApproval, Workflows } from "./approvals.ts";
import { isCloudRouted, type Backends, type Resolved } from "./backends.ts";
import { formatToolId, parseToolName, type ToolId } from "./names.ts";
import type { Project } from "./project.ts";
import type { Session } from "./session.ts";
import type { Surface } from "./surface.ts";
import { CAP_NS, CAP_SERVER_ID } from "../memory/names.ts";
import type { ToolUsage } from "../memory/store.ts";
import { errorResult, resultText, resultValue, ToolError, type CallContext, type CallToolResult } from "./types.ts";

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
  | { kind: "ready"; resolved: Resolved; needsApproval: boolean; why: string; env: EnvPlan; grant?: EnvGrant };

/** The session-approval key of a variable granted to a namespace (never a tool id: spaces). */
const grantKey = (ns: string, name: string) => `env ${ns} ${name}`;

export class Invoker {
  readonly workflows = new Workflows();
  /** Told about every tool call that ran (the tool_usage log). */
  onToolCall?: (u: ToolUsage) => void;
  /** Tools that passed the .pml.json-derived checks, per config generation. */
  private readonly passed = new Map<string, { generation: number; resolved: Resolved; permission: Decision }>();

  constructor(
    private readonly workspace: string,
    private readonly project: Project,
    private readonly backends: Backends,
    private readonly surface: Surface,
  ) {}

  async invoke(
    session: Session,
    id: ToolId,
    args: Record<string, unknown>,
    call: CallContext,
    opts: { calledAs: string; continueWorkflow?: ContinueWorkflow },
  ): Promise<CallToolResult> {
    const toolId = formatToolId(id.ns, id.action);
    if (opts.continueWorkflow) {
      const wf = this.workflows.take(opts.continueWorkflow.workflow_id, session.id, opts.calledAs);
      if (!wf || wf.dependency !== toolId) return workflowGone(opts.continueWorkflow.workflow_id);
      if (opts.continueWorkflow.approved !== true) return declined(toolId);
      await this.approve(session, toolId, opts.continueWorkflow.always === true, wf.grant);
      args = wf.args;
    }

    let prepared = this.prepare(session, id, call.signal);
    if (prepared instanceof Promise) prepared = await prepared;
    if (prepared.kind === "refused") return prepared.result;
    if (prepared.needsApproval) {
      const decision = await elicitApproval(session, toolId, prepared.why, call.signal);
      if (decision === "abort") return declined(toolId);
      if (decision === "fallback") {
        const wf = this.workflows.open({ sessionId: session.id, tool: opts.calledAs, dependency: toolId, kind: "tool", args, grant: prepared.grant });
        return approvalRequired(wf, prepared.why);
      }
      await this.approve(session, toolId, decision === "always", prepared.grant);
      // The grant changes what the call receives: check again with it.
      if (prepared.grant) {
        prepared = await this.prepare(session, id, call.signal);
        if (prepared.kind === "refused") return prepared.result;
      }
    }
    return this.run(session, prepared.resolved, id, args, call, prepared.env);
  }

  async run(session: Session, resolved: Resolved, id: ToolId, args: Record<string, unknown>, call: CallContext, env: EnvPlan): Promise<CallToolResult> {
    // Every kind of tool, whoever calls it (client, `call`, module code, `execute`), passes here.
    const schema = this.backends.knownTools(id.ns)?.find((t) => t.name === id.action)?.inputSchema;
    if (schema !== undefined) {
      let problem = argumentsProblem(formatToolId(id.ns, id.action), schema, args);
      if (problem instanceof Promise) problem = await problem;
      if (problem !== undefined) return errorResult(problem);
    }
    const started = performance.now();
    let result: CallToolResult;
    try {
      const d = resolved.descriptor;
      if (d.type === "inprocess") {
        result = await this.backends.inProcess[id.ns]!.run(session, id.action, args, call);
      } else {
        // Only module code calls other tools: other backends take the caller's context as it is.
        const inner = d.type === "module" ? { ...call, callTool: (toolId: string, a: unknown) => this.callFromModule(session, toolId, a, call) } : call;
        result = await this.backends.run(resolved, id.action, args, inner, env);
        this.surface.noteUsed(id.ns);
      }
    } catch (e) {
      if (e instanceof ToolError) result = errorResult(e.message);
      else if (call.signal.aborted) result = errorResult(`${formatToolId(id.ns, id.action)} was cancelled.`);
      else {
        log.error(`${id.ns}:${id.action} failed:`, e);
        result = errorResult(`${formatToolId(id.ns, id.action)} failed: ${(e as Error)?.message ?? e}`);
      }
    }
    this.onToolCall?.({
      tool_id: formatToolId(id.ns, id.action),
      server_id: id.ns === CAP_NS ? CAP_SERVER_ID : id.ns,
      success: !result.isError && !result.approval_required,
      latency_ms: performance.now() - started,
      at: new Date().toISOString(),
    });
    return result;
  }

  /** Every check that comes before running; also used by `execute` for the tools its code calls.
   * A plain value (no await) when the tool already passed under the current .pml.json. */
  prepare(session: Session, id: ToolId, signal: AbortSignal): Prepared | Promise<Prepared> {
    const state = this.project.get();
    if (!(state instanceof Promise) && !state.error) {
      const toolId = formatToolId(id.ns, id.action);
      const hit = this.passed.get(toolId);
      if (hit !== undefined && hit.generation === state.generation) return this.ready(session, id, hit.resolved, hit.permission, state.config);
    }
    return this.check(session, id, signal);
  }

  private async check(session: Session, id: ToolId, signal: AbortSignal): Promise<Prepared> {
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
    // Module tools are its exported functions: a definitive list. A server's list can change
    // with its version or the capabilities pml declares, so the server itself answers for those.
    const known = resolved.descriptor.type === "module" ? resolved.descriptor.tools : undefined;
    if (known && !known.some((t) => t.name === id.action))
      return refuse(`"${id.ns}" has no tool "${id.action}". Its tools: ${known.map((t) => t.name).join(", ")}.`);

    // Resolutions are already kept per generation (the resolver's memo); remembering the outcome
    // spares the next calls the permission match, the resolver and several awaits.
    this.passed.set(toolId, { generation: state.generation, resolved, permission });
    return this.ready(session, id, resolved, permission, state.config);
  }

  /** What the call may receive from the user's environment, and from where (one resolver for all). */
  private planEnv(session: Session, resolved: Resolved, action: string, config: ProjectConfig): EnvPlan {
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
  private ready(session: Session, id: ToolId, resolved: Resolved, permission: Decision, config: ProjectConfig): Prepared {
    const toolId = formatToolId(id.ns, id.action);
    const env = this.planEnv(session, resolved, id.action, config);
    if (env.missing.length) return refuse(missingMessage(env, toolId, this.workspace));
    if (env.withheld.length) log.warn(`${toolId}: ${resolved.source} asks for ${env.withheld.join(", ")}; withheld (PML_API_KEY goes only to cloud.url).`);
    const grant = env.ungranted.length ? { ns: resolved.ns, names: [...env.ungranted] } : undefined;
    const needsApproval = (permission === "ask" && !session.approved.has(toolId)) || grant !== undefined;
    const why = needsApproval ? describeRisk(resolved, env) : "";
    return { kind: "ready", resolved, needsApproval, why, env, grant };
  }

  /** `ctx.mcp.ns.action()` inside module code: the same checks; approval only in-line (elicitation). */
  private async callFromModule(session: Session, name: string, args: unknown, call: CallContext): Promise<unknown> {
    const id = parseToolName(name);
    if (!id) throw new Error(`"${name}" is not a tool id; use ctx.mcp.<namespace>.<action>(args)`);
    const toolId = formatToolId(id.ns, id.action);
    const prepared = await this.prepare(session, id, call.signal);
    if (prepared.kind === "refused") throw new Error(resultText(prepared.result));
    if (prepared.needsApproval) {
      const decision = await elicitApproval(session, toolId, prepared.why, call.signal);
      if (decision === "fallback") throw new Error(`${toolId} needs the user's approval first: call it directly once (or allow it in .pml.json), then retry.`);
      if (decision === "abort") throw new Error(resultText(declined(toolId)));
      await this.approve(session, toolId, decision === "always", prepared.grant);
    }
    const again = prepared.grant ? await this.prepare(session, id, call.signal) : prepared;
    if (again.kind === "refused") throw new Error(resultText(again.result));
    const result = await this.run(session, again.resolved, id, (args ?? {}) as Record<string, unknown>, call, again.env);
    if (result.isError) throw new Error(resultText(result));
    return resultValue(result);
  }

  /** The user said yes: the tool for this session, and the variables the prompt named for this
   * session; "always" writes both into .pml.json (allow only if it was not already allowed). */
  async approve(session: Session, toolId: string, always: boolean, grant?: EnvGrant): Promise<void> {
    session.approved.add(toolId);
    for (const name of grant?.names ?? []) session.approved.add(grantKey(grant!.ns, name));
    if (!always) return;
    try {
      const state = await this.project.get();
      if (grant?.names.length) await grantEnvAlways(this.workspace, grant.ns, grant.names);
      if (state.error || permissionFor(state.config.permissions ?? {}, toolId) !== "allow") await allowAlways(this.workspace, toolId);
      this.project.invalidate();
    } catch (e) {
      log.warn(`could not record the approval of ${toolId} in .pml.json: ${(e as Error).message}`);
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
  else what = `It runs module code from ${r.source} in pml's sandbox, scoped to the workspace.`;
  const vars = describeEnvPlan(env);
  return vars ? `${what} ${vars}` : what;
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
  return errorResult(`The user declined ${toolId}; it was not run.`);
}
