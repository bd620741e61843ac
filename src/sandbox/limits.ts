// What one sandbox run may use, and what all runs together may use. Shared by pml's main thread
// (admission, which checks the limits a run asks for, and timers) and the sandbox workers (the
// engine enforces the per-run limits).
import { SandboxError } from "./errors.ts";

const MB = 1024 * 1024;

export interface SandboxLimits {
  /** Guest computation per call (time spent running guest code), ms. */
  cpuMs: number;
  /** The whole call, including waits on host calls, ms. */
  wallMs: number;
  /** Guest heap, bytes. */
  memoryBytes: number;
  /** The returned value as JSON, characters. Also caps one host-call argument. */
  maxResultBytes: number;
  /** A host-call result handed to the guest, characters. */
  maxHostResultBytes: number;
  /** Host calls (tools, fs, exec, fetch) per call. */
  maxHostCalls: number;
  /** Host calls in flight at once. */
  maxPendingHostCalls: number;
  /** Sandboxed runs at once, across the whole pml process (.pml.json sandbox.max_concurrent). */
  maxConcurrent: number;
  /** The sum of the memory limits of the runs in progress, bytes (sandbox.max_memory_mb). */
  totalMemoryBytes: number;
  /** Runs waiting for a free sandbox before new ones are refused (sandbox.max_queued). */
  maxQueued: number;
}

export const DEFAULT_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  cpuMs: 10_000,
  wallMs: 120_000,
  memoryBytes: 64 * 1024 * 1024,
  maxResultBytes: 1024 * 1024,
  maxHostResultBytes: 16 * 1024 * 1024,
  maxHostCalls: 10_000,
  maxPendingHostCalls: 64,
  maxConcurrent: 8,
  totalMemoryBytes: 512 * 1024 * 1024,
  maxQueued: 64,
});

/** Copies a value through JSON, as the guest would see it; rejects what JSON cannot carry. */
export function jsonPayload(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch (e: any) {
    throw new SandboxError(`the arguments are not JSON-serialisable: ${e?.message ?? e}`, "limit");
  }
}

export interface SandboxConfig {
  timeout_ms?: number;
  memory_mb?: number;
  max_concurrent?: number;
  max_memory_mb?: number;
  max_queued?: number;
}

/** pml's defaults in .pml.json's terms: a file's value above one of these raises a limit, which is
 * a grant that applies only once the user trusted the file (src/policy/trust/grants.ts). */
export const DEFAULT_SANDBOX_CONFIG: Readonly<Required<SandboxConfig>> = Object.freeze({
  timeout_ms: DEFAULT_LIMITS.cpuMs,
  memory_mb: DEFAULT_LIMITS.memoryBytes / MB,
  max_concurrent: DEFAULT_LIMITS.maxConcurrent,
  max_memory_mb: DEFAULT_LIMITS.totalMemoryBytes / MB,
  max_queued: DEFAULT_LIMITS.maxQueued,
});

/** .pml.json `sandbox` settings as limits. */
export function limitsFromConfig(sandbox?: SandboxConfig): Partial<SandboxLimits> {
  const limits: Partial<SandboxLimits> = {};
  if (sandbox?.timeout_ms) {
    limits.cpuMs = sandbox.timeout_ms;
    limits.wallMs = Math.max(sandbox.timeout_ms, DEFAULT_LIMITS.wallMs);
  }
  if (sandbox?.memory_mb) limits.memoryBytes = sandbox.memory_mb * MB;
  if (sandbox?.max_concurrent) limits.maxConcurrent = Math.floor(sandbox.max_concurrent);
  if (sandbox?.max_memory_mb) limits.totalMemoryBytes = sandbox.max_memory_mb * MB;
  if (sandbox?.max_queued) limits.maxQueued = Math.floor(sandbox.max_queued);
  return limits;
}
