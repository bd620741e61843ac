// Proposing names for capabilities, offline. The namespace comes from the tools a capability uses
// (and the git commands in its code); the action and target from its intent, read as a request
// (src/memory/curation-words.ts), checked against its code. The confidence is
//   tools match (0.3): the namespace is backed by the tools used, times how far the code backs
//     the verb and the target;
//   intent clarity (0.3): the intent has one verb saying what is done and a specific object;
//   pattern compliance (0.4): the name follows the conventions and is no variant of a taken name.
// A name built from a fallback (no verb, a generic object, no tools behind the namespace, a
// variant) stays at or below AUTO_THRESHOLD: a plain reading scores above it (what a suggestion calls
// confident; `auto` applies only names a language model confirmed, see gateway/tools/curate.ts).
import { routeTool } from "../routing/route.ts";
import { backedByCode, codeEvidence, GIT_SUBCOMMANDS, type CodeEvidence } from "./code-evidence.ts";
import { FORMATS, GENERIC_OBJECTS, isWeakVerb, singular, words } from "./curation-words.ts";
import { readIntent, type IntentReading } from "./intent-reading.ts";
import { checkName, RESERVED_NAMESPACES, STANDARD_NAMESPACES, type CapName } from "./names.ts";

/** `auto` applies suggestions above this confidence. */
export const AUTO_THRESHOLD = 0.8;

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

const FS_SERVERS = new Set(["filesystem", "server_filesystem", "fs", "file", "files"]);
const SHELL_SERVERS = new Set(["shell", "bash", "terminal", "exec", "process"]);
const AI_SERVERS = /^(ai|llm|openai|anthropic|sampling|ollama|gemini)$/;
const DB_SERVERS = /^(sqlite|postgres|postgresql|mysql|mariadb|db|database|redis|mongodb|supabase)$/;
/** The order a capability mixing tools is named by: a model doing the work first (its input is
 * only material), then the source of the data before its sinks (db -> file is db). */
const PRIORITY = ["ai", "git", "db", "api", "fs", "shell"];
/** Verbs that reshape data: without tools, such a capability belongs in `transform`. */
const TRANSFORM_VERBS = new Set(["convert", "sort", "filter", "group", "dedupe", "flatten", "split", "join", "merge", "normalize", "slugify"]);
const FORMAT_VERBS = new Set(["parse", "format", "encode", "render", "extract", "validate"]);

/** The namespace one tool points to: fs, shell (git when the code runs git), api…, or its own server's name. */
function toolNamespace(tool: string, runsGit: boolean): string | undefined {
  const server = tool.split(":")[0]!.toLowerCase().replace(/-/g, "_");
  if (server === "git") return "git";
  if (SHELL_SERVERS.has(server)) return runsGit ? "git" : "shell";
  if (FS_SERVERS.has(server)) return "fs";
  if (AI_SERVERS.test(server)) return "ai";
  if (DB_SERVERS.test(server)) return "db";
  if (server === "fetch" || server === "http" || (routeTool(server) === "cloud" && server !== "pml")) return "api";
  if (/^[a-z][a-z0-9]*$/.test(server) && !(RESERVED_NAMESPACES as readonly string[]).includes(server)) return server;
  return undefined;
}

interface NamespaceChoice {
  ns: string;
  /** 0..1: how far the tools used back it (1: every tool points there; 0: no tool does). */
  backing: number;
  why: string;
  /** A server's own name, not a standard namespace: the capability wraps that server's tools. */
  own: boolean;
}

/** The namespace and how far the tools used back it. */
export function namespaceFor(c: Pick<CurationInput, "tools_used" | "code">, reading: IntentReading, e: CodeEvidence): NamespaceChoice {
  const runsGit = e.programs.has("git");
  const per = c.tools_used.map((t) => toolNamespace(t, runsGit));
  const known = per.filter((n): n is string => n !== undefined);
  if (known.length) {
    const ranked = [...new Set(known)].sort((a, b) => rank(a) - rank(b));
    const ns = ranked[0]!;
    const share = known.filter((n) => n === ns).length / c.tools_used.length;
    const own = !(STANDARD_NAMESPACES as readonly string[]).includes(ns);
    const why = ns === "git" ? "runs git commands" : own ? `uses the ${ns} server's tools` : WHY[ns]!;
    return { ns, backing: ranked.length === 1 ? share : share / 2, why: ranked.length > 1 ? `${why} (also ${ranked.slice(1).join(", ")}: a mixed capability)` : why, own };
  }
  if (c.tools_used.length) return { ns: "util", backing: 0, why: `its tools (${c.tools_used.join(", ")}) map to no namespace`, own: false };
  // Pure code: that it calls no tool backs transform/util only part-way (transform and util are
  // easily confused), a little more when the verb says it reshapes data.
  const pure = !/\bmcp\s*\./.test(c.code);
  const v = reading.verb ?? "";
  const formats = reading.target.some((w) => FORMATS.has(w)) || e.formats.size > 0;
  if (TRANSFORM_VERBS.has(v) || reading.targetFrom === "conversion" || (FORMAT_VERBS.has(v) && formats))
    return {
      ns: "transform",
      backing: pure ? 0.5 : 0,
      why: reading.targetFrom === "conversion" ? "uses no tools and converts data" : `uses no tools, and "${v}" reshapes data`,
      own: false,
    };
  return { ns: "util", backing: pure ? 0.25 : 0, why: "uses no tools", own: false };
}
const rank = (ns: string) => (PRIORITY.includes(ns) ? PRIORITY.indexOf(ns) : PRIORITY.length);
const WHY: Record<string, string> = {
  fs: "uses filesystem tools",
  shell: "runs shell commands",
  ai: "calls a language model",
  db: "queries a database",
  api: "calls a web API",
};

