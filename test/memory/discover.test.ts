// discover {query} through the compiled pml: capabilities and real tools ranked together by what
// the agent asks for in its own words, each with the id to call; records saved by another pml
// process sharing memory.db are found too; discover {namespace} is unchanged.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { tempDir } from "../helpers/pml.ts";
import { memoryFixture, text, type MemoryFixture } from "./helpers.ts";
import { parseDiscover } from "../helpers/discover.ts";

let fx: MemoryFixture;
const elsewhere = tempDir("pml-mem-elsewhere-");
beforeAll(() => {
  fx = memoryFixture();
});
afterAll(async () => {
  await fx.cleanup();
  elsewhere.cleanup();
});

const save = (client: any, name: string, intent: string, code: string) =>
  client.callTool({ name: "execute", arguments: { code, intent, name } }).then((r: any) => {
    if (r.isError) throw new Error(text(r));
    return r;
  });

test("ranks capabilities and tools together; a paraphrase finds the capability", async () => {
  const { client } = await fx.connect();
  await save(client, "fs:backup_file", "copy a file to <name>.bak next to it before editing", "return 'backup ' + (args.path ?? '')");
  await save(client, "transform:csv_to_json", "convert CSV text into an array of JSON objects using the header row", "return 'csv'");
  await save(client, "git:recent_commits", "show the last commits with author and message", "return 'git'");

  const ask = async (query: string) => parseDiscover(text(await client.callTool({ name: "discover", arguments: { query } })));
  const backup = await ask("keep a safety duplicate of a document before I change it");
  expect(backup.results[0]).toMatchObject({ id: "fs:backup_file", kind: "capability", tool: "cap__fs__backup_file" });
  expect(backup.results[0].description).toContain(".bak");

  const csv = await ask("turn comma separated data into json records");
  expect(csv.results[0].id).toBe("transform:csv_to_json");

  // Real tools rank beside them: a knowledge-graph request finds the catalog's memory tools.
  const graph = await ask("remember a fact about a person in the knowledge graph");
  expect(graph.results.slice(0, 3).every((r: any) => r.id.startsWith("memory:") && r.kind === "tool")).toBe(true);

  const limited = parseDiscover(text(await client.callTool({ name: "discover", arguments: { query: "file", limit: 3 } })));
  expect(limited.results).toHaveLength(3);
  const none = await ask("zzzz qqqq");
  expect(none.results).toEqual([]);
});

test("the binary carries WordNet's synonyms: a request sharing no word with the capability finds it", async () => {
  const { client } = await fx.connect();
  await save(client, "util:wash_car", "clean the automobile with soap", "return 'clean'");
  // "motorcar" is in no record and not in the hand-written thesaurus; WordNet has it as a car.
  const r = parseDiscover(text(await client.callTool({ name: "discover", arguments: { query: "motorcar" } })));
  expect(r.results[0]?.id).toBe("util:wash_car");
});

test("a capability saved by another pml process is found without a restart", async () => {
  const a = await fx.connect();
  const b = await fx.connect();
  await a.client.callTool({ name: "discover", arguments: { query: "anything" } }); // a builds its index now
  await save(b.client, "util:format_bytes", "turn a byte count into a human readable size like 1.2 MB", "return '1.2 MB'");
  const found = parseDiscover(text(await a.client.callTool({ name: "discover", arguments: { query: "show a file size in KB or MB instead of bytes" } })));
  expect(found.results[0].id).toBe("util:format_bytes");
  // And a rename in b is seen by a's ranking (the old name is gone from the results).
  await b.client.callTool({ name: "call", arguments: { tool: "dns:rename", arguments: { name: "util:format_bytes", newName: "util:human_size" } } });
  const after = parseDiscover(text(await a.client.callTool({ name: "discover", arguments: { query: "human readable byte size" } })));
  expect(after.results[0].id).toBe("util:human_size");
  expect(after.results.map((r: any) => r.id)).not.toContain("util:format_bytes");
});

