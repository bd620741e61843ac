// Where a resolved tool actually runs: a pooled stdio server (installed on first use), module
// code in the sandbox, or the cloud. Heavy parts (pool, sandbox, registry client) load on first use.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pmlHome } from "../config/paths.ts";
import type { Descriptor, ModuleDescriptor, StdioDescriptor } from "../registry/descriptor.ts";
import { builtinCatalog } from "../registry/catalog.ts";
import type { Project } from "./project.ts";
import { ToolError, valueResult, type CallContext, type CallToolResult, type ToolInfo } from "./types.ts";

export interface Resolved {
  ns: string;
  descriptor: Descriptor;
  source: string;
}

type Pool = import("../pool/pool.ts").Pool;
type Resolver = Awaited<ReturnType<typeof import("../registry/resolve.ts").createResolver>>;

export class Backends {
  readonly builtinModules: Record<string, ModuleDescriptor>;
  private pool?: Pool;
  private resolver?: { generation: number; resolver: Resolver };
  private readonly toolsSeen = new Map<string, ToolInfo[]>();

  constructor(
    private readonly workspace: string,
    private readonly project: Project,
    builtinModules: Record<string, ModuleDescriptor>,
  ) {
    this.builtinModules = builtinModules;
  }

  /** Built-in modules and the embedded catalog: what every registry falls back to. */
  builtins(): Record<string, Descriptor> {
    return { ...builtinCatalog, ...this.builtinModules };
  }

  async resolve(ns: string, signal: AbortSignal): Promise<Resolved> {
    const state = await this.project.get();
    if (!this.resolver || this.resolver.generation !== state.generation) {
      const { createResolver } = await import("../registry/resolve.ts");
      this.resolver = { generation: state.generation, resolver: await createResolver({ config: state.config, workspace: this.workspace, builtins: this.builtins() }) };
    }
    const { descriptor, source } = await this.resolver.resolver.resolve(ns, { signal });
    if (descriptor.tools?.length) this.toolsSeen.set(ns, descriptor.tools as ToolInfo[]);
    return { ns, descriptor, source };
  }

  async run(r: Resolved, action: string, args: Record<string, unknown>, call: CallContext): Promise<CallToolResult> {
    const d = r.descriptor;
    switch (d.type) {
      case "stdio":
        return this.runStdio(r.ns, d, action, args, call);
      case "module":
        if (d.routing === "cloud") return this.runCloud(r, action, args, call);
        return this.runModule(r.ns, d, action, args, call);
      case "cloud":
        return this.runCloud(r, action, args, call);
      case "http":
        throw new ToolError(`${r.ns} is a remote MCP server (${d.url}); remote servers are not supported yet.`);
    }
  }

  private async runStdio(ns: string, d: StdioDescriptor, action: string, args: Record<string, unknown>, call: CallContext) {
    const pool = await this.getPool();
    const { ensureInstalled } = await import("../loader/install.ts");
    const launch = (progress: (m: string) => void, signal: AbortSignal) =>
      ensureInstalled(d, { signal, progress, workspace: this.workspace });
    const result = await pool.call(ns, launch, action, args, call);
    const tools = pool.cachedTools(ns);
    if (tools) this.rememberTools(ns, tools);
    return result;
  }

  private async runModule(ns: string, d: ModuleDescriptor, action: string, args: Record<string, unknown>, call: CallContext) {
    const { runModuleTool } = await import("../sandbox/module-runner.ts");
    const value = await runModuleTool({ ns, descriptor: d, action, args, workspace: this.workspace, signal: call.signal, limits: this.sandboxLimits() });
    return valueResult(value);
  }

  private async runCloud(r: Resolved, action: string, args: Record<string, unknown>, call: CallContext): Promise<CallToolResult> {
    const { callCloud } = await import("../cloud/call.ts");
    const state = await this.project.get();
    return callCloud({ ns: r.ns, action, args, descriptor: r.descriptor, config: state.config, workspace: this.workspace, signal: call.signal });
  }

  sandboxLimits() {
    return {};
  }

  /** Tools known for a namespace without starting anything: descriptor, catalog, or a past run. */
  knownTools(ns: string): ToolInfo[] | undefined {
    return (
      this.toolsSeen.get(ns) ??
      (this.builtinModules[ns]?.tools as ToolInfo[] | undefined) ??
      (builtinCatalog[ns]?.tools as ToolInfo[] | undefined) ??
      this.toolsFromDisk()[ns]
    );
  }

  installedNamespaces(): string[] {
    try {
      const state = JSON.parse(readFileSync(join(pmlHome(), "deps.json"), "utf8"));
      const packages = new Set(Object.values(state.packages ?? {}).map((p: any) => p.identifier));
      return Object.entries(builtinCatalog)
        .filter(([, d]) => d.package && packages.has(d.package.identifier))
        .map(([ns]) => ns);
    } catch {
      return [];
    }
  }

  private diskTools?: Record<string, ToolInfo[]>;
  private toolsFromDisk(): Record<string, ToolInfo[]> {
    if (!this.diskTools) {
      try {
        this.diskTools = JSON.parse(readFileSync(join(pmlHome(), "tools.json"), "utf8"));
      } catch {
        this.diskTools = {};
      }
    }
    return this.diskTools!;
  }

  private rememberTools(ns: string, tools: ToolInfo[]): void {
    if (this.toolsSeen.get(ns) === tools) return;
    this.toolsSeen.set(ns, tools);
  }

  private async getPool(): Promise<Pool> {
    if (!this.pool) {
      const { Pool } = await import("../pool/pool.ts");
      const cfg = (await this.project.get()).config;
      this.pool = new Pool({
        idleTimeoutMs: (cfg.pool?.idle_timeout_s ?? 300) * 1000,
        callTimeoutMs: (cfg.pool?.call_timeout_s ?? 120) * 1000,
        workspace: this.workspace,
      });
    }
    return this.pool;
  }

  async discover(args: Record<string, unknown>, signal: AbortSignal) {
    return { todo: true, args, aborted: signal.aborted };
  }

  status() {
    return { running: this.pool?.running?.() ?? [] };
  }

  async shutdown(): Promise<void> {
    await this.pool?.shutdown();
  }
}