interface Draft {
  action: string;
  target: string[];
  /** Whether the intent gave the verb / the object (else the code did, or nothing). */
  verbFromIntent: boolean;
  targetFromIntent: boolean;
  /** The name is the object alone ("current_branch"), the intent only asking to see it. */
  nounOnly: boolean;
  notes: string[];
}

function draft(reading: IntentReading, e: CodeEvidence, ns: NamespaceChoice, tools: readonly string[]): Draft {
  const notes: string[] = [];
  // A capability wrapping one tool of a server with no standard namespace is named after that tool.
  const ownTools = ns.own ? [...new Set(tools.filter((t) => t.split(":")[0]!.toLowerCase() === ns.ns))] : [];
  if (ownTools.length === 1) {
    const parts = ownTools[0]!.split(":")[1]!.toLowerCase().split(/[_-]/).filter(Boolean);
    if (parts.length >= 2) {
      const target = parts.slice(1);
      if (reading.singularObject) target[target.length - 1] = singular(target.at(-1)!);
      notes.push(`named after the tool ${ownTools[0]} it wraps`);
      return { action: parts[0]!, target, verbFromIntent: reading.verb === parts[0], targetFromIntent: false, nounOnly: false, notes };
    }
  }
  let target = reading.target;
  let targetFromIntent = target.length > 0;
  const generic = target.length > 0 && target.every((w) => GENERIC_OBJECTS.has(w));
  const git = e.gitCommand ? GIT_SUBCOMMANDS.get(e.gitCommand) : undefined;
  const toolObject = [...e.objects].find((o) => !GENERIC_OBJECTS.has(o));
  if (!target.length || generic) {
    // "read a file" that parses JSON -> json; "list the files" with list_directory -> directory.
    const better = e.formats.size === 1 ? [...e.formats] : git ? git[1] : toolObject ? [toolObject] : undefined;
    if (better) {
      notes.push(`target "${better.join(" ")}" from the code${generic ? ` (the intent says only "${target.join(" ")}")` : ""}`);
      target = better;
      targetFromIntent = false;
    }
  }
  // "convert csv text to json" -> csv_to_json: the conversion names itself.
  if (reading.targetFrom === "conversion") return { action: "", target, verbFromIntent: true, targetFromIntent, nounOnly: true, notes };
  let action = reading.verbKind === "content" ? reading.verb : undefined;
  let verbFromIntent: boolean = action !== undefined;
  // "open" a file, an issue or a page: the tool it calls says which (read_file, create_issue).
  if (action === "open") {
    const toolVerb = [...e.toolVerbs].find((v) => !isWeakVerb(v));
    if (toolVerb) {
      action = toolVerb;
      notes.push(`"open" read as "${toolVerb}", the verb of its tool`);
    }
  }
  if ((reading.verbKind === "request" || reading.verbKind === "question") && !action) {
    // "show the current git branch" -> current_branch; "show the diff" -> get_diff, "get" being a guess.
    if (target.length >= 2 && targetFromIntent)
      return { action: "", target, verbFromIntent: true, targetFromIntent, nounOnly: true, notes: [...notes, `the intent asks to see "${target.join(" ")}"`] };
    // How it is seen is the code's business: read_file -> read; else "get".
    const codeVerb = [...e.toolVerbs].find((v) => !isWeakVerb(v)) ?? (git?.[0] !== "get" ? git?.[0] : undefined);
    action = codeVerb ?? "get";
    verbFromIntent = false;
    notes.push(codeVerb ? `action "${action}" from the code (the intent asks only to see it)` : `action "${action}" guessed from a request to see something`);
  }
  if (!action) {
    action = git?.[0] ?? [...e.verbs][0];
    verbFromIntent = false;
    if (action) notes.push(`action "${action}" from the code`);
  }
  // Text written by a model is drafted (fs:write_json writes a file; ai:draft_… composes).
  if (ns.ns === "ai" && action === "write") action = "draft";
  // Where the code backs the head noun, adjectives it does not back are decoration or arguments:
  // "list all local branches" over `git branch --list` -> list_branches ("exchange rate" stays:
  // a noun before a noun makes a compound).
  if (targetFromIntent && target.length > 1 && !target.includes("to") && backedByCode(target.at(-1)!, e)) {
    const kept = target.filter((w, k) => k === target.length - 1 || backedByCode(w, e) || !looksAdjective(w));
    if (kept.length < target.length) {
      notes.push(
        `${target
          .filter((w) => !kept.includes(w))
          .map((w) => `"${w}"`)
          .join(", ")} left out (not in the code)`,
      );
      target = kept;
    }
  }
  return { action: action ?? "run", target: target.length ? target : ["task"], verbFromIntent, targetFromIntent, nounOnly: false, notes };
}

