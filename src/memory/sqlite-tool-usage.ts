// The tool_usage log in the store: calls counted per tool, server and second.
import type { Database } from "bun:sqlite";
import type { StoreDb } from "./sqlite-statements.ts";
import type { ToolUsage, UsageLogQuery, UsageRow, UsageStat } from "./store.ts";
import { type UsageBucket, UsageBuckets } from "./usage-buckets.ts";

export function usageStats(db: Database, since?: string): UsageStat[] {
  // Counted per second: `since` is exact to the second (a second it falls in counts whole).
  return db
    .query(
      `SELECT tool_id, server_id, SUM(calls) AS calls, SUM(successes) AS successes, SUM(latency_ms_total) / SUM(calls) AS avg_latency_ms, MAX(last_at) AS last_at
         FROM tool_usage WHERE last_at >= ?1 GROUP BY tool_id, server_id ORDER BY calls DESC, tool_id`,
    )
    .all(since ?? "") as UsageStat[];
}

export function usageLog(db: Database, q: UsageLogQuery = {}): UsageRow[] {
  const ids = q.tool_ids ?? [];
  const only = ids.length ? `AND tool_id IN (${ids.map((_, i) => `?${i + 3}`).join(", ")})` : "";
  return db
    .query(
      `SELECT tool_id, server_id, second, calls, successes, latency_ms_total, last_at, last_error
         FROM tool_usage WHERE second >= ?1 ${only} ORDER BY second DESC, tool_id LIMIT ?2`,
    )
    .all((q.since ?? "").slice(0, 19), q.limit ?? 1000, ...ids) as UsageRow[];
}

/** A failed call's text as kept: the start of it (the reason comes first), and how much was cut. */
const ERROR_CHARS = 4000;
function keptError(text: string): string {
  return text.length <= ERROR_CHARS ? text : `${text.slice(0, ERROR_CHARS)}… (${text.length - ERROR_CHARS} more characters)`;
}

export function recordToolUsage(s: StoreDb, rows: readonly ToolUsage[]): void {
  const buckets = new UsageBuckets();
  for (const r of rows) buckets.add(r);
  writeUsage(s, buckets.take());
}

/** One upsert per tool and second (a flush holds a burst of calls). */
export function writeUsage(s: StoreDb, buckets: readonly UsageBucket[]): void {
  if (!buckets.length) return;
  s.db.transaction(() => {
    for (const b of buckets) s.q.usage.run(b.tool_id, b.server_id, b.second, b.calls, b.successes, b.latency, b.last, b.error === null ? null : keptError(b.error));
  })();
}
