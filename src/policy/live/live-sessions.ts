// TEMPORARY STAND-IN (h-ui): the session-side channel is built by h-live in this file with exactly
// these signatures; the lead merges that file over this one. Until then no session is seen live,
// nothing can be answered, and a page's presence is not published.

export interface LiveServer {
  ns: string;
  state: "starting" | "running" | "idle" | "stopped" | "crashed";
  calls: number;
  lastError?: string;
  startedAt?: string;
  tools: string[];
}
export interface PendingApproval {
  id: string;
  tool: string;
  question: string;
  kind: string;
  created: string;
  channel: "elicitation" | "tool-result" | "input_required";
}
export interface LiveSession {
  id: string;
  pid: number;
  workspace: string;
  started: string;
  updated: string;
  transport: "stdio" | "http";
  client?: string;
  protocol?: string;
  servers: LiveServer[];
  approvals: PendingApproval[];
}

export function readLiveSessions(_home: string, _workspace?: string): LiveSession[] {
  return [];
}

export function answerApproval(_home: string, _sessionId: string, _approvalId: string, _answer: "continue" | "always" | "abort"): Promise<void> {
  return Promise.reject(new Error("not available: live sessions are not published by this build"));
}

export function openPagePresence(_home: string, _workspace: string): { close(): void } {
  return { close() {} };
}
