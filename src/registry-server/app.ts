// The registry HTTP API as a plain fetch handler (Request -> Response), so it runs under Bun.serve
// and can be called directly in tests. Routes live in one table. Reads are anonymous unless they
// carry a key (then the caller also sees its org's and its own private capabilities); what a caller
// may not see answers exactly like what does not exist.
import { isValidFqdn } from "../registry/fqdn.ts";
import { ApiKeys, type Identity } from "./api-keys.ts";
import { parsePublish, PublishError } from "./capability-record.ts";
import { BadCursorError, type RegistryStore } from "./store.ts";

export interface RegistryAppOptions {
  store: RegistryStore;
  /** Keys that identify callers (reads of non-public capabilities, publishes). Default: none. */
  apiKeys?: ApiKeys;
  /** Cache-Control max-age (seconds) on entries; default 60. */
  maxAgeS?: number;
  defaultLimit?: number;
  maxLimit?: number;
}

export type RouteHandler = (req: Request, params: Record<string, string>, url: URL) => Response | Promise<Response>;

export interface Route {
  method: string;
  /** Segments; ":name" captures one raw (still percent-encoded) segment. */
  path: string;
  handler: RouteHandler;
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
}

export function errorJson(status: number, error: string, message: string): Response {
  return json({ error, message }, status);
}

function match(pattern: string, pathname: string): Record<string, string> | null {
  const p = pattern.split("/");
  const s = pathname.split("/");
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i]!.startsWith(":")) params[p[i]!.slice(1)] = s[i]!;
    else if (p[i] !== s[i]) return null;
  }
  return params;
}

/** Dispatch over a route table: 404 JSON for unknown paths, 405 for a known path and wrong method. */
export function createRouter(routes: Route[]): (req: Request) => Promise<Response> {
  return async (req) => {
    const url = new URL(req.url);
    // "/mcp/" and "/mcp" are the same resource.
    const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname;
    const allowed: string[] = [];
    for (const route of routes) {
      const params = match(route.path, pathname);
      if (!params) continue;
      if (route.method === req.method || (route.method === "GET" && req.method === "HEAD")) {
        try {
          return await route.handler(req, params, url);
        } catch (e) {
          return errorJson(500, "internal", `the registry failed to answer: ${(e as Error).message}`);
        }
      }
      allowed.push(route.method);
    }
    if (allowed.length) {
      return new Response(JSON.stringify({ error: "method_not_allowed", message: `use ${allowed.join(", ")} on ${pathname}` }), {
        status: 405,
        headers: { "content-type": "application/json; charset=utf-8", allow: allowed.join(", ") },
      });
    }
    return errorJson(404, "not_found", `no such endpoint: ${pathname} (try GET /mcp or GET /mcp/{fqdn})`);
  };
}

function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

/** The fqdn from a raw path segment, or a 400 explaining the rule. */
function fqdnParam(raw: string): string | Response {
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    return errorJson(400, "bad_request", "the name is not valid percent-encoding");
  }
  if (!isValidFqdn(name)) {
    return errorJson(
      400,
      "bad_request",
      "invalid MCP name: use letters, digits, '_' or '-', in dot-separated parts (e.g. 'memory' or 'acme.tools.search'), at most 200 characters",
    );
  }
  return name;
}

const MAX_PUBLISH_BODY = 1024 * 1024;

function unauthorized(message: string): Response {
  return new Response(JSON.stringify({ error: "unauthorized", message }), {
    status: 401,
    headers: { "content-type": "application/json; charset=utf-8", "www-authenticate": 'Bearer realm="pml"' },
  });
}

/**
 * The caller of a read: anonymous without an Authorization header, its identity with a known key
 * (null for a key without one), or a 401 for a key this server does not accept (a typo in a key
 * should say so, not quietly show less).
 */
function reader(req: Request, keys: ApiKeys): Identity | null | Response {
  const header = req.headers.get("authorization");
  if (header === null) return null;
  const caller = keys.identify(header);
  if (!caller.ok) return unauthorized("this registry does not accept that key: check PML_API_KEY, or send no Authorization header to see public entries only");
  return caller.identity;
}

/** The options with their defaults filled in, as the route handlers read them. */
interface Settings {
  store: RegistryStore;
  apiKeys: ApiKeys;
  maxAgeS: number;
  defaultLimit: number;
  maxLimit: number;
}

export function registryRoutes(opts: RegistryAppOptions): Route[] {
  const settings: Settings = {
    store: opts.store,
    apiKeys: opts.apiKeys ?? new ApiKeys([]),
    maxAgeS: opts.maxAgeS ?? 60,
    defaultLimit: opts.defaultLimit ?? 50,
    maxLimit: opts.maxLimit ?? 100,
  };
  return [
    { method: "GET", path: "/mcp", handler: (req, _params, url) => listCatalog(settings, req, url) },
    { method: "GET", path: "/mcp/:fqdn", handler: (req, params, url) => getEntry(settings, req, params.fqdn!, url) },
    { method: "POST", path: "/mcp/capabilities", handler: (req) => publishCapability(settings, req) },
  ];
}

