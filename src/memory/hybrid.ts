// One ranking for discover out of two: the lexical score (search.ts: exact words, stems, synonyms)
// and the similarity of meaning by word vectors (meaning.ts: mostly a word-by-word alignment, partly
// the cosine of mean vectors), each scaled to 0..1 over the candidates and mixed. Words are precise when they match and silent when they do not ("how many feet is 3
// meters" shares no word with "convert a distance between metric and imperial units"); vectors
// hear the meaning but blur neighbours. Then pml's own tools (dns, meta, learn: about capabilities,
// not tasks) step back unless the request is about capabilities, versions or names, a demo server's
// unless the request names it (discover-rank.ts). How well a result matches is read apart from its rank,
// from absolute evidence (match-label.ts): a best result can still be a poor fit.
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
  /** A demo or test server's tools keep this share for a request that does not name the server. */
  demoToolFactor: 0.35,
  /** Tools of a catalog server the user has not enabled or installed keep this share: between two
   * fits about as good, the one already set up runs now, without an install or a new grant. */
  notEnabledFactor: 0.9,
  /** A capability the request's data contradicts (kind-fit.ts: a CSV counter for guests.txt, °C→°F
   * for "68 F") keeps this share: a near-twin's words and meaning score it as high as the right one.
   * 0.3, not 0.6: it then leaves the first results an agent calls from, where a first request's best
   * result was often a misfit (bench/reuse.ts: wrong reuses 15/18/21 -> 14/17/15; no top-5 changed). */
  misfitFactor: 0.3,
  /** The word-by-word alignment's share of the vector side's similarity (meaning.ts; the rest: the mean vectors' cosine). */
  alignmentShare: 0.85,
  /** The share of a full match (every query word) that counts as a full lexical score. */
  fullShare: 0.2,
  /** How many records the vector side brings at least, nearest first, whatever the limit (more
   * for a larger limit). 100 or 1,000 instead changed no top-20 on the tuning sets: a record the
   * mean vectors rank that low does not rise into the results by its alignment either. */
  vectorPool: 50,
};

/** Stems of the words that make a request one about pml's own records and servers (what dns, meta,
 * learn serve): one of these, a capability's name (`fs:read_json`), or two of the others, which
 * tasks use too ("rename Acme to Globex in contract.md", "the version in package.json"). */
const ABOUT_MEMORY = new Set(terms("capability capabilities alias namespace whois pml learned curate"));
const ABOUT_MEMORY_TOO = new Set(terms("version versions history rename renamed fork lookup record records feedback server servers"));
/** A capability's name: `ns:action` (not a URL's `https://`, not a time's `10:30`). */
const CAPABILITY_NAME = /(?:^|[\s"'`(])[a-z][\w-]*:[a-z][\w.-]*/i;

export function aboutMemory(query: string): boolean {
  const ts = terms(query);
  if (ts.some((t) => ABOUT_MEMORY.has(t)) || CAPABILITY_NAME.test(query)) return true;
  return new Set(ts.filter((t) => ABOUT_MEMORY_TOO.has(t))).size >= 2;
}

export interface FuseInput {
  /** The lexical candidates, best first (raw scores). */
  lexical: Hit[];
  /** The vector side's best candidates as [key, cosine]. */
  nearest: Array<[string, number]>;
  /** The cosine of any key (lexical candidates the vector side did not rank). */
  cosine: (key: string) => number | undefined;
  /** The share of its score a key keeps (pml's own tools, demo servers' step back; discover-rank.ts). */
  factor?: (key: string) => number;
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
  const covered = new Map(input.lexical.map((h) => [h.key, h.covered ?? 0]));
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
    if (input.factor) score *= input.factor(key);
    if (score > 0) out.push({ key, score, covered: covered.get(key) ?? 0, similarity: c });
  }
  return out.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
