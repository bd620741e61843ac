// What discover holds for one workspace, in one object: the word index, the vector side, the
// capabilities' summaries, the tools and team hits offered beside them, and how far the store was
// read. A workspace asking after another gets a new one (discover.ts): a discover under way keeps
// the one it started with. Only discover-refresh.ts writes it; the ranking and the answer read it.
import type { AssociationIndex } from "./associations.ts";
import { CapabilityWords } from "./capability-words.ts";
import { ReadAhead } from "./read-ahead.ts";
import type { CodeRead } from "./code-match.ts";
import { type CapabilityFacts, type CapabilityKinds, capabilityKinds } from "./kind-fit.ts";
import type { Meaning } from "./meaning.ts";
import { parseCallName } from "./names.ts";
import type { SearchIndex } from "./search.ts";
import { type AnswerKind, type Capability, USER_OWNER } from "./store.ts";
import type { TeamHit } from "./team.ts";
import type { ToolEntry } from "./search-docs.ts";

/** The index key of a capability record and of a tool: what associations are kept under. */
export const capKey = (id: string) => `cap:${id}`;
export const toolKey = (ns: string, name: string) => `tool:${ns}:${name}`;

/** Shared by every summary of a record whose runs returned nothing known (frozen: never changed through a result). */
export const NO_KINDS: readonly AnswerKind[] = Object.freeze([]);

/** What discover keeps of a capability record (not the record: 10k of them stay in memory). */
export interface CapSummary {
  owner: string;
  name: string;
  named: boolean;
  description: string;
  /** Its intent when the description is another text (what it does, for the labels). */
  intent?: string;
  tools: string[];
  deprecated?: string;
  /** What its runs returned (kind-fit.ts). */
  returns: readonly AnswerKind[];
}

/** The tools offered beside the capabilities, as one value: replaced as a whole when the list changes. */
export interface ToolSet {
  /** What the list was made from (its tools and their flags): the same list is not indexed again. */
  signature: string;
  /** The list it was made from (or last found to have its signature). */
  source?: readonly ToolEntry[];
  keys: ReadonlySet<string>;
  /** pml's own tools. */
  own: ReadonlySet<string>;
  /** Demo servers' tools by key -> their namespace. */
  demo: ReadonlyMap<string, string>;
  /** Tools of servers not enabled. */
  notEnabled: ReadonlySet<string>;
  /** `ns:name` of the tools that change things (as capabilities' tools_used name them). */
  changing: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();
export const NO_TOOLS: ToolSet = Object.freeze({ signature: "", keys: NONE, own: NONE, demo: new Map<string, string>(), notEnabled: NONE, changing: NONE });

/** The modules the ranking needs, loaded with the first `discover {query}` (the stemmer and thesaurus are not needed before). */
export interface RankingParts {
  hybrid: typeof import("./hybrid.ts");
  fuseLearned: typeof import("./associations.ts").fuseLearned;
}

/** One CapabilityKinds per combination of kinds (in the order found), shared by the capabilities
 * that hold it, not an object and its Sets per capability: read ahead, 10k capabilities hold a few
 * hundred combinations. Nothing changes one after it is made. Process-wide: bounded by the
 * combinations there are (a long-running server starts over past KINDS_KEPT). */
const kindsShared = new Map<string, CapabilityKinds>();
const KINDS_KEPT = 10_000;

function sharedKinds(kinds: CapabilityKinds): CapabilityKinds {
  const id = [kinds.all, kinds.from, kinds.to].map((set) => (set ? [...set].join(",") : "-")).join("|");
  const kept = kindsShared.get(id);
  if (kept) return kept;
  if (kindsShared.size >= KINDS_KEPT) kindsShared.clear();
  kindsShared.set(id, kinds);
  return kinds;
}

/** How many records one run of reading ahead reads before its garbage is collected at once. */
const READ_AHEAD_COLLECTS = 1000;

export class DiscoverState {
  /** The store's change counter read up to. */
  seq = 0;
  /** The first load of the index is done (and its garbage collected). */
  loaded = false;
  tools: ToolSet = NO_TOOLS;
  /** The team registry's hits by key (a name held here is left out). */
  team: ReadonlyMap<string, TeamHit> = new Map();
  readonly caps = new Map<string, CapSummary>();
  /** Capabilities' kinds of data (kind-fit.ts), read when one is first a candidate for a request holding data. */
  private readonly kinds = new Map<string, CapabilityKinds>();
  /** What capabilities' and tools' words say (capability-words.ts), kept from the first request that asked. */
  private readonly said = new Map<string, CapabilityWords>();
  /** Input schemas of capabilities shown in an answer (Memory.parametersOf), by key: read from the
   * store once per version of the record, not on every answer (a query per answer was a fifth of
   * the time a discover spent in the server outside the ranking, bench/discover-e2e.ts). */
  readonly parameters = new Map<string, Capability["parameters_schema"]>();
  /** What the labels read of capabilities answered (code-match.ts), by key, once per version of the record. */
  readonly code = new Map<string, CodeRead>();
  /** What a capability's first candidacy reads, read in idle time for each record read (read-ahead.ts). */
  readonly ahead = new ReadAhead(
    (key) => {
      this.wordsOf(key)?.readAll();
      this.kindsOf(key);
      this.meaning?.readAhead(key);
    },
    // A first load's reading leaves garbage worth collecting at once (as settleFirstLoad does); a
    // record saved now and then does not, and a full collection would hold the next request.
    (read) => read >= READ_AHEAD_COLLECTS && Bun.gc(true),
  );

