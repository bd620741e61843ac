// Reuse, measured (issue 24 outcome 6): a scripted agent replays a stream of tasks against the real
// `pml stdio` (dist/pml). Each task comes back 2-5 times in other words with other inputs
// (bench/reuse-tasks.ts; `--tasks heldout`: bench/reuse-tasks-heldout.ts, written before the changes it
// judges). Policy, using only what pml returns: `discover` the request; call the capability results
// among the first --window results, best first, at most --tries of them: those pml marks [strong] at
// once, a [fair] one only when no result of the window is strong, never an unmarked (weak) one
// (`--match fair|any` for the older policies), with the task's inputs mapped onto the
// parameters the answer gives (by name, else the one left over; not when a value is of another type
// than the line says: no agent passes 221 as `path: string`); the critic checks each answer
// against the task's expected output; on a miss or a wrong answer the agent writes the code
// (`execute` with the task's name, intent and canned code, which saves it as a capability).
// Against it, in the same run and on fresh PML_HOMEs, three agents without memory solve the same
// stream. The issue's comparison is "discover, schemas, execute": an agent without memory has to
// find the tools and their inputs each time (discover the request, then the input schemas of the
// namespaces its code calls) before it writes the code. The other two are printed for honesty:
// "execute only" sends the canned code straight to `execute` (an agent that knows the code and the
// tools by heart, the cheapest there is), "discover, execute" asks `discover` and ignores its answer.
// Bytes returned to the agent: the JSON of every tools/call result (or error) it received.
// Run: bun build.ts && bun bench/reuse.ts [--json] [--session day|stream] [--days 5] [--seed 1]
//        [--window 5] [--tries 3] [--match label|fair|any] [--limit N] [--tasks main|heldout|blind|blind2|blind3|blind4|blind5|blind6|blind7|blind8|blind9|blind10|blind11|blind12|blind13|blind14|blind15|blind16|blind17|blind18|blind19|blind20|blind21|blind22|blind23|blind24|blind25|blind26|blind27|blind28|N] [--verbose] [--bin path/to/pml]
//        [--records asks.json] [--provider]
// --provider: with an embeddings provider, the local stand-in bench/embed-server.ts (USE lite, installed
// on demand), named in each workspace's trusted .pml.json (memory.embeddings). Before each of the
// memory agent's discovers the bench waits until the stand-in has answered pml's background batches;
// each new pml session, and each capability saved, is followed by a discover not counted (a session's
// cached vectors are loaded then, a new capability embedded), as when an agent's next request comes
// seconds later.
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { checkName } from "../src/memory/names.ts";
import { tempDir } from "../test/helpers/pml.ts";
import { writeTrustedConfig } from "../test/helpers/trust.ts";
import { startEmbedServer } from "./embed-server.ts";
import {
  type Candidate,
  capabilityCandidates,
  judge,
  mapInputs,
  resetInputs,
  resultJson,
  Session,
  type MatchPolicy,
  type Spent,
  toCall,
  answerLabels,
  type Verdict,
} from "./reuse-agent.ts";
import { type Ask, checkTasks, type ReuseTask, TASKS } from "./reuse-tasks.ts";
import { BLIND_TASKS } from "./reuse-tasks-blind.ts";
import { BLIND_2_TASKS } from "./reuse-tasks-blind-2.ts";
import { BLIND_3_TASKS } from "./reuse-tasks-blind-3.ts";
import { BLIND_4_TASKS } from "./reuse-tasks-blind-4.ts";
import { BLIND_5_TASKS } from "./reuse-tasks-blind-5.ts";
import { BLIND_6_TASKS } from "./reuse-tasks-blind-6.ts";
import { BLIND_7_TASKS } from "./reuse-tasks-blind-7.ts";
import { BLIND_8_TASKS } from "./reuse-tasks-blind-8.ts";
import { BLIND_9_TASKS } from "./reuse-tasks-blind-9.ts";
import { BLIND_10_TASKS } from "./reuse-tasks-blind-10.ts";
import { BLIND_11_TASKS } from "./reuse-tasks-blind-11.ts";
import { BLIND_12_TASKS } from "./reuse-tasks-blind-12.ts";
import { BLIND_13_TASKS } from "./reuse-tasks-blind-13.ts";
import { BLIND_14_TASKS } from "./reuse-tasks-blind-14.ts";
import { BLIND_15_TASKS } from "./reuse-tasks-blind-15.ts";
import { BLIND_16_TASKS } from "./reuse-tasks-blind-16.ts";
import { BLIND_17_TASKS } from "./reuse-tasks-blind-17.ts";
import { BLIND_18_TASKS } from "./reuse-tasks-blind-18.ts";
import { BLIND_19_TASKS } from "./reuse-tasks-blind-19.ts";
import { BLIND_20_TASKS } from "./reuse-tasks-blind-20.ts";
import { BLIND_21_TASKS } from "./reuse-tasks-blind-21.ts";
import { BLIND_22_TASKS } from "./reuse-tasks-blind-22.ts";
import { BLIND_23_TASKS } from "./reuse-tasks-blind-23.ts";
import { BLIND_24_TASKS } from "./reuse-tasks-blind-24.ts";
import { BLIND_25_TASKS } from "./reuse-tasks-blind-25.ts";
import { BLIND_26_TASKS } from "./reuse-tasks-blind-26.ts";
import { BLIND_27_TASKS } from "./reuse-tasks-blind-27.ts";
import { BLIND_28_TASKS } from "./reuse-tasks-blind-28.ts";
import { HELDOUT_TASKS } from "./reuse-tasks-heldout.ts";

