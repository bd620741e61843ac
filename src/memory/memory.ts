// Procedural memory as the gateway uses it: settings from .pml.json, the store opened on first
// need (pml stdio answers `initialize` without touching the database), capture of `execute` runs,
// name resolution, and the tool_usage log, written in batches off the call path.
import { userInfo } from "node:os";
import { basename, join } from "node:path";
import { pmlHome } from "../config/paths.ts";
import type { ProjectConfig } from "../config/pml-json.ts";
import { log } from "../log.ts";
import { routeCapability, type Routing } from "../routing/route.ts";
import { codeHash } from "./code-hash.ts";
import { capWireName, checkName, formatName, parseCallName, scopeLabel, type CapName } from "./names.ts";
import type { SearchDoc, SearchIndex } from "./search.ts";
import { bumpFor, checkSpecifier, isGreater, nextTag, pickVersion, SEMVER_RE, splitSpecifier } from "./versions.ts";
import type { Capability, CapabilityStore, CaptureOutcome, Resolution, Scope, SearchRecord, ToolUsage } from "./store.ts";

export interface MemorySettings {
  scope: Scope;
  capture: boolean;
  strictNamespaces: boolean;
  curateAfter: number;
  curationModel?: string;
}

export function memorySettings(config: ProjectConfig, workspace: string): MemorySettings {
  const m = config.memory ?? {};
  return {
    scope: { org: scopeLabel(m.org ?? "local", "local"), project: scopeLabel(m.project ?? basename(workspace), "project") },
    capture: m.capture !== false,
    strictNamespaces: m.strict_namespaces === true,
    curateAfter: m.curate_after ?? 10,
    curationModel: m.curation_model,
  };
}

/** Who made a change: the OS user (the store is the user's own). */
export function currentUser(): string {
  try {
    return userInfo().username || "local";
  } catch {
    return process.env.USER || "local";
  }
}

/** What `execute` checks before running code it may keep. */
export type CapturePlan =
  | { ok: false; error: string }
  | {
      ok: true;
      capture: boolean;
      name?: CapName;
      hash: string;
      warnings: string[];
      schema?: Record<string, unknown>;
      /** `update: true` on a name that exists: the run becomes a new version of that record. */
      update?: { id: string };
      versionTag?: string;
      changeSummary?: string;
    };

const USAGE_FLUSH_MS = 250;

/** The capability exists, the version asked for does not (or the specifier is malformed). */
export class VersionError extends Error {}

/** A real tool offered to `discover` beside the capabilities. */
export interface ToolEntry {
  ns: string;
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

export interface Found {
  /** What to call: a capability name (`fs:read_json`, `unnamed_1a2b3c4d`) or a tool id (`memory:read_graph`). */
  id: string;
  kind: "capability" | "tool";
  description: string;
  /** Capabilities: the tool to call in tools/list (named ones). */
  tool?: string;
  uses?: string[];
  score: number;
  /** Variants of this capability (its name with another version number) that matched less well. */
  variants?: string[];
}

interface CapSummary {
  org: string;
  project: string;
  visibility: string;
  name: string;
  named: boolean;
  description: string;
  tools: string[];
}

export class Memory {
  private store?: CapabilityStore;
  private usage: ToolUsage[] = [];
  private flushTimer?: ReturnType<typeof setTimeout>;
  private readonly listeners: Array<() => void> = [];

  /** Loaded with the first `discover {query}` (the stemmer and thesaurus are not needed before). */
  private index?: SearchIndex;
  private indexedSeq = 0;
  private readonly caps = new Map<string, CapSummary>();
  private toolKeys = new Set<string>();
  private toolSignature = "";

  constructor(readonly dbPath: string = join(pmlHome(), "memory.db")) {}

