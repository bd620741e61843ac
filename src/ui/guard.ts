// Who may talk to the `pml ui` server: a browser on this machine that opened the address `pml ui`
// printed. Checked before any path is looked at, so a refusal says nothing about what exists:
// the Host and Origin as `pml serve` checks them (DNS rebinding, other sites), then the per-launch
// token (in the URL once; then an HttpOnly, SameSite=Strict cookie), and for a POST a CSRF token
// the page read from the API plus its own Origin.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { hostRefusal, loopbackHosts, originRefusal } from "../gateway/transports/http/loopback.ts";

export const CSRF_HEADER = "x-pml-csrf";
/** The one body of every 401, whatever the path. */
export const UNAUTHORIZED = "Unauthorized: open the address `pml ui` printed (it carries this launch's token).\n";

export class Guard {
  /** In the URL `pml ui` prints; exchanged for the cookie on first use. */
  readonly token = randomBytes(32).toString("base64url");
  /** Sent by the page on every POST (read from /api/session, which only this origin can read). */
  readonly csrf = randomBytes(32).toString("base64url");
  private readonly cookieValue = randomBytes(32).toString("base64url");
  /** Per port: cookies are not scoped by port, and two pages open at once must not replace each other's. */
  private readonly cookie: string;
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;

  constructor(readonly port: number) {
    this.cookie = `pml_ui_${port}`;
    this.hosts = loopbackHosts("127.0.0.1", port);
    this.origins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  }

  /**
   * The answer refusing `req`, or `{ setCookie }` when it may go on (with the cookie to set when
   * it came with the URL's token).
   */
  check(req: Request): Response | { setCookie?: string } {
    const loopback = hostRefusal(req, this.hosts) ?? originRefusal(req, (o) => this.origins.has(o.toLowerCase()));
    if (loopback) return withHeaders(loopback);
    const url = new URL(req.url);
    const viaUrl = url.searchParams.get("token");
    const authorized = same(cookieOf(req, this.cookie), this.cookieValue) || (viaUrl !== null && same(viaUrl, this.token));
    if (!authorized) return withHeaders(new Response(UNAUTHORIZED, { status: 401, headers: { "content-type": "text/plain; charset=utf-8" } }));
    if (req.method !== "GET" && req.method !== "HEAD" && req.method !== "POST") return plain(405, "Method Not Allowed: the page only reads (GET) and acts (POST).\n");
    if (req.method === "POST") {
      // A form or fetch from another site carries neither; SameSite=Strict already keeps the cookie from it.
      if (req.headers.get("origin") === null || !same(req.headers.get(CSRF_HEADER), this.csrf))
        return plain(403, "Forbidden: an action needs the page's CSRF header and its Origin; use the page.\n");
    }
    return viaUrl !== null ? { setCookie: `${this.cookie}=${this.cookieValue}; HttpOnly; SameSite=Strict; Path=/` } : {};
  }
}

/** Headers every answer carries: the page runs only its own code, in no frame, and tells no one where it was. */
export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

export function withHeaders(res: Response): Response {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.headers.set(k, v);
  return res;
}

export function plain(status: number, text: string): Response {
  return withHeaders(new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8" } }));
}

function cookieOf(req: Request, name: string): string | null {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Compared as digests in constant time: neither length nor a matching prefix shows in the timing. */
function same(given: string | null, expected: string): boolean {
  if (given === null) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

function digest(s: string): Buffer {
  return createHash("sha256").update(s).digest();
}
