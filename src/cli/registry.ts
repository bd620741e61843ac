// `pml registry serve --data <dir> [--port N] [--host 127.0.0.1] [--max-age 60]`
import { defineCommand } from "citty";
import { log } from "../log.ts";

function fail(message: string): never {
  log.error(message);
  process.exit(1);
}

const serve = defineCommand({
  meta: { name: "serve", description: "Serve a registry (/mcp, /mcp/{fqdn}) from a directory of <name>.ts and <name>.json files" },
  args: {
    data: { type: "string", description: "Directory holding <fqdn>.ts (modules) and <fqdn>.json (descriptors)", required: true },
    port: { type: "string", description: "Port (0: any free port)", default: "4873" },
    host: { type: "string", description: "Interface to listen on", default: "127.0.0.1" },
    "max-age": { type: "string", description: "Cache-Control max-age in seconds for entries", default: "60" },
    "api-key": { type: "string", description: "A PML API key accepted by POST /mcp/tools/call (repeatable)" },
    "api-keys-file": { type: "string", description: "File of accepted PML API keys, one per line (# comments)" },
  },
  async run({ args, rawArgs }) {
    const { startRegistryServer } = await import("../server/serve.ts");
    const port = Number(args.port);
    const maxAgeS = Number(args["max-age"]);
    if (!/^\d+$/.test(args.port) || port > 65535) fail(`--port ${args.port}: expected an integer from 0 to 65535`);
    if (!/^\d+$/.test(args["max-age"])) fail(`--max-age ${args["max-age"]}: expected a whole number of seconds >= 0`);
    let server;
    try {
      // The cloud endpoint (POST /mcp/tools/call) runs modules from the same data directory.
      const { openFileStore } = await import("../server/serve.ts");
      const { apiKeyFlags, loadApiKeys, toolsCallRoute } = await import("../server/tools-call.ts");
      const store = openFileStore(args.data);
      const apiKeys = await loadApiKeys(apiKeyFlags(rawArgs), args["api-keys-file"] || undefined);
      if (!apiKeys.size) log.info("no --api-key/--api-keys-file: POST /mcp/tools/call refuses every call");
      server = startRegistryServer({ store, port, hostname: args.host, maxAgeS, extraRoutes: [toolsCallRoute({ store, apiKeys })] });
    } catch (e) {
      fail((e as Error).message);
    }
    log.info(`registry listening on ${server.url} (data: ${args.data})`);
    await new Promise<void>((done) => {
      const stop = () => {
        void server.stop().finally(done);
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
  },
});

export default defineCommand({
  meta: { name: "registry", description: "Run a self-hosted pml registry" },
  subCommands: { serve },
});
