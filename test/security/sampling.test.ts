// Issue 9 point 9, against the real binary: a child server's sampling/createMessage with
// maxTokens 100000 must not reach the user's LLM API unasked. A local stand-in speaks the Anthropic
// Messages API and records what it receives; the fixture server asks for the completion.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { fixtureServer } from "../pool/helpers.ts";
import { BUN, entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace, writeTrustedConfig } from "../helpers/trust.ts";
import { messagesApi, type MessagesApi } from "../helpers/messages-api.ts";

const KEY = "sk-ant-SECRET-sampling-4b1c";
const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
let ws: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
let api: MessagesApi;
let seen: MessagesApi["seen"];
const stderrs: Array<() => string> = [];

beforeAll(() => {
  ws = tempDir();
  home = tempDir();
  api = messagesApi(() => "stand-in answer");
  seen = api.seen;
});
afterAll(() => {
  api.stop();
  ws.cleanup();
  home.cleanup();
});

/** The user's .pml.json, trusted. */
async function config(sampling: Record<string, unknown> = {}) {
  await writeTrustedConfig(
    ws.path,
    JSON.stringify(
      {
        permissions: { allow: ["fx"] },
        private_mcps: { fx: { command: BUN, args: [fixtureServer] } },
        sampling: { provider: "anthropic", url: `http://127.0.0.1:${api.port}`, model: "claude-test", max_tokens: 1000, ...sampling },
      },
      null,
      2,
    ),
    home.path,
  );
}

async function connect(capabilities: Record<string, unknown>) {
  const c = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, ANTHROPIC_API_KEY: KEY }), capabilities });
  stderrs.push(c.stderr);
  return c;
}

const sample = (client: any) => client.callTool({ name: "fx__sample", arguments: { prompt: "spend it", maxTokens: 100000 } });

test("a client that cannot ask: nothing reaches the API, and the server is told how to allow it", async () => {
  await config();
  seen.length = 0;
  const { client, transport } = await connect({});
  const r: any = await sample(client);
  expect(text(r)).toContain("needs the user's approval");
  expect(text(r)).toContain('add \\"fx\\" to \\"sampling\\"');
  expect(seen).toHaveLength(0);
  await transport.close();
});

test("the user is asked first, with the server, model, cap, URL and key variable; declining sends nothing", async () => {
  await config();
  seen.length = 0;
  const { client, transport } = await connect({ elicitation: { form: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params.message);
    return { action: "decline" };
  });
  const r: any = await sample(client);
  expect(asked).toHaveLength(1);
  expect(asked[0]).toContain('"fx"');
  expect(asked[0]).toContain("ANTHROPIC_API_KEY");
  expect(asked[0]).toContain("claude-test");
  expect(asked[0]).toContain("up to 1000 tokens");
  expect(asked[0]).toContain(`http://127.0.0.1:${api.port}/v1/messages`);
  expect(asked[0]).not.toContain(KEY);
  expect(text(r)).toContain("declined");
  expect(seen).toHaveLength(0);
  await transport.close();
});

test("approved once: the request goes out clamped to sampling.max_tokens; the next one is not asked again", async () => {
  await config();
  seen.length = 0;
  const { client, transport } = await connect({ elicitation: { form: {} } });
  let asked = 0;
  client.setRequestHandler(ElicitRequestSchema, async () => {
    asked++;
    return { action: "accept", content: { decision: "continue" } };
  });
  expect(text(await sample(client))).toContain("stand-in answer");
  expect(text(await sample(client))).toContain("stand-in answer");
  expect(asked).toBe(1);
  expect(seen).toHaveLength(2);
  for (const s of seen) {
    expect(s.body.max_tokens).toBe(1000);
    expect(s.headers["x-api-key"]).toBe(KEY);
  }
  await transport.close();
});

test('"Always" adds the server to sampling.allow, and the next session is not asked', async () => {
  await config();
  const first = await connect({ elicitation: { form: {} } });
  first.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { decision: "always" } }));
  expect(text(await sample(first.client))).toContain("stand-in answer");
  await first.transport.close();
  const saved = JSON.parse(readFileSync(join(ws.path, ".pml.json"), "utf8"));
  expect(saved.sampling.allow).toEqual(["fx"]);
  expect(saved.sampling.max_tokens).toBe(1000);

  seen.length = 0;
  const second = await connect({});
  expect(text(await sample(second.client))).toContain("stand-in answer");
  expect(seen).toHaveLength(1);
  await second.transport.close();
});

test("relayed to a client that samples: its own UI approves, but the cap still applies", async () => {
  await config();
  const { client, transport } = await connect({ sampling: {} });
  let maxTokens: number | undefined;
  client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
    maxTokens = req.params.maxTokens;
    return { role: "assistant", model: "client-model", content: { type: "text", text: "client answer" } };
  });
  expect(text(await sample(client))).toContain("client answer");
  expect(maxTokens).toBe(1000);
  await transport.close();
});

// Issue 47 item 3: a cap above pml's default spends more of the user's key, so it is a grant: an
// outside edit that raises it is not honoured (the default applies) until the user trusts it.
test("a sampling.max_tokens raised above the default by an untrusted edit spends at most the default; trusted, the raise applies", async () => {
  await config({ max_tokens: 1000 });
  const raised = JSON.parse(readFileSync(join(ws.path, ".pml.json"), "utf8"));
  raised.sampling.max_tokens = 50_000;
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify(raised));
  const accept = (c: any) => c.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { decision: "continue" } }));

  seen.length = 0;
  const untrusted = await connect({ elicitation: { form: {} } });
  accept(untrusted);
  expect(text(await sample(untrusted.client))).toContain("stand-in answer");
  expect(seen.map((x) => x.body.max_tokens)).toEqual([4096]);
  expect(untrusted.stderr()).toContain("sampling.max_tokens: raises the tokens one LLM request may spend of your key to 50000 tokens (default 4096 tokens)");
  await untrusted.transport.close();

  await trustWorkspace(ws.path, home.path);
  seen.length = 0;
  const trusted = await connect({ elicitation: { form: {} } });
  accept(trusted);
  expect(text(await sample(trusted.client))).toContain("stand-in answer");
  expect(seen.map((x) => x.body.max_tokens)).toEqual([50_000]);
  await trusted.transport.close();
});

test("the key never shows in pml's stderr or the child's log", () => {
  for (const err of stderrs) expect(err()).not.toContain(KEY);
  const log = join(home.path, "logs", "fx.log");
  try {
    expect(readFileSync(log, "utf8")).not.toContain(KEY);
  } catch (e: any) {
    if (e?.code !== "ENOENT") throw e;
  }
});
