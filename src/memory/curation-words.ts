// Reading a capability's intent and code for curation: the verb (mapped to a small canonical set),
// the object noun phrase it acts on, and what the code itself shows (tool names, shell commands,
// data formats), so that a name can be both proposed and checked against the code.
import { stemmer } from "stemmer";

/** Synonyms -> canonical verb. A verb missing here is not recognised as an action. */
const VERBS: Record<string, string> = {};
const canon = (to: string, words: string) => words.split(" ").forEach((w) => (VERBS[w] = to));
canon("read", "read load cat");
// "open" a file, an issue, a browser: the code says which.
canon("open", "open");
canon("write", "write save store persist dump");
canon("get", "get obtain");
canon("fetch", "fetch retrieve request call");
canon("download", "download");
canon("upload", "upload");
canon("list", "list enumerate ls");
canon("find", "find locate");
canon("search", "search grep");
canon("query", "query");
canon("count", "count tally");
canon("create", "create make add insert");
canon("update", "update edit modify patch");
canon("delete", "delete remove erase drop rm purge prune");
canon("clean", "clean clear");
canon("convert", "convert transform turn");
canon("parse", "parse decode deserialize deserialise");
canon("format", "format prettify");
canon("render", "render");
canon("summarize", "summarize summarise condense");
canon("translate", "translate");
canon("classify", "classify categorize categorise label");
canon("extract", "extract");
canon("explain", "explain describe");
canon("draft", "draft compose");
canon("compute", "compute calculate");
canon("measure", "measure");
canon("generate", "generate scaffold");
canon("copy", "copy duplicate cp");
canon("clone", "clone");
canon("move", "move mv");
canon("rename", "rename");
canon("backup", "backup");
canon("archive", "archive");
canon("restore", "restore");
canon("check", "check verify");
canon("validate", "validate");
canon("test", "test");
canon("lint", "lint");
canon("build", "build compile");
canon("install", "install");
canon("run", "run execute exec launch invoke");
canon("start", "start");
canon("stop", "stop");
canon("kill", "kill");
canon("restart", "restart");
canon("deploy", "deploy");
canon("publish", "publish release");
canon("send", "send");
canon("notify", "notify");
canon("post", "post");
canon("push", "push");
canon("pull", "pull");
canon("commit", "commit");
canon("stash", "stash");
canon("merge", "merge combine");
canon("rebase", "rebase");
canon("checkout", "checkout");
canon("blame", "blame");
canon("diff", "diff");
canon("compare", "compare");
canon("tag", "tag");
canon("sort", "sort order");
canon("filter", "filter");
canon("group", "group");
canon("dedupe", "dedupe deduplicate");
canon("flatten", "flatten");
canon("split", "split");
canon("join", "join concatenate");
canon("hash", "hash");
canon("encode", "encode serialize serialise");
canon("encrypt", "encrypt");
canon("decrypt", "decrypt");
canon("compress", "compress zip");
canon("import", "import");
canon("export", "export");
canon("sync", "sync synchronize synchronise");
canon("watch", "watch monitor");
canon("slugify", "slugify");
canon("normalize", "normalize normalise");
canon("resize", "resize");
canon("analyze", "analyze analyse inspect");
canon("review", "review");
canon("ping", "ping");
canon("schedule", "schedule");
canon("bump", "bump");
// Common verbs of code and text that have no closer synonym above.
for (const v of "replace append prepend strip trim pad capitalize truncate wrap escape sanitize undo revert reset wait retry close select set assign resolve chunk paginate map sum average round tokenize embed highlight annotate comment reply approve zip unzip".split(" ")) VERBS[v] ??= v;
canon("wait", "wait sleep");
canon("undo", "undo revert");

/** Verbs that say little about what is done ("check" may mean look or validate). */
const WEAK_VERBS = new Set(["open", "set", "select", "check", "get", "run", "make", "call", "request", "turn", "clear", "order", "combine", "label", "inspect", "watch", "tag"]);
/** Verbs of request: they ask to see something and say nothing about what is done. */
const REQUEST_VERBS = new Set(["show", "display", "print", "tell", "give", "view", "see", "output", "return", "report"]);
/** Openings of a request, dropped: "please", "can you", "I want to", "help me", "get me". */
const POLITE = new Set(["please", "kindly", "just", "can", "could", "would", "will", "you", "i", "we", "want", "need", "like", "help", "let", "me", "us", "quickly", "to"]);
const QUESTION = new Set(["what", "which", "how", "who", "whom", "whose", "where", "when", "why"]);

