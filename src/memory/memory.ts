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
import { checkName, formatName, parseCallName, scopeLabel, type CapName } from "./names.ts";
import type { Capability, CapabilityStore, CaptureOutcome, Resolution, Scope, ToolUsage } from "./store.ts";

export interface MemorySettings {
  scope: Scope;
  capture: boolean;
  strictNamespaces: boolean;
}

export function memorySettings(config: ProjectConfig, workspace: string): MemorySettings {
  const m = config.memory ?? {};
  return {
    scope: { org: scopeLabel(m.org ?? "local", "local"), project: scopeLabel(m.project ?? basename(workspace), "project") },
    capture: m.capture !== false,
    strictNamespaces: m.strict_namespaces === true,
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
  | { ok: true; capture: boolean; name?: CapName; hash: string; warnings: string[]; schema?: Record<string, unknown> };

const USAGE_FLUSH_MS = 250;

export class Memory {
  private store?: CapabilityStore;
  private usage: ToolUsage[] = [];
  private flushTimer?: ReturnType<typeof setTimeout>;
  private readonly listeners: Array<() => void> = [];

  constructor(readonly dbPath: string = join(pmlHome(), "memory.db")) {}

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
  async plan(settings: MemorySettings, input: { code: string; name?: unknown; parameters?: unknown }): Promise<CapturePlan> {
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
    if (name && (await (await this.open()).nameTakenByOther(settings.scope, name, hash)))
      return { ok: false, error: `Capability name '${formatName(name)}' already exists. Choose another name, or call it with execute {capability: "${formatName(name)}"}. Nothing was run.` };
    return { ok: true, capture: true, name, hash, warnings, schema };
  }

  /** Keeps a finished run (every tool call in it succeeded). */
  async capture(
    settings: MemorySettings,
    plan: Extract<CapturePlan, { ok: true }>,
    run: { code: string; args: Record<string, unknown>; intent?: string; description?: string; routing?: Routing; toolsUsed: string[]; latencyMs: number },
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
      by: currentUser(),
      latency_ms: run.latencyMs,
    });
    if ((outcome.kind === "created" && outcome.capability.named) || (outcome.kind === "reused" && outcome.named)) this.changed();
    return outcome;
  }

  /** A name as callers write it (`fs:read_json`, `fs__read_json`, `cap:fs:read_json`, an alias, an FQDN). */
  async resolve(settings: MemorySettings, raw: string): Promise<Resolution | undefined> {
    const store = await this.open();
    if (raw.split(".").length === 5) {
      const cap = await store.byFqdn(raw);
      return cap ? { capability: cap } : undefined;
    }
    const name = parseCallName(raw);
    return name ? store.resolve(settings.scope, name) : undefined;
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

  /** One tool call ended (any tool, any path); written to tool_usage in a batch. */
  noteToolCall(u: ToolUsage): void {
    this.usage.push(u);
    this.flushTimer ??= setTimeout(() => void this.flush(), USAGE_FLUSH_MS);
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
