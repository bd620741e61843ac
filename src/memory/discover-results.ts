// discover's ranked hits as it answers them: each a capability, a team capability or a tool
// (found.ts), labelled by how well it fits (match-evidence.ts), the deprecated and the contradicted
// ones after the rest.
import type { LearnedHit } from "./associations.ts";
import type { Ranked } from "./discover-rank.ts";
import { type DiscoverState, toolKey } from "./discover-state.ts";
import { capabilityFound, type Found, learnedNote, teamFound } from "./found.ts";
import type { Match, MatchEvidence } from "./match-label.ts";
import { askedFor, labelHits, type OwnWordsRead } from "./match-evidence.ts";
import type { ToolEntry } from "./search-docs.ts";
import { substitutionIn } from "./substitution.ts";
import { codeFitFor } from "./code-match.ts";
import { withValueKinds } from "./value-kinds.ts";

export interface Answer {
  results: Found[];
  keys: string[];
  evidence: MatchEvidence[];
}

/** Per state (its word vectors), its results' words as the labels read them. */
const ownWordsRead = new WeakMap<DiscoverState, OwnWordsRead>();

export function answerOf(state: DiscoverState, query: string, ranked: Ranked, tools: readonly ToolEntry[]): Answer {
  const { misfit, otherTask } = ranked;
  const byKey = new Map(tools.map((t) => [toolKey(t.ns, t.name), t]));
  let read = ownWordsRead.get(state);
  if (!read) ownWordsRead.set(state, (read = new Map()));
  const askedOf = askedFor(withValueKinds(query), state.meaning?.words, read);
  const substituted = substitutionIn(query, state.meaning?.words);
  const fit = codeFitFor(query);
  const labelled = labelHits(
    ranked.hits,
    (key) => askedOf(state.ownWords(key)),
    otherTask ? (key) => otherTask.has(key) || (misfit?.(key) ?? false) : misfit,
    (key) => substituted(state.ownTexts(key)),
    (key) => {
      const read = state.code.get(key);
      return read && fit(read, state.ownTexts(key));
    },
  );
  const hits = labelled.hits;
  const results = hits.map((h, i) => foundOf(state, h, labelled.labels[i]!, byKey));
  // A deprecated capability still answers, after every one that is not; one the request contradicts
  // after every one it does not (the order is otherwise kept).
  const last = (r: Found, key: string) => 2 * Number(!!r.deprecated) + Number(!!misfit?.(key));
  const order = results.map((r, i) => ({ r, key: hits[i]!.key })).sort((a, b) => last(a.r, a.key) - last(b.r, b.key));
  const evidence = new Map(hits.map((h, i) => [h.key, labelled.evidence[i]!]));
  return { results: order.map((o) => o.r), keys: order.map((o) => o.key), evidence: order.map((o) => evidence.get(o.key)!) };
}

/** A hit as discover answers it: a capability, a team capability or a tool. */
function foundOf(state: DiscoverState, h: LearnedHit, match: Match, byKey: ReadonlyMap<string, ToolEntry>): Found {
  const c = state.caps.get(h.key);
  const score = Math.round(h.score * 100) / 100;
  const learned = h.learned ? { learned: learnedNote(h.learned) } : {};
  if (c) return capabilityFound(c, score, match, { variants: h.also?.map((k) => state.caps.get(k)?.name).filter((x): x is string => !!x), ...learned });
  const shared = state.team.get(h.key);
  if (shared) return teamFound(shared, score, match);
  const t = byKey.get(h.key)!;
  return { id: `${t.ns}:${t.name}`, kind: "tool", description: t.description ?? "", score, match, ...learned };
}