export interface ReuseOptions {
  bin: readonly string[];
  /** "day": a new `pml stdio` each day of the stream; "stream": one for the whole stream. */
  session: "day" | "stream";
  days: number;
  seed: number;
  window: number;
  tries: number;
  /** `limit` sent with each discover (default: none, pml's own). */
  limit?: number;
  /** Only the first N tasks of the set (the smoke test). */
  tasks?: number;
  /** Which capabilities are called by the `match` pml gives (default "any": the issue's policy, the
   * best capability results whatever pml says; "fair": only strong or fair ones). */
  match?: MatchPolicy;
  /** Which task stream: "main" (bench/reuse-tasks.ts, default) or "heldout" (bench/reuse-tasks-heldout.ts). */
  set?: TaskSet;
  /** A file to write every ask of the memory run to (JSON: its tries and their verdicts, discover's
   * first results), first occurrences included: what the report counts, one ask at a time. */
  records?: string;
  /** An embeddings provider each workspace's .pml.json names (memory.embeddings), and how to wait
   * for it to have answered pml's background batches. */
  provider?: { url: string; model: string; idle(): Promise<void> };
}

export const TASK_SETS = {
  main: TASKS,
  heldout: HELDOUT_TASKS,
  blind: BLIND_TASKS,
  blind2: BLIND_2_TASKS,
  blind3: BLIND_3_TASKS,
  blind4: BLIND_4_TASKS,
  blind5: BLIND_5_TASKS,
  blind6: BLIND_6_TASKS,
  blind7: BLIND_7_TASKS,
  blind8: BLIND_8_TASKS,
  blind9: BLIND_9_TASKS,
  blind10: BLIND_10_TASKS,
  blind11: BLIND_11_TASKS,
  blind12: BLIND_12_TASKS,
  blind13: BLIND_13_TASKS,
  blind14: BLIND_14_TASKS,
  blind15: BLIND_15_TASKS,
  blind16: BLIND_16_TASKS,
  blind17: BLIND_17_TASKS,
  blind18: BLIND_18_TASKS,
  blind19: BLIND_19_TASKS,
  blind20: BLIND_20_TASKS,
  blind21: BLIND_21_TASKS,
  blind22: BLIND_22_TASKS,
  blind23: BLIND_23_TASKS,
  blind24: BLIND_24_TASKS,
  blind25: BLIND_25_TASKS,
  blind26: BLIND_26_TASKS,
  blind27: BLIND_27_TASKS,
  blind28: BLIND_28_TASKS,
} as const;
/** Streams whose requests are never printed, so that they stay a judge nothing was tuned on.
 * blind5 to blind16 have each judged a change (blind11: the twin rule, not kept; blind12: fair's
 * margin; blind13 and blind14: a past request turned around lifts nothing, and blind15 judged that
 * rule again, fresh; blind16: the thesaurus's blind extension; all 2026-12-07): retired, they print
 * with --verbose. blind17 to blind20 (written blind on 2026-12-07 and 08) had the evidence of their
 * wrong strong calls read to choose a change (2026-12-08): retired too. blind21 and blind22 judged
 * 2a4bcb8, and their wrong strong calls were read (2026-12-08): retired. blind23 and blind24 judged
 * 2a4bcb8 and 46e8fa2 (2026-12-08): retired. blind25 and blind26 had their wrong strong calls read
 * (2026-12-08): retired. blind27 and blind28, written blind on 2026-12-08, are kept for the next
 * judgement. */
const BLIND: ReadonlySet<TaskSet> = new Set(["blind", "blind2", "blind3", "blind4", "blind27", "blind28"]);
export type TaskSet = keyof typeof TASK_SETS;

export interface Occurrence {
  task: ReuseTask;
  ask: Ask;
  /** 0: the first time the task comes up; 1..: a repeat. */
  nth: number;
  day: number;
}

/** A seeded shuffle of every ask of every task, each task's asks in their order, cut into days. */
export function buildStream(tasks: readonly ReuseTask[], seed: number, days: number): Occurrence[] {
  let s = seed >>> 0 || 1;
  const rnd = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const slots = tasks.flatMap((t, i) => t.asks.map(() => i));
  for (let i = slots.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [slots[i], slots[j]] = [slots[j]!, slots[i]!];
  }
  const next = new Array(tasks.length).fill(0);
  const perDay = Math.ceil(slots.length / days);
  return slots.map((i, at) => {
    const task = tasks[i]!;
    const nth = next[i]++;
    return { task, ask: task.asks[nth]!, nth, day: Math.floor(at / perDay) };
  });
}

