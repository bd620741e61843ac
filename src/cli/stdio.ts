import { defineCommand } from "citty";

export default defineCommand({
  meta: {
    name: "stdio",
    description: "Run the MCP server on stdin/stdout (what Claude Code launches; see `pml init`)",
  },
  async run() {
    const { serveStdio } = await import("../gateway/transports/stdio.ts");
    serveStdio();
    await new Promise(() => {}); // serve until stdin closes or a signal arrives
  },
});
