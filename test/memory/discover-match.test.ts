// discover's results say how well they match (issue 24: strong / fair / weak, from absolute
// evidence, not rank), and demo servers' tools (the MCP reference test server `everything`) do not
// crowd task requests unless the request names the server.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { memoryFixture, text, type MemoryFixture } from "./helpers.ts";
import { parseDiscover } from "../helpers/discover.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

const CAPS: Array<[string, string]> = [
  ["util:word_count", "count words and characters in a text"],
  ["util:convert_length_units", "convert a distance between metric and imperial units"],
  ["transform:wrap_text", "wrap text at a given column width"],
  ["fs:read_json", "read a JSON file and parse it"],
];

interface Result {
  id: string;
  match: "strong" | "fair" | "weak";
}

const ask = async (client: any, query: string): Promise<Result[]> => parseDiscover(text(await client.callTool({ name: "discover", arguments: { query } }))).results;

async function connected() {
  const { client } = await fx.connect();
  for (const [name, intent] of CAPS) {
    const r: any = await client.callTool({ name: "execute", arguments: { code: `return ${JSON.stringify({ capability: name })};`, intent, name } });
    if (r.isError) throw new Error(text(r));
  }
  return client;
}

test("a task request does not put a demo server's tool first; a request naming the server finds them", async () => {
  const client = await connected();
  for (const query of ["my abstract has a 250 limit: how long is it so far?", "add two numbers", "print a message back to me", "run a long operation and report progress"]) {
    const results = await ask(client, query);
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]!.id).not.toStartWith("everything:");
  }
  const named = await ask(client, "everything server echo");
  expect(named[0]!.id).toBe("everything:echo");
});

test("each result says how well it matches: an exact request is strong, an unrelated one's best result weak", async () => {
  const client = await connected();
  const exact = await ask(client, "count words and characters in a text");
  expect(exact[0]).toMatchObject({ id: "util:word_count", match: "strong" });
  for (const r of exact) expect(["strong", "fair", "weak"]).toContain(r.match);
  const unrelated = await ask(client, "bake a sourdough loaf with a crisp crust");
  expect(unrelated.length).toBeGreaterThan(0);
  expect(unrelated[0]!.match).toBe("weak");
  // Rank is not match: among results of one request, the best of the unrelated ones stays weak.
  expect(exact.filter((r) => r.match === "strong").map((r) => r.id)).not.toContain("fs:read_json");
});
