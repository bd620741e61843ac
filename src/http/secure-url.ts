// Where pml may send keys, descriptors' requests and code fetches: https anywhere, plain http only
// to this machine (a local `pml registry serve`, a test stand-in). Anything else could be read or
// rewritten on the way, so it is refused with a message saying so.
import { quoted } from "../visible-text.ts";

/** Loopback hosts: the only place plain http is allowed. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** True for https URLs and http URLs on loopback. */
export function isSecureUrl(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

/** Why an http(s) URL is refused, or undefined when it is fine. `what` names it ("registry"). */
export function insecureUrlReason(raw: string, what: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${what} ${quoted(raw)} is not a URL; use https://host/path.`;
  }
  if (isSecureUrl(url)) return undefined;
  if (url.protocol === "http:")
    return `${what} ${url.href} is refused: plain http:// is allowed only on this machine (localhost, 127.0.0.1, ::1), since anyone on the way could read or change what it sends. Use https://${url.host}${url.pathname === "/" ? "" : url.pathname}.`;
  return `${what} ${url.href} is refused: only https:// (or http:// on localhost) is supported.`;
}
