// `discover {query}`: capabilities (local, user, team) and the tools beside them ranked in one list
// by relevance: words (search.ts) fused with meaning (word vectors, meaning.ts; hybrid.ts). The
// index is kept in memory and brought up to date from the store's change counter, so records
// saved by other pml processes are found too.
import { atMostHalf, type CapabilityFacts, capabilityKinds, type CapabilityKinds, MISFIT_REACH, misfitFor } from "./kind-fit.ts";
import { withValueKinds } from "./value-kinds.ts";
import type { LearnedHit } from "./associations.ts";
import type { Match, MatchEvidence } from "./match-label.ts";
import { askedFor, labelHits } from "./match-evidence.ts";
import { firstLoad, readOne } from "./first-load.ts";
import { capabilityFound, deprecationNote, type Found, learnedNote, teamFound } from "./found.ts";
import type { Meaning } from "./meaning.ts";
import { ProviderSlot, type ProviderQuery } from "./provider-slot.ts";
import type { MemorySettings } from "./memory-settings.ts";
import { parseCallName } from "./names.ts";
import { words } from "./search-words.ts";
import { capabilityDoc, toolDoc, toolMeaningText, type ToolEntry, withoutTwins } from "./search-docs.ts";
import type { Hit, SearchIndex } from "./search.ts";
import { USER_OWNER, type AnswerKind, type Capability, type CapabilityStore } from "./store.ts";
import type { TeamHit } from "./team.ts";
import type { WordVectors } from "./word-vectors.ts";

/** A request is read this far: a longer one is a pasted text, not a request, and each of its words
 * costs the ranking time (a 1 MB one held the process for 26 s). */
export const QUERY_CHARS = 1000;
export const boundQuery = (q: string) => (q.length > QUERY_CHARS ? q.slice(0, QUERY_CHARS) : q);

/** The index key of a capability record and of a tool: what associations are kept under. */
export const capKey = (id: string) => `cap:${id}`;
export const toolKey = (ns: string, name: string) => `tool:${ns}:${name}`;

/** Shared by every summary of a record that uses no tool (frozen: never changed through a result). */
const NO_TOOLS = Object.freeze([]) as unknown as string[];
const NO_KINDS: readonly AnswerKind[] = Object.freeze([]);

interface CapSummary {
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

export class CapabilityDiscovery {
  /** Loaded with the first `discover {query}` (the stemmer and thesaurus are not needed before). */
  private index?: SearchIndex;
  /** Learning from use (associations.ts), loaded with the index. */
  private learning?: { index: import("./associations.ts").AssociationIndex; fuse: typeof import("./associations.ts").fuseLearned };
  private indexedSeq = 0;
  /** Whose records the index holds (indexFor). */
  private indexedFor?: string;
  /** The first load of the index is done (and its garbage collected). */
  private loaded = false;
  private readonly caps = new Map<string, CapSummary>();
  /** Capabilities' kinds of data (kind-fit.ts), read when one is first a candidate for a request holding data. */
  private readonly kinds = new Map<string, CapabilityKinds>();
  private readonly owners = new Map<string, string>();
  private readonly kindLists = new Map<string, readonly AnswerKind[]>();
  private toolKeys = new Set<string>();
  private toolSignature = "";
  /** The word-vector side, loaded with the index; null when there are no vectors. */
  private meaning?: Meaning | null;
  private ownTools = new Set<string>();
  /** Demo servers' tools by key -> their namespace; tools of servers not enabled. */
  private demoTools = new Map<string, string>();
  private notEnabled = new Set<string>();
  /** `ns:name` of the tools that change things (as capabilities' tools_used name them). */
  private changing = new Set<string>();
  /** `ns:name` of the tools whose annotations say they only read. */
  private readonly team = new Map<string, TeamHit>();
  private hybrid?: typeof import("./hybrid.ts");
  readonly provider = new ProviderSlot(() => this.open()); // memory.embeddings (a step of its own)

