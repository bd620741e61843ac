// curate_capabilities through the compiled pml: heuristic suggestions, auto and apply modes, the
// nudge after N unnamed capabilities, and the language-model refinement through the client's
// sampling and through a local stand-in of the Anthropic Messages API (.pml.json sampling).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AUTO_THRESHOLD, suggestName } from "../../src/memory/curation.ts";
import type { CapName } from "../../src/memory/names.ts";
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
  { intent: "read a JSON file and parse it", code: "return JSON.parse(await mcp.filesystem.read_file({ path: 'a.json' }))" },
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
  const by = (intent: string) =>
    r.suggestions.find(
      (s: any) =>
        s.reasoning &&
        fx.db().query("SELECT intent FROM capabilities WHERE id = ?").get(s.id) &&
        (fx.db().query("SELECT intent FROM capabilities WHERE id = ?").get(s.id) as any).intent === intent,
    );
  expect(by(SNIPPETS[0]!.intent)).toMatchObject({ suggestedName: "fs:read_json" });
  expect(by(SNIPPETS[0]!.intent).confidence).toBeGreaterThan(0.8);
  expect(by(SNIPPETS[0]!.intent).reasoning).toContain("filesystem tools");
  expect(by(SNIPPETS[1]!.intent).suggestedName).toBe("fs:count_lines");
  expect(by(SNIPPETS[1]!.intent).reasoning).toContain('leaves out "of notes"');
  expect(by(SNIPPETS[2]!.intent)).toMatchObject({ suggestedName: "transform:csv_to_rows" });
  expect(by(SNIPPETS[2]!.intent).confidence).toBeLessThan(by(SNIPPETS[0]!.intent).confidence);
  for (const s of r.suggestions) expect(s.currentName).toMatch(/^unnamed_/);
  expect((fx.db().query("SELECT COUNT(*) AS n FROM capabilities WHERE named = 1").get() as any).n).toBe(0);
});

test("auto without a language model applies nothing and says why; apply validates item by item; taken names get a variant", async () => {
  const { client } = await fx.connect({ permissions: { allow: ["filesystem"] } });
  const auto = await curate(client, { mode: "auto" });
  expect(auto.applied).toEqual([]);
  expect(auto.note).toContain("only names a language model confirmed");
  expect(auto.note).toContain('mode "apply"');
  expect((fx.db().query("SELECT COUNT(*) AS n FROM capabilities WHERE named = 1").get() as any).n).toBe(0);
  const reader = auto.skipped.find((s: any) => s.suggestedName === "fs:read_json");
  expect((await curate(client, { mode: "apply", names: [{ id: reader.id, name: reader.suggestedName }] })).applied[0].to).toBe("fs:read_json");
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toContain("cap__fs__read_json");

  // Another JSON reader: fs:read_json is taken, so a variant from the rest of its intent, at lower confidence.
  await client.callTool({
    name: "execute",
    arguments: { code: "return JSON.parse(await mcp.filesystem.read_file({ path: './a.json' })).k", intent: "read a JSON file from the config folder" },
  });
  const again = await curate(client, { mode: "suggest" });
  const variant = again.suggestions.find((s: any) => s.suggestedName.startsWith("fs:read_json_"));
  expect(variant.suggestedName).toBe("fs:read_json_config");
  expect(variant.reasoning).toContain("taken");

  const id = variant.id;
  const other = again.suggestions.find((s: any) => s.id !== id).id;
  const applied = await curate(client, {
    mode: "apply",
    names: [{ id, name: "fs:read_json_key" }, { id: other, name: "Bad Name" }, { id: "no-such-id", name: "util:nothing_here" }, { id: other, name: "fs:read_json" }, { name: "x" }],
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
    const items = JSON.parse(
      String((req.params.messages[0]!.content as any).text)
        .split("\n")
        .slice(3)
        .join("\n"),
    );
    return {
      role: "assistant",
      model: "stand-in",
      content: { type: "text", text: JSON.stringify(items.map((i: any, n: number) => ({ id: i.id, name: `util:stand_in_name_${n}`, reasoning: "the model liked it" }))) },
    };
  });
  const r = await curate(c.client, { mode: "suggest" });
  await c.transport.close();
  expect(asked.length).toBeGreaterThanOrEqual(1);
  expect(r.llm).toContain("client's sampling");
  expect(r.suggestions[0].suggestedName).toMatch(/^util:stand_in_name_\d$/);
  expect(r.suggestions[0].confidence).toBe(0.9);
  expect(r.suggestions[0].reasoning).toContain("refined by a language model");
});

