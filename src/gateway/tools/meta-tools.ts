// pml's own tools, always in tools/list: `status`, `discover`, `call`, `execute`, and the two
// that manage learned capabilities. One tool per module under tools/pml/.
import type { InputRequiredResult } from "../../mcp/protocol.ts";
import type { CallToolResult, ToolInfo } from "../../mcp/types.ts";
import type { CallRequest } from "../dispatch/call.ts";
import type { Session } from "../../mcp/session.ts";
import type { MetaDeps, MetaTool } from "./pml/context.ts";
import { status } from "./pml/status.ts";
import { discover } from "./pml/discover.ts";
import { call } from "./pml/call.ts";
import { listCapabilities } from "./pml/list-capabilities.ts";
import { curateCapabilities } from "./pml/curate-capabilities.ts";
import { execute } from "./pml/execute.ts";

type Handler = (session: Session, req: CallRequest) => Promise<CallToolResult | InputRequiredResult>;

const TOOLS: MetaTool[] = [status, discover, call, listCapabilities, curateCapabilities, execute];

export function metaTools(deps: MetaDeps) {
  const byName = new Map<string, Handler>(TOOLS.map((t) => [t.name, (session, req) => t.call(req.arguments, { deps, session, req }, t.name)]));
  return {
    list: (): ToolInfo[] => TOOLS.map((t) => t.info),
    get: (name: string): Handler | undefined => byName.get(name),
  };
}