interface Try {
  cap: string;
  own: boolean;
  verdict: Verdict;
  /** Bytes of its result. */
  bytes: number;
  /** The match pml gave it ("strong", "fair", "weak"), when the answer says. */
  match?: string;
}

export interface MemoryRecord {
  task: string;
  say: string;
  nth: number;
  spent: Spent;
  discoverBytes: number;
  /** Capability results within the window. */
  found: number;
  /** Found but not called: the parameters the answer gives do not fit the task's inputs. */
  skipped: number;
  /** Capability results in the window that pml marked a weak match: not called. */
  weak: number;
  tries: Try[];
  served: boolean;
  firstTry: boolean;
  fallback?: Verdict;
  /** discover's first results (tool or id; "+" when past use lifted it), for reading misses. */
  top: string[];
  /** 1-based rank of the task's own capability in discover's answer (tools included); 0: not in it. */
  ownRank: number;
  /** discover's first result: its match label, whether it is a capability, and whether it is right
   * (the task's own capability, or one whose call here answered rightly). */
  first?: { match: string; capability: boolean; right: boolean };
}

export interface BaselineRecord {
  task: string;
  say: string;
  nth: number;
  spent: Spent;
  verdict: Verdict;
}

interface Workspace {
  ws: string;
  home: string;
  cleanup(): void;
}

async function workspace(provider?: ReuseOptions["provider"]): Promise<Workspace> {
  const ws = tempDir("pml-reuse-ws-");
  const home = tempDir("pml-reuse-home-");
  const memory = provider ? { memory: { embeddings: { url: provider.url, model: provider.model } } } : {};
  await writeTrustedConfig(ws.path, { permissions: { allow: ["filesystem"] }, ...memory }, home.path);
  return {
    ws: ws.path,
    home: home.path,
    cleanup: () => {
      ws.cleanup();
      home.cleanup();
    },
  };
}

/** Runs `step` over the stream with a pml session per day (or one), then reads tools/list. */
async function replay<R>(
  opts: ReuseOptions,
  stream: Occurrence[],
  step: (s: Session, o: Occurrence, ws: string) => Promise<R>,
  warm = false,
): Promise<{ records: R[]; toolList: { tools: number; bytes: number } }> {
  const w = await workspace(opts.provider);
  const records: R[] = [];
  let session: Session | undefined;
  let day = -1;
  // What pml said of the provider (a failure: it ranked without it a while), said once by the run.
  const providerSaid = () => {
    for (const l of session?.stderr.split("\n") ?? []) if (l.includes("embeddings provider")) process.stderr.write(`pml: ${l}\n`);
  };
  try {
    for (const o of stream) {
      if (!session || (opts.session === "day" && o.day !== day)) {
        providerSaid();
        await session?.close();
        session = await Session.open(opts.bin, w.ws, w.home);
        day = o.day;
        if (warm && opts.provider) await warmProvider(session, opts.provider);
      }
      records.push(await step(session, o, w.ws));
    }
    const toolList = await session!.toolListBytes();
    providerSaid();
    return { records, toolList };
  } finally {
    await session?.close();
    w.cleanup();
  }
}

/** A new session's provider: its vectors are loaded (or embedded) in the background on its first
 * discover, which is not counted; then the bench waits for the stand-in to be done. */
async function warmProvider(s: Session, provider: NonNullable<ReuseOptions["provider"]>): Promise<void> {
  await s.call("discover", { query: "warm up" }, { calls: 0, bytes: 0, sent: 0 });
  // pml sends its batch from a timer after the answer: give it time to start, then wait it out.
  await Bun.sleep(150);
  await provider.idle();
}

