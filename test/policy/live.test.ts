// Issue 25, the sessions' side of `pml ui`: a running `pml stdio` publishes its servers and the
// approvals it waits for under $PML_HOME/live, and the page's answers reach it. Real dist/pml, the
// SDK's real client, real files; the page is played by the functions `pml ui` calls.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { UserError } from "../../src/errors.ts";
import { inboxDir, liveDir } from "../../src/policy/live/live-files.ts";
import { answerApproval, openPagePresence, readLiveSessions, type LiveSession } from "../../src/policy/live/live-sessions.ts";
import { BUN, entries, RawPeer, SERVE_AUTH, sdkClient, spawnServe, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { waitFor } from "../helpers/wait.ts";
import { fixtureServer } from "../pool/helpers.ts";

const text = (r: any) => r.content.map((c: any) => c.text).join("\n");

let ws: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
const cleanups: Array<() => unknown> = [];

beforeEach(() => {
  ws = tempDir();
  home = tempDir();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  ws.cleanup();
  home.cleanup();
});

const env = () => testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path });

async function connect(capabilities: Record<string, unknown> = {}) {
  const c = await sdkClient(entries.binary, { cwd: ws.path, env: env(), capabilities });
  cleanups.push(() => c.transport.close().catch(() => {}));
  return c;
}

function openPage() {
  const page = openPagePresence(home.path, ws.path);
  cleanups.push(() => page.close());
  return page;
}

/** The one live session of the test's workspace, once it shows what `ready` wants. */
async function liveSession(ready: (s: LiveSession) => boolean = () => true, what = "the live session"): Promise<LiveSession> {
  let found: LiveSession | undefined;
  await waitFor(
    () => {
      found = readLiveSessions(home.path, ws.path).find(ready);
      return found !== undefined;
    },
    { what },
  );
  return found!;
}

const shell = (client: any, args: Record<string, unknown>) => client.callTool({ name: "shell__exec", arguments: args });
const continuation = (client: any, asked: any) => shell(client, { continue_workflow: { workflow_id: asked.approval_context.workflow_id, approved: true } });

test("without elicitation, an approval waits for the open page: the continuation is refused until it says Continue; a replayed answer does nothing", async () => {
  const { client } = await connect();
  const started = await liveSession();
  expect(started).toMatchObject({ workspace: ws.path, transport: "stdio", client: "pml-test", protocol: "2025-11-25", approvals: [] });
  openPage();

  const asked: any = await shell(client, { command: "echo from-the-page" });
  expect(asked.approval_required).toBe(true);
  expect(text(asked)).toContain("pml ui page");
  const s = await liveSession((x) => x.approvals.length === 1, "the pending approval");
  const approval = s.approvals[0]!;
  expect(approval).toMatchObject({ tool: "shell:exec", channel: "tool-result", kind: "tool" });
  expect(approval.question).toContain("echo from-the-page");

  // The model relays "yes" before the user answered in the page: not taken, nothing runs.
  const early: any = await continuation(client, asked);
  expect(early.isError).toBe(true);
  expect(text(early)).toContain("answer it in the pml ui page");
  expect(early.structuredContent).toBeUndefined();

  await answerApproval(home.path, s.id, approval.id, "continue");
  await liveSession((x) => x.approvals.length === 0, "the answer taken");
  // The same approval answered again: refused by the page's side, ignored by the session's.
  await expect(answerApproval(home.path, s.id, approval.id, "abort")).rejects.toBeInstanceOf(UserError);
  const inbox = inboxDir(home.path, s.id);
  writeFileSync(join(inbox, `${approval.id}-replayed0.json`), JSON.stringify({ approval: approval.id, answer: "abort" }), { mode: 0o600 });
  await waitFor(() => readdirSync(inbox).length === 0, { what: "the replayed answer consumed" });

  const ran: any = await continuation(client, asked);
  expect(ran.isError).toBeFalsy();
  expect(ran.structuredContent.stdout.trim()).toBe("from-the-page");
  // Used once.
  expect(text(await continuation(client, asked))).toContain("Workflow expired or not found");
});

test("Abort in the page refuses the continuation, page open or not", async () => {
  const { client } = await connect();
  const asked: any = await shell(client, { command: "echo never" });
  expect(text(asked)).not.toContain("pml ui page"); // no page open: the model asks the user
  const s = await liveSession((x) => x.approvals.length === 1);
  await answerApproval(home.path, s.id, s.approvals[0]!.id, "abort");
  await liveSession((x) => x.approvals.length === 0, "the answer taken");
  const refused: any = await continuation(client, asked);
  expect(refused.isError).toBe(true);
  expect(text(refused)).toContain("You chose Abort: nothing ran (shell:exec was not run)");
  expect(text(await continuation(client, asked))).toContain("Workflow expired or not found");
  // While a page is open, a no relayed by the model is taken at once: refusing needs nobody's word.
  openPage();
  const again: any = await shell(client, { command: "echo never" });
  const no: any = await shell(client, { continue_workflow: { workflow_id: again.approval_context.workflow_id, approved: false } });
  expect(text(no)).toContain('The user declined ("approved": false): nothing ran (shell:exec was not run)');
  await liveSession((x) => x.approvals.length === 0, "the declined approval gone");
});

