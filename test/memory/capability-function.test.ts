// Issue 23 outcomes 1 and 2, against the compiled pml: a capability behaves like a function. Code
// calling `mcp.cap.*` gets its value (a failing one throws with its message), while a `cap__` tool
// call and `execute` keep the envelope; arguments are checked like a function's (an unknown key
// refused with a did-you-mean, a missing required one by name with its example), and only declared
// defaults fill in: never the first run's values, also for records saved before (read as examples).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { memoryFixture, text, type MemoryFixture } from "./helpers.ts";

let fx: MemoryFixture;
const READ_JSON = "return JSON.parse(await mcp.filesystem.read_file({ path: args.path }));";

beforeAll(() => {
  fx = memoryFixture();
  writeFileSync(join(fx.ws, "a.json"), JSON.stringify({ a: 1 }));
  writeFileSync(join(fx.ws, "b.json"), JSON.stringify({ a: 2 }));
});
afterAll(() => fx.cleanup());

const capRow = (action: string) => fx.db().query("SELECT * FROM capabilities WHERE action = ?").get(action) as any;

describe("a capability returns its value to code", () => {
  test("mcp.cap.* gives the value; execute keeps tools_used and the name; a capability call answers its value alone", async () => {
    const { client } = await fx.connect();
    const saved: any = await client.callTool({ name: "execute", arguments: { code: READ_JSON, args: { path: "a.json" }, name: "fs:read_json" } });
    expect(saved.structuredContent.result).toEqual({ a: 1 });

    const composed: any = await client.callTool({
      name: "execute",
      arguments: { code: "const j = await mcp.cap.fs__read_json({path: 'a.json'}); return j.a", name: "fs:read_json_a" },
    });
    expect(composed.isError).toBeFalsy();
    expect(composed.structuredContent.result).toBe(1);
    expect(composed.structuredContent.tools_used).toContain("cap:fs:read_json");

    const byTool: any = await client.callTool({ name: "cap__fs__read_json", arguments: { path: "b.json" } });
    // The caller named it: its name and the tools it used (checked by pml's permissions) are not
    // said again; the text is the same JSON, compact (issue 46: context paid on every reuse).
    expect(byTool.structuredContent).toEqual({ result: { a: 2 } });
    expect(byTool.content).toEqual([{ type: "text", text: '{"result":{"a":2}}' }]);
    const composedByTool: any = await client.callTool({ name: "cap__fs__read_json_a", arguments: {} });
    expect(composedByTool.structuredContent).toEqual({ result: 1 });
  });

  test("a failing capability throws in code with its message, and the run is not kept", async () => {
    const { client } = await fx.connect();
    const caught: any = await client.callTool({
      name: "execute",
      arguments: { code: "try { await mcp.cap.fs__read_json({path: 'missing.json'}); return 'no error' } catch (e) { return e.message }" },
    });
    expect(caught.structuredContent.result).toContain("missing.json");
    expect(caught.structuredContent.capabilityName).toBeUndefined();
    const before = (fx.db().query("SELECT COUNT(*) AS n FROM capabilities").get() as any).n;
    const thrown: any = await client.callTool({ name: "execute", arguments: { code: "return (await mcp.cap.fs__read_json({path: 'missing.json'})).a", name: "fs:broken_read" } });
    expect(thrown.isError).toBe(true);
    expect(text(thrown)).toContain("missing.json");
    expect((fx.db().query("SELECT COUNT(*) AS n FROM capabilities").get() as any).n).toBe(before);
  });
});