test("a capability's parameters changed by another pml process are the ones its next answer shows", async () => {
  const a = await fx.connect();
  const b = await fx.connect();
  const code = "return 'tz ' + args.zone";
  const params = (properties: Record<string, unknown>) => ({ properties, required: Object.keys(properties) });
  await save(b.client, "util:local_time", "show the local time in a time zone", code);
  const ask = async () => {
    const r = parseDiscover(text(await a.client.callTool({ name: "discover", arguments: { query: "local time in a time zone", limit: 3 } })));
    return r.results.find((x: any) => x.id === "util:local_time")?.params;
  };
  expect(await ask()).toBe("none"); // a has read its schema now (none said, none inferred)
  const learnSave = (parameters: Record<string, unknown>) =>
    b.client.callTool({ name: "call", arguments: { tool: "learn:save", arguments: { name: "util:local_time", code, intent: "show the local time in a time zone", parameters } } });
  await learnSave(params({ zone: { type: "string" }, format: { type: "string" } }));
  expect(await ask()).toBe("zone: string, format: string");
  await learnSave(params({ zone: { type: "string" } }));
  expect(await ask()).toBe("zone: string");
});

test("capabilities of another project (another workspace) are not offered", async () => {
  const other = await fx.connect({ permissions: {}, memory: { project: "elsewhere" } }, elsewhere.path);
  const r = parseDiscover(text(await other.client.callTool({ name: "discover", arguments: { query: "keep a safety duplicate of a document" } })));
  expect(r.results.map((x: any) => x.id)).not.toContain("fs:backup_file");
});

test("discover {namespace} still gives a namespace's tools with schemas", async () => {
  const { client } = await fx.connect();
  const one = JSON.parse(text(await client.callTool({ name: "discover", arguments: { namespace: "dns" } })));
  expect(one.tools.map((t: any) => t.id)).toEqual(expect.arrayContaining(["dns:rename", "dns:lookup", "dns:history"]));
  const mem = JSON.parse(text(await client.callTool({ name: "discover", arguments: { namespace: "memory" } })));
  expect(mem.tools.find((t: any) => t.id === "memory:read_graph").inputSchema).toBeDefined();
});

test("variants of one capability (a version number after its name) take one place, naming the others", async () => {
  const { client } = await fx.connect();
  await save(client, "util:slugify_title", "make a URL slug from a blog post title", "return 'slug-1'");
  await save(client, "util:slugify_title_v2", "make a URL slug from a blog post title, keeping unicode letters", "return 'slug-2'");
  await save(client, "util:slugify_title_3", "make a URL slug from a blog post title, at most 60 characters", "return 'slug-3'");
  await save(client, "util:slugify_path", "make a URL slug from a file path", "return 'slug-path'");
  const r = parseDiscover(text(await client.callTool({ name: "discover", arguments: { query: "url slug for a blog post title", limit: 5 } })));
  const ids = r.results.map((x: any) => x.id);
  const titles = ids.filter((id: string) => id.startsWith("util:slugify_title"));
  expect(titles).toHaveLength(1);
  const lead = r.results.find((x: any) => x.id === titles[0]);
  expect([...lead.variants, lead.id].sort()).toEqual(["util:slugify_title", "util:slugify_title_3", "util:slugify_title_v2"]);
  // A distinct capability with a similar name keeps its own place.
  expect(ids).toContain("util:slugify_path");
});

test("words that name a JavaScript object's own properties (constructor, __proto__, toString) are plain words", async () => {
  const { client } = await fx.connect();
  await save(client, "code:find_constructors", "list every class constructor and its __proto__ chain, with toString of each", "return 'ctors'");
  const ask = async (query: string) => parseDiscover(text(await client.callTool({ name: "discover", arguments: { query } })));
  const found = await ask("where is the constructor of each class");
  expect(found.results[0]?.id).toBe("code:find_constructors");
  // discover keeps serving.
  expect((await ask("hasOwnProperty valueOf constructor")).results.length).toBeGreaterThan(0);
});
