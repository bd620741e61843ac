// meta:servers: the MCP servers installed, running in the pool, and remote sessions.
import { defineTool } from "../define-tool.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";

export const servers = defineTool({
  name: "servers",
  description: "MCP servers: installed, running in the pool, remote sessions.",
  args: {},
  async run(_args, { deps }: StdlibContext) {
    return deps.backends.status();
  },
});
