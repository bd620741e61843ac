// What discover's `match` label promises, as a pure function of evidence (issue 46, DESIGN §8b "A
// label is a promise"): `[strong]` means "this does what you asked", so an agent may call it without
// reading further. The evidence runs both ways: how much of the request the result's words and
// meaning hold (covered, similarity), and how much of what the result does the request asked for
// (asked: a capability "shout a text file in upper case" holds "read a file"'s words, but "shout",
// "upper case" were not asked: it does more). Past use (learned) may make a result worth reading,
// never `[strong]` by itself. Apart from the ranking, so that a score fused from other signals (an
// embeddings provider) leaves what a label means as it is.
import type { CodeFit } from "./code-match.ts";
import type { Substitution } from "./substitution.ts";

/** How well a result fits a request whatever its rank: "strong" and "fair" are worth calling as they
 * are; "weak" is the best there was, not a fit (an agent then writes the code). */
export type Match = "strong" | "fair" | "weak";

export interface MatchEvidence {
  /** The share of the request's words (by rarity) the result holds (search.ts). */
  covered: number;
  /** The similarity of meaning of the request to the result (hybrid.ts, meaning.ts). */
  similarity: number;
  /** The share of the result's own words (its name's action and its intent, a tool's name) that the
   * request covers, by stem or by meaning (match-evidence.ts); 1 when they are not known. */
  asked: number;
  /** Past use's weight for this request (associations.ts); 0 when none. */
  learned: number;
  /** How far its score before past use is ahead of the best other result's (negative: behind it):
   * two results about as good for a request (near twins: "number of words" and "number to words")
   * are not certain. */
  margin: number;
  /** The same with past use added: how far past use put it ahead. */
  lead: number;
  /** The embeddings provider's cosine of the request and the result, where a provider ranked it
   * (provider-fusion.ts; -1: it has no vector yet); absent without a provider. */
  meaning?: number;
  /** How far that cosine is ahead of the best other result's (negative: behind it), over the spread
   * of the results' cosines: a share, so that it reads the same whatever the model's cosine scale
   * (one model's unrelated texts score 0.1, another's 0.5). Absent without a provider. */
  meaningLead?: number;
  /** The request puts another word in one of its slots, or converts the other way round
   * (substitution.ts): a different task, never strong. Read only where it would be strong or fair. */
  substituted?: Substitution;
  /** What its code says of the request (code-match.ts): words it holds that the texts do not, the
   * opposite of what was asked, a required value the request does not give. Capabilities only. */
  code?: CodeFit;
}

/**
 * The thresholds, tuned on bench/memory.ts's tuning set, held-out 1-6 and the meaning set and on the
 * main and held-out reuse streams (never on the blind ones), precision first. There, strong first
 * results were right 69 times in 74 (quality sets and streams together); the words alone (covered,
 * similarity) could not do better than ~88%: asked and margin are what made strong precise.
 * bench/memory.ts and bench/reuse.ts print per label how many first results carried it and how many
 * were right.
 */
