// Keeping a finished `execute` run: a new record (or the same code's record reused), or, for
// `update: true`, a new version of the named record with its parameters merged and its version
// tag bumped by what changed.
import { UserError } from "../errors.ts";
import { routeCapability, type Routing } from "../routing/route.ts";
import type { CapturePlan } from "./capture-plan.ts";
import { inferParameters } from "./parameters.ts";
import { currentUser, type MemorySettings } from "./memory-settings.ts";
import type { AnswerKind, Capability, CapabilityStore, CaptureOutcome } from "./store.ts";
import { bumpFor, isGreater, nextTag } from "./versions.ts";

export type CapturePlanOk = Extract<CapturePlan, { ok: true }>;

/** A run every tool call of which succeeded. */
export interface FinishedRun {
  code: string;
  args: Record<string, unknown>;
  intent?: string;
  description?: string;
  routing?: Routing;
  toolsUsed: string[];
  latencyMs: number;
  ran?: boolean;
  /** The kind of the value it returned. */
  returned?: AnswerKind;
}

/** `changes`: what a save of known code under a name changed in its record (its name, intent,
 * description, parameters); present when something did. */
export type CaptureResult = CaptureOutcome & { version?: { tag: string; change_summary: string }; changes?: string[] };

/** `changed` is told when tools/list changed (a named record was added, named or given a version). */
export async function captureRun(store: CapabilityStore, settings: MemorySettings, plan: CapturePlanOk, run: FinishedRun, changed: () => void): Promise<CaptureResult> {
  if (!plan.update) {
    // A named save of code kept before (same normalised code = same capability, DESIGN 8b): what it
    // says of the record now (name, intent, description, parameters) updates it.
    const before = plan.name ? await store.byCodeHash(plan.scope ?? settings.scope, plan.hash) : undefined;
    const outcome = await captureNew(store, settings, plan, run, changed);
    if (!before || outcome.kind !== "reused" || outcome.capability.id !== before.id) return outcome;
    return resave(store, plan, run, before, outcome, changed);
  }
  const current = await store.byId(plan.update.id);
  if (!current) return captureNew(store, settings, { ...plan, update: undefined }, run, changed);
  // Without an explicit schema an update keeps the parameters it had and adds any new args; a
  // parameter the run did without is no longer required (the run shows the code does not need it,
  // and callers are checked against this schema).
  const inferred = inferParameters(run.args) as { properties: Record<string, unknown> };
  const oldSchema = current.parameters_schema as { properties?: Record<string, unknown>; required?: unknown };
  // An argument the record did not have yet is required, as in a new record (inferParameters).
  const added = Object.keys(inferred.properties).filter((k) => !(k in (oldSchema.properties ?? {})));
  const kept = Array.isArray(oldSchema.required) ? oldSchema.required.filter((k) => typeof k === "string" && (run.ran === false || k in run.args)) : [];
  const required = kept.length || added.length || Array.isArray(oldSchema.required) ? [...kept, ...added] : undefined;
  const schema = plan.schema ?? {
    ...oldSchema,
    type: "object",
    properties: { ...inferred.properties, ...(oldSchema.properties ?? {}) },
    ...(required ? { required } : {}),
  };
  const codeChanged = current.code_hash !== plan.hash;
  const metaChanged =
    JSON.stringify(schema) !== JSON.stringify(current.parameters_schema) ||
    (run.description !== undefined && run.description !== current.description) ||
    (run.intent !== undefined && run.intent !== current.intent);
  if (!codeChanged && !metaChanged && !plan.versionTag) {
    if (run.ran !== false) await store.recordRun(current.id, true, run.latencyMs, run.returned);
    return { kind: "reused", capability: (await store.byId(current.id))! };
  }
  let picked = { tag: "", change_summary: "" };
  const capability = await store.appendVersion(current.id, {
    code: run.code,
    code_hash: plan.hash,
    parameters_schema: schema,
    tools_used: run.toolsUsed,
    routing: routeCapability(run.toolsUsed, run.routing),
    description: run.description ?? (run.intent !== undefined && current.description === current.intent ? run.intent : undefined),
    intent: run.intent,
    by: currentUser(),
    decide: (now) => {
      const { bump, why } = bumpFor(now.parameters_schema, schema, now.code_hash !== plan.hash);
      const tag = plan.versionTag ?? nextTag(now.version_tag, bump);
      if (!isGreater(tag, now.version_tag))
        throw new UserError(`version_tag ${tag} is not greater than the current ${now.version_tag} (another pml saved a version meanwhile); versions are immutable.`);
      picked = { tag, change_summary: plan.changeSummary ?? why };
      return { version_tag: tag, change_summary: picked.change_summary };
    },
  });
  if (run.ran !== false) await store.recordRun(capability.id, true, run.latencyMs, run.returned);
  changed();
  return { kind: "reused", capability, version: picked };
}

