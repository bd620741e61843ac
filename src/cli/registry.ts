// `pml registry serve (--data DIR | --database URL) [--port N] [--host 127.0.0.1] [--max-age 60] [--cache-mb 256] [--api-key K]... [--api-keys-file F]`
import { defineCommand } from "citty";
import { log } from "../log.ts";

function fail(message: string): never {
  log.error(message);
  process.exit(1);
}

const serve = defineCommand({
  meta: {
    name: "serve",
    description: "Serve a registry (/mcp, /mcp/{fqdn}, POST /mcp/capabilities, POST /mcp/tools/call) from a directory or a database",
  },
  args: {
    data: { type: "string", description: "Directory holding <fqdn>.ts (modules) and <fqdn>.json (descriptors); read-only" },
    database: { type: "string", description: "Store published capabilities in postgres://user@host:5432/db (several replicas may share it) or sqlite:PATH" },
    port: { type: "string", description: "Port (0: any free port)", default: "4873" },
    host: { type: "string", description: "Interface to listen on", default: "127.0.0.1" },
    "max-age": { type: "string", description: "Cache-Control max-age in seconds for entries", default: "60" },
    "cache-mb": {
      type: "string",
      description: "With --database: keep fetched capabilities in memory, up to this many MB (0: every fetch reads the database); replicas hear of every change at once",
      default: "256",
    },
    "api-key": { type: "string", description: "A PML API key accepted by POST /mcp/tools/call (repeatable; no identity)" },
    "api-keys-file": { type: "string", description: 'Accepted keys: JSON {"keys": [{"key", "org", "user"}]}, or one key per line (# comments)' },
  },
  async run({ args, rawArgs }) {
    const port = Number(args.port);
    const maxAgeS = Number(args["max-age"]);
    if (!/^\d+$/.test(args.port) || port > 65535) fail(`--port ${args.port}: expected an integer from 0 to 65535`);
    if (!/^\d+$/.test(args["max-age"])) fail(`--max-age ${args["max-age"]}: expected a whole number of seconds >= 0`);
    if (!/^\d{1,7}$/.test(args["cache-mb"])) fail(`--cache-mb ${args["cache-mb"]}: expected a whole number of megabytes >= 0 (0 turns the cache off)`);
    if (!args.data && !args.database)
      fail("say what to serve: --data DIR (a directory of modules and descriptors) or --database postgres://…|sqlite:PATH (published capabilities)");
    if (args.data && args.database) fail("--data and --database are two different stores: give one of them");
    const { startRegistryServer, openFileStore } = await import("../registry-server/serve.ts");
    const { toolsCallRoute } = await import("../registry-server/tools-call.ts");
    const { apiKeyFlags, loadApiKeys } = await import("../registry-server/api-keys.ts");
    let server;
    let store: import("../registry-server/store.ts").RegistryStore | undefined;
    try {
      const apiKeys = await loadApiKeys(apiKeyFlags(rawArgs), args["api-keys-file"] || undefined);
      if (!apiKeys.size) log.info("no --api-key/--api-keys-file: POST /mcp/tools/call and POST /mcp/capabilities refuse every call");
      if (args.database) {
        const { DatabaseStore } = await import("../registry-server/database-store.ts");
        store = await DatabaseStore.open(args.database, { cacheBytes: Number(args["cache-mb"]) * 1024 * 1024 });
      } else store = openFileStore(args.data!);
      // The cloud endpoint (POST /mcp/tools/call) runs modules from the same store.
      server = startRegistryServer({ store, port, hostname: args.host, maxAgeS, apiKeys, extraRoutes: [toolsCallRoute({ store, apiKeys })] });
    } catch (e) {
      await store?.close?.();
      fail((e as Error).message);
    }
    const opened = store!;
    log.info(`registry listening on ${server.url} (${opened.label})`);
    await new Promise<void>((done) => {
      const stop = () => {
        void server
          .stop()
          .then(() => opened.close?.())
          .finally(done);
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