const DETERMINERS = new Set(
  "a an the all every each some any my our your their its this that these those one another other few several many much whole entire both either something anything everything".split(" "),
);
/** Adjectives that describe a run's arguments rather than what it acts on (dropped from targets). */
const FILLER = new Set(
  "new recent latest last given specific certain existing simple multiple single various particular arbitrary nested random full complete basic quick".split(" "),
);
/** Where the object noun phrase ends. */
const BOUNDARY = new Set(
  ("than over under above below older newer larger bigger smaller longer shorter matching containing except since until of in on at to into onto from for with by via using as before after under over within across between through about per than like without " +
    "and or then but so while that which who whom whose where when whether if because is are was were be been am do does did it them").split(" "),
);
/** Properties of a thing: "the size of a file" is a file_size. */
const PROPERTIES = new Set(["size", "length", "status", "version", "owner", "date", "age", "hash", "checksum", "encoding", "permissions", "path", "url", "schema", "price", "type", "width", "height"]);
/** Places named by what they hold: "a directory for the logs". */
const PLACES = new Set(["directory", "folder", "file", "table", "bucket", "channel", "queue"]);
const CLAUSE_START = new Set(["and", "then", "or", "also", "before", "after", "please", "can", "could", "to"]);
/** "the list of X", "the number of X": X is what is acted on. */
const CONTAINERS = new Set(["list", "set", "number", "amount", "total", "collection", "array", "kind", "type", "contents", "content", "rest", "part"]);
/** Nouns that, after a more specific noun, add nothing: "json file" -> json, "users table" -> users. */
const GENERIC_HEADS = new Set(["row", "file", "text", "string", "expression", "document", "object", "data", "content", "contents", "value", "table", "input", "payload", "entry", "record"]);
/** Objects that say little on their own ("write an object to X": X is what matters). */
export const GENERIC_OBJECTS = new Set([
  "project", "workspace", "entries", "items", "file", "files", "data", "content", "contents", "thing", "things", "value", "values", "text", "result", "results", "output", "info", "stuff",
  "object", "message", "payload", "request", "response", "body", "string", "input", "entry", "it", "something",
]);
const NOUN_CANON: Record<string, string> = {
  folder: "directory", folders: "directories", dir: "directory", dirs: "directories", temporary: "temp", configuration: "config",
  repository: "repo", repositories: "repos", paragraph: "text", passage: "text", information: "info", identifier: "id", identifiers: "ids",
  environment: "env", statistics: "stats", txt: "text", documentation: "docs", yml: "yaml", md: "markdown", javascript: "js", typescript: "typescript",
};
/** Data formats: "<format> file" names the file by its format, and a format in the code backs a target. */
export const FORMATS = new Set(["json", "yaml", "csv", "tsv", "xml", "toml", "ini", "markdown", "html", "pdf", "env", "config"]);
/** Words naming the means rather than the object: dropped from a target when something else is left. */
const MEANS = new Set(["git", "npm", "npx", "bun", "yarn", "pnpm", "shell", "command", "commands", "terminal", "sql", "sqlite", "api", "http", "mcp", "llm", "model", "ai", "gpt", "claude", "tool"]);
/** Verbs that carry a destination: with a generic object, the destination is the target. */
const DESTINATION_VERBS = new Set(["write", "send", "post", "upload", "copy", "move", "notify"]);

