// The checks that keep a web page from reaching a server pml runs on the loopback interface:
// `pml serve`'s MCP endpoint and the `pml ui` page. A page on evil.example whose name resolves to
// 127.0.0.1 (DNS rebinding) still sends `Host: evil.example`; a page of another origin that posts
// to us sends its own Origin.
import { httpError } from "./wire.ts";

/** Loopback Origin values a local tool (inspector, browser devtool) may send; any port. */
export const LOCAL_ORIGIN = /^https?:\/\/(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])(:\d+)?$/i;

/** The Host values a server listening on `host:port` answers to. */
export function loopbackHosts(host: string, port: number): Set<string> {
  return new Set(["127.0.0.1", "localhost", "[::1]", host.includes(":") && !host.startsWith("[") ? `[${host}]` : host].map((h) => `${h.toLowerCase()}:${port}`));
}

/** The 403 refusing a request whose Host is not one of `allowed`, or undefined. */
export function hostRefusal(req: Request, allowed: Set<string>): Response | undefined {
  const host = (req.headers.get("host") ?? "").toLowerCase();
  if (allowed.has(host)) return undefined;
  return httpError(403, `Forbidden: Host ${JSON.stringify(host)} is not this server (use ${[...allowed][0]})`);
}

/** The 403 refusing a request whose Origin (when it sends one) `allowed` rejects, or undefined. */
export function originRefusal(req: Request, allowed: (origin: string) => boolean = (o) => LOCAL_ORIGIN.test(o)): Response | undefined {
  const origin = req.headers.get("origin");
  if (!origin || allowed(origin)) return undefined;
  return httpError(403, `Forbidden: Origin ${origin} is not allowed (only local origins may call pml)`);
}
