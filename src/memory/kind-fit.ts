// Whether a capability takes the kind of data a request holds. Near-twins share almost every word
// and most of their meaning ("count the data rows of a CSV file" and "count the non-empty lines in
// a text file"; "celsius to fahrenheit" and "fahrenheit to celsius"), so neither side of the
// ranking tells them apart; the request's own data does: "guests.txt" is not a CSV file, and "68
// degrees F" is the temperature a conversion starts from, not the one it ends at. A capability that
// contradicts the request's data steps back (hybrid.ts FUSION.misfitFactor); one that merely does
// not say is left alone. So does one whose answers are of another kind than the request asks for:
// "how many lines…" wants a number, and a capability that has only ever returned a line of text
// (`last_line`) cannot be the one, however near its words; nor can one that has only ever returned
// numbers change the words a request quotes. And a question ("how many rows does
// guests.txt have?") is not answered by a tool that changes files, or a capability calling one
// (`dedupe_lines` also counts): asked for an answer, the agent would rewrite the user's file.
// Where the data is tells too (named-paths.ts): a capability that calls no tool cannot read
// drafts/intro.md (code reaches files only through tools); one about a folder's entries does not
// take guests.txt, nor one about a file photos/2024/; one that reads files does not take the words
// the request quotes. What is counted tells too: a line counter does not count words, a sum is no
// average, a minimum no range; which
// end: the first match is not the last; and what is done, when the request says it first:
// `count_vowels` does not reverse words, nor `sort_lines` list columns.
import { actionWords, CapabilityWords } from "./capability-words.ts";
import { namedPaths } from "./named-paths.ts";
import { opposedStems, ordersOf, reversedOrder } from "./opposites.ts";
import type { AnswerKind } from "./store.ts";
import { QUOTED_WORDS, taskWords } from "./value-kinds.ts";
import {
  AGGREGATES,
  ASKS,
  ASKS_AMOUNT,
  ASKS_VALUE,
  BEFORE_VERB,
  CHANGE,
  EXTENSION_KIND,
  FILE_ELSEWHERE,
  FILE_WORDS,
  FOLDER_WORDS,
  FORMATS,
  INLINE_DATA,
  KIND_OF,
  LOOKUPS,
  MEASURE,
  MEASURE_UNITS,
  OPERATIONS,
  PLACES,
  POSITIONS,
  TEXT_UNITS,
  WANTED,
  kindsOf,
  namedIn,
  unitKind,
} from "./kind-words.ts";

/** What a request's data is (`from`: its values' and files' kinds), the kind it asks for (`to`), the
 * kind of answer it wants when its words say (`answer`), and whether it only asks (`asksOnly`). */
export interface RequestKinds {
  from: Set<string>;
  files: Set<string>;
  to: Set<string>;
  answer?: AnswerKind;
  asksOnly?: true;
  /** It names a file or folder of the workspace (named-paths.ts), or a folder by a word ("the folder inbox"). */
  namesFile?: true;
  /** It names files, and no folder. */
  onlyFiles?: true;
  /** It names a folder (by path or by word), and no file: not as "each file", in a URL or going into the folder. */
  onlyFolders?: true;
  /** It carries its data (quoted words, "in: …") and names no file, folder or other place to read. */
  inlineOnly?: true;
  /** The units of text (TEXT_UNITS) and the aggregates (AGGREGATES) it names, outside its data. */
  textUnits: Set<string>;
  aggregates: Set<string>;
  /** The ends (POSITIONS: the first or the last) it names. */
  positions: Set<string>;
  /** When it starts with an operation or a lookup ("reverse the words…", "list the columns…"): the
   * operations (OPERATIONS) its words ask for, and a count when it asks an amount that is no aggregate. */
  operations?: Set<string>;
}

/** The kinds an amount can come in: a number, or an object holding several. */
const HOLDS_AMOUNT: ReadonlySet<AnswerKind> = new Set(["number", "object"]);
/** Answers that hold no text: a capability giving only these does not change words. */
const COUNTS_ONLY: ReadonlySet<AnswerKind> = new Set(["number", "boolean"]);

/** Kinds are looked for this far into a request (as value-kinds.ts reads it). */
const READ_CHARS = 600;

/** Words naming what a request is about or looks for ("entries that talk about fix", "lines
 * mentioning delete"): the next word is the subject, not something to do. */
const SUBJECT = /\b(about|mentions?|mentioning|contains?|containing|says?|saying|called|named|titled|tagged)\s+\S+/gi;

