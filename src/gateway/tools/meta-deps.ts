// What pml's own tools are built from. Each part that uses them names the few it needs
// (`Pick<MetaDeps, ...>`, or a narrower interface of one of them): the whole set is handed only
// to the list of tools (meta-tools.ts), which passes it on.
import type { Workspace } from "../../config/workspace.ts";
import type { Memory } from "../../memory/memory.ts";
import type { Project } from "../../policy/project.ts";
import type { Backends } from "../dispatch/backends.ts";
import type { Invoker } from "../dispatch/invoke.ts";
import type { UseLearning } from "./learn-from-use.ts";
import type { Surface } from "../dispatch/surface.ts";

export interface MetaDeps {
  workspace: Workspace;
  project: Project;
  backends: Backends;
  surface: Surface;
  invoker: Invoker;
  memory: Memory;
  learning: UseLearning;
}
