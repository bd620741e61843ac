// The one gate every tool call passes, whoever makes it (a client, `call`, `execute` code, a
// module, a capability, a stdlib tool): .pml.json readable? -> denied? -> resolve the namespace ->
// tool exists? -> environment (what it may receive, all set?) -> approval (ask, or variables the
// user has not granted) -> the arguments (a built-in file call its host would refuse is refused
// before anyone is asked; a question says what the call will do). A denied tool is never resolved,
// installed or started; nothing is installed or started before the environment and approval checks
// pass. The gate only decides (`evaluate`): it asks nobody and writes nothing. The invoker
// (src/gateway/dispatch/invoke.ts) acts on the decision: it asks through the asker, records the audit, runs.
import type { AuditEntry } from "../sandbox/audit.ts";
import { fileTargets } from "../sandbox/builtins/file-targets.ts";
import { asksNothing, EnvResolver, envRequestFor, missingMessage, type EnvPlan } from "../env/env-resolver.ts";
import { cloudKey } from "../config/settings.ts";
import { cloudKeyMissing } from "../cloud/missing-key.ts";
import { closest } from "../config/did-you-mean.ts";
import type { ProjectConfig } from "../config/pml-json.ts";
import type { Descriptor } from "../registry/descriptor.ts";
import type { Resolved } from "../registry/resolved.ts";
import { isCloudRouted } from "../routing/route.ts";
import { formatToolId, toolIdText, type ToolId } from "../mcp/tool-names.ts";
import type { CallContext } from "../mcp/tool-result.ts";
import type { ToolInfo } from "../mcp/types.ts";
import { approvalKey, foreignCodeText, questionText, type ForeignCode } from "./approval-text.ts";
import { grantKey, type EnvGrant, type Question } from "./question.ts";
import { exactAllows, permissionFor, type Decision as Permission } from "./permissions.ts";
import type { Project, ProjectState } from "./project.ts";

/** One call the gate is asked about: the tool, its arguments, and what the caller's session has
 * approved so far (tools, commands, variables). Nothing else of the session counts. */
export interface Request {
  id: ToolId;
  args?: Record<string, unknown>;
  approved: ReadonlySet<string>;
  signal: AbortSignal;
}

/** What a permitted call runs with: where the tool is, and what it may receive. */
export interface Plan {
  resolved: Resolved;
  env: EnvPlan;
}

/** Why a call was refused, for callers that act on it (the message is for the user). */
export type RefusalCode = "unreadable-config" | "denied" | "unavailable" | "no-cloud-key" | "no-such-tool" | "missing-env" | "protected";

/** The gate's answer. A refusal may carry what the audit log should record of it (the caller
 * writes it: the gate writes nothing). */
export type Decision = { kind: "allow"; plan: Plan } | { kind: "deny"; code: RefusalCode; message: string; audit?: AuditEntry[] } | { kind: "ask"; plan: Plan; question: Question };

/** What the gate needs to know of the tools (the gateway's backends). */
export interface ToolCatalog {
  resolve(ns: string, signal: AbortSignal): Promise<Resolved>;
  /** The tools a namespace is known to have without starting anything; undefined if unknown. */
  knownTools(ns: string): ToolInfo[] | undefined;
  keptFromEarlierRun(ns: string): boolean;
  /** pml's own namespaces (capabilities, stdlib): allowed unless a pattern says otherwise. */
  servesInProcess(ns: string): boolean;
  /** For a call of pml's own namespace that names code by where it is published (a capability by
   * its FQDN): whose it is now. Undefined: nothing of the kind (the usual checks, kept per file). */
  foreignCode?(id: ToolId): Promise<ForeignCheck | undefined>;
  listStdio(r: Resolved, env: EnvPlan, ctx: Partial<CallContext>): Promise<ToolInfo[]>;
}

/** Another org's code is asked about, naming the org; the user's own (or their org's) runs as pml's
 * own tools do; one that cannot be fetched is refused with the reason. Decided on every call, since
 * what a registry holds can change while .pml.json does not. */
export type ForeignCheck = { ask: ForeignCode } | { allow: true } | { refuse: string };

