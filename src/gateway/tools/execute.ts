// `execute`: agent code run in the sandbox with `mcp` and `args` in scope. Every mcp call goes
// through the same checks as a direct call. When one needs approval and the client cannot ask
// in-line, the run stops and returns an approval request; continuing re-runs the code, replaying
// the results of the calls made before the pause so they are not repeated.
// A run that finished with every tool call succeeding is kept as a capability (procedural memory);
// a stored capability runs through the same code path (`runProgram`).
import type { InputRequiredResult } from "../../mcp/protocol.ts";
import type { Session } from "../../mcp/session.ts";
import { parseToolName, formatToolId } from "../../mcp/tool-names.ts";
import { clientOf, errorResult, resultText as textOf, resultValue, structuredResult } from "../../mcp/tool-result.ts";
import type { CallToolResult } from "../../mcp/types.ts";
import type { CapturePlan } from "../../memory/capture-plan.ts";
import type { CapturePlanOk } from "../../memory/capture.ts";
import type { MemorySettings } from "../../memory/memory-settings.ts";
import { CAP_NS, formatName, parseCallName } from "../../memory/names.ts";
import { capKey } from "../../memory/discover-state.ts";
import { answerKind } from "../../memory/store.ts";
import { splitSpecifier } from "../../memory/versions.ts";
import { publishAfterSave, teamWanted } from "../../memory/team.ts";
import { withoutPosition } from "../../sandbox/errors.ts";
import type { ContinueWorkflow, Pause, Round } from "../../policy/approval-channel.ts";
import type { CallRequest } from "../dispatch/call.ts";
import type { Backends } from "../dispatch/backends.ts";
import type { Invoker, Outcome } from "../dispatch/invoke.ts";
import type { MetaDeps } from "./pml/context.ts";

export interface Recorded {
  tool: string;
  args: string;
  ok: boolean;
  value: unknown;
  /** The gate refused it: it did not run (not a tool used). */
  refused?: true;
}

/** What runs code that calls tools: each call through `Invoker.call`, the sandbox's limits. */
export interface ProgramDeps {
  invoker: Pick<Invoker, "call" | "asker">;
  backends: Pick<Backends, "sandboxLimits">;
}

/** What `execute` needs besides: memory (to keep the run), the project's settings, and the invoker
 * for `execute {capability}` (a call of the capability's tool). */
type ExecuteDeps = Pick<MetaDeps, "project" | "memory" | "learning" | "workspace"> & ProgramDeps & { invoker: Pick<Invoker, "invoke"> };

/** Stops the program when a tool call needs the user's answer and the client cannot give it in-line. */
class ApprovalPause extends Error {
  constructor(readonly outcome: Extract<Outcome, { kind: "needsAnswer" }>) {
    super(`paused: ${outcome.question.toolId} needs approval`);
  }
}

/** `execute`'s arguments, as its schema (tools/pml/execute.ts) gives them. */
export interface ExecuteInput {
  code?: string;
  intent?: string;
  args?: Record<string, unknown>;
  name?: string;
  description?: string;
  parameters?: Record<string, unknown>;
  routing?: "local" | "cloud";
  capability?: string;
  update?: boolean;
  version_tag?: string;
  change_summary?: string;
  continue_workflow?: ContinueWorkflow;
}

/** Arguments checked against `execute`'s schema: the call's own, or those a continuation resumes. */
export type CheckArgs = (args: Record<string, unknown>) => { args: ExecuteInput } | { error: string };

/**
 * The `execute` tool: a saved capability's call (`capability`, or the continuation of an approval
 * of the capability itself: another org's), else code (`runExecute`). `given`: the call's
 * arguments, checked; `check`: the same check, for arguments a continuation resumes.
 */
