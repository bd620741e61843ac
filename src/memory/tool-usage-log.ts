// The tool_usage log as calls end: counted in memory and written in batches off the call path.
import { log } from "../log.ts";
import type { CapabilityStore, ToolUsage } from "./store.ts";
import { UsageBuckets } from "./usage-buckets.ts";

const USAGE_FLUSH_MS = 250;

export class ToolUsageLog {
  private readonly usage = new UsageBuckets();
  private flushTimer?: ReturnType<typeof setTimeout>;

  /** `where` names the store in a warning when a batch cannot be written. */
  constructor(
    private readonly open: () => Promise<CapabilityStore>,
    private readonly where: string,
  ) {}

  /** One tool call ended (any tool, any path); written to tool_usage in a batch. */
  note(u: ToolUsage): void {
    this.usage.add(u);
    if (this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => void this.flush(), USAGE_FLUSH_MS);
    (this.flushTimer as { unref?: () => void }).unref?.();
  }

  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.usage.size === 0) return;
    const buckets = this.usage.take();
    try {
      await (await this.open()).recordUsage(buckets);
    } catch (e) {
      log.warn(`could not record tool usage in ${this.where}: ${(e as Error).message}`);
    }
  }
}