/** A request's words without its data (quoted text, file paths, `taskWords`) and the subjects it
 * names: a change word there ("'please find the signed copy'", "src/remove-old.ts") asks for nothing. */
const actionWordsOf = (query: string) => taskWords(query, false).replace(SUBJECT, "$1");

/** Where a request's data is: in files or folders it names, or in the request itself. */
function whereDataIs(query: string): Pick<RequestKinds, "namesFile" | "onlyFiles" | "onlyFolders" | "inlineOnly"> {
  const { files, folders } = namedPaths(query);
  const folder = folders > 0 || FOLDER_WORDS.test(query);
  // "each file", "the files": files named without a path.
  const someFiles = files > 0 || FILE_WORDS.test(query);
  const inline = !someFiles && !folder && (QUOTED_WORDS.test(query) || INLINE_DATA.test(query)) && !PLACES.test(query);
  return {
    ...(inline ? { inlineOnly: true as const } : {}),
    ...(files || folder ? { namesFile: true as const } : {}),
    ...(files && !folder ? { onlyFiles: true as const } : {}),
    ...(folder && !someFiles && !FILE_ELSEWHERE.test(query) ? { onlyFolders: true as const } : {}),
  };
}

export function requestKinds(whole: string): RequestKinds {
  const query = whole.slice(0, READ_CHARS);
  const from = new Set<string>();
  const files = new Set<string>();
  const to = new Set<string>();
  for (const m of query.matchAll(MEASURE)) {
    const k = unitKind(m[1]!);
    if (k) from.add(k);
  }
  for (const m of query.matchAll(/\w\.([a-z]{2,4})\b(?!\.\w)/gi)) {
    const k = EXTENSION_KIND[m[1]!.toLowerCase()];
    if (k) files.add(k);
  }
  if (/\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+\b/.test(query)) from.add("camel");
  if (/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/.test(query)) from.add("snake");
  for (const m of query.matchAll(WANTED)) {
    const w = m[2]!;
    const k = w.length === 1 ? unitKind(w) : KIND_OF.get(w.toLowerCase().replace(/_/g, ""));
    // "in" a format is where, not what into ("the rows in CSV"); "in" a unit or a case is what into.
    if (k && !(m[1]!.toLowerCase() === "in" && (FORMATS.has(k) || k === "text"))) to.add(k);
  }
  // What is asked for is not what the data is ("convert max_retry to camelCase" holds no camel value).
  for (const k of to) from.delete(k);
  for (const k of files) from.add(k);
  const action = actionWordsOf(query);
  const change = CHANGE.test(action);
  // A measure converted to another unit is a number too ("convert 25 celsius to fahrenheit").
  const converts = [...from].some((k) => MEASURE_UNITS.has(k)) && [...to].some((k) => MEASURE_UNITS.has(k));
  const amount = ASKS_AMOUNT.test(query) || converts || (!change && ASKS_VALUE.test(action));
  const asksOnly = (amount || ASKS.test(query.trim())) && !change;
  const where = whereDataIs(query);
  const textUnits = namedIn(TEXT_UNITS, action);
  // A change of the words it quotes, and no amount asked: the answer is those words changed; so is a
  // lookup of lines, words or sentences themselves ("get the last line of cron.log"), not their count.
  const text = (change && where.inlineOnly) || (asksOnly && [...textUnits].some((u) => u !== "byte"));
  const answer = amount ? "number" : text ? "string" : undefined;
  const aggregates = namedIn(AGGREGATES, action);
  // An amount asked for is a count, unless it is an aggregate ("the largest value" is no count).
  const operations = operationsAsked(action, amount && !aggregates.size);
  return {
    from,
    files,
    to,
    textUnits,
    aggregates,
    positions: namedIn(POSITIONS, action),
    ...(answer ? { answer } : {}),
    ...(operations ? { operations } : {}),
    ...(asksOnly ? { asksOnly: true as const } : {}),
    ...where,
  };
}

/** The operations a request asks for when it says what it asks done: its first word (after "please",
 * "can you"…) is an operation or a lookup. Undefined otherwise ("how long is it so far?" names none). */
function operationsAsked(action: string, counts: boolean): Set<string> | undefined {
  const lead = /^[a-z]+/i.exec(action.trim().replace(BEFORE_VERB, ""))?.[0]?.toLowerCase();
  if (!lead || !(OPERATIONS.has(lead) || LOOKUPS.has(lead))) return undefined;
  const asked = namedIn(OPERATIONS, action);
  if (counts) asked.add("count");
  return asked;
}

