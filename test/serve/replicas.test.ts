// MCP 2026-07-28 over `pml serve` (the compiled binary): requests without a session, the HTTP
// routing headers checked against the body, and two `pml serve` processes on one workspace
// serving one client whose calls alternate between them, approvals included: a state issued by
// one replica is redeemed by the other, and only once across both.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureServer } from "../pool/helpers.ts";
import { BIN, BUN, SERVE_AUTH, type spawnListening, spawnServe, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace } from "../helpers/trust.ts";

const ws = tempDir();
const homeA = tempDir();
const homeB = tempDir();
const KEY = "replica-test-key-0123456789abcdef";
let a: Awaited<ReturnType<typeof spawnListening>>;
let b: Awaited<ReturnType<typeof spawnListening>>;
let nextId = 1;

const ELICIT = { elicitation: { form: {} } };
const meta = (caps: Record<string, unknown> = ELICIT) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "replica-test", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": caps,
});

/** One 2026-07-28 request as a conforming client sends it: body _meta mirrored in headers. */
async function post(url: string, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  const body = { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta() } };
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
      ...SERVE_AUTH,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  // A streamed answer: the last data line is the response.
  const json = type.includes("text/event-stream")
    ? JSON.parse(
        text
          .trim()
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .at(-1)!
          .slice(5),
      )
    : JSON.parse(text);
  return { status: res.status, session: res.headers.get("mcp-session-id"), ...json };
}
const content = (r: any) => r.result.content.map((c: any) => c.text).join("\n");
const approve = { pml_approval: { action: "accept", content: { decision: "continue" } } };

beforeAll(async () => {
  writeFileSync(join(ws.path, "a.txt"), "alpha");
  writeFileSync(
    join(ws.path, ".pml.json"),
    JSON.stringify({ permissions: { allow: ["fx"], ask: ["filesystem:read_file", "filesystem:list_directory"] }, private_mcps: { fx: { command: BUN, args: [fixtureServer] } } }),
  );
  // Separate homes (as on two machines): only the workspace, PML_STATE_KEY and the serve token are shared.
  for (const home of [homeA, homeB]) await trustWorkspace(ws.path, home.path);
  const start = (home: string) => spawnServe([BIN, "serve", "--port", "0"], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home, PML_STATE_KEY: KEY }) });
  [a, b] = await Promise.all([start(homeA.path), start(homeB.path)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  for (const d of [ws, homeA, homeB]) d.cleanup();
});

describe("2026-07-28 over HTTP", () => {
  test("no session is read, minted or needed; results carry resultType", async () => {
    const d = await post(a.url, "server/discover", {});
    expect(d.result.supportedVersions).toContain("2026-07-28");
    const list = await post(a.url, "tools/list", {}, { "mcp-session-id": "made-up" });
    expect(list.status).toBe(200);
    expect(list.session).toBeNull();
    expect(list.result.resultType).toBe("complete");
    const status = await post(a.url, "tools/call", { name: "status", arguments: {} });
    expect(status.result.resultType).toBe("complete");
  });

  test("headers that disagree with the body, or are missing, are refused with HeaderMismatch (400)", async () => {
    const wrongName = await post(a.url, "tools/call", { name: "status", arguments: {} }, { "mcp-name": "execute" });
    expect(wrongName.status).toBe(400);
    expect(wrongName.error.code).toBe(-32020);
    const wrongMethod = await post(a.url, "tools/list", {}, { "mcp-method": "tools/call" });
    expect(wrongMethod.error.code).toBe(-32020);
    const wrongVersion = await post(a.url, "tools/list", {}, { "mcp-protocol-version": "2025-11-25" });
    expect(wrongVersion.error.code).toBe(-32020);
    const encoded = await post(a.url, "tools/call", { name: "status", arguments: {} }, { "mcp-name": `=?base64?${btoa("status")}?=` });
    expect(encoded.status).toBe(200);
    const res = await fetch(a.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", ...SERVE_AUTH },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "status", arguments: {}, _meta: meta() } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toContain("Mcp-Name");
  });

  test("protocol errors carry their HTTP status: unknown method 404, unsupported version 400", async () => {
    const unknown = await post(a.url, "no/such", {});
    expect(unknown.status).toBe(404);
    expect(unknown.error.code).toBe(-32601);
    const body = { jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": "2099-01-01" } } };
    const res = await fetch(a.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "mcp-protocol-version": "2099-01-01", "mcp-method": "tools/list", ...SERVE_AUTH },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe(-32022);
  });
});

describe("two replicas, one client", () => {
  test("an approval asked by one replica is answered on the other, and its state works once across both", async () => {
    const call = { name: "filesystem__read_file", arguments: { path: "a.txt" } };
    const first = await post(a.url, "tools/call", call);
    expect(first.result.resultType).toBe("input_required");
    const done = await post(b.url, "tools/call", { ...call, requestState: first.result.requestState, inputResponses: approve });
    expect(done.result.resultType).toBe("complete");
    expect(content(done)).toBe("alpha");
    for (const url of [a.url, b.url]) {
      const replay = await post(url, "tools/call", { ...call, requestState: first.result.requestState, inputResponses: approve });
      expect(replay.status).toBe(400);
      expect(replay.error.message).toContain("already used");
    }
  });

  test("execute pauses on one replica, resumes on the other, pauses again and finishes on the first", async () => {
    const call = {
      name: "execute",
      arguments: {
        code: `const x = await mcp.filesystem.read_file({path: "a.txt"}); const y = await mcp.filesystem.list_directory({path: "."}); return {x, y: y.includes("a.txt")};`,
      },
    };
    const p1 = await post(a.url, "tools/call", call);
    expect(p1.result.inputRequests.pml_approval.params.message).toContain("filesystem:read_file");
    const p2 = await post(b.url, "tools/call", { ...call, requestState: p1.result.requestState, inputResponses: approve });
    expect(p2.result.inputRequests.pml_approval.params.message).toContain("filesystem:list_directory");
    const done = await post(a.url, "tools/call", { ...call, requestState: p2.result.requestState, inputResponses: approve });
    expect(done.result.structuredContent.result).toEqual({ x: "alpha", y: true });
  });

  test("a child server's elicitation asked through one replica is answered through the other", async () => {
    const call = { name: "fx__ask", arguments: { message: "ship it?" } };
    const first = await post(b.url, "tools/call", call);
    const [key] = Object.keys(first.result.inputRequests);
    const done = await post(a.url, "tools/call", { ...call, requestState: first.result.requestState, inputResponses: { [key!]: { action: "accept", content: { ok: true } } } });
    expect(JSON.parse(content(done))).toEqual({ action: "accept", content: { ok: true } });
  });

  test("a state from a replica with another key is refused", async () => {
    const other = tempDir();
    const c = await spawnServe([BIN, "serve", "--port", "0"], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: other.path }) });
    try {
      const call = { name: "filesystem__read_file", arguments: { path: "a.txt" } };
      const first = await post(c.url, "tools/call", call);
      const r = await post(a.url, "tools/call", { ...call, requestState: first.result.requestState, inputResponses: approve });
      expect(r.error.message).toContain("signature");
    } finally {
      await c.stop();
      other.cleanup();
    }
  });
});
