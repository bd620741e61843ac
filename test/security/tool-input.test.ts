// Tool input is checked against the tool's input schema before anything runs, for every kind of
// tool and every way of calling it, and the message names the wrong field. Real binary, real
// server-memory.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, BUN, ROOT, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace } from "../helpers/trust.ts";

const MEMORY_JS = join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");
const ws = tempDir();
const home = tempDir();
const memoryFile = join(home.path, "memory.jsonl");
writeFileSync(
  join(ws.path, ".pml.json"),
  JSON.stringify({
    permissions: { allow: ["mem", "filesystem:read_file"] },
    private_mcps: { mem: { command: BUN, args: [MEMORY_JS], env: { MEMORY_FILE_PATH: memoryFile } } },
  }),
);
await trustWorkspace(ws.path, home.path);
writeFileSync(join(ws.path, "a.txt"), "hello");
afterAll(() => {
  ws.cleanup();
  home.cleanup();
});
const text = (r: any) => r.content.map((c: any) => c.text).join("\n");

test("wrong arguments are refused with the field named; the tool never sees them", async () => {
  const { client, transport } = await sdkClient([BIN], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
  try {
    // module tool (sandbox)
    const r1: any = await client.callTool({ name: "filesystem__read_file", arguments: { path: 42 } });
    expect(r1.isError).toBe(true);
    expect(text(r1)).toContain('"path" must be string');
    const r2: any = await client.callTool({ name: "filesystem__read_file", arguments: {} });
    expect(text(r2)).toContain('"path" is required');
    expect(text(await client.callTool({ name: "filesystem__read_file", arguments: { path: "a.txt" } }))).toContain("hello");

    // stdio server: its schema is known once it ran
    expect((await client.callTool({ name: "call", arguments: { tool: "mem:read_graph", arguments: {} } })).isError).toBeFalsy();
    const bad = { entities: [{ name: "x", entityType: "t" }] }; // observations missing
    const r3: any = await client.callTool({ name: "call", arguments: { tool: "mem:create_entities", arguments: bad } });
    expect(r3.isError).toBe(true);
    expect(text(r3)).toContain('"entities[0].observations" is required');
    const r4: any = await client.callTool({ name: "mem__create_entities", arguments: { entities: "nope" } });
    expect(text(r4)).toContain('"entities" must be array');

    // the same check for calls made by code
    const r5: any = await client.callTool({
      name: "execute",
      arguments: { code: "return await mcp.mem.create_entities({entities: [{name: 1, entityType: 't', observations: []}]})" },
    });
    expect(r5.isError).toBe(true);
    expect(text(r5)).toContain('"entities[0].name" must be string');

    const graph: any = await client.callTool({ name: "call", arguments: { tool: "mem:read_graph", arguments: {} } });
    expect(text(graph)).not.toContain('"x"');
  } finally {
    await transport.close();
  }
}, 60_000);
