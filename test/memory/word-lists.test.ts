// The known words kept per record for discover's alignment (word-lists.ts): whatever the order of
// sets, replacements and deletions, and through the compactions they cause, each key reads back the
// list last set for it, and a view handed out before a compaction keeps its values.
import { expect, test } from "bun:test";
import { WordLists } from "../../src/memory/word-lists.ts";

test("each key reads the list last set for it, through replacements, deletions and compactions", () => {
  const lists = new WordLists();
  const want = new Map<string, number[]>();
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const early = new Int32Array([5, 6, 7]);
  lists.set("held", early);
  const view = lists.get("held")!;
  for (let i = 0; i < 20_000; i++) {
    const key = `cap:${rnd(3_000)}`;
    if (rnd(5) === 0) {
      lists.delete(key);
      want.delete(key);
    } else {
      const ranks = Array.from({ length: rnd(40) }, () => rnd(60_000));
      lists.set(key, Int32Array.from(ranks));
      want.set(key, ranks);
    }
  }
  expect(lists.size).toBe(want.size + 1);
  for (const [key, ranks] of want) expect([...lists.get(key)!]).toEqual(ranks);
  expect(lists.get("cap:none")).toBeUndefined();
  expect([...view]).toEqual([5, 6, 7]);
  expect([...lists.get("held")!]).toEqual([5, 6, 7]);
  // An empty list is kept as one (a text with no known word), not read as missing.
  lists.set("empty", new Int32Array(0));
  expect(lists.get("empty")?.length).toBe(0);
});
