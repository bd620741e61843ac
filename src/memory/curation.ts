// Proposing names for capabilities, offline: the namespace from the tools a capability uses (and
// git commands in its code), the action and target from its intent (else from its code). The
// confidence is tools match (0.3) + intent clarity (0.3) + pattern compliance (0.4).
import { routeTool } from "../routing/route.ts";
import { checkName, STANDARD_NAMESPACES, type CapName } from "./names.ts";

export interface CurationInput {
  id: string;
  currentName: string;
  intent: string;
  description: string;
  code: string;
  tools_used: string[];
}

export interface Suggestion {
  id: string;
  currentName: string;
  suggestedName: string;
  confidence: number;
  reasoning: string;
}

const VERB_SYNONYMS: Record<string, string> = {
  read: "read", load: "read", open: "read", view: "read", cat: "read",
  write: "write", save: "write", store: "write", persist: "write", dump: "export",
  list: "list", enumerate: "list", show: "show", print: "show", display: "show",
  find: "find", locate: "find", search: "search", grep: "search", look: "find", collect: "find", gather: "find",
  count: "count", tally: "count", measure: "measure", compute: "compute", calculate: "compute",
  copy: "copy", duplicate: "copy", clone: "copy", backup: "backup", move: "move", rename: "rename",
  delete: "delete", remove: "delete", erase: "delete", drop: "delete", prune: "delete", clean: "clean",
  create: "create", make: "create", add: "add", generate: "generate", build: "build", scaffold: "generate",
  update: "update", edit: "update", modify: "update", change: "update", replace: "replace", bump: "bump",
  parse: "parse", decode: "parse", convert: "convert", transform: "convert", turn: "convert", format: "format", prettify: "format",
  validate: "validate", check: "check", verify: "check", test: "test", lint: "lint",
  fetch: "fetch", get: "get", retrieve: "fetch", download: "download", upload: "upload", request: "fetch",
  send: "send", post: "post", notify: "notify", publish: "publish",
  summarize: "summarize", summarise: "summarize", translate: "translate", classify: "classify", label: "classify",
  extract: "extract", pull: "pull", push: "push", draft: "draft", explain: "explain", describe: "describe",
  merge: "merge", split: "split", sort: "sort", filter: "filter", group: "group", dedupe: "dedupe", flatten: "flatten",
  hash: "hash", compress: "compress", archive: "archive", export: "export", import: "import", restore: "restore",
  run: "run", execute: "run", kill: "kill", stop: "stop", start: "start", stash: "stash", diff: "diff", compare: "compare",
  install: "install", query: "query", insert: "insert", commit: "commit", append: "append", link: "link", wait: "wait", sleep: "wait",
  normalize: "normalize", normalise: "normalize", slugify: "slugify", render: "render", resize: "resize", watch: "watch",
};

/** Words that say little about what is acted on: used only when nothing better is there. */
const GENERIC = new Set(["file", "files", "data", "content", "contents", "thing", "things", "item", "items", "value", "values", "text", "result", "results", "output", "info", "stuff", "object", "code"]);
const SKIP = new Set(
  ("a an the my your our their its this that these those all each every some any it them there here " +
    "new given one two few several recent latest whole entire local uncommitted please me us").split(" "),
);
/** Where the thing acted on ends: "read a json file and parse it", "count rows in a table". */
const BOUNDARY = new Set(
  "of in for from to with by into onto on as and or before after then so that which who while when if using via at per than listening containing".split(" "),
);
/** Verbs that only say "let me see": names of such views are the thing itself (git:status). */
const WEAK_VERBS = new Set(["show"]);
/** Data formats: "a json file" is json; "convert csv to json" is csv_to_json. */
const FORMATS = new Set(["json", "yaml", "yml", "csv", "toml", "ini", "xml", "html", "markdown", "md", "tsv"]);
/** Properties named as "the X of Y", which names call "Y_X": the size of a file -> file_size. */
const PROPERTIES = new Set(["size", "status", "length", "type", "hash", "owner", "age", "version", "count"]);
const ABBREVIATIONS: Record<string, string> = { temporary: "temp", configuration: "config", repository: "repo", information: "info" };
/** Words a namespace already says (git:create_tag, not git:create_git_tag). */
const NAMESPACE_WORDS: Record<string, string[]> = {
  git: ["git"],
  db: ["database", "db", "sql", "table", "tables"],
  memory: ["knowledge", "graph", "memory"],
  api: ["api"],
  ai: ["model", "llm", "ai"],
  fs: ["filesystem"],
  shell: ["shell", "command"],
};

const GIT_CMD = /\bgit\s+(log|status|diff|commit|push|pull|branch|tag|blame|stash|show|rev-parse|add|checkout|fetch|merge|rebase|shortlog|describe|ls-files)\b/;

