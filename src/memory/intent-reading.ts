// Reading a capability's intent for curation: the verb (mapped to a small canonical set, see
// curation-words.ts), the object noun phrase it acts on, and what a name of them would leave out.
import { canonicalVerb, FORMATS, GENERIC_OBJECTS, isWeakVerb, singular, verbOf, words } from "./curation-words.ts";

/** Verbs of request: they ask to see something and say nothing about what is done. */
const REQUEST_VERBS = new Set(["show", "display", "print", "tell", "give", "view", "see", "output", "return", "report"]);
/** Openings of a request, dropped: "please", "can you", "I want to", "help me", "get me". */
const POLITE = new Set(["please", "kindly", "just", "can", "could", "would", "will", "you", "i", "we", "want", "need", "like", "help", "let", "me", "us", "quickly", "to"]);
const QUESTION = new Set(["what", "which", "how", "who", "whom", "whose", "where", "when", "why"]);

const DETERMINERS = new Set(
  "a an the all every each some any my our your their its this that these those one another other few several many much whole entire both either something anything everything".split(
    " ",
  ),
);
/** Adjectives that describe a run's arguments rather than what it acts on (dropped from targets). */
const FILLER = new Set(
  "new recent latest last given specific certain existing simple multiple single various particular arbitrary nested random full complete basic quick".split(" "),
);
/** Where the object noun phrase ends. */
const BOUNDARY = new Set(
  (
    "than over under above below older newer larger bigger smaller longer shorter matching containing except since until of in on at to into onto from for with by via using as before after under over within across between through about per than like without " +
    "and or then but so while that which who whom whose where when whether if because is are was were be been am do does did it them"
  ).split(" "),
);
/** Properties of a thing: "the size of a file" is a file_size. */
const PROPERTIES = new Set([
  "size",
  "length",
  "status",
  "version",
  "owner",
  "date",
  "age",
  "hash",
  "checksum",
  "encoding",
  "permissions",
  "path",
  "url",
  "schema",
  "price",
  "type",
  "width",
  "height",
]);
/** Places named by what they hold: "a directory for the logs". */
const PLACES = new Set(["directory", "folder", "file", "table", "bucket", "channel", "queue"]);
const CLAUSE_START = new Set(["and", "then", "or", "also", "before", "after", "please", "can", "could", "to"]);
/** "the list of X", "the number of X": X is what is acted on. */
const CONTAINERS = new Set(["list", "set", "number", "amount", "total", "collection", "array", "kind", "type", "contents", "content", "rest", "part"]);
/** Nouns that, after a more specific noun, add nothing: "json file" -> json, "users table" -> users. */
const GENERIC_HEADS = new Set([
  "row",
  "file",
  "text",
  "string",
  "expression",
  "document",
  "object",
  "data",
  "content",
  "contents",
  "value",
  "table",
  "input",
  "payload",
  "entry",
  "record",
]);
const NOUN_CANON: Record<string, string> = {
  folder: "directory",
  folders: "directories",
  dir: "directory",
  dirs: "directories",
  temporary: "temp",
  configuration: "config",
  repository: "repo",
  repositories: "repos",
  paragraph: "text",
  passage: "text",
  information: "info",
  identifier: "id",
  identifiers: "ids",
  environment: "env",
  statistics: "stats",
  txt: "text",
  documentation: "docs",
  yml: "yaml",
  md: "markdown",
  javascript: "js",
  typescript: "typescript",
};
/** Words naming the means rather than the object: dropped from a target when something else is left. */
const MEANS = new Set([
  "git",
  "npm",
  "npx",
  "bun",
  "yarn",
  "pnpm",
  "shell",
  "command",
  "commands",
  "terminal",
  "sql",
  "sqlite",
  "api",
  "http",
  "mcp",
  "llm",
  "model",
  "ai",
  "gpt",
  "claude",
  "tool",
]);
/** Verbs that carry a destination: with a generic object, the destination is the target. */
const DESTINATION_VERBS = new Set(["write", "send", "post", "upload", "copy", "move", "notify"]);

