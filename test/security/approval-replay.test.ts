// Replaying and carrying approvals, through the compiled `pml stdio` (raw JSON-RPC, both revisions)
// and `pml serve`: what a yes was given for is what runs, once, while the file still allows it.
// (Forged and re-bound states, a used state, another workspace's: gateway/modern.test.ts and
// request-state-and-text.test.ts; one session's Continue in another: approval-scope.test.ts.)
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fixtureServer } from "../pool/helpers.ts";
import { BIN, BUN, RawPeer, SERVE_AUTH, spawnServe, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { clockPassed } from "../helpers/wait.ts";
import { CONFIG_RECHECK_MS } from "../../src/policy/project.ts";

const ws = tempDir("pml-replay-ws-");
const home = tempDir("pml-replay-home-");
const peers: RawPeer[] = [];
const env = testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path });
const config = (extra: Record<string, unknown> = {}) => ({ permissions: { ask: ["fx:pid"], ...extra }, private_mcps: { fx: { command: BUN, args: [fixtureServer] } } });

beforeAll(async () => {
  await writeTrustedConfig(ws.path, config(), home.path);
});
afterAll(() => {
  for (const p of peers) p.kill();
  ws.cleanup();
  home.cleanup();
});

let nextId = 1;
const ELICIT = { elicitation: { form: {} } };
const meta = (caps: Record<string, unknown>) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "replay-test", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": caps,
});
const text = (r: any) => (r.content ?? []).map((c: any) => c.text).join("\n");

function start(): RawPeer {
  const peer = new RawPeer([BIN], { cwd: ws.path, env });
  peers.push(peer);
  return peer;
}
/** A 2026-07-28 call (no initialize), with what the retry carries. */
const modern = (peer: RawPeer, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}, caps: Record<string, unknown> = ELICIT) =>
  peer.request(nextId++, "tools/call", { name, arguments: args, _meta: meta(caps), ...extra });
const yes = { pml_approval: { action: "accept", content: { decision: "continue" } } };

/** Code that asks for fx:pid and says which code it is. */
const code = (which: string) => `const pid = await mcp.fx.pid({}); return ${JSON.stringify(which)} + ":" + typeof pid;`;

test("2026-07-28: the state for execute's code A does not run code B, neither as a retry nor as a continuation", async () => {
  const peer = start();
  const a = await modern(peer, "execute", { code: code("A") });
  expect(a.result.resultType).toBe("input_required");
  const retried = await modern(peer, "execute", { code: code("B") }, { requestState: a.result.requestState, inputResponses: yes });
  expect(retried.error.message).toContain("the arguments differ");

  // Without forms the state is the workflow id; the continuation runs what was approved, A.
  const asked = await modern(peer, "execute", { code: code("A") }, {}, {});
  const id = asked.result.approval_context.workflow_id;
  const cont = await modern(peer, "execute", { code: code("B"), continue_workflow: { workflow_id: id, approved: true } }, {}, {});
  expect(cont.result.structuredContent.result).toBe("A:string");
}, 60_000);

test("an approval asked before .pml.json denied the tool runs nothing after: the retry and both kinds of continuation are refused", async () => {
  const peer = start();
  const state = (await modern(peer, "fx__pid", {})).result.requestState;
  const fallback = (await modern(peer, "fx__pid", {}, {}, {})).result.approval_context.workflow_id;
  const old = start();
  await old.initialize();
  const workflow = (await old.request(nextId++, "tools/call", { name: "fx__pid", arguments: {} })).result.approval_context.workflow_id;

  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify(config({ deny: ["fx:pid"] })));
  await clockPassed(CONFIG_RECHECK_MS, performance.now());
  try {
    const retried = await modern(peer, "fx__pid", {}, { requestState: state, inputResponses: yes });
    expect(text(retried.result)).toContain("denied");
    const continued = await modern(peer, "fx__pid", { continue_workflow: { workflow_id: fallback, approved: true } }, {}, {});
    expect(text(continued.result)).toContain("denied");
    const relayed = await old.request(nextId++, "tools/call", { name: "fx__pid", arguments: { continue_workflow: { workflow_id: workflow, approved: true, always: true } } });
    expect(text(relayed.result)).toContain("denied");
    for (const r of [retried, continued, relayed]) expect(text(r.result)).not.toMatch(/^\d+$/);
  } finally {
    writeFileSync(join(ws.path, ".pml.json"), JSON.stringify(config()));
    await clockPassed(CONFIG_RECHECK_MS, performance.now());
  }
}, 60_000);

