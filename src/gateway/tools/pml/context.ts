// What pml's own tools (status, discover, call, ...) get besides their arguments.
import type { InputRequiredResult } from "../../../mcp/protocol.ts";
import { textResult } from "../../../mcp/tool-result.ts";
import type { CallToolResult } from "../../../mcp/types.ts";
import type { MetaDeps } from "../meta-deps.ts";
import type { CallRequest } from "../../dispatch/call.ts";
import type { Session } from "../../../mcp/session.ts";
import type { Tool } from "../define-tool.ts";

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
