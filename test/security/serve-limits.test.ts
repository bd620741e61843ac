// `pml serve` under abuse, against the compiled binary: slow bodies and idle connections are cut
// (they used to be held forever until descriptors ran out), sessions are capped, and a child
// server's request reaches only the client whose call caused it, never another client's stream.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect as tcpConnect, type Socket } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { fixtureServer } from "../pool/helpers.ts";
import { BIN, BUN, SERVE_AUTH, type spawnListening, spawnServe, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { waitFor } from "../helpers/wait.ts";

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } } };
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", ...SERVE_AUTH };
const ws = tempDir();
const home = tempDir();
let serve: Awaited<ReturnType<typeof spawnListening>>;

beforeAll(async () => {
  await writeTrustedConfig(ws.path, { permissions: { allow: ["fx"] }, private_mcps: { fx: { command: BUN, args: [fixtureServer] } } }, home.path);
  serve = await spawnServe([BIN, "serve", "--port", "0", "--idle-timeout", "1", "--max-sessions", "3"], {
    cwd: ws.path,
    env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }),
  });
});
afterAll(async () => {
  await serve?.stop();
  ws.cleanup();
  home.cleanup();
});

const initialize = () => fetch(serve.url, { method: "POST", headers: HEADERS, body: JSON.stringify(INIT) });

/** A socket that resolves `closed` when the server ends it (with whatever it said first). */
function rawSocket(firstBytes: string): { socket: Socket; closed: Promise<string> } {
  const { port } = new URL(serve.url);
  const socket = tcpConnect(Number(port), "127.0.0.1");
  let said = "";
  socket.on("data", (d) => (said += d.toString()));
  socket.on("error", () => {});
  if (firstBytes) socket.write(firstBytes);
  const closed = new Promise<string>((r) => socket.on("close", () => r(said)));
  return { socket, closed };
}

describe("connections", () => {
  // A body that trickles in gets 408 after --idle-timeout; a connection that never completes its
  // headers is closed by Bun's HTTP layer after about 10 s (not configurable there).
  test("slow bodies and silent connections are closed; pml keeps serving", async () => {
    const slow = Array.from({ length: 20 }, () =>
      rawSocket(
        `POST /mcp HTTP/1.1\r\nHost: ${new URL(serve.url).host}\r\nAuthorization: ${SERVE_AUTH.authorization}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`,
      ),
    );
    const silent = Array.from({ length: 20 }, () => rawSocket(""));
    const halfHeaders = Array.from({ length: 10 }, () => rawSocket(`POST /mcp HTTP/1.1\r\nHost: x\r\n`));
    const all = [...slow, ...silent, ...halfHeaders];
    const deadline = Bun.sleep(20_000).then(() => "still open"); // the bound asserted (Bun closes them after ~10 s), not a wait
    const outcomes = await Promise.all(all.map((s) => Promise.race([s.closed, deadline])));
    for (const s of all) s.socket.destroy();
    expect(outcomes.filter((o) => o === "still open")).toEqual([]);
    // the ones that sent headers got a clear answer when the server gave up on the body
    for (const o of outcomes.slice(0, slow.length)) if (o) expect(o).toMatch(/408|Request Timeout/);
    const res = await initialize();
    expect(res.status).toBe(200);
    await fetch(serve.url, { method: "DELETE", headers: { ...HEADERS, "mcp-session-id": res.headers.get("mcp-session-id")! } });
  }, 40_000);

  test("a long tool call outlives the idle timeout once its body has arrived", async () => {
    const client = new Client({ name: "long", version: "0" });
    const transport = new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: SERVE_AUTH } });
    await client.connect(transport);
    try {
      const r: any = await client.callTool({ name: "fx__slow", arguments: { ms: 2500 } });
      expect(r.content[0].text).toBe("done");
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  }, 30_000);
});

describe("sessions", () => {
  test("sessions beyond the cap are refused with a message that says what to do; ending one makes room", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await initialize();
      expect(res.status).toBe(200);
      ids.push(res.headers.get("mcp-session-id")!);
    }
    const refused = await initialize();
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as any).error.message).toContain("--max-sessions");
    await fetch(serve.url, { method: "DELETE", headers: { ...HEADERS, "mcp-session-id": ids.pop()! } });
    expect((await initialize()).status).toBe(200);
    for (const id of ids) await fetch(serve.url, { method: "DELETE", headers: { ...HEADERS, "mcp-session-id": id } });
  });
});

describe("server requests stay with their client", () => {
  async function client(name: string, asked: string[]) {
    const c = new Client({ name, version: "0" }, { capabilities: { elicitation: { form: {} } } });
    c.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(String((req.params as any).message));
      return { action: "accept", content: { ok: name === "A" } };
    });
    const transport = new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: SERVE_AUTH } });
    await c.connect(transport);
    return { c, end: async () => (await transport.terminateSession(), await c.close()) };
  }

  test("a child's elicitation goes to the client whose call caused it, and to no other", async () => {
    const askedA: string[] = [];
    const askedB: string[] = [];
    const { c: a, end: endA } = await client("A", askedA);
    const { c: b, end: endB } = await client("B", askedB); // connected last: the old code picked the last capable session
    try {
      const r: any = await a.callTool({ name: "fx__ask", arguments: { message: "for A" } });
      expect(JSON.parse(r.content[0].text)).toEqual({ action: "accept", content: { ok: true } });
      expect(askedA).toEqual(['Tool server "fx" asks: for A']);
      expect(askedB).toEqual([]);

      // Two clients' calls in flight on the same server: pml cannot tell whose request it is,
      // so it asks nobody rather than the wrong one.
      // B's call is in flight at the server once it reports its step, and stays so until cancelled.
      let reached = false;
      const stopBusy = new AbortController();
      const busy = b
        .callTool({ name: "fx__slow", arguments: { ms: 60_000, steps: 1 } }, undefined, {
          onprogress: (p) => void (reached ||= p.message === "step 1"),
          signal: stopBusy.signal,
          timeout: 120_000,
        })
        .catch(() => {});
      await waitFor(() => reached, { what: "B's call to reach the server" });
      const r2: any = await a.callTool({ name: "fx__ask", arguments: { message: "ambiguous" } });
      expect(JSON.parse(r2.content[0].text)).toEqual({ action: "cancel" });
      stopBusy.abort();
      await busy;
      expect(askedA).toEqual(['Tool server "fx" asks: for A']);
      expect(askedB).toEqual([]);
    } finally {
      await endA();
      await endB();
    }
  }, 30_000);
});