test("a state used before pml restarted stays used; a 2025-11-25 workflow id is unknown to another pml process", async () => {
  const first = start();
  const asked = await modern(first, "fx__pid", {});
  const done = await modern(first, "fx__pid", {}, { requestState: asked.result.requestState, inputResponses: yes });
  expect(text(done.result)).toMatch(/^\d+$/);
  const old = start();
  await old.initialize();
  const workflow = (await old.request(nextId++, "tools/call", { name: "fx__pid", arguments: {} })).result.approval_context.workflow_id;
  first.kill();
  await first.proc.exited;

  const second = start();
  const again = await modern(second, "fx__pid", {}, { requestState: asked.result.requestState, inputResponses: yes });
  expect(again.error.message).toContain("already used");
  await second.initialize();
  const elsewhere = await second.request(nextId++, "tools/call", { name: "fx__pid", arguments: { continue_workflow: { workflow_id: workflow, approved: true } } });
  expect(text(elsewhere.result)).toContain("expired or not found");
}, 60_000);

test("pml serve: another client's continuation of a workflow is refused and does not use it up: its own client's still runs", async () => {
  const serve = await spawnServe([BIN, "serve", "--port", "0"], { cwd: ws.path, env });
  const connect = async () => {
    const c = new Client({ name: "replay", version: "0" });
    await c.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: SERVE_AUTH } }));
    return c;
  };
  const [a, b] = [await connect(), await connect()];
  try {
    const asked: any = await a.callTool({ name: "fx__pid", arguments: {} });
    const cw = { workflow_id: asked.approval_context.workflow_id, approved: true };
    const stolen: any = await b.callTool({ name: "fx__pid", arguments: { continue_workflow: cw } });
    expect(text(stolen)).toContain("expired or not found");
    expect(text(await a.callTool({ name: "fx__pid", arguments: { continue_workflow: cw } }))).toMatch(/^\d+$/);
  } finally {
    await a.close();
    await b.close();
    await serve.stop();
  }
}, 60_000);

test("code sent to execute cannot free a used state (the nonces under .pml/used-state) nor read the key that signs them", async () => {
  const peer = start();
  const asked = await modern(peer, "fx__pid", {});
  expect(text((await modern(peer, "fx__pid", {}, { requestState: asked.result.requestState, inputResponses: yes })).result)).toMatch(/^\d+$/);
  const attempt = `
    const out = {};
    const tryIt = async (k, f) => { try { await f(); out[k] = "done"; } catch (e) { out[k] = String(e && e.message || e); } };
    const used = await mcp.filesystem.list_directory({ path: ".pml/used-state" }).catch((e) => String(e.message));
    await tryIt("overwrite", () => mcp.filesystem.write_file({ path: ".pml/used-state/x", content: "" }));
    await tryIt("move", () => mcp.filesystem.move_file({ source: ".pml/used-state", destination: "freed" }));
    await tryIt("parent", () => mcp.filesystem.move_file({ source: ".pml", destination: "freed" }));
    await tryIt("key", () => mcp.filesystem.read_file({ path: ${JSON.stringify(join(home.path, "state.key"))} }));
    return { used: typeof used, ...out };`;
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify(config({ allow: ["filesystem"] })));
  await writeTrustedConfig(ws.path, config({ allow: ["filesystem"] }), home.path);
  // The edit applies to calls made CONFIG_RECHECK_MS after it (a fast first call still saw the old file).
  await clockPassed(CONFIG_RECHECK_MS, performance.now());
  try {
    const ran = await modern(peer, "execute", { code: attempt });
    const r = ran.result.structuredContent.result;
    for (const k of ["overwrite", "move", "parent", "key"]) expect({ [k]: r[k] }).not.toEqual({ [k]: "done" });
    const again = await modern(peer, "fx__pid", {}, { requestState: asked.result.requestState, inputResponses: yes });
    expect(again.error.message).toContain("already used");
  } finally {
    await writeTrustedConfig(ws.path, config(), home.path);
    await clockPassed(CONFIG_RECHECK_MS, performance.now());
  }
}, 60_000);