  /**
   * Capabilities visible from the scope and the given tools, ranked by relevance to `query`.
   * The index is kept in memory and brought up to date from the store's change counter, so
   * records saved by other pml processes are found too.
   */
  async discover(settings: MemorySettings, query: string, tools: readonly ToolEntry[], limit = 10): Promise<{ results: Found[]; warning?: string }> {
    let warning: string | undefined;
    if (!this.index) {
      const { SearchIndex } = await import("./search.ts");
      this.index ??= new SearchIndex();
    }
    try {
      await this.refreshCapabilities();
    } catch (e) {
      warning = `Capabilities are not searched: ${(e as Error).message}`;
    }
    this.refreshTools(tools);
    const { org, project } = settings.scope;
    const visible = (key: string) => {
      const c = this.caps.get(key);
      if (!c) return this.toolKeys.has(key);
      return (c.org === org && c.project === project) || c.visibility === "public" || (c.visibility === "org" && c.org === org);
    };
    const hits = this.index.search(query, limit, visible);
    const byKey = new Map(tools.map((t) => [`tool:${t.ns}:${t.name}`, t]));
    const results = hits.map((h): Found => {
      const c = this.caps.get(h.key);
      const score = Math.round(h.score * 100) / 100;
      if (c) {
        const n = parseCallName(c.name)!;
        const variants = h.also?.map((k) => this.caps.get(k)?.name).filter((x): x is string => !!x);
        return { id: c.name, kind: "capability", description: c.description, ...(c.named ? { tool: capWireName(n) } : {}), uses: c.tools, score, ...(variants?.length ? { variants } : {}) };
      }
      const t = byKey.get(h.key)!;
      return { id: `${t.ns}:${t.name}`, kind: "tool", description: t.description ?? "", score };
    });
    return { results, ...(warning ? { warning } : {}) };
  }

  private async refreshCapabilities(): Promise<void> {
    const changed = await (await this.open()).searchableSince(this.indexedSeq);
    for (const c of changed) {
      this.indexedSeq = Math.max(this.indexedSeq, c.seq);
      const key = `cap:${c.id}`;
      if (c.record_type !== "capability") continue;
      this.caps.set(key, {
        org: c.org,
        project: c.project,
        visibility: c.visibility,
        name: c.display_name,
        named: c.named,
        description: c.description || c.intent,
        tools: c.tools_used,
      });
      this.index!.add(capabilityDoc(key, c));
    }
  }

  private refreshTools(tools: readonly ToolEntry[]): void {
    const signature = tools.map((t) => `${t.ns}:${t.name}`).join(",");
    if (signature === this.toolSignature) return;
    for (const key of this.toolKeys) this.index!.remove(key);
    this.toolKeys = new Set();
    for (const t of tools) {
      const key = `tool:${t.ns}:${t.name}`;
      this.toolKeys.add(key);
      const props = (t.inputSchema?.properties ?? {}) as Record<string, unknown>;
      this.index!.add({ key, name: `${t.ns} ${t.name}`, description: t.description, params: Object.keys(props) });
    }
    this.toolSignature = signature;
  }

  /** The store, opened (and migrated) on first use. */
  async open(): Promise<CapabilityStore> {
    if (!this.store) {
      const { SqliteCapabilityStore } = await import("./sqlite-store.ts");
      this.store ??= new SqliteCapabilityStore(this.dbPath);
    }
    return this.store;
  }

  /** Named capabilities were added or renamed: tools/list changed. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  /** Validates `name` and `parameters` before the code runs, so a taken name costs no run. */
  async plan(
    settings: MemorySettings,
    input: { code: string; name?: unknown; parameters?: unknown; update?: unknown; version_tag?: unknown; change_summary?: unknown },
  ): Promise<CapturePlan> {
    const warnings: string[] = [];
    const hash = codeHash(input.code);
    let name: CapName | undefined;
    if (input.name !== undefined) {
      const checked = checkName(input.name, settings.strictNamespaces);
      if (!checked.ok) return { ok: false, error: checked.error };
      if (checked.warning) warnings.push(checked.warning);
      name = checked.name;
    }
    let schema: Record<string, unknown> | undefined;
    if (input.parameters !== undefined) {
      const p = input.parameters as Record<string, unknown>;
      if (typeof p !== "object" || p === null || Array.isArray(p) || (p.type !== undefined && p.type !== "object"))
        return { ok: false, error: '"parameters" must be a JSON Schema for the args object, e.g. {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}.' };
      schema = { type: "object", ...p };
    }
    if (!settings.capture) {
      if (name) warnings.push(`Not saved as ${formatName(name)}: .pml.json memory.capture is false.`);
      return { ok: true, capture: false, hash, warnings };
    }
    if (input.version_tag !== undefined && (typeof input.version_tag !== "string" || !SEMVER_RE.test(input.version_tag)))
      return { ok: false, error: '"version_tag" must be a version like "1.2.0".' };
    const versionTag = input.version_tag as string | undefined;
    const changeSummary = typeof input.change_summary === "string" ? input.change_summary : undefined;
    if (!name) return { ok: true, capture: true, hash, warnings, schema };
    const store = await this.open();
    const held = await store.resolve(settings.scope, name);
    if (held && input.update === true) {
      if (held.alias) return { ok: false, error: `${formatName(name)} is an old name of ${held.capability.display_name}; update ${held.capability.display_name} instead.` };
      if (versionTag && !isGreater(versionTag, held.capability.version_tag))
        return { ok: false, error: `version_tag ${versionTag} is not greater than ${formatName(name)}'s current ${held.capability.version_tag}; versions are immutable, so give a greater one (or none). Nothing was run.` };
      return { ok: true, capture: true, name, hash, warnings, schema, update: { id: held.capability.id }, versionTag, changeSummary };
    }
    if (held && held.capability.code_hash !== hash)
      return {
        ok: false,
        error: `Capability name '${formatName(name)}' already exists. Choose another name, pass "update": true to save this code as its new version, or call it with execute {capability: "${formatName(name)}"}. Nothing was run.`,
      };
    return { ok: true, capture: true, name, hash, warnings, schema };
  }

