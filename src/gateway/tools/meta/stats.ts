// meta:stats: calls, success rate and mean latency per tool, from the tool_usage log.
import * as v from "valibot";
import { defineTool } from "../define-tool.ts";
import { text } from "../schema.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";

const isoTime = v.pipe(
  text("ISO date or time, e.g. 2026-11-22"),
  v.check((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO date or time, e.g. "2026-11-22"'),
);

export const stats = defineTool({
  name: "stats",
  description: "Tool usage from the tool_usage log: calls, success rate and mean latency per tool (real tools and capabilities).",
  args: { since: v.optional(isoTime) },
  async run({ since }, { deps }: StdlibContext) {
    await deps.memory.flush();
    const rows = await (await deps.memory.open()).usageStats(since);
    return {
      tools: rows.map((r) => ({ ...r, success_rate: Math.round((r.successes / r.calls) * 1000) / 1000, avg_latency_ms: Math.round(r.avg_latency_ms * 100) / 100 })),
    };
  },
});
