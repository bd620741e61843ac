// The gate's decision for one call, as a function of what is known about it: allow (with the plan
// it runs with), deny (a code and a message), or ask (the question). It reads no file, asks no
// registry, starts nothing, asks nobody and writes nothing; the gate (./gate.ts) gathers the facts.
// Facts that cost something (a registry's answer, a server's tool list, a stat) are gathered only
// when `evaluate` says it needs them next, so the checks keep their order and their laziness:
// .pml.json readable? -> denied? -> another org's code? -> resolve the namespace -> cloud key ->
// tool exists? -> environment (what it may receive, all set?) -> approval (ask, or variables the
// user has not granted) -> the arguments (a built-in file call its host would refuse is refused
// before anyone is asked; a question says what the call will do). A denied tool is never
// resolved, installed or started; nothing is started before the environment and approval checks
// pass. scripts/check-pure-policy.ts keeps this file, and what it imports, free of I/O and state.
import type { EnvPlan } from "../env/env-resolver.ts";
import { missingMessage } from "../env/env-text.ts";
import { cloudKeyMissing } from "../cloud/missing-key.ts";
import { closest } from "../config/did-you-mean.ts";
import { exactAllows, permissionFor, type Decision as Permission } from "../config/permission-patterns.ts";
import type { Descriptor } from "../registry/descriptor.ts";
import type { Resolved } from "../registry/resolved.ts";
import { isCloudRouted } from "../routing/route.ts";
import type { AuditEntry } from "../sandbox/audit.ts";
import { isBuiltinFilesystem } from "../sandbox/builtins/builtins.ts";
import type { FileTarget, FileTargets } from "../sandbox/builtins/file-targets.ts";
import { formatToolId, type ToolId } from "../mcp/tool-names.ts";
import { approvalKey, foreignCodeText, questionText, type ForeignCode, type QuestionHost } from "./approval-text.ts";
import type { EnvGrant, Question } from "./question.ts";
import type { ProjectState } from "./project.ts";

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

/** The decision. An allow `byFile` is the file's alone (no approval of the session made it). A
 * refusal may carry what the audit log should record of it (the caller writes it). */
export type Decision =
  | { kind: "allow"; plan: Plan; byFile?: true }
  | { kind: "deny"; code: RefusalCode; message: string; audit?: AuditEntry[] }
  | { kind: "ask"; plan: Plan; question: Question };

/** Another org's code is asked about, naming the org; the user's own (or their org's) runs as pml's
 * own tools do; one that cannot be fetched is refused with the reason. Decided on every call, since
 * what a registry holds can change while .pml.json does not. */
export type ForeignCheck = { ask: ForeignCode } | { allow: true } | { refuse: string };

/** What a decision rests on. A fact left out has not been gathered yet: `evaluate` says which it needs. */
export interface Facts {
  workspace: string;
  /** .pml.json as it applies (the grants the user trusted), its path and generation. */
  state: ProjectState;
  /** The namespace is pml's own (capabilities, stdlib): allowed unless a pattern says otherwise. */
  inProcess: boolean;
  /** For pml's own namespace: whose code the call runs (`check` undefined: nothing of the kind). */
  foreign?: { check?: ForeignCheck };
  /** Where the namespace's tools are, or why they cannot be had. */
  resolution?: { resolved: Resolved } | { error: string };
  /** PML_API_KEY is set (asked only for a tool routed to the cloud). */
  cloudKey?: boolean;
  /** The tools the namespace is known to have without starting anything; `kept`: as listed in an earlier session. */
  tools?: { known?: readonly { name: string }[]; kept: boolean };
  /** The user's own server listed again, since a kept list lacks the tool (`tools` undefined: it could not be). */
  relisted?: { tools?: readonly { name: string }[] };
  /** What the call may receive from the user's environment (the session's grants counted). */
  env?: EnvPlan;
  /** The paths a call of pml's own filesystem tool touches, checked as its host would, and the host's audit of a refusal. */
  files?: { targets?: FileTargets; audit: readonly AuditEntry[] };
  /** What a question says of the machine (is the package installed, which confinement works). */
  host?: QuestionHost;
}

/** The fact `evaluate` needs next, in the order of the checks. */
export type Need = "foreign" | "resolution" | "cloud-key" | "tools" | "relist" | "env" | "files" | "host";

