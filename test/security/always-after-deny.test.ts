// "Always" answered after the user's .pml.json came to deny the tool: the question was asked, the
// user then denied the tool in the file, and the continuation said Always. The deny wins for that
// call, but pml wrote an exact allow beside it, and an exact allow is more specific than a deny of
// the whole namespace: the next call ran what the file denies. The compiled pml over stdio, the
// tool-result workflow.
import { afterAll, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureServer } from "../pool/helpers.ts";
import { BIN, BUN, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const ws = tempDir();
const home = tempDir();
const peers: RawPeer[] = [];
let nextId = 1;
const fx = { command: BUN, args: [fixtureServer] };
const saved = () => JSON.parse(readFileSync(join(ws.path, ".pml.json"), "utf8"));
const textOf = (r: any) => (r?.content ?? []).map((c: any) => c.text ?? "").join("\n");

beforeEach(async () => {
  // fx is neither allowed nor denied: its tools are asked.
  await writeTrustedConfig(ws.path, { private_mcps: { fx } }, home.path);
});
afterAll(() => {
  for (const p of peers) p.kill();
  ws.cleanup();
  home.cleanup();
});

async function askThenDenyThenAlways(deny: string): Promise<{ peer: RawPeer; answer: any }> {
  const peer = new RawPeer([BIN], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
  peers.push(peer);
  await peer.initialize();
  const asked = (await peer.request(nextId++, "tools/call", { name: "fx__echo", arguments: { text: "ran" } })).result;
  expect(asked.approval_required).toBe(true);
  // The user edits their own file while the question waits.
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ private_mcps: { fx }, permissions: { deny: [deny] } }, null, 2));
  const cw = { workflow_id: asked.approval_context.workflow_id, approved: true, always: true };
  const answer = (await peer.request(nextId++, "tools/call", { name: "fx__echo", arguments: { continue_workflow: cw } })).result;
  return { peer, answer };
}

test("Always for a tool the file now denies adds no allow, runs nothing, and says so", async () => {
  const { answer } = await askThenDenyThenAlways("fx:echo");
  expect(answer.isError).toBe(true);
  expect(textOf(answer)).not.toContain("ran");
  expect(textOf(answer)).toContain("denied by");
  expect(saved().permissions).toEqual({ deny: ["fx:echo"] });
  expect(textOf(answer)).toContain('"Always" for fx:echo was not written to');
}, 60_000);

test("nor when the deny is the whole namespace, which an exact allow would outrank: the next call is refused too", async () => {
  const { peer, answer } = await askThenDenyThenAlways("fx");
  expect(textOf(answer)).not.toContain("ran");
  expect(textOf(answer)).toContain('"Always" for fx:echo was not written to');
  expect(saved().permissions).toEqual({ deny: ["fx"] });
  const next = (await peer.request(nextId++, "tools/call", { name: "fx__echo", arguments: { text: "ran again" } })).result;
  expect(textOf(next)).not.toContain("ran again");
  expect(textOf(next)).toContain("denied by");
}, 60_000);
