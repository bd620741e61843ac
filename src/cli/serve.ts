import { defineCommand } from "citty";

export default defineCommand({
  meta: {
    name: "serve",
    description: "Serve the pml gateway over MCP Streamable HTTP on 127.0.0.1 (for debugging and HTTP clients)",
  },
  args: {
    port: { type: "string", description: "Port to listen on (0 picks a free one)", default: "7331" /* DEFAULT_HTTP_PORT in src/gateway/http.ts */ },
    host: { type: "string", description: "Address to bind; keep it on loopback (there is no authentication)", default: "127.0.0.1" },
    "max-sessions": { type: "string", description: "2025-11-25 sessions open at once (idle ones are ended first)", default: "64" },
    "idle-timeout": { type: "string", description: "Seconds a slow request body or an idle connection is given", default: "15" },
  },
  async run({ args }) {
    const { log } = await import("../log.ts");
    const fail = (message: string): never => {
      log.error(message);
      process.exit(1);
    };
    const port = Number(args.port);
    if (!/^\d+$/.test(args.port) || port > 65535) fail(`--port ${args.port}: expected an integer from 0 to 65535`);
    const maxSessions = Number(args["max-sessions"]);
    if (!/^\d+$/.test(args["max-sessions"]) || maxSessions < 1) fail(`--max-sessions ${args["max-sessions"]}: expected a positive integer`);
    const idleTimeoutS = Number(args["idle-timeout"]);
    if (!/^\d+$/.test(args["idle-timeout"]) || idleTimeoutS < 1 || idleTimeoutS > 255) fail(`--idle-timeout ${args["idle-timeout"]}: expected seconds from 1 to 255`);
    const { serveHttp } = await import("../gateway/http.ts");
    const { isLoopbackHost } = await import("../http/secure-url.ts");
    if (!isLoopbackHost(args.host))
      log.warn(`binding ${args.host}: pml serve has no authentication; only Host headers naming 127.0.0.1/localhost/${args.host} are accepted.`);
    let server;
    try {
      server = serveHttp({ port, host: args.host, maxSessions, idleTimeoutS });
    } catch (e: any) {
      const why = e?.code === "EADDRINUSE" ? `port ${port} is in use; pick another with --port N (or --port 0 for any free port)` : (e?.message ?? String(e));
      return fail(`pml serve could not listen on ${args.host}:${port}: ${why}`);
    }
    // Tests and scripts read this line for the actual port.
    process.stderr.write(`pml serve listening on ${server.url}\n`);
    void server.gateway.warm().catch((e) => log.error(`pml could not start: ${(e as Error).message}`));

    let closing = false;
    const stop = async (why: string) => {
      if (closing) return;
      closing = true;
      log.debug(`shutting down (${why})`);
      const force = setTimeout(() => process.exit(0), 5000);
      await server.stop().catch((e) => log.error("shutdown:", e));
      clearTimeout(force);
      process.exit(0);
    };
    for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(sig, () => void stop(sig));
    await new Promise(() => {});
  },
});
