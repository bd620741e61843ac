// The tool_usage log counts calls per tool, server and second. Calls are counted as they end,
// not kept one by one until the next write: under load thousands of calls end between two
// writes, and each kept record outlived the young generation (bench/proxy-cpu.ts).
import type { ToolUsage } from "./store.ts";

/** One row of tool_usage: the calls of one tool on one server in one second. */
export interface UsageBucket {
  tool_id: string;
  server_id: string;
  second: string;
  calls: number;
  successes: number;
  latency: number;
  last: string;
  /** The text of the last failure in the second (calls are added in the order they ended). */
  error: string | null;
}

export class UsageBuckets {
  private readonly byKey = new Map<string, UsageBucket>();
  // Under load, call after call is the same tool in the same millisecond (one shared `at` string,
  // see isoNow in invoke.ts): the previous call's bucket, without a key built and looked up.
  private prevAt = "";
  private prevTool = "";
  private prevServer = "";
  private prev: UsageBucket | undefined;

  get size(): number {
    return this.byKey.size;
  }

  add(r: ToolUsage): void {
    let b = this.prev;
    if (b === undefined || r.at !== this.prevAt || r.tool_id !== this.prevTool || r.server_id !== this.prevServer) {
      const second = r.at.slice(0, 19);
      const key = `${r.tool_id}\n${r.server_id}\n${second}`;
      b = this.byKey.get(key);
      if (b === undefined) this.byKey.set(key, (b = { tool_id: r.tool_id, server_id: r.server_id, second, calls: 0, successes: 0, latency: 0, last: r.at, error: null }));
      this.prev = b;
      this.prevAt = r.at;
      this.prevTool = r.tool_id;
      this.prevServer = r.server_id;
    }
    b.calls++;
    if (r.success) b.successes++;
    else if (r.error !== undefined) b.error = r.error;
    b.latency += r.latency_ms;
    if (r.at !== b.last && r.at > b.last) b.last = r.at;
  }

  /** The buckets so far; counting starts afresh. */
  take(): UsageBucket[] {
    const out = [...this.byKey.values()];
    this.byKey.clear();
    this.prev = undefined;
    return out;
  }
}
