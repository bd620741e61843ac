// Every way a request to a remote MCP server can fail, as a message a user can act on; and the
// three failures RemoteServers handles itself (a forgotten session, a sign-in during connect or
// during a request).
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { formatMs } from "../duration.ts";
import { ToolError } from "../mcp/tool-result.ts";
import type { RemoteAuth } from "./oauth.ts";

/** A session-level 404: the server no longer knows our Mcp-Session-Id. */
export class SessionExpired extends Error {}
/** The user signed in while pml was connecting: the connection is opened again with the tokens. */
export class SignedIn extends Error {}
/** A request of an open session was refused (HTTP 401, or 403 asking for more scope) and a
 * sign-in started: once the user completes it, the request is sent again. */
export class SignInNeeded extends Error {}

/** What a failure message needs to know of the connection it happened on. */
export interface FailedConnection {
  ns: string;
  url: URL;
  transport: StreamableHTTPClientTransport;
  auth?: RemoteAuth;
}

/** The message a user can act on, for any way a request can fail. */
export function remoteFailure(c: FailedConnection, e: unknown, label: string, signal: AbortSignal | undefined, state: { closed: boolean; timeoutMs: number }): Error {
  const where = `remote MCP server ${c.ns} at ${c.url.href}`;
  if (e instanceof ToolError || e instanceof SessionExpired || e instanceof SignInNeeded) return e;
  if (signal?.aborted) return new ToolError(`The call to ${c.ns} (${label}) was cancelled.`);
  if (state.closed) return new ToolError(`pml is shutting down; remote MCP server ${c.ns} was not called.`);
  if (e instanceof StreamableHTTPError) return httpFailure(c, e, label, where);
  if (e instanceof UnauthorizedError && c.auth?.pendingSignIn()) return new SignInNeeded();
  if (e instanceof UnauthorizedError)
    return new ToolError(`${c.url.href} rejected the credentials (HTTP 401); check the headers of '${c.ns}' in .pml.json (and the variables they use).`);
  if (e instanceof McpError) {
    if (e.code === ErrorCode.RequestTimeout) return new ToolError(`${where} did not answer ${label} within ${formatMs(state.timeoutMs)}; pml cancelled the request.`);
    if (e.code === ErrorCode.ConnectionClosed) return new ToolError(`${where} closed the connection before answering ${label}.`);
    return new ToolError(`${where} answered ${label} with an error: ${e.message.replace(/^MCP error -?\d+: /, "")} (code ${e.code})`);
  }
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  if (err?.name === "SyntaxError" || /JSON|Unexpected content type|parse/i.test(err?.message ?? ""))
    return new ToolError(`${where} sent a malformed answer to ${label} (${err.message}).`);
  if (err?.name === "ZodError" || err?.name === "$ZodError") return new ToolError(`${where} sent a malformed result for ${label}.`);
  return new ToolError(`${where} is unreachable (${err?.code ?? err?.cause?.code ?? err?.message ?? String(e)}).`);
}

function httpFailure(c: FailedConnection, e: StreamableHTTPError, label: string, where: string): Error {
  const status = e.code ?? 0;
  if (status <= 0) return new ToolError(`${where} sent a malformed answer to ${label} (${e.message.replace(/^Streamable HTTP error: /, "")}).`);
  if (status === 404 && c.transport.sessionId) return new SessionExpired();
  if (status === 401 || status === 403)
    return new ToolError(`${c.url.href} rejected the credentials (HTTP ${status}); check the headers of '${c.ns}' in .pml.json (and the variables they use).`);
  if (status >= 300 && status < 400)
    return new ToolError(
      `${where} answered with a redirect (HTTP ${status}); pml follows redirects only on the same host, so your headers never go elsewhere. Set its "url" to the final address.`,
    );
  const detail = httpDetail(e.message);
  if (status === 404) return new ToolError(`remote MCP server ${c.ns}: ${c.url.href} was not found (HTTP 404)${detail}; check its "url".`);
  return new ToolError(`${where} failed with HTTP ${status}${detail}`);
}

/** The server's text from an SDK HTTP error ("Error POSTing to endpoint: <body>"), shortened. */
function httpDetail(message: string): string {
  const body = message
    .replace(/^Streamable HTTP error: /, "")
    .replace(/^Error POSTing to endpoint:\s*/, "")
    .trim();
  let text = body;
  try {
    const j = JSON.parse(body);
    if (typeof j?.error?.message === "string") text = j.error.message;
  } catch {}
  const t = text.replace(/\s+/g, " ");
  return t ? `: ${t.length > 200 ? `${t.slice(0, 200)}…` : t}` : "";
}

export function stillRefused(ns: string, url: URL): ToolError {
  return new ToolError(`remote MCP server ${ns} at ${url.href} still refuses pml after signing in (HTTP 401/403); check that your account may use it.`);
}
