// Calls a function exported by module code (built-in local MCPs, registry modules, capabilities)
// in the sandbox. The call runs in a sandbox worker that keeps the module loaded between calls
// (workers.ts); its ctx.fs / ctx.exec / ctx.fetch / ctx.mcp calls are checked here, on pml's
// main thread.
import type { ModuleDescriptor } from "../registry/descriptor.ts";
import { appendAudit } from "./audit.ts";
import { isBuiltinFilesystem, isBuiltinShell } from "./builtins/builtins.ts";
import type { CallTool, SandboxHost } from "./call-state.ts";
import { createHost } from "./host-functions.ts";
import { DEFAULT_LIMITS, jsonPayload, type SandboxLimits } from "./limits.ts";
import { clearWorkers, runInWorker } from "./workers.ts";

export interface ModuleCallOptions {
  /** Self-contained ES module source: `export async function <action>(args, ctx) {...}`. */
  code: string;
  /** The exported function to call. */
  fn: string;
  args?: unknown;
  ctx?: {
    /** Exactly the variables the environment resolver granted the module. */
    env?: Record<string, string>;
    /** Backs `ctx.mcp.<ns>.<action>(args)`. */
    callTool?: CallTool;
    /** Backs ctx.fs / ctx.exec / ctx.fetch (see createHost). */
    host?: SandboxHost;
  };
  limits?: Partial<SandboxLimits>;
  signal?: AbortSignal;
  /** false: a fresh engine for this call only (default: pooled, warm). */
  reuse?: boolean;
  /** The client session the call serves: one client cannot take every sandbox place. */
  owner?: string;
}

/** Calls `fn(args, ctx)` exported by module `code` in a sandbox; resolves with its (JSON) value. */
export async function runModuleFunction(opts: ModuleCallOptions): Promise<unknown> {
  const host = opts.ctx?.host;
  const payload = JSON.stringify({
    args: JSON.parse(jsonPayload(opts.args ?? {})),
    env: { ...opts.ctx?.env },
    ops: Object.keys(host?.ops ?? {}),
  });
  return runInWorker({
    kind: "module",
    code: opts.code,
    fn: opts.fn,
    reuse: opts.reuse !== false,
    payload,
    limits: opts.limits,
    callTool: opts.ctx?.callTool,
    host,
    signal: opts.signal,
    owner: opts.owner,
  });
}

export interface ModuleToolOptions {
  ns: string;
  descriptor: ModuleDescriptor;
  action: string;
  args?: unknown;
  workspace: string;
  signal?: AbortSignal;
  limits?: Partial<SandboxLimits>;
  /** Backs ctx.mcp inside the module; without it, ctx.mcp calls fail with a clear error. */
  callTool?: CallTool;
  /** Hosts the user allowed in .pml.json sandbox.net_allow. */
  netAllow?: string[];
  /** .pml.json sandbox.shell_net: the shell's commands get the network. */
  shellNet?: boolean;
  /** What the user granted this module in .pml.json sandbox.grants.<ns>. */
  grant?: { write?: boolean; net?: string[] };
  /** ctx.env: the variables the environment resolver granted this module (default none). */
  env?: Record<string, string>;
  /** The client session the call serves (see ModuleCallOptions.owner). */
  owner?: string;
}

/**
 * What the module may do: what the user granted, narrowed by what the module itself declares,
 * never widened by it. The built-in filesystem writes (its tools are approved one by one through
 * permissions), the built-in shell runs commands; a registry module writes only with the user's
 * `sandbox.grants.<ns>.write`, and reaches only hosts the user allowed that it also declares.
 */
export function moduleGrants(d: ModuleDescriptor, netAllow: string[] = [], grant: { write?: boolean; net?: string[] } = {}) {
  const builtin = isBuiltinFilesystem(d) || isBuiltinShell(d);
  const declaredNet = d.permissions?.net ?? [];
  return {
    write: isBuiltinFilesystem(d) || (grant.write === true && d.permissions?.write !== false),
    exec: isBuiltinShell(d),
    net: [...netAllow, ...(grant.net ?? [])],
    netDeclared: builtin || declaredNet.length === 0 ? undefined : declaredNet,
  };
}

/** The gateway's entry point for a module tool: grants from the descriptor, env as the environment
 * resolver granted it, host bridges scoped to the workspace, refusals audited. */
export async function runModuleTool(opts: ModuleToolOptions): Promise<unknown> {
  const { descriptor: d, workspace } = opts;
  const tool = `${opts.ns}:${opts.action}`;
  const env = opts.env ?? {};
  const host = createHost({
    workspace,
    tool,
    grants: { ...moduleGrants(d, opts.netAllow, opts.grant), execNet: opts.shellNet === true },
    audit: (entry) => void appendAudit(workspace, entry).catch(() => {}),
  });
  let limits = opts.limits;
  const timeoutMs = (opts.args as any)?.timeout_ms;
  if (isBuiltinShell(d) && typeof timeoutMs === "number" && timeoutMs > 0) {
    // The command's own timeout governs; the sandbox call must outlive it.
    limits = { ...limits, wallMs: Math.max(limits?.wallMs ?? DEFAULT_LIMITS.wallMs, Math.min(timeoutMs, 600_000) + 10_000) };
  }
  return runModuleFunction({ code: d.code, fn: opts.action, args: opts.args, ctx: { env, callTool: opts.callTool, host }, limits, signal: opts.signal, owner: opts.owner });
}

/** Ends the idle sandbox workers, and the modules they keep loaded (tests, shutdown). */
export function clearModulePool(): void {
  clearWorkers();
}
