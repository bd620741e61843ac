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
  extract: "extract", pull: "extract", draft: "draft", explain: "explain", describe: "describe",
  merge: "merge", split: "split", sort: "sort", filter: "filter", group: "group", dedupe: "dedupe", flatten: "flatten",
  hash: "hash", compress: "compress", archive: "archive", export: "export", import: "import", restore: "restore",
  run: "run", execute: "run", kill: "kill", stop: "stop", start: "start", stash: "stash", diff: "diff", compare: "compare",
  normalize: "normalize", normalise: "normalize", slugify: "slugify", render: "render", resize: "resize", watch: "watch",
};

/** Words that say little about what is acted on: used only when nothing better is there. */
const GENERIC = new Set(["file", "files", "data", "content", "contents", "thing", "things", "item", "items", "value", "values", "text", "result", "results", "output", "info", "stuff", "list"]);
const SKIP = new Set(
  ("a an the and or of to in on for from with by at as is are be it its this that these those into onto my your our their all each every some any " +
    "new next last given one two then them there here up out over via per using other another which what who whom how when where why its").split(" "),
);

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
  const words = `${c.intent} ${c.description}`.toLowerCase();
  if (/\b(convert|parse|format|transform|csv|json|yaml|xml|markdown|flatten|slug|normali[sz]e|dedupe|group)\b/.test(words))
    return { ns: "transform", fromTools: false, why: "transforms data (no tools)" };
  return { ns: "util", fromTools: false, why: c.tools_used.length ? `its tools (${c.tools_used.join(", ")}) map to no standard namespace` : "uses no tools" };
}

function tokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !SKIP.has(w) && !/^\d+$/.test(w));
}

function singular(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) return w.slice(0, -1);
  return w;
}

/** Action (a verb) and target (what it acts on) from the intent, else from the code's tool calls. */
export function actionTarget(c: Pick<CurationInput, "intent" | "description" | "tools_used" | "code">): { action?: string; targets: string[]; fromIntent: { action: boolean; target: boolean } } {
  const ws = tokens(c.intent || c.description);
  let action: string | undefined;
  let at = -1;
  for (let i = 0; i < ws.length; i++) {
    const v = VERB_SYNONYMS[ws[i]!];
    if (v) {
      action = v;
      at = i;
      break;
    }
  }
  const after = ws.slice(at + 1).filter((w) => !VERB_SYNONYMS[w] || w === "test");
  const specific = after.filter((w) => !GENERIC.has(w)).map(singular);
  const generic = after.filter((w) => GENERIC.has(w)).map(singular);
  const fromIntent = { action: action !== undefined, target: specific.length + generic.length > 0 };
  let targets = [...specific, ...generic];
  if (!action || !targets.length) {
    // The code: its first tool call's action (read_file -> read, file).
    for (const t of c.tools_used) {
      const [verb, ...rest] = (t.split(":")[1] ?? "").split(/[_-]/);
      if (!action && verb && VERB_SYNONYMS[verb]) action = VERB_SYNONYMS[verb];
      if (!targets.length && rest.length) targets = rest.map(singular);
      if (action && targets.length) break;
    }
  }
  return { action, targets: [...new Set(targets.filter((t) => /^[a-z][a-z0-9]*$/.test(t)))], fromIntent };
}

/** A name for one capability; `taken` says whether a name is already used (by another record). */
export function suggestName(c: CurationInput, taken: (name: CapName) => boolean): Suggestion {
  const ns = namespaceFor(c);
  const at = actionTarget(c);
  const why: string[] = [`namespace ${ns.ns}: ${ns.why}`];
  let confidence = ns.fromTools ? 0.3 : c.tools_used.length === 0 && ns.ns !== "util" ? 0.2 : 0.1;
  confidence += at.fromIntent.action && at.fromIntent.target ? 0.3 : at.fromIntent.action || at.fromIntent.target ? 0.15 : 0;
  const action = at.action ?? "run";
  const [first, ...more] = at.targets.length ? at.targets : ["task"];
  why.push(at.action ? `action "${action}"${at.fromIntent.action ? " from the intent" : " from its tool calls"}` : 'no verb found: action "run"');
  why.push(at.targets.length ? `target "${first}"${at.fromIntent.target ? " from the intent" : " from its tool calls"}` : 'no target found: "task"');
  let name: CapName = { namespace: ns.ns, action: `${action}_${first}` };
  let compliance = at.action && at.targets.length ? 0.4 : 0.2;
  if (taken(name)) {
    const variants = [...more.map((m) => `${name.action}_${m}`), ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${name.action}_v${n}`)];
    const free = variants.find((v) => !taken({ namespace: ns.ns, action: v }));
    why.push(`${ns.ns}:${name.action} is taken, so a variant`);
    name = { namespace: ns.ns, action: free ?? `${name.action}_${c.id.slice(0, 6).replace(/[^a-z0-9]/g, "x")}` };
    compliance -= 0.15;
  }
  const checked = checkName(`${name.namespace}:${name.action}`);
  if (!checked.ok) compliance = 0;
  else if (!(STANDARD_NAMESPACES as readonly string[]).includes(name.namespace)) compliance = Math.min(compliance, 0.2);
  confidence = Math.round(Math.max(0, Math.min(1, confidence + compliance)) * 100) / 100;
  return { id: c.id, currentName: c.currentName, suggestedName: `${name.namespace}:${name.action}`, confidence, reasoning: `${why.join("; ")}.` };
}
