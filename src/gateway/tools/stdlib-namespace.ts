// A namespace of pml's standard library (dns, meta, learn): tools declared with defineTool whose
// results are JSON, reached through the invoker like any tool.
import type { Workspace } from "../../config/workspace.ts";
import type { Memory, MemorySettings } from "../../memory/memory.ts";
import { textResult, ToolError, type CallContext } from "../../mcp/tool-result.ts";
import type { CallToolResult, ToolInfo } from "../../mcp/types.ts";
import type { Project } from "../../policy/project.ts";
import type { Backends, InProcessNamespace } from "../dispatch/backends.ts";
import type { Session } from "../../mcp/session.ts";
import type { Tool } from "./define-tool.ts";

/** What the standard library's tools use: memory's records, the project (its settings, trust,
 * team registry), the workspace, and of the backends only what dns and meta read. */
export interface StdlibDeps {
  workspace: Workspace;
  project: Project;
  memory: Memory;
  /** dns:lookup of a server, dns:deprecate's replacement, meta:tools and meta:servers. */
  backends: Pick<Backends, "resolve" | "allKnownTools" | "status">;
}

/** What a standard library tool's handler gets besides its arguments. */
export interface StdlibContext {
  deps: StdlibDeps;
  settings: MemorySettings;
  session: Session;
  call: CallContext;
}

type StdlibTool = Tool<StdlibContext, unknown>;

export class StdlibNamespace implements InProcessNamespace {
  /** Its tools check their own arguments (defineTool): the invoker need not check them again. */
  readonly validatesArguments = true;
  private readonly byName: Map<string, StdlibTool>;
  private listed?: ToolInfo[];

  constructor(
    private readonly deps: StdlibDeps,
    readonly name: string,
    readonly description: string,
    private readonly list: StdlibTool[],
  ) {
    this.byName = new Map(list.map((t) => [t.name, t]));
  }

  get tools(): ToolInfo[] {
    this.listed ??= this.list.map((t) => t.info);
    return this.listed;
  }

  async run(session: Session, action: string, args: Record<string, unknown>, call: CallContext): Promise<CallToolResult> {
    const tool = this.byName.get(action);
    if (!tool) throw new ToolError(`There is no tool "${action}" here. Its tools: ${this.list.map((t) => t.name).join(", ")}.`);
    const settings = await this.deps.project.memorySettings();
    const value = await tool.call(args, { deps: this.deps, settings, session, call }, `${this.name}:${action}`);
    return textResult(JSON.stringify(value, null, 2), { structuredContent: value as Record<string, unknown> });
  }
}
