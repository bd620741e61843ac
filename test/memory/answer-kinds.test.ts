// What a capability returns, against the compiled pml (issue 24, wrong reuses): the kind of value
// each successful run returned is kept with the record (a new kind widens it, new code starts over)
// and dns:lookup shows it; a request asking for an amount ("how many…") gets a capability that has
// only ever returned text after every other result and marked weak, past use included, unless the
// capability's own words say it gives an amount. A question gets a capability that changes files
// (its tools' annotations say so) after the others too: asked for an answer, it would rewrite them.
// A request about a file gets a capability that calls no tool after the others: it cannot read the file;
// a change to be made in a file, one whose every tool only reads: it cannot make it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { atMostHalf } from "../../src/memory/kind-fit.ts";
import { memoryFixture, text, type MemoryFixture } from "./helpers.ts";
import { parseDiscover } from "../helpers/discover.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
  writeFileSync(join(fx.ws, "notes.txt"), "buy milk\n\ncall mum\nfix the bike\n");
});
afterAll(() => fx.cleanup());

/** The filesystem servers' tools about folders only. */
const FOLDER_TOOL = /^(server_)?filesystem:(list_directory\w*|directory_tree|create_directory)$/;
const call = async (client: any, tool: string, args: Record<string, unknown>) => (await client.callTool({ name: "call", arguments: { tool, arguments: args } })) as any;
const returnsOf = async (client: any, name: string) => (await call(client, "dns:lookup", { name })).structuredContent.returns;
// Ten results, as a weak best one gets by default (a strong one gets 3): the order among them is what is read.
const ask = async (client: any, query: string) => parseDiscover(text(await client.callTool({ name: "discover", arguments: { query, limit: 10 } }))).results;

async function save(client: any, name: string, intent: string, code: string, args: Record<string, unknown>) {
  const r: any = await client.callTool({ name: "execute", arguments: { code, args, intent, name } });
  if (r.isError) throw new Error(text(r));
  return r;
}

test("each run's kind of value is kept: a new kind widens it, a failed call adds none, new code starts over", async () => {
  const { client } = await fx.connect();
  await save(client, "util:half_or_word", "half of an even number, else the word odd", "return args.n % 2 ? 'odd' : args.n / 2;", { n: 3 });
  expect(await returnsOf(client, "util:half_or_word")).toEqual(["string"]);

  const half: any = await client.callTool({ name: "cap__util__half_or_word", arguments: { n: 8 } });
  expect(half.structuredContent.result).toBe(4);
  expect(await returnsOf(client, "util:half_or_word")).toEqual(["string", "number"]);
  await client.callTool({ name: "cap__util__half_or_word", arguments: { n: 5 } });
  expect(await returnsOf(client, "util:half_or_word")).toEqual(["string", "number"]);

  // Refused arguments run nothing, so they teach nothing.
  const refused: any = await client.callTool({ name: "cap__util__half_or_word", arguments: { n: 1, extra: true } });
  expect(refused.isError).toBe(true);
  expect(await returnsOf(client, "util:half_or_word")).toEqual(["string", "number"]);

  // A new version: what the old code returned says nothing of the new one.
  const updated: any = await client.callTool({ name: "execute", arguments: { code: "return [args.n];", args: { n: 2 }, name: "util:half_or_word", update: true } });
  expect(updated.isError).toBeFalsy();
  expect(await returnsOf(client, "util:half_or_word")).toEqual(["array"]);
});

test("a returns column edited by hand to anything but kinds is read as the kinds in it; discover still answers", async () => {
  const { client } = await fx.connect();
  await save(client, "util:shout_word", "say a word louder", "return String(args.word).toUpperCase();", { word: "hi" });
  const db = new Database(join(fx.home, "memory.db"));
  db.run("UPDATE capabilities SET returns = ?1 WHERE action = 'shout_word'", ["number;DROP TABLE capabilities,string,,<script>"]);
  db.close();
  expect(await returnsOf(client, "util:shout_word")).toEqual(["string"]);
  const results = await ask(client, "how many letters does the shouted word have?");
  expect(results.length).toBeGreaterThan(0);
  // A call adds its kind to what is there, the rest left as it was read.
  await client.callTool({ name: "cap__util__shout_word", arguments: { word: "yo" } });
  expect(await returnsOf(client, "util:shout_word")).toEqual(["string"]);
});

