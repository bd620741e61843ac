// The one gate every tool call passes, whoever makes it (a client, `call`, `execute` code, a
// module, a capability, a stdlib tool). The decision is ./evaluate.ts's, a pure function of facts;
// the gate gathers those facts (the file's state, the namespace's resolution, whose code it is,
// the known tool list, the environment, the file targets' stats), each only when the decision
// says it needs it next, and remembers what holds until .pml.json changes. So a denied tool is
// never resolved, installed or started; nothing is started before the environment and approval
// checks pass. The gate asks nobody and writes nothing: the invoker (src/gateway/dispatch/invoke.ts)
// acts on the decision: it asks through the asker, records the audit, runs.
import { fileTargets } from "../sandbox/builtins/file-targets.ts";
import { confinement } from "../sandbox/confine.ts";
import { isInstalled } from "../loader/install.ts";
import { asksNothing, EnvResolver, envRequestFor, type EnvPlan } from "../env/env-resolver.ts";
import { cloudKey } from "../config/settings.ts";
import type { ProjectConfig } from "../config/pml-json.ts";
import type { Resolved } from "../registry/resolved.ts";
import { isCloudRouted } from "../routing/route.ts";
import { formatToolId, toolIdText, type ToolId } from "../mcp/tool-names.ts";
import type { CallContext } from "../mcp/tool-result.ts";
import type { ToolInfo } from "../mcp/types.ts";
import type { AuditEntry } from "../sandbox/audit.ts";
import { asksConfinement } from "./approval-text.ts";
import { evaluate, listingRefusal, type Decision, type Facts, type ForeignCheck, type Need, type Plan, type Request } from "./evaluate.ts";
import { grantKey } from "./question.ts";
import type { Project } from "./project.ts";

export type { Decision, ForeignCheck, Plan, RefusalCode, Request } from "./evaluate.ts";

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

/** The facts that hold for a tool until .pml.json changes: what the file's checks rested on. */
type Standing = Pick<Facts, "foreign" | "resolution" | "cloudKey" | "tools" | "relisted">;

/** A tool that passed the .pml.json-derived checks under one generation of the file. */
interface Passed {
  generation: number;
  facts: Standing;
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
    const facts: Facts = { workspace: this.workspace, state, inProcess: this.catalog.servesInProcess(req.id.ns) };
    const hit = this.passed.get(toolId);
    // Resolutions are already kept per generation (the resolver's memo); remembering what the
    // file's checks rested on spares the next calls the resolver and several awaits.
    if (!state.error && hit !== undefined && hit.generation === state.generation) {
      Object.assign(facts, hit.facts);
      facts.env = this.planEnv(req.approved, resolvedOf(facts), req.id.action, state.config);
    }
    for (;;) {
      const step = evaluate(facts, req);
      if (step.kind !== "need") return this.remembered(step, facts, req, toolId);
      await this.gather(step.need, facts, req, toolId);
    }
  }

  /** Gathers one fact the decision needs (the only I/O of a decision). */
  private async gather(need: Need, facts: Facts, req: Request, toolId: string): Promise<void> {
    const { id, signal } = req;
    switch (need) {
      case "foreign":
        facts.foreign = { check: await this.catalog.foreignCode?.(id) };
        return;
      case "resolution":
        try {
          facts.resolution = { resolved: await this.catalog.resolve(id.ns, signal) };
        } catch (e) {
          facts.resolution = { error: (e as Error).message };
        }
        return;
      case "cloud-key":
        facts.cloudKey = Boolean(cloudKey({ workspace: this.workspace }));
        return;
      case "tools":
        facts.tools = { known: this.catalog.knownTools(id.ns), kept: this.catalog.keptFromEarlierRun(id.ns) };
        return;
      case "relist": {
        const fresh = await this.startToList(req.approved, resolvedOf(facts), { signal });
        facts.relisted = typeof fresh === "string" ? {} : { tools: fresh };
        return;
      }
      case "env":
        // The file's checks passed: what they rested on holds until the file changes. Another
        // org's code is decided on every call.
        if (facts.foreign?.check === undefined) this.passed.set(toolId, { generation: facts.state.generation, facts: standing(facts) });
        facts.env = this.planEnv(req.approved, resolvedOf(facts), id.action, facts.state.config);
        return;
      case "files": {
        const audit: AuditEntry[] = [];
        const targets = await fileTargets(this.workspace, resolvedOf(facts).descriptor, toolId, id.action, req.args, (e) => audit.push(e));
        facts.files = { targets, audit };
        return;
      }
      case "host": {
        const r = resolvedOf(facts);
        facts.host = { installed: r.descriptor.type !== "stdio" || isInstalled(r.descriptor), confinement: asksConfinement(r) ? confinement() : undefined };
        return;
      }
    }
  }

  /** A decision, kept for `fast` when the file alone allows the tool and it asks for no variable. */
  private remembered(decision: Decision, facts: Facts, req: Request, toolId: string): Decision {
    if (decision.kind !== "allow" || !decision.byFile) return decision;
    const hit = this.passed.get(toolId);
    const { resolved, env } = decision.plan;
    if (hit?.generation === facts.state.generation && this.plainPlans.get(resolved)?.get(req.id.action) === env) hit.allowed = decision.plan;
    return decision;
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
   * only when that runs nothing the user has not allowed (`listingRefusal`). A string says why it
   * was not started and what to do. `approved`: the session's approvals (variables).
   */
  async startToList(approved: ReadonlySet<string>, r: Resolved, ctx: Partial<CallContext>): Promise<ToolInfo[] | string> {
    const facts: Pick<Facts, "workspace" | "state" | "env"> = { workspace: this.workspace, state: await this.project.get() };
    let step = listingRefusal(facts, r);
    if (step && "need" in step) {
      facts.env = this.planEnv(approved, r, "*", facts.state.config);
      step = listingRefusal(facts, r);
    }
    if (step) return "refuse" in step ? step.refuse : "not started: its environment was not known";
    try {
      return await this.catalog.listStdio(r, facts.env!, ctx);
    } catch (e) {
      return `could not be started to list its tools: ${(e as Error).message}`;
    }
  }
}

function resolvedOf(facts: Facts): Resolved {
  if (facts.resolution && "resolved" in facts.resolution) return facts.resolution.resolved;
  throw new Error("the gate gathered a fact that needs the resolution before resolving");
}

function standing({ foreign, resolution, cloudKey, tools, relisted }: Facts): Standing {
  return { foreign, resolution, cloudKey, tools, relisted };
}

function cloudUrlText(config: ProjectConfig): string {
  const url = config.cloud?.url;
  return url ? `${url.replace(/\/+$/, "")}/mcp/tools/call` : "(no cloud.url configured)";
}
