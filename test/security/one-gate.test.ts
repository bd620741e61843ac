// Every origin of a tool call passes the one gate (src/policy/gate.ts): a client's call, `call`,
// code sent to `execute`, and a saved capability get the same answer for the same tool. A path
// that skipped the gate would run a denied tool, or an asked one without asking.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { fixtureServer, waitFor } from "../pool/helpers.ts";
import { BIN, BUN, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace } from "../helpers/trust.ts";

const ws = tempDir();
const home = tempDir();
let client: Client;
const text = (r: any) => r.content.map((c: any) => c.text).join("\n");
const writeConfig = (permissions: Record<string, string[]>) =>
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ permissions, private_mcps: { fx: { command: BUN, args: [fixtureServer] } } }));

/** The same tool (fx:echo) reached from each origin. */
const origins: Record<string, () => Promise<any>> = {
  "a client's call": () => client.callTool({ name: "fx__echo", arguments: { text: "direct" } }),
  call: () => client.callTool({ name: "call", arguments: { tool: "fx:echo", arguments: { text: "via call" } } }),
  execute: () => client.callTool({ name: "execute", arguments: { code: "return await mcp.fx.echo({ text: 'via execute' })" } }),
  "a capability": () => client.callTool({ name: "cap__gate__echo_text", arguments: {} }),
};

beforeAll(async () => {
  writeConfig({ allow: ["fx:echo"] });
  await trustWorkspace(ws.path, home.path);
  ({ client } = await sdkClient([BIN], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) }));
  // Saved while allowed; its code calls fx:echo.
  const saved: any = await client.callTool({ name: "execute", arguments: { code: "return await mcp.fx.echo({ text: 'via capability' })", name: "gate:echo_text" } });
  expect(saved.isError).toBeFalsy();
  expect(text(await origins["a capability"]!())).toContain("via capability");
});
afterAll(async () => {
  await client?.close();
  ws.cleanup();
  home.cleanup();
});

test("a deny in .pml.json refuses the tool from every origin, and nothing runs", async () => {
  writeConfig({ deny: ["fx:echo"] });
  // The file is reread within CONFIG_RECHECK_MS of an edit: wait until the direct call sees it.
  await waitFor(async () => (await origins["a client's call"]!()).isError === true, 5000, "the deny to apply");
  for (const [origin, callIt] of Object.entries(origins)) {
    const r = await callIt();
    expect(r.isError, origin).toBe(true);
    expect(text(r), origin).toContain("fx:echo is denied by");
    expect(text(r), origin).not.toMatch(/"?via (call|execute|capability)"?$/m);
  }
});

test("a tool the user must approve is asked from every origin (no elicitation: the result asks), and nothing runs", async () => {
  writeConfig({});
  await waitFor(async () => (await origins["a client's call"]!()).approval_required === true, 5000, "the ask to apply");
  for (const [origin, callIt] of Object.entries(origins)) {
    const r = await callIt();
    expect(r.approval_required, origin).toBe(true);
    expect(r.approval_context?.dependency, origin).toBe("fx:echo");
    // The question shows the arguments ({"text":"via call"}); the tool's own answer is not there.
    expect(text(r), origin).not.toMatch(/^"?via (call|execute|capability)"?$/m);
  }
});
