// The answer to `discover {query}` as the agent reads it: one line per result with the tool to
// call, the first sentence of its description and its parameters in one short line, so ten results
// stay under 4 KB whatever the descriptions and schemas hold (the whole answer is context the agent
// pays for, on every request). What the tool name says is not said again: `cap__fs__read_json` is
// the capability fs:read_json, `memory__read_graph` the tool memory:read_graph (idOfTool), so `id`
// and `kind` appear only when they say more. A tool's description is cut shorter than a
// capability's: tools' are long, written for a tool list, and the tool name carries most of it.
// `schemas: true` gives each result's full input schema instead.
import { parseToolName, wireName } from "../../../mcp/tool-names.ts";
import { CAP_NS, parseCallName } from "../../../memory/names.ts";
import type { CallToolResult } from "../../../mcp/types.ts";
import { textResult } from "../../../mcp/tool-result.ts";
import { visibleName } from "../../../visible-text.ts";
import type { MetaDeps } from "./context.ts";
import { toolSchemas } from "./discover-tools.ts";

/** A ranked result as discoverQuery gives it (local tools and capabilities, team capabilities). */
export interface RankedResult {
  id: string;
  kind: string;
  description?: string;
  tool?: string;
}

export interface RankedAnswer {
  query: string;
  results: readonly RankedResult[];
  /** Each result's key in memory's index (Memory.discover's keys, in the same order). */
  keys: readonly string[];
}

/** The answer's budget in bytes, and how short a description and a parameters line are cut, the
 * first cut that fits (long descriptions and schemas everywhere need the later ones). */
const ANSWER_MAX = 4000;
const CUTS: ReadonlyArray<{ description: number; toolDescription: number; params: number }> = [
  { description: 110, toolDescription: 48, params: 150 },
  { description: 90, toolDescription: 45, params: 100 },
  { description: 70, toolDescription: 40, params: 60 },
  { description: 50, toolDescription: 30, params: 30 },
];
/** A field beyond those shaped here (a team capability's org, why a result ranked) is kept when
 * this short; a long one is left out. */
const EXTRA_MAX = 80;
/** Replaced here, or too long to keep in a one-line result. */
const SHAPED = new Set(["id", "kind", "description", "tool", "uses", "inputSchema", "learned", "deprecated"]);
/** Why past use lifted a result ("found before by: …") is always kept, cut to this. */
const LEARNED_MAX = 120;

export async function discoverAnswer(deps: Pick<MetaDeps, "backends" | "memory">, answer: RankedAnswer, opts: { schemas?: boolean } = {}): Promise<CallToolResult> {
  const schemas = await inputSchemas(deps, answer);
  // The query is not echoed: the agent wrote it, it is in its context already.
  const { query: _query, results: _ranked, keys: _keys, ...rest } = answer;
  let text = "";
  for (const cut of opts.schemas ? [CUTS[0]!] : CUTS) {
    const results = answer.results.map((r) => shapeResult(r, schemas.get(r.id), opts.schemas === true, cut));
    text = answerText(results, rest);
    if (Buffer.byteLength(text) <= ANSWER_MAX) break;
  }
  return textResult(text);
}

export function shapeResult(r: RankedResult, schema: Record<string, unknown> | undefined, full: boolean, cut = CUTS[0]!): Record<string, unknown> {
  const tool = toolName(r);
  const says = tool === undefined ? undefined : idOfTool(tool);
  const out: Record<string, unknown> = tool === undefined ? {} : { tool };
  if (says?.id !== r.id) out.id = r.id;
  if (says?.kind !== r.kind) out.kind = r.kind;
  out.description = firstSentence(r.description ?? "", r.kind === "tool" ? cut.toolDescription : cut.description);
  if (schema) out[full ? "inputSchema" : "params"] = full ? schema : keptParamsLine(schema, cut.params);
  const learned = (r as { learned?: unknown }).learned;
  if (typeof learned === "string") out.learned = learned.length <= LEARNED_MAX ? learned : `${learned.slice(0, LEARNED_MAX - 1)}…`;
  // A deprecated capability always says so (and what to use instead), however short the cut.
  const deprecated = (r as { deprecated?: unknown }).deprecated;
  if (typeof deprecated === "string") out.deprecated = deprecated.length <= LEARNED_MAX ? deprecated : `${deprecated.slice(0, LEARNED_MAX - 1)}…`;
  for (const [k, v] of Object.entries(r as object)) if (!SHAPED.has(k) && v !== undefined && (full || JSON.stringify(v).length <= EXTRA_MAX)) out[k] = v;
  // A `match` in words says what the score says in a number: one of them is enough in one line.
  if (!full && typeof out.match === "string") delete out.score;
  return out;
}

