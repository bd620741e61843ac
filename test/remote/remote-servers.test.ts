// RemoteServers (descriptor type "http") against real Streamable HTTP servers on 127.0.0.1: the
// real `pml serve` as the remote MCP server, and a small Bun.serve stand-in for what a real server
// will not do on demand (SSE with progress and server requests, 401, expired sessions, silence).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RemoteServers } from "../../src/remote/remote-servers.ts";
import { grantedHeaders, remoteUrl } from "../../src/remote/remote-target.ts";
import type { CallContext } from "../../src/mcp/tool-result.ts";
import type { HttpDescriptor } from "../../src/registry/descriptor.ts";
import { entries, rejection as failure, SERVE_AUTH, spawnServe, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { userPlan } from "../helpers/env-plan.ts";
import { waitFor } from "../helpers/wait.ts";
import { UserRemoteServers } from "./user-remote-servers.ts";

const ctx = (over: Partial<CallContext> = {}): CallContext => ({ signal: new AbortController().signal, progress: () => {}, ...over });
const http = (url: string, headers?: Record<string, string>): HttpDescriptor => ({ type: "http", url, headers, env_required: [] });
const text = (r: { content: Array<{ type: string; text?: string }> }) => r.content.map((c) => c.text ?? "").join("\n");

/** Polls until `pred` holds (the test's own timeout is the real limit). */
const until = (pred: () => boolean) => waitFor(pred, { timeoutMs: 60_000, intervalMs: 10 });

describe("against the real `pml serve`", () => {
  const ws = tempDir("pml-remote-ws-");
  const home = tempDir("pml-remote-home-");
  let proc: ReturnType<typeof Bun.spawn>;
  let url: string;
  let remote: UserRemoteServers;

  beforeAll(async () => {
    await writeTrustedConfig(ws.path, { permissions: { allow: ["filesystem:read_file"] } }, home.path);
    writeFileSync(join(ws.path, "hello.txt"), "hello from the remote workspace");
    const server = await spawnServe([...entries.source, "serve", "--port", "0"], {
      cwd: ws.path,
      env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }),
    });
    proc = server.proc;
    url = server.url;
    remote = new UserRemoteServers({ workspace: ws.path, env: {} });
  });

  afterAll(async () => {
    await remote?.shutdown();
    proc?.kill();
    await proc?.exited;
    ws.cleanup();
    home.cleanup();
  });

  test("lists its tools once and caches them", async () => {
    const tools = await remote.listTools("upstream", http(url, SERVE_AUTH));
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["status", "discover", "call", "execute"]));
    expect(remote.cachedTools("upstream")).toEqual(tools);
    expect(await remote.listTools("upstream", http(url, SERVE_AUTH))).toBe(tools);
  });

  test("calls status, discover and call on one reused session", async () => {
    const status = await remote.call("upstream", http(url, SERVE_AUTH), "status", {}, ctx());
    expect(status.isError).toBeUndefined();
    expect(text(status)).toContain(ws.path);
    const sessionId = remote.status()[0]!.sessionId;
    expect(sessionId).toBeTruthy();

    const discovered = await remote.call("upstream", http(url, SERVE_AUTH), "discover", { namespace: "filesystem" }, ctx());
    expect(text(discovered)).toContain("filesystem:read_file");

    const read = await remote.call("upstream", http(url, SERVE_AUTH), "call", { tool: "filesystem:read_file", arguments: { path: "hello.txt" } }, ctx());
    expect(read.isError).toBeUndefined();
    expect(text(read)).toContain("hello from the remote workspace");
    expect(remote.status()).toEqual([{ ns: "upstream", url, state: "connected", sessionId, calls: expect.any(Number), tools: expect.arrayContaining(["status"]) }]);
    expect(remote.status()[0]!.calls).toBeGreaterThanOrEqual(3);
  });

  test("a tool-level failure of the remote comes back as an isError result", async () => {
    const r = await remote.call("upstream", http(url, SERVE_AUTH), "call", { tool: "filesystem:read_file", arguments: { path: "missing.txt" } }, ctx());
    expect(r.isError).toBe(true);
  });

  test("an unknown tool name is the remote's JSON-RPC error or isError, never a hang", async () => {
    const r = await remote.call("upstream", http(url, SERVE_AUTH), "no_such_tool", {}, ctx()).catch((e: Error) => e);
    if (r instanceof Error) expect(r.message).toContain("no_such_tool");
    else expect(r.isError).toBe(true);
  });
});

