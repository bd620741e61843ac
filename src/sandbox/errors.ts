// What goes wrong inside a sandbox call, as one error type the gateway turns into a tool error.

export type SandboxErrorKind =
  | "syntax" // the code does not parse
  | "thrown" // the guest threw (or rejected)
  | "cpu" // guest computation exceeded limits.cpuMs
  | "timeout" // the whole call exceeded limits.wallMs
  | "memory" // the guest heap hit limits.memoryBytes
  | "stack" // nesting too deep
  | "result" // the result is too large or not JSON
  | "limit" // too many host calls, an argument too large
  | "export" // the module has no such exported function
  | "aborted" // the caller cancelled
  | "busy" // the global cap on sandboxes (sandbox.max_concurrent / max_memory_mb / max_queued) was hit
  | "crash"; // the engine failed; the instance was discarded

export class SandboxError extends Error {
  override name = "SandboxError";
  constructor(
    message: string,
    readonly kind: SandboxErrorKind,
    /** 1-based line in the user's code, when known. */
    readonly line?: number,
    /** 1-based column on that line, when the code ran as written. */
    readonly column?: number,
  ) {
    super(message);
  }
}

/** The message without the position that ends its first line (" (line 3, column 7)"): for a
 * failure in code other than the user's (a module's, a capability's), whose position is not theirs. */
export function withoutPosition(message: string): string {
  return message.replace(/ \(line \d+(?:, column \d+)?\)(?=\n|$)/, "");
}
