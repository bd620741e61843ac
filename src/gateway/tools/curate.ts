// curate_capabilities (also learn:curate): names for the capabilities a busy day left as
// unnamed_…. Heuristics first (src/memory/curation.ts); then, when a language model is at hand,
// it refines them in batches of 5: the client's sampling when the client offers it, else the
// .pml.json `sampling` API with the user's key. Whatever it proposes is validated like any name.
// Heuristics alone named about half of unseen snippets right, so mode auto applies only names the
// model confirmed in this call (proposed, or answered back unchanged); without a model it applies
// nothing and says why. The prompts and answers go to the audit log, one entry per call.
import type { Workspace } from "../../config/workspace.ts";
import type { Memory, MemorySettings } from "../../memory/memory.ts";
import { suggestName, type CurationInput, type Suggestion } from "../../memory/curation.ts";
import { checkName, formatName, STANDARD_NAMESPACES } from "../../memory/names.ts";
import type { Capability } from "../../memory/store.ts";
import type { CurateArgs } from "./curate-args.ts";
import { NOT_RELAYED, sessionOf } from "../../mcp/session.ts";
import { ToolError, type CallOrigin } from "../../mcp/tool-result.ts";
import { appendAudit } from "../../sandbox/audit.ts";
import type { Project } from "../../policy/project.ts";

const BATCH = 5;
const LLM_CONFIDENCE = 0.9;

/** What curating reads and changes: memory's records and names, the project's .pml.json (its
 * `sampling`; read again once an approval of the API's use is kept there), the workspace (audit
 * log, approvals). Both tools that curate (curate_capabilities, learn:curate) hand theirs on. */
interface CurateDeps {
  memory: Pick<Memory, "open" | "rename">;
  project: Pick<Project, "config" | "invalidate">;
  workspace: Pick<Workspace, "root">;
}

/** Its arguments are checked against tools/curate-args.ts by the tool that calls it. */
export async function curate(deps: CurateDeps, settings: MemorySettings, args: CurateArgs, ctx: { signal: AbortSignal; origin?: CallOrigin }) {
  const mode = args.mode ?? "suggest";
  const store = await deps.memory.open();
  if (mode === "apply") return apply(deps, settings, args.names);

  const f = args.filter ?? {};
  const { items } = await store.query({
    scope: settings.scope,
    unnamed_only: f.unnamed_only !== false,
    namespace: f.namespace,
    min_usage: f.min_usage,
    sort: "usage",
    limit: 200,
  });
  const held = new Set(await store.namesInScope(settings.scope));
  const suggestions: Suggestion[] = [];
  for (const c of items) {
    const own = c.display_name;
    const s = suggestName(input(c), (n) => {
      const name = formatName(n);
      return name !== own && held.has(name);
    });
    held.add(s.suggestedName);
    suggestions.push(s);
  }
  const r = await refine(deps, settings, items, suggestions, held, ctx);
  const llm = r.llm;

  if (mode === "suggest") {
    await audit(deps, r, "suggest: nothing applied");
    return { mode, suggestions, llm, next: 'apply with curate_capabilities {"mode": "apply", "names": [{"id": "...", "name": "ns:action_target"}]}' };
  }
  if (!r.ok) {
    const note = `auto applies only names a language model confirmed, and none could confirm them here (${llm}). Nothing was applied. For auto, connect a client that offers sampling, or set .pml.json "sampling" (provider, api_key_env, allow ["pml-curation"]); or apply the names you choose with mode "apply".`;
    await audit(deps, r, "auto: nothing applied, no language model confirmed the names");
    return { mode, applied: [], rejected: [], skipped: suggestions, llm, note };
  }
  const confirmed = suggestions.filter((s) => r.confirmed.has(s.id));
  const applied = confirmed.length
    ? await apply(
        deps,
        settings,
        confirmed.map((s) => ({ id: s.id, name: s.suggestedName })),
      )
    : { applied: [], rejected: [] };
  await audit(deps, r, `auto: ${confirmed.length} of ${suggestions.length} names confirmed by the language model, ${applied.applied.length} applied`);
  return { mode, ...applied, skipped: suggestions.filter((s) => !r.confirmed.has(s.id)), llm };
}

