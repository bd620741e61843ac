// Runs agent code (`execute`) in the sandbox: the code is the body of an async function with `mcp`
// and `args` in scope. It runs in a sandbox worker (workers.ts), in a fresh context each time
// (nothing carries over between runs); `mcp.*` calls come back here and go through `callTool`.
import type { CallTool, SandboxHost } from "./call-state.ts";
import { jsonPayload, type SandboxLimits } from "./limits.ts";
import { clearWorkers, runInWorker } from "./workers.ts";

export interface RunCodeOptions {
  /** The body of an async function with `mcp` and `args` in scope; TypeScript or JavaScript. */
  code: string;
  args?: unknown;
  callTool?: CallTool;
  host?: SandboxHost;
  limits?: Partial<SandboxLimits>;
  signal?: AbortSignal;
  /** The client session the run serves: one client cannot take every sandbox place. */
  owner?: string;
}

/** Runs agent code as the body of an async function with `mcp` and `args` in scope. */
export async function runCode(opts: RunCodeOptions): Promise<{ value: unknown }> {
  const payload = `{"args":${jsonPayload(opts.args ?? {})}}`;
  const value = await runInWorker({
    kind: "code",
    code: opts.code,
    payload,
    limits: opts.limits,
    callTool: opts.callTool,
    host: opts.host,
    signal: opts.signal,
    owner: opts.owner,
  });
  return { value };
}

/** Ends the idle sandbox workers (tests, shutdown). */
export function clearCodePool(): void {
  clearWorkers();
}
