// The README's procedural-memory examples, copied out of README.md at test time and run literally
// (in README order) against the compiled pml, so the README cannot drift from what pml does.
// Patterns relied on, in the section "## Procedural memory: code that worked becomes a tool":
//  - a ```jsonc fence whose first line is `// execute arguments`, then the arguments as JSON, then
//    `// result: {...}` comment lines giving the result's shape;
//  - inline code spans `` `<tool> {json}` `` for tool = execute | call | discover | learn:save (a span
//    may wrap onto the next line, which Markdown reads as a space); table rows (`|`) are signatures,
//    not examples, and are left out. `learn:save` is a standard-library tool, reached with `call`.
// In "### Approvals": the one span `{"continue_workflow": {...}}`, its "..." the workflow id the
// approval request gives.
// Every span found must be valid JSON, and the list found must be exactly the expected one: an
// example that disappears or changes shape fails here instead of being skipped.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { tempDir } from "../helpers/pml.ts";
import { memoryFixture, text, type MemoryFixture } from "./helpers.ts";
import { parseDiscover } from "../helpers/discover.ts";

const README = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");

function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no section "${heading}"`);
  const end = README.indexOf(heading.startsWith("### ") ? "\n#" : "\n## ", start + heading.length + 2);
  return README.slice(start, end < 0 ? undefined : end);
}

const MEMORY = section("## Procedural memory: code that worked becomes a tool");
const APPROVALS = section("### Approvals");

function executeBlock(): { args: any; result: any } {
  const m = MEMORY.match(/```jsonc\n\/\/ execute arguments\n([\s\S]*?)\n(\/\/ result:[\s\S]*?)```/);
  if (!m) throw new Error("README.md: the ```jsonc `// execute arguments` block is gone");
  const comment = m[2].replace(/^\/\/( result:)?/gm, "").replace(/\{\.\.\.\}/g, "null");
  return { args: JSON.parse(m[1]), result: JSON.parse(comment) };
}

function inlineExamples(): Array<{ tool: string; args: any }> {
  const prose = MEMORY.split("\n")
    .filter((l) => !l.trimStart().startsWith("|"))
    .join("\n");
  return [...prose.matchAll(/`(execute|call|discover|learn:save)\s+(\{[^`]*\})`/g)].map((m) => {
    const json = m[2].replace(/\n\s*/g, " ");
    try {
      return { tool: m[1], args: JSON.parse(json) };
    } catch (e) {
      throw new Error(`README.md example \`${m[1]} ${json}\` is not valid JSON: ${e}`);
    }
  });
}

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
  writeFileSync(join(fx.ws, "b.json"), JSON.stringify({ which: "b" }));
});
afterAll(() => fx.cleanup());

test("the README's examples are all there, as valid JSON", () => {
  expect(inlineExamples().map((e) => `${e.tool} ${e.args.tool ?? e.args.capability ?? e.args.name ?? Object.keys(e.args)[0]}`)).toEqual([
    "execute fs:read_json",
    "call cap:fs:read_json",
    "call dns:rename",
    "learn:save util:say_hello",
    "discover query",
  ]);
  expect(executeBlock().args.name).toBe("fs:read_json");
});