test("Always in the page records the allow rule in .pml.json at once; the continuation runs", async () => {
  const { client } = await connect();
  openPage();
  const asked: any = await shell(client, { command: "echo always" });
  const s = await liveSession((x) => x.approvals.length === 1);
  await answerApproval(home.path, s.id, s.approvals[0]!.id, "always");
  const file = join(ws.path, ".pml.json");
  await waitFor(() => existsSync(file) && JSON.parse(readFileSync(file, "utf8")).permissions?.allow?.includes("shell:exec"), { what: "the allow rule" });
  const ran: any = await continuation(client, asked);
  expect(ran.structuredContent.stdout.trim()).toBe("always");
});

test("an approval asked through elicitation is answered by the page too; the form is withdrawn", async () => {
  let asked = 0;
  let withdrawn = false;
  const { client } = await connect({ elicitation: { form: {} } });
  client.setRequestHandler(ElicitRequestSchema, (_req, extra) => {
    asked++;
    // The user never answers the client's form.
    return new Promise((_resolve, reject) => extra.signal.addEventListener("abort", () => ((withdrawn = true), reject(new Error("withdrawn")))));
  });
  const call = shell(client, { command: "echo via-elicitation" });
  const s = await liveSession((x) => x.approvals.length === 1);
  expect(s.approvals[0]).toMatchObject({ tool: "shell:exec", channel: "elicitation" });
  await answerApproval(home.path, s.id, s.approvals[0]!.id, "continue");
  const ran: any = await call;
  expect(ran.structuredContent.stdout.trim()).toBe("via-elicitation");
  expect(asked).toBe(1);
  await waitFor(() => withdrawn, { what: "the form's request cancelled" });
  await liveSession((x) => x.approvals.length === 0, "the approval gone");
});

