// discover's vector side: each record's and tool's text vector (word-vectors.ts) in a VectorIndex.
// A capability's vector is made when it is saved and kept in the store beside it (migration 9), so a
// process that starts reads them instead of embedding every record again; one missing or made from
// other text or another recipe (a record from an older pml, renamed, re-described) is made here
// and written back. Tools' vectors (a few hundred) are made in memory on the first discover.
import { FUSION } from "./hybrid.ts";
import { VectorIndex, type PreparedQuery } from "./vector-index.ts";
import { WordLists } from "./word-lists.ts";
import { embeddedWordVectors, packVector, unpackVector, type WordVectors } from "./word-vectors.ts";
import type { CapabilityStore, SearchRecord, StoredVector } from "./store.ts";

/** What a capability's vector is made from: its name's words, intent and description. */
export function recordText(c: Pick<SearchRecord, "named" | "namespace" | "action" | "intent" | "description">): string {
  const name = c.named ? `${c.namespace} ${c.action}` : "";
  return [name, c.intent, c.description === c.intent ? "" : c.description].filter(Boolean).join(". ");
}

/** The vector to keep for `c`, made now. */
export function vectorOf(words: WordVectors, c: Parameters<typeof recordText>[0]): StoredVector | undefined {
  const text = recordText(c);
  const v = words.embed(text);
  return v && { model: words.model, source: sourceHash(text), bytes: packVector(v) };
}

function sourceHash(text: string): string {
  return Bun.hash(text).toString(36);
}

export class Meaning {
  private readonly index: VectorIndex;
  /** Texts of the keys added with text() (tools, team hits: a few hundred); records' come from `describe`. */
  private readonly texts = new Map<string, string>();
  /** Known words (ranks) of the texts of candidates, for the alignment; made when first needed,
   * not for every record at load (10k records: ~10 MB and a third of a second less). */
  private readonly wordsOf = new WordLists();
  private pending: Array<{ id: string } & StoredVector> = [];

  /** A record's text by key (the discover index's summary of it). */
  describe: (key: string) => string | undefined = () => undefined;

  private constructor(readonly words: WordVectors) {
    this.index = new VectorIndex(words.dims);
  }

  /** undefined when there are no word vectors (discover then ranks by words alone). */
  static async load(vectors: () => Promise<WordVectors | undefined> = embeddedWordVectors): Promise<Meaning | undefined> {
    const words = await vectors();
    return words && new Meaning(words);
  }

  /** A capability from the store: its kept vector when it was made from its current text. */
  record(key: string, c: SearchRecord): void {
    this.wordsOf.delete(key);
    const kept = c.vector;
    if (kept && kept.model === this.words.model && kept.bytes.byteLength === 4 + this.words.dims && kept.source === sourceHash(recordText(c)))
      return this.index.setPacked(key, kept.bytes);
    const made = vectorOf(this.words, c);
    if (!made) return this.remove(key);
    this.pending.push({ id: c.id, ...made });
    this.index.set(key, unpackVector(made.bytes, this.words.dims)!);
  }

  /** A tool or another record kept only in memory. */
  text(key: string, text: string): void {
    this.texts.set(key, text);
    this.wordsOf.delete(key);
    const v = this.words.embed(text);
    if (v) this.index.set(key, v);
    else this.index.remove(key);
  }

  remove(key: string): void {
    this.index.remove(key);
    this.wordsOf.delete(key);
    this.texts.delete(key);
  }

  /** Writes the vectors made since the last call back to the store. */
  async save(store: CapabilityStore): Promise<void> {
    if (!this.pending.length) return;
    const rows = this.pending;
    this.pending = [];
    await store.saveVectors(rows);
  }

  /**
   * The nearest `want` records by meaning, and the similarity of any other: half the cosine of
   * the mean vectors, half the word-by-word alignment (word-vectors.ts), which re-ranks what the
   * mean vectors found well (on the tuning sets, vector-only top-5 8 -> 11 of 20 and 24 -> 28 of 55).
   */
  nearest(query: string, want: number, accept: (key: string) => boolean): { nearest: Array<[string, number]>; cosine: (key: string) => number | undefined } {
    const v = this.words.embed(query);
    const q: PreparedQuery | undefined = v && this.index.prepare(v);
    if (!q) return { nearest: [], cosine: () => undefined };
    const align = this.words.aligner(this.words.ranks(query));
    const blend = (key: string, cos: number) => {
      const item = this.wordsOfKey(key);
      return item ? (1 - FUSION.alignmentShare) * cos + FUSION.alignmentShare * align(item) : cos;
    };
    return {
      nearest: this.index.score(q, want, accept).map(([key, cos]) => [key, blend(key, cos)]),
      cosine: (key) => {
        const cos = this.index.cosine(q, key);
        return cos === undefined ? undefined : blend(key, cos);
      },
    };
  }

  /** A record's words as the alignment reads them, read now (read-ahead.ts). */
  readAhead(key: string): void {
    this.wordsOfKey(key);
  }

  private wordsOfKey(key: string): Int32Array | undefined {
    let ranks = this.wordsOf.get(key);
    if (ranks) return ranks;
    const text = this.texts.get(key) ?? this.describe(key);
    if (text === undefined) return undefined;
    ranks = this.words.ranks(text);
    this.wordsOf.set(key, ranks);
    return ranks;
  }
}