const topOf = (answer: any): string[] => {
  const body = resultJson(answer);
  // A plain answer: one result per line, `tool(params) — description [match]; more`.
  const lines = typeof body === "string" ? body.split("\n").map((l) => /^(\S+?)[( ].*?(?:\[(\w+)\])?(; learned: .*)?$/.exec(l)) : [];
  const fromLines = lines.filter((m) => m !== null).map((m) => ({ tool: m[1], match: m[2], learned: m[3] }));
  const list: any[] = Array.isArray(body?.results) ? body.results : Array.isArray(body) ? body : fromLines;
  // "+": past use lifted it (the answer's `learned`); the match pml gives, when it does.
  const mark = (r: any) => `${r?.learned ? "+" : ""}${typeof r?.match === "string" ? `(${r.match})` : ""}`;
  return list.slice(0, 3).map((r) => (typeof r === "string" ? r.slice(0, 60) : `${String(r?.tool ?? r?.id ?? r?.name ?? "?")}${mark(r)}`));
};

const isOwn = (c: Candidate, task: ReuseTask) => (c.id ?? "").replace(/@.*$/, "") === task.name || c.tool === capTool(task.name);

/** The memory agent on one occurrence. */
async function withMemory(opts: ReuseOptions, s: Session, o: Occurrence, ws: string): Promise<MemoryRecord> {
  const { task, ask } = o;
  const spent: Spent = { calls: 0, bytes: 0, sent: 0 };
  await opts.provider?.idle();
  const answer = await s.call("discover", { query: ask.say, ...(opts.limit ? { limit: opts.limit } : {}) }, spent);
  const discoverBytes = spent.bytes;
  const { candidates } = capabilityCandidates(answer);
  const labels = answerLabels(answer);
  const inWindow = candidates.filter((c) => c.rank < opts.window);
  const found = toCall(candidates, labels, opts.window, opts.match ?? "label");
  const rec: MemoryRecord = {
    task: task.name,
    say: ask.say,
    nth: o.nth,
    spent,
    discoverBytes,
    found: found.length,
    weak: inWindow.length - found.length,
    skipped: 0,
    tries: [],
    served: false,
    firstTry: false,
    top: topOf(answer),
    ownRank: (candidates.find((c) => isOwn(c, task))?.rank ?? -1) + 1,
  };
  for (const c of found) {
    if (rec.tries.length >= opts.tries) break;
    const args = mapInputs(c.params, ask.args);
    if (!args) {
      rec.skipped++;
      continue;
    }
    resetInputs(ws, task, ask);
    const before = spent.bytes;
    const r = c.tool ? await s.call(c.tool, args, spent) : await s.call("execute", { capability: c.id, args }, spent);
    const cap = c.id ?? c.tool ?? "?";
    const verdict = judge(task, ask, r, ws);
    const own = isOwn(c, task);
    rec.tries.push({ cap, own, verdict, bytes: spent.bytes - before, ...(c.match ? { match: c.match } : {}) });
    if (verdict === "right") {
      rec.served = true;
      rec.firstTry = rec.tries.length === 1;
      return withFirst(rec, candidates, labels, task);
    }
  }
  resetInputs(ws, task, ask);
  const r = await s.call("execute", { code: task.code, name: task.name, intent: task.intent, args: ask.args }, spent);
  // The capability just saved is given to the provider by the next discover's refresh: one not
  // counted, so that it has its vector by the next request (a provider answers in milliseconds; an
  // agent's next request comes seconds later).
  if (opts.provider) await warmProvider(s, opts.provider);
  rec.fallback = judge(task, ask, r, ws);
  return withFirst(rec, candidates, labels, task);
}

/** The record with what discover's first result was (MemoryRecord.first). */
function withFirst(rec: MemoryRecord, candidates: readonly Candidate[], labels: readonly string[], task: ReuseTask): MemoryRecord {
  if (!labels.length) return rec;
  const c = candidates.find((x) => x.rank === 0);
  const called = c && rec.tries.find((t) => t.cap === (c.id ?? c.tool));
  rec.first = { match: labels[0]!, capability: !!c, right: !!c && (isOwn(c, task) || called?.verdict === "right") };
  return rec;
}

const capTool = (name: string) => `cap__${name.replace(":", "__")}`;

/** The agents without memory: what each does before it sends the canned code to `execute`. */
export const NO_MEMORY = {
  execute: { label: "execute only", discover: false, schemas: false },
  discover_execute: { label: "discover, execute", discover: true, schemas: false },
  discover_schemas_execute: { label: "discover, schemas, execute", discover: true, schemas: true },
} as const;
/** The agent the issue's bytes target compares against: without memory it finds tools and their inputs each time. */
export const ISSUE_BASELINE = "discover_schemas_execute" satisfies keyof typeof NO_MEMORY;
export type NoMemoryAgent = keyof typeof NO_MEMORY;

/** The namespaces whose tools a task's code calls (`mcp.<ns>.<action>`). */
const namespacesOf = (code: string) => [...new Set([...code.matchAll(/\bmcp\.([A-Za-z0-9_]+)\./g)].map((m) => m[1]!))];

/** An agent without memory on one occurrence: `execute` with the canned code, after (depending on
 * the agent) a discover whose answer it ignores and the input schemas of the namespaces it calls. */
async function withoutMemory(opts: ReuseOptions, agent: NoMemoryAgent, s: Session, o: Occurrence, ws: string): Promise<BaselineRecord> {
  const spent: Spent = { calls: 0, bytes: 0, sent: 0 };
  const how = NO_MEMORY[agent];
  if (how.discover) await s.call("discover", { query: o.ask.say, ...(opts.limit ? { limit: opts.limit } : {}) }, spent);
  if (how.schemas) for (const namespace of namespacesOf(o.task.code)) await s.call("discover", { namespace }, spent);
  resetInputs(ws, o.task, o.ask);
  const r = await s.call("execute", { code: o.task.code, args: o.ask.args }, spent);
  return { task: o.task.name, say: o.ask.say, nth: o.nth, spent, verdict: judge(o.task, o.ask, r, ws) };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const share = (n: number, d: number) => (d ? n / d : 0);

function perTask(records: { nth: number; spent: Spent }[], repeats: boolean) {
  const rs = records.filter((r) => r.nth > 0 === repeats);
  return { calls: mean(rs.map((r) => r.spent.calls)), bytes: mean(rs.map((r) => r.spent.bytes)), sent: mean(rs.map((r) => r.spent.sent)) };
}

function baselineSummary(run: { records: BaselineRecord[]; toolList: { tools: number; bytes: number } }) {
  return {
    perRepeat: perTask(run.records, true),
    perFirst: perTask(run.records, false),
    wrongAnswers: run.records.filter((r) => r.verdict !== "right").map((r) => `${r.task}: ${r.say} (${r.verdict})`),
    toolList: run.toolList,
  };
}

export const TARGETS = { firstTry: 0.8, wrongReuse: 0.05, bytesRatio: 0.3, wrongStrongFirst: 0.05, wrongOnStrong: 0.05 };

export function summarize(
  opts: ReuseOptions,
  stream: Occurrence[],
  memory: { records: MemoryRecord[]; toolList: { tools: number; bytes: number } },
  noMemoryRuns: Record<NoMemoryAgent, { records: BaselineRecord[]; toolList: { tools: number; bytes: number } }>,
) {
  const mem = memory.records;
  const repeats = mem.filter((r) => r.nth > 0);
  const tries = (rs: MemoryRecord[]) => rs.flatMap((r) => r.tries);
  const count = (ts: Try[], v: Verdict) => ts.filter((t) => t.verdict === v).length;
  const all = tries(mem);
  const onRepeats = tries(repeats);
  const onFirst = tries(mem.filter((r) => r.nth === 0));
  // A capability whose task leaves files writes them: called for another task, it changed the user's files.
  const writers = new Set(stream.filter((o) => o.task.leaves).map((o) => `cap__${o.task.name.replace(":", "__")}`));
  const rightCalls = onRepeats.filter((t) => t.verdict === "right").map((t) => t.bytes);
  const perRepeat = {
    ...perTask(mem, true),
    discoverBytes: mean(repeats.map((r) => r.discoverBytes)),
    /** The rest, aggregates only (the blind streams' requests are never printed): the capability
     * calls' results, and the `execute` of the code written after a miss. */
    callBytes: mean(repeats.map((r) => callBytes(r))),
    codeBytes: mean(repeats.map((r) => r.spent.bytes - r.discoverBytes - callBytes(r))),
    /** What a repeat would cost if each were served on the first try: discover's answer and one right call. */
    ifAllFirstTry: { calls: 2, bytes: mean(repeats.map((r) => r.discoverBytes)) + mean(rightCalls) },
  };
  const noMemory = Object.fromEntries(
    Object.entries(noMemoryRuns).map(([k, run]) => {
      const b = baselineSummary(run);
      const ratios = { calls: share(perRepeat.calls, b.perRepeat.calls), bytes: share(perRepeat.bytes, b.perRepeat.bytes) };
      return [k, { ...b, label: NO_MEMORY[k as NoMemoryAgent].label, ratios }];
    }),
  ) as Record<NoMemoryAgent, ReturnType<typeof baselineSummary> & { label: string; ratios: { calls: number; bytes: number } }>;
  return {
    config: {
      set: opts.set ?? "main",
      tasks: new Set(stream.map((o) => o.task.name)).size,
      occurrences: stream.length,
      repeats: repeats.length,
      session: opts.session,
      days: opts.session === "day" ? opts.days : 1,
      seed: opts.seed,
      window: opts.window,
      tries: opts.tries,
      match: opts.match ?? "label",
      limit: opts.limit ?? null,
      provider: opts.provider ? `${opts.provider.model} at ${opts.provider.url}` : null,
    },
    repeats: {
      n: repeats.length,
      servedFirstTry: share(repeats.filter((r) => r.firstTry).length, repeats.length),
      servedWithinTries: share(repeats.filter((r) => r.served).length, repeats.length),
      servedByOwnCapability: share(repeats.filter((r) => r.served && r.tries.at(-1)!.own).length, repeats.length),
      noCandidate: repeats.filter((r) => r.found === 0).length,
      /** Repeats whose own capability was the first capability in the answer: what the ranking lets
       * a label serve at most (issue 46's first-try target), and of those, the ones not served on
       * the first try (their label said not to call it, or a result above it was called). */
      ownFirst: share(repeats.filter((r) => r.ownRank === 1).length, repeats.length),
      ownFirstNotServed: repeats.filter((r) => r.ownRank === 1 && !r.firstTry).length,
    },
    reuse: {
      attempts: all.length,
      right: count(all, "right"),
      wrong: count(all, "wrong"),
      errors: count(all, "error"),
      skipped: mem.reduce((n, r) => n + r.skipped, 0),
      weak: mem.reduce((n, r) => n + r.weak, 0),
      wrongShare: share(count(all, "wrong"), all.length),
      /** Wrong among the calls that answered (a refused call tells the agent it failed). */
      wrongShareOfAnswers: share(count(all, "wrong"), count(all, "wrong") + count(all, "right")),
      onRepeats: { attempts: onRepeats.length, wrong: count(onRepeats, "wrong"), errors: count(onRepeats, "error") },
      onFirstOccurrences: { attempts: onFirst.length, wrong: count(onFirst, "wrong"), errors: count(onFirst, "error") },
      /** Wrong calls of a capability that writes files: a wrong answer that also changed the workspace. */
      wrongThatWrote: all.filter((t) => t.verdict === "wrong" && writers.has(t.cap)).length,
      firstOccurrencesServed: mem.filter((r) => r.nth === 0 && r.served).length,
    },
    labels: labelTable(mem, all),
    memory: {
      perRepeat,
      perFirst: perTask(mem, false),
      fallbacksWrong: mem.filter((r) => r.fallback && r.fallback !== "right").map((r) => `${r.task}: ${r.say} (${r.fallback})`),
      toolList: memory.toolList,
    },
    noMemory,
    targets: TARGETS,
    misses: repeats
      .filter((r) => !r.firstTry)
      .map((r) => ({ task: r.task, say: r.say, found: r.found, tries: r.tries.map((t) => `${t.cap}:${t.verdict}`), served: r.served, top: r.top, ownRank: r.ownRank })),
  };
}

const callBytes = (r: MemoryRecord) => r.tries.reduce((n, t) => n + t.bytes, 0);

const LABELS = ["strong", "fair", "weak"] as const;

/** What each match label meant on this stream: per label, the first results that carried it (all
 * requests, first occurrences included), how many were capabilities and how many right; the calls
 * made on it and how many were wrong; and the wrong first results marked strong, of all requests. */
function labelTable(mem: MemoryRecord[], all: Try[]) {
  const firsts = mem.flatMap((r) => (r.first ? [r.first] : []));
  const rows = Object.fromEntries(
    LABELS.map((label) => {
      const f = firsts.filter((x) => x.match === label);
      const calls = all.filter((t) => (t.match ?? "weak") === label);
      return [
        label,
        {
          first: f.length,
          capabilities: f.filter((x) => x.capability).length,
          right: f.filter((x) => x.right).length,
          calls: calls.length,
          wrongCalls: calls.filter((t) => t.verdict === "wrong").length,
        },
      ];
    }),
  ) as Record<(typeof LABELS)[number], { first: number; capabilities: number; right: number; calls: number; wrongCalls: number }>;
  const rightFirst = firsts.filter((x) => x.right).length;
  const wrongStrong = firsts.filter((x) => x.match === "strong" && x.capability && !x.right).length;
  return { requests: mem.length, rows, rightFirst, wrongStrongFirst: wrongStrong, wrongStrongShare: share(wrongStrong, mem.length) };
}

const STOP = new Set(["that", "this", "with", "from", "what", "which", "have", "into", "each", "every", "give", "tell", "there", "their", "than", "them", "then", "does"]);
const stems = (t: string) =>
  new Set(
    (
      t
        .toLowerCase()
        .replace(/\S+\.[a-z]+\b/g, " ")
        .match(/[a-z]+/g) ?? []
    )
      .filter((w) => w.length >= 4 && !STOP.has(w))
      .map((w) => w.replace(/(ing|ed|es|s)$/, "")),
  );

/** How far the repeats' words are from the intents': repeats sharing a content word with theirs
 * (file names, which are inputs, left out). */
export function wordingOverlap(tasks: readonly ReuseTask[]): { repeats: number; sharingAWord: number } {
  let repeats = 0;
  let sharing = 0;
  for (const t of tasks) {
    const intent = stems(t.intent);
    for (const a of t.asks.slice(1)) {
      repeats++;
      if ([...stems(a.say)].some((w) => intent.has(w))) sharing++;
    }
  }
  return { repeats, sharingAWord: sharing };
}

export type ReuseReport = ReturnType<typeof summarize> & { wall_s: number; wording: ReturnType<typeof wordingOverlap> };

/** The runs of the same stream: with memory, then each agent without memory on a fresh home. */
export async function runReuse(opts: ReuseOptions): Promise<ReuseReport> {
  const t0 = performance.now();
  const set = TASK_SETS[opts.set ?? "main"];
  checkTasks(set);
  for (const t of set) {
    const c = checkName(t.name);
    if (!c.ok) throw new Error(`task ${t.name}: ${c.error}`);
  }
  const tasks = opts.tasks ? set.slice(0, opts.tasks) : set;
  const stream = buildStream(tasks, opts.seed, opts.session === "day" ? opts.days : 1);
  const memory = await replay(opts, stream, (s, o, ws) => withMemory(opts, s, o, ws), true);
  if (opts.records) writeFileSync(opts.records, `${JSON.stringify(memory.records, null, 1)}\n`);
  const noMemory = {} as Record<NoMemoryAgent, Awaited<ReturnType<typeof replay<BaselineRecord>>>>;
  for (const agent of Object.keys(NO_MEMORY) as NoMemoryAgent[]) noMemory[agent] = await replay(opts, stream, (s, o, ws) => withoutMemory(opts, agent, s, o, ws));
  return { ...summarize(opts, stream, memory, noMemory), wording: wordingOverlap(tasks), wall_s: Math.round((performance.now() - t0) / 100) / 10 };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const num = (x: number) => (x >= 100 ? Math.round(x).toLocaleString("en-US") : x.toFixed(2));
const mark = (ok: boolean) => (ok ? "met" : "NOT met");

export function printReport(r: ReuseReport, verbose: boolean): void {
  const c = r.config;
  const sessions = c.session === "day" ? `pml stdio per day, ${c.days} days` : "one pml stdio for the stream";
  console.log(
    `\nReuse (${c.set} stream): ${c.tasks} tasks, ${c.occurrences} requests (${c.repeats} repeats); ${sessions}; seed ${c.seed}; window ${c.window}, tries ${c.tries}, calls ${{ any: "any match", fair: "strong or fair matches", label: "strong at once, fair when none is strong, never weak" }[c.match]}`,
  );
  if (c.provider) console.log(`  with the embeddings provider ${c.provider}`);
  console.log(`  repeat wordings sharing a content word with the intent: ${r.wording.sharingAWord} of ${r.wording.repeats}`);
  const row = (label: string, fig: string, target = "", status = "") => console.log(`  ${label.padEnd(46)}${fig.padStart(16)}  ${target.padEnd(8)} ${status}`);
  row("repeats served from memory, first try", pct(r.repeats.servedFirstTry), "≥ 80%", mark(r.repeats.servedFirstTry >= TARGETS.firstTry));
  row(`repeats served within ${c.tries} tries`, pct(r.repeats.servedWithinTries));
  row("  served by the task's own capability", pct(r.repeats.servedByOwnCapability));
  row("  repeats with no capability in the window", String(r.repeats.noCandidate));
  row("  own capability first among capabilities", pct(r.repeats.ownFirst));
  row("    of those not served on the first try", String(r.repeats.ownFirstNotServed));
  row("wrong reuses / reuse attempts", `${pct(r.reuse.wrongShare)} (${r.reuse.wrong}/${r.reuse.attempts})`, "≤ 5%", mark(r.reuse.wrongShare <= TARGETS.wrongReuse));
  row("  among the calls that answered", pct(r.reuse.wrongShareOfAnswers));
  row("  on repeats", `${r.reuse.onRepeats.wrong}/${r.reuse.onRepeats.attempts}`);
  row("  on first occurrences", `${r.reuse.onFirstOccurrences.wrong}/${r.reuse.onFirstOccurrences.attempts}`);
  row("  by a capability that writes files", String(r.reuse.wrongThatWrote));
  row("capability calls refused (arguments, errors)", String(r.reuse.errors));
  row("capabilities skipped (parameters do not fit)", String(r.reuse.skipped));
  row("capabilities not called (pml: weak match)", String(r.reuse.weak));
  printLabels(r.labels);
  const m = r.memory.perRepeat;
  const head = ["tool calls", "ratio", "bytes returned", "ratio", "≤ 30%", "bytes sent"];
  console.log(`\n  per repeated task${"".padEnd(27)}${head.map((h, i) => h.padStart([12, 8, 16, 8, 9, 12][i]!)).join("")}`);
  const line = (label: string, x: { calls: number; bytes: number; sent: number }, ratios?: { calls: number; bytes: number }, target = false) =>
    console.log(
      `  ${label.padEnd(44)}${num(x.calls).padStart(12)}${(ratios ? pct(ratios.calls) : "").padStart(8)}${num(x.bytes).padStart(16)}` +
        `${(ratios ? pct(ratios.bytes) : "").padStart(8)}${(ratios && target ? mark(ratios.bytes <= TARGETS.bytesRatio) : "").padStart(9)}${num(x.sent).padStart(12)}`,
    );
  line("memory", m);
  for (const [k, b] of Object.entries(r.noMemory)) line(`no memory: ${b.label}${k === ISSUE_BASELINE ? " *" : ""}`, b.perRepeat, b.ratios, k === ISSUE_BASELINE);
  console.log(
    `  (ratio: memory's figure over that agent's; of memory's bytes per repeated task, discover's answer is ${num(m.discoverBytes)}, ` +
      `the capability calls ${num(m.callBytes)}, the code written after a miss ${num(m.codeBytes)})`,
  );
  console.log("  * the issue's comparison: without memory the agent finds the tools and their inputs each time; the others are shown for honesty");
  const best = m.ifAllFirstTry.bytes;
  console.log(
    `  memory if every repeat were served on the first try: 2 calls, ${num(best)} bytes (` +
      Object.values(r.noMemory)
        .map((b) => `${pct(best / b.perRepeat.bytes)} of ${b.label}`)
        .join(", ") +
      ")",
  );
  const f = r.memory.perFirst;
  const e = r.noMemory.execute;
  console.log(`  first occurrences: memory ${num(f.calls)} calls, ${num(f.bytes)} bytes; no memory (execute only) ${num(e.perFirst.calls)} calls, ${num(e.perFirst.bytes)} bytes`);
  console.log(
    `  tools/list at the end: memory ${r.memory.toolList.tools} tools, ${num(r.memory.toolList.bytes)} bytes; no memory ${e.toolList.tools} tools, ${num(e.toolList.bytes)} bytes`,
  );
  const sanity = [...r.memory.fallbacksWrong, ...Object.values(r.noMemory).flatMap((b) => b.wrongAnswers)];
  console.log(`  canned code answered wrongly: ${sanity.length} (must be 0)${sanity.map((x) => `\n    ${x}`).join("")}`);
  console.log(`  wall ${r.wall_s} s`);
  const misses = verbose ? r.misses : r.misses.slice(0, 12);
  if (misses.length) console.log(`\n  repeats not served on the first try (${r.misses.length}${verbose ? "" : "; --verbose for all"}):`);
  for (const x of misses)
    console.log(
      `    ${x.task.padEnd(30)} ${x.served ? "later " : "missed"} "${x.say}"  tries [${x.tries.join(", ")}]  top [${x.top.join(", ")}]  own ${x.ownRank ? `#${x.ownRank}` : "absent"}`,
    );
}

function printLabels(l: ReuseReport["labels"]): void {
  const s = l.rows.strong;
  console.log(`\n  match labels (first result of each of ${l.requests} requests; calls: every capability call made on the label)`);
  console.log(
    `  ${"label".padEnd(8)}${"first".padStart(7)}${"of them caps".padStart(14)}${"right".padStart(7)}${"precision".padStart(11)}${"recall".padStart(8)}${"calls".padStart(7)}${"wrong".padStart(7)}`,
  );
  for (const label of LABELS) {
    const x = l.rows[label];
    console.log(
      `  ${label.padEnd(8)}${String(x.first).padStart(7)}${String(x.capabilities).padStart(14)}${String(x.right).padStart(7)}${pct(share(x.right, x.first)).padStart(11)}` +
        `${pct(share(x.right, l.rightFirst)).padStart(8)}${String(x.calls).padStart(7)}${String(x.wrongCalls).padStart(7)}`,
    );
  }
  const onStrong = share(s.wrongCalls, s.calls);
  console.log(`  wrong calls made on [strong] ${pct(onStrong)} (${s.wrongCalls}/${s.calls}, first occurrences included)  ≤ 5%  ${mark(onStrong <= TARGETS.wrongOnStrong)}`);
  console.log(
    `  wrong first results marked [strong] ${pct(l.wrongStrongShare)} of requests (${l.wrongStrongFirst}/${l.requests})  ≤ 5%  ${mark(l.wrongStrongShare <= TARGETS.wrongStrongFirst)}`,
  );
}

function matchFlag(v: string | undefined): MatchPolicy {
  if (v === undefined || v === "label" || v === "fair" || v === "any") return v ?? "label";
  throw new Error(`--match is "label" (strong at once, fair only when nothing is strong; default), "fair" (strong or fair) or "any", not "${v}"`);
}

/** `--tasks heldout` (or `main`): which stream; `--tasks N`: the first N tasks of the main one. */
function tasksFlag(v: string | undefined): Pick<ReuseOptions, "tasks" | "set"> {
  if (v === undefined) return {};
  if (v in TASK_SETS) return { set: v as TaskSet };
  if (/^\d+$/.test(v)) return { tasks: Number(v) };
  throw new Error(`--tasks is ${Object.keys(TASK_SETS).join(" or ")} or a number of tasks, not "${v}"`);
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.main) {
  const root = resolve(import.meta.dir, "..");
  const session = flag("session") ?? "day";
  if (session !== "day" && session !== "stream") throw new Error(`--session is "day" or "stream", not "${session}"`);
  const opts: ReuseOptions = {
    bin: [flag("bin") ?? join(root, "dist/pml")],
    session,
    days: Number(flag("days") ?? 5),
    seed: Number(flag("seed") ?? 1),
    window: Number(flag("window") ?? 5),
    tries: Number(flag("tries") ?? 3),
    match: matchFlag(flag("match")),
    limit: flag("limit") ? Number(flag("limit")) : undefined,
    ...tasksFlag(flag("tasks")),
    ...(flag("records") ? { records: flag("records") } : {}),
  };
  if (!existsSync(opts.bin[0]!)) throw new Error(`${opts.bin[0]} does not exist: build it first (bun build.ts) or pass --bin`);
  const blind = opts.set !== undefined && BLIND.has(opts.set);
  if (blind && (opts.records || process.argv.includes("--verbose"))) throw new Error("the blind stream's requests are never printed: no --records, no --verbose");
  const server = process.argv.includes("--provider") ? await startEmbedServer() : undefined;
  if (server) opts.provider = { url: server.url, model: "use-lite", idle: server.idle };
  const report = await runReuse(opts).finally(() => server?.stop());
  if (blind) report.misses = [];
  if (process.argv.includes("--json")) console.log(JSON.stringify(report, null, 2));
  else printReport(report, process.argv.includes("--verbose"));
}
