// What every view of the page reads from: this workspace, its .pml.json as pml applies it, the
// user's memory store, and $PML_HOME where running sessions publish themselves.
import { join } from "node:path";
import type { Workspace } from "../config/workspace.ts";
import { Memory } from "../memory/memory.ts";
import { Project } from "../policy/project.ts";

export interface UiContext {
  workspace: Workspace;
  home: string;
  project: Project;
  memory: Memory;
}

export function uiContext(workspace: Workspace, home: string): UiContext {
  return { workspace, home, project: new Project(workspace.root), memory: new Memory(join(home, "memory.db")) };
}
