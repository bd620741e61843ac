// Guest failures in words: a QuickJS exception (or the glue's tagged answer) to a SandboxError
// with the user's line number.
import type { CallState } from "./call-state.ts";
import { SandboxError } from "./errors.ts";

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function lineOf(call: CallState, stack: string | undefined, lineNumber: unknown): number | undefined {
  let line: number | undefined;
  if (typeof lineNumber === "number") line = lineNumber;
  else if (stack) {
    const escaped = call.file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const m = new RegExp(`${escaped}:(\\d+)`).exec(stack);
    if (m) line = Number(m[1]);
  }
  if (line === undefined) return undefined;
  line -= call.lineOffset;
  if (call.mapLine) line = call.mapLine(line);
  if (call.lastLine && line > call.lastLine) line = call.lastLine + 1;
  return line >= 1 ? line : undefined;
}

/** A parse error past the user's last line: in the wrapper pml puts around the code, so its token is not the user's. */
const pastEndProblem = (message: string) =>
  `the code does not end properly (the parser says "${message}" after its last line): a bracket, parenthesis, string or expression may be left open, or a "}" be one too many`;

const inUnits = (bytes: number) => (bytes >= 1048576 ? `${Math.round(bytes / 1048576)} MB` : `${bytes} bytes`);

/**
 * `stage`: what the engine was doing, when no guest code of the user's could have thrown there
 * (the glue catches and describes whatever the user's code throws). An exception that is not an
 * object there is the engine's own failure, most often one to allocate even the error.
 */
export function describeGuestError(call: CallState, info: any, kind: "syntax" | "thrown", stage?: string): SandboxError {
  if (info === null || typeof info !== "object") {
    if (stage === undefined) return new SandboxError(`threw a non-Error value: ${String(info)}`, kind);
    return new SandboxError(
      `the sandbox engine failed while ${stage} and gave ${String(info)} instead of an error; it most likely could not allocate memory (this run's memory limit is ${inUnits(call.limits.memoryBytes)}, sandbox.memory_mb)`,
      "crash",
    );
  }
  const name = String(info.name ?? "Error");
  const message = String(info.message ?? "");
  if (name === "InternalError" && /out of memory/.test(message)) {
    return new SandboxError(`the code ran out of memory (limit ${Math.round(call.limits.memoryBytes / 1048576)} MB)`, "memory");
  }
  if (name === "InternalError" && /stack overflow/.test(message)) {
    return new SandboxError("stack overflow: the code nests too deeply (recursion or deeply nested data)", "stack");
  }
  if (name === "InternalError" && /interrupted/.test(message)) {
    return call.abort ?? new SandboxError("the code was interrupted", "cpu");
  }
  let line = lineOf(call, info.stack, name === "SyntaxError" ? info.lineNumber : undefined);
  // Past the user's last line is the wrapper around it: positions are given in the user's code only.
  const pastEnd = call.lastLine !== undefined && line !== undefined && line > call.lastLine;
  if (pastEnd) line = call.lastLine;
  const what = pastEnd && name === "SyntaxError" ? pastEndProblem(message) : message;
  const where = line ? ` (line ${line})` : "";
  return new SandboxError(`${name}: ${what}${where}`, name === "SyntaxError" ? "syntax" : kind, line);
}

export function decode(call: CallState, text: string): unknown {
  const tag = text[0];
  const body = text.slice(1);
  if (tag === "U") return undefined;
  if (tag === "V") return JSON.parse(body);
  if (tag === "R") throw new SandboxError(`the returned value is not JSON-serialisable: ${JSON.parse(body)}`, "result");
  if (tag === "E") throw describeGuestError(call, JSON.parse(body), "thrown");
  throw new SandboxError("the sandbox glue returned an unknown answer", "result");
}
