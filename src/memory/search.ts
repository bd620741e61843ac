// Ranking capabilities and tools by how well they fit the words an agent uses, offline and in a
// few milliseconds at 10k+ records: BM25F over the record's own fields (name, intent, description,
// the tools it uses, its parameter names), with stemming, a small thesaurus of the words people
// use for programming tasks, WordNet's synonyms and the words of its definitions, of single words
// and of two-word verbs ("add up": sum, total) (query side, search-variants.ts: a synonym counts
// less than the word itself; a word that only says where the data lies, "in this email", less
// too), then result diversity (search-diversity.ts), so that near-duplicates do not fill the few
// places an agent reads.
import { stemmer } from "stemmer";
import { grown } from "./grown.ts";
import { KeyRanks } from "./key-ranks.ts";
import { placeWords, words, wordsInOrder } from "./search-words.ts";
import { diverse, poolFor } from "./search-diversity.ts";
import { type VariantOptions, variantsOf, type Vocabulary } from "./search-variants.ts";
import { SlotLists } from "./slot-lists.ts";
import { TopK } from "./top-k.ts";
import { groupHash } from "./variant-group.ts";
import { type WordnetWords, wordnetPhrases } from "./wordnet.ts";

export interface SearchDoc {
  key: string;
  /** Words of the name (`fs:read_json` -> fs read json). */
  name: string;
  intent?: string;
  description?: string;
  /** Tool ids it uses (`filesystem:read_file`). */
  tools?: readonly string[];
  params?: readonly string[];
}

type Field = "name" | "intent" | "description" | "tools" | "params";
const FIELDS: readonly Field[] = ["name", "intent", "description", "tools", "params"];
/** The intent at 2.5, not 2: a request's incidental verb ("verify the download", "render this
 * paragraph in Spanish") matched in a look-alike's name outweighed the intent that says the task
 * (bench/memory.ts at 10k, retired held-out 8-12: top-1/5/20 162/219/241 -> 164/219/244 of 280). */
const WEIGHT: Record<Field, number> = { name: 3, intent: 2.5, description: 1.2, tools: 0.8, params: 0.6 };
const B: Record<Field, number> = { name: 0.3, intent: 0.6, description: 0.75, tools: 0.5, params: 0.5 };
const K1 = 1.2;
const TF_BITS = 6;
const TF_MAX = (1 << TF_BITS) - 1;
/** A word that only says where the request's data lies ("in this email", search-words.ts placeWords)
 * counts this much: enough that "pull from the remote" still finds git pull (lost at 0.15), little
 * enough that "normal body heat in the metric scale" is no longer about metrics. */
const PLACE_WEIGHT = 0.3;
/** Stems of words seen (10k records: ~12k words); bounded: every request adds its own words. */
const stemCache = new Map<string, string>();
const STEMS_KEPT = 50_000;
const STEM_CACHED_LENGTH = 40;
function stem(w: string): string {
  const kept = stemCache.get(w);
  if (kept !== undefined) return kept;
  const s = stemmer(w);
  if (stemCache.size >= STEMS_KEPT) stemCache.clear();
  if (w.length <= STEM_CACHED_LENGTH) stemCache.set(w, s);
  return s;
}
export const stemsCached = () => stemCache.size;

export function terms(text: string, stemmed = true): string[] {
  const ws = words(text);
  return stemmed ? ws.map(stem) : ws;
}

/**
 * A word's postings, flat: per document its slot, the word's count in each field (TF_BITS bits a
 * field, FIELDS' order) and its field-weighted, length-normalised tf (valid while `gen` is the
 * index's generation), three numbers in a row of one array. Not an object per posting: 10k records
 * hold ~200k postings, and an object costs JavaScriptCore ~50 bytes, a typed array ~100.
 */
interface Postings {
  at: number[];
  gen: number;
  /** The word's id in SearchIndex.termIds (what a record's list of its words holds). */
  id: number;
  term: string;
}
const STRIDE = 3;

export interface Hit {
  key: string;
  score: number;
  /** Variants of this one (same name but for a version number) that ranked below it. */
  also?: string[];
  /** Absolute evidence, whatever the rank (match-label.ts): the share of the query's words
   * (by rarity) this one holds, and its similarity of meaning. */
  covered?: number;
  similarity?: number;
}

/** Re-ranks lexical candidates (see SearchIndex.search); `full`: the score of a record holding every query word. */
export type Fuse = (lexical: Hit[], want: number, full: number) => Hit[];

export interface SearchOptions {
  /** Default true; off only to measure what they bring (bench/memory.ts). */
  stemming?: boolean;
  synonyms?: boolean;
  /** WordNet's synonyms beside the thesaurus (only with `synonyms`). */
  wordnet?: boolean;
  diversity?: boolean;
}

export class SearchIndex {
  private readonly stemming: boolean;
  private readonly useSynonyms: boolean;
  private readonly useWordnet: boolean;
  private readonly diversity: boolean;
  private readonly variantOptions: VariantOptions;
  /** The indexed words, for their variants (prefixes). */
  private readonly vocabulary: Vocabulary = {
    has: (term) => this.postings.has(term),
    sorted: () => (this.sortedTerms ??= [...this.postings.keys()].sort()),
  };