test("auto applies only the names the model confirmed (client's sampling); the audit log holds prompt and answer", async () => {
  await curate((await fx.connect({ permissions: { allow: ["filesystem"] } })).client, { mode: "suggest" });
  const c = await sdkClient(entries.binary, { cwd: fx.ws, env: testEnv({ PML_WORKSPACE: fx.ws, PML_HOME: fx.home }), capabilities: { sampling: {} } });
  const expected: string[] = [];
  c.client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
    const items = JSON.parse(
      String((req.params.messages[0]!.content as any).text)
        .split("\n")
        .slice(3)
        .join("\n"),
    );
    // The first is accepted as the heuristics named it, the second renamed, the rest left out.
    const answer = [{ id: items[0].id, name: items[0].heuristic_name }, ...(items[1] ? [{ id: items[1].id, name: `util:confirmed_by_model_${expected.length}` }] : [])];
    expected.push(...answer.map((a) => a.name));
    return { role: "assistant", model: "stand-in", content: { type: "text", text: JSON.stringify(answer) } };
  });
  const r = await curate(c.client, { mode: "auto" });
  await c.transport.close();
  expect(r.note).toBeUndefined();
  expect(r.llm).toContain("client's sampling");
  expect(r.applied.map((a: any) => a.to).sort()).toEqual(expected.sort());
  expect(r.skipped.length).toBeGreaterThan(0);
  for (const s of r.skipped) expect((fx.db().query("SELECT named FROM capabilities WHERE id = ?").get(s.id) as any).named).toBe(0);
  const entry = JSON.parse(
    readFileSync(join(fx.ws, ".pml", "audit.log"), "utf8")
      .trim()
      .split("\n")
      .at(-1)!,
  );
  expect(entry.tool).toBe("curate_capabilities");
  expect(entry.reason).toContain(`${expected.length} of`);
  expect(entry.prompt).toContain("Name each code snippet");
  expect(entry.answer).toContain("util:confirmed_by_model_");
});

test("without client sampling, the .pml.json sampling API (a local stand-in Messages API) with the user's key", async () => {
  let seen: any;
  let down = false;
  const api = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (down) return Response.json({ type: "error", error: { type: "api_error", message: "stand-in is down" } }, { status: 500 });
      seen = { key: req.headers.get("x-api-key"), body: await req.json() };
      const items = JSON.parse(
        String(seen.body.messages[0].content[0]?.text ?? seen.body.messages[0].content)
          .split("\n")
          .slice(3)
          .join("\n"),
      );
      const answer = items.map((i: any) => ({ id: i.id, name: /csv/.test(i.intent) ? "transform:parse_csv_rows" : "Not A Name", reasoning: "rows come from csv" }));
      return Response.json({
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: seen.body.model,
        content: [{ type: "text", text: JSON.stringify(answer) }],
        stop_reason: "end_turn",
      });
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

    // auto applies the one name the model gave (valid and free), none of the heuristic ones it did not confirm.
    const auto = await curate(client, { mode: "auto" });
    expect(auto.applied.map((a: any) => a.to)).toEqual(["transform:parse_csv_rows"]);
    expect(auto.skipped.length).toBeGreaterThan(0);
    const log = readFileSync(join(fx.ws, ".pml", "audit.log"), "utf8");
    expect(log).not.toContain("sk-test-123");
    const entry = JSON.parse(log.trim().split("\n").at(-1)!);
    expect(entry.attempted).toContain("anthropic API");
    expect(entry.prompt).toContain("heuristic_name");
    expect(entry.answer).toContain("Not A Name");
    // When the model fails, auto applies nothing and says why.
    down = true;
    const failed = await curate(client, { mode: "auto" });
    expect(failed.applied).toEqual([]);
    expect(failed.note).toContain("could not be used");
    expect(failed.skipped.length).toBe(auto.skipped.length);
  } finally {
    api.stop(true);
  }
});