test("the README's examples run as written, in order, and answer what it says", async () => {
  const { client } = await fx.connect();
  const run = async (name: string, args: any) => {
    const r: any = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${text(r)}`);
    return r;
  };

  const block = executeBlock();
  const saved = (await run("execute", block.args)).structuredContent;
  expect(saved.result).toEqual({ which: "b" });
  expect(saved.tools_used).toEqual(block.result.tools_used);
  expect(saved.capabilityName).toBe(block.result.capabilityName);
  // local.<project>.fs.read_json.<hash4>: the project is the workspace folder's name (lower case),
  // the hash the code's, so the README's FQDN is the real one for a folder named "myproject".
  expect(saved.capabilityFqdn).toBe(block.result.capabilityFqdn.replace("myproject", basename(fx.ws).toLowerCase()));
  expect((await client.listTools()).tools.map((t) => t.name)).toContain("cap__fs__read_json");

  const [byName, byCall, rename, learn, discover] = inlineExamples();
  for (const ex of [byName, byCall]) {
    const r = (await run(ex.tool, ex.args)).structuredContent;
    // `result`, alone: the caller named it.
    expect(r).toEqual({ result: { which: "b" } });
  }
  // "... with `version` when a specifier such as `@v1` picked one" (the Versions bullet's `fs:read_json@v1`).
  expect(MEMORY.replace(/\s+/g, " ")).toContain("with `version` when a specifier such as `@v1` picked one");
  expect(MEMORY).toContain("`fs:read_json@v1` (newest 1.x)");
  for (const ex of [byName, byCall]) {
    const pinned = ex.tool === "execute" ? { ...ex.args, capability: "fs:read_json@v1" } : { ...ex.args, tool: "cap:fs:read_json@v1" };
    const r = (await run(ex.tool, pinned)).structuredContent;
    expect(r).toEqual({ result: { which: "b" }, version: "1.0.0" });
  }

  expect(text(await run(rename.tool, rename.args))).toContain("json:read_file");
  const old = await run("execute", { capability: rename.args.arguments.name, args: { path: "b.json" } });
  expect(JSON.stringify(old.structuredContent)).toContain("deprecation");
  expect(JSON.stringify(old.structuredContent)).toContain(rename.args.arguments.newName);

  const learned = await run("call", { tool: learn.tool, arguments: learn.args });
  expect(text(learned)).toContain("util:say_hello");
  const hello = await run("call", { tool: "cap:util:say_hello", arguments: {} });
  expect(hello.structuredContent.result).toBe("hello");
  // "every workspace of the same `$PML_HOME` reads it"
  const other = tempDir("pml-mem-ws2-");
  try {
    const elsewhere = await fx.connect(undefined, other.path);
    const there: any = await elsewhere.client.callTool({ name: "call", arguments: { tool: "cap:util:say_hello", arguments: {} } });
    expect(there.structuredContent?.result).toBe("hello");
  } finally {
    other.cleanup();
  }

  const found = parseDiscover(text(await run(discover.tool, discover.args)));
  expect(found.results.length).toBeGreaterThan(0);
  expect(found.results.length).toBeLessThanOrEqual(10);
  for (const r of found.results) expect(Object.keys(r)).toEqual(expect.arrayContaining(["tool", "description", "match"]));
  // The README's example line reads back as the fields it names.
  const example = /`(cap__fs__read_json\([^`]*\[strong\])`/.exec(README)?.[1];
  expect(parseDiscover(example!).results[0]).toMatchObject({ id: "fs:read_json", kind: "capability", params: "path: string, field?: string", match: "strong" });
});

test("the Approvals continuation, as written with the id pml gave, continues the paused call", async () => {
  const spans = [...APPROVALS.matchAll(/`(\{"continue_workflow":[^`]*\})`/g)].map((m) => m[1].replace(/\n\s*/g, " "));
  expect(spans).toHaveLength(1);
  const { client } = await fx.connect({ permissions: { ask: ["filesystem:read_file"] } });
  const paused: any = await client.callTool({ name: "call", arguments: { tool: "filesystem:read_file", arguments: { path: "b.json" } } });
  expect(paused.approval_required).toBe(true);
  expect(Object.keys(paused.approval_context)).toEqual(expect.arrayContaining(["type", "tool", "dependency", "workflow_id"]));
  expect(paused.approval_context.tool).toBe("call");
  const continuation = JSON.parse(spans[0].replace('"workflow_id": "..."', `"workflow_id": ${JSON.stringify(paused.approval_context.workflow_id)}`));
  expect(continuation.continue_workflow.workflow_id).toBe(paused.approval_context.workflow_id);
  const done: any = await client.callTool({ name: "call", arguments: continuation });
  if (done.isError) throw new Error(text(done));
  expect(text(done)).toContain('"which":"b"');
});
