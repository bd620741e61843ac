// A near twin is never a fit (issue 46): a capability whose name or intent says the opposite of a
// word of the request ("first" for "last", "most expensive" for "cheapest": WordNet's antonyms,
// src/memory/opposites.ts), or names the request's order the other way round ("from smallest to
// largest" for "from largest to smallest"), is neither strong nor fair, and steps behind its twin.
// Through the real dist/pml: the agent calls a strong result at once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type MemoryFixture, matchOf, memoryFixture, saved } from "./helpers.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

test("the first N lines are not the last N lines, nor the dearest item the cheapest: neither strong nor fair", async () => {
  const ask = await saved(fx, [
    ["text:peek_head_lines", "show the first N lines of a text file"],
    ["shop:dearest_item", "find the most expensive item in a price list"],
    ["nums:rank_ascending", "sort the numbers of a file from smallest to largest"],
  ]);
  // The capability's own request is still a fit: the opposites do not fire on its own words.
  expect(matchOf(await ask("show the first 3 lines of a text file"), "text:peek_head_lines")).toBe("strong");
  for (const [query, twin] of [
    ["show the last 3 lines of a text file", "text:peek_head_lines"],
    ["find the cheapest item in a price list", "shop:dearest_item"],
    ["sort the numbers of a file from largest to smallest", "nums:rank_ascending"],
  ] as const) {
    const match = matchOf(await ask(query), twin);
    expect(`${query}: ${match ?? "absent"}`).not.toMatch(/: (strong|fair)$/);
  }
});

test("with both twins saved, the one the request asks for comes first, its twin weak", async () => {
  const ask = await saved(fx, [
    ["shop:dearest_item", "find the most expensive item in a price list"],
    ["shop:cheapest_item", "find the cheapest item in a price list"],
  ]);
  for (const [query, id, twin] of [
    ["pick the cheapest item from a price list", "shop:cheapest_item", "shop:dearest_item"],
    ["pick the most expensive item from a price list", "shop:dearest_item", "shop:cheapest_item"],
  ] as const) {
    const results = await ask(query);
    expect(`${query}: ${results[0]?.id}`).toBe(`${query}: ${id}`);
    expect(`${query}: ${matchOf(results, twin) ?? "absent"}`).toMatch(/: (weak|absent)$/);
  }
});