/** GET /mcp: a page of the catalog, or the entries matching `text` / `name`. */
async function listCatalog({ store, apiKeys, defaultLimit, maxLimit }: Settings, req: Request, url: URL): Promise<Response> {
  const viewer = reader(req, apiKeys);
  if (viewer instanceof Response) return viewer;
  const rawLimit = url.searchParams.get("limit");
  let limit = defaultLimit;
  if (rawLimit !== null && rawLimit !== "") {
    if (!/^\d{1,6}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > maxLimit) {
      return errorJson(400, "bad_request", `limit must be an integer from 1 to ${maxLimit}`);
    }
    limit = Number(rawLimit);
  }
  const cursor = url.searchParams.get("cursor") || null;
  const text = url.searchParams.get("text") ?? undefined;
  if (text !== undefined && text.length > 500) return errorJson(400, "bad_request", "text is longer than 500 characters: use a few words");
  const name = url.searchParams.get("name") ?? undefined;
  if (name !== undefined && name.length > 200) return errorJson(400, "bad_request", "name is longer than 200 characters: give a capability name like fs:read_json");
  try {
    const slice = await store.list({ cursor, limit, text, name, viewer });
    return json(viewer ? { ...slice, viewer: { org: viewer.org, user: viewer.user } } : slice, 200, { "cache-control": "no-cache", vary: "authorization" });
  } catch (e) {
    if (e instanceof BadCursorError) return errorJson(400, "bad_request", e.message);
    throw e;
  }
}

/** GET /mcp/{fqdn}: one entry, as a module (default) or a capability's JSON record. */
async function getEntry({ store, apiKeys, maxAgeS }: Settings, req: Request, rawFqdn: string, url: URL): Promise<Response> {
  const fqdn = fqdnParam(rawFqdn);
  if (fqdn instanceof Response) return fqdn;
  const viewer = reader(req, apiKeys);
  if (viewer instanceof Response) return viewer;
  const format = url.searchParams.get("format") ?? "module";
  if (format !== "module" && format !== "record") return errorJson(400, "bad_request", "format must be module (the default) or record (a capability's JSON record)");
  const entry = format === "record" ? ((await store.getRecord?.(fqdn, viewer)) ?? null) : await store.get(fqdn, viewer);
  if (!entry) return errorJson(404, "not_found", `MCP '${fqdn}' is not in this registry`);
  // An answer that depended on the key must not be served from a shared cache to someone else.
  const headers: Record<string, string> = viewer
    ? { etag: entry.etag, "cache-control": `private, max-age=${maxAgeS}`, vary: "authorization" }
    : { etag: entry.etag, "cache-control": `max-age=${maxAgeS}`, vary: "authorization" };
  if (etagMatches(req.headers.get("if-none-match"), entry.etag)) return new Response(null, { status: 304, headers });
  return new Response(req.method === "HEAD" ? null : entry.body, { status: 200, headers: { ...headers, "content-type": entry.contentType } });
}

/** POST /mcp/capabilities: publish, for a caller whose key names an org and a user. */
async function publishCapability({ store, apiKeys }: Settings, req: Request): Promise<Response> {
  if (!store.publish)
    return errorJson(
      405,
      "read_only",
      `this registry serves a directory (${store.label}) and is read-only: start it with --database sqlite:PATH or postgres://… to accept capabilities`,
    );
  const caller = apiKeys.identify(req.headers.get("authorization"));
  if (!caller.ok) return unauthorized("publishing needs Authorization: Bearer <PML_API_KEY> with a key this registry accepts");
  if (!caller.identity)
    return errorJson(403, "no_identity", 'this key has no org and user: the registry\'s operator must map it in --api-keys-file ({"keys": [{"key", "org", "user"}]})');
  if (Number(req.headers.get("content-length") ?? 0) > MAX_PUBLISH_BODY) return errorJson(413, "too_large", "a capability is at most 1 MiB of JSON");
  let raw: unknown;
  try {
    const text = await req.text();
    if (text.length > MAX_PUBLISH_BODY) return errorJson(413, "too_large", "a capability is at most 1 MiB of JSON");
    raw = JSON.parse(text);
  } catch (e) {
    return errorJson(400, "bad_request", `the body is not JSON (${(e as Error).message}): send {"name": "ns:action", "project", "code", ...}`);
  }
  try {
    const result = await store.publish(caller.identity, parsePublish(raw));
    return json(result, result.status === "unchanged" || result.status === "visibility" ? 200 : 201, { "cache-control": "no-store" });
  } catch (e) {
    if (e instanceof PublishError) return errorJson(e.status, e.code, e.message);
    throw e;
  }
}

export function createRegistryApp(opts: RegistryAppOptions, extraRoutes: Route[] = []): (req: Request) => Promise<Response> {
  return createRouter([...registryRoutes(opts), ...extraRoutes]);
}
