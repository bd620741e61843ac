// Requests from child servers to pml: sampling relayed to a client that can sample, else sent to
// the LLM API configured in .pml.json (a local stand-in speaking the Messages API); elicitation
// relayed to the client.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { fixtureServer } from "../pool/helpers.ts";
import { BUN, entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { messagesApi, type MessagesApi } from "../helpers/messages-api.ts";

const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
let ws: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
let api: MessagesApi;
let seen: MessagesApi["seen"];

beforeAll(() => {
  ws = tempDir();
  home = tempDir();
  api = messagesApi(() => "from the API stand-in");
  seen = api.seen;
});
afterAll(() => {
  api.stop();
  ws.cleanup();
  home.cleanup();
});

async function connect(cfg: Record<string, unknown>, capabilities: Record<string, unknown>, env: Record<string, string> = {}) {
  await writeTrustedConfig(ws.path, { permissions: { allow: ["fx"] }, private_mcps: { fx: { command: BUN, args: [fixtureServer] } }, ...cfg }, home.path);
  return sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, ...env }), capabilities });
}

test("sampling goes to a client that declared it", async () => {
  const { client, transport } = await connect({}, { sampling: {} });
  client.setRequestHandler(CreateMessageRequestSchema, async (req) => ({
    role: "assistant",
    model: "client-model",
    content: { type: "text", text: `client saw: ${(req.params.messages[0]!.content as any).text}` },
  }));
  const r: any = await client.callTool({ name: "fx__sample", arguments: { prompt: "hello" } });
  expect(text(r)).toContain("client saw: hello");
  await transport.close();
});

test("without client sampling, the configured LLM API answers with the user's own key", async () => {
  seen.length = 0;
  const { client, transport } = await connect(
    { sampling: { provider: "anthropic", url: `http://127.0.0.1:${api.port}`, model: "claude-test", allow: ["fx"] } },
    {},
    { ANTHROPIC_API_KEY: "sk-local-test" },
  );
  const r: any = await client.callTool({ name: "fx__sample", arguments: { prompt: "what is pml?" } });
  expect(text(r)).toContain("from the API stand-in");
  expect(seen).toHaveLength(1);
  expect(seen[0]!.headers["x-api-key"]).toBe("sk-local-test");
  expect(seen[0]!.body.max_tokens).toBe(50);
  expect(seen[0]!.body.messages[0].content).toEqual([{ type: "text", text: "what is pml?" }]);
  await transport.close();
});

test("without client sampling and without a configured API, the server gets an error that says what to set", async () => {
  const { client, transport } = await connect({}, {});
  const r: any = await client.callTool({ name: "fx__sample", arguments: {} });
  expect(text(r)).toMatch(/sampling/);
  await transport.close();
});

test("elicitation from a server is relayed to the client", async () => {
  const { client, transport } = await connect({}, { elicitation: { form: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => ({ action: "accept", content: { ok: req.params.message === 'Tool server "fx" asks: deploy?' } }));
  const r: any = await client.callTool({ name: "fx__ask", arguments: { message: "deploy?" } });
  expect(JSON.parse(text(r))).toEqual({ action: "accept", content: { ok: true } });
  await transport.close();
});

test("an accepted form reaches the server with the schema's defaults for the fields the client left out (SEP-1034)", async () => {
  const { client, transport } = await connect({}, { elicitation: { form: {} } });
  let answer: any = { action: "accept", content: { ok: true, count: 5 } };
  client.setRequestHandler(ElicitRequestSchema, async () => answer);
  const schema = {
    type: "object",
    properties: { ok: { type: "boolean" }, count: { type: "number", default: 3 }, env: { type: "string", default: "staging" }, note: { type: "string" } },
  };
  const r: any = await client.callTool({ name: "fx__ask", arguments: { message: "deploy?", schema } });
  expect(JSON.parse(text(r))).toEqual({ action: "accept", content: { ok: true, count: 5, env: "staging" } });
  answer = { action: "decline" };
  const declined: any = await client.callTool({ name: "fx__ask", arguments: { message: "deploy?", schema } });
  expect(JSON.parse(text(declined))).toEqual({ action: "decline" });
  await transport.close();
});
