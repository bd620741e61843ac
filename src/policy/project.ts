// The project as the gateway sees it: workspace and .pml.json, reread when the file changes so
// the user's file stays the only source of truth (an edit applies within CONFIG_RECHECK_MS, no restart).
import { statSync } from "node:fs";
import { join } from "node:path";
import { loadProjectConfig, unknownConfigKeys, type ProjectConfig } from "../config/pml-json.ts";
import { log } from "../log.ts";
import { memorySettings, type MemorySettings } from "../memory/memory.ts";

export interface ProjectState {
  config: ProjectConfig;
  path: string;
  exists: boolean;
  /** Set when .pml.json could not be read: tools other than pml's own refuse to run until fixed. */
  error?: string;
  /** Keys of .pml.json that pml does not know (typos), each with the closest known one. */
  warnings?: string[];
  /** Bumped on every reload, so derived state (resolver) knows to rebuild. */
  generation: number;
}

/** How stale .pml.json may be: an edit applies to calls made this long after it, or sooner.
 * Checking the file on every call (a stat, ~3-20 us) was a measurable share of a proxied call. */
export const CONFIG_RECHECK_MS = 100;

export class Project {
  private state: ProjectState | undefined;
  private stamp = "";
  private loading: Promise<ProjectState> | undefined;
  private readonly file: string;
  /** When the file was last looked at (performance.now()); it is looked at again after
   * CONFIG_RECHECK_MS, so calls in a burst share one stat and an edit still applies within the bound. */
  private checkedAt = -Infinity;

  constructor(readonly workspace: string) {
    this.file = join(workspace, ".pml.json");
  }

  /** The current state, reloaded first when the file changed. */
  async get(): Promise<ProjectState> {
    return this.current() ?? (await this.loading!);
  }

  async config(): Promise<ProjectConfig> {
    return (await this.get()).config;
  }

  /** Memory's settings under the current file (scope, publishing, team registry). */
  async memorySettings(): Promise<MemorySettings> {
    return memorySettings(await this.config(), this.workspace);
  }

  /**
   * The state when it is current, without waiting (the hot path); undefined while it is being
   * (re)loaded, and then a reload is under way for `get` to wait on.
   */
  current(): ProjectState | undefined {
    if (this.loading) return undefined;
    const now = performance.now();
    if (this.state && now - this.checkedAt < CONFIG_RECHECK_MS) return this.state;
    const stamp = this.currentStamp();
    this.checkedAt = now;
    if (this.state && stamp === this.stamp) return this.state;
    this.loading = this.reload(stamp).finally(() => (this.loading = undefined));
    return undefined;
  }

  /** pml itself just wrote .pml.json (e.g. "Always" added an allow): check again on the next get(). */
  invalidate(): void {
    this.checkedAt = -Infinity;
  }

  private currentStamp(): string {
    try {
      const s = statSync(this.file, { throwIfNoEntry: false });
      return s ? `${s.mtimeMs}:${s.size}:${s.ino}` : "missing";
    } catch {
      return "missing";
    }
  }

  private async reload(stamp: string): Promise<ProjectState> {
    this.stamp = stamp;
    const generation = (this.state?.generation ?? 0) + 1;
    try {
      const loaded = await loadProjectConfig(this.workspace);
      const warnings = unknownConfigKeys(loaded.raw);
      for (const w of warnings) log.warn(`${loaded.path}: ${w}`);
      this.state = { config: loaded.config, path: loaded.path, exists: loaded.exists, generation, ...(warnings.length ? { warnings } : {}) };
    } catch (e) {
      const error = (e as Error).message;
      log.error(error);
      this.state = { config: this.state?.config ?? ({} as ProjectConfig), path: this.file, exists: true, error, generation };
    }
    return this.state;
  }
}
