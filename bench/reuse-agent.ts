// The scripted agent of bench/reuse.ts: it speaks JSON-RPC to a real `pml stdio` and uses only
// what pml returns. discover's answer is read tolerantly (JSON with a results list, or text lines
// naming cap__ tools), so the bench keeps working while discover's ranking and shape change.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { RawPeer, testEnv } from "../test/helpers/pml.ts";
import type { Ask, ReuseTask } from "./reuse-tasks.ts";

/** What an agent's tool calls cost in context: how many, the bytes of their JSON-RPC results (or
 * errors) that came back, and the bytes of the calls it wrote (tool name and arguments). */
export interface Spent {
  calls: number;
  bytes: number;
  sent: number;
}

/** A pml stdio session that counts the tool calls and the bytes of their JSON-RPC results. */
export class Session {
  private readonly peer: RawPeer;
  private id = 1;

  private constructor(peer: RawPeer) {
    this.peer = peer;
  }

  static async open(bin: readonly string[], ws: string, home: string): Promise<Session> {
    const peer = new RawPeer(bin, { cwd: ws, env: testEnv({ PML_WORKSPACE: ws, PML_HOME: home }) });
    await peer.initialize();
    return new Session(peer);
  }

  /** A tools/call, counted in `spent`. */
  async call(name: string, args: Record<string, unknown>, spent: Spent): Promise<any> {
    const id = this.id++;
    this.peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
    const m = await this.peer.next((x) => x.id === id && !("method" in x), 60000);
    spent.calls++;
    spent.sent += Buffer.byteLength(JSON.stringify({ name, arguments: args }));
    spent.bytes += Buffer.byteLength(JSON.stringify(m.result ?? m.error ?? null));
    return m.error ? { isError: true, content: [{ type: "text", text: JSON.stringify(m.error) }] } : m.result;
  }

  /** Bytes of tools/list (all pages): what the client puts in front of the model once per session. */
  async toolListBytes(): Promise<{ tools: number; bytes: number }> {
    let cursor: string | undefined;
    let tools = 0;
    let bytes = 0;
    do {
      const m = await this.peer.request(this.id++, "tools/list", cursor ? { cursor } : {});
      bytes += Buffer.byteLength(JSON.stringify(m.result ?? null));
      tools += m.result?.tools?.length ?? 0;
      cursor = m.result?.nextCursor;
    } while (cursor);
    return { tools, bytes };
  }

  /** What pml said on stderr so far. */
  get stderr(): string {
    return this.peer.stderr;
  }

  async close(): Promise<void> {
    this.peer.close();
    const exited = this.peer.proc.exited;
    const t = setTimeout(() => this.peer.kill(), 5000);
    await exited;
    clearTimeout(t);
  }
}

/** A capability found in discover's answer, as much as the answer says about it. */
export interface Candidate {
  /** Its name (`fs:count_lines`) when given. */
  id?: string;
  /** The tool to call (`cap__fs__count_lines`) when given. */
  tool?: string;
  /** Parameter names, when the answer gives them; `required` among them; their types when it says. */
  params?: { names: string[]; required: string[]; types?: Record<string, string> };
  /** 0-based rank in the answer (tools included). */
  rank: number;
  /** How well pml says it matches the request ("strong", "fair", "weak"), when the answer says. */
  match?: string;
}

/** How well a capability must match to be called: "any" (the policy, "call the best capability
 * result if any": every one in the window, best first) or "fair" (`--match fair`: strong or fair; a weak
 * one is not worth a call, the agent writes the code instead; on these streams pml marks almost every
 * right one weak, so this serves almost nothing yet). One with no `match` is always tried. */
export type MatchPolicy = "label" | "fair" | "any";
export const worthCalling = (c: Candidate, policy: MatchPolicy = "any") => policy === "any" || c.match === undefined || c.match === "strong" || c.match === "fair";

/**
 * The capabilities worth calling, in the order called. "label" (the agent, the default): a
 * [strong] one at once; a [fair] one only when no result of the window (tool or capability) is
 * strong (a strong tool is what the agent then uses: it writes the code); never an unmarked (weak)
 * one. An answer that gives no `match` at all: every capability, as "any".
 */
export function toCall(candidates: readonly Candidate[], labels: readonly string[], window: number, policy: MatchPolicy): Candidate[] {
  const inWindow = candidates.filter((c) => c.rank < window);
  if (policy !== "label") return inWindow.filter((c) => worthCalling(c, policy));
  if (inWindow.every((c) => c.match === undefined)) return inWindow;
  const strong = inWindow.filter((c) => c.match === "strong");
  if (strong.length || labels.slice(0, window).includes("strong")) return strong;
  return inWindow.filter((c) => c.match === "fair");
}

