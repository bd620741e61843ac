// `discover {query}`: capabilities (local, user, team) and the tools beside them ranked in one list
// by relevance, in steps: the workspace's state (discover-state.ts) is brought up to date from the
// store's change counter, so records saved by other pml processes are found too, and with the tools
// and team hits of this request (discover-refresh.ts); then ranked (discover-rank.ts) and answered
// (discover-results.ts).
import { CODE_CHARS } from "./code-evidence.ts";
import type { LearnedHit } from "./associations.ts";
import { readCode } from "./code-match.ts";
import { leaders } from "./match-evidence.ts";
import { answerOf, type Answer } from "./discover-results.ts";
import { rank } from "./discover-rank.ts";
import { refreshCapabilities, refreshTeam, refreshTools, settleFirstLoad } from "./discover-refresh.ts";
import { capKey, DiscoverState } from "./discover-state.ts";
import { ProviderSlot } from "./provider-slot.ts";
import type { MemorySettings } from "./memory-settings.ts";
import type { ToolEntry } from "./search-docs.ts";
import type { Capability, CapabilityStore } from "./store.ts";
import type { TeamHit } from "./team.ts";
import type { WordVectors } from "./word-vectors.ts";

/** A request is read this far: a longer one is a pasted text, not a request, and each of its words
 * costs the ranking time (a 1 MB one held the process for 26 s). */
export const QUERY_CHARS = 1000;
export const boundQuery = (q: string) => (q.length > QUERY_CHARS ? q.slice(0, QUERY_CHARS) : q);
const CAP_PREFIX = capKey("");

export class CapabilityDiscovery {
  /**
   * The state of the workspace that asked last, made with its first discover. It holds the records
   * one workspace can find, its own and the user's: a user's memory.db holds every workspace's, and
   * indexing those it never shows made a first discover in a workspace holding none of 10k records
   * grow 37 MiB instead of 14. Another workspace asking (tests; a process serving several) gets a
   * new one; a discover still under way for the other keeps the one it started with.
   */
  private current?: { owner: string; state: Promise<DiscoverState> };
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
  ): Promise<Answer & { warning?: string }> {
    const query = boundQuery(asked);
    const state = await this.stateFor(settings.scope.owner);
    const release = state.ahead.hold();
    try {
      return await this.answer(state, settings, query, tools, limit, team);
    } finally {
      release();
    }
  }

  private async answer(
    state: DiscoverState,
    settings: MemorySettings,
    query: string,
    tools: readonly ToolEntry[],
    limit: number,
    team: readonly TeamHit[] | Promise<readonly TeamHit[]>,
  ): Promise<Answer & { warning?: string }> {
    // A new provider is given every text (re-read); the request's vector is asked for meanwhile.
    if (await this.provider.use(settings.embeddings)) state.rereadAll();
    const near = this.provider.query(query);
    const warning = await this.readStore(state, settings);
    // The team registry answers while the store was read (a promise: its hits are awaited only now).
    const shared = await team;
    refreshTools(state, tools, this.provider);
    refreshTeam(state, shared, this.provider);
    settleFirstLoad(state);
    const ranked = await rank(state, this.provider, query, limit, near);
    await this.readCode(state, ranked.hits);
    const answer = answerOf(state, query, ranked, tools);
    return { ...answer, ...(warning ? { warning } : {}) };
  }

  /** The code and schemas of the capabilities a label may call among `hits` (leaders) that the
   * state has not read yet, in one query (code-match.ts); none when the store cannot be read. */
  private async readCode(state: DiscoverState, hits: readonly LearnedHit[]): Promise<void> {
    const missing = leaders(hits)
      .filter((h) => h.key.startsWith(CAP_PREFIX) && !state.code.has(h.key))
      .map((h) => h.key.slice(CAP_PREFIX.length));
    if (!missing.length) return;
    try {
      for (const [id, r] of await (await this.open()).codeOf(missing, CODE_CHARS)) state.code.set(capKey(id), readCode(r.code, r.parameters));
    } catch {
      // Labels without code evidence, as before it was read.
    }
  }

  /** The store's changes into the state; what went wrong, said as a warning (discover still answers). */
  private async readStore(state: DiscoverState, settings: MemorySettings): Promise<string | undefined> {
    try {
      const store = await this.open();
      await store.adopt(settings.scope);
      await refreshCapabilities(state, store, this.provider);
      return undefined;
    } catch (e) {
      return `Capabilities are not searched: ${(e as Error).message}`;
    }
  }

  private stateFor(owner: string): Promise<DiscoverState> {
    if (this.current?.owner !== owner) {
      this.current?.state.then(
        (given) => given.ahead.stop(),
        () => undefined,
      );
      const state = this.made(owner);
      const current = { owner, state };
      // One that failed to load is made again by the next discover.
      state.catch(() => {
        if (this.current === current) this.current = undefined;
      });
      this.current = current;
    }
    return this.current.state;
  }

  /** A new, empty state: its code and the word vectors are loaded with the first `discover {query}`. */
  private async made(owner: string): Promise<DiscoverState> {
    const [{ SearchIndex }, { AssociationIndex, associationSimilarity, fuseLearned }, hybrid, { Meaning }] = await Promise.all([
      import("./search.ts"),
      import("./associations.ts"),
      import("./hybrid.ts"),
      import("./meaning.ts"),
    ]);
    const meaning = (await Meaning.load(this.vectors)) ?? null;
    // Past phrasings compared by meaning too when there are word vectors.
    const learning = new AssociationIndex(this.open, () => associationSimilarity(meaning?.words));
    return new DiscoverState(owner, new SearchIndex(), meaning, learning, { hybrid, fuseLearned });
  }

  /** Resolves once the state's records are read ahead (read-ahead.ts). */
  async readAhead(): Promise<void> {
    await (await this.current?.state.catch(() => undefined))?.ahead.idle();
  }

  /** The input schemas of the capabilities among a discover's `keys`, by key: those the state read
   * before from the store kept, the others read in one query. Every change to a record moves its
   * seq, and the next discover reads it (and forgets its schema) before any answer shows it. */
  async parametersOf(keys: readonly string[]): Promise<Map<string, Capability["parameters_schema"]>> {
    const kept = (await this.current?.state.catch(() => undefined))?.parameters;
    const out = new Map<string, Capability["parameters_schema"]>();
    const missing: string[] = [];
    for (const key of keys) {
      if (!key.startsWith(CAP_PREFIX)) continue;
      const schema = kept?.get(key);
      if (schema) out.set(key, schema);
      else missing.push(key.slice(CAP_PREFIX.length));
    }
    if (!missing.length) return out;
    for (const [id, schema] of await (await this.open()).parametersOf(missing)) {
      out.set(capKey(id), schema);
      kept?.set(capKey(id), schema);
    }
    return out;
  }

  /** Keeps a saved capability's text vector beside it (when there are word vectors). */
  async keep(c: Capability): Promise<void> {
    // Only where a discover already loaded the vectors: a process that only saves (an agent's
    // `execute` runs) does not carry them (~20 MB); the next discover embeds what it lacks, once,
    // and writes it back (discover-refresh.ts), so nothing is embedded twice.
    const meaning = (await this.current?.state.catch(() => undefined))?.meaning;
    if (!meaning || c.record_type !== "capability") return;
    const { vectorOf } = await import("./meaning.ts");
    const v = vectorOf(meaning.words, c);
    if (v) await (await this.open()).saveVectors([{ id: c.id, ...v }]);
  }
}