/** A tool that passed the .pml.json-derived checks under one generation of the file. */
interface Passed {
  generation: number;
  resolved: Resolved;
  permission: Permission;
  /** Someone else's code it runs (named in the question). */
  foreign?: ForeignCode;
  /** Its plan, when nothing but the file decides it (see `fast`). */
  allowed?: Plan;
}

export class Gate {
  private readonly passed = new Map<string, Passed>();
  /** Plans of tools that ask for no variable: they depend on nothing but the resolution (hot path). */
  private readonly plainPlans = new WeakMap<Resolved, Map<string, EnvPlan>>();

  constructor(
    private readonly workspace: string,
    private readonly project: Project,
    private readonly catalog: ToolCatalog,
  ) {}

  /**
   * `evaluate`'s answer without waiting, when it is already known to be "allow" under the current
   * .pml.json: the tool is allowed by the file and asks for no variable, so nothing of the
   * session or the arguments can change it until the file changes (a new generation).
   * Undefined means: ask `evaluate`.
   */
  fast(id: ToolId): Plan | undefined {
    const state = this.project.current();
    if (state === undefined || state.error) return undefined;
    const hit = this.passed.get(toolIdText(id));
    return hit !== undefined && hit.generation === state.generation ? hit.allowed : undefined;
  }

  /** The one decision for a call: allow (with its plan), deny (why), or ask (the question). */
  async evaluate(req: Request): Promise<Decision> {
    const state = await this.project.get();
    const toolId = formatToolId(req.id.ns, req.id.action);
    const hit = this.passed.get(toolId);
    let decision = !state.error && hit !== undefined && hit.generation === state.generation ? this.ready(req, toolId, hit, state.config) : await this.check(req, toolId, state);
    if (decision.kind !== "deny") decision = await this.withArguments(decision, req, toolId, state.config);
    return state.untrusted.length && decision.kind !== "allow" ? withTrustNote(decision, state.path, this.workspace) : decision;
  }

  private async check(req: Request, toolId: string, state: ProjectState): Promise<Decision> {
    const { id } = req;
    if (state.error) return deny("unreadable-config", `${state.error}\nNothing was run; pml rereads the file on the next call.`);

    // pml's own namespaces (capabilities, their names) run no code with authority of their own:
    // the tools a capability calls are checked one by one. Unless a pattern says otherwise they
    // are allowed, like `execute`; but code another org published runs only if the user says so.
    const inProcess = this.catalog.servesInProcess(id.ns);
    let permission = permissionFor(state.config.permissions ?? {}, toolId, inProcess ? "allow" : "ask");
    if (permission === "deny")
      return deny("denied", `${toolId} is denied by ${state.path} (permissions.deny). It was not run. To allow it, remove the matching deny pattern.`, [
        { tool: toolId, attempted: "call", reason: "denied by .pml.json permissions" },
      ]);
    const foreign = inProcess ? await this.catalog.foreignCode?.(id) : undefined;
    if (foreign && "refuse" in foreign) return deny("unavailable", foreign.refuse);
    // A broad allow ("cap", "cap:*", "*") is about the user's own capabilities: another org's code
    // runs unasked only when allowed by its exact name (what an "Always" of it writes).
    if (foreign && "ask" in foreign) permission = permissionFor(exactAllows(state.config.permissions ?? {}, toolId), toolId, "ask");

    let resolved: Resolved;
    try {
      resolved = await this.catalog.resolve(id.ns, req.signal);
    } catch (e) {
      return deny("unavailable", (e as Error).message);
    }
    // A cloud tool without PML_API_KEY cannot run: say that first, not an approval or a missing
    // variable of the tool.
    if (isCloudRouted(id.ns, resolved.descriptor as Descriptor, id.action) && !cloudKey({ workspace: this.workspace }))
      return deny("no-cloud-key", cloudKeyMissing(toolId, this.workspace));

    const missing = await this.missingTool(req, resolved, permission === "allow");
    if (missing) return deny("no-such-tool", missing);

    // Resolutions are already kept per generation (the resolver's memo); remembering the outcome
    // spares the next calls the permission match, the resolver and several awaits.
    const passed: Passed = { generation: state.generation, resolved, permission, foreign: foreign && "ask" in foreign ? foreign.ask : undefined };
    if (!foreign) this.passed.set(toolId, passed);
    return this.ready(req, toolId, passed, state.config);
  }

