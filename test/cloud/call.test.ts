// callCloud against a real HTTP server on 127.0.0.1: what it sends, what it passes back, and every
// failure a user can meet (no key, missing BYOK key, rejected key, offline, hung, bad answers).
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callCloud, type CloudCallOptions } from "../../src/cloud/call.ts";
import type { ProjectConfig } from "../../src/config/pml-json.ts";
import type { Descriptor } from "../../src/registry/descriptor.ts";
import { userPlan } from "../helpers/env-plan.ts";
import { waitFor } from "../helpers/wait.ts";

interface Seen {
  path: string;
  headers: Record<string, string>;
  body: any;
}

let seen: Seen[] = [];
let answer: (req: Request, body: any) => Response | Promise<Response> = (_req, body) =>
  Response.json({ jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text: "ok" }] } });

const cloud = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const body = req.method === "POST" ? await req.json().catch(() => null) : null;
    seen.push({ path: new URL(req.url).pathname, headers: Object.fromEntries(req.headers), body });
    return answer(req, body);
  },
});
const cloudUrl = `http://127.0.0.1:${cloud.port}`;

let ws: string;
const descriptor: Descriptor = { type: "cloud", env_required: ["SEARCH_API_KEY"] };

/** The options of a call as the gateway makes them, the descriptor planned as the user's own. */
function opts(over: Partial<CloudCallOptions> = {}): CloudCallOptions {
  const o = {
    ns: "websearch",
    action: "search",
    args: { q: "bun" },
    config: { cloud: { url: cloudUrl } } as ProjectConfig,
    workspace: ws,
    signal: new AbortController().signal,
    env: { PML_API_KEY: "pml-secret-key", SEARCH_API_KEY: "byok-secret-value" },
    ...over,
  };
  return { ...o, plan: over.plan ?? userPlan(o.ns, descriptor, { workspace: o.workspace, env: o.env, cloudRouted: true }) };
}

async function failure(o: CloudCallOptions): Promise<Error> {
  try {
    await callCloud(o);
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected callCloud to fail");
}

beforeAll(() => {
  ws = mkdtempSync(join(tmpdir(), "pml-cloud-"));
});
afterEach(() => {
  seen = [];
  answer = (_req, body) => Response.json({ jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text: "ok" }] } });
});
afterAll(() => {
  cloud.stop(true);
  rmSync(ws, { recursive: true, force: true });
});

