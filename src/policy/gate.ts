// The one gate every tool call passes, whoever makes it (a client, `call`, `execute` code, a
// module, a capability, a stdlib tool): .pml.json readable? -> denied? -> resolve the namespace ->
// tool exists? -> environment (what it may receive, all set?) -> approval (ask, or variables the
// user has not granted) -> the arguments (a built-in file call its host would refuse is refused
// before anyone is asked; a question says what the call will do). A denied tool is never resolved, installed or started; nothing is
// installed or started before the environment and approval checks pass. The gate decides; the
// asker (./asker.ts) puts the question the way the client's protocol allows; callers run what
// the gate permits.
import { appendAudit, type AuditEntry } from "../sandbox/audit.ts";
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
import type { Session } from "../mcp/session.ts";
import type { CallContext } from "../mcp/tool-result.ts";
import type { ToolInfo } from "../mcp/types.ts";
import { log } from "../log.ts";
import { approvalKey, foreignCodeText, questionText, type ForeignCode } from "./approval-text.ts";
import { refusedText } from "./approvals.ts";
import { isRefusal, type Asker } from "./asker.ts";
import { grantKey, type EnvGrant, type Question } from "./question.ts";
import { permissionFor, type Decision } from "./permissions.ts";
import type { Project } from "./project.ts";

export type Permitted = { kind: "permitted"; resolved: Resolved; env: EnvPlan };

export type Verdict = Permitted | { kind: "refused"; reason: string } | { kind: "ask"; resolved: Resolved; env: EnvPlan; question: Question };

/** After asking where the client can answer at once: run, refused (declined included), or ask
 * the user through the result (the caller turns `later` into the question its origin allows). */
export type Authorized = Permitted | { kind: "refused"; reason: string } | { kind: "later"; question: Question };

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
  permission: Decision;
  /** Someone else's code it runs (named in the question). */
  foreign?: ForeignCode;
  /** Its verdict, when nothing but the file decides it (see `fast`). */
  allowed?: Permitted;
}

export class Gate {
  private readonly passed = new Map<string, Passed>();
  /** Plans of tools that ask for no variable: they depend on nothing but the resolution (hot path). */
  private readonly plainPlans = new WeakMap<Resolved, Map<string, EnvPlan>>();
  private readonly warnedWithheld = new Set<string>();

  constructor(
    private readonly workspace: string,
    private readonly project: Project,
    private readonly catalog: ToolCatalog,
    readonly asker: Asker,
  ) {}

  /**
   * The verdict without waiting, when it is already known to be "permitted" under the current
   * .pml.json: the tool is allowed by the file and asks for no variable, so nothing of the
   * session or the arguments can change it until the file changes (a new generation).
   * Undefined means: ask `decide`.
   */
  fast(id: ToolId): Permitted | undefined {
    const state = this.project.current();
    if (state === undefined || state.error) return undefined;
    const hit = this.passed.get(toolIdText(id));
    return hit !== undefined && hit.generation === state.generation ? hit.allowed : undefined;
  }

