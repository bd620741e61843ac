// The vector side's scan: int8 dot products by WebAssembly SIMD (int8-dots.ts) agree with plain
// arithmetic, survive growth, and rank as a brute-force cosine does; the bounded top-k (top-k.ts)
// keeps what a full sort keeps; and discover's first results do not depend on how many are asked.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { CapabilityDiscovery } from "../../src/memory/discover.ts";
import { int8Dots, simdAvailable } from "../../src/memory/int8-dots.ts";
import { memorySettings } from "../../src/memory/memory-settings.ts";
import { SqliteCapabilityStore } from "../../src/memory/sqlite-store.ts";
import { TopK } from "../../src/memory/top-k.ts";
import { VectorIndex } from "../../src/memory/vector-index.ts";
import { tempDir } from "../helpers/pml.ts";
import { captureInput } from "./helpers.ts";

let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const randomVector = (n: number) => Float32Array.from({ length: n }, () => rnd() * 2 - 1);

test("the runtime has WebAssembly SIMD (the scan would fall back to JavaScript, 5x slower)", () => {
  expect(simdAvailable()).toBe(true);
});

test("SIMD dot products equal plain arithmetic exactly, and the real ones within the query's rounding", () => {
  const width = 104;
  const count = 777;
  const simd = int8Dots(width, true);
  const plain = int8Dots(width, false);
  for (const k of [simd, plain]) k.reserve(count);
  for (let i = 0; i < count * width; i++) simd.rows[i] = plain.rows[i] = i % width < 100 ? Math.round(rnd() * 254 - 127) : 0;
  const query = randomVector(100);
  const a = simd.dots(query, count);
  const b = plain.dots(query, count);
  expect(Array.from(a.out)).toEqual(Array.from(b.out));
  expect(a.unit).toBe(b.unit);
  for (let r = 0; r < count; r++) {
    let real = 0;
    let weight = 0;
    for (let d = 0; d < 100; d++) {
      real += simd.rows[r * width + d]! * query[d]!;
      weight += Math.abs(simd.rows[r * width + d]!);
    }
    // Each query component is off by at most half a unit, times the row's component.
    expect(Math.abs(a.out[r]! * a.unit - real)).toBeLessThanOrEqual(0.5 * a.unit * weight + 1e-9);
  }
});

test("growing keeps the rows, new rows read as zero where the last results were, and a width it cannot load is refused", () => {
  const width = 8;
  const k = int8Dots(width);
  k.reserve(3);
  k.rows.set([1, 2, 3, 4, 5, 6, 7, 8, -1, -1, -1, -1, -1, -1, -1, -1, 127, 0, 0, 0, 0, 0, 0, -127]);
  const ones = new Float32Array(8).fill(1);
  expect(Array.from(k.dots(ones, 3).out)).toEqual([36 * 32767, -8 * 32767, 0]);
  k.reserve(100_000);
  expect(Array.from(k.rows.subarray(0, 24))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, -1, -1, -1, -1, -1, -1, -1, -1, 127, 0, 0, 0, 0, 0, 0, -127]);
  expect(k.rows.subarray(24).every((x) => x === 0)).toBe(true);
  const { out } = k.dots(ones, 100_000);
  expect(out[0]).toBe(36 * 32767);
  expect(out.subarray(3).every((x) => x === 0)).toBe(true);
  expect(() => int8Dots(100)).toThrow(/multiple of 8/);
});

test("the index ranks as a brute-force cosine over every record does, removed records left out", () => {
  const ix = new VectorIndex(100);
  for (let i = 0; i < 3000; i++) ix.set(`k${i}`, randomVector(100));
  for (let i = 0; i < 3000; i += 7) ix.remove(`k${i}`);
  for (let t = 0; t < 5; t++) {
    const q = ix.prepare(randomVector(100))!;
    const accept = (key: string) => !key.endsWith("3");
    const brute = Array.from({ length: 3000 }, (_, i) => `k${i}`)
      .filter((k) => ix.has(k) && accept(k))
      .map((k) => [k, ix.cosine(q, k)!] as const)
      .sort((a, b) => b[1] - a[1]);
    const got = ix.score(q, 40, accept);
    expect(got.map(([k]) => k)).toEqual(brute.slice(0, 40).map(([k]) => k));
    for (const [i, [, cos]] of got.entries()) expect(Math.abs(cos - brute[i]![1])).toBeLessThan(1e-3);
  }
});

test("the bounded top-k keeps what a full sort keeps, equal scores in the tie order", () => {
  for (const limit of [0, 1, 5, 100]) {
    const scores = Array.from({ length: 2000 }, () => Math.round(rnd() * 300) / 10);
    const top = new TopK(limit, (a, b) => a > b);
    scores.forEach((s, id) => top.offer(id, s));
    const expected = scores
      .map((s, id) => [id, s] as [number, number])
      .sort((a, b) => b[1] - a[1] || b[0] - a[0])
      .slice(0, limit);
    expect(top.sorted()).toEqual(expected);
  }
});

let dir: ReturnType<typeof tempDir>;
let store: SqliteCapabilityStore;
beforeAll(async () => {
  dir = tempDir("pml-mem-pool-");
  store = new SqliteCapabilityStore(join(dir.path, "memory.db"));
});
afterAll(() => {
  store.close();
  dir.cleanup();
});

test("discover's first ten are the same whether 10 or 20 results are asked", async () => {
  const verbs = ["read", "write", "parse", "convert", "count", "list", "send", "check", "format", "merge", "sort", "fetch"];
  const things = ["json file", "csv rows", "log lines", "email message", "markdown heading", "git commit", "yaml config", "url", "password", "temperature", "date", "image"];
  const how = ["quickly", "for the report", "in the repo", "with retries", "as a table", "from the api"];
  const scope = { org: "local", project: "t", owner: dir.path };
  for (let i = 0; i < 600; i++) {
    const [v, t, h] = [verbs[i % verbs.length]!, things[Math.floor(i / verbs.length) % things.length]!, how[i % how.length]!];
    const name = { namespace: ["fs", "util", "api"][i % 3]!, action: `${v}_${t.replace(/\W+/g, "_")}_${i}` };
    await store.capture(captureInput(scope, name, { code: `return ${i};`, intent: `${v} the ${t} ${h}` }));
  }
  const settings = { ...memorySettings({} as Parameters<typeof memorySettings>[0], dir.path), scope };
  const finder = new CapabilityDiscovery(async () => store);
  const requests = [
    "tidy up the config file",
    "how warm is it outside",
    "mail the weekly numbers",
    "check the links in the docs",
    "turn the spreadsheet into objects",
    "who committed last",
  ];
  for (const q of requests) {
    const ten = (await finder.discover(settings, q, [], 10)).results.map((r) => r.id);
    const twenty = (await finder.discover(settings, q, [], 20)).results.map((r) => r.id);
    expect(ten).toHaveLength(10);
    expect(twenty.slice(0, 10)).toEqual(ten);
  }
});
