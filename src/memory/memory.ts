// Procedural memory as the gateway uses it: the store opened on first need (pml stdio answers
// `initialize` without touching the database), capture of `execute` runs (planned in
// capture-plan.ts, kept by capture.ts), name resolution, discover (discover.ts), and the tool_usage
// log (tool-usage-log.ts). Settings from .pml.json are in memory-settings.ts.
import { log } from "../log.ts";
import { readSavedParameters } from "./parameters.ts";
import { join } from "node:path";
import { pmlHome } from "../config/paths.ts";
import { UserError } from "../errors.ts";
import { captureRun, type CapturePlanOk, type CaptureResult, type FinishedRun } from "./capture.ts";
import { planCapture, type CapturePlan, type CaptureRequest } from "./capture-plan.ts";
import { associationText } from "./association-policy.ts";
import { CapabilityDiscovery } from "./discover.ts";
import { capKey, toolKey } from "./discover-state.ts";
import type { ToolEntry } from "./search-docs.ts";
import { currentUser, type MemorySettings } from "./memory-settings.ts";
import { CAP_NS, checkName, parseCallName, type CapName } from "./names.ts";
import type { AnswerKind, Capability, CapabilityStore, Deprecation, Resolution, ToolUsage } from "./store.ts";
import type { TeamHit } from "./team.ts";
import { ToolUsageLog } from "./tool-usage-log.ts";
import { checkSpecifier, pickVersion, splitSpecifier } from "./versions.ts";

// Kept importable from here, where src/gateway/ imports them.
export { currentUser, memorySettings, type MemorySettings } from "./memory-settings.ts";
export type { CapturePlan } from "./capture-plan.ts";

/** The capability exists, the version asked for does not (or the specifier is malformed). */
export class VersionError extends UserError {
  override name = "VersionError";
}

export class Memory {
  private store?: CapabilityStore;
  private readonly listeners: Array<() => void> = [];
  private readonly finder = new CapabilityDiscovery(() => this.open());
  private readonly usage: ToolUsageLog;

  constructor(readonly dbPath: string = join(pmlHome(), "memory.db")) {
    this.usage = new ToolUsageLog(() => this.open(), dbPath);
  }

  /**
   * Capabilities visible from the scope and the given tools, ranked by relevance to `query`.
   * The index is kept in memory and brought up to date from the store's change counter, so
   * records saved by other pml processes are found too.
   */
  async discover(
    settings: MemorySettings,
    query: string,
    tools: readonly ToolEntry[],
    limit = 10,
    team: readonly TeamHit[] | Promise<readonly TeamHit[]> = [],
  ): ReturnType<CapabilityDiscovery["discover"]> {
    return this.finder.discover(settings, query, tools, limit, team);
  }

  /** Resolves once what discover reads of each record is read ahead (read-ahead.ts; tests, benches). */
  async readAhead(): Promise<void> {
    await this.finder.readAhead();
  }

  /**
   * Learning from use: `words` (a discover query, a stated intent) led to a successful call of
   * `item` (a key from `discover`, or `itemKey`) in this workspace; with `from`, the item the same
   * words were credited to before in the same job gives its credit back. Kept for this
   * workspace's owner only: no workspace's use changes another's ranking.
   */
  async learn(settings: MemorySettings, item: string, words: string, from?: string): Promise<void> {
    const query = associationText(words);
    if (!query) return;
    await (await this.open()).learn({ owner: settings.scope.owner, item, query, at: new Date().toISOString(), ...(from ? { from } : {}) });
  }

  /** The key associations are kept under for a tool, or for a capability name the scope can read. */
  async itemKey(settings: MemorySettings, ns: string, action: string): Promise<string | undefined> {
    if (ns !== CAP_NS) return toolKey(ns, action);
    const found = await this.resolve(settings, action).catch(() => undefined);
    return found ? capKey(found.capability.id) : undefined;
  }

  /** The store, opened (and migrated) on first use. */
  async open(): Promise<CapabilityStore> {
    if (!this.store) {
      const { SqliteCapabilityStore } = await import("./sqlite-store.ts");
      this.store ??= new SqliteCapabilityStore(this.dbPath);
    }
    return this.store;
  }

  private othersSeen?: number;

  /** Whether another process wrote to memory.db since the last ask (a rename from `pml ui`, another
   * session's save); false on the first ask. */
  async changedElsewhere(): Promise<boolean> {
    const now = await (await this.open()).othersStamp();
    const moved = this.othersSeen !== undefined && now !== this.othersSeen;
    this.othersSeen = now;
    return moved;
  }