export function executeTool(deps: ExecuteDeps, session: Session, req: CallRequest, given: ExecuteInput, check: CheckArgs): Promise<CallToolResult | InputRequiredResult> {
  const cw = given.continue_workflow;
  const continuation = cw ? cw.workflow_id : session.modern ? req.requestState : undefined;
  if (continuation === undefined) return given.capability !== undefined ? callCapability(deps, session, req, given) : runExecute(deps, session, req, given, check);
  const paused = deps.invoker.asker.channel(session).pausedTool(continuation);
  if (paused?.startsWith(`${CAP_NS}:`)) return callCapability(deps, session, req, given, { action: paused.slice(CAP_NS.length + 1), cw });
  return runExecute(deps, session, req, given, check);
}

/** `execute {code}`: the code run in the sandbox (resumed after an approval pause), kept as a
 * capability when it works. */
export async function runExecute(deps: ExecuteDeps, session: Session, req: CallRequest, given: ExecuteInput, check: CheckArgs): Promise<CallToolResult | InputRequiredResult> {
  let input = given;
  const cw = input.continue_workflow;
  const back = { continueWorkflow: cw, requestState: req.requestState, inputResponses: req.inputResponses };
  const resumed = await deps.invoker.asker.channel(session).redeem(req, back, { tool: "execute", kind: "execute", bind: (a) => a }, req.arguments);
  if ("content" in resumed) return resumed;
  // What a continuation resumes with goes through the schema again; a stored capability's run
  // carries its id (pml's own record of the pause, not an argument of the tool).
  let capabilityId: string | undefined;
  if (resumed.args) {
    const { capability_id, ...rest } = resumed.args;
    const checked = check(rest);
    if ("error" in checked) return errorResult(checked.error);
    input = checked.args;
    if (cw && typeof capability_id === "string") capabilityId = capability_id;
  }
  const replay = (resumed.replay as Recorded[] | undefined) ?? [];
  const code = input.code;
  if (code === undefined || !code.trim())
    return errorResult(
      '`execute` needs "code": the body of an async function, e.g. `return await mcp.filesystem.list_directory({path: "."})`, or "capability": the name of a saved one.',
    );
  const args = input.args ?? {};

  // A stored capability continuing after an approval pause (capabilityId): its run counts for it.
  const settings = await deps.project.memorySettings();
  const plan = capabilityId ? NO_CAPTURE : await planCapture(deps, settings, input, code);
  if (!plan.ok) return errorResult(plan.error);
  const run = await runProgram(deps, session, req, {
    code,
    args,
    intent: input.intent,
    replay,
    capabilityId,
    saveArgs: { ...input },
    bind: cw ? undefined : req.arguments,
  });
  if (run.kind === "input") return run.result;
  if (run.kind === "result") {
    if (capabilityId && !run.result.approval_required) await deps.memory.recordRun(capabilityId, false, run.ms).catch(() => {});
    return run.result;
  }
  const out: Record<string, unknown> = { result: run.value ?? null, tools_used: run.toolsUsed };
  const warnings = [...plan.warnings];
  if (capabilityId) {
    await deps.memory.recordRun(capabilityId, true, run.ms, answerKind(run.value)).catch(() => {});
  } else if (plan.capture && run.allOk) {
    const taken = await keep(deps, session, settings, plan, { input, args, code, run, out, warnings });
    if (taken) return taken;
  } else if (plan.capture && !run.allOk) {
    warnings.push("Not saved as a capability: a tool call in it failed.");
  }
  if (warnings.length) out.warnings = warnings;
  return structuredResult(out);
}

const NO_CAPTURE: CapturePlanOk = { ok: true, capture: false, hash: "", warnings: [] };

/** Whether (and under which name and version) the run will be kept, checked before it runs. */
async function planCapture(deps: Pick<MetaDeps, "memory">, settings: MemorySettings, input: ExecuteInput, code: string): Promise<CapturePlan> {
  try {
    return await deps.memory.plan(settings, {
      code,
      name: input.name,
      parameters: input.parameters,
      update: input.update,
      version_tag: input.version_tag,
      change_summary: input.change_summary,
    });
  } catch (e) {
    return { ...NO_CAPTURE, warnings: [`Memory is unavailable, so this run is not saved: ${(e as Error).message}`] };
  }
}

