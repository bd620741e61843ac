// What the Streamable HTTP transport writes on the wire besides JSON-RPC bodies: transport errors,
// SSE events, and the headers a request is read by.
import { ErrorCode, errorResponse, type Id, type Message, type Response as RpcResponse } from "../../../mcp/jsonrpc.ts";
import { META, SUPPORTED_PROTOCOLS } from "../../../mcp/protocol.ts";

export const MCP_PATH = "/mcp";

export const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" };

const encoder = new TextEncoder();

export function encode(text: string): Uint8Array {
  return encoder.encode(text);
}

export function sseEvent(msg: Message): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify(msg)}\n\n`);
}

/** A transport-level refusal: a JSON-RPC error without an id, with its HTTP status. */
export function httpError(status: number, message: string, headers: Record<string, string> = {}): Response {
  const body: RpcResponse = errorResponse(null, -32000, message);
  return Response.json(body, { status, headers });
}

/** A JSON-RPC error answered with 400 (a body that is not a request pml can serve). */
export function badMessage(id: Id | null, code: number, message: string): Response {
  return Response.json(errorResponse(id, code, message), { status: 400 });
}

/** The HTTP status the 2026-07-28 transport gives a JSON-RPC error. */
export function modernStatus(code: number): number {
  if (code === ErrorCode.MethodNotFound) return 404;
  if (code === ErrorCode.InvalidParams || code === ErrorCode.InvalidRequest || code === ErrorCode.ParseError) return 400;
  if (code === ErrorCode.HeaderMismatch || code === ErrorCode.UnsupportedProtocolVersion || code === ErrorCode.MissingRequiredClientCapability) return 400;
  return 200;
}

export interface Accept {
  json: boolean;
  sse: boolean;
}

export function acceptOf(req: Request): Accept {
  const a = (req.headers.get("accept") ?? "").toLowerCase();
  const any = a === "" || a.includes("*/*");
  return { json: any || a.includes("application/json"), sse: a.includes("text/event-stream") };
}

export function isModernVersion(v: string | null): boolean {
  return v !== null && v >= "2026-07-28" && SUPPORTED_PROTOCOLS.includes(v);
}

export function checkProtocolVersion(req: Request): Response | undefined {
  const v = req.headers.get("mcp-protocol-version");
  if (v === null || SUPPORTED_PROTOCOLS.includes(v)) return undefined;
  return httpError(400, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(v)} (supported: ${SUPPORTED_PROTOCOLS.join(", ")})`);
}

/**
 * 2026-07-28 requests mirror body fields in headers so that load balancers can route on them;
 * a request whose headers say something else than its body is refused (the spec's
 * HeaderMismatch), or a router and pml would act on different requests.
 */
export function headerMismatch(req: Request, m: { method: string; params?: Record<string, any> }): string | undefined {
  const version = req.headers.get("mcp-protocol-version");
  const inBody = m.params?._meta?.[META.protocolVersion];
  if (version === null) return "the MCP-Protocol-Version header is required";
  if (version !== inBody) return `MCP-Protocol-Version header ${JSON.stringify(version)} does not match _meta protocolVersion ${JSON.stringify(inBody)}`;
  const method = req.headers.get("mcp-method");
  if (method === null) return "the Mcp-Method header is required";
  if (method !== m.method) return `Mcp-Method header ${JSON.stringify(method)} does not match body method ${JSON.stringify(m.method)}`;
  if (m.method === "tools/call" || m.method === "prompts/get" || m.method === "resources/read") {
    const raw = req.headers.get("mcp-name");
    if (raw === null) return "the Mcp-Name header is required";
    const name = decodeHeaderValue(raw);
    const body = m.method === "resources/read" ? m.params?.uri : m.params?.name;
    if (name === undefined) return "the Mcp-Name header is not valid base64 in its =?base64?...?= form";
    if (name !== body) return `Mcp-Name header ${JSON.stringify(name)} does not match body value ${JSON.stringify(body)}`;
  }
  return undefined;
}

/** A header value, decoded from the spec's `=?base64?...?=` form when it uses it. */
function decodeHeaderValue(raw: string): string | undefined {
  const m = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(raw);
  if (!m) return raw;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(m[1]!), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