  /** Once the embeddings provider's background work is done or stopped by a failure (benches,
   * tests): how many texts have vectors, how many wait, what failed; undefined without a provider. */
  async providerSettled(): Promise<{ ready: number; pending: number; failure?: string } | undefined> {
    const p = this.finder.provider.current;
    await p?.settled();
    return p?.status;
  }

  /** Named capabilities were added or renamed: tools/list changed. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  private readonly usedListeners: Array<(id: string) => void> = [];

  /** A capability ran successfully (what orders a bounded tools/list after the pinned ones). */
  onUsed(listener: (id: string) => void): void {
    this.usedListeners.push(listener);
  }

  private used(id: string): void {
    for (const l of this.usedListeners) l(id);
  }

  /** Validates `name` and `parameters` before the code runs, so a taken name costs no run. */
  async plan(settings: MemorySettings, input: CaptureRequest): Promise<CapturePlan> {
    return planCapture(() => this.open(), settings, input);
  }

  /** Keeps a finished run (every tool call in it succeeded). */
  async capture(settings: MemorySettings, plan: CapturePlanOk, run: FinishedRun): Promise<CaptureResult> {
    const result = await captureRun(await this.open(), settings, plan, run, () => this.changed());
    if (run.ran !== false && "capability" in result) this.used(result.capability.id);
    // Its text vector is made now and kept, so no discover has to embed it (errors are not the run's).
    if (result.kind !== "taken") await this.finder.keep(result.capability).catch((e: Error) => log.warn(`capability vector not kept: ${e.message}`));
    return result;
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
      const cap = await store.byFqdn(settings.scope, bare);
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
    return {
      ...found,
      version: version.version_tag,
      capability: {
        ...found.capability,
        code: version.code,
        code_hash: version.code_hash,
        parameters_schema: readSavedParameters(version.parameters_schema, found.capability.default_args),
      },
    };
  }

  /** The input schemas of the capabilities among discover's `keys`, by key, in one read of the store. */
  async parametersOf(keys: readonly string[]): Promise<Map<string, Capability["parameters_schema"]>> {
    return this.finder.parametersOf(keys);
  }

  async versions(id: string) {
    return (await this.open()).versions(id);
  }

  async recordRun(id: string, success: boolean, latencyMs: number, returned?: AnswerKind): Promise<void> {
    await (await this.open()).recordRun(id, success, latencyMs, returned);
    if (success) this.used(id);
  }

  async listNamed(settings: MemorySettings): Promise<Capability[]> {
    return (await this.open()).listNamed(settings.scope);
  }

  /** What tools/list carries of the scope's capabilities (memory.list_tools; see listedNamed). */
  async listed(settings: MemorySettings): Promise<{ items: Capability[]; total: number; deprecated: string[] }> {
    return (await this.open()).listedNamed(settings.scope, settings.listTools);
  }

  async setPinned(id: string, pinned: boolean): Promise<Capability> {
    const c = await (await this.open()).setPinned(id, pinned, currentUser());
    this.changed();
    return c;
  }

  async setDeprecated(id: string, deprecation: Omit<Deprecation, "at" | "by"> | null): Promise<Capability> {
    const by = currentUser();
    const c = await (await this.open()).setDeprecated(id, deprecation && { at: new Date().toISOString(), by, ...deprecation }, by);
    this.changed();
    return c;
  }

  async rename(settings: MemorySettings, from: string, to: string) {
    const old = parseCallName(from);
    if (!old) throw new UserError(`"${from}" is not a capability name (namespace:action_target).`);
    const checked = checkName(to, settings.strictNamespaces);
    if (!checked.ok) throw new UserError(checked.error);
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
    const key = settings.scope.owner;
    if (bucket < 1 || bucket <= (this.nudged.get(key) ?? 0)) return undefined;
    this.nudged.set(key, bucket);
    return `${total} capabilities in this project are still unnamed (unnamed_…). Call curate_capabilities {"mode": "suggest"} to get names for them, then {"mode": "apply", "names": [{"id", "name"}]} (or {"mode": "auto"} for the names a language model confirms).`;
  }

  /** One tool call ended (any tool, any path); written to tool_usage in a batch. */
  noteToolCall(u: ToolUsage): void {
    this.usage.note(u);
  }

  async flush(): Promise<void> {
    await this.usage.flush();
  }

  async close(): Promise<void> {
    await this.flush();
    this.store?.close();
    this.store = undefined;
  }
}
