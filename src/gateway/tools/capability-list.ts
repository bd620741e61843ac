// The capabilities tools/list carries: at most .pml.json memory.list_tools of them (default 20),
// pinned ones first, then the most recently successful (memory/sqlite-listing.ts); a deprecated
// one only when pinned. The others stay callable by name (cap__ns__action resolves whether listed
// or not) and are found by `discover`: with thousands of capabilities a full list was 635 KB, more
// than some clients' whole context.
import { log } from "../../log.ts";
import type { Memory } from "../../memory/memory.ts";
import type { Project } from "../../policy/project.ts";
import type { WireTool } from "../dispatch/call.ts";
import { capabilityTool } from "./capability-tools.ts";

export class CapabilityListing {
  /** The ids in the last list given, and whether some were left out of it. */
  private listed = new Set<string>();
  private cut = false;
  /** Deprecated and unpinned: left out however often it is used. */
  private deprecated = new Set<string>();

  constructor(
    private readonly deps: {
      project: Pick<Project, "memorySettings">;
      memory: Pick<Memory, "changedElsewhere" | "listed">;
    },
  ) {}

  private last?: WireTool[];

  /** `continued`: for a later page of a list whose first page was just given; the same snapshot
   * then (pages of one list agree, and "all" at 10,000 records is not read again per page). */
  async tools(continued = false): Promise<WireTool[]> {
    if (continued && this.last) return this.last;
    this.last = await this.read();
    return this.last;
  }

  private async read(): Promise<WireTool[]> {
    try {
      const settings = await this.deps.project.memorySettings();
      await this.deps.memory.changedElsewhere(); // what others wrote before this read is in it
      const { items, total, deprecated } = settings.listTools === 0 ? { items: [], total: 0, deprecated: [] } : await this.deps.memory.listed(settings);
      this.listed = new Set(items.map((c) => c.id));
      this.deprecated = new Set(deprecated);
      this.cut = settings.listTools !== 0 && total > items.length;
      return items.map(capabilityTool);
    } catch (e) {
      log.warn(`capabilities are not listed: ${(e as Error).message}`);
      return [];
    }
  }

  /** Whether the list given last would now read differently because another process changed
   * memory.db (a rename in `pml ui`, a save in another session): only then is it read again. */
  async staleElsewhere(): Promise<boolean> {
    if (!this.last || !(await this.deps.memory.changedElsewhere())) return false;
    const given = signature(this.last);
    this.last = await this.read();
    return signature(this.last) !== given;
  }

  /** Whether a successful call of capability `id` can change which ones are listed (it was left out). */
  wouldJoin(id: string): boolean {
    return this.cut && !this.listed.has(id) && !this.deprecated.has(id);
  }
}

const signature = (tools: readonly WireTool[]) => tools.map((t) => `${t.name}\u0000${t.description ?? ""}`).join("\u0001");
