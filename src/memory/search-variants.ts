// What stands for a word of a request in the index (search.ts): its synonyms from the thesaurus of
// the words people use for programming tasks, WordNet's synonyms and the words of its definitions,
// of single words and of two-word verbs ("add up": sum, total), and the indexed words it is a
// prefix of or that are a prefix of it; each counts less than the word itself.
import { firstAfter } from "./sorted.ts";
import { SYNONYM_GROUPS } from "./thesaurus.ts";
import { type WordnetWords, wordnetWords } from "./wordnet.ts";

const SYNONYM_WEIGHT = 0.55;
/** WordNet's synonyms (first sense only) are general English, not picked for programming: less. */
const WORDNET_WEIGHT = 0.4;
/** The words of a WordNet definition ("monogram": a graphic symbol of letters, usually initials)
 * say what a word is about, not what else to call it: less again. */
const GLOSS_WEIGHT = 0.25;
/** A word that is a prefix of another (cron/crontab, modif/modifi: stems of one family that the
 * stemmer left apart) counts this much; the shorter one needs at least PREFIX_MIN letters. */
const PREFIX_WEIGHT = 0.5;
const PREFIX_MIN = 4;
/** Longer words it is a prefix of, at most. */
const PREFIXED_MAX = 20;

/** stem -> the stems it is a synonym of (built once from the thesaurus). */
let synonyms: Map<string, Set<string>> | undefined;
function synonymsOf(term: string, stem: (word: string) => string): Set<string> | undefined {
  if (!synonyms) {
    synonyms = new Map();
    for (const group of SYNONYM_GROUPS) {
      const stems = [...new Set(group.split(" ").map((w) => stem(w)))];
      for (const s of stems) {
        let set = synonyms.get(s);
        if (!set) synonyms.set(s, (set = new Set()));
        for (const o of stems) if (o !== s) set.add(o);
      }
    }
  }
  return synonyms.get(term);
}

/** The index's words, as the variants need them. */
export interface Vocabulary {
  has(term: string): boolean;
  /** Every indexed word, sorted. */
  sorted(): readonly string[];
}

/** Indexed terms that start with `q`, or that `q` starts with (both at least PREFIX_MIN long). */
function prefixRelatives(q: string, vocabulary: Vocabulary): string[] {
  if (q.length < PREFIX_MIN) return [];
  const out: string[] = [];
  for (let k = PREFIX_MIN; k < q.length; k++) if (vocabulary.has(q.slice(0, k))) out.push(q.slice(0, k));
  const sorted = vocabulary.sorted();
  for (let i = firstAfter(sorted, q); i < sorted.length && sorted[i]!.startsWith(q) && out.length < PREFIXED_MAX; i++) out.push(sorted[i]!);
  return out;
}

export interface VariantOptions {
  synonyms: boolean;
  /** WordNet's synonyms beside the thesaurus (only with `synonyms`). */
  wordnet: boolean;
  stem: (word: string) => string;
}

/** The word itself and what stands for it (thesaurus, WordNet, prefixes), with their weights;
 * `paired`: what WordNet says of the two-word phrases it is part of ("add up"). */
export function variantsOf(q: string, vocabulary: Vocabulary, opts: VariantOptions, paired: readonly WordnetWords[] = []): Array<[string, number]> {
  const variants: Array<[string, number]> = [[q, 1]];
  if (!opts.synonyms) return variants;
  for (const syn of synonymsOf(q, opts.stem) ?? []) variants.push([syn, SYNONYM_WEIGHT]);
  if (opts.wordnet) {
    for (const wordnet of [wordnetWords(q), ...paired]) {
      for (const syn of wordnet.synonyms) variants.push([syn, WORDNET_WEIGHT]);
      for (const g of wordnet.gloss) variants.push([g, GLOSS_WEIGHT]);
    }
  }
  for (const related of prefixRelatives(q, vocabulary)) variants.push([related, PREFIX_WEIGHT]);
  return variants;
}
