// Opposites from WordNet's antonyms ("first" last, "cheap" expensive, "ascend" descend), for
// near-twin capabilities: "the first N lines" and "the last N lines" share every word but one, and
// word vectors put that one close to its opposite (antonyms share their contexts), so neither the
// words' nor the meaning's side of the ranking tells them apart. A request that says the opposite of
// what a capability's name or intent says, without saying that word too, asks for the other twin:
// the capability is opposed (a misfit: kind-fit.ts, discover-rank.ts), never a fit. Compacted at
// build time (scripts/wordnet-opposites.ts: `stem opposite ...` per line, stemmed as the search
// index stems) and embedded; read whole (~70 KB) on the first request that needs it.
import { readFileSync } from "node:fs";
import { log } from "../log.ts";
import { terms } from "./search.ts";
import { ABBREVIATIONS } from "./search-words.ts";
import { firstAfter } from "./sorted.ts";
import oppositesFile from "./generated/wordnet-opposites.txt" with { type: "file" };

let table: Map<string, readonly string[]> | undefined;
/** What a joined word must start with to stem to one of the list's stems (joinedStarts). */
let starts: JoinedStarts | undefined;
/** Every stem the list names as an opposite (of any stem). */
let named: Set<string> | undefined;

function load(path: string = oppositesFile): Map<string, readonly string[]> {
  starts = undefined;
  named = undefined;
  const out = new Map<string, readonly string[]>();
  try {
    for (const line of readFileSync(path, "latin1").split("\n")) {
      if (!line || line.startsWith(" ")) continue; // WordNet's licence heads the list
      const [stem, ...opposites] = line.split(" ");
      out.set(stem!, opposites);
    }
  } catch (e) {
    log.warn(`WordNet opposites not available (${(e as Error).message}); run \`bun build.ts\` to generate them`);
  }
  return out;
}

const NONE: readonly string[] = [];
export const oppositesOf = (stem: string): readonly string[] => (table ??= load()).get(stem) ?? NONE;

/** Whether the list names `stem` as some stem's opposite: only such a stem is ever among a request's
 * opposed stems (opposedStems), so a capability keeps no other (capability-words.ts sides). */
export function namedOpposite(stem: string): boolean {
  if (!named) {
    named = new Set();
    for (const opposites of (table ??= load()).values()) for (const o of opposites) named.add(o);
  }
  return named.has(stem);
}

/** A text's stems as the opposites list holds them: its words' (withBases), and each two words in
 * a row joined, as WordNet writes some ("upper case", "upper-case": uppercase, whose opposite is
 * lowercase). */
export function sideStems(text: string): Set<string> {
  const out = withBases(terms(text));
  const ws = text.toLowerCase().split(/[^a-z]+/);
  const list = (table ??= load());
  const may = (starts ??= joinedStarts(list.keys()));
  for (let i = 0; i + 1 < ws.length; i++) {
    if (!ws[i] || !ws[i + 1]) continue;
    const pair = ws[i]! + ws[i + 1]!;
    // Most pairs cannot stem to a stem of the list: not stemmed (a candidate's first read stemmed
    // each of its pairs, and kept each in the stemmer's cache).
    if (!may(pair) && !ABBREVIATIONS.has(pair)) continue;
    const joined = terms(pair)[0];
    if (joined && list.has(joined)) out.add(joined);
  }
  return out;
}

/** What the stemmer (node_modules/stemmer) may end a stem with that its word did not hold there:
 * step 1b's "e" ("hoping": hope), 1c's "i" ("happy": happi), and what its step 2 writes past the
 * part a suffix and its replacement share ("ational": ate, "bility": ble, which step 5 may leave
 * "bl": "instability", instabl). Every other step cuts. */
const WRITTEN = ["e", "i", "le", "l"];

type JoinedStarts = (word: string) => boolean;
const SHORT_START = 4;

/** Whether a word (lower-case letters) may stem to one of `stems`: it starts with one of them, or
 * with one less an ending the stemmer may have written (WRITTEN). */