  constructor(
    private readonly open: () => Promise<CapabilityStore>,
    private readonly vectors?: () => Promise<WordVectors | undefined>,
  ) {}

  /**
   * Capabilities visible from the scope, the given tools and the team registry's `team` hits (or their promise),
   * ranked in one list by relevance to `query` (a team hit whose name is held here is left out).
   */
  async discover(
    settings: MemorySettings,
    asked: string,
    tools: readonly ToolEntry[],
    limit = 10,
    team: readonly TeamHit[] | Promise<readonly TeamHit[]> = [],
  ): Promise<{ results: Found[]; keys: string[]; evidence: MatchEvidence[]; warning?: string }> {
    const query = boundQuery(asked);
    let warning: string | undefined;
    this.indexFor(settings.scope.owner);
    await this.load();
    // A new provider is given every text (re-read); the request's vector is asked for meanwhile.
    if (await this.provider.use(settings.embeddings)) this.indexedSeq = Number((this.toolSignature = ""));
    const near = this.provider.query(query);
    try {
      await (await this.open()).adopt(settings.scope);
      await this.refreshCapabilities();
    } catch (e) {
      warning = `Capabilities are not searched: ${(e as Error).message}`;
    }
    // The team registry answers while the store was read (a promise: its hits are awaited only now;
    // from here on nothing waits, so a concurrent discover cannot change the index under this one).
    const shared = await team;
    this.refreshTools(tools);
    this.refreshTeam(shared, settings.scope.owner);
    // The first load leaves its garbage (every record's row, text and words: several times what it
    // keeps); collected now, once, the process does not grow on it (10k records: RSS after 50 more
    // discovers ~15 MB less, bench/memory-vectors.ts).
    if (!this.loaded) {
      this.loaded = true;
      Bun.gc(true);
    }
    // The workspace's own and the user's; never another workspace's, whatever its visibility
    // (visibility is for the team registry: sharing between workspaces is the user scope).
    const own = settings.scope.owner;
    const visible = (key: string) => {
      const c = this.caps.get(key);
      if (!c) return this.toolKeys.has(key) || this.team.has(key);
      return c.owner === own || c.owner === USER_OWNER;
    };
    // Twins left out leave their place empty: asking for more would move the fusion's scale.
    // A capability the request's data or wanted answer contradicts steps back on both sides (words
    // and meaning, past use) and is never marked a fit.
    const misfit = misfitFor(
      query,
      (key) => this.kindsOf(key),
      (key) => this.factsOf(key),
    );
    const ranked = async (n: number) =>
      withoutTwins(
        await this.withLearning(own, query, this.search(query, n, visible, misfit, await near), visible, n, misfit),
        (key) => (this.toolKeys.has(key) ? key.slice(key.indexOf(":", 5) + 1) : undefined),
        this.notEnabled,
      );
    let hits = await ranked(limit);
    // Contradicted ones fill at most half the results when others are found: asked for more, the
    // first of those come before them (an agent calls from the first few; the misfits stay findable).
    if (misfit && hits.filter((h) => misfit(h.key)).length > limit / 2) hits = atMostHalf(await ranked(limit * MISFIT_REACH), limit, misfit);
    const byKey = new Map(tools.map((t) => [toolKey(t.ns, t.name), t]));
    const askedOf = askedFor(withValueKinds(query), this.meaning?.words);
    const labelled = labelHits(hits, (key) => askedOf(this.ownWords(key)), misfit);
    hits = labelled.hits;
    const results = hits.map((h, i) => this.foundOf(h, labelled.labels[i]!, byKey));
    // A deprecated capability still answers, after every one that is not; one the request contradicts
    // after every one it does not (the order is otherwise kept).
    const last = (r: Found, key: string) => 2 * Number(!!r.deprecated) + Number(!!misfit?.(key));
    const order = results.map((r, i) => ({ r, key: hits[i]!.key })).sort((a, b) => last(a.r, a.key) - last(b.r, b.key));
    const evidence = new Map(labelled.hits.map((h, i) => [h.key, labelled.evidence[i]!]));
    return { results: order.map((o) => o.r), keys: order.map((o) => o.key), evidence: order.map((o) => evidence.get(o.key)!), ...(warning ? { warning } : {}) };
  }