interface Kept {
  input: ExecuteInput;
  args: Record<string, unknown>;
  code: string;
  run: Extract<ProgramRun, { kind: "done" }>;
  /** The answer being built: the capability's name, version, publishing are added to it. */
  out: Record<string, unknown>;
  warnings: string[];
}

/** Keeps a finished run as a capability (and publishes it when the project does); a result only
 * when its name was taken meanwhile. */
async function keep(
  deps: Pick<MetaDeps, "memory" | "learning" | "project" | "workspace">,
  session: Session,
  settings: MemorySettings,
  plan: CapturePlanOk,
  k: Kept,
): Promise<CallToolResult | undefined> {
  const { input, out, warnings } = k;
  try {
    const saved = await deps.memory.capture(settings, plan, {
      code: k.code,
      args: k.args,
      intent: input.intent,
      description: input.description,
      routing: input.routing,
      toolsUsed: k.run.toolsUsed,
      latencyMs: k.run.ms,
      returned: answerKind(k.run.value),
    });
    if (saved.kind === "taken")
      return errorResult(`Capability name '${saved.name}' already exists (saved by another pml meanwhile). The code ran; its result: ${JSON.stringify(out.result)}`);
    out.capabilityName = saved.capability.display_name;
    // A name given: code the agent wrote for the request it just discovered (learn-from-use.ts).
    if (plan.name && saved.capability.named) await deps.learning.wrote(session, capKey(saved.capability.id));
    out.capabilityFqdn = saved.capability.fqdn;
    if (saved.version) out.version = { tag: saved.version.tag, change_summary: saved.version.change_summary };
    if (saved.kind === "reused" && saved.changes) out.updated = saved.changes;
    if (saved.kind === "created" && !saved.capability.named) {
      const nudge = await deps.memory.curationNudge(settings).catch(() => undefined);
      if (nudge) out.curation = nudge;
    }
    const pushed = await publishAfterSave(await deps.project.config(), deps.workspace.root, saved);
    if (pushed && "published" in pushed) out.published = pushed.published;
    if (pushed && "warning" in pushed && pushed.warning) warnings.push(pushed.warning);
    const wanted = plan.name ? formatName(plan.name) : undefined;
    if (wanted && saved.capability.display_name !== wanted)
      warnings.push(
        `This code is already saved as ${saved.capability.display_name}; to give it another name use dns:rename {name: "${saved.capability.display_name}", newName: "${wanted}"}.`,
      );
  } catch (e) {
    warnings.push(`Not saved as a capability: ${(e as Error).message}`);
  }
  return undefined;
}

/** `execute {capability, args}`: the same path as calling the capability's tool. `resumed`: the
 * continuation of an approval of the capability itself, which names it. */
async function callCapability(
  deps: Pick<MetaDeps, "memory" | "project"> & { invoker: Pick<Invoker, "invoke"> },
  session: Session,
  req: CallRequest,
  input: ExecuteInput,
  resumed?: { action: string; cw?: ContinueWorkflow },
): Promise<CallToolResult | InputRequiredResult> {
  const raw = resumed?.action ?? input.capability ?? "";
  const args = input.args ?? {};
  if (!raw.trim()) return errorResult('"capability" must be a capability name, e.g. "fs:read_json".');
  const { name: bare, spec } = splitSpecifier(raw.trim());
  let action = bare;
  const name = parseCallName(bare);
  if (name) action = `${name.namespace === "unnamed" ? "" : `${name.namespace}:`}${name.action}`;
  else {
    // An FQDN: the capability's current name when it is saved here, else the team registry's
    // capability of that FQDN (another org's is asked about first: the gate names the org).
    const found = await deps.memory.resolve(await deps.project.memorySettings(), bare).catch(() => undefined);
    if (found) action = `${found.capability.namespace === "unnamed" ? "" : `${found.capability.namespace}:`}${found.capability.action}`;
    else if (!resumed && !teamWanted(bare)) return errorResult(`Capability not found: ${raw}`);
  }
  if (spec) action += `@${spec}`;
  // Continued through `execute`, the tool the client called (a team FQDN has no tool of its own).
  return deps.invoker.invoke(session, { ns: CAP_NS, action }, args, req, { calledAs: "execute", continueWorkflow: resumed?.cw, intent: input.intent });
}