export type Step = Decision | { kind: "need"; need: Need };

type Ready = Exclude<Decision, { kind: "deny" }>;

/** The one decision for a call, or the fact it needs first. */
export function evaluate(facts: Facts, req: Request): Step {
  const toolId = formatToolId(req.id.ns, req.id.action);
  let step = checked(facts, req, toolId);
  if (step.kind === "allow" || step.kind === "ask") step = withArguments(facts, req, toolId, step);
  return facts.state.untrusted.length && (step.kind === "deny" || step.kind === "ask") ? withTrustNote(step, facts) : step;
}

/** The checks that rest on .pml.json and the namespace, then `ready`. */
function checked(facts: Facts, req: Request, toolId: string): Step {
  const { id } = req;
  const { state } = facts;
  if (state.error) return deny("unreadable-config", `${state.error}\nNothing was run; pml rereads the file on the next call.`);

  // pml's own namespaces (capabilities, their names) run no code with authority of their own:
  // the tools a capability calls are checked one by one. Unless a pattern says otherwise they
  // are allowed, like `execute`; but code another org published runs only if the user says so.
  const perms = state.config.permissions ?? {};
  let permission = permissionFor(perms, toolId, facts.inProcess ? "allow" : "ask");
  if (permission === "deny")
    return deny("denied", `${toolId} is denied by ${state.path} (permissions.deny). It was not run. To allow it, remove the matching deny pattern.`, [
      { tool: toolId, attempted: "call", reason: "denied by .pml.json permissions" },
    ]);
  if (facts.inProcess && !facts.foreign) return need("foreign");
  const foreign = facts.foreign?.check;
  if (foreign && "refuse" in foreign) return deny("unavailable", foreign.refuse);
  // A broad allow ("cap", "cap:*", "*") is about the user's own capabilities: another org's code
  // runs unasked only when allowed by its exact name (what an "Always" of it writes).
  if (foreign && "ask" in foreign) permission = permissionFor(exactAllows(perms, toolId), toolId, "ask");

  if (!facts.resolution) return need("resolution");
  if ("error" in facts.resolution) return deny("unavailable", facts.resolution.error);
  const { resolved } = facts.resolution;
  // A cloud tool without PML_API_KEY cannot run: say that first, not an approval or a missing
  // variable of the tool.
  if (isCloudRouted(id.ns, resolved.descriptor as Descriptor, id.action)) {
    if (facts.cloudKey === undefined) return need("cloud-key");
    if (!facts.cloudKey) return deny("no-cloud-key", cloudKeyMissing(toolId, facts.workspace));
  }
  const missing = missingTool(facts, id, resolved, permission === "allow");
  if (missing) return missing;
  return ready(facts, req, toolId, resolved, permission, foreign && "ask" in foreign ? foreign.ask : undefined);
}

/**
 * A tool that does not exist is refused before anyone is asked (an approval, or an "Always"
 * stored for it, would be for nothing); undefined when it exists or may. Lists that are known
 * without starting anything are definitive: a module's exported functions, a catalog server's
 * list for its pinned version, a list this process saw from the server.
 */
function missingTool(facts: Facts, id: ToolId, resolved: Resolved, allowed: boolean): Step | undefined {
  if (!facts.tools) return need("tools");
  let known = resolved.descriptor.type === "module" ? resolved.descriptor.tools : facts.tools.known;
  const absent = () => known !== undefined && known.length > 0 && !known.some((t) => t.name === id.action);
  const kept = absent() && facts.tools.kept;
  // A list kept from an earlier session may predate a change to the user's own server: when it
  // may be started (allowed), it is asked again before a tool is refused.
  if (kept && resolved.origin === "user" && allowed) {
    if (!facts.relisted) return need("relist");
    if (facts.relisted.tools) known = facts.relisted.tools;
  }
  if (!known || !absent()) return undefined;
  const names = known.map((t) => t.name);
  const near = closest(id.action, names);
  const note = kept ? ` (as it listed them in an earlier session; if it has changed since, allow "${id.ns}" in .pml.json so pml can list them again)` : "";
  return deny(
    "no-such-tool",
    `"${id.ns}" has no tool "${id.action}"; nothing was run or asked.${near ? ` Did you mean ${id.ns}:${near}?` : ""} Its tools${note}: ${names.join(", ")}.`,
  );
}