  /**
   * Why a tool that does not exist is refused (before anyone is asked: an approval, or an
   * "Always" stored for it, would be for nothing); undefined when it exists or may. Lists that
   * are known without starting anything are definitive: a module's exported functions, a catalog
   * server's list for its pinned version, a list this process saw from the server.
   */
  private async missingTool(req: Request, resolved: Resolved, allowed: boolean): Promise<string | undefined> {
    const { id } = req;
    let known = resolved.descriptor.type === "module" ? resolved.descriptor.tools : this.catalog.knownTools(id.ns);
    const absent = () => known !== undefined && known.length > 0 && !known.some((t) => t.name === id.action);
    // (Asked only of a tool not in the list: the common call asks nothing more.)
    const kept = absent() && this.catalog.keptFromEarlierRun(id.ns);
    // A list kept from an earlier session may predate a change to the user's own server: when it
    // may be started (allowed), it is asked again before a tool is refused.
    if (kept && resolved.origin === "user" && allowed) {
      const fresh = await this.startToList(req.approved, resolved, { signal: req.signal });
      if (typeof fresh !== "string") known = fresh;
    }
    if (!known || !absent()) return undefined;
    const names = known.map((t) => t.name);
    const near = closest(id.action, names);
    const note = kept ? ` (as it listed them in an earlier session; if it has changed since, allow "${id.ns}" in .pml.json so pml can list them again)` : "";
    return `"${id.ns}" has no tool "${id.action}"; nothing was run or asked.${near ? ` Did you mean ${id.ns}:${near}?` : ""} Its tools${note}: ${names.join(", ")}.`;
  }

  /** The checks that can change without .pml.json changing: variables and the session's approvals. */
  private ready(req: Request, toolId: string, passed: Passed, config: ProjectConfig): Decision {
    const { id, approved } = req;
    const { resolved, permission } = passed;
    const env = this.planEnv(approved, resolved, id.action, config);
    if (env.missing.length) return deny("missing-env", missingMessage(env, toolId, this.workspace));
    const grant: EnvGrant | undefined = env.ungranted.length ? { ns: resolved.ns, names: [...env.ungranted] } : undefined;
    const key = approvalKey(resolved, toolId, id.action, req.args);
    const plan: Plan = { resolved, env };
    if ((permission !== "ask" || approved.has(key)) && grant === undefined) {
      // Allowed by the file and asking for no variable: kept for `fast` until the file changes.
      if (permission === "allow" && this.plainPlans.get(resolved)?.get(id.action) === env) passed.allowed = plan;
      return { kind: "allow", plan };
    }
    // What the question says is written by `withArguments`, which every decision passes; another
    // org's code is asked about by whose it is.
    return {
      kind: "ask",
      plan,
      question: { toolId, why: passed.foreign ? foreignCodeText(passed.foreign) : "", grant, key, ...(permission === "allow" ? { fileAllows: true } : {}) },
    };
  }

  /**
   * What the arguments change: a call of pml's own filesystem tool that its host would refuse (a
   * protected file, a path outside the workspace) is refused now, before anyone is asked for it;
   * a question says what the call will do.
   */
  private async withArguments(decision: Exclude<Decision, { kind: "deny" }>, req: Request, toolId: string, config: ProjectConfig): Promise<Decision> {
    const { id, args } = req;
    const audit: AuditEntry[] = [];
    const files = await fileTargets(this.workspace, decision.plan.resolved.descriptor, toolId, id.action, args, (e) => audit.push(e));
    if (files && "refused" in files) return deny("protected", `Refused: ${files.refused} (${toolId} was not run, and nobody was asked.)`, audit);
    if (decision.kind !== "ask" || decision.question.why) return decision;
    const why = questionText(decision.plan.resolved, id.action, args, decision.plan.env, config, files?.targets);
    return { ...decision, question: { ...decision.question, why } };
  }

