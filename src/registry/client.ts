// The registry protocol, client side: GET {registry}/mcp/{fqdn} -> Descriptor, GET {registry}/mcp
// -> the catalog. Every request has a timeout and honours the caller's AbortSignal, so nothing
// hangs. With a cache, a fresh entry costs no request, a stale one is revalidated with
// If-None-Match, and an unreachable registry falls back to what is cached (one warning).
import { HttpError, httpRequest } from "../http/request.ts";
import * as v from "valibot";
import type { Descriptor } from "./descriptor.ts";
import { parseDescriptorDocument } from "./documents.ts";
import { isValidFqdn, normalizeRegistryUrl } from "./fqdn.ts";
import { compileModule, issuePath, RegistryDocumentError } from "./module-code.ts";
import { sha256Hex, type CacheRecord, type ModuleCache } from "./module-cache.ts";
import { ToolError } from "../mcp/tool-result.ts";
import { log } from "../log.ts";

export { RegistryDocumentError } from "./module-code.ts";

export const DEFAULT_REGISTRY_TIMEOUT_MS = 5_000;
/** Documents above this size are refused: a registry entry is code or a descriptor, not a download. */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface FetchEntryOptions extends RequestOptions {
  /** Where fetched entries are kept; null or absent: no disk cache. */
  cache?: ModuleCache | null;
  now?: () => number;
}

export interface FetchedEntry {
  descriptor: Descriptor;
  /** "network": fetched now; "cache": fresh cache hit; "revalidated": 304; "offline": stale cache, registry unreachable. */
  via: "network" | "cache" | "revalidated" | "offline";
  record?: CacheRecord;
}

/** The registry answered that it does not have this name. */
export class RegistryNotFoundError extends ToolError {
  override name = "RegistryNotFoundError";
  constructor(
    readonly registryUrl: string,
    readonly fqdn: string,
  ) {
    super(`MCP '${fqdn}' not in registry ${registryUrl}`);
  }
}

/** No usable answer (network error, timeout, 5xx) and nothing cached. */
export class RegistryUnreachableError extends ToolError {
  override name = "RegistryUnreachableError";
  constructor(
    readonly registryUrl: string,
    readonly fqdn: string,
    readonly reason: string,
  ) {
    super(`registry ${registryUrl} is unreachable (${reason}) and MCP '${fqdn}' is not cached. Reconnect and try again, or declare '${fqdn}' in .pml.json "private_mcps".`);
  }
}

/** Thrown inside request(): the transport failed; carries the reason for the messages above. */
class Unreachable extends Error {}

const MODULE_TYPES: Record<string, "ts" | "js"> = {
  "application/typescript": "ts",
  "text/typescript": "ts",
  "application/x-typescript": "ts",
  "application/javascript": "js",
  "text/javascript": "js",
};

export function entryUrl(registryUrl: string, fqdn: string): string {
  return `${normalizeRegistryUrl(registryUrl)}/mcp/${encodeURIComponent(fqdn)}`;
}

function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Turn a served document into a Descriptor, by content type. */
export function parseEntry(body: string, contentType: string, registryUrl: string, fqdn: string): Descriptor {
  const type = mediaType(contentType);
  const loader = Object.hasOwn(MODULE_TYPES, type) ? MODULE_TYPES[type] : undefined;
  if (loader) return compileModule(body, { registryUrl, fqdn }, loader);
  if (type === "application/json" || type.endsWith("+json")) {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch (e) {
      throw new RegistryDocumentError(`registry ${registryUrl}: the document for '${fqdn}' is not valid JSON (${(e as Error).message})`);
    }
    return parseDescriptorDocument(doc, { where: `registry ${registryUrl}`, fqdn });
  }
  throw new RegistryDocumentError(
    `registry ${registryUrl} answered '${fqdn}' with content type "${type || "(none)"}"; expected application/typescript, application/javascript or application/json`,
  );
}

/** max-age in seconds from Cache-Control; no-cache/no-store/absent -> 0 (revalidate next time). */
export function maxAgeOf(cacheControl: string | null): { maxAgeS: number; store: boolean } {
  const cc = (cacheControl ?? "").toLowerCase();
  if (/(^|,)\s*no-store\s*(,|$)/.test(cc)) return { maxAgeS: 0, store: false };
  if (/(^|,)\s*no-cache\s*(,|$)/.test(cc)) return { maxAgeS: 0, store: true };
  const m = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/.exec(cc);
  return { maxAgeS: m ? Math.min(Number(m[1]), 365 * 24 * 3600) : 0, store: true };
}

interface RawResponse {
  status: number;
  headers: Headers;
  body: string;
}

/** One GET (retried on 5xx/429 and network failures) with a time limit over headers and body.
 * Transport failures -> Unreachable; refusals (plain http, a redirect off the registry) -> ToolError. */
async function request(url: string, headers: Record<string, string>, opts: RequestOptions): Promise<RawResponse> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_REGISTRY_TIMEOUT_MS;
  try {
    const res = await httpRequest(url, { headers, timeoutMs, signal: opts.signal, what: "registry URL", maxBytes: MAX_DOCUMENT_BYTES });
    return { status: res.status, headers: res.headers, body: await res.text() };
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    if (e.kind === "refused") throw new ToolError(e.message);
    throw new Unreachable(e.kind === "too-large" ? "document too large" : e.message);
  }
}