async function captureNew(store: CapabilityStore, settings: MemorySettings, plan: CapturePlanOk, run: FinishedRun, changed: () => void): Promise<CaptureOutcome> {
  const inferred = inferParameters(run.args);
  const outcome = await store.capture({
    scope: plan.scope ?? settings.scope,
    name: plan.name,
    code: run.code,
    code_hash: plan.hash,
    intent: run.intent,
    description: run.description ?? run.intent,
    parameters_schema: plan.schema ?? inferred,
    // Nothing from the first run is applied to later calls (its values are the schema's examples).
    default_args: {},
    tools_used: run.toolsUsed,
    routing: routeCapability(run.toolsUsed, run.routing),
    routing_explicit: run.routing !== undefined,
    version_tag: plan.versionTag,
    ran: run.ran,
    by: currentUser(),
    latency_ms: run.latencyMs,
    returned: run.returned,
  });
  if ((outcome.kind === "created" && outcome.capability.named) || (outcome.kind === "reused" && outcome.named)) changed();
  return outcome;
}

/** The metadata a named save of known code brings: a new patch version (major when the parameters
 * change incompatibly, as versions.ts decides) when the intent, description or parameters differ;
 * naming an unnamed record alone is no new version (as dns:rename is none). */
async function resave(
  store: CapabilityStore,
  plan: CapturePlanOk,
  run: FinishedRun,
  before: Capability,
  outcome: Extract<CaptureOutcome, { kind: "reused" }>,
  changed: () => void,
): Promise<CaptureResult> {
  const changes: string[] = outcome.named ? [`named ${outcome.capability.display_name}`] : [];
  const meta: string[] = [];
  if (run.intent !== undefined && run.intent !== before.intent) meta.push("intent");
  if (run.description !== undefined && run.description !== before.description) meta.push("description");
  const schema = plan.schema ?? outcome.capability.parameters_schema;
  if (plan.schema && JSON.stringify(plan.schema) !== JSON.stringify(before.parameters_schema)) meta.push("parameters");
  if (!meta.length) return changes.length ? { ...outcome, changes } : outcome;
  const current = outcome.capability;
  let picked = { tag: "", change_summary: "" };
  const capability = await store.appendVersion(current.id, {
    code: current.code,
    code_hash: current.code_hash,
    parameters_schema: schema,
    tools_used: current.tools_used,
    description: run.description ?? (run.intent !== undefined && before.description === before.intent ? run.intent : undefined),
    intent: run.intent,
    by: currentUser(),
    decide: (now) => {
      const { bump, why } = bumpFor(now.parameters_schema, schema, false);
      const tag = plan.versionTag ?? nextTag(now.version_tag, bump);
      if (!isGreater(tag, now.version_tag)) throw new UserError(`version_tag ${tag} is not greater than the current ${now.version_tag}; versions are immutable.`);
      const what = `${meta.join(", ")} changed${bump === "major" ? ` (${why})` : ""}`;
      picked = { tag, change_summary: plan.changeSummary ?? what };
      return { version_tag: tag, change_summary: picked.change_summary };
    },
  });
  changed();
  return { kind: "reused", capability, named: outcome.named, version: picked, changes: [...changes, ...meta.map((m) => `${m} changed`)] };
}
