// A label is a promise (issue 46, DESIGN §8b): one learned use does not take over a generic request.
// A new user asks discover "read a file", then saves code that reads a file and upper-cases it; in
// a new session the same request still finds the plain tool first, and the capability that does
// more than asked ("shout", "upper case") is not [strong]. A generic request marks at most 2 results
// strong, before and after the save.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDiscover } from "../helpers/discover.ts";
import { memoryFixture, text, type MemoryFixture } from "./helpers.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
  writeFileSync(join(fx.ws, "notes.txt"), "hello there\n");
});
afterAll(async () => {
  await fx.cleanup();
});

const discover = async (client: any, query: string, limit?: number) =>
  parseDiscover(text(await client.callTool({ name: "discover", arguments: { query, ...(limit ? { limit } : {}) } }))).results as Array<Record<string, any>>;
let freshStrong = Number.NaN;
let afterStrong = Number.NaN;
const strong = (results: Array<Record<string, any>>) => results.filter((r) => r.match === "strong").map((r) => r.id);

test("a learned use does not put a capability that does more than asked above the plain tool, nor make it strong", async () => {
  const first = await fx.connect();
  const fresh = await discover(first.client, "read a file", 10);
  freshStrong = strong(fresh).length;
  const plain = fresh.find((r) => r.kind === "tool" && /(^|:)read_(text_)?file$/.test(r.id));
  expect(plain).toBeDefined();
  const saved: any = await first.client.callTool({
    name: "execute",
    arguments: {
      code: "const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.toUpperCase();",
      args: { path: "notes.txt" },
      name: "transform:shout_file",
      intent: "shout a text file in upper case",
    },
  });
  expect(saved.isError).toBeFalsy();
  expect(text(saved)).toContain("HELLO THERE");

  const second = await fx.connect();
  const after = await discover(second.client, "read a file", 10);
  const ids = after.map((r) => r.id);
  const shout = ids.indexOf("transform:shout_file");
  expect(ids.indexOf(plain!.id)).toBeGreaterThanOrEqual(0);
  if (shout >= 0) {
    expect(ids.indexOf(plain!.id)).toBeLessThan(shout);
    expect(after[shout]!.match).not.toBe("strong");
  }
  afterStrong = strong(after).length;
  // Its own words still find it, and strongly.
  const own = await discover(second.client, "shout a text file in upper case");
  expect(own[0]).toMatchObject({ id: "transform:shout_file", match: "strong" });
});

test("a generic request marks at most 2 results strong, in a fresh workspace and after a save", () => {
  expect(freshStrong).toBeLessThanOrEqual(2);
  expect(afterStrong).toBeLessThanOrEqual(2);
});

test("when no saved capability fits, the answer says so in words and holds 5 results; a strong best result comes with 2 unless `limit` asks", async () => {
  const { client } = await fx.connect();
  const answer = text(await client.callTool({ name: "discover", arguments: { query: "bake a sourdough loaf with a crisp crust" } }));
  expect(answer).toMatch(/^note: no saved capability does this/);
  // Issue 46: each result is context the agent pays for; the agent reads the first 5.
  expect(
    String(answer)
      .split("\n")
      .filter((l: string) => l.includes(" — ")),
  ).toHaveLength(5);
  const own = await discover(client, "shout a text file in upper case");
  expect(own[0]!.match).toBe("strong");
  // Only the best can be ahead of the others: the one after it is the nearest other way.
  expect(own).toHaveLength(2);
  expect((await discover(client, "shout a text file in upper case", 8)).length).toBeGreaterThan(3);
});