describe("against a stand-in server", () => {
  interface Seen {
    method: string;
    path: string;
    headers: Record<string, string>;
    body: any;
  }
  const seen: Seen[] = [];
  const sessions = new Set<string>();
  let sessionCounter = 0;
  /** Answers to server->client requests, by id, as the stand-in received them. */
  const answers = new Map<string, any>();
  const enc = new TextEncoder();
  const sse = (msg: unknown) => enc.encode(`event: message\ndata: ${JSON.stringify(msg)}\n\n`);
  const rpc = (id: unknown, result: unknown) => Response.json({ jsonrpc: "2.0", id, result });

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      // No GET stream here (the spec's 405): the SDK client then only POSTs.
      if (req.method === "GET") return new Response(null, { status: 405 });
      const body: any = req.method === "POST" ? await req.json() : null;
      const headers = Object.fromEntries(req.headers);
      seen.push({ method: req.method, path, headers, body });
      if (path === "/auth/mcp" && headers.authorization !== "Bearer right-token") return new Response("no", { status: 401 });
      if (req.method === "DELETE") {
        sessions.delete(headers["mcp-session-id"] ?? "");
        return new Response(null, { status: 200 });
      }
      if (body.method === "initialize") {
        const sid = `s${++sessionCounter}`;
        sessions.add(sid);
        return new Response(
          JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "stand-in", version: "1" } } }),
          {
            headers: { "content-type": "application/json", "mcp-session-id": sid },
          },
        );
      }
      if (!sessions.has(headers["mcp-session-id"] ?? "")) return new Response("session not found", { status: 404 });
      if (!("method" in body)) {
        answers.set(String(body.id), body);
        return new Response(null, { status: 202 });
      }
      if (!("id" in body)) return new Response(null, { status: 202 });
      if (body.method === "tools/list") {
        // Two pages, to see the cursor followed.
        if (!body.params?.cursor) return rpc(body.id, { tools: [{ name: "echo", inputSchema: { type: "object" } }], nextCursor: "p2" });
        return rpc(body.id, { tools: [{ name: "progress" }, { name: "hang" }] });
      }
      const { name, arguments: args } = body.params;
      switch (name) {
        case "echo":
          return rpc(body.id, { content: [{ type: "text", text: JSON.stringify(args) }] });
        case "rpc_error":
          return Response.json({ jsonrpc: "2.0", id: body.id, error: { code: -32602, message: "bad arguments: x is required" } });
        case "malformed":
          return new Response("<html>oops</html>", { headers: { "content-type": "text/html" } });
        case "hang":
          return new Promise<Response>(() => {});
        case "progress": {
          const token = body.params._meta?.progressToken;
          const stream = new ReadableStream<Uint8Array>({
            async start(c) {
              c.enqueue(enc.encode(": keep-alive comment\n\n"));
              c.enqueue(sse({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2, message: "half" } }));
              c.enqueue(sse({ jsonrpc: "2.0", id: "srv-ping", method: "ping" }));
              c.enqueue(sse({ jsonrpc: "2.0", id: "srv-sample", method: "sampling/createMessage", params: {} }));
              await until(() => answers.has("srv-ping") && answers.has("srv-sample"));
              c.enqueue(sse({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 2, total: 2 } }));
              // One event in two data lines with CRLF line ends, split between a CR and its LF: a
              // parser that reads the CR as a line end and the LF as another sees two events.
              const json = JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text: "streamed" }] } });
              const at = json.indexOf(",") + 1; // between two members: the joined lines are still JSON
              const final = `data: ${json.slice(0, at)}\r\ndata: ${json.slice(at)}\r\n\r\n`;
              const cr = final.indexOf("\r") + 1;
              c.enqueue(enc.encode(final.slice(0, cr)));
              await Bun.sleep(20); // not a wait for a state: a chance for the client to read twice (if the two parts coalesce, the test still passes, it tests less)
              c.enqueue(enc.encode(final.slice(cr)));
              c.close();
            },
          });
          return new Response(stream, { headers: { "content-type": "text/event-stream" } });
        }
      }
      return rpc(body.id, { content: [{ type: "text", text: "unknown" }], isError: true });
    },
  });
  const base = `http://127.0.0.1:${server.port}`;
  const ws = tempDir("pml-remote-standin-");
  const made: RemoteServers[] = [];
  const remoteServers = (timeoutMs?: number, env: Record<string, string> = {}) => {
    const r = new UserRemoteServers({ workspace: ws.path, env, timeoutMs });
    made.push(r);
    return r;
  };

  afterAll(async () => {
    for (const r of made) await r.shutdown();
    server.stop(true);
    ws.cleanup();
  });

  test("handshake: initialize, initialized, then session id and protocol version on every request", async () => {
    seen.length = 0;
    const r = remoteServers();
    const out = await r.call("stand", http(`${base}/mcp`), "echo", { a: 1 }, ctx());
    expect(text(out)).toBe('{"a":1}');
    const posts = seen.filter((s) => s.method === "POST");
    expect(posts.map((s) => s.body.method)).toEqual(["initialize", "notifications/initialized", "tools/list", "tools/list", "tools/call"]);
    expect(posts[0]!.body.params.protocolVersion).toBe("2025-11-25");
    expect(posts[0]!.headers["mcp-session-id"]).toBeUndefined();
    expect(posts[0]!.headers.accept).toBe("application/json, text/event-stream");
    const sid = r.status()[0]!.sessionId!;
    for (const p of posts.slice(1)) {
      expect(p.headers["mcp-session-id"]).toBe(sid);
      expect(p.headers["mcp-protocol-version"]).toBe("2025-11-25");
    }
    expect(r.cachedTools("stand")!.map((t) => t.name)).toEqual(["echo", "progress", "hang"]);
    expect(r.cachedTools("stand")![1]!.inputSchema).toEqual({ type: "object" });

    seen.length = 0;
    await r.call("stand", http(`${base}/mcp`), "echo", { a: 2 }, ctx());
    expect(seen.map((s) => s.body?.method)).toEqual(["tools/call"]);

    await r.shutdown();
    expect(seen.at(-1)).toMatchObject({ method: "DELETE", headers: { "mcp-session-id": sid } });
    expect(sessions.has(sid)).toBe(false);
    expect((await failure(r.call("stand", http(`${base}/mcp`), "echo", {}, ctx()))).message).toContain("shutting down");
  });

  test("an SSE answer: progress reaches ctx.progress, ping is answered, other requests get -32601", async () => {
    const r = remoteServers();
    const progress: Array<[string, number | undefined, number | undefined]> = [];
    const out = await r.call("stand", http(`${base}/mcp`), "progress", {}, ctx({ progress: (m, p, t) => progress.push([m, p, t]) }));
    expect(text(out)).toBe("streamed");
    expect(progress.filter(([, p]) => p !== undefined)).toEqual([
      ["half", 1, 2],
      ["", 2, 2],
    ]);
    expect(answers.get("srv-ping")).toEqual({ jsonrpc: "2.0", id: "srv-ping", result: {} });
    expect(answers.get("srv-sample").error.code).toBe(-32601);
  });

  test("a session the server forgot (404) is re-initialized transparently", async () => {
    const r = remoteServers();
    await r.call("stand", http(`${base}/mcp`), "echo", {}, ctx());
    const first = r.status()[0]!.sessionId!;
    sessions.delete(first);
    seen.length = 0;
    const out = await r.call("stand", http(`${base}/mcp`), "echo", { again: true }, ctx());
    expect(text(out)).toBe('{"again":true}');
    const second = r.status()[0]!.sessionId!;
    expect(second).not.toBe(first);
    expect(seen.map((s) => s.body?.method)).toEqual(["tools/call", "initialize", "notifications/initialized", "tools/call"]);
  });

  test("a JSON-RPC error passes the server's message; a non-JSON-RPC answer is called malformed", async () => {
    const r = remoteServers();
    expect((await failure(r.call("stand", http(`${base}/mcp`), "rpc_error", {}, ctx()))).message).toContain("bad arguments: x is required");
    const bad = await failure(r.call("stand", http(`${base}/mcp`), "malformed", {}, ctx()));
    expect(bad.name).toBe("ToolError");
    expect(bad.message).toContain("malformed");
  });

  test("a server that never answers: timeout, and notifications/cancelled for that request", async () => {
    const r = remoteServers(300);
    await r.listTools("stand", http(`${base}/mcp`));
    const e = await failure(r.call("stand", http(`${base}/mcp`), "hang", {}, ctx()));
    expect(e.name).toBe("ToolError");
    expect(e.message).toContain("did not answer tools/call hang");
    const call = seen.findLast((s) => s.body?.params?.name === "hang")!;
    await until(() => seen.some((s) => s.body?.method === "notifications/cancelled" && s.body.params.requestId === call.body.id));
  });

  test("the client cancelling aborts the call and tells the server", async () => {
    const r = remoteServers();
    await r.listTools("stand", http(`${base}/mcp`));
    const ac = new AbortController();
    const pending = failure(r.call("stand", http(`${base}/mcp`), "hang", {}, ctx({ signal: ac.signal })));
    await until(() => seen.some((s) => s.body?.params?.name === "hang" && s.headers["mcp-session-id"] === r.status()[0]?.sessionId));
    ac.abort();
    expect((await pending).message).toContain("cancelled");
    const call = seen.findLast((s) => s.body?.params?.name === "hang")!;
    await until(() => seen.some((s) => s.body?.method === "notifications/cancelled" && s.body.params.requestId === call.body.id));
  });

  test("headers: ${VAR} from the workspace .env; a wrong value gets the 401 message", async () => {
    writeFileSync(join(ws.path, ".env"), "REMOTE_TOKEN=right-token\n");
    const desc = http(`${base}/auth/mcp`, { Authorization: "Bearer ${REMOTE_TOKEN}", "X-Team": "${TEAM:-core}" });
    const r = remoteServers();
    expect(text(await r.call("auth", desc, "echo", { ok: 1 }, ctx()))).toBe('{"ok":1}');
    const last = seen.at(-1)!;
    expect(last.headers.authorization).toBe("Bearer right-token");
    expect(last.headers["x-team"]).toBe("core");

    // The process environment wins over the .env.
    const wrong = remoteServers(undefined, { REMOTE_TOKEN: "wrong-token" });
    const e = await failure(wrong.call("auth", desc, "echo", {}, ctx()));
    expect(e.message).toBe(`${base}/auth/mcp rejected the credentials (HTTP 401); check the headers of 'auth' in .pml.json (and the variables they use).`);
  });

  test("a missing header variable names it and where to set it, before any request", async () => {
    const count = seen.length;
    const desc = http(`${base}/auth/mcp`, { Authorization: "Bearer ${NOT_SET_ANYWHERE}" });
    const e = await failure(remoteServers().call("auth", desc, "echo", {}, ctx()));
    expect(e.name).toBe("ToolError");
    expect(e.message).toContain("NOT_SET_ANYWHERE");
    expect(e.message).toContain(join(ws.path, ".env"));
    expect(seen.length).toBe(count);
    const needing: HttpDescriptor = { type: "http", url: "https://x.example/mcp", headers: {}, env_required: ["NEEDED_KEY"] };
    expect(() => grantedHeaders("x", userPlan("x", needing, { workspace: ws.path, env: {} }), ws.path)).toThrow("NEEDED_KEY");
  });

  test("a closed port is reported unreachable", async () => {
    const gone = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = gone.port;
    gone.stop(true);
    const e = await failure(remoteServers().call("down", http(`http://127.0.0.1:${port}/mcp`), "echo", {}, ctx()));
    expect(e.name).toBe("ToolError");
    expect(e.message).toStartWith(`remote MCP server down at http://127.0.0.1:${port}/mcp is unreachable (`);
  });

  test("plain http to a non-loopback host is refused without a request", async () => {
    const e = await failure(remoteServers().call("far", http("http://mcp.example.com/mcp", { Authorization: "k" }), "echo", {}, ctx()));
    expect(e.name).toBe("ToolError");
    expect(e.message).toContain("plain http is allowed only for localhost");
    expect(remoteUrl("ok", "https://mcp.example.com/mcp").href).toBe("https://mcp.example.com/mcp");
    expect(remoteUrl("ok", "http://[::1]:8080/mcp").hostname).toBe("[::1]");
  });

  test("an endpoint that is not there (404 without a session) says to check the url", async () => {
    const gone = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("Not Found", { status: 404 }) });
    try {
      const e = await failure(remoteServers().call("nowhere", http(`http://127.0.0.1:${gone.port}/mcp`), "echo", {}, ctx()));
      expect(e.message).toContain("was not found (HTTP 404)");
    } finally {
      gone.stop(true);
    }
  });
});