  constructor(
    /** Whose records it holds: the workspace's own and the user's. */
    readonly owner: string,
    readonly index: SearchIndex,
    /** The word-vector side; null when there are no vectors. */
    readonly meaning: Meaning | null,
    /** Learning from use (associations.ts). */
    readonly learning: AssociationIndex,
    readonly parts: RankingParts,
  ) {
    if (meaning) {
      meaning.describe = (key) => {
        const c = this.caps.get(key);
        return c && `${c.named ? c.name : ""} ${c.description}`;
      };
    }
  }

  /** Every record and tool is given to the index again (a new embeddings provider must see them all). */
  rereadAll(): void {
    this.seq = 0;
    // The tools' keys stay: they are what is taken out of the index when the list has changed.
    this.tools = { ...this.tools, signature: "", source: undefined };
  }

  /** A capability (re-)read from the store: its kinds are read again when next needed. */
  setCap(key: string, c: CapSummary): void {
    this.kinds.delete(key);
    this.said.delete(key);
    this.caps.set(key, c);
    this.ahead.add(key);
  }

  /** A record changed in the store (any record type): what was read of it apart from its summary is read again. */
  changed(key: string): void {
    this.parameters.delete(key);
    this.code.delete(key);
  }

  /**
   * The workspace's own and the user's; never another workspace's, whatever its visibility
   * (visibility is for the team registry: sharing between workspaces is the user scope). Every key
   * of this state's indexes is one by construction (the store is read for those two owners only,
   * and the tools and team hits are this request's), so the ranking's scans do not ask; the
   * provider's vectors (shared by every workspace), past use and every answer are asked.
   */
  visible(key: string): boolean {
    const c = this.caps.get(key);
    if (!c) return this.tools.keys.has(key) || this.team.has(key);
    return c.owner === this.owner || c.owner === USER_OWNER;
  }

  /** A tool's name by key (`tool:ns:name` -> name); undefined when the key is no tool. */
  toolName(key: string): string | undefined {
    return this.tools.keys.has(key) ? key.slice(key.indexOf(":", 5) + 1) : undefined;
  }

  /** What a result says it does (match-evidence.ts): a capability's action and intent, a tool's name (not its long description). */
  ownWords(key: string): string {
    const c = this.caps.get(key);
    if (c) return `${c.named ? (parseCallName(c.name)?.action ?? "") : ""} ${c.intent ?? c.description}`;
    const team = this.team.get(key);
    if (team) return `${parseCallName(team.name)?.action ?? team.name} ${team.description ?? ""}`;
    return this.toolName(key) ?? "";
  }

  /** A capability's texts as substitution.ts aligns them, each apart: its name's action in words, its intent. */
  ownTexts(key: string): string[] {
    const c = this.caps.get(key);
    if (!c) return [this.ownWords(key)];
    const action = c.named ? (parseCallName(c.name)?.action ?? "").replace(/_/g, " ") : "";
    return [action, c.intent ?? c.description];
  }

  /** A capability's kinds of data (kind-fit.ts), read when it is first a candidate for a request holding data. */
  kindsOf(key: string): CapabilityKinds | undefined {
    const c = this.caps.get(key);
    let kinds = c && this.kinds.get(key);
    if (c && !kinds) this.kinds.set(key, (kinds = sharedKinds(capabilityKinds(c.name, c.description))));
    return kinds;
  }

  /** What a capability's runs and tools say of it, or a tool's annotations (kind-fit.ts), read per
   * request (the tools that change things may differ); what its words say is kept. */
  factsOf(key: string): CapabilityFacts | undefined {
    const c = this.caps.get(key);
    const changing = this.tools.changing;
    if (c) {
      const said = this.saidOf(key, c.name, c.description);
      // Two literals, not an object spread: made for each candidate of every request.
      if (!c.tools.length) return { name: c.name, text: c.description, returns: c.returns, changes: false, callsNoTool: true, said };
      return { name: c.name, text: c.description, returns: c.returns, changes: c.tools.some((t) => changing.has(t)), said };
    }
    const tool = this.tools.keys.has(key) ? key.slice("tool:".length) : undefined;
    return tool === undefined ? undefined : { name: tool, text: "", returns: NO_KINDS, changes: changing.has(tool), said: this.saidOf(key, tool, "") };
  }

  /** What a capability's (or tool's) own words say, kept: no facts read per request (opposites.ts). */
  wordsOf(key: string): CapabilityWords | undefined {
    const c = this.caps.get(key);
    if (c) return this.saidOf(key, c.name, c.description);
    return this.tools.keys.has(key) ? this.saidOf(key, key.slice("tool:".length), "") : undefined;
  }

  private saidOf(key: string, name: string, text: string): CapabilityWords {
    let said = this.said.get(key);
    if (!said) this.said.set(key, (said = new CapabilityWords(name, text)));
    return said;
  }
}
