// The project as the gateway sees it: workspace and .pml.json, reread when the file changes so
// the user's file stays the only source of truth (an edit applies on the next call).
import { statSync } from "node:fs";
import { join } from "node:path";
import { loadProjectConfig, type ProjectConfig } from "../config/pml-json.ts";
import { log } from "../log.ts";

export interface ProjectState {
  config: ProjectConfig;
  path: string;
  exists: boolean;
  /** Set when .pml.json could not be read: tools other than pml's own refuse to run until fixed. */
  error?: string;
  /** Bumped on every reload, so derived state (resolver) knows to rebuild. */
  generation: number;
}

export class Project {
  private state!: ProjectState;
  private stamp = "";

  constructor(readonly workspace: string) {}

  async get(): Promise<ProjectState> {
    const stamp = this.currentStamp();
    if (!this.state || stamp !== this.stamp) await this.reload(stamp);
    return this.state;
  }

  private currentStamp(): string {
    try {
      const s = statSync(join(this.workspace, ".pml.json"));
      return `${s.mtimeMs}:${s.size}:${s.ino}`;
    } catch {
      return "missing";
    }
  }

  private async reload(stamp: string): Promise<void> {
    this.stamp = stamp;
    const generation = (this.state?.generation ?? 0) + 1;
    try {
      const loaded = await loadProjectConfig(this.workspace);
      this.state = { config: loaded.config, path: loaded.path, exists: loaded.exists, generation };
    } catch (e) {
      const error = (e as Error).message;
      log.error(error);
      this.state = { config: this.state?.config ?? ({} as ProjectConfig), path: join(this.workspace, ".pml.json"), exists: true, error, generation };
    }
  }
}