// --- the heuristics alone (src/memory/curation.ts, curation-words.ts) ---------------------------------
const none = () => false;
const name = (intent: string, tools: string[] = [], code = "", taken: (n: CapName) => boolean = none) =>
  suggestName({ id: "abc123", currentName: "unnamed_1", intent, description: "", code, tools_used: tools }, taken);
const sh = (command: string) => `return await mcp.shell.exec({command: '${command}'})`;

test("extraction: request verbs, politeness, articles and fillers go; synonyms map to one verb; the object names the target", () => {
  // "show" only asks to see: the object is the name (git names may be nouns), "git" is the means.
  expect(name("please show me the current git branch", ["shell:exec"], sh("git branch --show-current")).suggestedName).toBe("git:current_branch");
  expect(name("Could you list the recent git commits", ["shell:exec"], sh("git log --oneline -5")).suggestedName).toBe("git:list_commits");
  expect(name("remove the temporary files", ["shell:exec"], sh("rm -rf tmp")).suggestedName).toBe("shell:delete_temp_files");
  expect(name("erase old logs", ["shell:exec"], sh("rm logs/*.old")).suggestedName).toBe("shell:delete_old_logs");
  expect(name("load settings", ["filesystem:read_file"], "await mcp.filesystem.read_file({path: 'settings.ini'})").suggestedName).toBe("fs:read_settings");
  // The object phrase ends at a preposition; "the list of X" and "the number of X" act on X.
  expect(name("count the number of rows in the users table", ["sqlite:query"], "await mcp.sqlite.query({sql: 'SELECT COUNT(*) FROM users'})").suggestedName).toBe("db:count_rows");
  expect(name("fetch the list of open issues from GitHub", ["fetch:fetch"], "await mcp.fetch.fetch({url: 'https://api.github.com/issues'})").suggestedName).toBe(
    "api:fetch_open_issues",
  );
  // Conversions name themselves; a generic object written somewhere is named by where it goes.
  expect(name("convert CSV text into JSON").suggestedName).toBe("transform:csv_to_json");
  expect(name("write an object to a YAML file", ["filesystem:write_file"], "await mcp.filesystem.write_file({path: 'o.yaml', content: toYaml(args.o)})").suggestedName).toBe(
    "fs:write_yaml",
  );
  expect(name("post a message to the team channel", ["fetch:fetch"], "await mcp.fetch.fetch({url: args.channel, method: 'POST'})").suggestedName).toBe("api:post_team_channel");
  // A target the intent leaves generic comes from the code: a format it parses, the object of its tool.
  expect(name("read a file", ["filesystem:read_file"], "return JSON.parse(await mcp.filesystem.read_file({path: 'a.json'}))").suggestedName).toBe("fs:read_json");
  expect(name("list the files in a folder", ["filesystem:list_directory"], "return await mcp.filesystem.list_directory({path: '.'})").suggestedName).toBe("fs:list_directory");
  // No verb recognised: the action comes from the code (git log -> list); a noun phrase is the target.
  expect(name("recent history", ["shell:exec"], sh("git log -5")).suggestedName).toBe("git:list_history");
  expect(name("", ["shell:exec"], sh("git log -5")).suggestedName).toBe("git:list_commits");
  // A server with no standard namespace: named after the one tool wrapped, in the intent's number.
  expect(name("remember a fact", ["memory:create_entities"], "await mcp.memory.create_entities({entities: [args.f]})").suggestedName).toBe("memory:create_entity");
  // Descriptions in the third person, participles and clauses end the object.
  expect(name("Lists the branches", ["shell:exec"], sh("git branch")).suggestedName).toBe("git:list_branches");
  expect(name("extract the people mentioned in a text", ["ai:complete"], "await mcp.ai.complete({prompt: 'Who is named in: ' + args.text})").suggestedName).toBe(
    "ai:extract_people",
  );
  expect(name("check whether a host is reachable", ["fetch:fetch"], "await mcp.fetch.fetch({url: 'https://' + args.host})").suggestedName).toBe("api:check_host");
  // Idioms and places: "remove duplicates from a list", "a directory for the logs".
  expect(name("remove duplicate values from an array").suggestedName).toBe("transform:dedupe_array");
  expect(name("create a folder for the reports", ["filesystem:create_directory"], "await mcp.filesystem.create_directory({path: 'reports'})").suggestedName).toBe(
    "fs:create_report_directory",
  );
  // A generic source of a conversion says nothing; a request to see something is read as the code reads it.
  expect(name("turn a value into base64").suggestedName).toBe("transform:to_base64");
  expect(name("get me the contents of the changelog", ["filesystem:read_file"], "await mcp.filesystem.read_file({path: 'CHANGELOG.md'})").suggestedName).toBe("fs:read_changelog");
  // Adjectives the code does not show go when it shows the noun; compounds stay.
  expect(name("list the local git branches", ["shell:exec"], sh("git branch")).suggestedName).toBe("git:list_branches");
  expect(name("fetch the exchange rate", ["fetch:fetch"], "await mcp.fetch.fetch({url: 'https://x.example/rates'})").suggestedName).toBe("api:fetch_exchange_rate");
  // A model doing the work names the capability, whatever feeds it; what it writes is drafted.
  expect(
    name("write release notes from the git log", ["shell:exec", "ai:complete"], "const l = await mcp.shell.exec({command: 'git log'}); return await mcp.ai.complete({prompt: l})")
      .suggestedName,
  ).toBe("ai:draft_release_notes");
  // "open" means what the tool does; brand names stay one word while camelCase splits.
  expect(name("open a GitLab issue", ["gitlab:create_issue"], "await mcp.gitlab.create_issue({title: args.t})").suggestedName).toBe("api:create_gitlab_issue");
  expect(name("open the changelog", ["filesystem:read_file"], "await mcp.filesystem.read_file({path: 'CHANGELOG.md'})").suggestedName).toBe("fs:read_changelog");
  // A property is named after what it belongs to; a git command found anywhere in the code counts.
  expect(name("get the size of a file", ["filesystem:get_file_info"]).suggestedName).toBe("fs:get_file_size");
  expect(name("create a git tag for the release", ["shell:exec"], "const cmd = 'git tag ' + args.v; return await mcp.shell.exec({command: cmd})").suggestedName).toBe(
    "git:create_tag",
  );
  // Without tools: transform for reshaping verbs, util otherwise.
  expect(name("sort records by date").suggestedName).toBe("transform:sort_records");
  expect(name("generate a short id", [], "return crypto.randomUUID().slice(0, 8)").suggestedName).toBe("util:generate_short_id");
});

