// Whether a request may reach the MCP endpoint at all, decided before anything is read or
// dispatched: the one place `pml serve` accepts or refuses a caller. The endpoint, then the Host
// and Origin (a web page must not reach it), then the caller's token (another local user must not).
import { BearerCheck, type BearerAuth } from "./bearer.ts";
import { hostRefusal, loopbackHosts, originRefusal } from "./loopback.ts";
import { httpError, MCP_PATH } from "./wire.ts";

export class Admission {
  /** Undefined on a Unix socket, which no web page can reach whatever its name resolves to. */
  private readonly allowedHosts: Set<string> | undefined;
  private readonly bearer: BearerCheck | undefined;

  /** `auth` "none" is `pml serve --no-auth` or a socket: any caller that passes the other checks is served. */
  constructor(listening: { host: string; port: number } | { socket: string }, auth: BearerAuth | "none") {
    if ("host" in listening) this.allowedHosts = loopbackHosts(listening.host, listening.port);
    this.bearer = auth === "none" ? undefined : new BearerCheck(auth);
  }

  /** The answer that refuses `req`, or undefined when it may be dispatched. */
  refusal(req: Request): Response | undefined {
    const url = new URL(req.url);
    if (url.pathname !== MCP_PATH) return httpError(404, `Not Found: the MCP endpoint is ${MCP_PATH}`);
    return (this.allowedHosts && hostRefusal(req, this.allowedHosts)) || originRefusal(req) || this.bearer?.refusal(req);
  }
}
