// Word vectors for discover: what a request means when it shares no word with the record it wants
// ("how many feet is 3 meters" -> convert_length_units). GloVe's 60k most frequent words (and
// rarer programming words) as int8, compacted at build time by scripts/word-vectors.ts (layout
// there) and embedded in the binary; read on the first discover, never at start-up. A text's
// vector is the mean of its words' vectors weighted by rarity (smooth inverse frequency:
// a / (a + p(w)), p from the word's frequency rank by Zipf's law), so "the", "file" and "get" say
// less than "fahrenheit".
import { log } from "../log.ts";
import { closeSync, readSync } from "node:fs";
import { cacheDir } from "../config/paths.ts";
import { openKept, type OpenedFile, readAndKeep } from "./embedded-copy.ts";
import { stemmer } from "stemmer";
import { words } from "./search-words.ts";
import { FileRows, MemoryRows, type VectorRows } from "./word-vector-rows.ts";

/** The recipe of text vectors; with a hash of the vectors file it names a stored vector's maker
 * (WordVectors.model): one made otherwise is made again. */
const RECIPE = "sif2";
const MAGIC = "PMLWV2\n\0";
/** SIF's a: words more frequent than about 1 in 1000 tokens count little. */
const SIF_A = 1e-3;
/** GloVe 6B's vocabulary, for Zipf's normalising constant (the harmonic number of it). */
const ZIPF_H = Math.log(400_000) + 0.5772;

export class WordVectors {
  readonly dims: number;
  /** Names these vectors and the recipe: stored text vectors made by another are made again. */
  readonly model: string;
  readonly size: number;
  /** The words (ASCII bytes), where each starts (rank -> offset), and the ranks in word order. */
  private readonly text: Uint8Array;
  private readonly starts: Int32Array;
  private readonly order: Uint32Array;
  private readonly scales: Float32Array;
  private readonly rows: VectorRows;
  /** Words looked up lately (bounded): a record's and a query's words repeat. */
  private readonly found = new Map<string, number>();

  /**
   * `bytes`: the whole file, or (`file`) its part up to the vectors, which are then read from the
   * open file as needed. Throws when it is not a file written by scripts/word-vectors.ts.
   */
  constructor(bytes: Uint8Array, file?: { fd: number; size: number }) {
    const { count, dims, wordsLen, orderAt, scalesAt, vecsAt } = layout(bytes);
    this.size = count;
    this.dims = dims;
    if (vecsAt + count * dims > (file?.size ?? bytes.byteLength)) throw new Error("word vectors file is truncated");
    // Everything but the int8 vectors (a changed vector changes its word's scale): hashing those
    // would read the whole file, which a later process reads only row by row.
    this.model = `glove-${RECIPE}-${Bun.hash(bytes.subarray(0, vecsAt)).toString(36)}`;
    this.text = bytes.subarray(20, 20 + wordsLen);
    this.starts = new Int32Array(count + 1);
    let n = 1;
    for (let i = 0; i < wordsLen; i++) if (this.text[i] === 10) this.starts[n++] = i + 1;
    this.starts[count] = wordsLen + 1;
    // Copies: the views must be aligned, and the file's buffer need not be.
    const copy = (from: number, to: number) => bytes.buffer.slice(bytes.byteOffset + from, bytes.byteOffset + to);
    this.order = new Uint32Array(copy(orderAt, scalesAt));
    this.scales = new Float32Array(copy(scalesAt, vecsAt));
    this.rows = file ? new FileRows(file.fd, dims, vecsAt) : new MemoryRows(new Int8Array(bytes.buffer, bytes.byteOffset + vecsAt, count * dims), dims);
  }

  has(word: string): boolean {
    return this.rankOf(word) !== undefined;
  }

  /** The frequency rank of the word, or of its stem when only that is known. */
  private rankOf(word: string): number | undefined {
    const hit = this.found.get(word);
    if (hit !== undefined) return hit < 0 ? undefined : hit;
    let rank = this.search(word);
    // A rarer form of a known word ("urls", "indented", "hyperlinks": past the 60k kept) is read
    // as its stem when that is one ("url"): both a request's and a record's (recipe sif2).
    if (rank < 0) {
      const base = stemmer(word);
      if (base !== word && base.length >= 3) rank = this.search(base);
    }
    if (this.found.size >= 20_000) this.found.clear();
    this.found.set(word, rank);
    return rank < 0 ? undefined : rank;
  }

