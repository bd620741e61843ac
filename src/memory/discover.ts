// `discover {query}`: capabilities and the tools beside them ranked by relevance. The index is kept
// in memory and brought up to date from the store's change counter, so records saved by other pml
// processes are found too.
import type { LearnedBoost, LearnedHit } from "./associations.ts";
import type { MemorySettings } from "./memory-settings.ts";
import { capWireName, parseCallName } from "./names.ts";
import type { Hit, SearchDoc, SearchIndex } from "./search.ts";
import { USER_OWNER, type CapabilityStore, type SearchRecord } from "./store.ts";

/** A real tool offered to `discover` beside the capabilities. */
export interface ToolEntry {
  ns: string;
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

export interface Found {
  /** What to call: a capability name (`fs:read_json`, `unnamed_1a2b3c4d`) or a tool id (`memory:read_graph`). */
  id: string;
  kind: "capability" | "tool";
  description: string;
  /** Capabilities: the tool to call in tools/list (named ones). */
  tool?: string;
  uses?: string[];
  score: number;
  /** Variants of this capability (its name with another version number) that matched less well. */
  variants?: string[];
  /** Past use lifted it: earlier words that led to a successful call of it (associations.ts). */
  learned?: string;
}

/** The index key of a capability record and of a tool: what associations are kept under. */
export const capKey = (id: string) => `cap:${id}`;
export const toolKey = (ns: string, name: string) => `tool:${ns}:${name}`;

interface CapSummary {
  owner: string;
  name: string;
  named: boolean;
  description: string;
  tools: string[];
}

export class CapabilityDiscovery {
  /** Loaded with the first `discover {query}` (the stemmer and thesaurus are not needed before). */
  private index?: SearchIndex;
  /** Learning from use (associations.ts), loaded with the index. */
  private learning?: { index: import("./associations.ts").AssociationIndex; fuse: typeof import("./associations.ts").fuseLearned };
  private indexedSeq = 0;
  private readonly caps = new Map<string, CapSummary>();
  private toolKeys = new Set<string>();
  private toolSignature = "";

  constructor(private readonly open: () => Promise<CapabilityStore>) {}

  /** Capabilities visible from the scope and the given tools, ranked by relevance to `query`. */
  async discover(settings: MemorySettings, query: string, tools: readonly ToolEntry[], limit = 10): Promise<{ results: Found[]; keys: string[]; warning?: string }> {
    let warning: string | undefined;
    if (!this.index) {
      const [{ SearchIndex }, { AssociationIndex, fuseLearned }] = await Promise.all([import("./search.ts"), import("./associations.ts")]);
      this.index ??= new SearchIndex();
      this.learning ??= { index: new AssociationIndex(this.open), fuse: fuseLearned };
    }
    try {
      await (await this.open()).adopt(settings.scope);
      await this.refreshCapabilities();
    } catch (e) {
      warning = `Capabilities are not searched: ${(e as Error).message}`;
    }
    this.refreshTools(tools);
    // The workspace's own and the user's; never another workspace's, whatever its visibility
    // (visibility is for the team registry: sharing between workspaces is the user scope).
    const own = settings.scope.owner;
    const visible = (key: string) => {
      const c = this.caps.get(key);
      if (!c) return this.toolKeys.has(key);
      return c.owner === own || c.owner === USER_OWNER;
    };
    const hits = await this.withLearning(own, query, this.index.search(query, limit, visible), visible, limit);
    const byKey = new Map(tools.map((t) => [toolKey(t.ns, t.name), t]));
    const results = hits.map((h): Found => {
      const c = this.caps.get(h.key);
      const score = Math.round(h.score * 100) / 100;
      const learned = h.learned ? { learned: learnedNote(h.learned) } : {};
      if (c) {
        const n = parseCallName(c.name)!;
        const variants = h.also?.map((k) => this.caps.get(k)?.name).filter((x): x is string => !!x);
        return {
          id: c.name,
          kind: "capability",
          description: c.description,
          ...(c.named ? { tool: capWireName(n) } : {}),
          uses: c.tools,
          score,
          ...(variants?.length ? { variants } : {}),
          ...learned,
        };
      }
      const t = byKey.get(h.key)!;
      return { id: `${t.ns}:${t.name}`, kind: "tool", description: t.description ?? "", score, ...learned };
    });
    return { results, keys: hits.map((h) => h.key), ...(warning ? { warning } : {}) };
  }

  /** Past use fused after the words' ranking (a separate step: see associations.ts). */
  private async withLearning(owner: string, query: string, hits: Hit[], visible: (key: string) => boolean, limit: number): Promise<LearnedHit[]> {
    const { index, fuse } = this.learning!;
    try {
      return fuse(hits, await index.boosts(owner, query), visible, limit);
    } catch {
      return hits; // the store is unavailable: the warning says so already
    }
  }

  private async refreshCapabilities(): Promise<void> {
    const changed = await (await this.open()).searchableSince(this.indexedSeq);
    for (const c of changed) {
      this.indexedSeq = Math.max(this.indexedSeq, c.seq);
      const key = capKey(c.id);
      if (c.record_type !== "capability") continue;
      this.caps.set(key, {
        owner: c.owner,
        name: c.display_name,
        named: c.named,
        description: c.description || c.intent,
        tools: c.tools_used,
      });
      this.index!.add(capabilityDoc(key, c));
    }
  }

  private refreshTools(tools: readonly ToolEntry[]): void {
    const signature = tools.map((t) => `${t.ns}:${t.name}`).join(",");
    if (signature === this.toolSignature) return;
    for (const key of this.toolKeys) this.index!.remove(key);
    this.toolKeys = new Set();
    for (const t of tools) {
      const key = toolKey(t.ns, t.name);
      this.toolKeys.add(key);
      const props = (t.inputSchema?.properties ?? {}) as Record<string, unknown>;
      this.index!.add({ key, name: `${t.ns} ${t.name}`, description: t.description, params: Object.keys(props) });
    }
    this.toolSignature = signature;
  }
}

export function capabilityDoc(key: string, c: SearchRecord): SearchDoc {
  const props = (c.parameters_schema.properties ?? {}) as Record<string, unknown>;
  return {
    key,
    name: c.named ? `${c.namespace} ${c.action}` : "",
    intent: c.intent,
    description: c.description === c.intent ? "" : c.description,
    tools: c.tools_used,
    params: Object.keys(props),
  };
}

/** Shown as a JSON string in the answer; the words were normalised when kept (association-policy.ts). */
function learnedNote(l: LearnedBoost): string {
  return `found before by: ${JSON.stringify(l.query)}${l.uses > 1 ? ` (${l.uses} uses)` : ""}`;
}
