// Cloud-routed tools: one JSON-RPC `tools/call` POSTed to `{cloud.url}/mcp/tools/call`, carrying
// the user's PML_API_KEY and the BYOK keys the tool declares. The keys live only in memory for the
// length of the request: nothing here logs or writes them.
//
// Wire contract (src/registry-server/tools-call.ts reads the same):
//   POST {cloud.url}/mcp/tools/call
//   Authorization: Bearer <PML_API_KEY>
//   X-PML-Env-<NAME>: <value>      one per env_required name the user granted (BYOK; src/env/env-resolver.ts)
//   Content-Type: application/json
//   {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ns:action","arguments":{...}}}
// and the answer is a JSON-RPC response whose result is an MCP CallToolResult.
import { createParser } from "eventsource-parser";
import { isHeaderSafe } from "../http/header-value.ts";
import { HttpError, httpRequest, type HttpResponse } from "../http/request.ts";
import { cloudKeyMissing } from "./missing-key.ts";
import type { ProjectConfig } from "../config/pml-json.ts";
import { isLoopbackHost } from "../http/secure-url.ts";
import type { EnvPlan } from "../env/env-resolver.ts";
import { cloudKey, type EnvSource } from "../config/settings.ts";
import { COST_LIMIT_DEFAULTS } from "../config/cost-limits.ts";
import { ToolError } from "../mcp/tool-result.ts";
import type { CallToolResult } from "../mcp/types.ts";

export const BYOK_HEADER_PREFIX = "X-PML-Env-";
export const CLOUD_TOOLS_CALL_PATH = "/mcp/tools/call";
export const DEFAULT_CLOUD_TIMEOUT_MS = COST_LIMIT_DEFAULTS["cloud.timeout_s"] * 1000;

export interface CloudCallOptions {
  ns: string;
  action: string;
  args: Record<string, unknown>;
  config: ProjectConfig;
  workspace: string;
  signal: AbortSignal;
  /** Where PML_API_KEY is looked up before the workspace .env; default process.env. */
  env?: EnvSource;
  /** The environment resolver's plan for this call: its values are the BYOK keys sent. Required:
   * no caller gets a grant by forgetting it. */
  plan: EnvPlan;
  /** Overrides .pml.json `cloud.timeout_s` (default 30 s). */
  timeoutMs?: number;
}

/** The endpoint for a cloud URL, or a ToolError saying why keys cannot be sent there. */
export function cloudEndpoint(cloudUrl: string | undefined, workspace: string): URL {
  if (!cloudUrl)
    throw new ToolError(
      `This tool runs in the pml cloud, but no cloud endpoint is configured. Add "cloud": {"url": "https://<your pml cloud>"} ` +
        `to ${workspace}/.pml.json (a \`pml registry serve\` URL works too).`,
    );
  let url: URL;
  try {
    url = new URL(cloudUrl);
  } catch {
    throw new ToolError(`.pml.json "cloud.url" is not a URL: ${JSON.stringify(cloudUrl)}. Use https://host[:port].`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname)))
    throw new ToolError(
      `Refusing to send API keys to ${url.origin}: .pml.json "cloud.url" must use https (plain http is allowed only for ` +
        "localhost/127.0.0.1/::1). Change it to https://" +
        url.host +
        ".",
    );
  if (url.username || url.password) throw new ToolError('.pml.json "cloud.url" must not contain a user name or password; PML_API_KEY is sent as a Bearer token.');
  url.pathname = url.pathname.replace(/\/+$/, "") + CLOUD_TOOLS_CALL_PATH;
  url.search = "";
  url.hash = "";
  return url;
}