  /** What a result says it does (match-evidence.ts): a capability's action and intent, a tool's name (not its long description). */
  private ownWords(key: string): string {
    const c = this.caps.get(key);
    if (c) return `${c.named ? (parseCallName(c.name)?.action ?? "") : ""} ${c.intent ?? c.description}`;
    const team = this.team.get(key);
    if (team) return `${parseCallName(team.name)?.action ?? team.name} ${team.description ?? ""}`;
    return this.toolKeys.has(key) ? key.slice(key.indexOf(":", 5) + 1) : "";
  }

  /** A hit as discover answers it: a capability, a team capability or a tool. */
  private foundOf(h: LearnedHit, match: Match, byKey: ReadonlyMap<string, ToolEntry>): Found {
    const c = this.caps.get(h.key);
    const score = Math.round(h.score * 100) / 100;
    const learned = h.learned ? { learned: learnedNote(h.learned) } : {};
    if (c) return capabilityFound(c, score, match, { variants: h.also?.map((k) => this.caps.get(k)?.name).filter((x): x is string => !!x), ...learned });
    const shared = this.team.get(h.key);
    if (shared) return teamFound(shared, score, match);
    const t = byKey.get(h.key)!;
    return { id: `${t.ns}:${t.name}`, kind: "tool", description: t.description ?? "", score, match, ...learned };
  }

  /**
   * The index holds the records one workspace can find, its own and the user's: a user's
   * memory.db holds every workspace's, and indexing those it never shows made a first discover in
   * a workspace holding none of 10k records grow 37 MiB instead of 14. Another workspace asking
   * (tests; a process serving several) starts the index over.
   */
  private indexFor(owner: string): void {
    if (this.indexedFor === owner) return;
    if (this.indexedFor !== undefined) {
      // Replaced, not dropped: a discover still under way for the other owner keeps an index to read.
      if (this.index) this.index = new (this.index.constructor as typeof SearchIndex)();
      this.meaning = undefined;
      this.caps.clear();
      this.kinds.clear();
      this.team.clear();
      this.toolSignature = "";
      this.indexedSeq = 0;
      this.loaded = false;
    }
    this.indexedFor = owner;
  }

  /** Past use fused after the words' ranking (a separate step: see associations.ts). */
  private async withLearning(
    owner: string,
    query: string,
    hits: Hit[],
    visible: (key: string) => boolean,
    limit: number,
    misfit?: (key: string) => boolean,
  ): Promise<LearnedHit[]> {
    const { index, fuse } = this.learning!;
    const keeps = misfit && ((key: string) => (misfit(key) ? this.hybrid!.FUSION.misfitFactor : 1));
    try {
      return fuse(hits, await index.boosts(owner, query), visible, limit, keeps);
    } catch {
      return hits; // the store is unavailable: the warning says so already
    }
  }

  /** Keeps a saved capability's text vector beside it (when there are word vectors). */
  async keep(c: Capability): Promise<void> {
    // Only where a discover already loaded the vectors: a process that only saves (an agent's
    // `execute` runs) does not carry them (~20 MB); the next discover embeds what it lacks, once,
    // and writes it back (refreshCapabilities), so nothing is embedded twice.
    const meaning = this.meaning;
    if (!meaning || c.record_type !== "capability") return;
    const { vectorOf } = await import("./meaning.ts");
    const v = vectorOf(meaning.words, c);
    if (v) await (await this.open()).saveVectors([{ id: c.id, ...v }]);
  }

