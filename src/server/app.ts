// The registry HTTP API as a plain fetch handler (Request -> Response), so it runs under Bun.serve
// and can be called directly in tests. Routes live in one table: adding POST /mcp/tools/call later
// is one more line.
import { isValidFqdn } from "../registry/fqdn.ts";
import { BadCursorError, type RegistryStore } from "./store.ts";

export interface RegistryAppOptions {
  store: RegistryStore;
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
    let allowed: string[] = [];
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

export function registryRoutes(opts: RegistryAppOptions): Route[] {
  const { store } = opts;
  const maxAgeS = opts.maxAgeS ?? 60;
  const defaultLimit = opts.defaultLimit ?? 50;
  const maxLimit = opts.maxLimit ?? 100;

  return [
    {
      method: "GET",
      path: "/mcp",
      async handler(_req, _params, url) {
        const rawLimit = url.searchParams.get("limit");
        let limit = defaultLimit;
        if (rawLimit !== null && rawLimit !== "") {
          if (!/^\d{1,6}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > maxLimit) {
            return errorJson(400, "bad_request", `limit must be an integer from 1 to ${maxLimit}`);
          }
          limit = Number(rawLimit);
        }
        const cursor = url.searchParams.get("cursor") || null;
        try {
          return json(await store.list(cursor, limit), 200, { "cache-control": "no-cache" });
        } catch (e) {
          if (e instanceof BadCursorError) return errorJson(400, "bad_request", e.message);
          throw e;
        }
      },
    },
    {
      method: "GET",
      path: "/mcp/:fqdn",
      async handler(req, params) {
        const fqdn = fqdnParam(params.fqdn!);
        if (fqdn instanceof Response) return fqdn;
        const entry = await store.get(fqdn);
        if (!entry) return errorJson(404, "not_found", `MCP '${fqdn}' is not in this registry`);
        const headers = { etag: entry.etag, "cache-control": `max-age=${maxAgeS}` };
        if (etagMatches(req.headers.get("if-none-match"), entry.etag)) return new Response(null, { status: 304, headers });
        return new Response(req.method === "HEAD" ? null : entry.body, { status: 200, headers: { ...headers, "content-type": entry.contentType } });
      },
    },
  ];
}

export function createRegistryApp(opts: RegistryAppOptions, extraRoutes: Route[] = []): (req: Request) => Promise<Response> {
  return createRouter([...registryRoutes(opts), ...extraRoutes]);
}