test("confidence: tools match + intent clarity + pattern compliance, each computed; guesses stay at or below the auto threshold", () => {
  const plain = name("list recent git commits", ["shell:exec"], sh("git log --oneline -10"));
  expect(plain.confidence).toBe(1);
  expect(plain.reasoning).toMatch(/tools 0\.30 \+ intent 0\.30 \+ pattern 0\.40/);
  // Wrong-prone: "show" says nothing about what is done, and "of staged changes" is left out.
  const ambiguous = name("show the diff of staged changes", ["shell:exec"], sh("git diff --cached"));
  expect(ambiguous.suggestedName).toBe("git:get_diff");
  expect(ambiguous.confidence).toBeLessThanOrEqual(AUTO_THRESHOLD);
  expect(ambiguous.reasoning).toContain('leaves out "of staged changes"');
  // No verb in the intent: the action is the code's, the intent unclear.
  const noVerb = name("the weekly thing", ["filesystem:read_file"], "await mcp.filesystem.read_file({path: 'w.txt'})");
  expect(noVerb.confidence).toBeLessThanOrEqual(AUTO_THRESHOLD);
  expect(noVerb.reasoning).toContain("no verb recognised");
  // Two verbs: two readings, less clear than one.
  const one = name("read a json file", ["filesystem:read_file"], "JSON.parse(await mcp.filesystem.read_file({path: 'a.json'}))");
  const two = name("read a json file and delete it", ["filesystem:read_file"], "JSON.parse(await mcp.filesystem.read_file({path: 'a.json'}))");
  expect(two.suggestedName).toBe(one.suggestedName);
  expect(two.confidence).toBeLessThan(one.confidence);
  expect(two.reasoning).toContain('also says "delete"');
  // A weak verb ("check") is less clear than a precise one; a mixed capability is less backed.
  expect(name("check the config", ["filesystem:read_file"], "await mcp.filesystem.read_file({path: 'config.json'})").confidence).toBeLessThan(
    name("validate the config", ["filesystem:read_file"], "await mcp.filesystem.read_file({path: 'config.json'})").confidence,
  );
  const mixed = name(
    "download a page",
    ["fetch:fetch", "filesystem:write_file"],
    "await mcp.filesystem.write_file({path: 'p.html', content: await mcp.fetch.fetch({url: args.url})})",
  );
  expect(mixed.suggestedName).toBe("api:download_page");
  expect(mixed.confidence).toBeLessThanOrEqual(AUTO_THRESHOLD);
  // The code backing the target counts: the same intent over code that never mentions it is less sure.
  expect(name("fetch the weather", ["fetch:fetch"], "await mcp.fetch.fetch({url: 'https://x.example/weather'})").confidence).toBeGreaterThan(
    name("fetch the weather", ["fetch:fetch"], "await mcp.fetch.fetch({url: args.url})").confidence,
  );
  // A later clause asking for something else: what it hands back may be the point.
  const alsoAsks = name(
    "read the manifest and give me its version",
    ["filesystem:read_file"],
    "return JSON.parse(await mcp.filesystem.read_file({path: 'manifest.json'})).version",
  );
  expect(alsoAsks.reasoning).toContain('also asks for "version"');
  expect(alsoAsks.confidence).toBeLessThan(
    name("read the manifest", ["filesystem:read_file"], "return JSON.parse(await mcp.filesystem.read_file({path: 'manifest.json'}))").confidence,
  );
  // A condition on the object the name leaves out: the name is a guess about what matters.
  const conditioned = name(
    "delete sessions that expired yesterday",
    ["sqlite:write_query"],
    "await mcp.sqlite.write_query({query: 'DELETE FROM sessions WHERE expires_at < date()'})",
  );
  expect(conditioned.suggestedName).toBe("db:delete_sessions");
  expect(conditioned.reasoning).toContain('leaves out the condition "that expired yesterday');
  expect(conditioned.confidence).toBeLessThanOrEqual(AUTO_THRESHOLD);
  // A long target the code does not show is less sure than a short one it does.
  expect(name("delete the old build output folder", ["shell:exec"], sh("rm -rf dist")).confidence).toBeLessThanOrEqual(AUTO_THRESHOLD);
  // Nothing to go on: low.
  const vague = name("", [], "return 1");
  expect(vague.suggestedName).toBe("util:run_task");
  expect(vague.confidence).toBeLessThan(0.5);
  expect(name("do something with it", [], "return args.x").confidence).toBeLessThan(0.5);
});