test("2026-07-28: the page's answer to an input_required approval comes first; without elicitation the continuation waits for the page", async () => {
  const peer = new RawPeer(entries.binary, { cwd: ws.path, env: env() });
  cleanups.push(async () => {
    peer.close();
    await peer.proc.exited;
  });
  let id = 1;
  const meta = (caps: Record<string, unknown>) => ({
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "modern-test", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": caps,
  });
  const call = (args: Record<string, unknown>, caps: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    peer.request(id++, "tools/call", { name: "shell__exec", arguments: args, _meta: meta(caps), ...extra });
  const form = { elicitation: { form: {} } };

  const first = await call({ command: "echo modern" }, form);
  expect(first.result.resultType).toBe("input_required");
  const s = await liveSession((x) => x.approvals.length === 1);
  expect(s).toMatchObject({ client: "modern-test", protocol: "2026-07-28" });
  expect(s.approvals[0]).toMatchObject({ tool: "shell:exec", channel: "input_required" });
  await answerApproval(home.path, s.id, s.approvals[0]!.id, "abort");
  await liveSession((x) => x.approvals.length === 0, "the answer taken");
  const retry = await call({ command: "echo modern" }, form, {
    requestState: first.result.requestState,
    inputResponses: { pml_approval: { action: "accept", content: { decision: "continue" } } },
  });
  expect(retry.result.isError).toBe(true);
  expect(text(retry.result)).toContain("You chose Abort: nothing ran (shell:exec was not run)");

  openPage();
  const asked = (await call({ command: "echo relayed-modern" }, {})).result;
  expect(asked.approval_required).toBe(true);
  const cont = { continue_workflow: { workflow_id: asked.approval_context.workflow_id, approved: true } };
  expect(text((await call(cont, {})).result)).toContain("answer it in the pml ui page");
  const pending = await liveSession((x) => x.approvals.length === 1);
  expect(pending.approvals[0]!.channel).toBe("tool-result");
  await answerApproval(home.path, pending.id, pending.approvals[0]!.id, "continue");
  await liveSession((x) => x.approvals.length === 0, "the answer taken");
  const ran = (await call(cont, {})).result;
  expect(ran.structuredContent.stdout.trim()).toBe("relayed-modern");
});

test("the servers list shows a started pool server with its calls and tools", async () => {
  await writeTrustedConfig(ws.path, { permissions: { allow: ["fx"] }, private_mcps: { fx: { command: BUN, args: [fixtureServer] } } }, home.path);
  const { client } = await connect();
  for (const t of ["a", "b", "c"]) expect(text(await client.callTool({ name: "fx__echo", arguments: { text: t } }))).toBe(t);
  const s = await liveSession((x) => x.servers.some((v) => v.ns === "fx" && v.calls === 3), "fx with 3 calls");
  const fx = s.servers.find((v) => v.ns === "fx")!;
  expect(fx).toMatchObject({ kind: "stdio", state: "running", calls: 3 });
  expect(fx.tools).toContain("echo");
  expect(Date.parse(fx.startedAt!)).toBeGreaterThan(Date.parse(s.started) - 1);
  // A server that exits on its own shows as crashed, with why.
  expect((await client.callTool({ name: "fx__crash", arguments: { code: 3, lines: ["going down"] } })).isError).toBe(true);
  const after = await liveSession((x) => x.servers.some((v) => v.ns === "fx" && v.state === "crashed"), "fx crashed");
  expect(after.servers.find((v) => v.ns === "fx")).toMatchObject({ calls: 4, lastError: expect.stringContaining("code 3") });
});

test("a pml serve session is listed as http; a remote server shows in its caller's servers with its calls", async () => {
  const other = tempDir();
  cleanups.push(() => other.cleanup());
  const server = await spawnServe([...entries.binary, "serve", "--port", "0"], { cwd: other.path, env: testEnv({ PML_WORKSPACE: other.path, PML_HOME: home.path }) });
  cleanups.push(() => server.stop());
  await writeTrustedConfig(ws.path, { permissions: { allow: ["remote"] }, private_mcps: { remote: { type: "http", url: server.url, headers: SERVE_AUTH } } }, home.path);
  const { client } = await connect();
  for (let i = 0; i < 2; i++) expect((await client.callTool({ name: "remote__status", arguments: {} })).isError).toBeFalsy();
  const caller = await liveSession((x) => x.servers.some((v) => v.ns === "remote" && v.calls === 2), "remote with 2 calls");
  expect(caller.servers.find((v) => v.ns === "remote")).toMatchObject({ kind: "remote", state: "running" });
  expect(caller.servers.find((v) => v.ns === "remote")!.tools).toContain("status");
  const served = readLiveSessions(home.path, other.path);
  expect(served).toHaveLength(1);
  expect(served[0]).toMatchObject({ transport: "http", workspace: other.path });
  expect(readLiveSessions(home.path)).toHaveLength(2);
});

test("a session that ends leaves nothing shown as live; a killed one is not listed and its file is removed", async () => {
  const { transport } = await connect();
  await liveSession();
  await transport.close();
  await waitFor(() => readLiveSessions(home.path).length === 0, { what: "the ended session gone" });
  expect(readdirSync(liveDir(home.path)).filter((n) => n.startsWith("session-"))).toEqual([]);

  const peer = new RawPeer(entries.binary, { cwd: ws.path, env: env() });
  cleanups.push(() => peer.kill());
  await peer.initialize();
  const s = await liveSession();
  peer.kill();
  await peer.proc.exited;
  expect(readLiveSessions(home.path)).toEqual([]);
  expect(existsSync(join(liveDir(home.path), `session-${s.id}.json`))).toBe(false);
});

test("a live folder others can write to is refused, by the page and by the session", async () => {
  const { client, stderr } = await connect();
  const s = await liveSession();
  const asked: any = await shell(client, { command: "echo relayed" });
  const approval = (await liveSession((x) => x.approvals.length === 1)).approvals[0]!;
  const dir = liveDir(home.path);
  chmodSync(dir, 0o770);
  cleanups.push(() => chmodSync(dir, 0o700));
  expect(() => readLiveSessions(home.path)).toThrow(/writable by other users .*chmod 700/);
  expect(() => openPagePresence(home.path, ws.path)).toThrow(/writable by other users/);
  await expect(answerApproval(home.path, s.id, approval.id, "abort")).rejects.toThrow(/writable by other users/);
  // An answer put there anyway is not taken: the session says so and leaves it.
  const forged = join(inboxDir(home.path, s.id), `${approval.id}-forged00.json`);
  writeFileSync(forged, JSON.stringify({ approval: approval.id, answer: "abort" }), { mode: 0o600 });
  await waitFor(() => stderr().includes("pml ui answers are not taken"), { what: "the session refusing the folder" });
  expect(existsSync(forged)).toBe(true);
  const ran: any = await continuation(client, asked);
  expect(ran.structuredContent.stdout.trim()).toBe("relayed");
  // A session started now does not publish itself there.
  const other = await connect();
  await other.client.listTools();
  await waitFor(() => other.stderr().includes("pml ui will not see this session"), { what: "the new session refusing the folder" });
});