export function words(text: string): string[] {
  return text
    .split(/[^A-Za-z0-9.]+/)
    // lowerCamel identifiers split (camelCase -> camel case, readFile -> read file); names like
    // GitHub or TypeScript stay one word.
    .map((t) => (/^[a-z]/.test(t) ? t.replace(/([a-z0-9])([A-Z])/g, "$1 $2") : t))
    .join(" ")
    .toLowerCase()
    .replace(/\.([a-z]{2,5})\b/g, " $1")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function canonicalVerb(w: string): string | undefined {
  return Object.hasOwn(VERBS, w) ? VERBS[w] : undefined;
}

/** The verb of an inflected form too: "reads", "listed", "sorting", "copies" (descriptions often say "Reads a file"). */
export function verbOf(w: string): string | undefined {
  const direct = canonicalVerb(w);
  if (direct || w.length < 4) return direct;
  const tries = [w.replace(/ies$/, "y"), w.replace(/es$/, ""), w.replace(/s$/, ""), w.replace(/ied$/, "y"), w.replace(/ed$/, ""), w.replace(/d$/, ""), w.replace(/ing$/, ""), w.replace(/ing$/, "e")];
  // Doubled consonants: "stopped", "running".
  tries.push(w.replace(/([bdglmnprt])\1(ed|ing)$/, "$1"));
  for (const t of tries) if (t !== w && canonicalVerb(t)) return canonicalVerb(t);
  return undefined;
}

export function isWeakVerb(v: string): boolean {
  return WEAK_VERBS.has(v);
}

export function singular(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ches|shes|xes|sses)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

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

/** Reads an intent like "please show me the current git branch" or "convert csv text to json". */
export function readIntent(intent: string, means: readonly string[] = []): IntentReading {
  const ws = words(intent);
  // The verbs of its clauses: the first verb, and one right after "and", "then", "or"…
  let i = 0;
  while (i < ws.length && POLITE.has(ws[i]!)) i++;
  // ("get me" is a request, not a verb of its own.)
  const verbs = [...new Set(ws.map((w, k) => ((k === 0 || CLAUSE_START.has(ws[k - 1]!)) && !(w === "get" && ws[k + 1] === "me") ? verbOf(w) : undefined)).filter((v): v is string => !!v))];
  let verb: string | undefined;
  let verbKind: IntentReading["verbKind"];
  // "get me X", "show me X", "give me X": a request to see X.
  if (i < ws.length && (REQUEST_VERBS.has(ws[i]!) || (ws[i] === "get" && ws[i + 1] === "me"))) {
    verbKind = "request";
    i++;
    while (i < ws.length && POLITE.has(ws[i]!)) i++;
    // "show me how to list…": a verb right after the request is what is done.
    if (ws[i] === "how" && ws[i + 1] === "to") i += 2;
    const v = canonicalVerb(ws[i] ?? "");
    if (v) ((verb = v), (verbKind = "content"), i++);
  } else if (i < ws.length && QUESTION.has(ws[i]!)) {
    verbKind = "question";
    if (ws[i] === "how" && (ws[i + 1] === "many" || ws[i + 1] === "much")) {
      verb = "count";
      i += 2;
    } else i++;
  } else if (ws[i] === "look" && (ws[i + 1] === "up" || ws[i + 1] === "for")) {
    // Phrasal verbs spelt in two words: "look up" a fact, "look for" things.
    ((verb = ws[i + 1] === "up" ? "get" : "find"), (verbKind = "content"), (i += 2));
  } else if (ws[i] === "back" && ws[i + 1] === "up") {
    ((verb = "backup"), (verbKind = "content"), (i += 2));
  } else {
    // An imperative starts with its verb; a recognised one a word or two later ("quickly list…",
    // "git commit all…") still counts. Else a first word before an article ("remember a fact") is
    // taken for a verb not known here; without one ("recent history") the intent is a noun phrase.
    const at = [i, i + 1, i + 2].find((k) => k < ws.length && verbOf(ws[k]!) && !DETERMINERS.has(ws[k - 1] ?? ""));
    if (at !== undefined) {
      verb = verbOf(ws[at]!);
      verbKind = "content";
      i = at + 1;
      // "clean up", "sort out": a particle, not an object.
      if (ws[i] === "up" || ws[i] === "out" || ws[i] === "down") i++;
    } else if (i < ws.length && !DETERMINERS.has(ws[i]!) && (i + 1 >= ws.length || DETERMINERS.has(ws[i + 1]!) || BOUNDARY.has(ws[i + 1]!))) i++;
  }

  const phrase = (from: number): { np: string[]; end: number; article: boolean; quantified: boolean } => {
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
  };

  let first = phrase(i);
  // "check whether a site is up", "find which process listens": the subject is the object.
  if (!first.np.length && ["whether", "if", "which", "what"].includes(ws[first.end] ?? "")) first = phrase(first.end + 1);
  let { end, article } = first;
  let targetFrom = first.np.length ? "object" : undefined;
  let target = reduce(first.np, means, first.quantified);
  // "the list of branches", "the number of lines": the complement is the object.
  if (target.length === 1 && CONTAINERS.has(target[0]!) && ws[end] === "of") {
    const inner = phrase(end + 1);
    const t = reduce(inner.np, means, inner.quantified);
    if (t.length) ((end = inner.end), (article = inner.article), (target = t));
  }
  // "the size of a file" -> file_size: a property is named after what it belongs to.
  if (target.length === 1 && PROPERTIES.has(target[0]!) && ws[end] === "of") {
    const inner = phrase(end + 1);
    const owner = reduce(inner.np, means, inner.quantified).slice(-2);
    if (owner.length) ((end = inner.end), (target = [...owner, target[0]!]));
  }
  // "remove duplicate entries from a list": dedupe, the list being the object.
  if (verb === "delete" && (first.np[0] === "duplicate" || first.np[0] === "duplicates")) {
    verb = "dedupe";
    target = target.filter((w) => w !== "duplicate" && w !== "duplicates" && !GENERIC_OBJECTS.has(w) && w !== "entries" && w !== "items");
    const from = ws[end] === "from" || ws[end] === "in" ? reduce(phrase(end + 1).np, means) : [];
    if (!target.length && from.length) target = from;
  }
  // "a directory for the logs" -> log_directory.
  if (target.length === 1 && PLACES.has(target[0]!) && ws[end] === "for") {
    const what = reduce(phrase(end + 1).np, means);
    if (what.length === 1 && !GENERIC_OBJECTS.has(what[0]!)) target = [singular(what[0]!), target[0]!];
  }

  // "convert csv text to json" -> csv_to_json.
  if (verb === "convert" && (ws[end] === "to" || ws[end] === "into")) {
    const to = reduce(phrase(end + 1).np, means);
    if (to.length) {
      // A generic source says nothing: "turn a string into camelCase" -> to_camel_case.
      target = [...(target.every((w) => GENERIC_OBJECTS.has(w)) ? [] : target), "to", ...to];
      targetFrom = "conversion";
    }
  } else if (verb && DESTINATION_VERBS.has(verb) && (!target.length || target.every((w) => GENERIC_OBJECTS.has(w)))) {
    // "write an object to a json file" -> json; "post a message to a webhook" -> webhook.
    const k = ws.indexOf("to", end) >= 0 ? ws.indexOf("to", end) : ws.indexOf("into", end);
    const to = k >= 0 ? reduce(phrase(k + 1).np, means) : [];
    if (to.length) {
      target = to;
      targetFrom = "destination";
      article = false;
    }
  }
  // "copy a file … as a backup": the purpose is the action.
  const as = ws.indexOf("as", end);
  if (as >= 0 && (ws[as + 1] === "a" || ws[as + 1] === "an")) {
    const purpose = canonicalVerb(ws[as + 2] ?? "");
    if (purpose && verb && purpose !== verb && !WEAK_VERBS.has(purpose)) {
      verb = purpose;
      targetFrom = targetFrom && `${targetFrom}, action from its purpose`;
    }
  }
  const truncated = target.length > 4;
  const alsoAsks: string[] = [];
  for (let k = end; k < ws.length - 1; k++) {
    if ((ws[k] === "and" || ws[k] === "then") && REQUEST_VERBS.has(ws[k + 1]!)) alsoAsks.push(...reduce(phrase(k + 2).np, means).filter((w) => !GENERIC_OBJECTS.has(w)));
  }
  const RESTRICT = new Set(["who", "that", "which", "where", "whose", "than", "over", "under", "above", "below", "older", "newer", "larger", "bigger", "smaller", "longer", "shorter", "matching", "containing", "without", "except", "since", "until"]);
  const condition = target.length && RESTRICT.has(ws[end] ?? "") ? ws.slice(end, end + 4).join(" ") : undefined;
  const ofComplement = ws[end] === "of" ? reduce(phrase(end + 1).np, means).filter((w) => !GENERIC_OBJECTS.has(w) && !MEANS.has(w)) : [];
  return { verb, verbKind, target: target.slice(-4), targetFrom, singularObject: article, verbs, truncated, ofComplement, alsoAsks, condition };
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
const ING_ED_NOUNS = new Set("string strings thing things setting settings heading headings warning warnings mapping mappings embedding embeddings padding encoding spacing pending building buildings booking meeting meetings morning evening ceiling logging listing listings".split(" "));
function isParticiple(w: string): boolean {
  return w.length > 5 && /(ed|ing)$/.test(w) && !ING_ED_NOUNS.has(w);
}

/** What the code shows: its tools' verbs and objects, shell commands, formats, and its words. */
export interface CodeEvidence {
  /** Canonical verbs of the tools it calls (read_file -> read), its commands (git log -> list) and its calls (.sort()). */
  verbs: Set<string>;
  /** Canonical verbs of the tools it calls only. */
  toolVerbs: Set<string>;
  /** Objects of its tools (read_file -> file) and commands (git log -> commits), singular. */
  objects: Set<string>;
  /** Data formats it reads or writes (JSON.parse, '.yaml'). */
  formats: Set<string>;
  /** Programs its shell commands start (git, npm, rm…). */
  programs: Set<string>;
  /** Stems of every word in the code and tool names. */
  stems: Set<string>;
  /** The first shell command's git subcommand, if it runs git. */
  gitCommand?: string;
}

/** git subcommand -> the action and object a careful name would use. */
export const GIT_SUBCOMMANDS: Record<string, [string, string[]]> = {
  log: ["list", ["commits"]], status: ["get", ["status"]], diff: ["get", ["diff"]], branch: ["list", ["branches"]], tag: ["create", ["tag"]],
  commit: ["commit", ["changes"]], push: ["push", ["branch"]], pull: ["pull", ["changes"]], stash: ["stash", ["changes"]], blame: ["blame", ["file"]],
  checkout: ["checkout", ["branch"]], switch: ["checkout", ["branch"]], add: ["stage", ["files"]], fetch: ["fetch", ["remote"]], merge: ["merge", ["branch"]],
  rebase: ["rebase", ["branch"]], show: ["get", ["commit"]], "rev-parse": ["get", ["revision"]], shortlog: ["list", ["authors"]], describe: ["get", ["version"]],
  "ls-files": ["list", ["files"]], clone: ["clone", ["repo"]], reset: ["reset", ["changes"]], restore: ["restore", ["files"]],
};

/** File extensions and the words a person uses for them. */
const EXTENSIONS: Record<string, string> = { ts: "typescript", js: "javascript", py: "python", md: "markdown", yml: "yaml", rb: "ruby", rs: "rust", sh: "shell", txt: "text", jpg: "jpeg", htm: "html" };

const COMMAND_RE = /\b(?:command|cmd)\s*:\s*(['"`])([^'"`]*)\1/g;

export function codeEvidence(code: string, tools: readonly string[]): CodeEvidence {
  const e: CodeEvidence = { verbs: new Set(), toolVerbs: new Set(), objects: new Set(), formats: new Set(), programs: new Set(), stems: new Set() };
  for (const t of tools) {
    const [verb, ...rest] = (t.split(":")[1] ?? "").toLowerCase().split(/[_-]/);
    const v = canonicalVerb(verb ?? "");
    if (v) (e.verbs.add(v), e.toolVerbs.add(v));
    if (rest.length) e.objects.add(singular(rest.at(-1)!));
    if (rest.length && !v) e.objects.add(singular(verb!));
  }
  for (const m of code.matchAll(COMMAND_RE)) {
    const argv = m[2]!.trim().split(/\s+/);
    const program = argv[0]?.toLowerCase();
    if (!program) continue;
    e.programs.add(program);
    if (program === "git" && argv[1]) {
      e.gitCommand ??= argv[1];
      const known = GIT_SUBCOMMANDS[argv[1]];
      if (known) {
        e.verbs.add(known[0]);
        for (const o of known[1]) e.objects.add(singular(o));
      }
      const v = canonicalVerb(argv[1]);
      if (v) e.verbs.add(v);
    } else {
      const v = canonicalVerb(program) ?? canonicalVerb(argv[1] ?? "");
      if (v) e.verbs.add(v);
    }
  }
  // A git command built elsewhere than in a `command:` literal ("git log " + args.n).
  if (!e.programs.has("git")) {
    const g = /(?:^|['"`\s])git\s+([a-z][a-z-]*)/.exec(code);
    if (g) {
      e.programs.add("git");
      e.gitCommand = g[1];
      const known = GIT_SUBCOMMANDS[g[1]!];
      if (known) (e.verbs.add(known[0]), known[1].forEach((o) => e.objects.add(singular(o))));
    }
  }
  const lower = code.toLowerCase();
  if (/\bjson\.(parse|stringify)\b|\.json\b/.test(lower)) e.formats.add("json");
  for (const f of FORMATS) if (f !== "json" && new RegExp(`\\.${f === "markdown" ? "md" : f === "yaml" ? "ya?ml" : f}\\b|\\b(parse|to|from)${f}\\b`).test(lower)) e.formats.add(f);
  for (const w of [...words(code), ...tools.flatMap((t) => words(t))]) {
    if (w.length < 2) continue;
    e.stems.add(stemmer(w));
    if (Object.hasOwn(EXTENSIONS, w)) e.stems.add(stemmer(EXTENSIONS[w]!));
    // What the code itself calls: args.items.sort(…) backs "sort", JSON.parse "parse".
    const v = canonicalVerb(w);
    if (v && w !== "return") e.verbs.add(v);
  }
  return e;
}

/** Whether the code backs a target word: the word (or its stem) is in the code, a tool's object or a format it uses. */
export function backedByCode(word: string, e: CodeEvidence): boolean {
  if (e.formats.has(word) || e.objects.has(singular(word)) || e.stems.has(stemmer(word))) return true;
  // A prefix of a code word, or the other way round, both long enough ("temp" / "tmp" is not).
  const s = stemmer(word);
  if (s.length < 4) return false;
  for (const c of e.stems) if (c.length >= 4 && (c.startsWith(s) || s.startsWith(c))) return true;
  return false;
}
