// What the gateway and every backend that runs tools (pool, sandbox, cloud) share besides MCP's
// own types (src/mcp/types.ts): the call context, tool errors, and result helpers.

import { UserError } from "../errors.ts";
import { log } from "../log.ts";
import type { CallToolResult } from "./types.ts";
import type { CancelSignal } from "./abort.ts";
import type { Session } from "./session.ts";

/** What a backend gets with each call: cancellation, progress, and the workspace. */
export interface CallContext {
  signal: AbortSignal;
  /** The same cancellation without making a real AbortSignal: what a pooled call listens to. */
  cancel?: CancelSignal;
  /** Sends notifications/progress to the client; absent when the client did not ask for progress
   * (then pml does not ask the servers it calls for progress either). */
  progress?(message: string, progress?: number, total?: number): void;
  /** Who the call is for: a request a child server makes while serving it (elicitation,
   * sampling) goes to this client only, never to another one. */
  origin?: CallOrigin;
  /** For module code: `ctx.mcp.ns.action(args)`, through the same checks as a direct call. */
  callTool?: (toolId: string, args: unknown) => Promise<unknown>;
}

export interface CallOrigin {
  /** Delivers a child server's request to the client the call is for; resolves with its answer. */
  relay(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
  /** That client's session (whom to ask for approvals on its behalf). */
  readonly session?: Session;
  /** 2026-07-28: the client's answers to child servers' requests, from earlier rounds, by key. */
  relayAnswers?: Record<string, unknown>;
  /** 2026-07-28: a child server's request the client has to answer; the call's result asks it. */
  pendingInput?: { key: string; request: { method: string; params: Record<string, unknown> } };
  /** Stops the work in progress to ask for pendingInput (set by whoever runs it). */
  interrupt?: () => void;
}

/** The client a call serves (the sandbox gives each a fair share): a 2026-07-28 request's session
 * id is its connection's plus "#<request id>". */
export function clientOf(session: { id: string } | undefined): string | undefined {
  return session?.id.split("#")[0];
}

export function textResult(text: string, extra: Partial<CallToolResult> = {}): CallToolResult {
  return { content: [{ type: "text", text }], ...extra };
}

export function errorResult(text: string, extra: Partial<CallToolResult> = {}): CallToolResult {
  return { content: [{ type: "text", text }], isError: true, ...extra };
}

/** An object answered as structuredContent, with the same JSON as text for clients that read only
 * text (MCP asks for both): compact, since an agent pays for both on every call (issue 46). */
export function structuredResult(value: Record<string, unknown>): CallToolResult {
  return textResult(JSON.stringify(value), { structuredContent: value });
}

/** A module function's return value as a tool result: strings as text, the rest as JSON. */
export function valueResult(value: unknown): CallToolResult {
  if (typeof value === "string") return textResult(value);
  const text = value === undefined ? "null" : JSON.stringify(value, null, 2);
  const structured = value !== null && typeof value === "object" && !Array.isArray(value);
  return structured ? textResult(text, { structuredContent: value as Record<string, unknown> }) : textResult(text);
}

/** A failure the gateway turns into an `isError` result with exactly this text. */
export class ToolError extends UserError {
  override name = "ToolError";
}

/**
 * The one mapping from a thrown error to a tool result: a UserError says what went wrong and what
 * to do, and is shown exactly; anything else is a fault of pml, logged (with `what`: where it
 * escaped) and reported as an internal error.
 */
export function errorToResult(e: unknown, what: string): CallToolResult {
  if (e instanceof UserError) return errorResult(e.message);
  log.error(`${what}:`, e);
  return errorResult(`pml internal error: ${(e as Error)?.message ?? e}`);
}

/** The text of a result's text blocks (other blocks as a placeholder). */
export function resultText(r: CallToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
}

/**
 * What code gets back from a tool: its structured content, else its text (one block: a string;
 * several: an array), else the raw content. Text is never guessed at (a file that holds JSON is
 * still a string); code calls JSON.parse itself when it wants to.
 */
export function resultValue(r: CallToolResult): unknown {
  if (r.structuredContent) return r.structuredContent;
  const texts = r.content.filter((c) => c.type === "text").map((c) => (c as { text: string }).text);
  if (texts.length === 1) return texts[0];
  return texts.length ? texts : r.content;
}