function notFoundOrStatus(res: RawResponse, registryUrl: string, fqdn: string): Error {
  if (res.status === 404) return new RegistryNotFoundError(registryUrl, fqdn);
  let detail = "";
  try {
    const j = JSON.parse(res.body);
    if (j && typeof j.message === "string") detail = `: ${j.message}`;
  } catch {}
  return new RegistryDocumentError(`registry ${registryUrl} refused '${fqdn}' (HTTP ${res.status}${detail})`);
}

const warnedOffline = new Set<string>();

/** Fetch (or load from cache) one registry entry. See FetchedEntry.via for where it came from. */
export async function loadEntry(registryUrl: string, fqdn: string, opts: FetchEntryOptions = {}): Promise<FetchedEntry> {
  const registry = normalizeRegistryUrl(registryUrl);
  if (!isValidFqdn(fqdn)) {
    throw new ToolError(`'${fqdn}' is not a valid MCP name: use letters, digits, '_' or '-', in dot-separated parts (e.g. "memory" or "acme.tools.search")`);
  }
  const cache = opts.cache ?? null;
  const now = opts.now ?? Date.now;
  const cached = cache?.get(registry, fqdn) ?? null;
  if (cached && cache!.isFresh(cached.record, now())) return { descriptor: cached.descriptor, via: "cache", record: cached.record };

  const url = entryUrl(registry, fqdn);
  const headers: Record<string, string> = {
    accept: "application/typescript, application/javascript;q=0.9, application/json;q=0.9, text/typescript;q=0.8",
  };
  if (cached?.record.etag) headers["if-none-match"] = cached.record.etag;

  let res: RawResponse;
  try {
    res = await request(url, headers, opts);
    if (res.status >= 500) throw new Unreachable(`HTTP ${res.status}`);
  } catch (e) {
    if (!(e instanceof Unreachable)) throw e;
    if (cached) {
      if (!warnedOffline.has(registry)) {
        warnedOffline.add(registry);
        log.warn(`registry ${registry} is unreachable (${e.message}); using cached entries`);
      }
      return { descriptor: cached.descriptor, via: "offline", record: cached.record };
    }
    throw new RegistryUnreachableError(registry, fqdn, e.message);
  }

  const { maxAgeS, store } = maxAgeOf(res.headers.get("cache-control"));
  const etag = res.headers.get("etag") ?? undefined;
  if (res.status === 304) {
    if (!cached) throw new RegistryDocumentError(`registry ${registry} answered 304 Not Modified for '${fqdn}' without a conditional request`);
    const record = await cache!.touch(cached.record, { maxAgeS, etag, fetchedAt: now() });
    return { descriptor: cached.descriptor, via: "revalidated", record };
  }
  if (res.status !== 200) {
    if (res.status === 404) cache?.delete(registry, fqdn);
    throw notFoundOrStatus(res, registry, fqdn);
  }

  const contentType = res.headers.get("content-type") ?? "";
  const sourceSha256 = sha256Hex(res.body);
  // Same bytes under a new ETag: keep the transpiled code we already have.
  const descriptor = cached && cached.record.sourceSha256 === sourceSha256 ? cached.descriptor : parseEntry(res.body, contentType, registry, fqdn);
  let record: CacheRecord | undefined;
  if (cache && store) {
    try {
      record = await cache.put(registry, fqdn, descriptor, { url, sourceSha256, contentType: mediaType(contentType), etag, maxAgeS, fetchedAt: now() });
    } catch (e) {
      log.warn(`module cache: could not store '${fqdn}' (${(e as Error).message}); it will be fetched again next time`);
    }
  }
  return { descriptor, via: "network", record };
}

/** fetchEntry = loadEntry's descriptor. */
export async function fetchEntry(registryUrl: string, fqdn: string, opts: FetchEntryOptions = {}): Promise<Descriptor> {
  return (await loadEntry(registryUrl, fqdn, opts)).descriptor;
}

export const CatalogItemSchema = v.looseObject({
  fqdn: v.string(),
  type: v.string(),
  description: v.optional(v.nullable(v.string())),
});
export const CatalogPageSchema = v.looseObject({
  items: v.array(CatalogItemSchema),
  next_cursor: v.optional(v.nullable(v.string()), null),
});
export type CatalogPage = v.InferOutput<typeof CatalogPageSchema>;

/** One page of the registry's catalog. */
export async function listEntries(registryUrl: string, opts: RequestOptions & { cursor?: string | null; limit?: number } = {}): Promise<CatalogPage> {
  const registry = normalizeRegistryUrl(registryUrl);
  const params = new URLSearchParams();
  if (opts.cursor) params.set("cursor", opts.cursor);
  if (opts.limit !== undefined) params.set("limit", String(opts.limit));
  const qs = params.toString();
  let res: RawResponse;
  try {
    res = await request(`${registry}/mcp${qs ? `?${qs}` : ""}`, { accept: "application/json" }, opts);
  } catch (e) {
    if (e instanceof Unreachable) throw new ToolError(`registry ${registry} is unreachable (${e.message}); its catalog cannot be listed`);
    throw e;
  }
  if (res.status !== 200) {
    let detail = "";
    try {
      detail = `: ${JSON.parse(res.body).message ?? ""}`;
    } catch {}
    throw new RegistryDocumentError(`registry ${registry} refused the catalog request (HTTP ${res.status}${detail})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(res.body);
  } catch (e) {
    throw new RegistryDocumentError(`registry ${registry}: the catalog is not valid JSON (${(e as Error).message})`);
  }
  const parsed = v.safeParse(CatalogPageSchema, doc);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new RegistryDocumentError(`registry ${registry}: malformed catalog at '${issuePath(issue)}': ${issue.message}`);
  }
  return parsed.output;
}
