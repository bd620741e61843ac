// Where a remote MCP server is and what pml sends it: the endpoint URL (headers may carry keys, so
// plain http only to loopback) and the headers the environment plan granted.
import type { EnvPlan } from "../env/env-resolver.ts";
import { missingMessage } from "../env/env-text.ts";
import { isHeaderSafe } from "../http/header-value.ts";
import { isLoopbackHost } from "../http/secure-url.ts";
import { ToolError } from "../mcp/tool-result.ts";

/** The endpoint URL, or a ToolError: headers may carry keys, so plain http only to loopback. */
export function remoteUrl(ns: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolError(`remote MCP server '${ns}': ${JSON.stringify(raw)} is not a URL; set its "url" to https://host/path.`);
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname))) return url;
  if (url.protocol === "http:")
    throw new ToolError(
      `Refusing to connect to remote MCP server '${ns}' at ${url.href}: plain http is allowed only for localhost/127.0.0.1/::1. Use https://${url.host}${url.pathname}.`,
    );
  throw new ToolError(`remote MCP server '${ns}' at ${url.href}: only https:// URLs (or http:// on localhost) are supported.`);
}

/** The headers the environment resolver granted a remote server (`${VAR}` / `${VAR:-default}`
 * filled): a variable set nowhere is a ToolError naming it, and so is a value that could smuggle
 * another header. */
export function grantedHeaders(ns: string, plan: EnvPlan, workspace: string): Record<string, string> {
  if (plan.missing.length) throw new ToolError(missingMessage(plan, `remote MCP server '${ns}' (${plan.request.destination})`, workspace));
  for (const [header, value] of Object.entries(plan.headers))
    if (!isHeaderSafe(value))
      throw new ToolError(`the header ${header} of remote MCP server '${ns}' contains a line break or control character; fix the value (or the variable it uses).`);
  return plan.headers;
}
