// curate_capabilities through the compiled pml: heuristic suggestions, auto and apply modes, the
// nudge after N unnamed capabilities, and the language-model refinement through the client's
// sampling and through a local stand-in of the Anthropic Messages API (.pml.json sampling).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { suggestName } from "../../src/memory/curation.ts";
import { entries, sdkClient, testEnv } from "../helpers/pml.ts";
import { memoryFixture, text, type MemoryFixture } from "./helpers.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
  writeFileSync(join(fx.ws, "a.json"), '{"k": 1}');
  writeFileSync(join(fx.ws, "notes.txt"), "x\ny");
});
afterAll(() => fx.cleanup());

const SNIPPETS = [
  { intent: "read a JSON config file", code: "return JSON.parse(await mcp.filesystem.read_file({ path: 'a.json' }))" },
  { intent: "count the lines of notes", code: "return (await mcp.filesystem.read_file({ path: 'notes.txt' })).split('\\n').length" },
  { intent: "convert a csv string to rows", code: "return 'a,b'.split(',')" },
];
const curate = async (client: any, args: Record<string, unknown>) => JSON.parse(text(await client.callTool({ name: "curate_capabilities", arguments: args })));

test("the nudge comes after curate_after unnamed capabilities, once", async () => {
  const { client } = await fx.connect({ permissions: { allow: ["filesystem"] }, memory: { curate_after: 3 } });
  const results: any[] = [];
  for (const s of SNIPPETS) results.push(await client.callTool({ name: "execute", arguments: s }));
  expect(results[0].structuredContent.curation).toBeUndefined();
  expect(results[1].structuredContent.curation).toBeUndefined();
  expect(results[2].structuredContent.curation).toContain("3 capabilities in this project are still unnamed");
  expect(results[2].structuredContent.curation).toContain("curate_capabilities");
  const again: any = await client.callTool({ name: "execute", arguments: { code: "return 'one more'", intent: "say one more" } });
  expect(again.structuredContent.curation).toBeUndefined();
});

test("suggest: heuristic names with confidence and reasons; nothing changes", async () => {
  const { client } = await fx.connect({ permissions: { allow: ["filesystem"] } });
  const r = await curate(client, { mode: "suggest" });
  expect(r.llm).toContain("heuristics only");
  const by = (intent: string) => r.suggestions.find((s: any) => s.reasoning && fx.db().query("SELECT intent FROM capabilities WHERE id = ?").get(s.id) && (fx.db().query("SELECT intent FROM capabilities WHERE id = ?").get(s.id) as any).intent === intent);
  expect(by(SNIPPETS[0]!.intent)).toMatchObject({ suggestedName: "fs:read_json_config" });
  expect(by(SNIPPETS[0]!.intent).confidence).toBeGreaterThan(0.8);
  expect(by(SNIPPETS[0]!.intent).reasoning).toContain("filesystem tools");
  expect(by(SNIPPETS[1]!.intent).suggestedName).toBe("fs:count_lines");
  expect(by(SNIPPETS[2]!.intent)).toMatchObject({ suggestedName: "transform:csv_string_to_rows" });
  expect(by(SNIPPETS[2]!.intent).confidence).toBeLessThan(by(SNIPPETS[0]!.intent).confidence);
  for (const s of r.suggestions) expect(s.currentName).toMatch(/^unnamed_/);
  expect((fx.db().query("SELECT COUNT(*) AS n FROM capabilities WHERE named = 1").get() as any).n).toBe(0);
});

