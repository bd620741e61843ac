// Namespace -> descriptor, in the order the user expects: .pml.json private_mcps (they win), each
// URL of .pml.json `registries` in order, the default registry (cloud.url), then the catalog built
// into the binary. Resolutions are kept in memory for the life of the process.
import * as v from "valibot";
import { DescriptorSchema, type Descriptor } from "./descriptor.ts";
import { isValidFqdn, normalizeRegistryUrl } from "./fqdn.ts";
import { issuePath, RegistryDocumentError } from "./module-code.ts";
import { listEntries, loadEntry, RegistryNotFoundError, RegistryUnreachableError, DEFAULT_REGISTRY_TIMEOUT_MS } from "./client.ts";
import { defaultModuleCache, type ModuleCache } from "./module-cache.ts";
import { ToolError } from "../mcp/tool-result.ts";
import { insecureUrlReason } from "../http/secure-url.ts";
import { log } from "../log.ts";

/** The slice of .pml.json the resolver reads (structurally the config's ProjectConfig). */
export interface ResolverConfig {
  private_mcps?: Record<string, unknown>;
  registries?: string[];
  cloud?: { url?: string };
}

export interface Resolution {
  descriptor: Descriptor;
  /** ".pml.json", a registry URL, or "builtin". */
  source: string;
  /** "user": an entry the user wrote (private_mcps), which gets the variables it asks for. */
  origin?: "user";
}

export interface ListedMcp {
  ns: string;
  type: string;
  description?: string;
  source: string;
}

export interface ResolverOptions {
  config: ResolverConfig;
  /** The project root (string or a Workspace); only used to name .pml.json in messages. */
  workspace?: string | { root: string };
  /** The built-in catalog and built-in modules, last in line. */
  builtins?: Record<string, Descriptor>;
  timeoutMs?: number;
  /** Disk cache for registry entries; default the one under PML_HOME, null for none. */
  cache?: ModuleCache | null;
}

export interface Resolver {
  resolve(ns: string, opts?: { signal?: AbortSignal }): Promise<Resolution>;
  /** Every namespace known to the sources (registries that cannot be reached are skipped with a warning). */
  list(opts?: { signal?: AbortSignal; maxPerRegistry?: number }): Promise<ListedMcp[]>;
  /** The registry URLs consulted, in order. */
  readonly registries: readonly string[];
}

export const PRIVATE_SOURCE = ".pml.json";
export const BUILTIN_SOURCE = "builtin";

/** A private_mcps entry -> Descriptor. `{command, args?, env?}` without a type means stdio. */
export function privateDescriptor(ns: string, entry: unknown, file = PRIVATE_SOURCE): Descriptor {
  const input = entry && typeof entry === "object" && !Array.isArray(entry) && (entry as any).type === undefined ? { type: "stdio", ...(entry as object) } : entry;
  const parsed = v.safeParse(DescriptorSchema, input);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new RegistryDocumentError(`${file}: private_mcps.${ns}.${issuePath(issue)}: ${issue.message}`);
  }
  const d = parsed.output;
  if (d.type === "stdio" && !d.command && !d.package) {
    throw new RegistryDocumentError(`${file}: private_mcps.${ns} needs "command" (e.g. {"command": "node", "args": ["server.js"]})`);
  }
  return d.type === "module" ? { ...d, source: d.source ?? PRIVATE_SOURCE } : d;
}

/** Stdio servers from registries and the catalog always run confined (a registry cannot opt out);
 * the user's own private_mcps commands only when their entry says `"confine": true`. */
function confineDefault(r: Resolution): Resolution {
  const d = r.descriptor;
  if (d.type !== "stdio") return r;
  return { ...r, descriptor: { ...d, confine: r.source === PRIVATE_SOURCE ? d.confine === true : true } };
}

export function registryOrder(config: ResolverConfig): string[] {
  const out: string[] = [];
  for (const url of [...(config.registries ?? []), ...(config.cloud?.url ? [config.cloud.url] : [])]) {
    const n = normalizeRegistryUrl(url);
    if (n && !out.includes(n)) out.push(n);
  }
  return out;
}

export function createResolver(opts: ResolverOptions): Resolver {
  return new SourcesResolver(opts);
}

/** The sources of one .pml.json, asked in order; a resolution is kept, a failure is not. */
class SourcesResolver implements Resolver {
  readonly registries: readonly string[];
  /** Plain http registries (other than on loopback), with why: their answers decide what runs. */
  private readonly refused = new Map<string, string>();
  private readonly privates: Record<string, unknown>;
  private readonly builtins: Record<string, Descriptor>;
  private readonly cache: ModuleCache | null;
  private readonly timeoutMs: number;
  /** .pml.json as messages name it: the project's file when the workspace is known. */
  private readonly pmlJson: string;
  private readonly memo = new Map<string, Promise<Resolution>>();

  constructor(opts: ResolverOptions) {
    this.registries = registryOrder(opts.config).filter((r) => {
      const why = insecureUrlReason(r, "registry");
      if (why) this.refused.set(r, why);
      return !why;
    });
    for (const why of this.refused.values()) log.warn(`${why} Skipping it.`);
    this.privates = opts.config.private_mcps ?? {};
    this.builtins = opts.builtins ?? {};
    this.cache = opts.cache === undefined ? defaultModuleCache() : opts.cache;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_REGISTRY_TIMEOUT_MS;
    const root = typeof opts.workspace === "string" ? opts.workspace : opts.workspace?.root;
    this.pmlJson = root ? `${root.replace(/\/+$/, "")}/.pml.json` : PRIVATE_SOURCE;
  }