  /** Keeps a finished run (every tool call in it succeeded). */
  async capture(
    settings: MemorySettings,
    plan: Extract<CapturePlan, { ok: true }>,
    run: { code: string; args: Record<string, unknown>; intent?: string; description?: string; routing?: Routing; toolsUsed: string[]; latencyMs: number; ran?: boolean },
  ): Promise<CaptureOutcome & { version?: { tag: string; change_summary: string } }> {
    if (!plan.update) return this.captureNew(settings, plan, run);
    const store = await this.open();
    const current = await store.byId(plan.update.id);
    if (!current) return this.captureNew(settings, { ...plan, update: undefined }, run);
    // Without an explicit schema an update keeps the parameters it had and adds any new args; a
    // parameter the run did without is no longer required (the run shows the code does not need it,
    // and callers are checked against this schema).
    const inferred = inferParameters(run.args) as { properties: Record<string, unknown> };
    const oldSchema = current.parameters_schema as { properties?: Record<string, unknown>; required?: unknown };
    const required = Array.isArray(oldSchema.required) ? oldSchema.required.filter((k) => typeof k === "string" && (run.ran === false || k in run.args)) : undefined;
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
      if (run.ran !== false) await store.recordRun(current.id, true, run.latencyMs);
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
          throw new Error(`version_tag ${tag} is not greater than the current ${now.version_tag} (another pml saved a version meanwhile); versions are immutable.`);
        picked = { tag, change_summary: plan.changeSummary ?? why };
        return { version_tag: tag, change_summary: picked.change_summary };
      },
    });
    if (run.ran !== false) await store.recordRun(capability.id, true, run.latencyMs);
    this.changed();
    return { kind: "reused", capability, version: picked };
  }

  private async captureNew(
    settings: MemorySettings,
    plan: Extract<CapturePlan, { ok: true }>,
    run: { code: string; args: Record<string, unknown>; intent?: string; description?: string; routing?: Routing; toolsUsed: string[]; latencyMs: number; ran?: boolean },
  ): Promise<CaptureOutcome> {
    const inferred = inferParameters(run.args);
    const outcome = await (await this.open()).capture({
      scope: settings.scope,
      name: plan.name,
      code: run.code,
      code_hash: plan.hash,
      intent: run.intent,
      description: run.description ?? run.intent,
      parameters_schema: plan.schema ?? inferred,
      default_args: run.args,
      tools_used: run.toolsUsed,
      routing: routeCapability(run.toolsUsed, run.routing),
      routing_explicit: run.routing !== undefined,
      version_tag: plan.versionTag,
      ran: run.ran,
      by: currentUser(),
      latency_ms: run.latencyMs,
    });
    if ((outcome.kind === "created" && outcome.capability.named) || (outcome.kind === "reused" && outcome.named)) this.changed();
    return outcome;
  }

  /**
   * A name as callers write it (`fs:read_json`, `fs__read_json`, `cap:fs:read_json`, an alias, an
   * FQDN), optionally with a version specifier (`@v1`, `@v1.2.0`, `@2026-11-22`, `@latest`).
   * Throws VersionError when the capability exists but the version does not.
   */
  async resolve(settings: MemorySettings, raw: string): Promise<Resolution | undefined> {
    const store = await this.open();
    const { name: bare, spec } = splitSpecifier(raw.trim());
    let found: Resolution | undefined;
    if (bare.split(".").length === 5) {
      const cap = await store.byFqdn(bare);
      found = cap ? { capability: cap } : undefined;
    } else {
      const name = parseCallName(bare);
      found = name ? await store.resolve(settings.scope, name) : undefined;
    }
    if (!found || spec === undefined) return found;
    const checked = checkSpecifier(spec);
    if (!checked.ok) throw new VersionError(checked.error);
    const version = pickVersion(await store.versions(found.capability.id), spec);
    if (!version) throw new VersionError(`Version ${spec} not found for ${found.capability.display_name}`);
    return { ...found, version: version.version_tag, capability: { ...found.capability, code: version.code, code_hash: version.code_hash, parameters_schema: version.parameters_schema } };
  }

  async versions(id: string) {
    return (await this.open()).versions(id);
  }

  async recordRun(id: string, success: boolean, latencyMs: number): Promise<void> {
    await (await this.open()).recordRun(id, success, latencyMs);
  }

  async listNamed(settings: MemorySettings): Promise<Capability[]> {
    return (await this.open()).listNamed(settings.scope);
  }

  async rename(settings: MemorySettings, from: string, to: string) {
    const old = parseCallName(from);
    if (!old) throw new Error(`"${from}" is not a capability name (namespace:action_target).`);
    const checked = checkName(to, settings.strictNamespaces);
    if (!checked.ok) throw new Error(checked.error);
    const done = await (await this.open()).rename(settings.scope, old, checked.name, currentUser());
    this.changed();
    return { ...done, warning: checked.warning };
  }

  async fork(settings: MemorySettings, id: string, to: CapName) {
    const c = await (await this.open()).fork(settings.scope, id, to, currentUser());
    this.changed();
    return c;
  }

  /** Per scope, the multiple of curate_after last told about (each threshold is told once per process). */
  private readonly nudged = new Map<string, number>();

  /** Once per curate_after new unnamed capabilities: what to tell the agent. */
  async curationNudge(settings: MemorySettings): Promise<string | undefined> {
    const { total } = await (await this.open()).query({ scope: settings.scope, unnamed_only: true, limit: 1 });
    const bucket = Math.floor(total / settings.curateAfter);
    const key = `${settings.scope.org}.${settings.scope.project}`;
    if (bucket < 1 || bucket <= (this.nudged.get(key) ?? 0)) return undefined;
    this.nudged.set(key, bucket);
    return `${total} capabilities in this project are still unnamed (unnamed_…). Call curate_capabilities {"mode": "suggest"} to get names for them, then {"mode": "apply", "names": [{"id", "name"}]} (or {"mode": "auto"} for the confident ones).`;
  }

  /** One tool call ended (any tool, any path); written to tool_usage in a batch. */
  noteToolCall(u: ToolUsage): void {
    this.usage.push(u);
    if (this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => void this.flush(), USAGE_FLUSH_MS);
    (this.flushTimer as { unref?: () => void }).unref?.();
  }

  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const rows = this.usage.splice(0);
    if (!rows.length) return;
    try {
      await (await this.open()).recordToolUsage(rows);
    } catch (e) {
      log.warn(`could not record tool usage in ${this.dbPath}: ${(e as Error).message}`);
    }
  }

  async close(): Promise<void> {
    await this.flush();
    this.store?.close();
    this.store = undefined;
  }
}

export function capabilityDoc(key: string, c: SearchRecord): SearchDoc {
  const props = (c.parameters_schema.properties ?? {}) as Record<string, unknown>;
  return {
    key,
    name: c.named ? `${c.namespace} ${c.action}` : "",
    intent: c.intent,
    description: c.description === c.intent ? "" : c.description,
    tools: c.tools_used,
    params: Object.keys(props),
  };
}

/** A schema for the args of a first run, those args as defaults (nothing required: defaults fill in). */
export function inferParameters(args: Record<string, unknown>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) properties[k] = { type: jsonType(v), default: v };
  return { type: "object", properties };
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v === "object" ? "object" : typeof v === "string" || typeof v === "boolean" ? typeof v : "string";
}
