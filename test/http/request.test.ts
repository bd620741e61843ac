// The one HTTP helper (src/http/request.ts) against real HTTP servers on 127.0.0.1: retries only
// where repeating is safe, Retry-After, time limits, redirects kept on one origin (and credentials
// never carried off it), capped bodies, plain http refused off this machine.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { HttpError, httpRequest } from "../../src/http/request.ts";
import { waitFor } from "../helpers/wait.ts";

let server: ReturnType<typeof Bun.serve>;
let other: ReturnType<typeof Bun.serve>;
const hits = new Map<string, number>();
const otherSaw: Array<Record<string, string>> = [];
const hit = (p: string) => {
  const n = (hits.get(p) ?? 0) + 1;
  hits.set(p, n);
  return n;
};

beforeAll(() => {
  other = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      otherSaw.push(Object.fromEntries(req.headers));
      return new Response("other origin");
    },
  });
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const n = hit(`${req.method} ${path}`);
      switch (path) {
        case "/flaky":
          return n <= 2 ? new Response("busy", { status: 503 }) : new Response("fine");
        case "/limited":
          return n === 1 ? new Response("slow down", { status: 429, headers: { "retry-after": "1" } }) : new Response("ok now");
        case "/down":
          return new Response("down", { status: 503 });
        case "/slow":
          await Bun.sleep(2000); // the scenario: an answer later than the tests' limits, not a wait
          return new Response("late");
        case "/here":
          return Response.redirect(`http://127.0.0.1:${server.port}/flaky-free`, 302);
        case "/flaky-free":
          return new Response("landed");
        case "/away":
          return Response.redirect(`http://127.0.0.1:${other.port}/steal`, 302);
        case "/big":
          return new Response("x".repeat(2_000_000));
        default:
          return new Response("not found", { status: 404 });
      }
    },
  });
});
afterAll(() => {
  server.stop(true);
  other.stop(true);
});

const base = () => `http://127.0.0.1:${server.port}`;

test("a GET that gets 503 twice, then 200, succeeds", async () => {
  const res = await httpRequest(`${base()}/flaky`, { timeoutMs: 10_000, what: "registry URL" });
  expect(res.status).toBe(200);
  expect(await res.text()).toBe("fine");
  expect(hits.get("GET /flaky")).toBe(3);
});

test("429 with Retry-After is waited for", async () => {
  const started = Date.now();
  const res = await httpRequest(`${base()}/limited`, { timeoutMs: 10_000, what: "registry URL" });
  expect(await res.text()).toBe("ok now");
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
});

test("a POST that gets 503 is not repeated; the answer is the caller's to read", async () => {
  const res = await httpRequest(`${base()}/down`, { method: "POST", body: "{}", timeoutMs: 5000, what: "cloud endpoint" });
  expect(res.status).toBe(503);
  expect(hits.get("POST /down")).toBe(1);
});

test("retries end: the last answer comes back", async () => {
  const res = await httpRequest(`${base()}/down`, { timeoutMs: 10_000, what: "registry URL", retries: 1 });
  expect(res.status).toBe(503);
  expect(hits.get("GET /down")).toBe(2);
});

test("a time limit covers the whole exchange and says so", async () => {
  const err = await httpRequest(`${base()}/slow`, { timeoutMs: 300, what: "registry URL", retries: 0 }).catch((e) => e);
  expect(err).toBeInstanceOf(HttpError);
  expect(err.kind).toBe("timeout");
  expect(err.message).toContain("300 ms");
});

test("the caller's cancellation comes back as it is", async () => {
  const ac = new AbortController();
  const before = hits.get("GET /slow") ?? 0;
  const pending = httpRequest(`${base()}/slow`, { timeoutMs: 5000, what: "registry URL", signal: ac.signal }).catch((e) => e);
  await waitFor(() => (hits.get("GET /slow") ?? 0) > before, { what: "the request to reach the server" });
  ac.abort(new Error("client went away"));
  const err = await pending;
  expect(err.message).toBe("client went away");
});

test("a redirect on the same origin is followed; to another origin it is refused and nothing reaches it", async () => {
  const res = await httpRequest(`${base()}/here`, { timeoutMs: 5000, what: "registry URL" });
  expect(await res.text()).toBe("landed");
  const err = await httpRequest(`${base()}/away`, { timeoutMs: 5000, what: "registry URL", headers: { authorization: "Bearer secret-key" } }).catch((e) => e);
  expect(err).toBeInstanceOf(HttpError);
  expect(err.kind).toBe("refused");
  expect(err.message).toContain("same host");
  expect(otherSaw).toEqual([]);
  const keys = await httpRequest(`${base()}/here`, { timeoutMs: 5000, what: "cloud endpoint", redirects: "refuse" }).catch((e) => e);
  expect(keys.kind).toBe("refused");
});

test("a body over the cap is refused; plain http off this machine is refused before any request", async () => {
  const res = await httpRequest(`${base()}/big`, { timeoutMs: 5000, what: "registry URL", maxBytes: 1_000_000 });
  const err = await res.text().catch((e) => e);
  expect(err.kind).toBe("too-large");
  const insecure = await httpRequest("http://example.com/x", { timeoutMs: 5000, what: "registry URL" }).catch((e) => e);
  expect(insecure.kind).toBe("refused");
  expect(insecure.message).toContain("plain http:// is allowed only on this machine");
});

test("a refused connection is 'unreachable', retried for a GET", async () => {
  const port = other.port;
  other.stop(true);
  const err = await httpRequest(`http://127.0.0.1:${port}/x`, { timeoutMs: 5000, what: "registry URL", retries: 1 }).catch((e) => e);
  expect(err).toBeInstanceOf(HttpError);
  expect(err.kind).toBe("unreachable");
});
