// An approval is for the session that gave it. pml keeps what it checked about a tool between
// calls (the proxy's hot path); what it keeps must never carry one client's "Continue" to another
// client of the same `pml serve`, nor to a stateless 2026-07-28 request, however often the
// approving session has called the tool since.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fixtureServer } from "../pool/helpers.ts";
import { BIN, BUN, SERVE_AUTH, type spawnListening, spawnServe, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const ws = tempDir();
const home = tempDir();
let serve: Awaited<ReturnType<typeof spawnListening>>;
const text = (r: any) => r.content.map((c: any) => c.text).join("\n");

beforeAll(async () => {
  // fx is neither allowed nor denied: every session is asked.
  await writeTrustedConfig(ws.path, { private_mcps: { fx: { command: BUN, args: [fixtureServer] } } }, home.path);
  serve = await spawnServe([BIN, "serve", "--port", "0"], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
});
afterAll(async () => {
  await serve?.stop();
  ws.cleanup();
  home.cleanup();
});

async function client(): Promise<Client> {
  const c = new Client({ name: "scope", version: "0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: SERVE_AUTH } }));
  return c;
}

test("one session's Continue is not another session's, nor a 2026-07-28 request's", async () => {
  const a = await client();
  const b = await client();
  try {
    const asked: any = await a.callTool({ name: "fx__echo", arguments: { text: "a" } });
    expect(asked.approval_required).toBe(true);
    const ran: any = await a.callTool({ name: "fx__echo", arguments: { continue_workflow: { workflow_id: asked.approval_context.workflow_id, approved: true } } });
    expect(text(ran)).toBe("a");
    for (let i = 0; i < 5; i++) expect(text(await a.callTool({ name: "fx__echo", arguments: { text: `a${i}` } }))).toBe(`a${i}`);

    const other: any = await b.callTool({ name: "fx__echo", arguments: { text: "b" } });
    expect(other.approval_required).toBe(true);
    expect(text(other)).not.toBe("b");

    const modern = await fetch(serve.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "fx__echo",
        ...SERVE_AUTH,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "fx__echo",
          arguments: { text: "m" },
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
        },
      }),
    });
    const body = await modern.text();
    const msg = JSON.parse(
      body.startsWith("{")
        ? body
        : body
            .split("\n")
            .find((l) => l.startsWith("data: "))!
            .slice(6),
    );
    expect(JSON.stringify(msg.result)).toContain("approval_required");
    expect(JSON.stringify(msg.result)).not.toContain('"text":"m"');
  } finally {
    await a.close();
    await b.close();
  }
}, 30_000);

test('on pml serve, an "always" the model relays in a continuation approves for the session only', async () => {
  const c = await client();
  try {
    const asked: any = await c.callTool({ name: "fx__echo", arguments: { text: "x" } });
    expect(asked.approval_required).toBe(true);
    const cw = { workflow_id: asked.approval_context.workflow_id, approved: true, always: true };
    expect(text(await c.callTool({ name: "fx__echo", arguments: { continue_workflow: cw } }))).toBe("x");
    // Nothing was written: .pml.json allows nothing, and a new session is still asked.
    expect(JSON.parse(readFileSync(join(ws.path, ".pml.json"), "utf8")).permissions?.allow ?? []).toEqual([]);
    const other = await client();
    expect(((await other.callTool({ name: "fx__echo", arguments: { text: "y" } })) as any).approval_required).toBe(true);
    await other.close();
  } finally {
    await c.close();
  }
});