describe("arguments are checked like a function's", () => {
  test("a misspelled argument is refused with a did-you-mean and nothing runs; a missing one by name with its example", async () => {
    const { client } = await fx.connect();
    const uses = () => capRow("read_json").usage_count;
    const before = uses();
    const typo: any = await client.callTool({ name: "cap__fs__read_json", arguments: { pathh: "b.json" } });
    expect(typo.isError).toBe(true);
    expect(text(typo)).toContain('"pathh" is not a parameter (did you mean "path"?)');
    expect(text(typo)).not.toContain('"a":');
    const missing: any = await client.callTool({ name: "execute", arguments: { capability: "fs:read_json", args: {} } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('"path" is required (e.g. "a.json"');
    const fromCode: any = await client.callTool({ name: "execute", arguments: { code: "return await mcp.cap.fs__read_json({file: 'b.json'})" } });
    expect(fromCode.isError).toBe(true);
    expect(text(fromCode)).toContain('"file" is not a parameter');
    expect(uses()).toBe(before);
  });

  test("only declared defaults fill in", async () => {
    const { client } = await fx.connect();
    const parameters = { properties: { path: { type: "string", default: "b.json" }, key: { type: "string" } }, required: ["key"] };
    const code = "return JSON.parse(await mcp.filesystem.read_file({ path: args.path }))[args.key];";
    const saved: any = await client.callTool({ name: "execute", arguments: { code, args: { path: "a.json", key: "a" }, parameters, name: "fs:read_json_key" } });
    expect(saved.structuredContent.result).toBe(1);
    const withDefault: any = await client.callTool({ name: "cap__fs__read_json_key", arguments: { key: "a" } });
    expect(withDefault.structuredContent.result).toBe(2); // the declared default b.json, not the first run's a.json
    const noKey: any = await client.callTool({ name: "cap__fs__read_json_key", arguments: {} });
    expect(text(noKey)).toContain('"key" is required');
  });

  test("a whole number in the first run types its parameter a number: a later 4.5 is taken, a string still refused", async () => {
    const { client } = await fx.connect();
    const code = "return Math.round(args.principal * args.rate * args.years) / 100;";
    const saved: any = await client.callTool({ name: "execute", arguments: { code, args: { principal: 1000, rate: 5, years: 2 }, name: "util:simple_interest" } });
    expect(saved.structuredContent.result).toBe(100);
    const tool = (await client.listTools()).tools.find((t) => t.name === "cap__util__simple_interest")!;
    expect((tool.inputSchema.properties as any).rate).toEqual({ type: "number", examples: [5] });
    const fractional: any = await client.callTool({ name: "cap__util__simple_interest", arguments: { principal: 1000, rate: 4.5, years: 1.5 } });
    expect(fractional.isError).toBeFalsy();
    expect(fractional.structuredContent.result).toBe(67.5);
    const word: any = await client.callTool({ name: "cap__util__simple_interest", arguments: { principal: 1000, rate: "five", years: 2 } });
    expect(word.isError).toBe(true);
    expect(text(word)).toContain('"rate" must be number');
    // What pml stored before: "integer" inferred from the 5, read as a number; a declared integer stays one.
    const db = new Database(join(fx.home, "memory.db"));
    db.run(
      `UPDATE capabilities SET parameters_schema = '{"type":"object","properties":{"principal":{"type":"integer","examples":[1000]},"rate":{"type":"integer","examples":[5]},"years":{"type":"integer","minimum":1}},"required":["principal","rate","years"]}' WHERE action = 'simple_interest'`,
    );
    db.close();
    const fresh = await fx.connect();
    const props = ((await fresh.client.listTools()).tools.find((t) => t.name === "cap__util__simple_interest")!.inputSchema.properties ?? {}) as any;
    expect([props.principal.type, props.rate.type, props.years.type]).toEqual(["number", "number", "integer"]);
    const old: any = await fresh.client.callTool({ name: "cap__util__simple_interest", arguments: { principal: 1000, rate: 4.5, years: 2 } });
    expect(old.structuredContent.result).toBe(90);
    expect(text(await fresh.client.callTool({ name: "cap__util__simple_interest", arguments: { principal: 1000, rate: 4.5, years: 1.5 } }))).toContain('"years" must be integer');
  });

  test("a new version's new argument is required too, with its example", async () => {
    const { client } = await fx.connect();
    const code = "return JSON.parse(await mcp.filesystem.read_file({ path: args.path }))[args.key ?? 'a'];";
    const r: any = await client.callTool({ name: "execute", arguments: { code, args: { path: "a.json", key: "a" }, name: "fs:read_json", update: true } });
    expect(r.structuredContent.version.tag).toBeDefined();
    const tool = (await client.listTools()).tools.find((t) => t.name === "cap__fs__read_json")!;
    expect(tool.inputSchema.required).toEqual(["path", "key"]);
    const noKey: any = await client.callTool({ name: "cap__fs__read_json", arguments: { path: "b.json" } });
    expect(text(noKey)).toContain('"key" is required (e.g. "a"');
  });

  test("a record saved before (first-run values as defaults) is read as required parameters with examples", async () => {
    const { client } = await fx.connect();
    await client.callTool({
      name: "execute",
      arguments: { code: "const p = args.path; return JSON.parse(await mcp.filesystem.read_file({ path: p }));", args: { path: "a.json" }, name: "json:read_file" },
    });
    // What pml stored before issue 23: the first run's arguments as defaults, nothing required.
    const db = new Database(join(fx.home, "memory.db"));
    db.run(
      `UPDATE capabilities SET parameters_schema = '{"type":"object","properties":{"path":{"type":"string","default":"a.json"}}}', default_args = '{"path":"a.json"}' WHERE action = 'read_file'`,
    );
    db.close();
    const fresh = await fx.connect();
    const tool = (await fresh.client.listTools()).tools.find((t) => t.name === "cap__json__read_file")!;
    expect(tool.inputSchema).toEqual({ type: "object", properties: { path: { type: "string", examples: ["a.json"] } }, required: ["path"] });
    const typo: any = await fresh.client.callTool({ name: "cap__json__read_file", arguments: { pathh: "a.json" } });
    expect(text(typo)).toContain('did you mean "path"?');
    const none: any = await fresh.client.callTool({ name: "cap__json__read_file", arguments: {} });
    expect(none.isError).toBe(true);
    expect(text(none)).toContain('"path" is required (e.g. "a.json", the value a run of it used: it is no longer filled in');
    const given: any = await fresh.client.callTool({ name: "cap__json__read_file", arguments: { path: "b.json" } });
    expect(given.structuredContent.result).toEqual({ a: 2 });
  });
});
