// `pml serve` as a real child process, driven by the SDK's real Streamable HTTP client, plus raw
// fetches for the transport's refusals (Origin, Host, sessions, protocol version).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { entries, SERVE_AUTH, spawnServe } from "../helpers/pml.ts";

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } } };
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", ...SERVE_AUTH };

let dir: string;
let proc: ReturnType<typeof Bun.spawn>;
let url: string;
let port: number;
const clients: Client[] = [];

async function startServe(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), "pml-serve-"));
  const ws = join(dir, "ws");
  const home = join(dir, "home");
  for (const d of [ws, home]) Bun.spawnSync(["mkdir", "-p", d]);
  writeFileSync(join(ws, ".pml.json"), JSON.stringify({ permissions: { allow: [], ask: [], deny: [] } }));
  const server = await spawnServe([...entries.source, "serve", "--port", "0"], {
    cwd: ws,
    env: { ...process.env, PML_HOME: home, PML_WORKSPACE: ws, PML_API_KEY: "" } as Record<string, string>,
  });
  proc = server.proc;
  url = server.url;
  port = Number(new URL(url).port);
}

async function connect(name = "test"): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: SERVE_AUTH } }));
  clients.push(client);
  return client;
}

async function rawInit(): Promise<string> {
  const res = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify(INIT) });
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get("mcp-session-id")!;
}

/** fetch() refuses to set Host, so the DNS-rebinding case goes through node:http. */
function postWithHost(host: string): Promise<number> {
  return new Promise((done, fail) => {
    const r = httpRequest({ host: "127.0.0.1", port, path: "/mcp", method: "POST", headers: { ...HEADERS, host } }, (res) => {
      res.resume();
      done(res.statusCode!);
    });
    r.on("error", fail);
    r.end(JSON.stringify(INIT));
  });
}

beforeAll(startServe, 30_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  proc?.kill("SIGTERM");
  await proc?.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe("pml serve over Streamable HTTP", () => {
  test("prints a loopback URL on /mcp", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(port).toBeGreaterThan(0);
  });

  test("initialize, tools/list and tools/call status with the SDK client", async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe("pml");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("status");
    const result = await client.callTool({ name: "status", arguments: {} });
    expect(result.isError).toBeFalsy();
    const status = JSON.parse((result.content as any)[0].text);
    expect(status.workspace.root).toContain("pml-serve-");
  }, 30_000);

  test("two sessions, concurrent calls in each", async () => {
    const [a, b] = await Promise.all([connect("a"), connect("b")]);
    const ids = [(a.transport as StreamableHTTPClientTransport).sessionId, (b.transport as StreamableHTTPClientTransport).sessionId];
    expect(ids[0]).toBeTruthy();
    expect(ids[0]).not.toBe(ids[1]);
    const calls = Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).callTool({ name: "status", arguments: {} }));
    const results = await Promise.all(calls);
    for (const r of results) expect(r.isError).toBeFalsy();
  }, 30_000);

  test("DELETE ends a session; its id is then unknown (404)", async () => {
    const client = await connect("deleted");
    const transport = client.transport as StreamableHTTPClientTransport;
    const sid = transport.sessionId!;
    await transport.terminateSession();
    const res = await fetch(url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": sid },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(res.status).toBe(404);
    await res.text();
  }, 30_000);

  test("a request without a session id is 400, an unknown one 404", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const missing = await fetch(url, { method: "POST", headers: HEADERS, body });
    expect(missing.status).toBe(400);
    expect((await json(missing)).error.message).toContain("Mcp-Session-Id");
    const unknown = await fetch(url, { method: "POST", headers: { ...HEADERS, "mcp-session-id": "nope" }, body });
    expect(unknown.status).toBe(404);
    await unknown.text();
  });

  test("an unsupported MCP-Protocol-Version is 400", async () => {
    const sid = await rawInit();
    const res = await fetch(url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "1900-01-01" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    });
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toContain("MCP-Protocol-Version");
    const ok = await fetch(url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }),
    });
    expect(ok.status).toBe(200);
    expect(await json(ok)).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
  });

  test("a foreign Origin is 403; a local one is fine", async () => {
    const foreign = await fetch(url, { method: "POST", headers: { ...HEADERS, origin: "https://evil.example" }, body: JSON.stringify(INIT) });
    expect(foreign.status).toBe(403);
    await foreign.text();
    const local = await fetch(url, { method: "POST", headers: { ...HEADERS, origin: "http://localhost:6274" }, body: JSON.stringify(INIT) });
    expect(local.status).toBe(200);
    await local.text();
  });

  test("a Host that is not this server is refused (DNS rebinding)", async () => {
    expect(await postWithHost("evil.example:" + port)).toBe(403);
    expect(await postWithHost(`localhost:${port}`)).toBe(200);
  });

  test("GET opens the session stream; a second one is 409; without a session 400", async () => {
    const sid = await rawInit();
    const ctl = new AbortController();
    const get = await fetch(url, { headers: { accept: "text/event-stream", "mcp-session-id": sid, ...SERVE_AUTH }, signal: ctl.signal });
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toContain("text/event-stream");
    const second = await fetch(url, { headers: { accept: "text/event-stream", "mcp-session-id": sid, ...SERVE_AUTH } });
    expect(second.status).toBe(409);
    await second.text();
    ctl.abort();
    const none = await fetch(url, { headers: { accept: "text/event-stream", ...SERVE_AUTH } });
    expect(none.status).toBe(400);
    await none.text();
  });

  test("notifications get 202; bad JSON gets a parse error", async () => {
    const sid = await rawInit();
    const note = await fetch(url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": sid },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(note.status).toBe(202);
    const bad = await fetch(url, { method: "POST", headers: { ...HEADERS, "mcp-session-id": sid }, body: "{nope" });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.code).toBe(-32700);
  });
});

function json(res: Response): Promise<any> {
  return res.json();
}
