// What a capability's code says about a request, for its `match` label (match-label.ts): the one
// evidence a paraphrase can meet besides the capability's name and intent is what it does. Its
// calls in words (code-evidence.ts codeWords: `decodeURIComponent` decodes, `c[c.length - 1]` takes
// the last) may hold a request's word its texts do not ("max-min" against `Math.max(...) -
// Math.min(...)`), or the opposite of one ("urlencode" against code that decodes: another task,
// whatever its texts say). And its parameters against the request's values: a capability whose
// required path the request cannot fill ("left-pad 42 to width 5") is not the one asked for.
// Code is the agent's, maybe written from a hostile prompt: it is read over CODE_CHARS only, and a
// body that says more than CODE_WORDS words backs nothing (padded with every word, it would back
// every request). Code words alone never make a result strong (match-label.ts).
import { codeWords } from "./code-evidence.ts";
import { opposedStems, oppositesOf, sideStems } from "./opposites.ts";
import { terms } from "./search.ts";
import { taskWords } from "./value-kinds.ts";

/** A body calling more distinct words than this is not read as backing a request (real ones call a
 * handful: read_file, split, sort, Math.max). */
export const CODE_WORDS = 30;

export interface CodeFit {
  /** The request's words (by stem) its code holds and its texts (name, intent) do not. */
  covers: number;
  /** The request asks for the opposite of what the code does (code that decodes for "encode"). */
  opposed: boolean;
  /** The code holds the opposite of a request's word, in a call that may be used for something else
   * (`s[0]` for "the last letter": it may only look at the first): not certain, never strong. */
  leans: boolean;
  /** A required parameter of a kind the request holds no value of, while it holds values. */
  unfilled: boolean;
  /** The request's values fill its required parameters one to one, by kind, none left over
   * ("7322 secs -> h:m:s" for `format_duration(seconds: number)`): the request gives what it takes. */
  fills: boolean;
}

/** What the labels read of a capability's code, read once per version of the record (discover-state.ts). */
export interface CodeRead {
  /** How many distinct words its calls say (codeWords): more than CODE_WORDS back nothing. */
  size: number;
  /** The words of the directions it takes (codeWords' sides), unstemmed, and stemmed as requests are:
   * what its code certainly does, the only words that back a request. */
  sides: ReadonlySet<string>;
  directions: ReadonlySet<string>;
  /** Every word its calls say, stemmed: what it may also do. */
  stems: ReadonlySet<string>;
  /** Its input schema. */
  parameters: Record<string, unknown>;
}

export function readCode(code: string, parameters: Record<string, unknown>): CodeRead {
  const { words, sides } = codeWords(code);
  const stems = (ws: ReadonlySet<string>) => new Set(terms([...ws].join(" ")));
  return { size: words.size, sides, directions: stems(sides), stems: stems(words), parameters };
}