  private async load(): Promise<void> {
    if (!this.index) {
      const [{ SearchIndex }, { AssociationIndex, associationSimilarity, fuseLearned }] = await Promise.all([import("./search.ts"), import("./associations.ts")]);
      this.hybrid = await import("./hybrid.ts");
      this.index ??= new SearchIndex();
      // Past phrasings compared by meaning too once the word vectors are loaded (below).
      this.learning ??= { index: new AssociationIndex(this.open, () => associationSimilarity(this.meaning?.words)), fuse: fuseLearned };
    }
    await this.loadMeaning();
  }

  private async loadMeaning(): Promise<Meaning | null> {
    if (this.meaning === undefined) {
      const { Meaning } = await import("./meaning.ts");
      this.meaning ??= (await Meaning.load(this.vectors)) ?? null;
      if (this.meaning) {
        this.meaning.describe = (key) => {
          const c = this.caps.get(key);
          return c && `${c.named ? c.name : ""} ${c.description}`;
        };
      }
    }
    return this.meaning;
  }

  /** Lexical candidates fused with the nearest by meaning (hybrid.ts), for the request and the
   * kinds of the values it holds (value-kinds.ts). */
  private search(asked: string, limit: number, visible: (key: string) => boolean, misfit: ((key: string) => boolean) | undefined, near?: ProviderQuery): Hit[] {
    const { aboutMemory, fuse, FUSION } = this.hybrid!;
    const query = withValueKinds(asked);
    const named = new Set(words(query));
    // How much of its score a result keeps: pml's own tools step back unless the request is about
    // memory, a demo server's unless the request names it, a server not enabled a little, a
    // capability the request's data contradicts.
    const about = aboutMemory(query);
    const factor = (key: string) => {
      let f = 1;
      if (!about && this.ownTools.has(key)) f *= FUSION.ownToolFactor;
      const demo = this.demoTools.get(key);
      if (demo !== undefined && !named.has(demo)) f *= FUSION.demoToolFactor;
      if (this.notEnabled.has(key)) f *= FUSION.notEnabledFactor;
      if (misfit?.(key)) f *= FUSION.misfitFactor;
      return f;
    };
    return this.index!.search(query, limit, visible, (lexical, want, full) => {
      const m = this.meaning?.nearest(query, Math.max(want, FUSION.vectorPool), visible);
      const fused = fuse({ lexical, full, nearest: m?.nearest ?? [], cosine: m?.cosine ?? (() => undefined), factor, ...(m ? {} : { weight: 0 }) });
      return near ? this.provider.fuse({ fused, query: near, want, accept: visible, factor, similarity: (key) => m?.cosine(key) }) : fused;
    });
  }

  /** One list per combination of kinds, shared by the records holding it (10k records, a few lists). */
  private kindList(kinds: readonly AnswerKind[]): readonly AnswerKind[] {
    if (!kinds.length) return NO_KINDS;
    const id = kinds.join(",");
    let list = this.kindLists.get(id);
    if (!list) this.kindLists.set(id, (list = Object.freeze([...kinds])));
    return list;
  }

  /** A capability's kinds of data (kind-fit.ts), read when it is first a candidate for a request holding data. */
  private kindsOf(key: string): CapabilityKinds | undefined {
    const c = this.caps.get(key);
    let kinds = c && this.kinds.get(key);
    if (c && !kinds) this.kinds.set(key, (kinds = capabilityKinds(c.name, c.description)));
    return kinds;
  }

  /** What a capability's runs and tools say of it, or a tool's annotations (kind-fit.ts), read per request (nothing kept). */
  private factsOf(key: string): CapabilityFacts | undefined {
    const c = this.caps.get(key);
    if (c) {
      return {
        name: c.name,
        text: c.description,
        returns: c.returns,
        changes: c.tools.some((t) => this.changing.has(t)),
        ...(c.tools.length ? {} : { callsNoTool: true as const }),
      };
    }
    const tool = this.toolKeys.has(key) ? key.slice("tool:".length) : undefined;
    return tool === undefined ? undefined : { name: tool, text: "", returns: NO_KINDS, changes: this.changing.has(tool) };
  }

