// MCP's shared message types, from the SDK as type-only imports (erased at build time: no
// start-up cost, and the SDK stays the one definition of the wire shapes). 2026-07-28 shapes the
// SDK does not have yet live in protocol.ts.
import type { CallToolResult as SdkCallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";

/** A tools/call result; pml adds its own fields (approval_required...) beside MCP's. */
export type CallToolResult = SdkCallToolResult;

/** A tool as its server lists it; the action name has no namespace ("create_entities"). Its
 * schemas are any JSON Schema (2026-07-28 allows every 2020-12 keyword), not only the SDK's shape. */
export type ToolInfo = Pick<Tool, "name" | "description" | "annotations" | "title"> & {
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
};