test("a request for an amount puts a capability that only ever returned text last, marked weak, even one past use lifts", async () => {
  const { client } = await fx.connect();
  const lastLine = "const ls = (await mcp.filesystem.read_file({ path: args.path })).split('\\n').filter((l) => l.trim()); return ls[ls.length - 1];";
  await save(client, "fs:last_line", "get the last non-empty line of a file", lastLine, { path: "notes.txt" });
  await save(client, "fs:size_in_bytes", "the size of a file in bytes", "return (await mcp.filesystem.read_file({ path: args.path })).length;", { path: "notes.txt" });
  // A count that answers in words: its own words say it counts, so what it returned does not overrule them.
  await save(client, "text:word_count", "count the words of a text", "return `${args.text.trim().split(/\\s+/).length} words`;", { text: "a b" });

  // Past use: this request led to a successful call of fs:last_line.
  const found = await ask(client, "which is the final non-empty line of notes.txt");
  expect(found[0]).toMatchObject({ id: "fs:last_line" });
  expect((await client.callTool({ name: "cap__fs__last_line", arguments: { path: "notes.txt" } })).isError).toBeFalsy();

  for (const query of ["count the non-empty lines of notes.txt", "how many non-empty lines does notes.txt have?"]) {
    const results = await ask(client, query);
    const at = results.findIndex((r: { id: string }) => r.id === "fs:last_line");
    expect(at).toBeGreaterThan(0); // still found: it is callable and may be what the user means
    expect(results[at]!.match).toBe("weak");
    // After it only what steps back as it does: tools that write (a question changes nothing), tools
    // about folders only (notes.txt is a file), and a counter of words that calls no tool (it cannot read notes.txt).
    for (const r of results.slice(at + 1))
      expect(r.id === "text:word_count" || FOLDER_TOOL.test(r.id) || /^(server_)?filesystem:(write_file|edit_file|move_file)$/.test(r.id)).toBe(true);
  }
  // Not asking for an amount, the same capability comes first.
  expect((await ask(client, "the last non-empty line of notes.txt"))[0]).toMatchObject({ id: "fs:last_line" });
  expect((await ask(client, "how many words are in 'to be or not to be'"))[0]).toMatchObject({ id: "text:word_count" });
});

test("a request about a file puts a capability that calls no tool after the others, marked weak, unless it is about files or that file's format", async () => {
  const { client } = await fx.connect();
  writeFileSync(join(fx.ws, "people.csv"), "name\nAda\n");
  await save(client, "fs:count_file_words", "count the words of a file", "return (await mcp.filesystem.read_file({ path: args.path })).split(/\\s+/).filter(Boolean).length;", {
    path: "notes.txt",
  });
  await save(client, "transform:csv_to_json", "convert csv text to json records", "const [h, ...rows] = args.csv.trim().split('\\n'); return rows.map((r) => ({ [h]: r }));", {
    csv: "a\n1",
  });
  await save(client, "util:file_extension", "the extension of a file name", "return args.name.split('.').pop();", { name: "a.txt" });

  const ids = (results: Array<{ id: string }>) => results.map((r) => r.id);
  const aboutFile = await ask(client, "count the words in drafts/intro.md");
  expect(aboutFile[0]).toMatchObject({ id: "fs:count_file_words" });
  const counter = aboutFile.findIndex((r: { id: string }) => r.id === "text:word_count");
  expect(counter).toBeGreaterThan(0);
  expect(aboutFile[counter]!.match).toBe("weak");
  // Words in the request itself: the counter that calls no tool is the one.
  expect((await ask(client, "count the words in 'to be or not to be'"))[0]).toMatchObject({ id: "text:word_count" });
  // About the file's format (the agent hands it the file's text), or about file names: not stepped back.
  const convert = await ask(client, "turn people.csv into json records");
  expect(convert[0]).toMatchObject({ id: "transform:csv_to_json" });
  expect(ids(await ask(client, "what is the extension of report.final.pdf"))[0]).toBe("util:file_extension");
  // Not paths (kind-fit.test.ts has more): a unit, a choice, a fraction.
  expect(ids(await ask(client, "count the words in 60 km/h and/or 27/63"))[0]).toBe("text:word_count");
});

