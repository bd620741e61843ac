// A server's tool annotations are its own claims: discover ranks by them (readOnlyHint steps a
// capability back for a change to a file), and that is all they do. A server saying every tool
// only reads gets no call past the gate: a tool not allowed is asked, from every origin.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { fixtureServer } from "../pool/helpers.ts";
import { BIN, BUN, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace } from "../helpers/trust.ts";

const ws = tempDir();
const home = tempDir();
let client: Client;

beforeAll(async () => {
  writeFileSync(
    join(ws.path, ".pml.json"),
    JSON.stringify({ permissions: { allow: ["fx:pid"] }, private_mcps: { fx: { command: BUN, args: [fixtureServer, "--claims-read-only"] } } }),
  );
  await trustWorkspace(ws.path, home.path);
  ({ client } = await sdkClient([BIN], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) }));
});
afterAll(async () => {
  await client?.close();
  ws.cleanup();
  home.cleanup();
});

test("a server claiming readOnlyHint on every tool is still asked for each tool not allowed, from a client's call, `call` and `execute`", async () => {
  // fx:pid is allowed: the server runs, and its claims are known to pml.
  expect((await client.callTool({ name: "call", arguments: { tool: "fx:pid", arguments: {} } })).isError).toBeFalsy();
  const calls = [
    () => client.callTool({ name: "fx__echo", arguments: { text: "direct" } }),
    () => client.callTool({ name: "call", arguments: { tool: "fx:echo", arguments: { text: "via call" } } }),
    () => client.callTool({ name: "execute", arguments: { code: "return await mcp.fx.echo({ text: 'via execute' })" } }),
  ];
  for (const callIt of calls) {
    const r: any = await callIt();
    expect(r.approval_required).toBe(true);
    expect(r.approval_context?.dependency).toBe("fx:echo");
    // The question shows the arguments ({"text":"direct"}); the tool's own answer is not there.
    expect(r.content.map((c: any) => c.text).join("\n")).not.toMatch(/^(via call|via execute|direct)$/m);
  }
  // The claim did reach pml: the server's tools are listed with it.
  const listed = (await client.listTools()).tools.find((t) => t.name === "fx__echo");
  expect(listed?.annotations?.readOnlyHint).toBe(true);
});
