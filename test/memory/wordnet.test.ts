// WordNet's synonyms in discover's ranking: a record that shares no word with the request is
// found through them, the hand-written thesaurus is not needed for it, and words WordNet does not
// know change nothing.
import { expect, test } from "bun:test";
import { SearchIndex, terms } from "../../src/memory/search.ts";
import { useWordnetFile, wordnetSynonyms } from "../../src/memory/wordnet.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/pml.ts";

const DOCS = [
  { key: "gift", name: "util wrap_gift", intent: "wrap a present in coloured paper" },
  { key: "shop", name: "util buy_groceries", intent: "buy vegetables at the market" },
  { key: "car", name: "util wash_car", intent: "clean the automobile with soap" },
];

function index(wordnet: boolean): SearchIndex {
  const ix = new SearchIndex({ wordnet, diversity: false });
  for (const d of DOCS) ix.add(d);
  return ix;
}

test("the compacted list maps a stem to the stems of its first sense's synonyms", () => {
  // "automobile" is in the first sense of "car" (car, auto, automobile, machine, motorcar).
  expect(wordnetSynonyms(terms("car")[0]!)).toContain(terms("automobile")[0]!);
  expect(wordnetSynonyms("qzxv")).toEqual([]);
});

test("a record sharing no word with the request is found through a WordNet synonym", () => {
  // "motorcar" appears in no record, and the thesaurus does not know it: only WordNet links it to car.
  expect(terms("motorcar").some((t) => DOCS.some((d) => terms(`${d.name} ${d.intent}`).includes(t)))).toBe(false);
  expect(
    index(true)
      .search("motorcar", 3)
      .map((h) => h.key),
  ).toEqual(["car"]);
  expect(index(false).search("motorcar", 3)).toEqual([]);
});

test("a synonym counts less than the word itself", () => {
  const ix = index(true);
  ix.add({ key: "motorcar", name: "util polish_motorcar", intent: "polish the motorcar" });
  const hits = ix.search("motorcar", 3);
  expect(hits.map((h) => h.key)).toEqual(["motorcar", "car"]);
  expect(hits[1]!.score).toBeLessThan(hits[0]!.score);
});

test("a request made only of words nobody knows finds nothing and does not throw", () => {
  const ix = index(true);
  expect(ix.search("qzxv blorptastic zzzzzz", 5)).toEqual([]);
  expect(ix.search("", 5)).toEqual([]);
  expect(ix.search("日本語 ✓ \u0000", 5)).toEqual([]);
});

test("a lookup reads the same synonyms as the whole list parsed, for every stem and for words between them", () => {
  const path = new URL("../../src/memory/generated/wordnet-synonyms.txt", import.meta.url).pathname;
  const whole = new Map<string, string[]>();
  for (const line of readFileSync(path, "latin1").split("\n")) {
    const [stem, ...syns] = line.split(" ");
    if (stem) whole.set(stem, syns);
  }
  expect(whole.size).toBeGreaterThan(20_000);
  const cache = tempDir("pml-wordnet-cache-");
  try {
    useWordnetFile(path, cache.path);
    for (const [stem, syns] of whole) expect(wordnetSynonyms(stem)).toEqual(syns);
    // Words that sort between, before and after the stems listed have none.
    for (const w of ["", "a", "aaaaa", "zzzzzzz", "carx", "motorcarz", "~"]) if (!whole.has(w)) expect(wordnetSynonyms(w)).toEqual([]);
  } finally {
    useWordnetFile();
    cache.cleanup();
  }
});

test("a missing list leaves discover without WordNet synonyms (a warning says why), and nothing throws", () => {
  const cache = tempDir("pml-wordnet-cache-");
  try {
    useWordnetFile(join(cache.path, "absent.txt"), cache.path);
    expect(wordnetSynonyms(terms("car")[0]!)).toEqual([]);
  } finally {
    useWordnetFile();
    cache.cleanup();
  }
});
