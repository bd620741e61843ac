// What one sandbox call carries while it runs on an engine (limits, CPU accounting, pending host
// calls, how it settles), and the host side's vocabulary: tool calls and host ops.
import type { QuickJSDeferredPromise, QuickJSHandle } from "quickjs-emscripten-core";
import type { SandboxError } from "./errors.ts";
import type { SandboxLimits } from "./limits.ts";

/** Calls a tool by id ("ns:action") on behalf of the guest; the gateway checks and routes it. */
export type CallTool = (toolId: string, args: unknown) => Promise<unknown>;
/** One host capability (fs.read, exec, fetch...). `signal` aborts when the sandbox call ends. */
export type HostOp = (args: any, signal: AbortSignal) => Promise<unknown>;

export interface SandboxHost {
  ops: Record<string, HostOp>;
  /** Told about every refusal the sandbox itself sees (an undeclared env var read). */
  refused?(attempted: string, reason: string): void;
}

/** Sends one host call (op, JSON payload) to pml's main thread; resolves with the JSON result. */
export type ForwardHostCall = (op: string, payload: string) => Promise<string | undefined>;

export interface CallState {
  limits: SandboxLimits;
  /** Where host calls go; without it the guest's host calls fail. */
  forward?: ForwardHostCall;
  /** Told about every refusal the sandbox itself sees (an undeclared env var read). */
  refused?: (attempted: string, reason: string) => void;
  cpuUsed: number;
  segStart: number;
  abort?: SandboxError;
  hostCalls: number;
  pending: Set<QuickJSDeferredPromise>;
  controller: AbortController;
  done: boolean;
  /** File name the guest code was compiled under and how many wrapper lines precede it. */
  file: string;
  lineOffset: number;
  /** Maps a line of compiled code to the user's line (TypeScript input; its columns are the output's, not shown). */
  mapLine?: (line: number) => number;
  /** The user's last line: an error at the wrapper's closing brace is reported there. */
  lastLine?: number;
  promise?: QuickJSHandle;
  resolve?: (value: unknown) => void;
  reject?: (error: SandboxError) => void;
  timer?: ReturnType<typeof setTimeout>;
  /** performance.now() after which the call is out of time (checked while guest code runs). */
  deadline?: number;
  onAbort?: () => void;
  signal?: AbortSignal;
}

export function newCall(init: Pick<CallState, "limits" | "forward" | "refused" | "file" | "lineOffset" | "mapLine" | "signal">): CallState {
  return { ...init, cpuUsed: 0, segStart: 0, hostCalls: 0, pending: new Set(), controller: new AbortController(), done: false };
}