/** The match label of every result line of a text answer (tools too), "weak" when unmarked; none for a JSON answer. */
export function answerLabels(answer: any): string[] {
  const body = resultJson(answer);
  if (typeof body !== "string") return [];
  return body
    .split("\n")
    .filter((l) => l.includes(" — "))
    .map((l) => /\[(strong|fair)\](?:;|$)/.exec(l)?.[1] ?? "weak");
}

const isCapName = (s: unknown) => typeof s === "string" && /^cap(__|:)/.test(s);

/** The JSON value of a tool result: structuredContent, else its text parsed, else the text. */
export function resultJson(r: any): any {
  if (r?.structuredContent !== undefined) return r.structuredContent;
  const text = (r?.content ?? []).map((c: any) => c.text ?? "").join("\n");
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The capabilities in a discover answer, in its order. */
export function capabilityCandidates(answer: any): { candidates: Candidate[]; results: number } {
  const body = resultJson(answer);
  const list = Array.isArray(body) ? body : Array.isArray(body?.results) ? body.results : Array.isArray(body?.matches) ? body.matches : undefined;
  if (!list) return fromText(typeof body === "string" ? body : JSON.stringify(body));
  const candidates: Candidate[] = [];
  list.forEach((r: any, rank: number) => {
    if (typeof r === "string") {
      const m = /\b(cap__[A-Za-z0-9_-]+)(?:\(([^)]*)\))?/.exec(r);
      if (m) candidates.push({ tool: m[1], params: m[2] !== undefined ? paramsOf(m[2]) : undefined, rank });
      return;
    }
    const tool = [r?.tool, r?.name, r?.wire_name, r?.call].find(isCapName);
    const kindSaysCap = typeof r?.kind === "string" && /capab/i.test(r.kind);
    if (!tool && !kindSaysCap && !isCapName(r?.id)) return;
    const id = typeof r?.id === "string" ? r.id.replace(/^cap:/, "") : undefined;
    const match = typeof r?.match === "string" ? r.match : undefined;
    candidates.push({ id, tool, params: paramsOf(r?.parameters ?? r?.params ?? r?.inputSchema ?? r?.input_schema ?? r?.args), rank, ...(match ? { match } : {}) });
  });
  return { candidates, results: list.length };
}

/** An answer that is text, one result per line: the lines naming a cap__ tool. */
function fromText(text: string): { candidates: Candidate[]; results: number } {
  const all = text.split("\n").filter((l) => l.trim());
  // pml's answer: result lines (`tool(params) — …`) after its notes (`key: value`), which are no result.
  const pml = all.some((l) => l.includes(" — "));
  const lines = pml ? all.filter((l) => l.includes(" — ")) : all;
  const candidates: Candidate[] = [];
  lines.forEach((l, rank) => {
    const m = (pml ? /^(cap__[A-Za-z0-9_-]+)(?:\(([^)]*)\))? — / : /\b(cap__[A-Za-z0-9_-]+)(?:\s*\(([^)]*)\))?/).exec(l);
    // pml's lines (`tool(params) — description`) mark a result that fits ([strong], [fair]); an
    // unmarked one is only the nearest found.
    const match = /\[(strong|fair|weak)\]/.exec(l)?.[1] ?? (l.includes(" — ") ? "weak" : undefined);
    if (m) candidates.push({ tool: m[1], params: m[2] !== undefined ? paramsOf(m[2]) : undefined, rank, ...(match ? { match } : {}) });
  });
  return { candidates, results: lines.length };
}

