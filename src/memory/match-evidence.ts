// The evidence behind discover's `match` labels (match-label.ts), read for the results only (a few):
// besides what the ranking measured (the request's words and meaning the result holds), how much of
// what the result says it does the request asked for. And past use's place: it lifts a result, but
// never puts one that does more than asked above one that does exactly what was asked.
import type { LearnedHit } from "./associations.ts";
import { doesMore, LABEL, labelOf, type Match, type MatchEvidence } from "./match-label.ts";
import type { ProviderHit } from "./provider-fusion.ts";
import type { Substitution } from "./substitution.ts";
import type { CodeFit } from "./code-match.ts";
import { terms } from "./search.ts";
import { words } from "./search-words.ts";
import type { WordVectors } from "./word-vectors.ts";

/** Word vectors' cosine at which a result's word counts as asked for, and below which not at all
 * (between them in part): "remove" for "delete", not "file" for "folder". */
export const ASKED_COSINE = { full: 0.75, none: 0.45 };

/** Version tails and numbers in a name (`read_config_v42`) say nothing it does. */
const NOT_A_WORD = /^v?\d+$/;

/**
 * For one request, the share of a result's own words it asks for: each distinct word (by stem) of
 * `own` counts 1 when the request holds its stem, else its best cosine with the request's words
 * (ASKED_COSINE), none without word vectors. 1 when `own` holds no word.
 */
export function askedFor(query: string, vectors?: WordVectors, read: OwnWordsRead = new Map()): (own: string) => number {
  const asked = new Set(terms(query));
  const queryRanks = vectors?.ranks(query);
  const span = ASKED_COSINE.full - ASKED_COSINE.none;
  // Per word, once per request: the results of one request share most of their words.
  const credits = new Map<string, number>();
  const credit = (w: OwnWord) => {
    if (!vectors || !queryRanks?.length) return 0;
    let c = credits.get(w.word);
    if (c === undefined) {
      const r = w.ranks;
      c = r?.length ? Math.min(1, Math.max(0, (vectors.alignOnce(r, queryRanks) - ASKED_COSINE.none) / span)) : 0;
      credits.set(w.word, c);
    }
    return c;
  };
  return (own) => {
    const seen = ownWords(own, vectors, read);
    if (!seen.length) return 1;
    let sum = 0;
    for (const w of seen) sum += asked.has(w.stem) ? 1 : credit(w);
    return sum / seen.length;
  };
}

/** A distinct word (by stem) of a result's text, as first spelled there, and its word vectors' ranks. */
interface OwnWord {
  stem: string;
  word: string;
  ranks?: Int32Array;
}

/** Per result text, its words, read once for the requests that answer it with the same word
 * vectors (askedFor's caller keeps it: tokenizing them for every request was most of the labels'
 * cost). Bounded by OWN_KEPT. */
export type OwnWordsRead = Map<string, readonly OwnWord[]>;
const OWN_KEPT = 4096;

function ownWords(own: string, vectors: WordVectors | undefined, texts: OwnWordsRead): readonly OwnWord[] {
  const kept = texts.get(own);
  if (kept) return kept;
  const seen = new Map<string, OwnWord>();
  for (const w of words(own)) {
    if (NOT_A_WORD.test(w)) continue;
    const s = terms(w)[0];
    if (s !== undefined && !seen.has(s)) seen.set(s, { stem: s, word: w, ranks: vectors?.ranks(w) });
  }
  const out = [...seen.values()];
  if (texts.size >= OWN_KEPT) texts.clear();
  texts.set(own, out);
  return out;
}

/**
 * The hits' labels (`asked`: askedFor's share for a key), and their order with past use kept in its place: a hit past use lifted that does
 * more than asked goes after every hit that does exactly what was asked (labelled strong), whatever
 * its score. `misfit`: a hit the request's data contradicts is never a fit. `substituted`
 * (substitution.ts): read only for a hit that would be called, strong or fair (it aligns two texts).
 */