/** The namespace and whether the tools (or git commands) said so. */
export function namespaceFor(c: Pick<CurationInput, "tools_used" | "code" | "intent" | "description">): { ns: string; fromTools: boolean; why: string } {
  const toolNs = c.tools_used.map((t) => t.split(":")[0]!.toLowerCase());
  const has = (pred: (ns: string) => boolean) => toolNs.some(pred);
  if (toolNs.includes("git") || (has((n) => n === "shell") && GIT_CMD.test(c.code))) return { ns: "git", fromTools: true, why: "runs git commands" };
  if (has((n) => /^(ai|llm|openai|anthropic|sampling)$/.test(n))) return { ns: "ai", fromTools: true, why: "calls a language model" };
  if (has((n) => /^(sqlite|postgres|postgresql|mysql|mariadb|db|database|redis|mongodb)$/.test(n))) return { ns: "db", fromTools: true, why: "queries a database" };
  if (has((n) => n === "fetch" || n === "http" || (routeTool(n) === "cloud" && n !== "pml"))) return { ns: "api", fromTools: true, why: "calls a web API" };
  if (has((n) => /^(filesystem|server_filesystem|fs)$/.test(n))) return { ns: "fs", fromTools: true, why: "uses filesystem tools" };
  if (has((n) => n === "shell")) return { ns: "shell", fromTools: true, why: "runs shell commands" };
  // Tools of one other server: its own name groups them best (memory:create_entity, github:…).
  const servers = [...new Set(toolNs)];
  if (servers.length === 1 && /^[a-z][a-z0-9_]*$/.test(servers[0]!)) return { ns: servers[0]!, fromTools: true, why: `uses ${servers[0]} tools` };
  // No tools: reshaping data, named by a data format or a reshaping verb ("parse a cron
  // expression" or "format bytes" are utilities, not data formats).
  const text = `${c.intent} ${c.description}`.toLowerCase();
  if (/\b(convert|transform|csv|json|yaml|yml|xml|toml|ini|html|markdown|flatten|slugify|slug|normali[sz]e|dedupe|deduplicate|duplicates?|group|sort|merge|split)\b/.test(text))
    return { ns: "transform", fromTools: false, why: "reshapes data (no tools)" };
  return { ns: "util", fromTools: false, why: c.tools_used.length ? `its tools (${c.tools_used.join(", ")}) map to no standard namespace` : "uses no tools" };
}

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !/^\d+$/.test(w));
}

export interface ActionTarget {
  /** Canonical verb; undefined for a view ("show the git status": git:status) or a conversion. */
  action?: string;
  /** What is acted on, in order: ["json"], ["file", "size"], ["csv", "to", "json"]. */
  target: string[];
  /** The intent opens with a known verb and names what it acts on in a few words, nothing guessed. */
  clear: boolean;
  /** Where the name came from, for the reasoning. */
  source: "intent" | "tools";
  /** The intent's verb, also when the name leaves it out (a view, a conversion). */
  verb?: string;
}

/**
 * Action and target from the intent: the first known verb, then the noun phrase it acts on (up
 * to a preposition or conjunction), without articles, vague adjectives and words the namespace
 * already says. Else the action of the one tool the code calls (memory:read_graph -> read_graph).
 */
export function actionTarget(c: Pick<CurationInput, "intent" | "description" | "tools_used" | "code">, ns: string): ActionTarget {
  const ws = words(c.intent || c.description);
  const at = ws.findIndex((w) => VERB_SYNONYMS[w] !== undefined);
  const verb = at >= 0 ? VERB_SYNONYMS[ws[at]!]! : undefined;
  const redundant = new Set(NAMESPACE_WORDS[ns] ?? []);
  const phrase = (from: number): { words: string[]; end: number } => {
    const out: string[] = [];
    let head: string | undefined;
    let i = from;
    for (; i < ws.length && !BOUNDARY.has(ws[i]!); i++) {
      const w = ws[i]!;
      if (SKIP.has(w)) continue;
      if (redundant.has(w)) head = w;
      else out.push(ABBREVIATIONS[w] ?? w);
    }
    // Only words the namespace says ("export a table"): the last of them is the object.
    return { words: out.length || head === undefined ? out : [head], end: i };
  };
  let target: string[] = [];
  let truncated = false;
  let conversion = false;
  let rest: string[] = [];
  if (verb !== undefined) {
    const obj = phrase(at + 1);
    // Vague words go unless nothing else names the object; "file(s)" stays last ("typescript files").
    const specific = (ws: string[]) => {
      const kept = ws.filter((w) => !GENERIC.has(w) || ((w === "file" || w === "files") && !ws.some((o) => FORMATS.has(o))));
      return kept.length ? kept : ws;
    };
    target = specific(obj.words);
    const prep = ws[obj.end];
    const next = prep !== undefined ? phrase(obj.end + 1) : { words: [], end: obj.end };
    let used = obj.end;
    if (verb === "convert" && prep === "to" && next.words.length) {
      // "convert csv text to json" -> csv_to_json
      target = [...specific(obj.words), "to", ...specific(next.words)];
      conversion = true;
      used = next.end;
    } else if (prep === "of" && target.length === 1 && PROPERTIES.has(target[0]!) && next.words.length) {
      target = [...specific(next.words), target[0]!]; // the size of a file -> file_size
      used = next.end;
    } else if (obj.words.every((w) => GENERIC.has(w)) && next.words.some((w) => FORMATS.has(w))) {
      target = specific(next.words); // write an object to a json file -> write_json
      used = next.end;
    }
    truncated = target.length > (conversion ? 4 : 3);
    target = target.slice(0, conversion ? 4 : 3);
    // What the intent says beyond the object ("post a message to a webhook"): the name may miss it.
    rest = ws.slice(used).filter((w) => !SKIP.has(w) && !BOUNDARY.has(w) && !redundant.has(w) && !GENERIC.has(w));
  }
  const view = verb !== undefined && WEAK_VERBS.has(verb);
  if (verb !== undefined && target.length) {
    const clear = at === 0 && !truncated && !view && !rest.length && target.length <= (conversion ? 3 : 2) && target.every((w) => /^[a-z][a-z0-9]*$/.test(w));
    return { action: view || conversion ? undefined : verb, target, clear, source: "intent", verb };
  }
  // Nothing usable in the intent: the action of the one tool the code calls.
  const tool = c.tools_used.length === 1 ? c.tools_used[0]!.split(":")[1] : undefined;
  if (tool && /^[a-z][a-z0-9_]*$/.test(tool) && !/^(exec|fetch|complete|query)$/.test(tool)) {
    const [toolVerb, ...rest] = tool.split("_");
    return { action: verb ?? VERB_SYNONYMS[toolVerb!] ?? toolVerb, target: rest, clear: false, source: "tools" };
  }
  return { action: verb, target, clear: false, source: "intent" };
}