/** One audit entry per call that asked a language model: every prompt sent, every answer read. */
async function audit(deps: CurateDeps, r: Refinement, reason: string): Promise<void> {
  if (!r.exchanges.length && reason.startsWith("suggest")) return;
  await appendAudit(deps.workspace.root, {
    tool: "curate_capabilities",
    attempted: `confirm names with a language model (${r.llm})`,
    reason,
    prompt: r.exchanges.map((x) => x.prompt).join("\n---\n"),
    answer: r.exchanges.map((x) => x.answer).join("\n---\n"),
  }).catch(() => {});
}

function input(c: Capability): CurationInput {
  return { id: c.id, currentName: c.display_name, intent: c.intent, description: c.description, code: c.code, tools_used: c.tools_used };
}

async function apply(deps: CurateDeps, settings: MemorySettings, names: CurateArgs["names"]) {
  if (!names?.length) throw new ToolError('mode "apply" needs "names": [{"id": "<capability id>", "name": "ns:action_target"}, ...] (ids come from mode "suggest").');
  const store = await deps.memory.open();
  const applied: Array<{ id: string; from: string; to: string }> = [];
  const rejected: Array<{ id?: string; name?: string; error: string }> = [];
  for (const { id, name } of names) {
    if (id === undefined || name === undefined) {
      rejected.push({ id, name, error: 'each item needs "id" and "name" (strings)' });
      continue;
    }
    const checked = checkName(name, settings.strictNamespaces);
    if (!checked.ok) {
      rejected.push({ id, name, error: checked.error });
      continue;
    }
    const cap = await store.byId(id);
    if (!cap || cap.owner !== settings.scope.owner) {
      rejected.push({ id, name, error: `Capability not found: ${id}` });
      continue;
    }
    try {
      const done = await deps.memory.rename(settings, cap.display_name, name);
      applied.push({ id, from: done.old, to: done.capability.display_name });
    } catch (e) {
      rejected.push({ id, name, error: (e as Error).message });
    }
  }
  return { applied, rejected };
}

interface Refinement {
  /** Whether a language model answered every batch. */
  ok: boolean;
  /** What happened, in words. */
  llm: string;
  /** The ids whose suggested name the model proposed or answered back unchanged. */
  confirmed: Set<string>;
  exchanges: Array<{ prompt: string; answer: string }>;
}

type Ctx = { signal: AbortSignal; origin?: CallOrigin };

/** Asks a language model to confirm or improve the heuristic names; says in `llm` what happened. */
async function refine(deps: CurateDeps, settings: MemorySettings, caps: Capability[], suggestions: Suggestion[], held: Set<string>, ctx: Ctx): Promise<Refinement> {
  const r: Refinement = { ok: false, llm: "nothing to name", confirmed: new Set(), exchanges: [] };
  if (!caps.length) return { ...r, ok: true };
  const config = await deps.project.config();
  let via = "";
  let refined = 0;
  for (let i = 0; i < caps.length; i += BATCH) {
    const batch = caps.slice(i, i + BATCH);
    const text = prompt(batch, suggestions.slice(i, i + BATCH));
    let answer: { via: string; text: string } | undefined;
    try {
      answer = await ask(deps, settings, config, text, ctx);
    } catch (e) {
      r.llm = `the language model could not be used (${(e as Error).message}): heuristics only${refined ? ` after ${refined} refined` : ""}`;
      return r;
    }
    if (!answer) {
      r.llm = "no language model available (the client offers no sampling and .pml.json has no sampling API): heuristics only";
      return r;
    }
    via = answer.via;
    r.exchanges.push({ prompt: text, answer: answer.text });
    for (const item of parseAnswer(answer.text)) {
      const s = suggestions.find((x) => x.id === item.id);
      if (!s || typeof item.name !== "string") continue;
      if (item.name === s.suggestedName) {
        r.confirmed.add(s.id);
        continue;
      }
      const checked = checkName(item.name, settings.strictNamespaces);
      if (!checked.ok || !(STANDARD_NAMESPACES as readonly string[]).includes(checked.name.namespace) || (held.has(item.name) && item.name !== s.currentName)) continue;
      held.delete(s.suggestedName);
      held.add(item.name);
      s.suggestedName = item.name;
      s.confidence = Math.max(s.confidence, LLM_CONFIDENCE);
      s.reasoning = `${typeof item.reasoning === "string" ? item.reasoning : "proposed by the language model"} (refined by a language model; heuristics said: ${s.reasoning})`;
      r.confirmed.add(s.id);
      refined++;
    }
  }
  return { ...r, ok: true, llm: `refined by ${via}: ${refined} of ${caps.length} names changed, ${r.confirmed.size} confirmed` };
}

