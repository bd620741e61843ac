// The search index's own bookkeeping, which discover's tests only see through rankings: records
// replaced and removed many times over leave an index that ranks exactly as one built fresh from
// what is left, and the per-record word lists (slot-lists.ts) survive their packing.
import { expect, test } from "bun:test";
import { type SearchDoc, SearchIndex, stemsCached, terms } from "../../src/memory/search.ts";
import { placeWords, words } from "../../src/memory/search-words.ts";
import { SlotLists } from "../../src/memory/slot-lists.ts";

/** A deterministic pseudo-random sequence (tests must not depend on Math.random's seed). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x80000000;
  };
}

test("lists set, replaced and cleared thousands of times read back as a plain map of them does", () => {
  const lists = new SlotLists();
  const want = new Map<number, number[]>();
  const next = random(7);
  for (let op = 0; op < 20_000; op++) {
    const slot = Math.floor(next() * 300);
    if (next() < 0.2) {
      lists.clear(slot);
      want.delete(slot);
    } else {
      const values = Array.from({ length: Math.floor(next() * 12) }, () => Math.floor(next() * 1e6));
      lists.set(slot, values);
      want.set(slot, values);
    }
  }
  for (let slot = 0; slot < 400; slot++) expect([...lists.get(slot)]).toEqual(want.get(slot) ?? []);
});

const WORDS = "read write json csv yaml file folder convert parse send slack email count lines words deploy docker image resize png".split(" ");

function doc(key: string, next: () => number): SearchDoc {
  const pick = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(" ");
  // A word of its own too: words only one record holds come and go with it.
  return { key, name: `util ${pick(2).replace(" ", "_")}`, intent: `${pick(5)} ${key}only`, description: pick(3), params: [pick(1)] };
}

test("after records are replaced and removed at random, the index ranks as one built from what is left", () => {
  const index = new SearchIndex();
  const left = new Map<string, SearchDoc>();
  const next = random(11);
  for (let op = 0; op < 3_000; op++) {
    const key = `k${Math.floor(next() * 400)}`;
    if (next() < 0.3) {
      index.remove(key);
      left.delete(key);
    } else {
      const d = doc(key, next);
      index.add(d);
      left.set(key, d);
    }
  }
  const fresh = new SearchIndex();
  for (const d of left.values()) fresh.add(d);
  expect(index.size).toBe(left.size);
  for (const query of ["read a json file", "send slack email", "count words in lines", "resize png image", "deploy docker", `k7only`, "nothing matches zzz"]) {
    const a = index.search(query, 20);
    const b = fresh.search(query, 20);
    expect(a.map((h) => h.key)).toEqual(b.map((h) => h.key));
    a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i]!.score, 9));
  }
  // A word that only removed records held is gone from the index: it finds nothing, not a stale slot.
  const gone = [...Array(400).keys()].map((i) => `k${i}`).find((k) => !left.has(k))!;
  expect(index.search(`${gone}only`, 5)).toEqual([]);
});

test("equal scores rank by key however records came and went between searches (key-ranks.ts)", () => {
  // Records saying the same thing score the same: the ones answered are the first by key, kept up
  // to date a few changes at a time (each search after one) and after many at once.
  const index = new SearchIndex({ diversity: false });
  const live = new Set<string>();
  const next = random(5);
  const same = (key: string): SearchDoc => ({ key, name: "util read_json", intent: "read a json file" });
  const check = () => {
    const want = [...live].sort().slice(0, 20);
    expect(index.search("read json", 20).map((h) => h.key)).toEqual(want);
  };
  for (let i = 0; i < 300; i++) {
    const key = `k${Math.floor(next() * 1e6)}`;
    index.add(same(key));
    live.add(key);
  }
  check();
  for (let op = 0; op < 400; op++) {
    const keys = [...live];
    if (next() < 0.5 && keys.length) {
      const key = next() < 0.5 ? keys.sort()[Math.floor(next() * 25)]! : keys[Math.floor(next() * keys.length)]!;
      index.remove(key);
      live.delete(key);
    } else {
      // A key sorting first, or anywhere; slots freed by removals are reused.
      const key = next() < 0.3 ? `a${Math.floor(next() * 1e6)}` : `k${Math.floor(next() * 1e6)}`;
      index.add(same(key));
      live.add(key);
    }
    if (op % 3 === 0) check();
  }
  for (const key of [...live].slice(0, 200)) {
    index.remove(key);
    live.delete(key);
  }
  check();
});

test("words fold accents and split camelCase whether or not the text is plain ASCII", () => {
  // ASCII text skips the Unicode folding (search-words.ts): both paths read a word the same way.
  expect(words("readJSONFile and parseTsv")).toEqual(["read", "jsonfile", "parse", "tsv"]);
  expect(words("Résumé café readJSONFile")).toEqual(["resume", "cafe", "read", "jsonfile"]);
  expect(words("naïve Ünïcode")).toEqual(["naive", "unicode"]);
});

test("the stems kept for words seen stay bounded however many words requests bring, and stem the same", () => {
  const before = terms("running counted files");
  // A long-lived `pml serve`: every request adds its own words (here 120k distinct ones, some very long).
  for (let i = 0; i < 120_000; i++) terms(`word${i.toString(36)}ing ${"x".repeat(50 + (i % 7))}${i}`);
  expect(stemsCached()).toBeLessThanOrEqual(50_000);
  expect(terms("running counted files")).toEqual(before);
  expect(before).toEqual(["run", "count", "file"]);
});

test("a hyphenated word made only of stop words or letters is read whole: to-do finds TODO, check-in stays check", () => {
  expect(terms("how many open to-do markers")).toContain(terms("todo")[0]!);
  expect(terms("a how-to for releases")).toContain("howto");
  // A part that says something is enough: nothing is added.
  expect(terms("the check-in desk")).toEqual(terms("the check desk"));
  expect(terms("-40 --force")).toEqual(terms("40 force"));
  // A request of 50,000 joined letters is one long word, read once.
  expect(terms("a-".repeat(50_000))).toEqual(terms("a".repeat(50_000)));
  const ix = new SearchIndex({ diversity: false });
  ix.add({ key: "todos", name: "fs count_todos", intent: "count TODO comments in the files under a folder" });
  ix.add({ key: "lines", name: "fs count_lines", intent: "count the lines of a file" });
  expect(ix.search("how many open to-do markers are left in src/billing", 2)[0]?.key).toBe("todos");
});

test("the words that only say where a request's data lies are read as such, and nothing else is", () => {
  const place = (q: string) => [...placeWords(q)].sort();
  expect(place("find every link in this email")).toEqual(["email"]);
  expect(place("collect the hyperlinks from a chat log, newest first")).toEqual(["chat", "log"]);
  // The phrase ends at another preposition, at punctuation, or after three words.
  expect(place("update my checkout from the remote without losing local work")).toEqual(["remote"]);
  expect(place("strip tags in the page. then count words")).toEqual(["page"]);
  expect(place("in the big old text file count lines")).toEqual(["big", "old", "text"]);
  // No determiner, no place: "in A-Z order" is an order, "from scratch" a manner.
  expect(place("give me the entry names of locales/en.json in A-Z order")).toEqual([]);
  expect(place("build it from scratch")).toEqual([]);
  // A format decides what can read the data; a word also said elsewhere is part of the task.
  expect(place("load settings from a json config")).toEqual(["config"]);
  expect(place("count the lines of a log in this log")).toEqual([]);
  // Nothing after the determiner, or only prepositions and determiners over and over: no place, no error.
  expect(place("count the lines in this")).toEqual([]);
  expect(place("in the ".repeat(5000))).toEqual([]);
  expect(place("in")).toEqual([]);
});

test("a record about where the data lies ranks below the one about what is asked for", () => {
  // "link" is common here (as when many records take a url), "email" rare: by words alone, the
  // email validator outranked the record that pulls links out of a text.
  const ix = new SearchIndex({ diversity: false });
  ix.add({ key: "links", name: "transform extract_urls", intent: "pull all links out of a text" });
  ix.add({ key: "email", name: "util validate_email", intent: "say whether an email is well formed" });
  for (const [i, what] of ["shorten a link", "check a link is alive", "open a link in the browser", "follow a link", "share a link"].entries())
    ix.add({ key: `other${i}`, name: `util link_${i}`, intent: what });
  expect(ix.search("find every link in this email", 2).map((h) => h.key)[0]).toBe("links");
  // Said as the task, the same word leads.
  expect(ix.search("validate this email", 2).map((h) => h.key)[0]).toBe("email");
});