test("auto applies the confident ones; apply validates item by item; taken names get a variant", async () => {
  const { client } = await fx.connect({ permissions: { allow: ["filesystem"] } });
  const auto = await curate(client, { mode: "auto" });
  expect(auto.applied.map((a: any) => a.to)).toContain("fs:read_json_config");
  expect(auto.skipped.every((s: any) => s.confidence <= 0.8)).toBe(true);
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toContain("cap__fs__read_json_config");

  // Same intent again, other code: the name is taken, so a variant at lower confidence.
  await client.callTool({ name: "execute", arguments: { code: "return JSON.parse(await mcp.filesystem.read_file({ path: './a.json' })).k", intent: "read a JSON config file" } });
  const again = await curate(client, { mode: "suggest" });
  const variant = again.suggestions.find((s: any) => s.suggestedName.startsWith("fs:read_json_config_"));
  expect(variant.suggestedName).toBe("fs:read_json_config_file");
  expect(variant.confidence).toBeLessThanOrEqual(0.8);
  expect(variant.reasoning).toContain("taken");

  const id = variant.id;
  const other = again.suggestions.find((s: any) => s.id !== id).id;
  const applied = await curate(client, {
    mode: "apply",
    names: [{ id, name: "fs:read_json_key" }, { id: other, name: "Bad Name" }, { id: "no-such-id", name: "util:nothing_here" }, { id: other, name: "fs:read_json_config" }, { name: "x" }],
  });
  expect(applied.applied).toEqual([{ id, from: expect.stringMatching(/^unnamed_/), to: "fs:read_json_key" }]);
  expect(applied.rejected.map((r: any) => r.error)).toEqual([
    expect.stringContaining("Invalid capability name format"),
    expect.stringContaining("Capability not found: no-such-id"),
    expect.stringContaining("already exists"),
    expect.stringContaining('needs "id" and "name"'),
  ]);
  expect(text(await client.callTool({ name: "curate_capabilities", arguments: { mode: "apply" } }))).toContain('needs "names"');
  expect(text(await client.callTool({ name: "curate_capabilities", arguments: { mode: "guess" } }))).toContain('"mode" must be');
  // The same through the standard library.
  const viaCall: any = await client.callTool({ name: "call", arguments: { tool: "learn:curate", arguments: { mode: "suggest", filter: { min_usage: 1 } } } });
  expect(viaCall.structuredContent.mode).toBe("suggest");
});

test("a language model refines names through the client's sampling (batches of 5)", async () => {
  const c = await sdkClient(entries.binary, { cwd: fx.ws, env: testEnv({ PML_WORKSPACE: fx.ws, PML_HOME: fx.home }), capabilities: { sampling: {} } });
  const asked: any[] = [];
  c.client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
    asked.push(req.params);
    const items = JSON.parse(String((req.params.messages[0]!.content as any).text).split("\n").slice(3).join("\n"));
    return { role: "assistant", model: "stand-in", content: { type: "text", text: JSON.stringify(items.map((i: any, n: number) => ({ id: i.id, name: `util:stand_in_name_${n}`, reasoning: "the model liked it" }))) } };
  });
  const r = await curate(c.client, { mode: "suggest" });
  await c.transport.close();
  expect(asked.length).toBeGreaterThanOrEqual(1);
  expect(r.llm).toContain("client's sampling");
  expect(r.suggestions[0].suggestedName).toMatch(/^util:stand_in_name_\d$/);
  expect(r.suggestions[0].confidence).toBe(0.9);
  expect(r.suggestions[0].reasoning).toContain("refined by a language model");
});

test("without client sampling, the .pml.json sampling API (a local stand-in Messages API) with the user's key", async () => {
  let seen: any;
  const api = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      seen = { key: req.headers.get("x-api-key"), body: await req.json() };
      const items = JSON.parse(String(seen.body.messages[0].content[0]?.text ?? seen.body.messages[0].content).split("\n").slice(3).join("\n"));
      const answer = items.map((i: any) => ({ id: i.id, name: /csv/.test(i.intent) ? "transform:parse_csv_rows" : "Not A Name", reasoning: "rows come from csv" }));
      return Response.json({ id: "msg_1", type: "message", role: "assistant", model: seen.body.model, content: [{ type: "text", text: JSON.stringify(answer) }], stop_reason: "end_turn" });
    },
  });
  try {
    writeFileSync(join(fx.ws, ".env"), "CURATION_TEST_KEY=sk-test-123\n");
    const { client } = await fx.connect({
      permissions: { allow: ["filesystem"] },
      sampling: { provider: "anthropic", url: `http://127.0.0.1:${api.port}`, api_key_env: "CURATION_TEST_KEY", allow: ["pml-curation"] },
      memory: { curation_model: "claude-haiku-4-5" },
    });
    await client.callTool({ name: "execute", arguments: { code: "return 'x,y'.split(',')", intent: "convert a csv string to rows" } });
    const r = await curate(client, { mode: "suggest" });
    expect(r.llm).toContain("anthropic API");
    expect(seen.key).toBe("sk-test-123");
    expect(seen.body.model).toBe("claude-haiku-4-5");
    const csv = r.suggestions.find((s: any) => s.suggestedName === "transform:parse_csv_rows");
    expect(csv.reasoning).toContain("rows come from csv");
    // An invalid name from the model is ignored: the heuristic one stays.
    expect(r.suggestions.every((s: any) => !s.suggestedName.includes("Not A Name"))).toBe(true);
  } finally {
    api.stop(true);
  }
});