/** The checks that can change without .pml.json changing: variables and the session's approvals. */
function ready(facts: Facts, req: Request, toolId: string, resolved: Resolved, permission: Permission, foreign: ForeignCode | undefined): Step {
  const { env } = facts;
  if (!env) return need("env");
  if (env.missing.length) return deny("missing-env", missingMessage(env, toolId, facts.workspace));
  const grant: EnvGrant | undefined = env.ungranted.length ? { ns: resolved.ns, names: [...env.ungranted] } : undefined;
  const key = approvalKey(resolved, toolId, req.id.action, req.args);
  const plan: Plan = { resolved, env };
  if ((permission !== "ask" || req.approved.has(key)) && grant === undefined) return permission === "allow" ? { kind: "allow", plan, byFile: true } : { kind: "allow", plan };
  // What the question says is written by `withArguments`, which every decision passes; another
  // org's code is asked about by whose it is.
  return {
    kind: "ask",
    plan,
    question: { toolId, why: foreign ? foreignCodeText(foreign) : "", grant, key, ...(permission === "allow" ? { fileAllows: true } : {}) },
  };
}

/**
 * What the arguments change: a call of pml's own filesystem tool that its host would refuse (a
 * protected file, a path outside the workspace) is refused now, before anyone is asked for it;
 * a question says what the call will do.
 */
function withArguments(facts: Facts, req: Request, toolId: string, decision: Ready): Step {
  const { resolved, env } = decision.plan;
  const d = resolved.descriptor;
  let files: FileTarget[] | undefined;
  if (d.type === "module" && isBuiltinFilesystem(d)) {
    if (!facts.files) return need("files");
    const found = facts.files.targets;
    if (found && "refused" in found) return deny("protected", `Refused: ${found.refused} (${toolId} was not run, and nobody was asked.)`, [...facts.files.audit]);
    files = found?.targets;
  }
  if (decision.kind !== "ask" || decision.question.why) return decision;
  if (!facts.host) return need("host");
  const why = questionText(resolved, req.id.action, req.args, env, facts.state.config, facts.host, files);
  return { ...decision, question: { ...decision.question, why } };
}

/** A refusal or question while .pml.json holds grants the user has not trusted: say so, since
 * the file may be why the user expected the call to run. */
function withTrustNote(decision: Exclude<Decision, { kind: "allow" }>, facts: Facts): Decision {
  const note = ` (${facts.state.path} grants what you have not trusted yet, which does not apply: run \`pml trust\` in ${facts.workspace} to review it.)`;
  if (decision.kind === "deny") return { ...decision, message: decision.message + note };
  return { ...decision, question: { ...decision.question, why: decision.question.why + note } };
}

/**
 * Whether `discover` may start the user's stdio server to list its tools: a refusal says why not
 * and what to do; `{ need: "env" }` asks for its environment plan first; undefined: it may.
 * Starting a server runs its code, and a private_mcps entry may have come with a cloned
 * repository: the namespace must be allowed (as a call would need), and a registry's server is
 * started only by an approved call.
 */
export function listingRefusal(facts: Pick<Facts, "workspace" | "state" | "env">, r: Resolved): { refuse: string } | { need: "env" } | undefined {
  const { state, env } = facts;
  if (r.origin !== "user")
    return {
      refuse: `listed after its first call: pml starts a registry's server only for a call you approved. Call one of its tools (you will be asked first), or read its registry entry.`,
    };
  if (!env) return { need: "env" };
  const permission = permissionFor(state.config.permissions ?? {}, `${r.ns}:*`);
  if (permission === "deny") return { refuse: `not started: ${r.ns} is denied by ${state.path} (permissions.deny).` };
  if (permission !== "allow")
    return {
      refuse: `not started to list its tools, since that runs ${env.request.destination} (from ${r.source}) on this machine: allow "${r.ns}" in permissions.allow of ${state.path} first, or call one of its tools (you will be asked).`,
    };
  if (env.missing.length) return { refuse: missingMessage(env, `${r.ns}`, facts.workspace) };
  return undefined;
}

function need(what: Need): Step {
  return { kind: "need", need: what };
}

function deny(code: RefusalCode, message: string, audit?: AuditEntry[]): Decision {
  return audit?.length ? { kind: "deny", code, message, audit } : { kind: "deny", code, message };
}
