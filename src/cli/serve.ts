import { resolve } from "node:path";
import { defineCommand } from "citty";
import type { BearerAuth } from "../gateway/transports/http/bearer.ts";

export default defineCommand({
  meta: {
    name: "serve",
    description: "Serve the pml gateway over MCP Streamable HTTP on 127.0.0.1 (for debugging and HTTP clients)",
  },
  args: {
    port: { type: "string", description: "Port to listen on (0 picks a free one)", default: "7331" },
    host: { type: "string", description: "Address to bind; keep it on loopback (the token travels in clear over plain HTTP)", default: "127.0.0.1" },
    "max-sessions": { type: "string", description: "2025-11-25 sessions open at once (idle ones are ended first)", default: "64" },
    "idle-timeout": { type: "string", description: "Seconds a slow request body or an idle connection is given", default: "15" },
    auth: {
      type: "boolean",
      description: "Ask every caller for your token: Authorization: Bearer (PML_SERVE_TOKEN, else $PML_HOME/serve.token)",
      negativeDescription: "Serve anyone who reaches the port, without a token (loopback only; warned)",
      default: true,
    },
    "print-token": { type: "boolean", description: "Print the token to stdout (creating $PML_HOME/serve.token if needed) and exit" },
    socket: { type: "string", description: "Listen on this Unix socket instead of --host/--port: mode 0600, so only you can connect, with no token" },
  },
  async run({ args }) {
    const { log } = await import("../log.ts");
    const fail = (message: string): never => {
      log.error(message);
      process.exit(1);
    };
    const { loadServeToken } = await import("../config/serve-token.ts");
    if (args["print-token"]) {
      process.stdout.write(`${loadServeToken().token}\n`);
      return;
    }
    const port = Number(args.port);
    if (!/^\d+$/.test(args.port) || port > 65535) fail(`--port ${args.port}: expected an integer from 0 to 65535`);
    const maxSessions = Number(args["max-sessions"]);
    if (!/^\d+$/.test(args["max-sessions"]) || maxSessions < 1) fail(`--max-sessions ${args["max-sessions"]}: expected a positive integer`);
    const idleTimeoutS = Number(args["idle-timeout"]);
    if (!/^\d+$/.test(args["idle-timeout"]) || idleTimeoutS < 1 || idleTimeoutS > 255) fail(`--idle-timeout ${args["idle-timeout"]}: expected seconds from 1 to 255`);
    const socket = args.socket ? resolve(args.socket) : undefined;
    if (socket) await (await import("../gateway/transports/http/unix-socket.ts")).clearStaleSocket(socket);
    // On a socket its mode keeps other users out; a token would add nothing.
    const auth = socket ? "none" : await callerAuth(args.auth !== false, args.host, fail);
    const { serveHttp } = await import("../gateway/transports/http.ts");
    let server;
    try {
      server = serveHttp({ port, host: args.host, socket, maxSessions, idleTimeoutS, auth });
    } catch (e: any) {
      const why = e?.code === "EADDRINUSE" ? `port ${port} is in use; pick another with --port N (or --port 0 for any free port)` : (e?.message ?? String(e));
      return fail(`pml serve could not listen on ${socket ?? `${args.host}:${port}`}: ${why}`);
    }
    // Tests and scripts read the first line for the actual port.
    process.stderr.write(`pml serve listening on ${socket ? `unix:${socket}` : server.url}\n${howToConnect(server.url, socket, auth)}`);
    if (auth === "none" && !socket) warnNoAuth(server.url);
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

/** What callers must show: this user's token, or nothing with --no-auth (loopback only). */
async function callerAuth(required: boolean, host: string, fail: (message: string) => never): Promise<BearerAuth | "none"> {
  const { isLoopbackHost } = await import("../http/secure-url.ts");
  const { log } = await import("../log.ts");
  const loopback = isLoopbackHost(host);
  if (!required) {
    if (!loopback) fail(`--no-auth with --host ${host}: anyone on the network could run tools as you; --no-auth is only allowed on 127.0.0.1, ::1 or localhost.`);
    return "none";
  }
  if (!loopback)
    log.warn(
      `binding ${host}: the token travels in clear over plain HTTP; put pml serve behind a TLS proxy, and only Host headers naming 127.0.0.1/localhost/${host} are accepted.`,
    );
  const { loadServeToken, serveTokenWhere } = await import("../config/serve-token.ts");
  const token = loadServeToken();
  if (token.created) process.stderr.write(`pml serve: created ${token.path} (mode 0600): the token clients must send.\n`);
  return { token: token.token, where: serveTokenWhere(token) };
}

/** The line after the URL: what a client must do to be served. */
function howToConnect(url: string, socket: string | undefined, auth: BearerAuth | "none"): string {
  if (socket) return `pml serve: only your user can connect (mode 0600), no token needed; e.g. curl --unix-socket ${socket} ${url}\n`;
  return auth === "none" ? "" : `pml serve: every request needs \`Authorization: Bearer <token>\`; ${auth.where}\n`;
}

/** Always printed, whatever PML_LOG says: nothing stands between other users and the tools. */
function warnNoAuth(url: string): void {
  const bar = "!".repeat(78);
  process.stderr.write(
    `${bar}\n` +
      `pml serve: WARNING: --no-auth: NO AUTHENTICATION.\n` +
      `Any local user or process that can reach ${url} (other accounts on this machine, containers,\n` +
      `anything you run) can call every tool pml can, as you: run commands, read and write your files.\n` +
      `Use it only on a machine no one else uses; without --no-auth pml serve asks for your token.\n` +
      `${bar}\n`,
  );
}