/** What a tool name says of the result: `cap__fs__read_json` is the capability fs:read_json,
 * `memory__read_graph` the tool memory:read_graph. What readers of the answer derive `id` and
 * `kind` from when the answer leaves them out. */
export function idOfTool(tool: string): { id: string; kind: "capability" | "tool" } | undefined {
  const t = parseToolName(tool);
  if (!t) return undefined;
  return t.ns === CAP_NS ? { id: t.action, kind: "capability" } : { id: `${t.ns}:${t.action}`, kind: "tool" };
}

/** The name a client calls: a capability's or a tool's wire name (`call` takes it too); none for
 * another org's team capability, offered by its FQDN only (it runs only when called by it). */
function toolName(r: RankedResult): string | undefined {
  if (r.tool) return r.tool;
  if (r.kind === "team capability") return undefined;
  if (r.kind === "capability") return parseCallName(r.id) ? `cap__${r.id.replace(":", "__")}` : undefined;
  const id = parseToolName(r.id);
  if (!id) return r.id;
  const wire = wireName(id.ns, id.action);
  // A name too long for the wire form gets a hash tail that only tools/list maps back: the id then.
  const back = parseToolName(wire);
  return back && back.ns === id.ns && back.action === id.action ? wire : r.id;
}

const SENTENCE_END = /(?<=[.!?])\s|\n/;