export function labelHits(
  hits: readonly LearnedHit[],
  asked: (key: string) => number,
  misfit?: (key: string) => boolean,
  substituted?: (key: string) => Substitution | undefined,
  byCode?: (key: string) => CodeFit | undefined,
): { hits: LearnedHit[]; labels: Match[]; evidence: MatchEvidence[] } {
  const unlearned = (h: LearnedHit) => h.unlearned ?? h.score;
  const words = bestTwo(hits.map(unlearned));
  const lifted = bestTwo(hits.map((h) => h.score));
  const ahead = (x: number, [a, b]: [number, number]) => x - (x >= a ? b : a);
  const meant = meaningLeads(hits);
  const rows = hits.map((h) => {
    const e: MatchEvidence = {
      ...{ covered: h.covered ?? 0, similarity: h.similarity ?? 0, learned: h.learned?.weight ?? 0, asked: asked(h.key) },
      ...{ margin: ahead(unlearned(h), words), lead: ahead(h.score, lifted) },
      ...(meant ? { meaning: meant.cosine(h), meaningLead: meant.lead(h) } : {}),
    };
    // Read only for a hit ahead of the others (leaders): no other is labelled strong or fair.
    const code = e.margin > 0 || e.lead > 0 ? byCode?.(h.key) : undefined;
    if (code && (code.covers || code.opposed || code.leans || code.unfilled || code.fills)) e.code = code;
    if (misfit?.(h.key)) return { h, e, label: "weak" as const };
    let label = labelOf(e);
    const sub = label !== "weak" ? substituted?.(h.key) : undefined;
    if (sub) label = labelOf(Object.assign(e, { substituted: sub }));
    return { h, e, label };
  });
  const lastExact = rows.findLastIndex((r) => r.label === "strong");
  const raised = (r: (typeof rows)[number], i: number) => i < lastExact && r.h.learned !== undefined && doesMore(r.e);
  const kept = rows.filter((r, i) => !raised(r, i));
  const moved = rows.filter((r, i) => raised(r, i));
  const at = kept.findLastIndex((r) => r.label === "strong") + 1;
  const order = [...kept.slice(0, at), ...moved, ...kept.slice(at)];
  return { hits: order.map((r) => r.h), labels: order.map((r) => r.label), evidence: order.map((r) => r.e) };
}

/** The hits a label may call (strong or fair): the best before past use, at least strongMargin
 * ahead of the next, and the best with it, at least fairMargin ahead (labelOf needs that lead over
 * every other result: labelHits' margin and lead). */
export function leaders<H extends LearnedHit>(hits: readonly H[], t = LABEL): H[] {
  const unlearned = (h: H) => h.unlearned ?? h.score;
  const best = (score: (h: H) => number, by: number) => {
    const [a, b] = bestTwo(hits.map(score));
    return a - b >= by ? hits.find((h) => score(h) === a) : undefined;
  };
  return [...new Set([best(unlearned, t.strongMargin), best((h) => h.score, t.fairMargin)])].filter((h): h is H => h !== undefined);
}

/** The results the provider's lead is read over: discover ranks ten unless asked for more, and a
 * longer list would widen the spread. */
const LEAD_OVER = 10;

/** The provider's cosine of each hit (provider-fusion.ts; -1 without a vector) and its lead over the
 * best other's of the first LEAD_OVER, as a share of the spread of their cosines; undefined when no
 * provider ranked them or their cosines do not differ. */
function meaningLeads(hits: readonly LearnedHit[]): { cosine(h: LearnedHit): number; lead(h: LearnedHit): number } | undefined {
  const cosine = (h: LearnedHit) => (h as ProviderHit).provider ?? -1;
  if (!hits.some((h) => (h as ProviderHit).provider !== undefined)) return undefined;
  const cosines = hits.slice(0, LEAD_OVER).map(cosine);
  const known = cosines.filter((c) => c > -1);
  const spread = Math.max(...known) - Math.min(...known);
  if (!(spread > 0)) return undefined;
  const [a, b] = bestTwo(cosines, -1);
  return { cosine, lead: (h) => (cosine(h) - (cosine(h) >= a ? b : a)) / spread };
}

/** The best two scores (`none` for a missing one). */
function bestTwo(scores: readonly number[], none = 0): [number, number] {
  let a = none;
  let b = none;
  for (const score of scores) {
    if (score > a) [a, b] = [score, a];
    else if (score > b) b = score;
  }
  return [a, b];
}
