// The values .pml.json's sandbox limits may take. Shared by the schema that checks the file
// (pml-json.ts) and the sandbox that enforces the limits (src/sandbox/limits.ts), so a value the
// file may hold is one the engine can honour. No imports: sandbox workers load this too.

export interface LimitRange {
  min: number;
  max: number;
  /** Shown after the range ("MB"); none for counts. */
  unit?: string;
  /** Counts of runs are whole numbers. */
  integer?: boolean;
  /** Why the maximum is where it is, when that is not a choice of pml's. */
  why?: string;
}

/** The sandbox's WebAssembly heap cannot grow past 2 GB: one run's memory limit above that means
 * nothing, and one of 4096 MB or more wraps around in the engine's 32-bit size and fails every run. */
export const WASM_HEAP_MAX_MB = 2048;

export const SANDBOX_LIMIT_RANGES = {
  timeout_ms: { min: 100, max: 3_600_000, unit: "ms" },
  memory_mb: { min: 16, max: WASM_HEAP_MAX_MB, unit: "MB", why: "the sandbox's WebAssembly heap cannot grow past 2 GB" },
  max_concurrent: { min: 1, max: 64, integer: true },
  max_memory_mb: { min: 16, max: 65_536, unit: "MB" },
  max_queued: { min: 1, max: 10_000, integer: true },
} as const satisfies Record<string, LimitRange>;

export type SandboxLimitKey = keyof typeof SANDBOX_LIMIT_RANGES;

/** "16–2048 (MB; why)": the allowed values, as an error message names them. */
export function describeRange(range: LimitRange): string {
  const notes = [range.unit, range.integer ? "whole numbers" : undefined, range.why].filter(Boolean);
  return `${range.min}–${range.max}${notes.length ? ` (${notes.join("; ")})` : ""}`;
}
