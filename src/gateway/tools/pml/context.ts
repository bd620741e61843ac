// What pml's own tools (status, discover, call, ...) get besides their arguments.
import type { Workspace } from "../../../config/workspace.ts";
import type { InputRequiredResult } from "../../../mcp/protocol.ts";
import { textResult } from "../../../mcp/tool-result.ts";
import type { CallToolResult } from "../../../mcp/types.ts";
import type { Memory } from "../../../memory/memory.ts";
import type { Project } from "../../../policy/project.ts";
import type { Backends } from "../../dispatch/backends.ts";
import type { CallRequest } from "../../dispatch/call.ts";
import type { Invoker } from "../../dispatch/invoke.ts";
import type { Surface } from "../../dispatch/surface.ts";
import type { Session } from "../../../mcp/session.ts";
import type { UseLearning } from "../learn-from-use.ts";
import type { Tool } from "../define-tool.ts";

/** What pml's own tools (this folder) use of the parts: of dispatch, only what they call (the
 * standard library's are StdlibDeps, the `cap` namespace's CapabilityDeps). */
export interface MetaDeps {
  workspace: Workspace;
  project: Project;
  memory: Memory;
  /** status, discover; execute's sandbox limits. */
  backends: Pick<Backends, "status" | "discover" | "allKnownTools" | "servesInProcess" | "holds" | "sandboxLimits">;
  /** status and discover say which namespaces tools/list shows. */
  surface: Pick<Surface, "enabledNamespaces">;
  /** call and execute call tools through it; discover starts a server to list its tools. */
  invoker: Pick<Invoker, "invoke" | "call" | "asker" | "workflowTool" | "startToList">;
  /** discover tells it what was asked, execute what was saved. */
  learning: Pick<UseLearning, "discovered" | "wrote">;
}

export interface MetaContext {
  deps: MetaDeps;
  session: Session;
  /** The client's call as it came (execute binds its retries to these exact arguments). */
  req: CallRequest;
}

export type MetaTool = Tool<MetaContext, CallToolResult | InputRequiredResult>;

export function jsonResult(value: unknown): CallToolResult {
  return textResult(JSON.stringify(value, null, 2));
}
