// The two MCP revisions pml speaks, and how a request says which one it uses.
//
// Legacy (2025-11-25 and earlier): an `initialize` handshake fixes version and client
// capabilities for the connection (stdio) or the session (HTTP).
// Modern (2026-07-28): no handshake, no session; every request carries its version and the
// client's capabilities in `_meta`, results carry `resultType`, and the server asks the client
// for input through multi round-trip requests (an `input_required` result) instead of requests
// of its own.
import { ErrorCode, errorResponse, type Id, type Response } from "./jsonrpc.ts";

export const MODERN_PROTOCOL = "2026-07-28";
export const MODERN_PROTOCOLS = [MODERN_PROTOCOL];
export const LEGACY_PROTOCOLS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
export const SUPPORTED_PROTOCOLS = [...MODERN_PROTOCOLS, ...LEGACY_PROTOCOLS];

export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(v: unknown): v is LogLevel {
  return typeof v === "string" && (LOG_LEVELS as readonly string[]).includes(v);
}

/** True when `level` is at or above `threshold` (so a message at `level` goes out). */
export function logLevelAtLeast(level: LogLevel, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

/** What a modern request says about its client, read from its `_meta`. */
export interface ModernClient {
  protocolVersion: string;
  capabilities: Record<string, any>;
  info?: { name?: string; version?: string };
  logLevel?: LogLevel;
}

/** True when a request speaks the modern revision (it carries the per-request version). */
export function isModernRequest(params: Record<string, any> | undefined): boolean {
  const meta = params?._meta;
  return meta !== null && typeof meta === "object" && META.protocolVersion in meta;
}

/**
 * The client of a modern request, or the error the spec prescribes: -32022 with the supported
 * versions for an unknown version, -32602 for a missing or malformed required field.
 */
export function readModernMeta(id: Id, params: Record<string, any> | undefined): ModernClient | Response {
  const meta = (params?._meta ?? {}) as Record<string, unknown>;
  const version = meta[META.protocolVersion];
  if (typeof version !== "string")
    return errorResponse(id, ErrorCode.InvalidParams, `Invalid params: _meta["${META.protocolVersion}"] must be a protocol version string (e.g. "${MODERN_PROTOCOL}")`);
  if (!MODERN_PROTOCOLS.includes(version))
    return errorResponse(id, ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", {
      supported: SUPPORTED_PROTOCOLS,
      requested: version,
    });
  const caps = meta[META.clientCapabilities];
  if (caps === null || typeof caps !== "object" || Array.isArray(caps))
    return errorResponse(id, ErrorCode.InvalidParams, `Invalid params: _meta["${META.clientCapabilities}"] is required (an object, {} when the client declares none)`);
  const level = meta[META.logLevel];
  if (level !== undefined && !isLogLevel(level))
    return errorResponse(id, ErrorCode.InvalidParams, `Invalid params: _meta["${META.logLevel}"] must be one of ${LOG_LEVELS.join(", ")}`);
  const info = meta[META.clientInfo];
  return {
    protocolVersion: version,
    capabilities: caps as Record<string, any>,
    info: info && typeof info === "object" ? (info as ModernClient["info"]) : undefined,
    logLevel: level as LogLevel | undefined,
  };
}

/** Form elicitation: `elicitation: {}` (the 2025-06-18 shape) counts as form support. */
export function supportsFormElicitation(capabilities: Record<string, any>): boolean {
  const e = capabilities.elicitation;
  return !!e && typeof e === "object" && (e.form !== undefined || Object.keys(e).length === 0);
}

/** A multi round-trip request's interim answer (2026-07-28). */
export interface InputRequiredResult {
  resultType: "input_required";
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState?: string;
  [k: string]: unknown;
}