  /** The word's rank by binary search in the word order, -1 when it is not there. */
  private search(word: string): number {
    let lo = 0;
    let hi = this.order.length;
    let rank = -1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const r = this.order[mid]!;
      const c = this.compare(word, r);
      if (c === 0) {
        rank = r;
        break;
      }
      if (c > 0) lo = mid + 1;
      else hi = mid;
    }
    return rank;
  }

  /** `word` against the word of rank `r` (bytes; the words are ASCII). */
  private compare(word: string, r: number): number {
    const from = this.starts[r]!;
    const len = this.starts[r + 1]! - 1 - from;
    const n = Math.min(len, word.length);
    for (let i = 0; i < n; i++) {
      const d = word.charCodeAt(i) - this.text[from + i]!;
      if (d) return d;
    }
    return word.length - len;
  }

  /** The rarity-weighted mean vector of the words of `text`; undefined when none is known. */
  embed(text: string): Float32Array | undefined {
    const out = new Float32Array(this.dims);
    let n = 0;
    this.rows.settle();
    for (const w of words(text)) {
      const r = this.rankOf(w);
      if (r === undefined) continue;
      const weight = rarity(r) * this.scales[r]!;
      const at = this.rows.at(r);
      const data = this.rows.data;
      for (let d = 0; d < this.dims; d++) out[d]! += weight * data[at + d]!;
      n++;
    }
    if (!n) return undefined;
    for (let d = 0; d < this.dims; d++) out[d]! /= n;
    return out;
  }

  /** The known words of `text` (their ranks), each once. */
  ranks(text: string): Int32Array {
    const ws = words(text);
    const out: number[] = [];
    for (let k = 0; k < ws.length; k++) {
      const r = this.rankOf(ws[k]!);
      if (r !== undefined && !out.includes(r)) out.push(r);
    }
    return Int32Array.from(out);
  }

  /**
   * How well an item's words cover the query's, word by word: for each query word its best cosine
   * with an item word, averaged by rarity. A mean vector blurs a text into one point; this keeps
   * "feet" finding "imperial" however many other words either text has. An item word's cosines
   * with the query's are remembered for the query (candidates share most of their words).
   */
  aligner(query: Int32Array): (item: Int32Array) => number {
    this.rows.settle();
    const n = query.length;
    const weights = Array.from(query, rarity);
    const total = weights.reduce((a, b) => a + b, 0);
    // One lookup per item word, not one per pair (the aligner took a fifth less time on the tuning
    // set), and its cosines with every query word in one pass over its row, kept in one array (not
    // an array per word: a new request's candidates bring a few hundred words each).
    const slotOf = new Map<number, number>();
    let cosines = new Float64Array(64 * n);
    let used = 0;
    const best = new Float64Array(n);
    const queryAt = new Int32Array(n);
    const queryNorm = new Float64Array(n);
    for (let k = 0; k < n; k++) queryNorm[k] = this.norm(query[k]!);
    return (item) => {
      if (!total) return 0;
      best.fill(0);
      // Where the query words' rows lie, read again for each item: another lookup in between may start the rows over.
      let placed = false;
      for (let j = 0; j < item.length; j++) {
        const i = item[j]!;
        let at = slotOf.get(i);
        if (at === undefined) {
          if (!placed) for (let k = 0; k < n; k++) queryAt[k] = this.rows.at(query[k]!);
          placed = true;
          at = used;
          used += n;
          if (used > cosines.length) {
            const more = new Float64Array(2 * used);
            more.set(cosines);
            cosines = more;
          }
          this.cosinesOf(i, query, queryAt, queryNorm, cosines, at);
          slotOf.set(i, at);
        }
        for (let k = 0; k < n; k++) if (cosines[at + k]! > best[k]!) best[k] = cosines[at + k]!;
      }
      let sum = 0;
      for (let k = 0; k < n; k++) sum += weights[k]! * best[k]!;
      return sum / total;
    };
  }

  /** `cosine(query[k], word)` for every k, into `out` from `at` (the same sums: `queryAt`, `queryNorm` are the query words' rows and norms). */
  private cosinesOf(word: number, query: Int32Array, queryAt: Int32Array, queryNorm: Float64Array, out: Float64Array, at: number): void {
    const dims = this.dims;
    const y = this.rows.at(word);
    const norm = this.norm(word);
    const data = this.rows.data;
    for (let k = 0; k < query.length; k++) {
      if (query[k] === word) {
        out[at + k] = 1;
        continue;
      }
      const x = queryAt[k]!;
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += data[x + d]! * data[y + d]!;
      out[at + k] = dot / (queryNorm[k]! * norm);
    }
  }

  /**
   * `aligner(query)(item)` for one use: the same sums in the same order, without the tables an
   * aligner keeps for many items (match-evidence.ts asks it once per word of a result, a few
   * hundred times a discover).
   */
  alignOnce(query: Int32Array, item: Int32Array): number {
    this.rows.settle();
    let total = 0;
    for (let k = 0; k < query.length; k++) total += rarity(query[k]!);
    if (!total) return 0;
    let sum = 0;
    for (let k = 0; k < query.length; k++) {
      let best = 0;
      for (let j = 0; j < item.length; j++) {
        const c = this.cosine(query[k]!, item[j]!);
        if (c > best) best = c;
      }
      sum += rarity(query[k]!) * best;
    }
    return sum / total;
  }

  private cosine(a: number, b: number): number {
    if (a === b) return 1;
    const dims = this.dims;
    const x = this.rows.at(a);
    const y = this.rows.at(b);
    const data = this.rows.data;
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += data[x + d]! * data[y + d]!;
    return dot / (this.norm(a) * this.norm(b));
  }

  /** Per word, the norm of its int8 vector, computed when first needed (0: not yet). */
  private norms?: Float32Array;
  private norm(r: number): number {
    const norms = (this.norms ??= new Float32Array(this.size));
    if (!norms[r]) {
      let n = 0;
      const at = this.rows.at(r);
      const data = this.rows.data;
      for (let d = 0; d < this.dims; d++) n += data[at + d]! * data[at + d]!;
      norms[r] = Math.sqrt(n) || 1;
    }
    return norms[r]!;
  }
}

