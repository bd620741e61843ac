// `pml serve`: the same Gateway over MCP Streamable HTTP on a loopback port, both revisions on
// one endpoint. POST carries one JSON-RPC message; a request is answered with JSON, or with an
// SSE stream when something (progress, an elicitation request) must reach the client first.
//
// 2025-11-25 (legacy): `initialize` opens a session (Mcp-Session-Id); GET opens the session's
// stream for server-initiated messages; DELETE ends it. Sessions are capped.
// 2026-07-28 (modern): no session; each request carries its version and capabilities in _meta,
// mirrored in the MCP-Protocol-Version / Mcp-Method / Mcp-Name headers (checked against the
// body), and is served on its own, so replicas behind a load balancer need nothing in common
// but the workspace and the state key. Closing a request's stream cancels it.
//
// Slow bodies and idle connections are cut after the idle timeout; a request whose body has
// been read may then run as long as its tool takes. The transport only routes messages: the
// protocol lives in server.ts. Its parts are in http/: admission (who may call: Host, Origin, the
// bearer token), endpoint (the routes), exchange (one POST's answer), sessions and their GET streams.
import type { Server } from "bun";
import { log } from "../../log.ts";
import { Admission } from "./http/admission.ts";
import type { BearerAuth } from "./http/bearer.ts";
import { MAX_BODY, McpEndpoint } from "./http/endpoint.ts";
import { SessionTable } from "./http/sessions.ts";
import { serveOnSocket } from "./http/unix-socket.ts";
import { httpError, MCP_PATH } from "./http/wire.ts";
import { Gateway } from "../dispatch/server.ts";
import type { ToolHost } from "../dispatch/call.ts";

/** Legacy sessions open at once, by default; beyond it the least recently used idle one goes,
 * else initialize is refused. */
export const DEFAULT_MAX_SESSIONS = 64;
/** Seconds a connection may stay silent (headers or body bytes trickling in, keep-alive idle). */
export const DEFAULT_IDLE_TIMEOUT_S = 15;

export interface HttpServeOptions {
  /** The token every request must carry (Authorization: Bearer), or "none" (`--no-auth`). */
  auth: BearerAuth | "none";
  /** A Unix socket to listen on (owner-only, mode 0600) instead of host:port. */
  socket?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  loadHost?: () => Promise<ToolHost>;
  /** Legacy (initialize) sessions open at once; default 64. */
  maxSessions?: number;
  /** Seconds a slow body or an idle connection is given; default 15. */
  idleTimeoutS?: number;
}

export interface HttpGatewayServer {
  /** e.g. http://127.0.0.1:41234/mcp; on a socket http://localhost/mcp */
  readonly url: string;
  /** 0 on a socket. */
  readonly port: number;
  readonly socket?: string;
  readonly gateway: Gateway;
  sessionCount(): number;
  /** Closes every session and stream, stops listening, shuts the gateway down. */
  stop(): Promise<void>;
}

export function serveHttp(opts: HttpServeOptions): HttpGatewayServer {
  return new StreamableHttpServer(opts);
}

class StreamableHttpServer implements HttpGatewayServer {
  readonly url: string;
  readonly port: number;
  readonly socket?: string;
  readonly gateway: Gateway;
  private readonly server: Server<undefined>;
  private readonly admission: Admission;
  private readonly sessions: SessionTable;
  private readonly endpoint: McpEndpoint;
  private stopping: Promise<void> | undefined;

  constructor(opts: HttpServeOptions) {
    this.gateway = new Gateway(opts.loadHost ?? defaultHost);
    const idleTimeoutS = opts.idleTimeoutS ?? DEFAULT_IDLE_TIMEOUT_S;
    const serveOptions = { maxRequestBodySize: MAX_BODY, fetch: (req: Request) => this.fetch(req) };
    if (opts.socket) {
      this.server = serveOnSocket(opts.socket, serveOptions);
      this.socket = opts.socket;
      this.port = 0;
      this.admission = new Admission({ socket: opts.socket }, opts.auth);
      this.url = `http://localhost${MCP_PATH}`;
    } else {
      const bindHost = opts.host ?? "127.0.0.1";
      // Slow headers/bodies and idle keep-alive connections are cut; requests that are running
      // and GET streams lift it for themselves (server.timeout(req, 0)).
      this.server = Bun.serve({ ...serveOptions, idleTimeout: idleTimeoutS, port: opts.port ?? 0, hostname: bindHost });
      this.port = this.server.port!;
      this.admission = new Admission({ host: bindHost, port: this.port }, opts.auth);
      const shownHost = bindHost === "0.0.0.0" || bindHost === "::" ? "127.0.0.1" : bindHost.includes(":") ? `[${bindHost}]` : bindHost;
      this.url = `http://${shownHost}:${this.port}${MCP_PATH}`;
    }
    this.sessions = new SessionTable(opts.maxSessions ?? DEFAULT_MAX_SESSIONS);
    this.endpoint = new McpEndpoint(this.gateway, this.sessions, idleTimeoutS, (req) => this.server.timeout(req, 0));
  }

  sessionCount(): number {
    return this.sessions.size;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.sessions.closeAll();
      this.server.stop(true);
      await this.gateway.shutdown();
    })();
    return this.stopping;
  }

  private async fetch(req: Request): Promise<Response> {
    // Every request is accepted or refused here, before anything of it is read.
    const refused = this.admission.refusal(req);
    if (refused) return refused;
    try {
      switch (req.method) {
        case "POST":
          return await this.endpoint.post(req);
        case "GET":
          return this.endpoint.get(req);
        case "DELETE":
          return this.endpoint.delete(req);
        default:
          return httpError(405, "Method Not Allowed: use POST, GET or DELETE", { allow: "POST, GET, DELETE" });
      }
    } catch (e) {
      log.error("http:", e);
      return httpError(500, `Internal error: ${(e as Error)?.message ?? e}`);
    }
  }
}

async function defaultHost(): Promise<ToolHost> {
  const { createToolHost } = await import("../tool-host.ts");
  return createToolHost({ transport: "http" });
}