/** The description's first sentence, capped. */
export function firstSentence(text: string, max = CUTS[0]!.description): string {
  const all = text.trim();
  // Up to the first end only: a tool's description can be pages long.
  const end = SENTENCE_END.exec(all);
  const one = (end ? all.slice(0, end.index) : all).trim();
  if (one.length <= max) return one;
  // At a word's end when one is near: "existing entities…", not "existing entities in th…".
  const cut = one.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd().replace(/[,;:]$/, "")}…`;
}

/** paramsLine of a schema, made once per schema object and length: the same tools and capabilities
 * come back answer after answer, with the same schema objects (a tool's, the one memory keeps for a
 * record until it changes: Memory.parametersOf). */
function keptParamsLine(schema: Record<string, unknown>, max: number): string {
  let lines = paramsLines.get(schema);
  if (!lines) paramsLines.set(schema, (lines = new Map()));
  let line = lines.get(max);
  if (line === undefined) lines.set(max, (line = paramsLine(schema, max)));
  return line;
}
const paramsLines = new WeakMap<Record<string, unknown>, Map<number, string>>();

/** `path: string, limit?: integer, mode?: 'a'|'b'`: names with types, "?" after optional ones
 * (single quotes: a double quote costs a backslash in JSON). */
export function paramsLine(schema: Record<string, unknown>, max = CUTS[0]!.params): string {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  // Required ones first: when the line is cut, what is left out can be left out of a call too.
  const names = Object.keys(props).sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  if (!names.length) return "none";
  const parts: string[] = [];
  let length = 0;
  for (const [i, name] of names.entries()) {
    const part = `${name}${required.has(name) ? "" : "?"}: ${typeOf(props[name] ?? {})}`;
    if (length + part.length > max && i > 0) {
      parts.push(`+${names.length - i} more`);
      break;
    }
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join(", ");
}

function typeOf(s: Record<string, unknown>, depth = 0): string {
  if (Array.isArray(s.enum)) {
    const values = s.enum.map((e) => (typeof e === "string" ? `'${e}'` : JSON.stringify(e)));
    const line = values.join("|");
    return line.length <= 40 ? line : `${values.slice(0, 3).join("|")}|…`;
  }
  if ("const" in s) return JSON.stringify(s.const);
  const union = (s.anyOf ?? s.oneOf) as Record<string, unknown>[] | undefined;
  if (Array.isArray(union) && depth < 2) return [...new Set(union.map((u) => typeOf(u, depth + 1)))].join("|");
  const type = s.type;
  if (Array.isArray(type)) return type.join("|");
  if (type === "array") return depth < 2 && s.items && typeof s.items === "object" ? `${typeOf(s.items as Record<string, unknown>, depth + 1)}[]` : "array";
  return typeof type === "string" ? type : "any";
}

/** Input schemas of the results: tools from what pml knows of them, capabilities from the store
 * by the record ranked, all in one read (a resolve per result, by name, was a third of what the
 * answer cost after ranking: bench/discover-e2e.ts); a team capability's is not known here: none. */
async function inputSchemas(deps: Pick<MetaDeps, "backends" | "memory">, answer: RankedAnswer): Promise<Map<string, Record<string, unknown>>> {
  const tools = toolSchemas(deps.backends);
  const caps = answer.results.some((r) => r.kind === "capability") ? await deps.memory.parametersOf(answer.keys).catch(() => new Map()) : new Map();
  const out = new Map<string, Record<string, unknown>>();
  answer.results.forEach((r, i) => {
    const schema = r.kind === "tool" ? tools.get(r.id) : r.kind === "capability" ? caps.get(answer.keys[i]) : undefined;
    if (schema) out.set(r.id, schema);
  });
  return out;
}

/** One line per result: `tool(params) — description [match]`, the match only when it is strong or fair
 * (a weak one is only the nearest found: saying so on every line cost 7 bytes a result, and told an
 * agent to pass over results it should read), then what else it says as
 * `; key: value` (`id` and `kind` when the tool name does not say them, `learned`, `deprecated`, a team
 * capability's origin); with `schemas: true` its input schema on the next line. Plain lines, not JSON:
 * JSON's keys and quotes were a third of the answer, paid on every request (and each quote twice
 * on the wire, escaped inside the result). Notes about the whole answer (a warning, the team
 * registry's state) come first as `key: value`. How to call is in discover's description. */
export function answerText(results: ReadonlyArray<Record<string, unknown>>, notes: Record<string, unknown>): string {
  const head = Object.entries(notes).map(([k, v]) => `${k}: ${oneLine(v)}`);
  const lines = results.map((r) => {
    const { tool, id, params, description, match, inputSchema, ...more } = r;
    // A server names its tools and their parameters as it likes: a name holding a newline or
    // spaces would start a line of its own ("note: ... [strong]"), so it is shown quoted, one line.
    const name = visibleName(String(tool ?? id));
    const extras = Object.entries({ ...(tool !== undefined && id !== undefined ? { id } : {}), ...more }).map(([k, v]) => `; ${k}: ${oneLine(v)}`);
    const marked = match === "strong" || match === "fair" ? ` [${match}]` : "";
    const line = `${name}${params !== undefined ? `(${oneLine(params)})` : ""} — ${plainDescription(description ?? "")}${marked}${extras.join("")}`;
    return inputSchema === undefined ? line : `${line}\n  input: ${JSON.stringify(inputSchema)}`;
  });
  return [...head, ...(lines.length ? lines : ["(no results)"])].join("\n");
}

const oneLine = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v)).replace(/[\r\n]+/g, " ");

/** A description (anyone's words: a team's, a server's) cannot pass for the line's own parts:
 * "; key: " would read as a field, "[strong]" as pml's word that it fits. */
const plainDescription = (d: unknown) =>
  oneLine(d)
    .replace(/; (?=[a-z_]+: )/g, ", ")
    .replace(/\[(strong|fair|weak)\]/gi, "($1)");

/** The description ends where the match or the first `; key: ` field starts (plainDescription). */
const LINE = /^(\S+?)(?:\((.*?)\))? — (.*?)(?: \[(strong|fair)\])?((?:; [a-z_]+: .*)?)$/;

/** discover's answer read back (tests, `pml try`): its notes, and each result as the fields its line
 * says, `id` and `kind` filled in from the tool name when the line leaves them out. */
export function readAnswer(text: string): { results: Array<Record<string, any>> } & Record<string, unknown> {
  const answer: { results: Array<Record<string, any>> } & Record<string, unknown> = { results: [] };
  for (const line of text.split("\n")) {
    const last = answer.results[answer.results.length - 1];
    if (line.startsWith("  input: ")) {
      if (last) last.inputSchema = JSON.parse(line.slice(9));
      continue;
    }
    const m = LINE.exec(line);
    if (!m) {
      const note = /^([a-z_]+): (.*)$/.exec(line);
      if (note) answer[note[1]!] = note[2];
      continue;
    }
    const [, name, params, description, match, extras] = m;
    const says = name!.includes("__") ? idOfTool(name!) : undefined;
    // A name that is no wire name is an id (another org's team capability is called by its FQDN).
    const r: Record<string, any> = says ? { ...says, tool: name, description } : { id: name, description };
    if (params !== undefined) r.params = params;
    r.match = match ?? "weak";
    for (const [, k, v] of extras!.matchAll(/; ([a-z_]+): (.*?)(?=; [a-z_]+: |$)/g)) r[k!] = k === "variants" ? JSON.parse(v!) : v;
    answer.results.push(r);
  }
  return answer;
}