/** What the intent says: its verb (canonical), how it was found, and the object noun phrase. */
export interface IntentReading {
  /** The canonical verb, if the intent has one. */
  verb?: string;
  /** "content": a verb saying what is done; "request": only "show me…"; "question": "what/which…". */
  verbKind?: "content" | "request" | "question";
  /** The object, as words (lower case, canonical nouns, fillers and means dropped), at most 4. */
  target: string[];
  /** How the target was found ("object", "destination", "conversion", "purpose"). */
  targetFrom?: string;
  /** True when the object was a singular noun with an article ("a fact"). */
  singularObject: boolean;
  /** The distinct content verbs of the intent, in order (more than one: two readings). */
  verbs: string[];
  /** The object phrase had more words than a name keeps. */
  truncated: boolean;
  /** "the diff of staged changes": the complement a name of the head noun alone leaves out. */
  ofComplement: string[];
  /** "… and give me its version": what a later clause asks to be handed back. */
  alsoAsks: string[];
  /** "users who never logged in", "orders over 100 dollars": a condition on the object a name leaves out. */
  condition?: string;
}

/** What a name of the object leaves out when the phrase goes on with one of these. */
const RESTRICT = new Set([
  "who",
  "that",
  "which",
  "where",
  "whose",
  "than",
  "over",
  "under",
  "above",
  "below",
  "older",
  "newer",
  "larger",
  "bigger",
  "smaller",
  "longer",
  "shorter",
  "matching",
  "containing",
  "without",
  "except",
  "since",
  "until",
]);

/** The reading so far, as each step refines it. */
interface Reading {
  readonly ws: string[];
  readonly means: readonly string[];
  verb?: string;
  verbKind?: IntentReading["verbKind"];
  target: string[];
  targetFrom?: string;
  /** Where the object phrase ends (the word after it). */
  end: number;
  /** The object had an article ("a fact"). */
  article: boolean;
}

/** Reads an intent like "please show me the current git branch" or "convert csv text to json". */
export function readIntent(intent: string, means: readonly string[] = []): IntentReading {
  const ws = words(intent);
  const { at, verb, verbKind } = readOpening(ws);
  let first = phrase(ws, at);
  // "check whether a site is up", "find which process listens": the subject is the object.
  if (!first.np.length && ["whether", "if", "which", "what"].includes(ws[first.end] ?? "")) first = phrase(ws, first.end + 1);
  const r: Reading = {
    ws,
    means,
    verb,
    verbKind,
    end: first.end,
    article: first.article,
    targetFrom: first.np.length ? "object" : undefined,
    target: reduce(first.np, means, first.quantified),
  };
  readComplement(r);
  readDuplicates(r, first.np);
  readPlace(r);
  readDestination(r);
  readPurpose(r);
  const truncated = r.target.length > 4;
  const alsoAsks = readAlsoAsks(r);
  const condition = r.target.length && RESTRICT.has(ws[r.end] ?? "") ? ws.slice(r.end, r.end + 4).join(" ") : undefined;
  const ofComplement = ws[r.end] === "of" ? reduce(phrase(ws, r.end + 1).np, means).filter((w) => !GENERIC_OBJECTS.has(w) && !MEANS.has(w)) : [];
  return {
    verb: r.verb,
    verbKind: r.verbKind,
    target: r.target.slice(-4),
    targetFrom: r.targetFrom,
    singularObject: r.article,
    verbs: clauseVerbs(ws),
    truncated,
    ofComplement,
    alsoAsks,
    condition,
  };
}

/** The verbs of its clauses: the first verb, and one right after "and", "then", "or"… */
function clauseVerbs(ws: string[]): string[] {
  // ("get me" is a request, not a verb of its own.)
  return [
    ...new Set(ws.map((w, k) => ((k === 0 || CLAUSE_START.has(ws[k - 1]!)) && !(w === "get" && ws[k + 1] === "me") ? verbOf(w) : undefined)).filter((v): v is string => !!v)),
  ];
}

