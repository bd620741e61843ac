// ctx.fetch on the host side: http and https only, to hosts the user allowed (and the module
// declared, when it declares any), each redirect checked again.
import type { HostOp } from "./call-state.ts";
import { type HostChecks, str } from "./host-checks.ts";
import { readCapped } from "./read-capped.ts";

const MAX_FETCH_BYTES = 5 * 1024 * 1024;

export const NETWORK_ISOLATED = "local modules are network-isolated; allow hosts in .pml.json sandbox.net_allow";

function hostAllowed(hostname: string, allow: string[]): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  return allow.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p === "*") return true;
    if (p.startsWith("*.")) return h.endsWith(p.slice(1)) && h.length > p.length - 1;
    return h === p;
  });
}

async function fetchUrl(c: HostChecks, a: any, signal: AbortSignal) {
  let url: URL;
  try {
    url = new URL(str(a?.url, "url"));
  } catch {
    throw new TypeError(`invalid URL ${JSON.stringify(a?.url)}`);
  }
  const { grants } = c;
  const method = typeof a?.method === "string" ? a.method.toUpperCase() : "GET";
  for (let hop = 0; ; hop++) {
    if (url.protocol !== "https:" && url.protocol !== "http:") c.refuse(`fetch ${url.href}`, `only http and https URLs can be fetched`);
    if (!hostAllowed(url.hostname, grants.net ?? []) || (grants.netDeclared && !hostAllowed(url.hostname, grants.netDeclared))) {
      c.refuse(`fetch ${url.href}`, `host ${url.hostname} is not in sandbox.net_allow`, `${NETWORK_ISOLATED} (refused: ${url.hostname})`);
    }
    const res = await fetch(url, {
      method,
      headers: a?.headers && typeof a.headers === "object" ? a.headers : undefined,
      body: typeof a?.body === "string" ? a.body : undefined,
      redirect: "manual",
      signal,
    });
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location && hop < 5) {
      url = new URL(location, url); // each hop is checked against the allow list again
      await res.body?.cancel();
      continue;
    }
    const body = await readCapped(res.body, MAX_FETCH_BYTES);
    return { url: url.href, status: res.status, statusText: res.statusText, headers: Object.fromEntries(res.headers), body: body.text, truncated: body.truncated };
  }
}

/** The ctx.fetch host op, checked by `c`. */
export function fetchOp(c: HostChecks): HostOp {
  return (a, signal) => fetchUrl(c, a, signal);
}
