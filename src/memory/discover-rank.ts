// discover's ranking over a workspace's DiscoverState: words (search.ts) fused with meaning (word
// vectors, meaning.ts; hybrid.ts) and the embeddings provider's (provider-fusion.ts), then past use
// (associations.ts), twins left out; asked again for more when the request contradicts most of
// what it found (kind-fit.ts). It reads the state and changes nothing in it.
import type { LearnedHit } from "./associations.ts";
import type { DiscoverState } from "./discover-state.ts";
import { atMostHalf, MISFIT_REACH, misfitFor } from "./kind-fit.ts";
import type { ProviderQuery, ProviderSlot } from "./provider-slot.ts";
import { withoutTwins } from "./search-docs.ts";
import { twinRequest } from "./substitution.ts";
import { words } from "./search-words.ts";
import type { Hit } from "./search.ts";
import { withValueKinds } from "./value-kinds.ts";

export interface Ranked {
  hits: LearnedHit[];
  /** Whether the request's data or wanted answer contradicts a key (undefined: it says nothing of either). */
  misfit?: (key: string) => boolean;
  /** Items past use chose for the request's twin (withLearning): never a fit, in their place by words. */
  otherTask?: ReadonlySet<string>;
}

/** The best `limit` for `query`; `near`: the request's vector against the provider's, when there is one. */
export async function rank(state: DiscoverState, provider: ProviderSlot, query: string, limit: number, near: Promise<ProviderQuery | undefined>): Promise<Ranked> {
  const visible = (key: string) => state.visible(key);
  // A capability the request's data or wanted answer contradicts steps back on both sides (words
  // and meaning, past use) and is never marked a fit.
  const misfit = misfitFor(
    query,
    (key) => state.kindsOf(key),
    (key) => state.factsOf(key),
    (key) => state.wordsOf(key),
  );
  const otherTask = new Set<string>();
  // Twins left out leave their place empty: asking for more would move the fusion's scale. Every
  // answer is one the workspace may see, whatever put it there (DiscoverState.visible).
  const ranked = async (n: number) =>
    withoutTwins(
      await withLearning(state, query, search(state, provider, query, n, visible, misfit, await near), visible, n, otherTask, misfit),
      (key) => state.toolName(key),
      state.tools.notEnabled,
    ).filter((h) => visible(h.key));
  const hits = await ranked(limit);
  // Contradicted ones fill at most half the results when others are found: asked for more, the
  // first of those come before them (an agent calls from the first few; the misfits stay findable).
  const other = otherTask.size ? { otherTask } : {};
  if (misfit && hits.filter((h) => misfit(h.key)).length > limit / 2) return { hits: atMostHalf(await ranked(limit * MISFIT_REACH), limit, misfit), misfit, ...other };
  return { hits, ...(misfit ? { misfit } : {}), ...other };
}

const ALL = () => true;

/** Lexical candidates fused with the nearest by meaning (hybrid.ts), for the request and the
 * kinds of the values it holds (value-kinds.ts). */
function search(
  state: DiscoverState,
  provider: ProviderSlot,
  asked: string,
  limit: number,
  visible: (key: string) => boolean,
  misfit: ((key: string) => boolean) | undefined,
  near?: ProviderQuery,
): Hit[] {
  const { aboutMemory, fuse, FUSION } = state.parts.hybrid;
  const query = withValueKinds(asked);
  const named = new Set(words(query));
  const { own, demo, notEnabled } = state.tools;
  // How much of its score a result keeps: pml's own tools step back unless the request is about
  // memory, a demo server's unless the request names it, a server not enabled a little, a
  // capability the request's data contradicts.
  const about = aboutMemory(query);
  const factor = (key: string) => {
    let f = 1;
    if (!about && own.has(key)) f *= FUSION.ownToolFactor;
    const ns = demo.get(key);
    if (ns !== undefined && !named.has(ns)) f *= FUSION.demoToolFactor;
    if (notEnabled.has(key)) f *= FUSION.notEnabledFactor;
    if (misfit?.(key)) f *= FUSION.misfitFactor;
    return f;
  };
  const meaning = state.meaning;
  // The state's own indexes hold only what the workspace may see: their scans ask nothing of a key
  // (asking was a tenth of a discover at 10k records); the provider's vectors are every workspace's.
  return state.index.search(query, limit, undefined, (lexical, want, full) => {
    const m = meaning?.nearest(query, Math.max(want, FUSION.vectorPool), ALL);
    const fused = fuse({ lexical, full, nearest: m?.nearest ?? [], cosine: m?.cosine ?? (() => undefined), factor, ...(m ? {} : { weight: 0 }) });
    return near ? provider.fuse({ fused, query: near, want, accept: visible, factor, similarity: (key) => m?.cosine(key) }) : fused;
  });
}

/**
 * Past use fused after the words' ranking (a separate step: see associations.ts). An item whose
 * past request asked for this request's twin ("the unchecked items of a.md" for "the checked items
 * of b.md") gains nothing and goes into `otherTask`: past use chose it for the other task. The
 * same user phrases twin tasks alike, so past requests are where near twins meet most.
 */
async function withLearning(
  state: DiscoverState,
  query: string,
  hits: Hit[],
  visible: (key: string) => boolean,
  limit: number,
  otherTask: Set<string>,
  misfit?: (key: string) => boolean,
): Promise<LearnedHit[]> {
  const { hybrid, fuseLearned } = state.parts;
  const keeps = misfit && ((key: string) => (misfit(key) ? hybrid.FUSION.misfitFactor : 1));
  try {
    const boosts = await state.learning.boosts(state.owner, query);
    const twin = boosts.size ? twinRequest(query) : undefined;
    for (const [key, l] of boosts)
      if (twin?.(l.query)) {
        boosts.delete(key);
        otherTask.add(key);
      }
    return fuseLearned(hits, boosts, visible, limit, keeps);
  } catch {
    return hits; // the store is unavailable: the warning says so already
  }
}
