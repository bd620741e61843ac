// pml's own tools (status, discover, call, ...) and its standard library (dns, meta, learn) are
// declared with defineTool: their arguments are checked against the schema tools/list and
// discover show, and a wrong one is refused naming the field. Real binary.
import { afterAll, expect, test } from "bun:test";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";

const ws = tempDir();
const home = tempDir();
afterAll(() => {
  ws.cleanup();
  home.cleanup();
});
const textOf = (r: any) => (r.content as any[]).map((c) => c.text).join("\n");
const connect = () => sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });

test("a misspelled key or a wrong type for a stdlib tool: isError naming the field, with the key it meant", async () => {
  const { client, transport } = await connect();
  try {
    const call = (tool: string, args: Record<string, unknown>) => client.callTool({ name: "call", arguments: { tool, arguments: args } }) as Promise<any>;
    const typo = await call("dns:query", { tag: ["json"] });
    expect(typo.isError).toBe(true);
    expect(textOf(typo)).toContain('Invalid arguments for dns:query: "tag" is not an accepted argument (did you mean "tags"?)');
    expect(textOf(typo)).toContain('`discover` {"namespace": "dns"}');
    const missing = await call("dns:lookup", { nmae: "fs:read_json" });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('"name" is required');

    const wrongType = await call("dns:query", { limit: "ten" });
    expect(wrongType.isError).toBe(true);
    expect(textOf(wrongType)).toContain('"limit" must be integer');
    const nested = await call("learn:curate", { filter: { min_usage: -1 } });
    expect(textOf(nested)).toContain('"filter.min_usage" must be >= 0');
    // The same check for a call made by code.
    const fromCode: any = await client.callTool({ name: "execute", arguments: { code: "return await mcp.dns.tag({name: 'x', add: 'json'})" } });
    expect(fromCode.isError).toBe(true);
    expect(textOf(fromCode)).toContain('"add" must be array');
  } finally {
    await transport.close();
  }
}, 60_000);

test("a misspelled key or a wrong type for a meta tool: isError naming the field; its listed schema refuses other keys", async () => {
  const { client, transport } = await connect();
  try {
    const typo: any = await client.callTool({ name: "list_capabilities", arguments: { namedOnly: true } });
    expect(typo.isError).toBe(true);
    expect(textOf(typo)).toContain('Invalid arguments for list_capabilities: "namedOnly" is not an accepted argument (did you mean "named_only"?)');
    expect(textOf(typo)).toContain("tools/list");
    const unknown: any = await client.callTool({ name: "discover", arguments: { search: "files" } });
    expect(textOf(unknown)).toContain('"search" is not an accepted argument (it takes "query", "namespace", "limit", "schemas")');
    const wrongType: any = await client.callTool({ name: "call", arguments: { tool: "meta:servers", arguments: "{}" } });
    expect(wrongType.isError).toBe(true);
    expect(textOf(wrongType)).toContain('"arguments" must be object');
    const outOfRange: any = await client.callTool({ name: "discover", arguments: { query: "files", limit: 0 } });
    expect(textOf(outOfRange)).toContain('"limit" must be >= 1');

    const { tools } = await client.listTools();
    const discover = tools.find((t) => t.name === "discover")!;
    expect(discover.inputSchema).toEqual({
      type: "object",
      properties: {
        query: { type: "string", description: "what you want to do, in your own words" },
        namespace: { type: "string", description: "one namespace, e.g. memory" },
        limit: { type: "integer", minimum: 1, maximum: 50, description: "how many matches for a query (default 5; 2 when the best is strong or fair)" },
        schemas: { type: "boolean", description: "with a query: each result's full input schema instead of its parameters in one line" },
      },
      additionalProperties: false,
    });
    const dns: any = JSON.parse(textOf(await client.callTool({ name: "discover", arguments: { namespace: "dns" } })));
    expect(dns.tools.find((t: any) => t.id === "dns:lookup").inputSchema).toMatchObject({ required: ["name"], additionalProperties: false });
  } finally {
    await transport.close();
  }
}, 60_000);