  /** The team registry's hits, as records of this index (a name held here wins). */
  private refreshTeam(hits: readonly TeamHit[], owner: string): void {
    const names = new Set(hits.map((h) => h.name));
    const held = new Set<string>();
    if (names.size) for (const c of this.caps.values()) if (names.has(c.name) && (c.owner === owner || c.owner === USER_OWNER)) held.add(c.name);
    const next = new Map(hits.filter((h) => !held.has(h.name)).map((h) => [`team:${h.fqdn}`, h]));
    for (const key of this.team.keys()) if (!next.has(key)) this.forget(key);
    for (const [key, h] of next) {
      if (this.team.has(key)) continue;
      const n = parseCallName(h.name);
      this.index!.add({ key, name: n ? `${n.namespace} ${n.action}` : h.name, description: h.description });
      for (const side of [this.meaning, this.provider]) side?.text(key, `${n ? `${n.namespace} ${n.action}. ` : ""}${h.description ?? ""}`);
    }
    this.team.clear();
    for (const [key, h] of next) this.team.set(key, h);
  }

  private forget(key: string): void {
    this.index!.remove(key);
    for (const side of [this.meaning, this.provider]) side?.remove(key);
  }

  private async refreshCapabilities(): Promise<void> {
    if (this.loaded) await this.readCapabilities();
    else await firstLoad(() => this.readCapabilities());
  }

  /** Records changed since the last read into the index (all of them, the first time). */
  private async readCapabilities(): Promise<number> {
    let read = 0;
    await (await this.open()).searchableSince(this.indexedSeq, [this.indexedFor!, USER_OWNER], (c) => {
      this.indexedSeq = Math.max(this.indexedSeq, c.seq);
      const key = capKey(c.id);
      if (c.record_type !== "capability") return;
      // One string per owner and one empty list, not a copy per record (each row reads its own).
      let owner = this.owners.get(c.owner);
      if (owner === undefined) this.owners.set(c.owner, (owner = c.owner));
      this.kinds.delete(key);
      this.caps.set(key, {
        owner,
        name: c.display_name,
        named: c.named,
        description: c.description || c.intent,
        ...(c.description && c.intent && c.intent !== c.description ? { intent: c.intent } : {}),
        tools: c.tools_used.length ? c.tools_used : NO_TOOLS,
        returns: this.kindList(c.returns),
        ...(c.deprecated ? { deprecated: deprecationNote(c.deprecated) } : {}),
      });
      this.index!.add(capabilityDoc(key, c));
      for (const side of [this.meaning, this.provider]) side?.record(key, c);
      readOne(++read);
    });
    await this.meaning?.save(await this.open());
    return read;
  }

  private refreshTools(tools: readonly ToolEntry[]): void {
    const signature = tools.map((t) => `${t.ns}:${t.name}${t.own ? "+o" : ""}${t.demo ? "+d" : ""}${t.enabled === false ? "-e" : ""}${t.changes ? "+c" : ""}`).join(",");
    if (signature === this.toolSignature) return;
    this.changing = new Set(tools.filter((t) => t.changes).map((t) => `${t.ns}:${t.name}`));
    for (const key of this.toolKeys) this.forget(key);
    this.toolKeys = new Set();
    this.ownTools = new Set();
    this.demoTools = new Map();
    this.notEnabled = new Set();
    for (const t of tools) {
      const key = toolKey(t.ns, t.name);
      this.toolKeys.add(key);
      if (t.own) this.ownTools.add(key);
      if (t.demo) this.demoTools.set(key, t.ns);
      if (t.enabled === false) this.notEnabled.add(key);
      this.index!.add(toolDoc(key, t));
      for (const side of [this.meaning, this.provider]) side?.text(key, toolMeaningText(t));
    }
    this.toolSignature = signature;
  }
}
