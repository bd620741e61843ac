// Whether a request may reach the MCP endpoint at all, decided before anything is read or
// dispatched: the one place `pml serve` accepts or refuses a caller. The endpoint, then the Host
// and Origin (a web page must not reach it), then the caller's token (another local user must not).
import { BearerCheck, type BearerAuth } from "./bearer.ts";
import { httpError, MCP_PATH } from "./wire.ts";

/** Loopback Origin values a local tool (inspector, browser devtool) may send; any port. */
const LOCAL_ORIGIN = /^https?:\/\/(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])(:\d+)?$/i;

export class Admission {
  /** Undefined on a Unix socket, which no web page can reach whatever its name resolves to. */
  private readonly allowedHosts: Set<string> | undefined;
  private readonly bearer: BearerCheck | undefined;

  /** `auth` "none" is `pml serve --no-auth` or a socket: any caller that passes the other checks is served. */
  constructor(listening: { host: string; port: number } | { socket: string }, auth: BearerAuth | "none") {
    if ("host" in listening) {
      const { host, port } = listening;
      this.allowedHosts = new Set(["127.0.0.1", "localhost", "[::1]", host.includes(":") && !host.startsWith("[") ? `[${host}]` : host].map((h) => `${h.toLowerCase()}:${port}`));
    }
    this.bearer = auth === "none" ? undefined : new BearerCheck(auth);
  }

  /** The answer that refuses `req`, or undefined when it may be dispatched. */
  refusal(req: Request): Response | undefined {
    const url = new URL(req.url);
    if (url.pathname !== MCP_PATH) return httpError(404, `Not Found: the MCP endpoint is ${MCP_PATH}`);
    // DNS rebinding: a page on evil.example resolving to 127.0.0.1 still sends Host: evil.example.
    const host = (req.headers.get("host") ?? "").toLowerCase();
    if (this.allowedHosts && !this.allowedHosts.has(host)) return httpError(403, `Forbidden: Host ${JSON.stringify(host)} is not this server (use ${[...this.allowedHosts][0]})`);
    const origin = req.headers.get("origin");
    if (origin && !LOCAL_ORIGIN.test(origin)) return httpError(403, `Forbidden: Origin ${origin} is not allowed (only local origins may call pml)`);
    return this.bearer?.refusal(req);
  }
}