export async function callCloud(opts: CloudCallOptions): Promise<CallToolResult> {
  const { ns, action, workspace, plan } = opts;
  const tool = `${ns}:${action}`;
  const apiKey = cloudKey({ env: opts.env, workspace });
  if (!apiKey) throw new ToolError(cloudKeyMissing(tool, workspace));
  const endpoint = cloudEndpoint(opts.config.cloud?.url, workspace);

  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization: `Bearer ${apiKey}`,
  };
  for (const [name, value] of Object.entries(plan.values)) {
    if (!isHeaderSafe(value))
      throw new ToolError(`${name} contains a line break or control character, so it cannot be sent; fix its value in the environment or ${workspace}/.env.`);
    headers[`${BYOK_HEADER_PREFIX}${name}`] = value;
  }
  const missing = plan.missing;
  if (missing.length)
    throw new ToolError(
      `${tool} needs ${missing.join(", ")} (your own key${missing.length > 1 ? "s" : ""}, sent only to ${endpoint.origin} for this call). ` +
        `Set ${missing.length > 1 ? "them" : "it"} in ${workspace}/.env (${missing[0]}=...) or in the "env" of the pml server in .mcp.json, then call again.`,
    );
  if (!isHeaderSafe(apiKey)) throw new ToolError("PML_API_KEY contains a line break or control character; fix its value.");

  const timeoutMs = opts.timeoutMs ?? ((opts.config.cloud as { timeout_s?: number } | undefined)?.timeout_s ?? DEFAULT_CLOUD_TIMEOUT_MS / 1000) * 1000;
  const id = 1;
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: opts.args } });

  let res: HttpResponse;
  let text: string;
  try {
    // Redirects refused: one would carry the BYOK headers to a host nobody configured.
    res = await httpRequest(endpoint.href, { method: "POST", headers, body, signal: opts.signal, timeoutMs, what: "cloud endpoint", redirects: "refuse" });
    if (res.status === 401 || res.status === 403) {
      await res.cancel();
      throw new ToolError(`PML_API_KEY was rejected by ${endpoint.origin} (HTTP ${res.status}). Check the key (workspace .env or the env of .mcp.json), or ask for a new one.`);
    }
    text = await res.text();
  } catch (e) {
    if (e instanceof ToolError) throw e;
    throw new ToolError(failureText(e, endpoint, opts.signal, timeoutMs));
  }
  const message = parseBody(text, res.headers.get("content-type") ?? "", id);
  if (!res.ok && !message?.error) throw new ToolError(`cloud endpoint ${endpoint.href} failed with HTTP ${res.status}${snippet(text)}.`);
  if (!message) throw new ToolError(`cloud endpoint ${endpoint.href} sent a malformed answer (not a JSON-RPC response)${snippet(text)}.`);
  if (message.error) {
    const err = message.error as { code?: number; message?: string };
    throw new ToolError(`cloud error from ${endpoint.origin} for ${tool}: ${err.message ?? JSON.stringify(err)}${err.code !== undefined ? ` (code ${err.code})` : ""}`);
  }
  return toCallToolResult(message.result, endpoint);
}

function failureText(e: unknown, endpoint: URL, callSignal: AbortSignal, timeoutMs: number): string {
  if (callSignal.aborted) return `cloud call cancelled (${reasonOf(callSignal.reason) ?? "cancelled by the client"})`;
  if (e instanceof HttpError && e.kind === "timeout") return `cloud unreachable (no answer from ${endpoint.origin} within ${Math.round(timeoutMs / 100) / 10} s)`;
  if (e instanceof HttpError && e.kind === "refused" && /redirect/.test(e.message))
    return `cloud endpoint ${endpoint.href} answered with a redirect; pml does not follow redirects with your keys. Set .pml.json "cloud.url" to the final address.`;
  if (e instanceof HttpError && e.kind !== "unreachable") return e.message;
  const reason = e instanceof HttpError ? e.message : ((e as Error)?.message ?? String(e));
  return `cloud unreachable (${reason} connecting to ${endpoint.origin}). Local tools keep working; check your network or .pml.json "cloud.url".`;
}

function reasonOf(r: unknown): string | undefined {
  return r instanceof Error ? r.message : typeof r === "string" ? r : undefined;
}

function snippet(text: string): string {
  const t = text.trim().replace(/\s+/g, " ");
  return t ? `: ${t.length > 200 ? `${t.slice(0, 200)}…` : t}` : "";
}

interface RpcAnswer {
  result?: unknown;
  error?: unknown;
}

/** The JSON-RPC response in a JSON body or in an SSE stream (an MCP endpoint may answer either way). */
function parseBody(text: string, contentType: string, id: number): RpcAnswer | undefined {
  const candidates: unknown[] = [];
  if (contentType.includes("text/event-stream")) for (const data of sseData(text)) candidates.push(tryJson(data));
  else candidates.push(tryJson(text));
  for (const c of candidates) {
    if (c && typeof c === "object" && !Array.isArray(c) && ("result" in c || "error" in c)) {
      const m = c as { id?: unknown; result?: unknown; error?: unknown };
      if (m.id === id || m.id === null || m.id === undefined) return m;
    }
  }
  return undefined;
}

/** The data of each event of an SSE body that has any; the last event need not end with a blank line. */
function sseData(text: string): string[] {
  const out: string[] = [];
  const parser = createParser({
    onEvent: (e) => {
      if (e.data) out.push(e.data);
    },
  });
  parser.feed(text);
  parser.feed("\n\n");
  return out;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toCallToolResult(result: unknown, endpoint: URL): CallToolResult {
  const r = result as Partial<CallToolResult> | undefined;
  if (!r || typeof r !== "object" || Array.isArray(r) || !Array.isArray(r.content))
    throw new ToolError(`cloud endpoint ${endpoint.href} sent a malformed tool result (expected {"content": [...]}).`);
  const out: CallToolResult = { content: r.content };
  if (r.isError === true) out.isError = true;
  if (r.structuredContent && typeof r.structuredContent === "object" && !Array.isArray(r.structuredContent)) out.structuredContent = r.structuredContent;
  if (r._meta && typeof r._meta === "object") out._meta = r._meta;
  return out;
}
