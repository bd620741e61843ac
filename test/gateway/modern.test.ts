// MCP 2026-07-28 on `pml stdio` (the compiled binary, raw JSON-RPC): server/discover, version
// and capabilities read from each request's _meta with the spec's errors, resultType, per-request
// log level, approvals as multi round-trip requests with an authenticated single-use
// requestState, `execute` pausing and replaying through it, and a child server's elicitation
// reaching the client the same way.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureServer } from "../pool/helpers.ts";
import { BIN, BUN, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace } from "../helpers/trust.ts";

const ws = tempDir();
const home = tempDir();
let peer: RawPeer;
let nextId = 100;

const ELICIT = { elicitation: { form: {}, url: {} } };
const meta = (caps: Record<string, unknown> = ELICIT, extra: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "modern-test", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": caps,
  ...extra,
});
const call = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}, caps?: Record<string, unknown>) =>
  peer.request(nextId++, "tools/call", { name, arguments: args, _meta: meta(caps), ...extra });
const answer = (decision: string, action = "accept") => ({ pml_approval: action === "accept" ? { action, content: { decision } } : { action } });
const text = (r: any) => r.content.map((c: any) => c.text).join("\n");

beforeAll(async () => {
  writeFileSync(join(ws.path, "a.txt"), "alpha");
  writeFileSync(join(ws.path, "b.txt"), "beta");
  writeFileSync(
    join(ws.path, ".pml.json"),
    JSON.stringify({
      permissions: { allow: ["fx"], ask: ["filesystem:read_file", "filesystem:list_directory"] },
      private_mcps: { fx: { command: BUN, args: [fixtureServer] } },
    }),
  );
  await trustWorkspace(ws.path, home.path);
  peer = new RawPeer([BIN], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
});
afterAll(async () => {
  peer.close();
  await peer.proc.exited;
  ws.cleanup();
  home.cleanup();
});

describe("protocol", () => {
  test("server/discover names both revisions, pml and its capabilities", async () => {
    const r = await peer.request(1, "server/discover", { _meta: meta() });
    expect(r.result.resultType).toBe("complete");
    expect(r.result.supportedVersions).toEqual(expect.arrayContaining(["2026-07-28", "2025-11-25"]));
    expect(r.result.capabilities.tools).toBeDefined();
    expect(r.result._meta["io.modelcontextprotocol/serverInfo"].name).toBe("pml");
    expect(typeof r.result.ttlMs).toBe("number");
  });

  test("tools/list and tools/call carry resultType; no initialize needed", async () => {
    const list = await peer.request(2, "tools/list", { _meta: meta() });
    expect(list.result.resultType).toBe("complete");
    expect(list.result.cacheScope).toBe("private");
    expect(list.result.tools.map((t: any) => t.name)).toContain("execute");
    const status = await call("status", {});
    expect(status.result.resultType).toBe("complete");
    expect(text(status.result)).toContain(ws.path);
  });

  test("missing or unsupported _meta fields get the spec's errors", async () => {
    const noCaps = await peer.request(3, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } });
    expect(noCaps.error.code).toBe(-32602);
    expect(noCaps.error.message).toContain("clientCapabilities");
    const future = await peer.request(4, "tools/list", { _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": "2099-01-01" } });
    expect(future.error.code).toBe(-32022);
    expect(future.error.data).toEqual({ supported: expect.arrayContaining(["2026-07-28"]), requested: "2099-01-01" });
    const badLevel = await peer.request(5, "tools/list", { _meta: meta(ELICIT, { "io.modelcontextprotocol/logLevel": "loud" }) });
    expect(badLevel.error.code).toBe(-32602);
  });

  test("with a log level, starting a server is reported as log messages on that request only", async () => {
    const id = nextId++;
    peer.send({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "fx__echo", arguments: { text: "hi" }, _meta: meta({}, { "io.modelcontextprotocol/logLevel": "info" }) },
    });
    const log = await peer.next((m) => m.method === "notifications/message");
    expect(log.params).toMatchObject({ level: "info", logger: "pml" });
    expect(log.params.data).toContain("fx");
    expect(text((await peer.next((m) => m.id === id)).result)).toContain("hi");
    // without a level, no log messages
    await call("fx__echo", { text: "quiet" });
    await Bun.sleep(50); // a negative check: time for a stray log message to arrive, if one were sent
    expect(peer.lines.filter((l) => l.includes("notifications/message"))).toEqual([]);
  });
});

