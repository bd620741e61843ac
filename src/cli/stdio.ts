import { defineCommand } from "citty";

export default defineCommand({
  meta: { name: "stdio", description: "Run the MCP server on stdin/stdout (what Claude Code launches)" },
  async run() {
    const { serveStdio } = await import("../gateway/stdio.ts");
    await serveStdio();
  },
});
