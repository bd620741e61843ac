// What a capability's code shows for curation: its tools' verbs and objects, the shell commands it
// runs, the data formats it handles and its words, so that a name read from the intent can be
// checked against the code.
import { stemmer } from "stemmer";
import { canonicalVerb, FORMATS, singular, words } from "./curation-words.ts";

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
export const GIT_SUBCOMMANDS: ReadonlyMap<string, [string, string[]]> = new Map(
  Object.entries({
    log: ["list", ["commits"]],
    status: ["get", ["status"]],
    diff: ["get", ["diff"]],
    branch: ["list", ["branches"]],
    tag: ["create", ["tag"]],
    commit: ["commit", ["changes"]],
    push: ["push", ["branch"]],
    pull: ["pull", ["changes"]],
    stash: ["stash", ["changes"]],
    blame: ["blame", ["file"]],
    checkout: ["checkout", ["branch"]],
    switch: ["checkout", ["branch"]],
    add: ["stage", ["files"]],
    fetch: ["fetch", ["remote"]],
    merge: ["merge", ["branch"]],
    rebase: ["rebase", ["branch"]],
    show: ["get", ["commit"]],
    "rev-parse": ["get", ["revision"]],
    shortlog: ["list", ["authors"]],
    describe: ["get", ["version"]],
    "ls-files": ["list", ["files"]],
    clone: ["clone", ["repo"]],
    reset: ["reset", ["changes"]],
    restore: ["restore", ["files"]],
  }),
);

/** File extensions and the words a person uses for them. */
const EXTENSIONS: Record<string, string> = {
  ts: "typescript",
  js: "javascript",
  py: "python",
  md: "markdown",
  yml: "yaml",
  rb: "ruby",
  rs: "rust",
  sh: "shell",
  txt: "text",
  jpg: "jpeg",
  htm: "html",
};

const COMMAND_RE = /\b(?:command|cmd)\s*:\s*(['"`])([^'"`]*)\1/g;

export function codeEvidence(code: string, tools: readonly string[]): CodeEvidence {
  const e: CodeEvidence = { verbs: new Set(), toolVerbs: new Set(), objects: new Set(), formats: new Set(), programs: new Set(), stems: new Set() };
  for (const t of tools) {
    const [verb, ...rest] = (t.split(":")[1] ?? "").toLowerCase().split(/[_-]/);
    const v = canonicalVerb(verb ?? "");
    if (v) e.verbs.add(v), e.toolVerbs.add(v);
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
      const known = GIT_SUBCOMMANDS.get(argv[1]);
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
      const known = GIT_SUBCOMMANDS.get(g[1]!);
      if (known) e.verbs.add(known[0]), known[1].forEach((o) => e.objects.add(singular(o)));
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

/** What of a capability's code its labels read (code-match.ts): this far, as substitution.ts bounds
 * a text. Code is written by the agent, possibly from a hostile prompt: a longer body is not read. */
export const CODE_CHARS = 2000;

/** JavaScript's plumbing: words every body says and no request asks for. */
const PLUMBING = new Set(
  (
    "await async function return const let var args mcp then catch length map filter trim split slice splice push call apply bind " +
    "string number boolean object array from for each of new this value values index item items result results data text true false null undefined"
  ).split(" "),
);

/** What a call does, said in words, where its name does not say it or says it for a programmer:
 * `c[c.length - 1]` takes the last, `/[A-Z]/` matches upper case letters. `true`: the words say a
 * direction the call takes whatever it is used for (a body that decodes does not encode); the others
 * say what a call may also be used for (`.toLowerCase()` ignores case as often as it lowers it,
 * `.at(-1)` may only look at a trailing line). */
const IDIOMS: [RegExp, string, boolean][] = [
  [/\bencodeURI(?:Component)?\b/, "encode url percent", true],
  [/\bdecodeURI(?:Component)?\b/, "decode url percent", true],
  [/\bbtoa\b/, "encode base64", true],
  [/\batob\b/, "decode base64", true],
  // In a regular expression that does not ignore case (`/[a-z]/gi` matches every letter).
  [/\/[^/\n]*\[A-Z\][^/\n]*\/(?![a-z]*i)/, "uppercase upper capital", true],
  [/\/[^/\n]*\[a-z\][^/\n]*\/(?![a-z]*i)/, "lowercase lower", true],
  [/\.padStart\b/, "pad left", true],
  [/\.padEnd\b/, "pad right", true],
  [/\.toUpperCase\b/, "uppercase upper capital", false],
  [/\.toLowerCase\b/, "lowercase lower", false],
  [/\.at\(\s*-1\s*\)|\[\s*[\w$.]+\.length\s*-\s*1\s*\]|\.pop\(\s*\)/, "last", false],
  [/\.shift\(\s*\)|\w\[0\]/, "first", false],
  [/\bMath\.max\b/, "max largest maximum", true],
  [/\bMath\.min\b/, "min smallest minimum", true],
];

/** What a body says it does, over its first CODE_CHARS characters: the words of what it calls
 * (`decodeURIComponent` -> decode uri component, `.sort(` -> sort) and of its idioms, lowercase and
 * unstemmed, plumbing left out; and `sides`, the words of the directions it takes (IDIOMS). */
export function codeWords(code: string): { words: Set<string>; sides: Set<string> } {
  const body = code.length > CODE_CHARS ? code.slice(0, CODE_CHARS) : code;
  const words = new Set<string>();
  const sides = new Set<string>();
  for (const m of body.matchAll(/([A-Za-z_$][\w$]*)\s*\(/g)) {
    const split = m[1]!.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
    for (const w of split.toLowerCase().split(/[^a-z0-9]+/)) if (w.length > 1 && !PLUMBING.has(w)) words.add(w);
  }
  for (const [re, said, direction] of IDIOMS) {
    if (!re.test(body)) continue;
    for (const w of said.split(" ")) words.add(w), direction && sides.add(w);
  }
  return { words, sides };
}