  constructor(opts: SearchOptions = {}) {
    this.stemming = opts.stemming !== false;
    this.useSynonyms = opts.synonyms !== false;
    this.useWordnet = this.useSynonyms && opts.wordnet !== false;
    this.diversity = opts.diversity !== false;
    this.variantOptions = { synonyms: this.useSynonyms, wordnet: this.useWordnet, stem };
  }

  /** Slot -> key (undefined: free) and field lengths; slots are reused after removals. */
  private readonly keys: Array<string | undefined> = [];
  /** Per slot, FIELDS.length field lengths in a row (one array: not a typed array per record). */
  private lens = new Float32Array(0);
  /** Per slot: the ids of its words (postings by id: `byId`; ids of words no record holds are reused). */
  private readonly termIds = new SlotLists();
  private readonly byId: Array<Postings | undefined> = [];
  private readonly freeIds: number[] = [];
  /** Per slot: its variant group's hash (groupHash; 0: unnamed, none). */
  private groupOf = new Float64Array(0);
  private readonly slotOf = new Map<string, number>();
  /** Per slot, its key's place in key order: how equal scores rank (key-ranks.ts). */
  private readonly keyRanks = new KeyRanks((slot) => this.keys[slot]);
  private readonly free: number[] = [];
  private readonly postings = new Map<string, Postings>();
  private readonly totalLen = FIELDS.map(() => 0);
  /** Every indexed term, sorted (rebuilt when the vocabulary changed): for prefix matches. */
  private sortedTerms: string[] | undefined;
  /** Bumped by every change: cached normalised tfs depend on the average field lengths. */
  private gen = 0;
  private scratch = new Float64Array(0);
  private total = new Float64Array(0);
  /** Per slot: the idf of the query words it holds (a synonym's share of it), and the current word's best. */
  private held = new Float64Array(0);
  private heldBest = new Float64Array(0);

  get size(): number {
    return this.slotOf.size;
  }

  has(key: string): boolean {
    return this.slotOf.has(key);
  }

  add(doc: SearchDoc): void {
    this.remove(doc.key);
    this.gen++;
    const fieldText: Record<Field, string> = {
      name: doc.name,
      intent: doc.intent ?? "",
      description: doc.description ?? "",
      tools: (doc.tools ?? []).join(" "),
      params: (doc.params ?? []).join(" "),
    };
    const slot = this.free.pop() ?? this.keys.length;
    const tf = new Map<string, number>();
    if (this.lens.length < (slot + 1) * FIELDS.length) {
      const slots = Math.max(64, slot * 2);
      this.lens = grown(this.lens, slots * FIELDS.length);
      this.groupOf = grown(this.groupOf, slots);
    }
    FIELDS.forEach((f, i) => {
      const ts = terms(fieldText[f], this.stemming);
      this.lens[slot * FIELDS.length + i] = ts.length;
      this.totalLen[i]! += ts.length;
      for (const t of ts) {
        const row = tf.get(t) ?? 0;
        // A count past TF_MAX in one field adds nothing: BM25's saturation is long reached by then.
        if (((row >>> (i * TF_BITS)) & TF_MAX) < TF_MAX) tf.set(t, row + (1 << (i * TF_BITS)));
        else tf.set(t, row);
      }
    });
    this.keys[slot] = doc.key;
    this.keyRanks.touch(slot);
    this.groupOf[slot] = groupHash(doc.name);
    this.slotOf.set(doc.key, slot);
    const ids: number[] = [];
    for (const [t, row] of tf) {
      let p = this.postings.get(t);
      if (!p) {
        p = { at: [], gen: -1, id: this.freeIds.pop() ?? this.byId.length, term: t };
        this.postings.set(t, p);
        this.byId[p.id] = p;
        this.sortedTerms = undefined;
      }
      p.at.push(slot, row, 0);
      p.gen = -1;
      ids.push(p.id);
    }
    this.termIds.set(slot, ids);
  }

  remove(key: string): void {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return;
    this.slotOf.delete(key);
    this.gen++;
    for (let i = 0; i < FIELDS.length; i++) this.totalLen[i]! -= this.lens[slot * FIELDS.length + i]!;
    for (const id of this.termIds.get(slot)) {
      const postings = this.byId[id]!;
      const p = postings.at;
      let i = 0;
      while (i < p.length && p[i] !== slot) i += STRIDE;
      if (i < p.length) p.splice(i, STRIDE);
      if (!p.length) {
        this.postings.delete(postings.term);
        this.byId[id] = undefined;
        this.freeIds.push(id);
        this.sortedTerms = undefined;
      }
    }
    this.termIds.clear(slot);
    this.keys[slot] = undefined;
    this.keyRanks.touch(slot);
    this.groupOf[slot] = 0;
    this.free.push(slot);
  }

