// The project as the gateway sees it: workspace and .pml.json, reread when the file (or the
// user's trust record of it) changes, so the user's file stays the only source of truth (an edit
// applies within CONFIG_RECHECK_MS, no restart). What the file grants applies only as far as the
// user trusted it (./trust/): `config` is the file with the untrusted grants taken out.
import { statSync } from "node:fs";
import { join } from "node:path";
import { loadProjectConfig, type ProjectConfig } from "../config/pml-json.ts";
import { unknownConfigKeys } from "../config/unknown-keys.ts";
import { log } from "../log.ts";
import { memorySettings, type MemorySettings } from "../memory/memory.ts";
import { grantsOf, withGrants, type Grant } from "./trust/grants.ts";
import { readTrust, trustStamp } from "./trust/trust-record.ts";

export interface ProjectState {
  /** .pml.json as it applies: what only restricts, and the grants the user trusted. */
  config: ProjectConfig;
  /** What the file grants that the user has not trusted (so it does not apply). */
  untrusted: Grant[];
  /** The user trusted this workspace (a record exists) and everything its file grants. */
  trusted: boolean;
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
      return s ? `${s.mtimeMs}:${s.size}:${s.ino} ${trustStamp(this.workspace)}` : "missing";
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
      const record = readTrust(this.workspace);
      const trusted = new Set(record?.grants ?? []);
      const untrusted = grantsOf(loaded.config).filter((g) => !trusted.has(g.id));
      const config = untrusted.length ? withGrants(loaded.config, (id) => trusted.has(id)) : loaded.config;
      if (untrusted.length) log.warn(untrustedNotice(loaded.path, untrusted, this.workspace));
      this.state = {
        config,
        untrusted,
        trusted: record !== undefined && untrusted.length === 0,
        path: loaded.path,
        exists: loaded.exists,
        generation,
        ...(warnings.length ? { warnings } : {}),
      };
    } catch (e) {
      const error = (e as Error).message;
      log.error(error);
      this.state = {
        config: this.state?.config ?? ({} as ProjectConfig),
        untrusted: this.state?.untrusted ?? [],
        trusted: false,
        path: this.file,
        exists: true,
        error,
        generation,
      };
    }
    return this.state;
  }
}

/** What the user is told while a file's grants are not trusted: which, and the command to trust. */
export function untrustedNotice(file: string, untrusted: readonly Grant[], workspace: string): string {
  const shown = untrusted.slice(0, 5).map((g) => `  - ${g.text}`);
  if (untrusted.length > shown.length) shown.push(`  - and ${untrusted.length - shown.length} more`);
  return [
    `${file} grants what you have not trusted yet, so pml does not apply it (a cloned repository's file grants nothing until you trust it):`,
    ...shown,
    `To review and trust it: run \`pml trust\` in ${workspace} (\`pml trust --yes\` in scripts).`,
  ].join("\n");
}
