// bench/reuse.ts on a handful of tasks against the compiled pml: the three runs finish, the canned
// code is right everywhere, and the counts add up. Not the targets: those are the bench's figures.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildStream, type MemoryRecord, type ReuseReport, runReuse } from "../../bench/reuse.ts";
import { answerLabels, capabilityCandidates, mapInputs, paramsOf, toCall, worthCalling } from "../../bench/reuse-agent.ts";
import { checkTasks, TASKS } from "../../bench/reuse-tasks.ts";
import { BLIND_TASKS } from "../../bench/reuse-tasks-blind.ts";
import { BLIND_2_TASKS } from "../../bench/reuse-tasks-blind-2.ts";
import { BLIND_3_TASKS } from "../../bench/reuse-tasks-blind-3.ts";
import { BLIND_4_TASKS } from "../../bench/reuse-tasks-blind-4.ts";
import { BLIND_5_TASKS } from "../../bench/reuse-tasks-blind-5.ts";
import { BLIND_6_TASKS } from "../../bench/reuse-tasks-blind-6.ts";
import { BLIND_7_TASKS } from "../../bench/reuse-tasks-blind-7.ts";
import { BLIND_8_TASKS } from "../../bench/reuse-tasks-blind-8.ts";
import { BLIND_9_TASKS } from "../../bench/reuse-tasks-blind-9.ts";
import { BLIND_10_TASKS } from "../../bench/reuse-tasks-blind-10.ts";
import { BLIND_11_TASKS } from "../../bench/reuse-tasks-blind-11.ts";
import { BLIND_12_TASKS } from "../../bench/reuse-tasks-blind-12.ts";
import { BLIND_13_TASKS } from "../../bench/reuse-tasks-blind-13.ts";
import { BLIND_14_TASKS } from "../../bench/reuse-tasks-blind-14.ts";
import { BLIND_15_TASKS } from "../../bench/reuse-tasks-blind-15.ts";
import { BLIND_16_TASKS } from "../../bench/reuse-tasks-blind-16.ts";
import { BLIND_17_TASKS } from "../../bench/reuse-tasks-blind-17.ts";
import { BLIND_18_TASKS } from "../../bench/reuse-tasks-blind-18.ts";
import { BLIND_19_TASKS } from "../../bench/reuse-tasks-blind-19.ts";
import { BLIND_20_TASKS } from "../../bench/reuse-tasks-blind-20.ts";
import { BLIND_21_TASKS } from "../../bench/reuse-tasks-blind-21.ts";
import { BLIND_22_TASKS } from "../../bench/reuse-tasks-blind-22.ts";
import { BLIND_23_TASKS } from "../../bench/reuse-tasks-blind-23.ts";
import { BLIND_24_TASKS } from "../../bench/reuse-tasks-blind-24.ts";
import { BLIND_25_TASKS } from "../../bench/reuse-tasks-blind-25.ts";
import { BLIND_26_TASKS } from "../../bench/reuse-tasks-blind-26.ts";
import { BLIND_27_TASKS } from "../../bench/reuse-tasks-blind-27.ts";
import { BLIND_28_TASKS } from "../../bench/reuse-tasks-blind-28.ts";
import { HELDOUT_TASKS } from "../../bench/reuse-tasks-heldout.ts";
import { checkName } from "../../src/memory/names.ts";
import { BIN, tempDir } from "../helpers/pml.ts";

const SMALL = 4;
const occurrences = TASKS.slice(0, SMALL).reduce((n, t) => n + t.asks.length, 0);