/** Parameter names from whatever shape the answer uses: JSON Schema, a list, a map, "a, b?". */
export function paramsOf(p: unknown): Candidate["params"] {
  if (p === undefined || p === null) return undefined;
  if (typeof p === "string") {
    const parts = p
      .replace(/^[\s({[]+|(?:[\s)}]|(?<!\[)\])+$/g, "")
      .split(/[,;]/)
      .map((s) => s.trim())
      .filter(Boolean);
    const names = parts.map((s) => /^[A-Za-z_][\w-]*/.exec(s)?.[0]).filter((x): x is string => !!x);
    const required = parts
      .filter((s) => !/\?|optional|=/.test(s))
      .map((s) => /^[A-Za-z_][\w-]*/.exec(s)?.[0])
      .filter((x): x is string => !!x);
    // `path: string, n?: integer`: what pml's one-line parameters say of each.
    const types = Object.fromEntries(parts.map((s) => /^([A-Za-z_][\w-]*)\??:\s*(.+)$/.exec(s)).flatMap((m) => (m ? [[m[1]!, m[2]!.trim()]] : [])));
    return { names, required, ...(Object.keys(types).length ? { types } : {}) };
  }
  if (Array.isArray(p)) {
    const names = p.map((x) => (typeof x === "string" ? x.replace(/\?$/, "") : x?.name)).filter((x): x is string => typeof x === "string");
    const required = p
      .filter((x) => (typeof x === "string" ? !x.endsWith("?") : x?.required !== false && x?.optional !== true))
      .map((x) => (typeof x === "string" ? x : x?.name))
      .filter((x): x is string => typeof x === "string");
    return { names, required };
  }
  if (typeof p === "object") {
    const o = p as Record<string, any>;
    if (o.properties && typeof o.properties === "object") {
      const names = Object.keys(o.properties);
      const types = Object.fromEntries(names.flatMap((n) => (typeof o.properties[n]?.type === "string" ? [[n, o.properties[n].type as string]] : [])));
      return { names, required: Array.isArray(o.required) ? o.required.filter((x: unknown) => typeof x === "string") : [], types };
    }
    const names = Object.keys(o);
    return { names, required: names.filter((k) => !(typeof o[k] === "string" && o[k].endsWith("?")) && o[k]?.required !== false) };
  }
  return undefined;
}

/**
 * The task's inputs under a capability's parameter names: by name, or the one input left for the
 * one required parameter left. Undefined when the signature does not fit (a parameter it needs
 * that the task has no input for, or an input it would ignore): the agent does not call it.
 * No parameters in the answer: the inputs as they are.
 */
export function mapInputs(params: Candidate["params"], inputs: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!params) return { ...inputs };
  const out: Record<string, unknown> = {};
  const unused = new Set(Object.keys(inputs));
  for (const n of params.names)
    if (n in inputs) {
      out[n] = inputs[n];
      unused.delete(n);
    }
  const missing = params.required.filter((n) => !(n in out));
  if (missing.length === 1 && unused.size === 1) {
    const [k] = unused;
    out[missing[0]!] = inputs[k!];
    unused.clear();
    missing.length = 0;
  }
  if (missing.length || unused.size) return undefined;
  // An input of another type than the parameter says (221 for `path: string`) is not passed: an agent reads the types too.
  return Object.entries(out).every(([k, v]) => fits(v, params.types?.[k])) ? out : undefined;
}

/** Whether `v` is of the type a parameters line or schema gives (`string`, `integer`, `string[]`, `'a'|'b'`, unions). */
export function fits(v: unknown, type: string | undefined): boolean {
  if (!type) return true;
  return type.split("|").some((t) => {
    t = t.trim();
    if (/^'.*'$/.test(t)) return v === t.slice(1, -1);
    if (t.endsWith("[]") || t === "array") return Array.isArray(v);
    if (t === "integer") return Number.isInteger(v);
    if (t === "number" || t === "string" || t === "boolean") return typeof v === t;
    if (t === "object") return !!v && typeof v === "object" && !Array.isArray(v);
    if (t === "null") return v === null;
    return true; // any, or a type this agent does not know: let pml judge
  });
}

/** What the critic says of an answer. */
export type Verdict = "right" | "wrong" | "error";

/** The critic (as in Voyager): the task's expected value for these inputs, and the files it leaves. */
export function judge(task: ReuseTask, ask: Ask, r: any, ws: string): Verdict {
  if (!r || r.isError) return "error";
  const body = resultJson(r);
  const value = body && typeof body === "object" && "result" in body ? body.result : body;
  if (!same(value, task.expect(ask))) return "wrong";
  for (const [p, content] of Object.entries(task.leaves?.(ask) ?? {})) {
    const at = join(ws, p);
    if (!existsSync(at) || readFileSync(at, "utf8") !== content) return "wrong";
  }
  return "right";
}

export function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return same(ka, kb) && ka.every((k) => same((a as any)[k], (b as any)[k]));
  }
  return a === b;
}

/** The files an ask starts from, (re)written before each try so that an earlier wrong reuse cannot
 * taint it; the files a right answer leaves are removed, so that only this try can make them. */
export function resetInputs(ws: string, task: ReuseTask, ask: Ask): void {
  for (const p of Object.keys(task.leaves?.(ask) ?? {})) if (!(p in (ask.files ?? {}))) rmSync(join(ws, p), { force: true });
  for (const [p, content] of Object.entries(ask.files ?? {})) {
    mkdirSync(dirname(join(ws, p)), { recursive: true });
    writeFileSync(join(ws, p), content);
  }
}