  async decide(session: Session, id: ToolId, args: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Verdict> {
    const state = await this.project.get();
    const toolId = formatToolId(id.ns, id.action);
    const hit = this.passed.get(toolId);
    let verdict =
      !state.error && hit !== undefined && hit.generation === state.generation ? this.ready(session, id, hit, state.config, args) : await this.check(session, id, args, signal);
    if (verdict.kind !== "refused") verdict = await this.withArguments(verdict, id, args, state.config);
    return state.untrusted.length && verdict.kind !== "permitted" ? withTrustNote(verdict, state.path, this.workspace) : verdict;
  }

  /** Decides, and asks at once where the client can answer (a form); a yes is recorded. */
  async authorize(session: Session, id: ToolId, args: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Authorized> {
    const verdict = await this.decide(session, id, args, signal);
    if (verdict.kind !== "ask") return verdict;
    const { question } = verdict;
    const answer = await this.asker.askNow(session, question, signal);
    if (answer === "later") return { kind: "later", question };
    if (answer === "dismissed") return { kind: "later", question: { ...question, dismissed: true } };
    if (isRefusal(answer)) return { kind: "refused", reason: refusedText(question.toolId, answer) };
    await this.asker.approve(session, question, answer === "always");
    if (!question.grant) return { kind: "permitted", resolved: verdict.resolved, env: verdict.env };
    // The grant changes what the call receives: decide again with it.
    const again = await this.decide(session, id, args, signal);
    return again.kind === "refused" ? again : { kind: "permitted", resolved: again.resolved, env: again.env };
  }

  private async check(session: Session, id: ToolId, args: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Verdict> {
    const toolId = formatToolId(id.ns, id.action);
    const state = await this.project.get();
    if (state.error) return refuse(`${state.error}\nNothing was run; pml rereads the file on the next call.`);

    // pml's own namespaces (capabilities, their names) run no code with authority of their own:
    // the tools a capability calls are checked one by one. Unless a pattern says otherwise they
    // are allowed, like `execute`; but code another org published runs only if the user says so.
    const inProcess = this.catalog.servesInProcess(id.ns);
    let permission = permissionFor(state.config.permissions ?? {}, toolId, inProcess ? "allow" : "ask");
    if (permission === "deny") {
      await appendAudit(this.workspace, { tool: toolId, attempted: "call", reason: "denied by .pml.json permissions" }).catch(() => {});
      return refuse(`${toolId} is denied by ${state.path} (permissions.deny). It was not run. To allow it, remove the matching deny pattern.`);
    }
    const foreign = inProcess ? await this.catalog.foreignCode?.(id) : undefined;
    if (foreign && "refuse" in foreign) return refuse(foreign.refuse);
    if (foreign && "ask" in foreign) permission = permissionFor(state.config.permissions ?? {}, toolId, "ask");

    let resolved: Resolved;
    try {
      resolved = await this.catalog.resolve(id.ns, signal);
    } catch (e) {
      return refuse((e as Error).message);
    }
    // A cloud tool without PML_API_KEY cannot run: say that first, not an approval or a missing
    // variable of the tool.
    if (isCloudRouted(id.ns, resolved.descriptor as Descriptor, id.action) && !cloudKey({ workspace: this.workspace })) return refuse(cloudKeyMissing(toolId, this.workspace));

    const missing = await this.missingTool(session, id, resolved, permission === "allow", signal);
    if (missing) return refuse(missing);

    // Resolutions are already kept per generation (the resolver's memo); remembering the outcome
    // spares the next calls the permission match, the resolver and several awaits.
    const passed: Passed = { generation: state.generation, resolved, permission, foreign: foreign && "ask" in foreign ? foreign.ask : undefined };
    if (!foreign) this.passed.set(toolId, passed);
    return this.ready(session, id, passed, state.config, args);
  }

  /**
   * Why a tool that does not exist is refused (before anyone is asked: an approval, or an
   * "Always" stored for it, would be for nothing); undefined when it exists or may. Lists that
   * are known without starting anything are definitive: a module's exported functions, a catalog
   * server's list for its pinned version, a list this process saw from the server.
   */
  private async missingTool(session: Session, id: ToolId, resolved: Resolved, allowed: boolean, signal: AbortSignal): Promise<string | undefined> {
    let known = resolved.descriptor.type === "module" ? resolved.descriptor.tools : this.catalog.knownTools(id.ns);
    const absent = () => known !== undefined && known.length > 0 && !known.some((t) => t.name === id.action);
    const kept = this.catalog.keptFromEarlierRun(id.ns);
    // A list kept from an earlier session may predate a change to the user's own server: when it
    // may be started (allowed), it is asked again before a tool is refused.
    if (absent() && kept && resolved.origin === "user" && allowed) {
      const fresh = await this.startToList(session, resolved, { signal });
      if (typeof fresh !== "string") known = fresh;
    }
    if (!known || !absent()) return undefined;
    const names = known.map((t) => t.name);
    const near = closest(id.action, names);
    const note = kept ? ` (as it listed them in an earlier session; if it has changed since, allow "${id.ns}" in .pml.json so pml can list them again)` : "";
    return `"${id.ns}" has no tool "${id.action}"; nothing was run or asked.${near ? ` Did you mean ${id.ns}:${near}?` : ""} Its tools${note}: ${names.join(", ")}.`;
  }

  /** The checks that can change without .pml.json changing: variables and this session's approvals. */
  private ready(session: Session, id: ToolId, passed: Passed, config: ProjectConfig, args: Record<string, unknown> | undefined): Verdict {
    const { resolved, permission } = passed;
    const toolId = formatToolId(id.ns, id.action);
    const env = this.planEnv(session, resolved, id.action, config);
    if (env.missing.length) return refuse(missingMessage(env, toolId, this.workspace));
    this.warnWithheld(session, resolved, env);
    const grant: EnvGrant | undefined = env.ungranted.length ? { ns: resolved.ns, names: [...env.ungranted] } : undefined;
    const key = approvalKey(resolved, toolId, id.action, args);
    if ((permission !== "ask" || session.approved.has(key)) && grant === undefined) {
      const permitted: Permitted = { kind: "permitted", resolved, env };
      // Allowed by the file and asking for no variable: kept for `fast` until the file changes.
      if (permission === "allow" && this.plainPlans.get(resolved)?.get(id.action) === env) passed.allowed = permitted;
      return permitted;
    }
    // What the question says is written by `withArguments`, which every verdict passes; another
    // org's code is asked about by whose it is.
    return { kind: "ask", resolved, env, question: { toolId, why: passed.foreign ? foreignCodeText(passed.foreign) : "", grant, key } };
  }

  /**
   * What the arguments change: a call of pml's own filesystem tool that its host would refuse (a
   * protected file, a path outside the workspace) is refused now, before anyone is asked for it;
   * a question says what the call will do.
   */
  private async withArguments(verdict: Exclude<Verdict, { kind: "refused" }>, id: ToolId, args: Record<string, unknown> | undefined, config: ProjectConfig): Promise<Verdict> {
    const toolId = formatToolId(id.ns, id.action);
    const audit = (e: AuditEntry) => void appendAudit(this.workspace, e).catch(() => {});
    const files = await fileTargets(this.workspace, verdict.resolved.descriptor, toolId, id.action, args, audit);
    if (files && "refused" in files) return refuse(`Refused: ${files.refused} (${toolId} was not run, and nobody was asked.)`);
    if (verdict.kind !== "ask" || verdict.question.why) return verdict;
    const why = questionText(verdict.resolved, id.action, args, verdict.env, config, files?.targets);
    return { ...verdict, question: { ...verdict.question, why } };
  }

  private warnWithheld(session: Session, resolved: Resolved, env: EnvPlan): void {
    if (!env.withheld.length || this.warnedWithheld.has(resolved.ns)) return;
    this.warnedWithheld.add(resolved.ns);
    const text = `${resolved.ns}: ${resolved.source} asks for ${env.withheld.join(", ")}; withheld (PML_API_KEY goes only to cloud.url).`;
    log.warn(text);
    session.log("warning", text);
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
function withTrustNote(verdict: Exclude<Verdict, Permitted>, file: string, workspace: string): Verdict {
  const note = ` (${file} grants what you have not trusted yet, which does not apply: run \`pml trust\` in ${workspace} to review it.)`;
  if (verdict.kind === "refused") return { ...verdict, reason: verdict.reason + note };
  return { ...verdict, question: { ...verdict.question, why: verdict.question.why + note } };
}

function refuse(reason: string): Verdict {
  return { kind: "refused", reason };
}