  /** What the call may receive from the user's environment, and from where (one resolver for all). */
  private planEnv(approved: ReadonlySet<string>, resolved: Resolved, action: string, config: ProjectConfig): EnvPlan {
    const known = this.plainPlans.get(resolved)?.get(action);
    if (known) return known;
    const plan = this.computePlan(approved, resolved, action, config);
    if (asksNothing(plan.request)) {
      let byAction = this.plainPlans.get(resolved);
      if (!byAction) this.plainPlans.set(resolved, (byAction = new Map()));
      byAction.set(action, plan);
    }
    return plan;
  }

  private computePlan(approved: ReadonlySet<string>, resolved: Resolved, action: string, config: ProjectConfig): EnvPlan {
    const d = resolved.descriptor;
    const resolver = new EnvResolver({
      workspace: this.workspace,
      grants: config.env_grants,
      sessionGranted: (ns, name) => approved.has(grantKey(ns, name)),
    });
    // pml's own in-process tools (capabilities) ask for nothing.
    if (d.type === "inprocess") return resolver.plan({ ns: resolved.ns, kind: "module", origin: "user", required: [], destination: `pml's own ${resolved.ns} tools` });
    const cloudRouted = isCloudRouted(resolved.ns, d, action);
    const cloud = cloudRouted ? cloudUrlText(config) : undefined;
    return resolver.plan(envRequestFor(resolved.ns, d, resolved.origin, { cloudRouted, cloudEndpoint: cloud, substitute: (s) => resolver.substitute(s) }));
  }

  /**
   * `discover {namespace}` of a stdio server whose tools are not known yet: start it to list them,
   * only when that runs nothing the user has not allowed. Starting a server runs its code, and a
   * private_mcps entry may have come with a cloned repository: the namespace must be allowed (as
   * a call would need), and a registry's server is started only by an approved call. A string says
   * why it was not started and what to do. `approved`: the session's approvals (variables).
   */
  async startToList(approved: ReadonlySet<string>, r: Resolved, ctx: Partial<CallContext>): Promise<ToolInfo[] | string> {
    const state = await this.project.get();
    if (r.origin !== "user")
      return `listed after its first call: pml starts a registry's server only for a call you approved. Call one of its tools (you will be asked first), or read its registry entry.`;
    const env = this.planEnv(approved, r, "*", state.config);
    const permission = permissionFor(state.config.permissions ?? {}, `${r.ns}:*`);
    if (permission === "deny") return `not started: ${r.ns} is denied by ${state.path} (permissions.deny).`;
    if (permission !== "allow")
      return `not started to list its tools, since that runs ${env.request.destination} (from ${r.source}) on this machine: allow "${r.ns}" in permissions.allow of ${state.path} first, or call one of its tools (you will be asked).`;
    if (env.missing.length) return missingMessage(env, `${r.ns}`, this.workspace);
    try {
      return await this.catalog.listStdio(r, env, ctx);
    } catch (e) {
      return `could not be started to list its tools: ${(e as Error).message}`;
    }
  }
}

function cloudUrlText(config: ProjectConfig): string {
  const url = config.cloud?.url;
  return url ? `${url.replace(/\/+$/, "")}/mcp/tools/call` : "(no cloud.url configured)";
}

/** A refusal or question while .pml.json holds grants the user has not trusted: say so, since
 * the file may be why the user expected the call to run. */
function withTrustNote(decision: Exclude<Decision, { kind: "allow" }>, file: string, workspace: string): Decision {
  const note = ` (${file} grants what you have not trusted yet, which does not apply: run \`pml trust\` in ${workspace} to review it.)`;
  if (decision.kind === "deny") return { ...decision, message: decision.message + note };
  return { ...decision, question: { ...decision.question, why: decision.question.why + note } };
}

function deny(code: RefusalCode, message: string, audit?: AuditEntry[]): Decision {
  return audit?.length ? { kind: "deny", code, message, audit } : { kind: "deny", code, message };
}