/** What the scores of one suggestion read; `why` collects the reasoning in order. */
interface Scoring {
  e: CodeEvidence;
  reading: IntentReading;
  d: Draft;
  conversion: boolean;
  /** The target without the "to" of a conversion. */
  targetWords: string[];
  /** The share of the target words the code backs. */
  backedShare: number;
  why: string[];
}

/** A name for one capability; `taken` says whether a name is already used (by another record). */
export function suggestName(c: CurationInput, taken: (name: CapName) => boolean): Suggestion {
  const e = codeEvidence(c.code, c.tools_used);
  const reading = readIntent(c.intent || c.description, [...e.programs]);
  const ns = namespaceFor(c, reading, e);
  const d = draft(reading, e, ns, c.tools_used);
  const base = d.nounOnly ? d.target.join("_") : `${d.action}_${d.target.join("_")}`;
  const why: string[] = [`namespace ${ns.ns}: ${ns.why}`];
  if (reading.verbKind === "content" && reading.verb) why.push(`action "${reading.verb}" from the intent`);
  else if (reading.verbKind === "request") why.push("the intent only asks to see something");
  else if (reading.verbKind === "question") why.push("the intent is a question");
  else why.push("no verb recognised in the intent");
  if (d.targetFromIntent) why.push(`target "${d.target.join(" ")}" from the intent${reading.targetFrom && reading.targetFrom !== "object" ? ` (${reading.targetFrom})` : ""}`);
  why.push(...d.notes);

  const targetWords = d.target.filter((w) => w !== "to");
  const backedShare = targetWords.length ? targetWords.filter((w) => backedByCode(w, e)).length / targetWords.length : 0;
  const s: Scoring = { e, reading, d, conversion: reading.targetFrom === "conversion", targetWords, backedShare, why };
  const toolsMatch = toolsMatchScore(s, ns);
  const clarity = clarityScore(s);
  const { name, variant } = freeName(c, ns.ns, base, taken, why);
  const compliance = complianceScore(s, name, variant);
  const confidence = Math.round(Math.max(0, Math.min(1, toolsMatch + clarity + compliance)) * 100) / 100;
  why.push(`confidence ${confidence.toFixed(2)} = tools ${toolsMatch.toFixed(2)} + intent ${clarity.toFixed(2)} + pattern ${compliance.toFixed(2)}`);
  return { id: c.id, currentName: c.currentName, suggestedName: `${name.namespace}:${name.action}`, confidence, reasoning: `${why.join("; ")}.` };
}

/** Tools match: the namespace is backed by the tools used, and the code backs the action and target. */
function toolsMatchScore({ e, d, conversion, targetWords, backedShare, why }: Scoring, ns: NamespaceChoice): number {
  const actionBacked = (d.nounOnly && !conversion) || e.verbs.has(d.action) || (d.action === "run" && e.programs.size > 0);
  // A product: a namespace the tools do not back, or a verb or target the code does not show,
  // each discount the whole match.
  const toolsMatch = 0.3 * ns.backing * (actionBacked ? 1 : 0.5) * (0.5 + 0.5 * backedShare);
  if (backedShare < 1 && targetWords.length)
    why.push(
      `${targetWords
        .filter((w) => !backedByCode(w, e))
        .map((w) => `"${w}"`)
        .join(", ")} not seen in the code`,
    );
  return toolsMatch;
}

/**
 * Intent clarity: a verb saying what is done (0.1), a specific object (0.1), and, only when both
 * were found, one reading of them (0.1): no second verb, nothing cut, a target the code shows.
 * A name that leaves out what the intent said about its object (a complement, a condition, what
 * a later clause asks for) is a guess about what matters: that costs the object part too.
 */