/** A capability's kinds: all it names, and the two sides of a conversion (`a_to_b`, "from a to b"). */
export interface CapabilityKinds {
  all: Set<string>;
  from?: Set<string>;
  to?: Set<string>;
}

/** What a capability's runs and tools say of it, and its words (read only when a rule needs them). */
export interface CapabilityFacts {
  name: string;
  text: string;
  /** The kinds of value its runs returned (none known: empty). */
  returns: readonly AnswerKind[];
  /** It calls a tool that changes things (its annotations say so: search-docs.ts ToolEntry.changes). */
  changes: boolean;
  /** It calls no tool at all (a tool itself is not asked this). */
  callsNoTool?: true;
  /** What `name` and `text` say, when kept from an earlier request (read now otherwise). */
  said?: CapabilityWords;
}

/** "a to b", "from a into b": the two words each side are what is converted. */
const CONVERSION = /\b([a-z_ ]+?)\s+(?:to|into)\s+([a-z_ ]+)/i;

export function capabilityKinds(name: string, whole: string): CapabilityKinds {
  // What it takes is said at the start; CONVERSION costs the square of a long run of words.
  const text = whole.slice(0, READ_CHARS / 2);
  const all = kindsOf(`${name} ${text}`);
  const action = actionWords(name);
  const [before, after] = (CONVERSION.exec(action) ?? CONVERSION.exec(text))?.slice(1) ?? [];
  const from = before === undefined ? undefined : kindsOf(before.split(" ").slice(-2).join(" "));
  const to = after === undefined ? undefined : kindsOf(after.split(" ").slice(0, 2).join(" "));
  return from?.size && to?.size ? { all, from, to } : { all };
}

/**
 * Whether what the capability does contradicts what the request asks for: for a question, it changes
 * things; for an amount, it has returned values, none of them one, and its words do not say it
 * gives one ("count the words", answered as "12 words", is taken at its word); for a change of
 * quoted words, it has only ever returned numbers or yes/no; for a file, it
 * calls no tool and does not take files (takesFiles), or it takes folders only (for guests.txt, not
 * "count the entries inside a folder"); for a folder, it takes one file ("the lines of a text file"
 * for photos/2024; "each file in dist/" names files); for data in the request itself, it reads files;
 * it counts in other units than the request names, or computes another aggregate.
 */
export function answerMisfits(request: RequestKinds, cap: CapabilityFacts): boolean {
  if (request.asksOnly && cap.changes) return true;
  const said = cap.said ?? new CapabilityWords(cap.name, cap.text);
  if (request.namesFile && cap.callsNoTool && !takesFiles(request, said)) return true;
  if (request.onlyFiles && said.folders && !said.files) return true;
  if (request.onlyFolders && said.oneFile && !said.folders) return true;
  if (request.inlineOnly && !cap.callsNoTool && said.files) return true;
  if (request.textUnits.size && said.measures && namesOnlyOthers(said.named(TEXT_UNITS), request.textUnits)) return true;
  if (request.aggregates.size && namesNotAll(said.named(AGGREGATES), request.aggregates)) return true;
  if (request.positions.size && namesOnlyOthers(said.named(POSITIONS), request.positions)) return true;
  // Its name starts with an operation (`count_vowels`) the request does not ask for.
  if (request.operations && said.operation !== undefined && !request.operations.has(said.operation)) return true;
  if (request.answer === "string" && cap.returns.length && cap.returns.every((k) => COUNTS_ONLY.has(k))) return true;
  if (request.answer !== "number" || !cap.returns.length || cap.returns.some((k) => HOLDS_AMOUNT.has(k))) return false;
  return !said.amount;
}

const meets = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].some((x) => b.has(x));
/** Whether a capability names values of a group (`own`), but not every one the request names (a
 * minimum is not the range "from the lowest to the highest" asks for). */
const namesNotAll = (own: ReadonlySet<string>, asked: ReadonlySet<string>) => own.size > 0 && [...asked].some((x) => !own.has(x));
/** Whether a capability names values of a group (`own`), none of them one the request names. */
const namesOnlyOthers = (own: ReadonlySet<string>, asked: ReadonlySet<string>) => own.size > 0 && !meets(asked, own);

/** Whether code that calls no tool may still serve a request about a file: its words are about files
 * or paths, or about the format of the request's files (the agent reads people.csv and hands the
 * text to `csv_to_json`). */
function takesFiles(request: RequestKinds, said: CapabilityWords): boolean {
  return said.files || said.folders || [...said.formats].some((k) => request.files.has(k));
}