  /** A word's postings' field-weighted, length-normalised tfs for the current generation. */
  private normalise(postings: Postings, norm: ReadonlyArray<{ w: number; b: number; avg: number }>): void {
    const at = postings.at;
    for (let p = 0; p < at.length; p += STRIDE) {
      const row = at[p + 1]!;
      const len = at[p]! * FIELDS.length;
      let tf = 0;
      for (let i = 0; i < FIELDS.length; i++) {
        const c = (row >>> (i * TF_BITS)) & TF_MAX;
        if (c) {
          const f = norm[i]!;
          tf += (f.w * c) / (1 - f.b + (f.b * this.lens[len + i]!) / f.avg);
        }
      }
      at[p + 2] = tf / (K1 + tf);
    }
    postings.gen = this.gen;
  }

  /**
   * The best `limit` keys for `query`; `accept` filters keys (scope, visibility). `fuse` re-ranks
   * the lexical candidates (best first, several times `limit`), adding others of its own (indexed
   * keys), before variants are folded together: discover fuses word-vector similarity there.
   */
  search(query: string, limit = 10, accept?: (key: string) => boolean, fuse?: Fuse): Hit[] {
    const qterms = [...new Set(terms(query, this.stemming))];
    const n = this.slotOf.size;
    if ((!qterms.length && !fuse) || !n) return [];
    const place = new Set([...placeWords(query)].map((w) => (this.stemming ? stem(w) : w)));
    const paired = this.useSynonyms && this.useWordnet && this.stemming ? wordnetPhrases(wordsInOrder(query), stem) : new Map<string, WordnetWords[]>();
    const slots = this.keys.length;
    if (this.total.length < slots) {
      this.total = new Float64Array(slots * 2);
      this.scratch = new Float64Array(slots * 2);
      this.held = new Float64Array(slots * 2);
      this.heldBest = new Float64Array(slots * 2);
    }
    const total = this.total;
    const best = this.scratch;
    const held = this.held;
    const heldBest = this.heldBest;
    const avg = this.totalLen.map((l) => Math.max(l / n, 1));
    const norm = FIELDS.map((f, i) => ({ w: WEIGHT[f], b: B[f], avg: avg[i]! }));
    const touched: number[] = [];
    let full = 0; // what a record holding every query word would score: the sum of their idfs
    const seen = new Uint8Array(slots);
    // For each query word: per document, the best of the word itself and its synonyms.
    for (const q of qterms) {
      const df = (this.postings.get(q)?.at.length ?? 0) / STRIDE;
      const qw = place.has(q) ? PLACE_WEIGHT : 1;
      const own = qw * Math.log(1 + (n - df + 0.5) / (df + 0.5));
      full += own;
      const hitHere: number[] = [];
      for (const [t, weight] of variantsOf(q, this.vocabulary, this.variantOptions, paired.get(q))) {
        const p = this.postings.get(t);
        if (!p) continue;
        const len = p.at.length / STRIDE;
        const idf = qw * weight * Math.log(1 + (n - len + 0.5) / (len + 0.5));
        if (p.gen !== this.gen) this.normalise(p, norm);
        const at = p.at;
        for (let i = 0; i < at.length; i += STRIDE) {
          const doc = at[i]!;
          const sc = idf * at[i + 2]!;
          if (best[doc] === 0) hitHere.push(doc);
          if (sc > best[doc]!) best[doc] = sc;
          if (weight * own > heldBest[doc]!) heldBest[doc] = weight * own;
        }
      }
      for (const doc of hitHere) {
        if (!seen[doc]) {
          seen[doc] = 1;
          touched.push(doc);
        }
        total[doc]! += best[doc]!;
        best[doc] = 0;
        held[doc]! += heldBest[doc]!;
        heldBest[doc] = 0;
      }
    }
    // The candidate list can be thousands long; equal scores rank by key.
    const want = this.diversity ? poolFor(limit) : limit;
    const rank = this.keyRanks.ranks();
    const pool = new TopK(want, (a, b) => rank[a]! < rank[b]!);
    for (const doc of touched) if (pool.admits(total[doc]!) && (!accept || accept(this.keys[doc]!))) pool.offer(doc, total[doc]!);
    const top = pool.sorted().map(([doc, score]) => ({ key: this.keys[doc]!, score, doc, covered: full ? Math.min(1, held[doc]! / full) : 0 }));
    for (const doc of touched) total[doc] = held[doc] = 0;
    return this.finish(top, limit, want, full, fuse);
  }

  private finish(top: Array<Hit & { doc: number }>, limit: number, want: number, full: number, fuse?: Fuse): Hit[] {
    const lexical = top.map(({ key, score, covered }) => ({ key, score, covered }));
    const fused = fuse?.(lexical, want, full).flatMap((h): Array<Hit & { doc: number }> => (this.slotOf.has(h.key) ? [{ ...h, doc: this.slotOf.get(h.key)! }] : []));
    const ranked = fused ?? top;
    const picked = this.diversity ? diverse(ranked, limit, (doc) => this.groupOf[doc]!) : ranked.slice(0, limit);
    return picked.map(({ doc: _doc, ...hit }) => hit);
  }
}