/** Whether the verb is what one of the tools used does (reading through read_file is "read"). */
function toolsAgree(action: string | undefined, tools: string[]): boolean {
  if (!action) return false;
  return tools.some((t) => {
    const toolVerb = (t.split(":")[1] ?? "").split("_")[0]!;
    return (VERB_SYNONYMS[toolVerb] ?? toolVerb) === action;
  });
}

/**
 * A name for one capability; `taken` says whether a name is already used (by another record).
 * Confidence = tools match (0.3) + intent clarity (0.3) + pattern compliance (0.4), each earned:
 * a guess (a namespace not from the tools, a verb the tools do not show, an object not named in
 * a few words) stays below the 0.8 that `auto` needs.
 */
export function suggestName(c: CurationInput, taken: (name: CapName) => boolean): Suggestion {
  const ns = namespaceFor(c);
  const at = actionTarget(c, ns.ns);
  const why: string[] = [`namespace ${ns.ns}: ${ns.why}`];
  // Tools whose action says nothing of the task (shell:exec, fetch) cannot disagree with the verb.
  const opaque = c.tools_used.length > 0 && c.tools_used.every((t) => /^(shell|fetch|http|ai|llm|sampling):/.test(t));
  let tools = ns.fromTools ? (opaque || toolsAgree(at.action, c.tools_used) ? 0.3 : 0.15) : c.tools_used.length === 0 && ns.ns !== "util" ? 0.15 : 0.05;
  if (at.source === "tools") tools = Math.min(tools, 0.2);
  const clarity = at.clear ? 0.3 : at.target.length ? 0.1 : 0;
  const parts = [...(at.action ? [at.action] : []), ...at.target];
  if (!at.target.length) parts.push("task");
  // Names are action_target: a one-word view keeps its verb ("show the git status": git:show_status).
  if (parts.length < 2) parts.unshift(at.verb ?? "run");
  why.push(
    at.source === "tools"
      ? `named after the tool it calls (${c.tools_used[0]})`
      : at.target.length
        ? `${at.action ? `action "${at.action}", ` : ""}target "${at.target.join(" ")}" from the intent`
        : "the intent names no action: a placeholder",
  );
  if (!at.clear) why.push("the intent does not say plainly, in a few words, what it does (lower confidence)");
  let name: CapName = { namespace: ns.ns, action: parts.join("_").slice(0, 48).replace(/_+$/, "") };
  let compliance = at.target.length ? 0.4 : 0.2;
  if (taken(name)) {
    const extra = words(`${c.intent} ${c.description}`).filter((w) => !SKIP.has(w) && !BOUNDARY.has(w) && !name.action.split("_").includes(w));
    const variants = [...extra.map((w) => `${name.action}_${w}`), ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${name.action}_v${n}`)];
    const free = variants.find((v) => !taken({ namespace: ns.ns, action: v }));
    why.push(`${ns.ns}:${name.action} is taken, so a variant`);
    name = { namespace: ns.ns, action: free ?? `${name.action}_${c.id.slice(0, 6).replace(/[^a-z0-9]/g, "x")}` };
    compliance -= 0.25; // a variant is a guess at what tells it apart: never applied by auto alone
  }
  const checked = checkName(`${name.namespace}:${name.action}`);
  if (!checked.ok) compliance = 0;
  else if (!(STANDARD_NAMESPACES as readonly string[]).includes(name.namespace)) compliance = Math.min(compliance, 0.25);
  const confidence = Math.round(Math.max(0, Math.min(1, tools + clarity + compliance)) * 100) / 100;
  return { id: c.id, currentName: c.currentName, suggestedName: `${name.namespace}:${name.action}`, confidence, reasoning: `${why.join("; ")}.` };
}