export function joinedStarts(stems: Iterable<string>): JoinedStarts {
  const whole = new Set<string>();
  for (const stem of stems) {
    whole.add(stem);
    for (const t of WRITTEN) if (stem.endsWith(t)) whole.add(stem.slice(0, stem.length - t.length));
  }
  if (whole.has("")) return () => true;
  // To stop reading a word at its first letters that begin none of them: their starts up to
  // SHORT_START letters in a set (most words stop there), longer ones by a binary search in them
  // sorted (a set of every start of every one held 1.6 MiB of strings per process).
  const short = new Set<string>();
  for (const w of whole) for (let n = 1; n < w.length && n <= SHORT_START; n++) short.add(w.slice(0, n));
  const sorted = [...whole].sort();
  // (Asked only of a start that is none of them: the first after it is the one it may begin.)
  const begins = (start: string) => (start.length <= SHORT_START ? short.has(start) : (sorted[firstAfter(sorted, start)]?.startsWith(start) ?? false));
  return (word) => {
    for (let n = 1; n <= word.length; n++) {
      const start = word.slice(0, n);
      if (whole.has(start)) return true;
      if (!begins(start)) return false;
    }
    return false;
  };
}

/** A word's stems as the list holds them: the stemmer leaves superlatives as they are ("cheapest",
 * "biggest", "earliest"), WordNet has their base ("cheap", "big", "early": stemmed "earli"). */
export function withBases(stems: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const s of stems) {
    out.add(s);
    // Most stems end otherwise: not read by the pattern (a candidate's first read reads each).
    if (!s.endsWith("est")) continue;
    const base = /^(.{3,}?)(i?)est$/.exec(s);
    if (!base) continue;
    const b = base[1]! + base[2]!;
    out.add(b);
    out.add(`${b}e`);
    if (/(.)\1$/.test(b)) out.add(b.slice(0, -1));
  }
  return out;
}

const NEGATED = /\b(?:not|non|no|never|without|isn't|aren't|don't|doesn't)[\s-]+(?:(?:a|an|the|any)\s+)?([a-z]+)/gi;

/**
 * The stems a capability's words may not hold for `query`: the opposites of the request's words
 * (not their WordNet synonyms': those wandered, a "pasted text" was opposed), less the words the request holds itself ("from the first
 * to the last" opposes neither). Empty when the request says nothing that has an opposite.
 */
export function opposedStems(query: string): ReadonlySet<string> {
  const asked = sideStems(query);
  const out = new Set<string>();
  // A word negated says its opposite already ("letters that are not vowels": consonants).
  const negated = new Set(terms([...query.matchAll(NEGATED)].map((m) => m[1]).join(" ")));
  for (const q of asked) {
    if (negated.has(q)) continue;
    const opposites = oppositesOf(q);
    // A request naming both sides ("positive or negative", "from first to last") is about the scale
    // itself: neither side's opposites oppose.
    if (opposites.some((o) => asked.has(o))) continue;
    for (const o of opposites) out.add(o);
  }
  for (const q of asked) out.delete(q);
  return out;
}

/** "from smallest to largest", "largest-to-smallest": the two ends of an order or a change, as
 * `a>b` of their stems. The same words the other way round are the near twin ("sort from largest to
 * smallest" is not "sort from smallest to largest"), whatever they mean. */
const ORDER = /\b(?:from\s+)?(?:the\s+)?([a-z]+)(?:\s+|-)(?:to|into)(?:\s+|-)(?:the\s+)?([a-z]+)\b/gi;
export function ordersOf(text: string): ReadonlySet<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(ORDER)) {
    const [a, b] = [terms(m[1]!)[0], terms(m[2]!)[0]];
    if (a && b && a !== b) out.add(`${a}>${b}`);
  }
  return out;
}

/** Whether `own` (a capability's orders) holds one of `asked`'s the other way round, and `asked` not
 * that one too. */
export function reversedOrder(asked: ReadonlySet<string>, own: ReadonlySet<string>): boolean {
  for (const o of own) {
    const [a, b] = o.split(">");
    if (asked.has(`${b}>${a}`) && !asked.has(o)) return true;
  }
  return false;
}

/** For tests: the list read from `path`, or the binary's again. */
export function useOppositesFile(path?: string): void {
  table = path === undefined ? undefined : load(path);
}
