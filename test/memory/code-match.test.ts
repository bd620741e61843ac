// What a capability's code says of a request (src/memory/code-match.ts): its calls in words, the
// directions they take, its required parameters against the request's values. Code is the agent's,
// maybe written from a hostile prompt: a body padded with words backs none, and only its first
// CODE_CHARS characters are read.
import { expect, test } from "bun:test";
import { CODE_CHARS, codeWords } from "../../src/memory/code-evidence.ts";
import { codeFitFor, readCode } from "../../src/memory/code-match.ts";

const none = { type: "object", properties: {}, required: [] };
const texts = ["spread", "compute the spread of a list of numbers"];

test("calls read as words: camel case split, idioms said", () => {
  const { words, sides } = codeWords("const c = l.split('\\t'); return [decodeURIComponent(c[c.length - 1]), Math.max(...xs)];");
  for (const w of ["decode", "uri", "component", "url", "last", "max", "largest"]) expect(words.has(w)).toBe(true);
  expect([...sides].sort()).toEqual(["decode", "largest", "max", "maximum", "percent", "url"]);
  expect(words.has("last")).toBe(true);
  expect(sides.has("last")).toBe(false);
  expect(words.has("split")).toBe(false);
});

test("a request's word the code holds and the texts do not; a joined word; the opposite of what the code does", () => {
  const spread = readCode("return Math.max(...args.xs) - Math.min(...args.xs);", none);
  expect(codeFitFor("max-min of my numbers")(spread, texts).covers).toBe(2);
  const encode = readCode("return encodeURIComponent(args.text);", none);
  expect(codeFitFor("urlencode this: a b")(encode, ["convert component", "convert a component"]).covers).toBe(1);
  expect(codeFitFor("decode 'a%20b'")(encode, ["convert component", "convert a component"]).opposed).toBe(true);
  expect(codeFitFor("encode 'a b'")(encode, ["convert component", "convert a component"]).opposed).toBe(false);
});

test("a body padded with words backs nothing; one longer than CODE_CHARS is read over its first characters", () => {
  const pad = Array.from({ length: 40 }, (_, i) => `w${i}()`).join(" ");
  expect(codeFitFor("max-min of my numbers")(readCode(`/* max() min() ${pad} */ return 1;`, none), texts).covers).toBe(0);
  const late = readCode(`${"x".repeat(CODE_CHARS)} Math.max(1); decodeURIComponent(s);`, none);
  expect(codeFitFor("max-min of my numbers")(late, texts)).toEqual({ covers: 0, opposed: false, leans: false, unfilled: false, fills: false });
  expect(codeFitFor("encode 'a b'")(late, texts).opposed).toBe(false);
});

test("a required path or number the request's values do not give", () => {
  const path = readCode("return 1;", { type: "object", properties: { path: { type: "string" } }, required: ["path"] });
  expect(codeFitFor("count the words of 'the quick fox'")(path, texts).unfilled).toBe(true);
  expect(codeFitFor("count the words of docs/intro.txt")(path, texts).unfilled).toBe(false);
  // A request with no values at all is generic: the agent fills them in.
  expect(codeFitFor("count the words of a text file")(path, texts).unfilled).toBe(false);
  const n = readCode("return 1;", { type: "object", properties: { n: { type: "integer" } }, required: ["n"] });
  expect(codeFitFor("pad 'abc' with zeros")(n, texts).unfilled).toBe(true);
  expect(codeFitFor("pad 42 with zeros")(n, texts).unfilled).toBe(false);
});

test("a call that may be used for other things backs no word: Object.keys for a settings file's keys, toLowerCase for lowercase", () => {
  const priciest = readCode("const o = JSON.parse(t); return Object.keys(o).sort((a, b) => o[b] - o[a])[0];", none);
  expect(codeFitFor("list the keys of the settings file config/db.properties")(priciest, ["priciest item", "the priciest item of a JSON price list"]).covers).toBe(0);
  const caesar = readCode("return args.text.toLowerCase().replace(/x/g, 'y');", none);
  expect(codeFitFor("convert 4096 to lowercase hexadecimal")(caesar, ["caesar decode", "decode a Caesar cipher"]).covers).toBe(0);
});

test("a character class in a regular expression that ignores case says no case", () => {
  const caesar = readCode("return args.text.replace(/[a-z]/gi, (c) => c);", none);
  expect(codeFitFor("convert 4096 to lowercase hexadecimal")(caesar, ["caesar decode", "decode a Caesar cipher"]).covers).toBe(0);
  const lower = readCode("return (args.text.match(/[a-z]/g) ?? []).length;", none);
  expect(codeFitFor("how many lowercase ones in 'Hi There'")(lower, ["tally", "count the small letters"]).covers).toBe(1);
});

test("the request's values fill the required parameters one to one, by kind, none left over", () => {
  const schema = (props: Record<string, string>) => ({
    type: "object",
    properties: Object.fromEntries(Object.entries(props).map(([k, t]) => [k, { type: t }])),
    required: Object.keys(props),
  });
  const fills = (query: string, props: Record<string, string>) => codeFitFor(query)(readCode("return 1;", schema(props)), texts).fills;
  expect(fills("7322 secs -> h:m:s", { seconds: "number" })).toBe(true);
  expect(fills("pad '42' with spaces on the left to width 6", { text: "string", width: "number" })).toBe(true);
  expect(fills("which release is packages/ui at?", { path: "string" })).toBe(true);
  // A date is a text value, not three numbers.
  expect(fills("what was the date 10 weeks before 2026-01-10?", { date: "string", weeks: "number" })).toBe(true);
  // A value left over, one missing, a parameter of another kind, no value at all.
  expect(fills("decrypt 'Phhw ph dw' shifting letters back by 3", { name: "string" })).toBe(false);
  expect(fills("convert the decimal number 4096 to hexadecimal", { text: "string", shift: "number" })).toBe(false);
  expect(fills("median of 4, 8, 15", { numbers: "array" })).toBe(false);
  expect(fills("format some seconds as a clock", { seconds: "number" })).toBe(false);
});
