// tool_usage as the store writes it: calls counted per tool and second. A busy proxy flushes
// thousands of calls at once; each call is counted once, in its own second, with its outcome
// and latency, whether its second was already in the table or not.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { SqliteCapabilityStore } from "../../src/memory/sqlite-store.ts";
import type { CapabilityStore, ToolUsage } from "../../src/memory/store.ts";
import { ToolUsageLog } from "../../src/memory/tool-usage-log.ts";
import type { UsageBucket, UsageBuckets } from "../../src/memory/usage-buckets.ts";
import { tempDir } from "../helpers/pml.ts";

const dir = tempDir("pml-usage-");
const file = join(dir.path, "memory.db");
const store = new SqliteCapabilityStore(file);
afterAll(() => {
  store.close();
  dir.cleanup();
});

// 150 calls of 3 tools on 2 servers over 5 seconds (two calls per second apart by 500 ms).
const rows: ToolUsage[] = Array.from({ length: 150 }, (_, i) => ({
  tool_id: `ns:tool_${i % 3}`,
  server_id: i % 5 === 0 ? "pml-capabilities" : "ns",
  success: i % 4 !== 0,
  latency_ms: i + 0.5,
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 5, (i % 2) * 500)).toISOString(),
}));

/** What the table must hold for `calls`: the same sums, computed here from the calls one by one. */
function expected(calls: ToolUsage[]) {
  const out = new Map<string, { tool_id: string; server_id: string; second: string; calls: number; successes: number; latency_ms_total: number; last_at: string }>();
  for (const r of calls) {
    const second = r.at.slice(0, 19);
    const key = `${r.tool_id} ${r.server_id} ${second}`;
    const b = out.get(key) ?? { tool_id: r.tool_id, server_id: r.server_id, second, calls: 0, successes: 0, latency_ms_total: 0, last_at: "" };
    b.calls++;
    b.successes += r.success ? 1 : 0;
    b.latency_ms_total += r.latency_ms;
    if (r.at > b.last_at) b.last_at = r.at;
    out.set(key, b);
  }
  return [...out.values()].sort((a, b) => (a.tool_id + a.server_id + a.second < b.tool_id + b.server_id + b.second ? -1 : 1));
}

test("a flush of many calls counts each once, per tool and second; a later flush adds to the same seconds", async () => {
  await store.recordToolUsage(rows);
  await store.recordToolUsage(rows.slice(0, 3)); // seconds already in the table
  const db = new Database(file, { readonly: true });
  try {
    const back = db.query("SELECT tool_id, server_id, second, calls, successes, latency_ms_total, last_at FROM tool_usage ORDER BY tool_id, server_id, second").all();
    expect(back).toEqual(expected([...rows, ...rows.slice(0, 3)]));
  } finally {
    db.close();
  }
  const all = [...rows, ...rows.slice(0, 3)];
  const stats = await store.usageStats();
  const mine = all.filter((r) => r.tool_id === "ns:tool_0" && r.server_id === "ns");
  expect(stats.find((s) => s.tool_id === "ns:tool_0" && s.server_id === "ns")).toEqual({
    tool_id: "ns:tool_0",
    server_id: "ns",
    calls: mine.length,
    successes: mine.filter((r) => r.success).length,
    avg_latency_ms: mine.reduce((a, r) => a + r.latency_ms, 0) / mine.length,
    last_at: mine
      .map((r) => r.at)
      .sort()
      .at(-1)!,
  });
  expect(stats.reduce((a, s) => a + s.calls, 0)).toBe(all.length);
});

test("usageStats since a time counts the seconds from it on", async () => {
  const since = await store.usageStats("2026-01-01T00:00:03");
  const later = [...rows, ...rows.slice(0, 3)].filter((r) => r.at >= "2026-01-01T00:00:03");
  expect(since.reduce((a, s) => a + s.calls, 0)).toBe(later.length);
  expect(await store.usageStats("2026-01-02")).toEqual([]);
});

test("a failed call's text is kept with its tool and second: the last failure's, bounded; a later success or an untold failure leaves it", async () => {
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 2, 0, 0, 0, ms)).toISOString();
  const call = (ms: number, success: boolean, error?: string): ToolUsage => ({
    tool_id: "ns:flaky",
    server_id: "ns",
    success,
    latency_ms: 1,
    at: at(ms),
    ...(error ? { error } : {}),
  });
  const long = `ns:flaky failed: ${"x".repeat(5000)}`;
  await store.recordToolUsage([call(1, false, "ns:flaky failed: first\nits detail"), call(2, true), call(3, false, "ns:flaky failed: second\nits detail")]);
  await store.recordToolUsage([call(4, true), call(5, false)]);
  const [row] = await store.usageLog({ tool_ids: ["ns:flaky"] });
  expect(row).toMatchObject({ calls: 5, successes: 2, last_error: "ns:flaky failed: second\nits detail" });
  await store.recordToolUsage([call(6, false, long)]);
  const [cut] = await store.usageLog({ tool_ids: ["ns:flaky"] });
  expect(cut!.last_error!.startsWith("ns:flaky failed: xxx")).toBe(true);
  expect(cut!.last_error).toEndWith(`… (${long.length - 4000} more characters)`);
  expect(cut!.last_error!.length).toBeLessThan(4100);
  // Calls that all succeeded keep none.
  await store.recordToolUsage([{ ...call(7, true), tool_id: "ns:steady" }]);
  expect((await store.usageLog({ tool_ids: ["ns:steady"] }))[0]!.last_error).toBeNull();
});

test("calls are counted per tool and second as they end: a burst is held as a few counts until the write, and written as the table would count it", async () => {
  const written: UsageBucket[][] = [];
  const fake = { recordUsage: async (b: readonly UsageBucket[]) => void written.push([...b]) } as unknown as CapabilityStore;
  const usage = new ToolUsageLog(async () => fake, "test");
  const burst = Array.from({ length: 5000 }, (_, i) => rows[i % rows.length]!);
  for (const r of burst) usage.note(r);
  expect((usage as unknown as { usage: UsageBuckets }).usage.size).toBe(expected(burst).length);
  await usage.flush();
  expect(written).toHaveLength(1);
  const counted = written[0]!.map((b) => ({
    tool_id: b.tool_id,
    server_id: b.server_id,
    second: b.second,
    calls: b.calls,
    successes: b.successes,
    latency_ms_total: b.latency,
    last_at: b.last,
  }));
  expect(counted.sort((a, b) => (a.tool_id + a.server_id + a.second < b.tool_id + b.server_id + b.second ? -1 : 1))).toEqual(expected(burst));
  await usage.flush(); // nothing left: nothing written
  expect(written).toHaveLength(1);
});