export interface Program {
  code: string;
  args: Record<string, unknown>;
  intent?: unknown;
  replay?: Recorded[];
  /** Set when the code is a stored capability's. */
  capabilityId?: string;
  /** What a continuation after an approval pause needs besides code and args (name, parameters...). */
  saveArgs?: Record<string, unknown>;
  /** 2026-07-28: the arguments the retry of this `execute` call carries (what its state binds). */
  bind?: Record<string, unknown>;
  /** A capability's run in a call of its own tool (or `call`): the tool the client called, the
   * capability's tool id and its arguments, for the continuation to name (else `execute`). */
  pauseAs?: { tool: string; via: string; args: Record<string, unknown> };
}

export type ProgramRun =
  | { kind: "done"; value: unknown; toolsUsed: string[] /** every tool call succeeded */; allOk: boolean; ms: number }
  | { kind: "result"; result: CallToolResult; ms: number }
  /** 2026-07-28: paused for input the client gives on the retry. */
  | { kind: "input"; result: InputRequiredResult; ms: number };

/** Runs code in the sandbox with `mcp` and `args`; each tool call goes through the invoker's checks. */
export async function runProgram(deps: ProgramDeps, session: Session, req: Pick<CallRequest, "signal" | "progress" | "origin">, program: Program): Promise<ProgramRun> {
  const { code } = program;
  let replay = program.replay ?? [];
  const started = performance.now();
  const toolsUsed: string[] = [];
  const record: Recorded[] = [];
  const pause = new AbortController();
  const stop = AbortSignal.any([req.signal, pause.signal]);
  // What the call carries across 2026-07-28 rounds lives on the client's call (its origin).
  const round: Round = req.origin ?? {};
  if (session.modern && req.origin) req.origin.interrupt = () => pause.abort(new Error("input required"));
  let paused: ApprovalPause | undefined;
  // The last tool call that failed, as the code was told (see failedRun).
  let failure: string | undefined;
  const fail = (message: string): never => ((failure = message), thrown(message));

  const callTool = async (name: string, toolArgs: unknown): Promise<unknown> => {
    const id = parseToolName(name);
    if (!id) throw new Error(`"${name}" is not a tool id; use mcp.<namespace>.<action>(args)`);
    const toolId = formatToolId(id.ns, id.action);
    const argsJson = JSON.stringify(toolArgs ?? {});
    // A call that already ran in this workflow never runs again: the n-th call of the re-run
    // gets the n-th recorded result. Its arguments may differ (Date.now() in them); a different
    // tool at that point means the code took another path, and nothing more runs.
    const prior = replay[record.length];
    if (prior) {
      if (prior.tool !== toolId) {
        replay = [];
        throw new Error(
          `The code took a different path when it was run again after the approval: call #${record.length + 1} was ${prior.tool} and is now ${toolId}. ` +
            `Nothing more was run (the calls before it ran once). Make the choice of tools not depend on time or randomness, then run it again.`,
        );
      }
      record.push(prior);
      if (!prior.refused) toolsUsed.push(toolId);
      if (!prior.ok) return fail(String(prior.value));
      return prior.value;
    }

    const outcome = await deps.invoker.call({ session, call: { signal: stop, progress: req.progress, origin: req.origin } }, id, (toolArgs ?? {}) as Record<string, unknown>);
    if (outcome.kind === "refused") {
      record.push({ tool: toolId, args: argsJson, ok: false, value: outcome.message, refused: true });
      return fail(outcome.message);
    }
    if (outcome.kind === "needsAnswer") {
      // The client cannot answer in-line: stop, and ask with the result (see below).
      paused = new ApprovalPause(outcome);
      pause.abort(paused);
      throw paused;
    }
    const { result } = outcome;
    toolsUsed.push(toolId);
    const rec: Recorded = { tool: toolId, args: argsJson, ok: !result.isError, value: result.isError ? textOf(result) : valueForCode(id.ns, result) };
    record.push(rec);
    // A position at the end of the failure's first line is in other code (a module's, a capability's): not the user's.
    if (!rec.ok) return fail(withoutPosition(String(rec.value)));
    return rec.value;
  };

  const { runCode } = await import("../../sandbox/run-code.ts");
  try {
    const { value } = await runCode({ code, args: program.args, callTool, signal: stop, limits: await deps.backends.sandboxLimits(), owner: clientOf(session) });
    return { kind: "done", value, toolsUsed: [...new Set(toolsUsed)], allOk: record.every((r) => r.ok), ms: performance.now() - started };
  } catch (e) {
    const ms = performance.now() - started;
    const saved = { ...program.saveArgs, code, args: program.args, intent: program.intent, ...(program.capabilityId ? { capability_id: program.capabilityId } : {}) };
    // 2026-07-28: the retry of the same `execute` call resumes here (program.bind); other runs
    // (a stored capability, a continuation) resume through a workflow id (a state too).
    const as = program.pauseAs;
    const pausedAt: Pause = { kind: "execute", tool: as?.tool ?? "execute", args: as?.args ?? saved, via: as?.via, bind: program.bind, replay: record };
    if (paused) {
      const what = program.capabilityId ? "The capability's code calls it." : "The code passed to execute calls it.";
      const { question, resume } = paused.outcome;
      const asked = resume(round, pausedAt, { ...question, why: `${what} ${question.why}` });
      return "resultType" in asked ? { kind: "input", result: asked as InputRequiredResult, ms } : { kind: "result", result: asked, ms };
    }
    const relayed = round.pendingInput && program.bind !== undefined && deps.invoker.asker.channel(session).relayInput(round, pausedAt);
    return relayed ? { kind: "input", result: relayed, ms } : { kind: "result", result: errorResult(failedRun(String((e as Error)?.message ?? e), toolsUsed, failure)), ms };
  }
}