test("taken names get a variant from the rest of the intent, at lower confidence", () => {
  const free = name("download a page from the docs site", ["fetch:fetch"], "await mcp.fetch.fetch({url: args.url})");
  expect(free.suggestedName).toBe("api:download_page");
  const variant = name("download a page from the docs site", ["fetch:fetch"], "await mcp.fetch.fetch({url: args.url})", (n) => n.action === "download_page");
  expect(variant.suggestedName).toBe("api:download_page_docs");
  expect(variant.reasoning).toContain("taken");
  expect(variant.confidence).toBeLessThan(free.confidence);
  expect(variant.confidence).toBeLessThanOrEqual(AUTO_THRESHOLD);
  // Never auto-applied, however plain the rest: a near-duplicate exists.
  const plainTaken = name("list recent git commits", ["shell:exec"], sh("git log --oneline -10"), (n) => n.action === "list_commits");
  expect(plainTaken.confidence).toBeLessThanOrEqual(AUTO_THRESHOLD);
  const numbered = name("download a page", ["fetch:fetch"], "", (n) => n.action === "download_page");
  expect(numbered.suggestedName).toBe("api:download_page_v2");
});

test("a word that names an object's own property (git constructor, toString) is a plain word, not a table entry", () => {
  for (const cmd of ["git constructor", "git __proto__", "git toString"]) expect(() => name("run it", ["shell:exec"], sh(cmd))).not.toThrow();
  expect(() => name("", ["shell:exec"], "const c = 'git constructor'; return await mcp.shell.exec({command: c})")).not.toThrow();
});
