// The Streamable HTTP transport's message routing, in process: the real Gateway and transport
// with a small tool host whose tools exercise what must cross HTTP (elicitation requests during a
// call, progress, list_changed outside a request, per-session state, concurrency).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { serveHttp, type HttpGatewayServer } from "../../src/gateway/transports/http.ts";
import type { ToolHost } from "../../src/gateway/dispatch/call.ts";
import { textResult } from "../../src/mcp/tool-result.ts";
import { waitFor } from "../helpers/wait.ts";

let inFlight = 0;
let maxInFlight = 0;

const host: ToolHost = {
  async listTools() {
    return ["sleep", "confirm", "progress", "notify", "approved"].map((name) => ({ name, inputSchema: { type: "object" } }));
  },
  async callTool(session, req) {
    switch (req.name) {
      case "sleep": {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        // Held until another call is in flight beside it, or for `ms` if none ever is.
        await waitFor(() => maxInFlight > 1, { timeoutMs: Number(req.arguments.ms ?? 50), intervalMs: 5 }).catch(() => {});
        inFlight--;
        return textResult("slept");
      }
      case "confirm": {
        if (!session.supportsFormElicitation()) return textResult("no elicitation");
        const r = await session.request(
          "elicitation/create",
          { mode: "form", message: "Run it?", requestedSchema: { type: "object", properties: {} } },
          { timeoutMs: 10_000, signal: req.signal },
        );
        const action = (r.result as any)?.action ?? `error ${r.error?.message}`;
        if (action === "accept") session.approved.add("demo:tool");
        return textResult(action);
      }
      case "progress":
        req.progress?.("one");
        req.progress?.("two");
        await Bun.sleep(10); // the scenario: the tool works a moment after reporting progress
        return textResult("done");
      case "notify":
        setTimeout(() => session.notify("notifications/tools/list_changed"), 20); // the scenario: after the call's answer
        return textResult("ok");
      case "approved":
        return textResult(JSON.stringify([...session.approved]));
    }
    return textResult("unknown", { isError: true });
  },
  async shutdown() {},
};

let server: HttpGatewayServer;
const clients: Client[] = [];

async function connect(elicit?: "accept" | "decline"): Promise<Client> {
  const client = new Client({ name: "t", version: "1" }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async () => ({ action: elicit, ...(elicit === "accept" ? { content: {} } : {}) }));
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  clients.push(client);
  return client;
}

const text = (r: any) => r.content[0].text as string;

beforeAll(() => {
  server = serveHttp({ port: 0, loadHost: async () => host, auth: "none" });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server.stop();
});

describe("Streamable HTTP routing", () => {
  test("an elicitation request during a call reaches the client, its answer comes back", async () => {
    const yes = await connect("accept");
    expect(text(await yes.callTool({ name: "confirm", arguments: {} }))).toBe("accept");
    const no = await connect("decline");
    expect(text(await no.callTool({ name: "confirm", arguments: {} }))).toBe("decline");
  });

  test("approvals stay in their session", async () => {
    const a = await connect("accept");
    const b = await connect("accept");
    await a.callTool({ name: "confirm", arguments: {} });
    expect(JSON.parse(text(await a.callTool({ name: "approved", arguments: {} })))).toEqual(["demo:tool"]);
    expect(JSON.parse(text(await b.callTool({ name: "approved", arguments: {} })))).toEqual([]);
  });

  test("progress notifications arrive on the call's stream", async () => {
    const client = await connect();
    const seen: string[] = [];
    const r = await client.callTool({ name: "progress", arguments: {} }, undefined, { onprogress: (p) => void seen.push(String(p.message)) });
    expect(text(r)).toBe("done");
    expect(seen).toEqual(["one", "two"]);
  });

  test("list_changed after a call arrives on the GET stream", async () => {
    const client = await connect();
    const got = new Promise<string>((done) => client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => done(n.method)));
    // The SDK opens its GET stream after notifications/initialized: wait until it is there.
    await waitFor(hasListener, { intervalMs: 10, what: "the client's GET stream" });
    await client.callTool({ name: "notify", arguments: {} });
    expect(await got).toBe("notifications/tools/list_changed");
  });

  test("calls in one session run concurrently", async () => {
    const client = await connect();
    maxInFlight = 0;
    await Promise.all(Array.from({ length: 8 }, () => client.callTool({ name: "sleep", arguments: { ms: 5000 } })));
    expect(maxInFlight).toBeGreaterThan(1);
  });

  test("server/discover without a session is answered at once and opens no session", async () => {
    const res = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const { result } = await json(res);
    expect(result.supportedVersions).toEqual(expect.arrayContaining(["2026-07-28", "2025-11-25"]));
    expect(result.resultType).toBe("complete");
    expect(server.sessionCount()).toBe(clients.length);
  });
});

/** Whether the most recent client's GET stream is open: a second GET is then refused with 409. */
async function hasListener(): Promise<boolean> {
  const t = clients.at(-1)!.transport as StreamableHTTPClientTransport;
  const res = await fetch(server.url, { headers: { accept: "text/event-stream", "mcp-session-id": t.sessionId! } });
  if (res.status === 200) {
    await res.body?.cancel();
    return false;
  }
  await res.text();
  return res.status === 409;
}

function json(res: Response): Promise<any> {
  return res.json();
}