describe("callCloud", () => {
  test("POSTs a JSON-RPC tools/call with the Bearer key and the BYOK header", async () => {
    const r = await callCloud(opts());
    expect(r).toEqual({ content: [{ type: "text", text: "ok" }] });
    expect(seen).toHaveLength(1);
    const [req] = seen;
    expect(req!.path).toBe("/mcp/tools/call");
    expect(req!.headers.authorization).toBe("Bearer pml-secret-key");
    expect(req!.headers["x-pml-env-search_api_key"]).toBe("byok-secret-value");
    expect(req!.body).toEqual({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "websearch:search", arguments: { q: "bun" } } });
  });

  test("sends only the declared keys, and takes them from the workspace .env when the env lacks them", async () => {
    writeFileSync(join(ws, ".env"), "SEARCH_API_KEY=from-dotenv\nOTHER_KEY=never-sent\n");
    try {
      await callCloud(opts({ env: { PML_API_KEY: "k", OTHER_KEY: "also-never" } }));
      expect(seen[0]!.headers["x-pml-env-search_api_key"]).toBe("from-dotenv");
      expect(Object.keys(seen[0]!.headers).filter((h) => h.startsWith("x-pml-env-"))).toEqual(["x-pml-env-search_api_key"]);
    } finally {
      rmSync(join(ws, ".env"));
    }
  });

  test("keeps a cloud path prefix and passes isError and structuredContent through", async () => {
    answer = (_req, body) => Response.json({ jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text: "{}" }], isError: true, structuredContent: { n: 1 } } });
    const r = await callCloud(opts({ config: { cloud: { url: `${cloudUrl}/tenant/` } } as ProjectConfig }));
    expect(r).toEqual({ content: [{ type: "text", text: "{}" }], isError: true, structuredContent: { n: 1 } });
    expect(seen[0]!.path).toBe("/tenant/mcp/tools/call");
  });

  test("reads an SSE answer too", async () => {
    answer = (_req, body) =>
      new Response(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text: "sse" }] } })}\n\n`, {
        headers: { "content-type": "text/event-stream" },
      });
    expect((await callCloud(opts())).content).toEqual([{ type: "text", text: "sse" }]);
  });

  test("an SSE answer with CRLF lines, a comment, a notification first, and its data over two lines without a final blank line", async () => {
    answer = (_req, body) => {
      const json = JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text: "split" }] } });
      const cut = json.indexOf('"result"');
      const notification = JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } });
      return new Response(`: keep-alive\r\nevent: message\r\ndata: ${notification}\r\n\r\ndata: ${json.slice(0, cut)}\r\ndata:${json.slice(cut)}`, {
        headers: { "content-type": "text/event-stream" },
      });
    };
    expect((await callCloud(opts())).content).toEqual([{ type: "text", text: "split" }]);
  });

  test("no PML_API_KEY: says cloud mode needs it and how to set it; nothing is sent", async () => {
    const e = await failure(opts({ env: { SEARCH_API_KEY: "x" } }));
    expect(e.name).toBe("ToolError");
    expect(e.message).toStartWith("Cloud mode requires PML_API_KEY");
    expect(e.message).toContain(".env");
    expect(e.message).toContain(".mcp.json");
    expect(seen).toHaveLength(0);
  });

  test("a missing BYOK key is named with where to set it; nothing is sent", async () => {
    const e = await failure(opts({ env: { PML_API_KEY: "k" } }));
    expect(e.name).toBe("ToolError");
    expect(e.message).toContain("SEARCH_API_KEY");
    expect(e.message).toContain(join(ws, ".env"));
    expect(seen).toHaveLength(0);
  });

  test("an unexpanded ${VAR} from .mcp.json counts as unset", async () => {
    const e = await failure(opts({ env: { PML_API_KEY: "${PML_API_KEY}", SEARCH_API_KEY: "x" } }));
    expect(e.message).toStartWith("Cloud mode requires PML_API_KEY");
  });

  test("no cloud.url: says so and how to set it", async () => {
    const e = await failure(opts({ config: {} as ProjectConfig }));
    expect(e.message).toContain('"cloud": {"url"');
    expect(e.message).toContain(".pml.json");
  });

  test("plain http to a non-loopback host is refused before any request", async () => {
    // .invalid never resolves: had a request been tried, the error would be "cloud unreachable".
    const e = await failure(opts({ config: { cloud: { url: "http://pml-cloud.invalid" } } as ProjectConfig }));
    expect(e.message).toContain("Refusing to send API keys to http://pml-cloud.invalid");
    expect(e.message).toContain("https");
  });

  test("401 and 403: the key was rejected by the URL", async () => {
    for (const status of [401, 403]) {
      answer = () => Response.json({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "bad key" } }, { status });
      const e = await failure(opts());
      expect(e.message).toStartWith(`PML_API_KEY was rejected by ${cloudUrl}`);
    }
  });

  test("a closed port fails fast with cloud unreachable, not after the timeout", async () => {
    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = closed.port;
    closed.stop(true);
    const e = await failure(opts({ config: { cloud: { url: `http://127.0.0.1:${port}` } } as ProjectConfig, timeoutMs: 600_000 }));
    expect(e.message).toStartWith("cloud unreachable (");
  }, 20_000);

  test("a server that never answers: cloud unreachable after the timeout", async () => {
    answer = () => new Promise(() => {});
    const e = await failure(opts({ timeoutMs: 300 }));
    expect(e.message).toStartWith("cloud unreachable (no answer from");
  });

  test("the caller's cancel stops the call", async () => {
    let arrived = false;
    answer = () => ((arrived = true), new Promise(() => {}));
    const c = new AbortController();
    const pending = failure(opts({ signal: c.signal }));
    await waitFor(() => arrived, { what: "the call to reach the cloud endpoint" });
    c.abort(new Error("cancelled by the client"));
    const e = await pending;
    expect(e.message).toBe("cloud call cancelled (cancelled by the client)");
  });

  test("HTTP errors, JSON-RPC errors and malformed answers get clear messages", async () => {
    answer = () => new Response("upstream down", { status: 502 });
    expect((await failure(opts())).message).toContain("failed with HTTP 502: upstream down");
    answer = (_r, body) => Response.json({ jsonrpc: "2.0", id: body.id, error: { code: -32602, message: "unknown tool websearch:search" } });
    expect((await failure(opts())).message).toBe(`cloud error from ${cloudUrl} for websearch:search: unknown tool websearch:search (code -32602)`);
    answer = () => new Response("<html>hello</html>", { status: 200 });
    expect((await failure(opts())).message).toContain("malformed answer");
    answer = (_r, body) => Response.json({ jsonrpc: "2.0", id: body.id, result: { text: "no content" } });
    expect((await failure(opts())).message).toContain("malformed tool result");
  });

  test("a redirect is not followed (the keys would go to another host)", async () => {
    let hit = false;
    const other = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => ((hit = true), new Response("{}")) });
    try {
      answer = () => new Response(null, { status: 307, headers: { location: `http://127.0.0.1:${other.port}/steal` } });
      const e = await failure(opts());
      expect(e.message).toContain("redirect");
      expect(hit).toBe(false);
    } finally {
      other.stop(true);
    }
  });
});