export const LABEL = {
  /** Strong: most of the request's words held and a fair similarity of meaning, or a high one. */
  strongCovered: 0.6,
  strongCoveredSimilarity: 0.7,
  strongSimilarity: 0.85,
  /** ...at least this share of what it does asked for... */
  strongAsked: 0.4,
  /** ...and this far ahead of the next result (fused scores are 0..1 before past use is added). */
  strongMargin: 0.05,
  /** Fair: worth calling when nothing is strong (the agent checks its parameters first); ahead of
   * the others. fairMargin 0.1 -> 0.05 (2026-12-07), swept on the 13 retired reuse streams x 2 seeds
   * (bench/reuse.ts; 0.07/0.05/0.03/0.02): mean first try 43.1 -> 48.3%, wrong calls 109 -> 116 of
   * 684 -> 760 (the calls it adds 91% right, above the 84% of the others); below 0.05 the added
   * calls were 82% right and wrong calls on repeats grew (35 -> 45, 50). Judged on blind12 (fresh):
   * first try 20 -> 25% and 25 -> 30%, no wrong call added (1/10 -> 1/12, 2/12 -> 2/15). Its cost
   * is at scale (bench/memory.ts, 2,040 records): 70 more fair first results, 38 right, so fair's
   * precision there 83.8 -> 80.4% (0.07: 42 more, 27 right, 82.4%). */
  fairCovered: 0.4,
  fairSimilarity: 0.5,
  fairAsked: 0.3,
  fairMargin: 0.05,
  /** Fair too: far ahead of every other result by words and meaning, with a fair similarity, however
   * few of its own words the request says ("what's 48879 in hex?" for `decimal_to_hex`). */
  fairAheadMargin: 0.25,
  fairAheadSimilarity: 0.55,
  /** A twin that past use lifts (a past request said the same but the slot: its own task) is not
   * worth calling: an agent would call the task the past request asked for. */
  twinLearned: 0.3,
  /** Past use's weight that makes a result clearly ahead worth reading (0.8: one use of the same words). */
  fairLearned: 0.4,
  /** Below this share of its words asked for, a result does more (or other) than asked: past use
   * never lifts it above one that does exactly what was asked (match-evidence.ts). */
  doesMoreAsked: 0.6,
  /** With an embeddings provider, its meaning must agree: strong only when the provider too puts the
   * result clearly nearest (meaningLead), else fair (still worth calling, checked first); a weak best
   * result the provider puts clearly nearest, ahead by words and meaning too (fairMargin), is fair.
   * Tuned with USE lite (bench/embed-server.ts) on bench/memory.ts --provider's sets not written
   * blind: strong firsts 64 right / 4 wrong -> 22 / 0; weak firsts so raised 4 / 0. On the retired
   * reuse streams (bench/reuse.ts --provider) strong calls became rarer (3-8 -> 0-6 a stream) but
   * near twins still pass: blind5 kept 2-3 wrong of 3-4; 0.4 kept blind4's and blind5's wrong ones
   * and lost right ones. */
  strongMeaningLead: 0.3,
  fairMeaningLead: 0.3,
  /** Fair by its code: a result ahead of the others (fairMargin) whose code holds a request word its
   * texts do not ("max-min" against Math.max/Math.min), with this similarity of meaning. */
  codeFairSimilarity: 0.45,
  /** Fair by its parameters: a capability this far ahead of the others whose required parameters the
   * request's values fill one to one, by kind (code-match.ts fills), however few of its words the
   * request says ("7322 secs -> h:m:s" for `format_duration`). */
  fillsFairMargin: 0.15,
};

export function labelOf(e: MatchEvidence, t = LABEL): Match {
  if (e.substituted === "twin" && e.learned >= t.twinLearned) return "weak";
  // Its code does the opposite of what was asked, whatever its texts say.
  if (e.code?.opposed) return "weak";
  const byWords = labelByWords(e, t);
  if (e.meaningLead === undefined) return byWords;
  if (byWords === "strong") return e.meaningLead >= t.strongMeaningLead ? "strong" : "fair";
  return byWords === "weak" && e.meaningLead >= t.fairMeaningLead && e.margin >= t.fairMargin ? "fair" : byWords;
}

/** The label from the words, built-in meaning and past use alone (all there is without a provider). */
function labelByWords(e: MatchEvidence, t: typeof LABEL): Match {
  const strongWords = (e.covered >= t.strongCovered && e.similarity >= t.strongCoveredSimilarity) || e.similarity >= t.strongSimilarity;
  if (strongWords && e.asked >= t.strongAsked && e.margin >= t.strongMargin && !e.substituted && !e.code?.unfilled && !e.code?.leans) return "strong";
  if (e.margin >= t.fairMargin && (e.covered >= t.fairCovered || e.similarity >= t.fairSimilarity) && e.asked >= t.fairAsked) return "fair";
  if (e.margin >= t.fairAheadMargin && e.similarity >= t.fairAheadSimilarity) return "fair";
  if (e.code && e.code.covers > 0 && !e.code.unfilled && !e.code.leans && !e.substituted && e.margin >= t.fairMargin && e.similarity >= t.codeFairSimilarity) return "fair";
  if (e.code?.fills && !e.code.unfilled && !e.code.leans && !e.substituted && e.margin >= t.fillsFairMargin) return "fair";
  return e.learned >= t.fairLearned && e.lead >= t.fairMargin ? "fair" : "weak";
}

/** Its words and meaning fit the request (as a fair one's do), however close others come. */
export const fitsByWords = (e: MatchEvidence, t = LABEL) => (e.covered >= t.fairCovered || e.similarity >= t.fairSimilarity) && e.asked >= t.fairAsked;

/** It does more (or other) than the request asks: past use may not put it above an exact fit. */
export const doesMore = (e: MatchEvidence, t = LABEL) => e.asked < t.doesMoreAsked;
