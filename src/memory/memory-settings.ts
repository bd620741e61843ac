// Memory's settings from .pml.json `memory`, and who a change is made by.
import { userInfo } from "node:os";
import { basename } from "node:path";
import type { ProjectConfig } from "../config/pml-json.ts";
import { scopeLabel } from "./names.ts";
import type { Scope } from "./store.ts";

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