/** How the intent opens: its verb, what kind of request it is, and where its object starts. */
function readOpening(ws: string[]): { at: number; verb?: string; verbKind?: IntentReading["verbKind"] } {
  let i = 0;
  while (i < ws.length && POLITE.has(ws[i]!)) i++;
  // "get me X", "show me X", "give me X": a request to see X.
  if (i < ws.length && (REQUEST_VERBS.has(ws[i]!) || (ws[i] === "get" && ws[i + 1] === "me"))) {
    i++;
    while (i < ws.length && POLITE.has(ws[i]!)) i++;
    // "show me how to list…": a verb right after the request is what is done.
    if (ws[i] === "how" && ws[i + 1] === "to") i += 2;
    const v = canonicalVerb(ws[i] ?? "");
    return v ? { at: i + 1, verb: v, verbKind: "content" } : { at: i, verbKind: "request" };
  }
  if (i < ws.length && QUESTION.has(ws[i]!)) {
    if (ws[i] === "how" && (ws[i + 1] === "many" || ws[i + 1] === "much")) return { at: i + 2, verb: "count", verbKind: "question" };
    return { at: i + 1, verbKind: "question" };
  }
  // Phrasal verbs spelt in two words: "look up" a fact, "look for" things.
  if (ws[i] === "look" && (ws[i + 1] === "up" || ws[i + 1] === "for")) return { at: i + 2, verb: ws[i + 1] === "up" ? "get" : "find", verbKind: "content" };
  if (ws[i] === "back" && ws[i + 1] === "up") return { at: i + 2, verb: "backup", verbKind: "content" };
  // An imperative starts with its verb; a recognised one a word or two later ("quickly list…",
  // "git commit all…") still counts. Else a first word before an article ("remember a fact") is
  // taken for a verb not known here; without one ("recent history") the intent is a noun phrase.
  const at = [i, i + 1, i + 2].find((k) => k < ws.length && verbOf(ws[k]!) && !DETERMINERS.has(ws[k - 1] ?? ""));
  if (at !== undefined) {
    let next = at + 1;
    // "clean up", "sort out": a particle, not an object.
    if (ws[next] === "up" || ws[next] === "out" || ws[next] === "down") next++;
    return { at: next, verb: verbOf(ws[at]!), verbKind: "content" };
  }
  if (i < ws.length && !DETERMINERS.has(ws[i]!) && (i + 1 >= ws.length || DETERMINERS.has(ws[i + 1]!) || BOUNDARY.has(ws[i + 1]!))) i++;
  return { at: i };
}

/** The noun phrase from `from` on: its words (canonical, fillers dropped), where it ends, and whether it had an article. */
function phrase(ws: string[], from: number): { np: string[]; end: number; article: boolean; quantified: boolean } {
  let j = from;
  let article = false;
  while (j < ws.length && (DETERMINERS.has(ws[j]!) || POLITE.has(ws[j]!))) {
    if (ws[j] === "a" || ws[j] === "an" || ws[j] === "one") article = true;
    j++;
  }
  const np: string[] = [];
  const quantified = ["every", "each", "all"].some((q) => ws.slice(from, j).includes(q));
  // A participle after a noun starts a clause: "the people mentioned in…", "files matching…".
  for (; j < ws.length && !BOUNDARY.has(ws[j]!) && !(np.length && isParticiple(ws[j]!)); j++) {
    if (!FILLER.has(ws[j]!) && !DETERMINERS.has(ws[j]!) && !/^\d+$/.test(ws[j]!)) np.push(NOUN_CANON[ws[j]!] ?? ws[j]!);
  }
  return { np, end: j, article, quantified };
}

/** "the list of branches", "the number of lines": the complement is the object; "the size of a
 * file" -> file_size: a property is named after what it belongs to. */
function readComplement(r: Reading): void {
  const { ws, means } = r;
  if (r.target.length === 1 && CONTAINERS.has(r.target[0]!) && ws[r.end] === "of") {
    const inner = phrase(ws, r.end + 1);
    const t = reduce(inner.np, means, inner.quantified);
    if (t.length) (r.end = inner.end), (r.article = inner.article), (r.target = t);
  }
  if (r.target.length === 1 && PROPERTIES.has(r.target[0]!) && ws[r.end] === "of") {
    const inner = phrase(ws, r.end + 1);
    const owner = reduce(inner.np, means, inner.quantified).slice(-2);
    if (owner.length) (r.end = inner.end), (r.target = [...owner, r.target[0]!]);
  }
}

/** "remove duplicate entries from a list": dedupe, the list being the object. */
function readDuplicates(r: Reading, np: string[]): void {
  if (r.verb !== "delete" || (np[0] !== "duplicate" && np[0] !== "duplicates")) return;
  r.verb = "dedupe";
  r.target = r.target.filter((w) => w !== "duplicate" && w !== "duplicates" && !GENERIC_OBJECTS.has(w) && w !== "entries" && w !== "items");
  const from = r.ws[r.end] === "from" || r.ws[r.end] === "in" ? reduce(phrase(r.ws, r.end + 1).np, r.means) : [];
  if (!r.target.length && from.length) r.target = from;
}

