// The short lane (src/gateway/dispatch/lane.ts) end to end: the compiled pml, a raw stdio client,
// the fixture server as a private_mcps entry. Plain calls of an allowed, running server's tool take
// the lane; each test changes what the one decision rests on while calls flow (.pml.json, trust,
// an "Always" taken back, the server's process) and checks that the very next call sees it.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureServer } from "../pool/helpers.ts";
import { BUN, entries, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace } from "../helpers/trust.ts";
import { clockPassed, waitFor } from "../helpers/wait.ts";
import { CONFIG_RECHECK_MS } from "../../src/policy/project.ts";
import { trustRecordPath } from "../../src/policy/trust/trust-record.ts";

let ws: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
const peers: RawPeer[] = [];
const text = (r: any) => (r.result?.content ?? []).map((c: any) => c.text).join("\n");
const fx = (env: Record<string, string> = {}) => ({ command: BUN, args: [fixtureServer], env });

async function writeConfig(cfg: Record<string, unknown>) {
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify(cfg, null, 2));
  await trustWorkspace(ws.path, home.path);
}
/** An edit while pml runs: it applies to calls made CONFIG_RECHECK_MS after it. */
async function edited(change: () => void | Promise<void>) {
  const at = performance.now();
  await change();
  await clockPassed(CONFIG_RECHECK_MS, at);
}