/** One request to the language model: the client's sampling, else the .pml.json sampling API; undefined when neither. */
async function ask(deps: CurateDeps, settings: MemorySettings, config: Awaited<ReturnType<CurateDeps["project"]["config"]>>, text: string, ctx: Ctx) {
  const request = {
    messages: [{ role: "user" as const, content: { type: "text" as const, text } }],
    systemPrompt: "You name reusable code snippets. Answer with JSON only.",
    maxTokens: 1024,
    temperature: 0,
    ...(settings.curationModel ? { modelPreferences: { hints: [{ name: settings.curationModel }] } } : {}),
  };
  const read = (answer: unknown) => (answer as { content?: { text?: string } })?.content?.text ?? "";
  if (ctx.origin) {
    const answer = await ctx.origin.relay("sampling/createMessage", request, ctx.signal);
    if (answer !== NOT_RELAYED) return { via: "the client's sampling", text: read(answer) };
  }
  if (config.sampling?.provider === undefined) return undefined;
  // The user's key is spent like any server's sampling: capped, and approved by the user
  // (or listed in .pml.json sampling.allow as "pml-curation").
  const { createMessageViaApi } = await import("../../cloud/sampling.ts");
  const { authorizeSampling, capped } = await import("../../policy/sampling-approval.ts");
  const cfg = (settings.curationModel ? { ...config, sampling: { ...config.sampling, model: settings.curationModel } } : config) as typeof config;
  const req = capped(request, cfg);
  const target = await authorizeSampling("pml-curation", req, {
    config: cfg,
    workspace: deps.workspace.root,
    asker: sessionOf(ctx),
    invalidate: () => deps.project.invalidate(),
  });
  const answer = await createMessageViaApi(req, { config: cfg, workspace: deps.workspace.root, signal: ctx.signal }, target);
  return { via: `the ${config.sampling.provider} API (.pml.json sampling)`, text: read(answer) };
}

function prompt(batch: Capability[], heuristic: Suggestion[]): string {
  const items = batch.map((c, i) => ({
    id: c.id,
    intent: c.intent,
    tools_used: c.tools_used,
    code: c.code.length > 600 ? `${c.code.slice(0, 600)}…` : c.code,
    heuristic_name: heuristic[i]?.suggestedName,
  }));
  return [
    "Name each code snippet namespace:action_target[_variant], lower snake case.",
    `Namespace: one of ${STANDARD_NAMESPACES.join(", ")}. Action: a verb. Target: what it acts on.`,
    'Answer with a JSON array only: [{"id": "...", "name": "ns:action_target", "reasoning": "one short sentence"}]; give heuristic_name back unchanged when it is right, and leave out a snippet you cannot name.',
    JSON.stringify(items, null, 1),
  ].join("\n");
}

function parseAnswer(text: string): Array<{ id?: string; name?: unknown; reasoning?: unknown }> {
  const start = text.indexOf("[");
  const end = text.lastIndexOf("]");
  if (start < 0 || end <= start) return [];
  try {
    const v = JSON.parse(text.slice(start, end + 1));
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}