test("heuristics alone: namespace from tools and git commands, variants, confidence bands", () => {
  const none = () => false;
  const git = suggestName({ id: "1", currentName: "unnamed_1", intent: "show the last commits", description: "", code: "await mcp.shell.exec({command: 'git log -5'})", tools_used: ["shell:exec"] }, none);
  expect(git.suggestedName).toBe("git:last_commits");
  const api = suggestName({ id: "2", currentName: "unnamed_2", intent: "download a page", description: "", code: "", tools_used: ["fetch:fetch"] }, none);
  expect(api.suggestedName).toBe("api:download_page");
  const vague = suggestName({ id: "3", currentName: "unnamed_3", intent: "", description: "", code: "return 1", tools_used: [] }, none);
  expect(vague.suggestedName).toBe("util:run_task");
  expect(vague.confidence).toBeLessThan(0.5);
  const taken = suggestName({ id: "4", currentName: "unnamed_4", intent: "download a page", description: "", code: "", tools_used: ["fetch:fetch"] }, (n) => n.action === "download_page");
  expect(taken.suggestedName).toBe("api:download_page_v2");
  expect(taken.confidence).toBeLessThan(api.confidence);
});

test("extraction: the object phrase, properties, conversions, formats, views, what the namespace says", () => {
  const none = () => false;
  const name = (intent: string, tools: string[] = [], code = "") => suggestName({ id: "x", currentName: "unnamed_x", intent, description: "", code, tools_used: tools }, none);
  expect(name("get the size of a file", ["filesystem:get_file_info"]).suggestedName).toBe("fs:get_file_size");
  expect(name("convert csv text to json").suggestedName).toBe("transform:csv_to_json");
  expect(name("write an object to a json file", ["filesystem:write_file"]).suggestedName).toBe("fs:write_json");
  expect(name("find all typescript files", ["filesystem:search_files"]).suggestedName).toBe("fs:find_typescript_files");
  expect(name("show the git status", ["shell:exec"], "git status").suggestedName).toBe("git:show_status");
  expect(name("create a git tag for the release", ["shell:exec"], "git tag v1").suggestedName).toBe("git:create_tag");
  expect(name("count rows in a table", ["sqlite:query"]).suggestedName).toBe("db:count_rows");
  expect(name("export a table to csv", ["sqlite:query", "filesystem:write_file"]).suggestedName).toBe("db:export_table");
  expect(name("delete temporary files", ["shell:exec"], "rm -f tmp/*").suggestedName).toBe("shell:delete_temp_files");
  // A tool of one other server names the namespace; nothing usable in the intent: the tool's action.
  expect(name("do the usual thing with the graph", ["memory:read_graph"]).suggestedName).toBe("memory:read_graph");
});

test("confidence: only a plain intent backed by its tools reaches auto; guesses stay at or below 0.8", () => {
  const none = () => false;
  const conf = (intent: string, tools: string[] = [], code = "") => suggestName({ id: "x", currentName: "unnamed_x", intent, description: "", code, tools_used: tools }, none).confidence;
  expect(conf("read a json file", ["filesystem:read_file"])).toBeGreaterThan(0.8);
  // More said than the name holds ("to a webhook"), a verb the tools do not do, no tools at all,
  // a name taken from the tool: each keeps auto away.
  expect(conf("post a message to a webhook", ["fetch:fetch"])).toBeLessThanOrEqual(0.8);
  expect(conf("copy a file as a backup", ["filesystem:read_file", "filesystem:write_file"])).toBeLessThanOrEqual(0.8);
  expect(conf("generate a random id")).toBeLessThanOrEqual(0.8);
  expect(conf("do the usual thing with the graph", ["memory:read_graph"])).toBeLessThanOrEqual(0.8);
  expect(conf("")).toBeLessThan(0.5);
});
