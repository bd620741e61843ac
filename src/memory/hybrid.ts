// One ranking for discover out of two: the lexical score (search.ts: exact words, stems, synonyms)
// and the similarity of meaning by word vectors (meaning.ts: mostly a word-by-word alignment, partly
// the cosine of mean vectors), each scaled to 0..1 over the candidates and mixed. Words are precise when they match and silent when they do not ("how many feet is 3
// meters" shares no word with "convert a distance between metric and imperial units"); vectors
// hear the meaning but blur neighbours. Then pml's own tools (dns, meta, learn: about capabilities,
// not tasks) step back unless the request is about capabilities, versions or names.
import type { Hit } from "./search.ts";
import { terms } from "./search.ts";

/** The fusion's settings (tuned on QUERIES and MEANING_TUNE in bench/memory-intents.ts; a bench
 * may change them to measure). */
export const FUSION = {
  /** The vector side's share of the fused score. */
  vectorWeight: 0.35,
  /** A similarity below this is no evidence of meaning (unrelated texts score about this much). */
  cosineFloor: 0.25,
  /** pml's own tools keep this share of their score for a request that is not about them. */
  ownToolFactor: 0.35,
  /** The word-by-word alignment's share of the vector side's similarity (meaning.ts; the rest: the mean vectors' cosine). */
  alignmentShare: 0.85,
  /** The share of a full match (every query word) that counts as a full lexical score. */
  fullShare: 0.2,
};

/** Stems of the words that make a request one about pml's own records and servers (what dns, meta, learn serve). */
const ABOUT_MEMORY = new Set(
  terms("capability capabilities version versions history rename renamed alias namespace fork whois lookup pml record records learned curate feedback server servers"),
);

export function aboutMemory(query: string): boolean {
  return terms(query).some((t) => ABOUT_MEMORY.has(t));
}

export interface FuseInput {
  /** The lexical candidates, best first (raw scores). */
  lexical: Hit[];
  /** The vector side's best candidates as [key, cosine]. */
  nearest: Array<[string, number]>;
  /** The cosine of any key (lexical candidates the vector side did not rank). */
  cosine: (key: string) => number | undefined;
  /** pml's own tools, demoted unless the request is about memory. */
  own?: (key: string) => boolean;
  aboutMemory?: boolean;
  weight?: number;
  /** What a record holding every query word would score lexically (SearchIndex's Fuse). */
  full?: number;
}

/** The candidates of both sides ranked by the mixed score, best first. */
export function fuse(input: FuseInput): Hit[] {
  const w = input.weight ?? FUSION.vectorWeight;
  // Scaled by the best candidate's score, or by a share of what a record holding every query word
  // would score when that is more: a weak best match (one common word of five) is not a full one.
  const maxLex = Math.max(input.lexical[0]?.score ?? 0, FUSION.fullShare * (input.full ?? 0));
  const lex = new Map(input.lexical.map((h) => [h.key, maxLex ? h.score / maxLex : 0]));
  const cos = new Map(input.nearest);
  for (const h of input.lexical) if (!cos.has(h.key)) cos.set(h.key, input.cosine(h.key) ?? 0);
  let maxCos = 0;
  for (const c of cos.values()) maxCos = Math.max(maxCos, c);
  const floor = FUSION.cosineFloor;
  const span = maxCos - floor;
  const out: Hit[] = [];
  for (const [key, c] of cos) {
    const v = span > 0 ? Math.max(0, c - floor) / span : 0;
    let score = (1 - w) * (lex.get(key) ?? 0) + w * v;
    if (!input.aboutMemory && input.own?.(key)) score *= FUSION.ownToolFactor;
    if (score > 0) out.push({ key, score });
  }
  return out.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