function clarityScore({ reading, d, conversion, targetWords, backedShare, why }: Scoring): number {
  const verbPart = !d.verbFromIntent ? 0 : conversion ? 0.1 : d.nounOnly || reading.verbKind !== "content" || isWeakVerb(d.action) ? 0.05 : 0.1;
  const objectPart = d.targetFromIntent ? (targetWords.every((w) => GENERIC_OBJECTS.has(w)) ? 0.05 : 0.1) : 0;
  const otherVerbs = reading.verbs.filter((v) => v !== d.action && v !== reading.verb);
  let onePart = verbPart > 0 && objectPart > 0 ? 0.1 : 0;
  if (otherVerbs.length) {
    onePart -= 0.05 * Math.min(2, otherVerbs.length);
    why.push(`the intent also says ${otherVerbs.map((v) => `"${v}"`).join(", ")}`);
  }
  let dropped = 0;
  const leftOut = reading.ofComplement.filter((w) => !targetWords.includes(w));
  if (leftOut.length) {
    dropped++;
    why.push(`the name leaves out "of ${leftOut.join(" ")}"`);
  }
  if (reading.truncated) onePart -= 0.05;
  if (reading.condition) {
    dropped++;
    why.push(`the name leaves out the condition "${reading.condition}…"`);
  }
  // A target the code does not show may be an argument rather than the object: two readings.
  if (targetWords.length && !conversion) onePart -= 0.1 * (1 - backedShare);
  // "read the package.json and give me its version": what it hands back may be the point.
  const asked = reading.alsoAsks.filter((w) => !targetWords.includes(w));
  if (asked.length) {
    dropped++;
    why.push(`the intent also asks for "${asked.join(" ")}"`);
  }
  return verbPart + Math.max(0, objectPart - 0.1 * dropped) + Math.max(0, onePart - 0.1 * dropped);
}

/** `ns:base`, or when that is taken a variant of it: a word of the intent the name lacks, else a number. */
function freeName(c: CurationInput, ns: string, base: string, taken: (name: CapName) => boolean, why: string[]): { name: CapName; variant: boolean } {
  const name: CapName = { namespace: ns, action: base };
  if (!taken(name)) return { name, variant: false };
  const used = new Set(base.split("_"));
  const rest = words(c.intent || c.description).filter((w) => /^[a-z][a-z0-9]*$/.test(w) && w.length > 2 && !used.has(w) && !GENERIC_OBJECTS.has(w) && !STOP.has(w) && !isVerb(w));
  const variants = [...new Set(rest)].map((w) => `${base}_${w}`).concat([2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${base}_v${n}`));
  const free = variants.find((v) => checkName(`${ns}:${v}`).ok && !taken({ namespace: ns, action: v }));
  why.push(`${ns}:${base} is taken, so a variant`);
  return { name: { namespace: ns, action: free ?? `${base}_${c.id.slice(0, 6).replace(/[^a-z0-9]/g, "x")}` }, variant: true };
}

/** Pattern compliance: standard namespace, verb first, a short specific target, not a variant. */
function complianceScore({ e, d, conversion, targetWords, backedShare, why }: Scoring, name: CapName, variant: boolean): number {
  const checked = checkName(`${name.namespace}:${name.action}`);
  let compliance = 0;
  if (checked.ok) {
    compliance += checked.warning ? 0.05 : 0.1;
    compliance += conversion ? 0.1 : d.nounOnly ? 0.05 : d.action !== "run" || e.programs.size ? 0.1 : 0.05;
    // A short, specific target: careful names keep one word, or two the code shows.
    const specific = !targetWords.every((w) => GENERIC_OBJECTS.has(w)) && d.target[0] !== "task";
    compliance +=
      !specific || targetWords.length === 0 || targetWords.length > 2
        ? targetWords.length === 3 || (!specific && targetWords.length)
          ? 0.05
          : 0
        : targetWords.length === 1 || conversion || backedShare === 1
          ? 0.1
          : 0.05;
    // A variant: a near-duplicate exists, and its extra word is not of the careful form; it loses
    // what a free name earns and as much again, so it never reaches auto.
    compliance += variant ? -0.1 : 0.1;
  }
  if (!checked.ok) why.push("the name does not fit the format");
  return compliance;
}

const looksAdjective = (w: string) => /(al|ed|ent|ant|ive|ous|ic|able|ible|less|ful|ary)$/.test(w) && w.length > 4;
const STOP = new Set(
  "the and for with from into onto that this these those then them there here what which when where how who all each every some any your our their its about using via per".split(
    " ",
  ),
);
const isVerb = (w: string) => readIntent(w).verbKind === "content";
