// Memory.discover in this process, this checkout against another source tree (a baseline), on
// the same memory.db, alternating round by round (A, B, B, A, ...: a shared machine's drift falls
// on each alike). Each round a fresh Memory per build: every request asked once ("first ask": its
// candidates' words are read then, meaning.ts), then again ("repeated"). Both builds' answers are
// compared too: ids, scores, labels and evidence must be identical for a speed-only change.
// Run: bun bench/discover-ab.ts --db <memory.db kept by bench/memory.ts KEEP_DB> --base <dir>
//      [--owner /bench/workspace] [--rounds 6] [--limit 20]
// The baseline: git archive <commit> | tar -x -C <dir>; cp -al node_modules <dir>/; bun build.ts there.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { benchTools } from "./memory-caps.ts";
import { HELD_OUT, HELD_OUT_2, HELD_OUT_3, HELD_OUT_4, HELD_OUT_5, HELD_OUT_6, HELD_OUT_7, MEANING_TUNE, QUERIES } from "./memory-intents.ts";
import { summarize } from "./stats.ts";

const arg = (name: string, dflt?: string) => {
  const i = process.argv.indexOf(name);
  const v = i > 0 ? process.argv[i + 1] : dflt;
  if (v === undefined) throw new Error(`${name} is required`);
  return v;
};
const db = resolve(arg("--db"));
const owner = arg("--owner", "/bench/workspace");
const ROUNDS = Number(arg("--rounds", "6"));
const LIMIT = Number(arg("--limit", "20"));
const builds = [resolve(import.meta.dir, ".."), resolve(arg("--base"))];
const names = ["this checkout", "base"];
const requests = [...QUERIES, ...HELD_OUT, ...HELD_OUT_2, ...HELD_OUT_3, ...MEANING_TUNE, ...HELD_OUT_4, ...HELD_OUT_5, ...HELD_OUT_6, ...HELD_OUT_7].map(([q]) => q);
const tools = await benchTools();
const dir = mkdtempSync(join(tmpdir(), "pml-bench-ab-"));

type Discovering = { discover(s: unknown, q: string, t: unknown, l: number): Promise<{ results: unknown; evidence: unknown }>; close(): Promise<void> };
const mods = await Promise.all(builds.map((b) => import(join(b, "src/memory/memory.ts"))));
const settingsOf = mods.map((m) => ({ ...m.memorySettings({}, "/x/bench"), scope: { org: "local", project: "bench", owner } }));
const times = builds.map(() => ({ first: [] as number[], repeated: [] as number[] }));
const answers = builds.map(() => new Map<string, string>());

for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? [1, 0] : [0, 1];
  for (const b of order) {
    const path = join(dir, `memory-${round}-${b}.db`);
    copyFileSync(db, path);
    const memory: Discovering = new mods[b].Memory(path);
    await memory.discover(settingsOf[b], "warm up the index", tools, LIMIT);
    for (const kind of ["first", "repeated"] as const)
      for (const q of requests) {
        const t = performance.now();
        const r = await memory.discover(settingsOf[b], q, tools, LIMIT);
        times[b]![kind].push(performance.now() - t);
        if (round === 0 && kind === "first") answers[b]!.set(q, JSON.stringify([r.results, r.evidence]));
      }
    await memory.close();
  }
}
rmSync(dir, { recursive: true, force: true });

const differ = requests.filter((q) => answers[0]!.get(q) !== answers[1]!.get(q));
console.log(`Memory.discover {query, limit: ${LIMIT}}, ${requests.length} requests x ${ROUNDS} rounds, builds alternating, ms`);
console.log(`  ${"".padEnd(28)}${["median", "p95", "mean", "max"].map((h) => h.padStart(8)).join("")}`);
for (const kind of ["first", "repeated"] as const)
  for (const [b, name] of names.entries()) {
    const s = times[b]![kind];
    const r = summarize(s);
    const f = (x: number) => x.toFixed(2).padStart(8);
    console.log(`  ${`${kind}: ${name}`.padEnd(28)}${f(r.median)}${f(r.p95)}${f(r.mean)}${f(Math.max(...s))}`);
  }
// Each request's fastest of the rounds: its own cost with less of a shared machine's noise in it.
const bestOf = (s: number[]) => requests.map((_, i) => Math.min(...s.filter((_, j) => j % requests.length === i)));
for (const kind of ["first", "repeated"] as const) {
  const [a, b] = times.map((t) => bestOf(t[kind]).reduce((x, y) => x + y, 0) / requests.length);
  console.log(`  ${kind}, each request's best of ${ROUNDS}: mean ${a!.toFixed(3)} vs base ${b!.toFixed(3)} ms (${((100 * (a! - b!)) / b!).toFixed(1)}%)`);
}
console.log(
  differ.length ? `answers DIFFER on ${differ.length} requests, e.g. ${JSON.stringify(differ[0])}` : `answers identical on all ${requests.length} requests (results and evidence)`,
);
