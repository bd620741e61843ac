// JSON-RPC 2.0 as MCP uses it: one message per line on stdio, one per POST over HTTP.

export type Id = string | number;

export interface Request {
  jsonrpc: "2.0";
  id: Id;
  method: string;
  params?: Record<string, any>;
}
export interface Notification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, any>;
}
export interface Response {
  jsonrpc: "2.0";
  id: Id | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}
export type Message = Request | Notification | Response;

export const ErrorCode = {
  /** 2026-07-28: HTTP headers do not match the body (or are missing). */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability its _meta did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the _meta protocol version is not one this server speaks. */
  UnsupportedProtocolVersion: -32022,
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

export function errorResponse(id: Id | null, code: number, message: string, data?: unknown): Response {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** Checks a parsed value is a JSON-RPC message; returns an error text when it is not. */
export function invalidReason(msg: unknown): string | undefined {
  if (Array.isArray(msg)) return "batches are not supported by MCP; send one message per line";
  if (msg === null || typeof msg !== "object") return "a JSON-RPC message must be an object";
  const m = msg as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return 'missing "jsonrpc": "2.0"';
  if ("method" in m) {
    if (typeof m.method !== "string") return '"method" must be a string';
    if ("id" in m && !isId(m.id)) return '"id" must be a string or a number';
    if (m.params !== undefined && (m.params === null || typeof m.params !== "object" || Array.isArray(m.params))) return '"params" must be an object';
    return undefined;
  }
  if ("result" in m || "error" in m) return isId(m.id) ? undefined : '"id" must be a string or a number';
  return 'a message needs "method" (request or notification) or "result"/"error" (response)';
}

function isId(id: unknown): id is Id {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

/** What a LineSplitter hands over instead of a line that grew past its limit. */
export const OVERFLOW = "\u0000overflow";

/**
 * Splits a byte stream into lines without losing a message split across chunks. A line longer
 * than `maxLine` is reported once as OVERFLOW and everything up to its newline is discarded:
 * its tail must never be read as a message of its own (a peer could smuggle one in that way).
 */
export class LineSplitter {
  private buffer = "";
  /** Inside an over-long line: bytes are dropped until the next newline. */
  private discarding = false;
  private readonly decoder = new TextDecoder();
  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLine = 64 * 1024 * 1024,
  ) {}

  push(chunk: Uint8Array | string): void {
    let text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    let start = 0;
    let nl = text.indexOf("\n");
    if (nl === -1) {
      if (this.discarding) return;
      this.buffer += text;
      if (this.buffer.length > this.maxLine) this.overflow();
      return;
    }
    if (this.discarding) {
      this.discarding = false;
      start = nl + 1;
      nl = text.indexOf("\n", start);
    } else if (this.buffer) {
      text = this.buffer + text;
      nl += this.buffer.length;
      this.buffer = "";
    }
    while (nl !== -1) {
      if (nl - start > this.maxLine) this.onLine(OVERFLOW);
      else {
        const line = text.charCodeAt(nl - 1) === 13 ? text.slice(start, nl - 1) : text.slice(start, nl);
        if (line.trim()) this.onLine(line);
      }
      start = nl + 1;
      nl = text.indexOf("\n", start);
    }
    this.buffer = text.slice(start);
    if (this.buffer.length > this.maxLine) this.overflow();
  }

  private overflow(): void {
    this.buffer = "";
    this.discarding = true;
    this.onLine(OVERFLOW);
  }

  /** The unterminated last line at EOF, if any. */
  end(): void {
    const rest = this.buffer;
    this.buffer = "";
    if (!this.discarding && rest.trim()) this.onLine(rest);
    this.discarding = false;
  }
}

/** A fault in what the client sent (e.g. a forged requestState): a JSON-RPC error, not a tool result. */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
