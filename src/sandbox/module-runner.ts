// Calls a function exported by module code (built-in local MCPs, registry modules, capabilities)
// in the sandbox. Engines are pooled warm per module: the module stays loaded, one call at a time
// per engine; concurrent calls get their own engine. An engine that hit a limit is thrown away.
import type { ModuleDescriptor } from "../registry/descriptor.ts";
import { appendAudit } from "./audit.ts";
import { isBuiltinFilesystem, isBuiltinShell } from "./builtins/builtins.ts";
import { type CallTool, DEFAULT_LIMITS, Engine, jsonPayload, limitsFrom, newCall, type Realm, type SandboxHost, type SandboxLimits } from "./engine.ts";
import { SandboxError } from "./errors.ts";
import { createHost } from "./host.ts";

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
}

interface ModuleInstance {
  engine: Engine;
  realm: Realm;
}

const MAX_IDLE_PER_MODULE = 2;
const MAX_IDLE_MODULES = 8;

// Insertion order doubles as LRU order: a key is re-inserted when used.
const idleModules = new Map<string, ModuleInstance[]>();

function idleModuleCount(): number {
  let n = 0;
  for (const list of idleModules.values()) n += list.length;
  return n;
}

function takeModule(code: string): ModuleInstance | undefined {
  const list = idleModules.get(code);
  const inst = list?.pop();
  if (list && list.length === 0) idleModules.delete(code);
  return inst;
}

function releaseModule(code: string, inst: ModuleInstance): void {
  if (!inst.engine.usable) return inst.engine.dispose();
  const list = idleModules.get(code) ?? [];
  idleModules.delete(code);
  if (list.length >= MAX_IDLE_PER_MODULE) {
    inst.engine.dispose();
  } else {
    list.push(inst);
  }
  idleModules.set(code, list);
  while (idleModuleCount() > MAX_IDLE_MODULES) {
    const [oldestKey, oldest] = idleModules.entries().next().value!;
    oldest.shift()?.engine.dispose();
    if (oldest.length === 0) idleModules.delete(oldestKey);
  }
}

/** Calls `fn(args, ctx)` exported by module `code` in a sandbox; resolves with its (JSON) value. */
export async function runModuleFunction(opts: ModuleCallOptions): Promise<unknown> {
  const limits = limitsFrom(opts.limits);
  const host = opts.ctx?.host;
  const call = newCall({ limits, callTool: opts.ctx?.callTool, host, file: "module.js", lineOffset: 0, signal: opts.signal });
  const payload = JSON.stringify({
    args: JSON.parse(jsonPayload(opts.args ?? {})),
    env: { ...opts.ctx?.env },
    ops: Object.keys(host?.ops ?? {}),
  });
  const reuse = opts.reuse !== false;
  let inst = reuse ? takeModule(opts.code) : undefined;
  if (!inst) {
    const engine = await Engine.create();
    try {
      const realm = engine.newRealm(call);
      inst = { engine, realm };
      engine.loadModule(call, realm, opts.code);
    } catch (e) {
      engine.dispose();
      throw e;
    }
  }
  const { engine, realm } = inst;
  try {
    const { vm } = realm;
    const fnHandle = engine.enter(call, () => vm.getProp(realm.exports!, opts.fn));
    if (vm.typeof(fnHandle) !== "function") {
      fnHandle.dispose();
      const names = engine.enter(call, () => vm.getOwnPropertyNames(realm.exports!).unwrap().map((h) => h.consume((x) => vm.getString(x))));
      throw new SandboxError(`the module has no exported function "${opts.fn}" (it exports: ${names.join(", ") || "nothing"})`, "export");
    }
    try {
      return await engine.run(call, realm, "callExport", fnHandle, payload);
    } finally {
      if (!engine.dead) fnHandle.dispose();
    }
  } finally {
    if (reuse) releaseModule(opts.code, inst);
    else engine.dispose();
  }
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
  /** What the user granted this module in .pml.json sandbox.grants.<ns>. */
  grant?: { write?: boolean; net?: string[] };
  /** ctx.env: the variables the environment resolver granted this module (default none). */
  env?: Record<string, string>;
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
    grants: moduleGrants(d, opts.netAllow, opts.grant),
    audit: (entry) => void appendAudit(workspace, entry).catch(() => {}),
  });
  let limits = opts.limits;
  const timeoutMs = (opts.args as any)?.timeout_ms;
  if (isBuiltinShell(d) && typeof timeoutMs === "number" && timeoutMs > 0) {
    // The command's own timeout governs; the sandbox call must outlive it.
    limits = { ...limits, wallMs: Math.max(limits?.wallMs ?? DEFAULT_LIMITS.wallMs, Math.min(timeoutMs, 600_000) + 10_000) };
  }
  return runModuleFunction({ code: d.code, fn: opts.action, args: opts.args, ctx: { env, callTool: opts.callTool, host }, limits, signal: opts.signal });
}

/** Drops every pooled module engine (tests, shutdown). */
export function clearModulePool(): void {
  for (const list of idleModules.values()) for (const inst of list) inst.engine.dispose();
  idleModules.clear();
}
