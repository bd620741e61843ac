// Word vectors read from their file row by row (word-vector-rows.ts) answer exactly as the whole
// file in memory does; the rows kept start over past their bound, never in the middle of a lookup;
// a file cut short is refused; a rarer form of a known word is read as its stem.
import { expect, test } from "bun:test";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FileRows, MemoryRows } from "../../src/memory/word-vector-rows.ts";
import { readWordVectors, WordVectors } from "../../src/memory/word-vectors.ts";
import { tempDir } from "../helpers/pml.ts";

const generated = new URL("../../src/memory/generated/word-vectors.bin", import.meta.url).pathname;

test("vectors read row by row from the file are the vectors of the whole file in memory", () => {
  const dir = tempDir("pml-wv-rows-");
  try {
    const fromFile = readWordVectors(generated, dir.path)!;
    const inMemory = new WordVectors(readFileSync(generated));
    expect(fromFile.model).toBe(inMemory.model);
    for (const text of ["convert a distance between metric and imperial units", "how many feet is 3 meters", "zzqx unknown words only"])
      expect(fromFile.embed(text)).toEqual(inMemory.embed(text));
    const query = "reflow a paragraph past 80 characters";
    const item = "wrap text at a given column width";
    expect(fromFile.aligner(fromFile.ranks(query))(fromFile.ranks(item))).toBe(inMemory.aligner(inMemory.ranks(query))(inMemory.ranks(item)));
  } finally {
    dir.cleanup();
  }
});

test("one aligner asked of many items answers each as a fresh one would, in any order", () => {
  const words = new WordVectors(readFileSync(generated));
  const query = words.ranks("reflow a paragraph so nothing runs past 80 characters");
  const items = ["wrap text at a given column width", "count the characters of a paragraph", "sort lines", "", "reflow a paragraph"].map((t) => words.ranks(t));
  const fresh = items.map((item) => words.aligner(query)(item));
  expect(fresh[4]).toBeGreaterThan(fresh[2]!);
  const shared = words.aligner(query);
  expect(items.map((item) => shared(item))).toEqual(fresh);
  expect([...items].reverse().map((item) => shared(item))).toEqual([...fresh].reverse());
  expect(words.aligner(words.ranks("zzqx"))(items[0]!)).toBe(0);
});

test("rows kept start over past their bound, at the start of a lookup only; a short file is refused", () => {
  const dir = tempDir("pml-wv-rows-");
  const path = join(dir.path, "rows.bin");
  const dims = 4;
  const count = FileRows.KEEP + 10;
  const bytes = new Int8Array(8 + count * dims); // 8 bytes before the vectors
  for (let r = 0; r < count; r++) for (let d = 0; d < dims; d++) bytes[8 + r * dims + d] = ((r + d) % 250) - 125;
  writeFileSync(path, bytes);
  const fd = openSync(path, "r");
  try {
    const rows = new FileRows(fd, dims, 8);
    const memory = new MemoryRows(bytes.subarray(8), dims);
    const row = (from: FileRows | MemoryRows, r: number) => {
      const at = from.at(r);
      return Array.from(from.data.subarray(at, at + dims));
    };
    for (let r = 0; r < count; r++) expect(row(rows, r)).toEqual(row(memory, r)); // the slab grew past its first size
    const first = rows.at(0);
    expect(rows.at(0)).toBe(first); // read once
    rows.settle(); // past KEEP: starts over
    expect(rows.at(count - 1)).toBe(0);
    expect(row(rows, 5)).toEqual(row(memory, 5));
    expect(() => rows.at(count)).toThrow("truncated");
  } finally {
    closeSync(fd);
    dir.cleanup();
  }
});

test("a vectors file whose rows are cut short is not read", () => {
  const dir = tempDir("pml-wv-rows-");
  try {
    const cut = join(dir.path, "word-vectors-cut.bin");
    const whole = readFileSync(generated);
    writeFileSync(cut, whole.subarray(0, whole.byteLength - 1000));
    expect(readWordVectors(cut, dir.path)).toBeUndefined();
  } finally {
    dir.cleanup();
  }
});

test("a rarer form of a known word is read as its stem: 'indented' is 'indent', a name nobody stems is not known", () => {
  const dir = tempDir("pml-wv-rows-");
  try {
    const words = readWordVectors(generated, dir.path)!;
    expect(words.has("indented")).toBe(true);
    expect(words.embed("indented")).toEqual(words.embed("indent"));
    expect(words.ranks("keep it indented")).toEqual(words.ranks("keep it indent"));
    expect(words.has("zqxwvy")).toBe(false);
  } finally {
    dir.cleanup();
  }
});