/** Where the parts of a vectors file start (scripts/word-vectors.ts), from its first bytes. */
function layout(bytes: Uint8Array): { count: number; dims: number; wordsLen: number; orderAt: number; scalesAt: number; vecsAt: number } {
  if (bytes.byteLength < 20 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) throw new Error("not a pml word vectors file (run `bun build.ts`)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, 20);
  const count = view.getUint32(8, true);
  const dims = view.getUint32(12, true);
  const wordsLen = view.getUint32(16, true);
  const orderAt = (20 + wordsLen + 3) & ~3;
  const scalesAt = orderAt + count * 4;
  return { count, dims, wordsLen, orderAt, scalesAt, vecsAt: scalesAt + count * 4 };
}

/** SIF's weight of the word of frequency rank `r`: p(w) from Zipf's law. */
function rarity(r: number): number {
  const p = 1 / ((r + 1) * ZIPF_H);
  return SIF_A / (SIF_A + p);
}

let loaded: Promise<WordVectors | undefined> | undefined;

/** The vectors the binary embeds (or a source checkout built with `bun build.ts`); undefined,
 * said once on stderr, when there are none: discover then ranks by words alone. */
export function embeddedWordVectors(): Promise<WordVectors | undefined> {
  loaded ??= import("./word-vectors-file.ts").then(
    (m) => readWordVectors(m.default),
    (e: Error) => {
      log.warn(`word vectors not available (${e.message}); discover ranks by words alone. Run \`bun build.ts\` to generate them`);
      return undefined;
    },
  );
  return loaded;
}

/** The vectors in the file at `path`; undefined (said on stderr) when it is missing or not one. */
export function readWordVectors(path: string, cache = cacheDir()): WordVectors | undefined {
  try {
    return openKept(path, cache, openedVectors) ?? new WordVectors(readAndKeep(path, cache));
  } catch (e) {
    log.warn(`word vectors not available (${(e as Error).message}); discover ranks by words alone`);
    return undefined;
  }
}

/**
 * The vectors read from their file as needed (word-vector-rows.ts, embedded-copy.ts): only the
 * words' list and order are held, about 0.7 MB, not a 7 MB copy in each process (plus the binary's
 * pages it was copied from). Undefined when it is damaged (the embedded file is read then, and
 * copied again).
 */
function openedVectors(file: OpenedFile): WordVectors | undefined {
  try {
    const first = new Uint8Array(20);
    readSync(file.fd, first, 0, 20, 0);
    const head = new Uint8Array(layout(first).vecsAt);
    if (readSync(file.fd, head, 0, head.byteLength, 0) !== head.byteLength) throw new Error("word vectors file is truncated");
    return new WordVectors(head, file);
  } catch {
    closeSync(file.fd);
    return undefined;
  }
}

/** A text vector as stored: a float32 scale, then int8 components (104 bytes for 100 dimensions). */
export function packVector(v: Float32Array): Uint8Array {
  let max = 0;
  for (const x of v) max = Math.max(max, Math.abs(x));
  const scale = max / 127 || 1;
  const out = new Uint8Array(4 + v.length);
  new DataView(out.buffer).setFloat32(0, scale, true);
  const q = new Int8Array(out.buffer, 4);
  for (let d = 0; d < v.length; d++) q[d] = Math.round(v[d]! / scale);
  return out;
}

export function unpackVector(bytes: Uint8Array, dims: number): Float32Array | undefined {
  if (bytes.byteLength !== 4 + dims) return undefined;
  const scale = new DataView(bytes.buffer, bytes.byteOffset, 4).getFloat32(0, true);
  const q = new Int8Array(bytes.buffer, bytes.byteOffset + 4, dims);
  const out = new Float32Array(dims);
  for (let d = 0; d < dims; d++) out[d] = q[d]! * scale;
  return out;
}