async function start(capabilities: Record<string, unknown> = {}): Promise<RawPeer> {
  const peer = new RawPeer(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
  peers.push(peer);
  await peer.initialize(capabilities);
  return peer;
}

let nextId = 100;
function echo(peer: RawPeer, t: string): Promise<any> {
  return peer.request(nextId++, "tools/call", { name: "fx__echo", arguments: { text: t } });
}

/** Calls that keep flowing (8 in flight) until `stop`; each answer is checked by `check`. */
function flowing(peer: RawPeer) {
  let stop = false;
  const answers: any[] = [];
  const done = Promise.all(
    Array.from({ length: 8 }, async (_, k) => {
      for (let i = 0; !stop; i++) answers.push(await echo(peer, `f${k}.${i}`));
    }),
  );
  return {
    answers,
    async stop() {
      stop = true;
      await done;
    },
  };
}

beforeEach(() => {
  ws = tempDir();
  home = tempDir();
});
afterEach(() => {
  for (const p of peers.splice(0)) p.kill();
});

describe("the short lane", () => {
  test("a deny added to .pml.json while calls flow: the next call is refused, and every one after", async () => {
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fx() } });
    const peer = await start();
    expect(text(await echo(peer, "first"))).toBe("first");
    const flow = flowing(peer);
    await waitFor(() => flow.answers.length > 200, { what: "calls flowing" });
    await edited(() => writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ permissions: { allow: ["fx"], deny: ["fx:echo"] }, private_mcps: { fx: fx() } })));
    const next = await echo(peer, "after the deny");
    expect(next.result.isError).toBe(true);
    expect(text(next)).not.toContain("after the deny");
    await flow.stop();
    for (let i = 0; i < 20; i++) expect(text(await echo(peer, `later ${i}`))).not.toContain(`later ${i}`);
  });

  test("trust taken back while calls flow: the entry's grants are withheld from the next call", async () => {
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fx() } });
    const peer = await start();
    expect(text(await echo(peer, "first"))).toBe("first");
    const flow = flowing(peer);
    await waitFor(() => flow.answers.length > 200, { what: "calls flowing" });
    const record = trustRecordPath(ws.path, { PML_HOME: home.path, HOME: process.env.HOME });
    expect(existsSync(record)).toBe(true);
    await edited(() => rmSync(record));
    const next = await echo(peer, "untrusted");
    expect(text(next)).not.toBe("untrusted");
    await flow.stop();
  });

  test("an Always taken back out of .pml.json: decided again (a new session is asked), and a deny over it refuses the next call", async () => {
    await writeConfig({ private_mcps: { fx: fx() } });
    const peer = await start({ elicitation: { form: {} } });
    // The user answers Always to the first call's question.
    const first = echo(peer, "asked");
    const ask = await peer.next((m) => m.method === "elicitation/create");
    peer.send({ jsonrpc: "2.0", id: ask.id, result: { action: "accept", content: { decision: "always" } } });
    expect(text(await first)).toBe("asked");
    const cfg = JSON.parse(readFileSync(join(ws.path, ".pml.json"), "utf8"));
    expect(JSON.stringify(cfg.permissions?.allow)).toContain("fx");
    for (let i = 0; i < 50; i++) expect(text(await echo(peer, `allowed ${i}`))).toBe(`allowed ${i}`);
    // Taken back (the user removes it from the file): this session keeps the yes it gave (decided
    // again, as without the lane), a new one is asked, and a deny written over it refuses at once.
    await edited(() => writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ ...cfg, permissions: { ...cfg.permissions, allow: [] } })));
    expect(text(await echo(peer, "this session"))).toBe("this session");
    const other = await start({ elicitation: { form: {} } });
    const again = echo(other, "revoked");
    const asked = await other.next((m) => m.method === "elicitation/create");
    other.send({ jsonrpc: "2.0", id: asked.id, result: { action: "decline" } });
    expect(text(await again)).not.toBe("revoked");
    await edited(() => writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ ...cfg, permissions: { allow: [], deny: ["fx:echo"] } })));
    const denied = await echo(peer, "denied");
    expect(denied.result.isError).toBe(true);
    expect(text(denied)).not.toBe("denied");
  });

  test("the server's process crashing while calls flow: the calls in flight fail, the next ones reach a new process", async () => {
    const marks = join(ws.path, "starts.log");
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: { command: BUN, args: [fixtureServer, "--mark", marks] } } });
    const peer = await start();
    expect(text(await echo(peer, "up"))).toBe("up");
    const flow = flowing(peer);
    await waitFor(() => flow.answers.length > 200, { what: "calls flowing" });
    const crash = await peer.request(nextId++, "tools/call", { name: "fx__crash", arguments: { code: 3 } });
    expect(crash.result.isError).toBe(true);
    expect(text(crash)).toContain('MCP server "fx" exited with code 3');
    await flow.stop();
    // Each call flowing was answered: its echo, or the crash named.
    expect(flow.answers.filter((a) => !/^f\d+\.\d+$/.test(text(a)) && !text(a).includes('MCP server "fx"'))).toEqual([]);
    expect(text(await echo(peer, "restarted"))).toBe("restarted");
    expect(readFileSync(marks, "utf8").trim().split("\n").length).toBe(2);
  });

  test("a plain call is cancelled by notifications/cancelled, and the server is told", async () => {
    const cancelLog = join(ws.path, "cancelled.log");
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fx({ FIXTURE_CANCEL_LOG: cancelLog }) } });
    const peer = await start();
    expect(text(await echo(peer, "up"))).toBe("up");
    peer.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "fx__hang", arguments: {} } });
    expect(text(await echo(peer, "behind the hang"))).toBe("behind the hang"); // the hang reached the server first
    peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "enough" } });
    const answer = await peer.next((m) => m.id === 7);
    expect(answer.result.isError).toBe(true);
    expect(text(answer)).toContain("cancelled");
    await waitFor(() => existsSync(cancelLog) && readFileSync(cancelLog, "utf8").includes("cancelled"), { what: "the server told" });
  });

  test("a server's elicitation while serving a plain call goes to this client, on this call", async () => {
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fx() } });
    const peer = await start({ elicitation: { form: {} } });
    expect(text(await echo(peer, "up"))).toBe("up");
    peer.send({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "fx__ask", arguments: { message: "proceed?" } } });
    const ask = await peer.next((m) => m.method === "elicitation/create");
    expect(ask.params.message).toContain("proceed?");
    peer.send({ jsonrpc: "2.0", id: ask.id, result: { action: "accept", content: { ok: true } } });
    const answer = await peer.next((m) => m.id === 9);
    expect(JSON.parse(text(answer))).toMatchObject({ action: "accept", content: { ok: true } });
  });

  test("invalid arguments are refused before the server; each call that ran is counted in tool_usage", async () => {
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fx() } });
    const peer = await start();
    expect(text(await echo(peer, "up"))).toBe("up");
    const bad = await peer.request(nextId++, "tools/call", { name: "fx__echo", arguments: { text: 5 } });
    expect(bad.result.isError).toBe(true);
    expect(text(bad)).toContain("Invalid arguments for fx:echo");
    for (let i = 0; i < 30; i++) expect(text(await echo(peer, `row ${i}`))).toBe(`row ${i}`);
    peer.close(); // stdin closed: pml answers what it read, flushes its log and exits
    await peer.proc.exited;
    const db = new Database(join(home.path, "memory.db"), { readonly: true });
    const { n } = db.query("SELECT sum(successes) AS n FROM tool_usage WHERE tool_id = 'fx:echo'").get() as { n: number };
    db.close();
    expect(n).toBe(31);
  });

  test("a hostile server line cannot put a second message or another id on the client's stdout", async () => {
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fx() } });
    const peer = await start();
    await warm(peer);
    const said = (t: string) => `{"content":[{"type":"text","text":"${t}"}]}`;
    const good = `{"jsonrpc":"2.0","id":{ID},"result":${said("good")}}`;
    const hostile = [
      `{"jsonrpc":"2.0","id":{ID},"result":${said("two")}}{"jsonrpc":"2.0","id":77777,"result":${said("injected")}}`,
      `{"jsonrpc":"2.0","id":999999,"result":${said("not ours")}}`,
      `{"jsonrpc":"2.0","id":{ID},"result":${said("a member more")},"id":77777}`,
      `{"jsonrpc":"2.0","id":0{ID},"result":${said("leading zero")}}`,
      `{"jsonrpc":"2.0","id":{ID},"result":${said("unclosed")}`,
    ];
    for (const line of hostile) {
      const { id, line: out } = await rawCall(peer, [line, good]);
      expect(JSON.parse(out)).toEqual({ jsonrpc: "2.0", id, result: JSON.parse(said("good")) });
    }
    // Lines the general path takes as the answer: it is the client's id that goes out.
    const stringId = await rawCall(peer, [`{"jsonrpc":"2.0","id":"{ID}","result":${said("string id")}}`]);
    expect(JSON.parse(stringId.line)).toEqual({ jsonrpc: "2.0", id: stringId.id, result: JSON.parse(said("string id")) });
    const sdkShape = await rawCall(peer, [`{"result":${said("id twice")},"id":77777,"jsonrpc":"2.0","id":{ID}}`]);
    expect(JSON.parse(sdkShape.line)).toEqual({ jsonrpc: "2.0", id: sdkShape.id, result: JSON.parse(said("id twice")) });
    expect(text(await echo(peer, "still serving"))).toBe("still serving");
    expect(peer.lines.filter((l) => "id" in JSON.parse(l))).toEqual([]); // no other answer reached the client's stdout
  });
});

/** Two calls of `raw` by the general path (the first decides and starts the server, the second
 * loads the arguments' validator): the next ones take the lane. */
async function warm(peer: RawPeer): Promise<void> {
  for (let i = 0; i < 2; i++) await rawCall(peer, [`{"jsonrpc":"2.0","id":{ID},"result":{"content":[]}}`]);
}

/** Calls fx's `raw` tool (it writes `lines`, {ID} its request's id) and gives the client's line answering it. */
async function rawCall(peer: RawPeer, lines: string[]): Promise<{ id: number; line: string }> {
  const id = nextId++;
  peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "fx__raw", arguments: { lines } } });
  let at = -1;
  await waitFor(() => (at = peer.lines.findIndex((l) => JSON.parse(l).id === id)) !== -1, { what: `the answer to ${id}` });
  return { id, line: peer.lines.splice(at, 1)[0]! };
}