function consistent(r: ReuseReport) {
  expect(r.config.tasks).toBe(SMALL);
  expect(r.config.occurrences).toBe(occurrences);
  expect(r.config.repeats).toBe(occurrences - SMALL);
  expect(r.repeats.n).toBe(r.config.repeats);
  expect(r.repeats.servedWithinTries).toBeGreaterThanOrEqual(r.repeats.servedFirstTry);
  expect(r.repeats.servedWithinTries).toBeGreaterThanOrEqual(r.repeats.servedByOwnCapability);
  expect(r.reuse.right + r.reuse.wrong + r.reuse.errors).toBe(r.reuse.attempts);
  expect(r.reuse.onRepeats.attempts + r.reuse.onFirstOccurrences.attempts).toBe(r.reuse.attempts);
  expect(r.reuse.wrongThatWrote).toBeGreaterThanOrEqual(0);
  expect(r.reuse.wrongThatWrote).toBeLessThanOrEqual(r.reuse.wrong);
  // A repeat not served on the first try is listed, with what was tried.
  expect(r.misses.length).toBe(Math.round(r.repeats.n * (1 - r.repeats.servedFirstTry)));
  // The canned solutions and the critic agree wherever the code itself ran.
  expect(r.memory.fallbacksWrong).toEqual([]);
  for (const b of Object.values(r.noMemory)) expect(b.wrongAnswers).toEqual([]);
  // Without memory: one execute per task; a discover before it; and the filesystem's schemas (the
  // first tasks of the set all read files).
  expect(r.noMemory.execute.perRepeat.calls).toBe(1);
  expect(r.noMemory.discover_execute.perRepeat.calls).toBe(2);
  expect(r.noMemory.discover_schemas_execute.perRepeat.calls).toBe(3);
  // With memory: at least the discover, at most it, the tries and the fallback.
  expect(r.memory.perRepeat.calls).toBeGreaterThanOrEqual(1);
  expect(r.memory.perRepeat.calls).toBeLessThanOrEqual(2 + r.config.tries);
  expect(r.memory.perRepeat.bytes).toBeGreaterThan(r.memory.perRepeat.discoverBytes);
  // Where a repeat's bytes go: discover's answer, the capability calls, the code written after a miss.
  const m = r.memory.perRepeat;
  expect(m.callBytes).toBeGreaterThanOrEqual(0);
  expect(m.codeBytes).toBeGreaterThanOrEqual(0);
  expect(m.discoverBytes + m.callBytes + m.codeBytes).toBeCloseTo(m.bytes, 6);
  expect(r.noMemory.execute.ratios.bytes).toBeCloseTo(r.memory.perRepeat.bytes / r.noMemory.execute.perRepeat.bytes, 6);
  // The memory run saved the tasks it solved by code, so its tools/list grew.
  expect(r.memory.toolList.tools).toBeGreaterThan(r.noMemory.execute.toolList.tools);
}

describe("bench/reuse.ts", () => {
  test("a pml per day: three runs of the same stream, counts consistent", async () => {
    const r = await runReuse({ bin: [BIN], session: "day", days: 2, seed: 7, window: 5, tries: 3, tasks: SMALL });
    consistent(r);
    expect(r.config.days).toBe(2);
  });

  test("one pml for the stream, discover asked for 5 results; every ask written out", async () => {
    const dir = tempDir("pml-reuse-records-");
    const records = join(dir.path, "asks.json");
    const r = await runReuse({ bin: [BIN], session: "stream", days: 5, seed: 3, window: 5, tries: 3, limit: 5, tasks: SMALL, records });
    consistent(r);
    expect(r.config.days).toBe(1);
    // The asks behind the report's counts, first occurrences included.
    const asks: MemoryRecord[] = JSON.parse(readFileSync(records, "utf8"));
    expect(asks.length).toBe(occurrences);
    const tries = asks.flatMap((a) => a.tries);
    expect(tries.length).toBe(r.reuse.attempts);
    expect(tries.filter((t) => t.verdict === "wrong").length).toBe(r.reuse.wrong);
    dir.cleanup();
  });
});

