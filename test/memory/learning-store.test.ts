// The bounds of learning from use, on a real memory.db: phrasings kept per item are capped, counts
// decay with time, a workspace's associations are its own, and an association never adds an item
// the workspace may not see. (The end-to-end behaviour is in learning.test.ts.)
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { associationText, MAX_COUNT, MAX_PER_ITEM, MAX_TEXT } from "../../src/memory/association-policy.ts";
import { AssociationIndex, fuseLearned } from "../../src/memory/associations.ts";
import { SqliteCapabilityStore } from "../../src/memory/sqlite-store.ts";
import { tempDir } from "../helpers/pml.ts";

const dir = tempDir("pml-learn-store-");
const store = new SqliteCapabilityStore(join(dir.path, "memory.db"));
afterAll(() => {
  store.close();
  dir.cleanup();
});
const index = new AssociationIndex(async () => store);
const DAY = 86_400_000;
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

test("an item keeps its most used phrasings, and a count stops growing", async () => {
  for (let i = 0; i < MAX_PER_ITEM + 5; i++) await store.learn({ owner: "/ws/a", item: "cap:1", query: `phrasing number ${i}`, at: iso((30 - i) * DAY) });
  for (let i = 0; i < MAX_COUNT + 5; i++) await store.learn({ owner: "/ws/a", item: "cap:1", query: "phrasing number 0", at: iso(0) });
  const rows = await store.associations("/ws/a");
  expect(rows).toHaveLength(MAX_PER_ITEM);
  // The oldest ones went, except the one used again since.
  expect(rows.map((r) => r.query)).toContain("phrasing number 0");
  expect(rows.map((r) => r.query)).not.toContain("phrasing number 1");
  expect(Math.max(...rows.map((r) => r.count))).toBeLessThanOrEqual(MAX_COUNT);
});

test("a count halves every 30 days: old use weighs less than recent use", async () => {
  await store.learn({ owner: "/ws/b", item: "tool:x:old", query: "rotate the nightly logs", at: iso(120 * DAY) });
  await store.learn({ owner: "/ws/b", item: "tool:x:new", query: "rotate the nightly logs", at: iso(0) });
  const boosts = await index.boosts("/ws/b", "rotate the nightly logs");
  expect(boosts.get("tool:x:new")!.weight).toBeGreaterThan(3 * boosts.get("tool:x:old")!.weight);
});

test("associations are the owner's: another workspace gets none", async () => {
  await store.learn({ owner: "/ws/c", item: "cap:shared", query: "summarise the release notes", at: iso(0) });
  expect((await index.boosts("/ws/c", "summarise the release notes")).has("cap:shared")).toBe(true);
  expect((await index.boosts("/ws/d", "summarise the release notes")).size).toBe(0);
});

test("a learned item the workspace may not see is never added to its results", () => {
  const learned = new Map([
    ["cap:theirs", { weight: 1, query: "q", uses: 3 }],
    ["cap:mine", { weight: 0.8, query: "q", uses: 1 }],
  ]);
  const fused = fuseLearned([{ key: "tool:a:b", score: 2 }], learned, (k) => k !== "cap:theirs", 10);
  expect(fused.map((h) => h.key)).toEqual(["cap:mine", "tool:a:b"]);
});

test("kept words are one line of plain text, bounded", () => {
  expect(associationText("  Convert\u0000 the\nCSV\u202e file\t ")).toBe("convert the csv file");
  const long = associationText("word ".repeat(100));
  expect(long.length).toBeLessThanOrEqual(MAX_TEXT);
  expect(long.endsWith("word")).toBe(true);
});