  resolve(ns: string, { signal }: { signal?: AbortSignal } = {}): Promise<Resolution> {
    let p = this.memo.get(ns);
    if (!p) {
      p = this.lookup(ns, signal).then(confineDefault);
      this.memo.set(ns, p);
      // Failures are not remembered: the network may come back, the user may fix .pml.json.
      p.catch(() => this.memo.delete(ns));
    }
    return p;
  }

  async list({ signal, maxPerRegistry = 1000 }: { signal?: AbortSignal; maxPerRegistry?: number } = {}): Promise<ListedMcp[]> {
    const out = new Map<string, ListedMcp>();
    const add = (item: ListedMcp) => {
      if (!out.has(item.ns)) out.set(item.ns, item);
    };
    for (const [ns, entry] of Object.entries(this.privates)) {
      try {
        const d = privateDescriptor(ns, entry, this.pmlJson);
        add({ ns, type: d.type, description: d.description, source: PRIVATE_SOURCE });
      } catch (e) {
        log.warn((e as Error).message);
      }
    }
    for (const registry of this.registries) {
      try {
        await this.listRegistry(registry, add, maxPerRegistry, signal);
      } catch (e) {
        if (signal?.aborted) throw e;
        log.warn(`skipping registry ${registry} in the list: ${(e as Error).message}`);
      }
    }
    for (const [ns, d] of Object.entries(this.builtins)) add({ ns, type: d.type, description: d.description, source: BUILTIN_SOURCE });
    return [...out.values()];
  }

  /** A registry's catalog, page by page (the pages read before a failure are kept), up to about `max` entries. */
  private async listRegistry(registry: string, add: (item: ListedMcp) => void, max: number, signal: AbortSignal | undefined): Promise<void> {
    let cursor: string | null | undefined;
    let seen = 0;
    do {
      const page = await listEntries(registry, { cursor, limit: 100, timeoutMs: this.timeoutMs, signal });
      for (const item of page.items) add({ ns: item.fqdn, type: item.type, description: item.description ?? undefined, source: registry });
      seen += page.items.length;
      cursor = page.next_cursor;
    } while (cursor && seen < max);
  }

  private async lookup(ns: string, signal?: AbortSignal): Promise<Resolution> {
    if (Object.hasOwn(this.privates, ns)) return this.fromPrivate(ns);
    if (!isValidFqdn(ns)) {
      throw new ToolError(`'${ns}' is not a valid MCP name: use letters, digits, '_' or '-', in dot-separated parts`);
    }
    const cached = this.fromCache(ns);
    if (cached) return cached;

    const looked: string[] = [`${this.pmlJson} private_mcps (no '${ns}')`, ...[...this.refused.values()].map((why) => `not asked: ${why}`)];
    const unreachable: RegistryUnreachableError[] = [];
    for (const registry of this.registries) {
      try {
        const { descriptor } = await loadEntry(registry, ns, { cache: this.cache, timeoutMs: this.timeoutMs, signal });
        return { descriptor, source: registry };
      } catch (e) {
        if (e instanceof RegistryNotFoundError) looked.push(`registry ${registry} (not found)`);
        else if (e instanceof RegistryUnreachableError) {
          unreachable.push(e);
          looked.push(`registry ${registry} (unreachable: ${e.reason})`);
        } else throw e;
      }
    }
    if (Object.hasOwn(this.builtins, ns)) return { descriptor: this.builtins[ns]!, source: BUILTIN_SOURCE };
    looked.push("the built-in catalog");
    throw this.notFound(ns, looked, unreachable);
  }

  private fromPrivate(ns: string): Resolution {
    const descriptor = privateDescriptor(ns, this.privates[ns], this.pmlJson);
    if (log.enabled("debug")) {
      // Only what is free to know: a cached registry entry or a built-in of the same name.
      const shadowed = this.registries.filter((r) => this.cache?.has(r, ns));
      if (Object.hasOwn(this.builtins, ns)) shadowed.push("the built-in catalog");
      if (shadowed.length) log.debug(`'${ns}': .pml.json private_mcps overrides ${shadowed.join(", ")}`);
    }
    return { descriptor, source: PRIVATE_SOURCE, origin: "user" };
  }

  /** A fresh cache entry costs no request. The registry order was honoured when it was fetched. */
  private fromCache(ns: string): Resolution | undefined {
    if (!this.cache) return undefined;
    for (const registry of this.registries) {
      const hit = this.cache.get(registry, ns);
      if (hit && this.cache.isFresh(hit.record)) return { descriptor: hit.descriptor, source: registry };
    }
    return undefined;
  }

  private notFound(ns: string, looked: string[], unreachable: RegistryUnreachableError[]): ToolError {
    if (unreachable.length) {
      const which = unreachable.map((u) => `${u.registryUrl} (${u.reason})`).join(", ");
      return new ToolError(
        `MCP '${ns}' is not cached and registry ${which} ${unreachable.length > 1 ? "are" : "is"} unreachable. Reconnect and try again, or declare '${ns}' in .pml.json "private_mcps". Looked in: ${looked.join("; ")}.`,
      );
    }
    if (!this.registries.length) looked.push('no registries configured (.pml.json "registries" or "cloud.url")');
    return new ToolError(
      `MCP '${ns}' not found. Looked in: ${looked.join("; ")}. Check the name, add a registry that has it to .pml.json "registries", or declare it in "private_mcps".`,
    );
  }
}