describe("the stream and the agent's reading of pml's answers", () => {
  test("each task comes first in its own words, then its repeats in order, cut into days", () => {
    const stream = buildStream(TASKS, 1, 5);
    expect(stream.length).toBe(TASKS.reduce((n, t) => n + t.asks.length, 0));
    for (const t of TASKS) expect(stream.filter((o) => o.task === t).map((o) => o.nth)).toEqual(t.asks.map((_, i) => i));
    expect(new Set(stream.map((o) => o.day))).toEqual(new Set([0, 1, 2, 3, 4]));
    expect(buildStream(TASKS, 1, 5).map((o) => o.ask.say)).toEqual(stream.map((o) => o.ask.say));
  });

  test("capabilities are read from a JSON results list or from text lines, with parameters when given", () => {
    const json = {
      content: [
        {
          type: "text",
          text: JSON.stringify({
            results: [
              { id: "memory:read_graph", kind: "tool" },
              { id: "fs:count_lines", kind: "capability", tool: "cap__fs__count_lines" },
            ],
          }),
        },
      ],
    };
    expect(capabilityCandidates(json).candidates).toEqual([{ id: "fs:count_lines", tool: "cap__fs__count_lines", params: undefined, rank: 1 }]);
    const withSchema = { structuredContent: { results: [{ tool: "cap__fs__grep_lines", parameters: { properties: { path: {}, needle: {} }, required: ["path", "needle"] } }] } };
    expect(capabilityCandidates(withSchema).candidates[0]!.params).toEqual({ names: ["path", "needle"], required: ["path", "needle"], types: {} });
    const text = { content: [{ type: "text", text: "filesystem__read_file(path) read a file\ncap__fs__head_lines(path, n?) first lines" }] };
    expect(capabilityCandidates(text).candidates).toEqual([{ tool: "cap__fs__head_lines", params: { names: ["path", "n"], required: ["path"] }, rank: 1 }]);
    expect(paramsOf(["path", "n?"])).toEqual({ names: ["path", "n"], required: ["path"] });
  });

  test("--match fair calls only capabilities pml marks a strong or fair match (all when the answer does not say); the default calls every one", () => {
    const results = [{ tool: "cap__fs__a", match: "strong" }, { tool: "cap__fs__b", match: "weak" }, { tool: "cap__fs__c", match: "fair" }, { tool: "cap__fs__d" }];
    const answer = { content: [{ type: "text", text: JSON.stringify({ results }) }] };
    const { candidates } = capabilityCandidates(answer);
    expect(candidates.filter((c) => worthCalling(c, "fair")).map((c) => c.tool)).toEqual(["cap__fs__a", "cap__fs__c", "cap__fs__d"]);
    // The default, the policy: every capability, whatever pml says.
    expect(candidates.filter((c) => worthCalling(c))).toHaveLength(4);
  });

  test("the issue's agent (the default): a strong capability at once, a fair one only when no result is strong, never a weak one", () => {
    const answer = (...lines: string[]) => ({ content: [{ type: "text", text: lines.join("\n") }] });
    const plan = (a: any) => toCall(capabilityCandidates(a).candidates, answerLabels(a), 5, "label").map((c) => c.tool);
    const fairCap = "cap__fs__b(path: string) — b [fair]";
    const weakCap = "cap__fs__c(path: string) — c";
    expect(plan(answer("note: no saved capability does this; closest: cap__fs__c", weakCap))).toEqual([]);
    expect(plan(answer(fairCap, weakCap))).toEqual(["cap__fs__b"]);
    // A strong tool is what the agent uses then (it writes the code): the fair capability is not called.
    expect(plan(answer("filesystem__read_file(path: string) — read a file [strong]", fairCap))).toEqual([]);
    expect(plan(answer(fairCap, "cap__fs__a(path: string) — a [strong]"))).toEqual(["cap__fs__a"]);
    // A note is no result: ranks count result lines only.
    expect(capabilityCandidates(answer("note: x", fairCap)).candidates[0]!.rank).toBe(0);
  });

  test("the held-out and blind streams follow the same rules, each with tasks of its own", () => {
    const seen = new Set(TASKS.map((t) => t.name));
    for (const tasks of [
      HELDOUT_TASKS,
      BLIND_TASKS,
      BLIND_2_TASKS,
      BLIND_3_TASKS,
      BLIND_4_TASKS,
      BLIND_5_TASKS,
      BLIND_6_TASKS,
      BLIND_7_TASKS,
      BLIND_8_TASKS,
      BLIND_9_TASKS,
      BLIND_10_TASKS,
      BLIND_11_TASKS,
      BLIND_12_TASKS,
      BLIND_13_TASKS,
      BLIND_14_TASKS,
      BLIND_15_TASKS,
      BLIND_16_TASKS,
      BLIND_17_TASKS,
      BLIND_18_TASKS,
      BLIND_19_TASKS,
      BLIND_20_TASKS,
      BLIND_21_TASKS,
      BLIND_22_TASKS,
      BLIND_23_TASKS,
      BLIND_24_TASKS,
      BLIND_25_TASKS,
      BLIND_26_TASKS,
      BLIND_27_TASKS,
      BLIND_28_TASKS,
    ]) {
      checkTasks(tasks);
      for (const t of tasks) expect(checkName(t.name).ok).toBe(true);
      expect(tasks.length).toBeGreaterThanOrEqual(12);
      expect(tasks.reduce((n, t) => n + t.asks.length - 1, 0)).toBeGreaterThanOrEqual(30);
      expect(tasks.filter((t) => seen.has(t.name))).toEqual([]);
      for (const t of tasks) seen.add(t.name);
    }
  });

  test("the blind streams' requests are never printed: --records and --verbose are refused", () => {
    const dir = tempDir("pml-reuse-blind-");
    for (const set of ["blind", "blind2", "blind3", "blind4", "blind27", "blind28"])
      for (const flag of [["--records", join(dir.path, "asks.json")], ["--verbose"]]) {
        const run = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../bench/reuse.ts"), "--tasks", set, ...flag], { stdout: "pipe", stderr: "pipe" });
        expect(run.exitCode).not.toBe(0);
        expect(run.stderr.toString()).toContain("the blind stream's requests are never printed");
      }
    dir.cleanup();
  });

  test("inputs map onto parameters by name or the one left over; a signature that does not fit is not called", () => {
    expect(mapInputs(undefined, { path: "a" })).toEqual({ path: "a" });
    expect(mapInputs({ names: ["file"], required: ["file"] }, { path: "a" })).toEqual({ file: "a" });
    expect(mapInputs({ names: ["path"], required: ["path"] }, { path: "a", needle: "x" })).toBeUndefined();
    expect(mapInputs({ names: ["path", "n"], required: ["path", "n"] }, { path: "a" })).toBeUndefined();
  });

  test("an input of another type than the parameter says is not passed (221 is no path), as an agent reading the types would not", () => {
    const line = paramsOf("path: string, n?: integer, mode?: 'a'|'b', tags?: string[]")!;
    expect(line.types).toEqual({ path: "string", n: "integer", mode: "'a'|'b'", tags: "string[]" });
    expect(mapInputs(paramsOf("path: string")!, { n: 221 })).toBeUndefined();
    expect(mapInputs(paramsOf("path: string")!, { file: "a.txt" })).toEqual({ path: "a.txt" });
    expect(mapInputs(paramsOf("text: string, n: integer")!, { text: "a b", n: 2.5 })).toBeUndefined();
    expect(mapInputs(paramsOf("text: string, n: number|string")!, { text: "a b", n: 2.5 })).toEqual({ text: "a b", n: 2.5 });
    expect(mapInputs(paramsOf("mode: 'a'|'b'")!, { mode: "c" })).toBeUndefined();
    expect(mapInputs(paramsOf("tags: string[]")!, { tags: ["x"] })).toEqual({ tags: ["x"] });
    // A type the agent does not know, or none: pml judges.
    expect(mapInputs(paramsOf("when: date")!, { when: 3 })).toEqual({ when: 3 });
    expect(mapInputs(paramsOf("path")!, { path: 3 })).toEqual({ path: 3 });
  });
});
