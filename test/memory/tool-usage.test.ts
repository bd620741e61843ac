// tool_usage rows as the store writes them: a busy proxy flushes thousands at once, written
// USAGE_CHUNK rows per statement; every row lands once, in order, with its own values.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { SqliteCapabilityStore } from "../../src/memory/sqlite-store.ts";
import type { ToolUsage } from "../../src/memory/store.ts";
import { tempDir } from "../helpers/pml.ts";

const dir = tempDir("pml-usage-");
const file = join(dir.path, "memory.db");
const store = new SqliteCapabilityStore(file);
afterAll(() => {
  store.close();
  dir.cleanup();
});

test("a flush of many rows (whole chunks and a remainder) records each row once, in order", async () => {
  const rows: ToolUsage[] = Array.from({ length: 2 * 64 + 22 }, (_, i) => ({
    tool_id: `ns:tool_${i % 3}`,
    server_id: i % 5 === 0 ? "pml-capabilities" : "ns",
    success: i % 4 !== 0,
    latency_ms: i + 0.5,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  }));
  await store.recordToolUsage(rows);
  await store.recordToolUsage(rows.slice(0, 3)); // fewer rows than a chunk: one statement each
  const db = new Database(file, { readonly: true });
  try {
    const back = db.query("SELECT tool_id, server_id, success, latency_ms, at FROM tool_usage ORDER BY rowid").all() as any[];
    const want = [...rows, ...rows.slice(0, 3)].map((r) => ({ ...r, success: r.success ? 1 : 0 }));
    expect(back).toEqual(want);
  } finally {
    db.close();
  }
  const stats = await store.usageStats();
  const t0 = stats.find((s) => s.tool_id === "ns:tool_0" && s.server_id === "ns")!;
  const mine = [...rows, ...rows.slice(0, 3)].filter((r) => r.tool_id === "ns:tool_0" && r.server_id === "ns");
  expect(t0.calls).toBe(mine.length);
  expect(t0.successes).toBe(mine.filter((r) => r.success).length);
});