test("a question puts a capability that writes files last, marked weak; a request for the change finds it first", async () => {
  // A workspace of its own: the capabilities saved above would be misfits here too.
  const own = memoryFixture();
  try {
    await questionsAndChanges(own);
  } finally {
    await own.cleanup();
  }
});

async function questionsAndChanges(own: MemoryFixture) {
  writeFileSync(join(own.ws, "tags.txt"), "a\nb\na\n");
  writeFileSync(join(own.ws, "notes.txt"), "x\n");
  const { client } = await own.connect();
  const dedupe =
    "const ls = (await mcp.filesystem.read_file({ path: args.path })).split('\\n').filter((l) => l);\n" +
    "const kept = [...new Set(ls)];\nawait mcp.filesystem.write_file({ path: args.path, content: kept.join('\\n') + '\\n' });\nreturn ls.length - kept.length;";
  await save(client, "fs:dedupe_lines", "remove duplicate lines from a file and say how many lines were removed", dedupe, { path: "tags.txt" });
  await save(client, "fs:line_total", "the number of lines of a file", "return (await mcp.filesystem.read_file({ path: args.path })).split('\\n').length;", { path: "tags.txt" });

  // The built-in filesystem's write_file, edit_file and move_file say destructiveHint: they step back too.
  const changes = (r: { id: string }) => r.id === "fs:dedupe_lines" || /^(server_)?filesystem:(write_file|edit_file|move_file)$/.test(r.id);
  // For a file and no folder, a tool about folders only steps back as well (among them, in rank
  // order); for a folder and no file, one about a single file.
  const oneFile = (r: { id: string }) => r.id === "fs:line_total" || /^(server_)?filesystem:\w*_file$/.test(r.id);
  const stepsBack = (r: { id: string }, query: string) => changes(r) || (query.includes("tools/") ? oneFile(r) : FOLDER_TOOL.test(r.id));
  for (const query of ["how many lines does notes.txt have?", "what are the distinct lines of notes.txt", "which python scripts live somewhere in tools/?"]) {
    const results = await ask(client, query);
    // Last, or (folders) past the ten results.
    const first = results.findIndex(changes);
    const last = first < 0 ? [] : results.slice(first);
    expect(last.every((r: { id: string }) => stepsBack(r, query))).toBe(true);
    for (const r of last) expect(r.match).toBe("weak");
    if (!query.includes("python")) expect(results.map((r: { id: string }) => r.id)).toContain("fs:dedupe_lines");
  }
  for (const query of ["remove the duplicate lines from notes.txt", "can you drop the repeated lines of notes.txt and tell me how many lines went?"])
    expect((await ask(client, query))[0]).toMatchObject({ id: "fs:dedupe_lines" });
}

test("contradicted results fill at most half the results when others are found, the best of them, the order kept", () => {
  const hits = (keys: string) => keys.split(" ").map((key) => ({ key }));
  const misfit = (key: string) => key.startsWith("x");
  const keys = (hs: Array<{ key: string }>) => hs.map((h) => h.key).join(" ");
  // Ten asked: the first ten held seven misfits; three more others were found further down.
  expect(keys(atMostHalf(hits("x1 a x2 x3 x4 b x5 x6 c x7 d e f x8"), 10, misfit))).toBe("x1 a x2 x3 x4 b x5 c d e");
  // Not enough others: misfits fill the rest; few misfits: nothing changes.
  expect(keys(atMostHalf(hits("x1 a x2 x3 x4 x5 x6 x7"), 5, misfit))).toBe("x1 a x2 x3 x4");
  expect(keys(atMostHalf(hits("a x1 b c"), 3, misfit))).toBe("a x1 b");
});