/** The kinds of a request's values: a path or file name, a number. */
const PATH = /(?:^|\s)['"`]?[\w.~-]*[\w-]\/[\w./-]*|\S\.[a-z][a-z0-9]{0,4}\b/i;
const NUMBER = /(?:^|[^\w.])[-+]?\d/;
const QUOTED = /(^|\s)(['"`])[^'"`]+\2/;

/** For one request, each capability's code fit (`texts`: its name's words and intent). */
export function codeFitFor(query: string): (read: CodeRead, texts: readonly string[]) => CodeFit {
  let request: ReturnType<typeof readRequest> | undefined;
  return (read, texts) => {
    const { asked, raw, opposed, sides, values, counted, holdsValues } = (request ??= readRequest(query));
    const { sides: said, stems, directions } = read;
    const own = new Set(terms(texts.join(" ")));
    // Each side the code takes whose opposite the request asks, the code not holding the request's side too.
    const against = (held: ReadonlySet<string>) => [...opposed].some((o) => held.has(o) && ![...sides].some((s) => held.has(s) && oppositesOf(s).includes(o)));
    let covers = 0;
    // A call's name says what it may be used for (`Object.keys` lists a JSON's keys as often as a
    // settings file's, `.toLowerCase()` ignores case): only what the code certainly does backs a word.
    if (read.size <= CODE_WORDS) {
      for (const q of asked) if (!own.has(q) && directions.has(q)) covers++;
      // A word joined of two the code says ("urlencode": url, encode).
      for (const w of raw) if (!own.has(terms(w)[0] ?? "") && joined(w, said)) covers++;
    }
    const fit = { covers, opposed: against(directions), leans: against(stems), unfilled: holdsValues && unfilled(read.parameters, values) };
    return { ...fit, fills: holdsValues && fillsExactly(read.parameters, counted) };
  };
}

/** What the code is compared with of a request, read once, for its first capability that has code. */
function readRequest(query: string) {
  const task = taskWords(query, false);
  const values = { path: PATH.test(query), number: NUMBER.test(query) };
  return {
    asked: [...new Set(terms(task))],
    raw: task
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 6),
    opposed: opposedStems(task),
    sides: sideStems(task),
    values,
    counted: countedValues(query),
    holdsValues: values.path || values.number || QUOTED.test(query),
  };
}

/** A request's values by kind, each counted once: quoted texts and dates, paths, other numbers. */
interface Counted {
  text: number;
  path: number;
  number: number;
}

const QUOTED_ALL = new RegExp(QUOTED.source, "g");
const DATE_ALL = /\b\d{4}-\d{2}-\d{2}\b/g;
const PATH_ALL = new RegExp(PATH.source, "gi");
const NUMBER_ALL = /(?<![\w.])[-+]?\d+(?:\.\d+)?(?!\w)/g;

function countedValues(query: string): Counted {
  const count = (re: RegExp, s: string) => s.match(re)?.length ?? 0;
  const text = count(QUOTED_ALL, query) + count(DATE_ALL, query.replace(QUOTED_ALL, " "));
  const rest = query.replace(QUOTED_ALL, " ").replace(DATE_ALL, " ");
  const path = count(PATH_ALL, rest);
  return { text, path, number: count(NUMBER_ALL, rest.replace(PATH_ALL, " ")) };
}

/** What each required parameter takes: a number, a path (a string named path, file or dir), other
 * text; `other` for any other type, or a required name the schema does not describe. */
function requiredKinds(schema: Record<string, unknown>): Array<"number" | "path" | "text" | "other"> {
  const props = (schema?.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = Array.isArray(schema?.required) ? (schema.required as unknown[]) : [];
  return required.map((name) => {
    if (typeof name !== "string" || !Object.hasOwn(props, name)) return "other";
    const type = props[name]?.type;
    if (type === "number" || type === "integer") return "number";
    if (type === "string") return /path|file|dir/i.test(name) ? "path" : "text";
    return "other";
  });
}

/** Whether the required parameters take the request's values one to one: numbers for numbers, paths
 * for path-named strings, quoted texts (or paths left over) for other strings; any other kind of
 * parameter (an array, an object) or a value left over is not an exact fit. */
function fillsExactly(schema: Record<string, unknown>, have: Counted): boolean {
  const kinds = requiredKinds(schema);
  if (!kinds.length || kinds.includes("other")) return false;
  const need = (k: string) => kinds.filter((x) => x === k).length;
  return have.number === need("number") && have.path >= need("path") && have.text + have.path - need("path") === need("text");
}

/** Whether `w` is two words of `said` written as one. */
function joined(w: string, said: ReadonlySet<string>): boolean {
  for (let i = 2; i <= w.length - 3; i++) if (said.has(w.slice(0, i)) && said.has(w.slice(i))) return true;
  return false;
}

/** Whether a required parameter is a path or a number the request holds none of. */
function unfilled(schema: Record<string, unknown>, values: { path: boolean; number: boolean }): boolean {
  return requiredKinds(schema).some((k) => (k === "number" && !values.number) || (k === "path" && !values.path));
}
