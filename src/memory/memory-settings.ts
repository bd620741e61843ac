// Memory's settings from .pml.json `memory`, and who a change is made by.
import { realpathSync } from "node:fs";
import { userInfo } from "node:os";
import { basename, resolve } from "node:path";
import { COST_LIMIT_DEFAULTS } from "../config/cost-limits.ts";
import type { ProjectConfig } from "../config/pml-json.ts";
import { embeddingsTarget, type EmbeddingsMisconfigured, type EmbeddingsTarget } from "./embeddings-config.ts";
import { scopeLabel } from "./names.ts";
import type { Scope } from "./store.ts";

export interface MemorySettings {
  /** The workspace's own scope: what it reads first and where its runs are kept. */
  scope: Scope;
  capture: boolean;
  strictNamespaces: boolean;
  curateAfter: number;
  curationModel?: string;
  /** How many capabilities tools/list carries; undefined: all of them. */
  listTools?: number;
  /** The embeddings provider discover fuses in (memory.embeddings of a trusted file, else
   * PML_EMBEDDINGS_URL of the environment); undefined when none is configured. */
  embeddings?: EmbeddingsTarget | EmbeddingsMisconfigured;
}

/** memory.list_tools when .pml.json does not say: enough for the capabilities in use, small
 * enough that every client can afford the list. */
export const DEFAULT_LIST_TOOLS = COST_LIMIT_DEFAULTS["memory.list_tools"];

/**
 * `memory.org` / `memory.project` (a repository may set them) only label FQDNs and what is
 * published; the records a workspace sees and writes are its own by its real path (a moved
 * workspace starts a new memory; the user scope is how projects share on purpose).
 */
export function memorySettings(config: ProjectConfig, workspace: string): MemorySettings {
  const m = config.memory ?? {};
  return {
    scope: { org: scopeLabel(m.org ?? "local", "local"), project: scopeLabel(m.project ?? basename(workspace), "project"), owner: workspaceOwner(workspace) },
    capture: m.capture !== false,
    strictNamespaces: m.strict_namespaces === true,
    curateAfter: m.curate_after ?? 10,
    curationModel: m.curation_model,
    listTools: m.list_tools === "all" ? undefined : (m.list_tools ?? DEFAULT_LIST_TOOLS),
    embeddings: embeddingsTarget(config, workspace),
  };
}

const owners = new Map<string, string>();

/** The workspace's identity as an owner of records: its real path (asked once per path). */
export function workspaceOwner(workspace: string): string {
  let owner = owners.get(workspace);
  if (owner === undefined) {
    try {
      owner = realpathSync.native(workspace);
    } catch {
      owner = resolve(workspace);
    }
    owners.set(workspace, owner);
  }
  return owner;
}

/** Who made a change: the OS user (the store is the user's own). */
export function currentUser(): string {
  try {
    return userInfo().username || "local";
  } catch {
    return process.env.USER || "local";
  }
}