function thrown(message: string): never {
  throw new Error(message);
}

/**
 * A run's error, with the tools that ran before it (a refused call did not run). A tool call's
 * failure the code did not catch is the run's error: told once, as the call failed, not as
 * "Error: …" around it.
 */
function failedRun(message: string, toolsUsed: string[], failure: string | undefined): string {
  const uncaught = failure !== undefined && `Error: ${failure}`;
  const own = uncaught && message.startsWith(uncaught) && /^( \(line \d+(?:, column \d+)?\))?$/.test(message.slice(uncaught.length));
  const text = own ? message.slice("Error: ".length) : message;
  return toolsUsed.length ? `${text}\nTools used before the error: ${[...new Set(toolsUsed)].join(", ")}` : text;
}

/**
 * What code gets back from a tool call. A capability answers its caller with an envelope (`result`,
 * with its version, origin or deprecation when it has them, for the agent); code calling `mcp.cap.*`
 * gets the value under `result`, as from a function (a failing capability is an error result, so the call throws).
 */
function valueForCode(ns: string, result: CallToolResult): unknown {
  const envelope = result.structuredContent as Record<string, unknown> | undefined;
  if (ns === CAP_NS && !result.isError && envelope && typeof envelope === "object" && "result" in envelope) return envelope.result;
  return resultValue(result);
}