describe("approvals as multi round-trip requests", () => {
  test("input_required with the approval form; the retry with the answer runs the tool; the state works once", async () => {
    const first = await call("filesystem__read_file", { path: "a.txt" });
    expect(first.result.resultType).toBe("input_required");
    const form = first.result.inputRequests.pml_approval;
    expect(form.method).toBe("elicitation/create");
    expect(form.params.message).toContain("filesystem:read_file");
    expect(typeof first.result.requestState).toBe("string");

    const done = await call("filesystem__read_file", { path: "a.txt" }, { requestState: first.result.requestState, inputResponses: answer("continue") });
    expect(done.result.resultType).toBe("complete");
    expect(text(done.result)).toBe("alpha");

    const again = await call("filesystem__read_file", { path: "a.txt" }, { requestState: first.result.requestState, inputResponses: answer("continue") });
    expect(again.error.code).toBe(-32602);
    expect(again.error.message).toContain("already used");
    // "continue" approved that call only: the next call asks again
    expect((await call("filesystem__read_file", { path: "a.txt" })).result.resultType).toBe("input_required");
  });

  test("a state is bound to its arguments and tool, and cannot be forged", async () => {
    const first = await call("filesystem__read_file", { path: "a.txt" });
    const state: string = first.result.requestState;
    const other = await call("filesystem__read_file", { path: "b.txt" }, { requestState: state, inputResponses: answer("continue") });
    expect(other.error.message).toContain("arguments differ");
    const fresh = await call("filesystem__read_file", { path: "a.txt" });
    const elsewhere = await call("filesystem__list_directory", { path: "." }, { requestState: fresh.result.requestState, inputResponses: answer("continue") });
    expect(elsewhere.error.message).toContain("issued for filesystem__read_file");
    // a payload rewritten to another path, keeping the signature
    const [prefix, body, mac] = [state.slice(0, 5), state.slice(5, state.lastIndexOf(".")), state.slice(state.lastIndexOf(".") + 1)];
    const payload = JSON.parse(Buffer.from(body, "base64url").toString());
    payload.exp += 3600_000;
    const forged = `${prefix}${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${mac}`;
    const r = await call("filesystem__read_file", { path: "a.txt" }, { requestState: forged, inputResponses: answer("continue") });
    expect(r.error.code).toBe(-32602);
    expect(r.error.message).toContain("signature");
  });

  test("decline aborts; cancel (non-interactive clients) falls back to the tool-result flow, whose workflow id is a state too", async () => {
    const a = await call("filesystem__read_file", { path: "a.txt" });
    const declined = await call("filesystem__read_file", { path: "a.txt" }, { requestState: a.result.requestState, inputResponses: answer("", "decline") });
    expect(declined.result.isError).toBe(true);
    expect(text(declined.result)).toContain("declined");

    const b = await call("filesystem__read_file", { path: "a.txt" });
    const cancelled = await call("filesystem__read_file", { path: "a.txt" }, { requestState: b.result.requestState, inputResponses: answer("", "cancel") });
    expect(cancelled.result.approval_required).toBe(true);
    const wf = cancelled.result.approval_context.workflow_id;
    const cont = await call("filesystem__read_file", { continue_workflow: { workflow_id: wf, approved: true } });
    expect(text(cont.result)).toBe("alpha");
    const twice = await call("filesystem__read_file", { continue_workflow: { workflow_id: wf, approved: true } });
    expect(text(twice.result)).toContain("expired or not found");
  });

  test("a client without elicitation gets the tool-result flow directly", async () => {
    const r = await call("filesystem__read_file", { path: "a.txt" }, {}, {});
    expect(r.result.resultType).toBe("complete");
    expect(r.result.approval_required).toBe(true);
  });

  test("execute pauses at each approval and resumes through the state, replaying the calls made before the pause", async () => {
    const code = `const a = await mcp.fx.pid({}); const x = await mcp.filesystem.read_file({path: "a.txt"}); const y = await mcp.filesystem.list_directory({path: "."}); return {a: typeof a, x, y: typeof y};`;
    const input = { code };
    const first = await call("execute", input);
    expect(first.result.resultType).toBe("input_required");
    expect(first.result.inputRequests.pml_approval.params.message).toContain("filesystem:read_file");
    const second = await call("execute", input, { requestState: first.result.requestState, inputResponses: answer("continue") });
    expect(second.result.resultType).toBe("input_required");
    expect(second.result.inputRequests.pml_approval.params.message).toContain("filesystem:list_directory");
    const done = await call("execute", input, { requestState: second.result.requestState, inputResponses: answer("continue") });
    expect(done.result.resultType).toBe("complete");
    expect(done.result.structuredContent.result).toEqual({ a: "string", x: "alpha", y: "string" });
    expect(done.result.structuredContent.tools_used).toEqual(["fx:pid", "filesystem:read_file", "filesystem:list_directory"]);
  });

  test("a child server's elicitation reaches the client as an input request; the retry answers it", async () => {
    const first = await call("fx__ask", { message: "deploy?" });
    expect(first.result.resultType).toBe("input_required");
    const [key, req] = Object.entries(first.result.inputRequests)[0] as [string, any];
    expect(req.method).toBe("elicitation/create");
    expect(req.params.message).toBe('Tool server "fx" asks: deploy?');
    const done = await call("fx__ask", { message: "deploy?" }, { requestState: first.result.requestState, inputResponses: { [key]: { action: "accept", content: { ok: true } } } });
    expect(done.result.resultType).toBe("complete");
    expect(JSON.parse(text(done.result))).toEqual({ action: "accept", content: { ok: true } });
    // a client that cannot elicit: the child's request is cancelled, nothing is asked
    const plain = await call("fx__ask", { message: "deploy?" }, {}, {});
    expect(JSON.parse(text(plain.result))).toEqual({ action: "cancel" });
  });

  test("a child server's sampling request reaches a client that can sample the same way", async () => {
    const caps = { sampling: {} };
    const first = await call("fx__sample", { prompt: "capital of France?" }, {}, caps);
    expect(first.result.resultType).toBe("input_required");
    const [key, req] = Object.entries(first.result.inputRequests)[0] as [string, any];
    expect(req.method).toBe("sampling/createMessage");
    expect(req.params.messages[0].content.text).toBe("capital of France?");
    const answer = { role: "assistant", content: { type: "text", text: "Paris" }, model: "client-model", stopReason: "endTurn" };
    const done = await call("fx__sample", { prompt: "capital of France?" }, { requestState: first.result.requestState, inputResponses: { [key]: answer } }, caps);
    expect(done.result.resultType).toBe("complete");
    expect(JSON.parse(text(done.result))).toEqual(answer);
  });
});