/**
 * Whether the capability contradicts the request's data: a conversion that would start from the
 * kind the request wants or end at the kind its data is, or that converts none of the kinds the
 * request names; or one about a file format (JSON, CSV…) while the request's files are all of others.
 */
export function misfits(request: RequestKinds, cap: CapabilityKinds): boolean {
  if (cap.from && cap.to) {
    if (meets(request.from, cap.to) && !meets(request.from, cap.from)) return true;
    if (meets(request.to, cap.from) && !meets(request.to, cap.to)) return true;
    // A conversion between other kinds altogether (kilograms to pounds for "42 kilometers to miles").
    if ([...request.from, ...request.to].some((k) => k !== "text") && !meets(request.from, cap.all) && !meets(request.to, cap.all)) return true;
    // A measure converted from another unit than the request's ("hours to minutes" for "5400 seconds").
    if ([...request.from].some((k) => MEASURE_UNITS.has(k)) && [...cap.from].some((k) => MEASURE_UNITS.has(k)) && !meets(request.from, cap.from)) return true;
  }
  const formats = [...cap.all].filter((k) => FORMATS.has(k));
  return formats.length > 0 && request.files.size > 0 && !formats.some((k) => request.files.has(k)) && !(cap.all.has("text") && request.files.has("text"));
}

/** For one request: whether the capability under a key contradicts its data (its kinds from
 * `kindsOf`) or what it asks for (its facts from `factsOf`), each key read once; undefined when the
 * request holds no data of a kind this knows and asks for nothing in particular (then nothing is
 * asked of the candidates). */
export function misfitFor(
  query: string,
  kindsOf: (key: string) => CapabilityKinds | undefined,
  factsOf: (key: string) => CapabilityFacts | undefined,
  wordsOf: (key: string) => CapabilityWords | undefined = (key) => factsOf(key)?.said,
): ((key: string) => boolean) | undefined {
  const request = requestKinds(query);
  const data = request.from.size > 0 || request.to.size > 0;
  const named = [request.textUnits, request.aggregates, request.positions].some((s) => s.size > 0) || request.operations !== undefined;
  const opposed = { stems: opposedStems(query), orders: ordersOf(taskWords(query, false)) };
  const opposes = opposed.stems.size > 0 || opposed.orders.size > 0;
  const asks = request.answer !== undefined || request.asksOnly || request.namesFile || request.onlyFolders || request.inlineOnly || named;
  if (!data && !asks && !opposes) return undefined;
  const seen = new Map<string, boolean>();
  const stems = [...opposed.stems];
  return (key) => {
    let out = seen.get(key);
    if (out === undefined) {
      // Only the rules the request calls for, each read only when the ones before did not decide:
      // most requests name an opposite, few ask for more.
      out = (asks && answerMisfitsOf(request, factsOf(key))) || (opposes && saysOpposite(stems, opposed.orders, wordsOf(key))) || (data && kindMisfitsOf(request, kindsOf(key)));
      seen.set(key, out);
    }
    return out;
  };
}

const answerMisfitsOf = (request: RequestKinds, facts: CapabilityFacts | undefined) => facts !== undefined && answerMisfits(request, facts);
const kindMisfitsOf = (request: RequestKinds, kinds: CapabilityKinds | undefined) => kinds !== undefined && misfits(request, kinds);

/** Its name or intent holds the opposite of a word of the request (opposites.ts): the near twin of
 * what was asked ("the first N lines" for "the last 3 lines"). Its sides and orders are read only
 * when the request names an opposite or an order. */
function saysOpposite(stems: readonly string[], orders: ReadonlySet<string>, said: CapabilityWords | undefined): boolean {
  if (said === undefined) return false;
  if (stems.length > 0) {
    const sides = said.sides;
    for (let i = 0; i < stems.length; i++) if (sides.has(stems[i]!)) return true;
  }
  return orders.size > 0 && reversedOrder(orders, said.orders);
}

/** How many more results a request most results of which it contradicts looks through for others. */
export const MISFIT_REACH = 3;

/** The first `limit` of `hits` with at most half of them misfits (the best of those), the order kept. */
export function atMostHalf<H extends { key: string }>(hits: readonly H[], limit: number, misfit: (key: string) => boolean): H[] {
  const others = hits.filter((h) => !misfit(h.key)).length;
  let misfits = Math.max(Math.floor(limit / 2), limit - others);
  return hits.filter((h) => !misfit(h.key) || misfits-- > 0).slice(0, limit);
}