/** "a directory for the logs" -> log_directory. */
function readPlace(r: Reading): void {
  if (r.target.length !== 1 || !PLACES.has(r.target[0]!) || r.ws[r.end] !== "for") return;
  const what = reduce(phrase(r.ws, r.end + 1).np, r.means);
  if (what.length === 1 && !GENERIC_OBJECTS.has(what[0]!)) r.target = [singular(what[0]!), r.target[0]!];
}

/** "convert csv text to json" -> csv_to_json; "write an object to a json file" -> json. */
function readDestination(r: Reading): void {
  const { ws, means, end } = r;
  if (r.verb === "convert" && (ws[end] === "to" || ws[end] === "into")) {
    const to = reduce(phrase(ws, end + 1).np, means);
    if (to.length) {
      // A generic source says nothing: "turn a string into camelCase" -> to_camel_case.
      r.target = [...(r.target.every((w) => GENERIC_OBJECTS.has(w)) ? [] : r.target), "to", ...to];
      r.targetFrom = "conversion";
    }
  } else if (r.verb && DESTINATION_VERBS.has(r.verb) && (!r.target.length || r.target.every((w) => GENERIC_OBJECTS.has(w)))) {
    // "post a message to a webhook" -> webhook.
    const k = ws.indexOf("to", end) >= 0 ? ws.indexOf("to", end) : ws.indexOf("into", end);
    const to = k >= 0 ? reduce(phrase(ws, k + 1).np, means) : [];
    if (to.length) {
      r.target = to;
      r.targetFrom = "destination";
      r.article = false;
    }
  }
}

/** "copy a file … as a backup": the purpose is the action. */
function readPurpose(r: Reading): void {
  const as = r.ws.indexOf("as", r.end);
  if (as < 0 || (r.ws[as + 1] !== "a" && r.ws[as + 1] !== "an")) return;
  const purpose = canonicalVerb(r.ws[as + 2] ?? "");
  if (purpose && r.verb && purpose !== r.verb && !isWeakVerb(purpose)) {
    r.verb = purpose;
    r.targetFrom = r.targetFrom && `${r.targetFrom}, action from its purpose`;
  }
}

/** "… and give me its version": what a later clause asks to be handed back. */
function readAlsoAsks(r: Reading): string[] {
  const { ws, means } = r;
  const alsoAsks: string[] = [];
  for (let k = r.end; k < ws.length - 1; k++) {
    if ((ws[k] === "and" || ws[k] === "then") && REQUEST_VERBS.has(ws[k + 1]!)) alsoAsks.push(...reduce(phrase(ws, k + 2).np, means).filter((w) => !GENERIC_OBJECTS.has(w)));
  }
  return alsoAsks;
}

/** Object words -> target words: "<format> file" -> format, generic heads after a noun dropped, means dropped. */
function reduce(np: string[], means: readonly string[], quantified = false): string[] {
  let t = np.filter((w) => /^[a-z][a-z0-9]*$/.test(w));
  const meaningful = t.filter((w) => !MEANS.has(w) && !means.includes(w));
  if (meaningful.length) t = meaningful;
  // "every markdown file" is files.
  if (quantified && t.at(-1) === "file") return [...t.slice(0, -1), "files"];
  // ("markdown table" is a thing of its own; "users table" is the users.)
  while (t.length > 1 && GENERIC_HEADS.has(t.at(-1)!) && !GENERIC_OBJECTS.has(t.at(-2)!) && !(t.at(-1) === "table" && FORMATS.has(t.at(-2)!))) t = t.slice(0, -1);
  return t;
}

/** Nouns ending like participles. */
const ING_ED_NOUNS = new Set(
  "string strings thing things setting settings heading headings warning warnings mapping mappings embedding embeddings padding encoding spacing pending building buildings booking meeting meetings morning evening ceiling logging listing listings".split(
    " ",
  ),
);
function isParticiple(w: string): boolean {
  return w.length > 5 && /(ed|ing)$/.test(w) && !ING_ED_NOUNS.has(w);
}
