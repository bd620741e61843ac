// What a match label promises, as a pure function of evidence (src/memory/match-label.ts): strong
// needs the request's words or meaning held, the result's own words asked for and a lead over the
// next result; past use never makes a result strong by itself.
import { expect, test } from "bun:test";
import { labelOf, type MatchEvidence } from "../../src/memory/match-label.ts";
import { labelHits, leaders } from "../../src/memory/match-evidence.ts";

const exact: MatchEvidence = { covered: 1, similarity: 0.97, asked: 1, learned: 0, margin: 0.1, lead: 0.1 };

test("strong needs the words, what it does asked for, and a lead over the next result", () => {
  expect(labelOf(exact)).toBe("strong");
  // Does more than asked: "shout a text file in upper case" for "read a file".
  expect(labelOf({ ...exact, asked: 0.35 })).toBe("fair");
  expect(labelOf({ ...exact, asked: 0.1 })).toBe("weak");
  // A near twin as good as it ("read_text_file" beside "read_file"): not certain.
  expect(labelOf({ ...exact, margin: -0.09, lead: -0.09 })).toBe("weak");
  expect(labelOf({ ...exact, covered: 0.1, similarity: 0.4 })).toBe("weak");
});

test("past use may make a result fair, never strong", () => {
  const learned = { covered: 1, similarity: 0.82, asked: 0.44, learned: 0.8, margin: -0.35, lead: 1.2 };
  expect(labelOf(learned)).toBe("fair");
  expect(labelOf({ ...learned, learned: 1, asked: 1 })).toBe("fair");
});

test("a result past use lifted that does more than asked goes after the one that does exactly that", () => {
  const hits = [
    { key: "cap:shout", score: 2.2, covered: 1, similarity: 0.82, learned: { weight: 0.8, query: "read a file", uses: 1 }, unlearned: 0.65 },
    { key: "tool:fs:read_file", score: 1, covered: 1, similarity: 0.97 },
    { key: "tool:fs:read_text_file", score: 0.9, covered: 1, similarity: 0.97 },
  ];
  const asked: Record<string, number> = { "cap:shout": 0.44, "tool:fs:read_file": 1, "tool:fs:read_text_file": 0.94 };
  const { hits: order, labels } = labelHits(hits, (key) => asked[key]!);
  expect(order.map((h) => h.key)).toEqual(["tool:fs:read_file", "cap:shout", "tool:fs:read_text_file"]);
  expect(labels).toEqual(["strong", "fair", "weak"]);
});

test("with a provider, strong needs its meaning to agree (clearly nearest), and a weak best result it puts clearly nearest is fair", () => {
  expect(labelOf({ ...exact, meaning: 0.7, meaningLead: 0.5 })).toBe("strong");
  expect(labelOf({ ...exact, meaning: 0.5, meaningLead: 0.1 })).toBe("fair");
  const unworded = { covered: 0, similarity: 0.2, asked: 0.1, learned: 0, margin: 0.15, lead: 0.15 };
  expect(labelOf(unworded)).toBe("weak");
  expect(labelOf({ ...unworded, meaning: 0.8, meaningLead: 0.6 })).toBe("fair");
  // Not ahead by the ranking: meaning alone does not make it a fit.
  expect(labelOf({ ...unworded, margin: 0.04, lead: 0.04, meaning: 0.8, meaningLead: 0.6 })).toBe("weak");
});

test("code evidence: code doing the opposite is unmarked, code words make a result ahead fair, never strong", () => {
  const code = { covers: 0, opposed: false, leans: false, unfilled: false, fills: false };
  expect(labelOf({ ...exact, code: { ...code, opposed: true } })).toBe("weak");
  // A call that may be used for the other side (`s[0]` for "the last letter"), or a required path the request cannot fill.
  expect(labelOf({ ...exact, code: { ...code, leans: true } })).toBe("fair");
  expect(labelOf({ ...exact, code: { ...code, unfilled: true } })).toBe("fair");
  // "how many capitals…" against code matching /[A-Z]/: few of its words said, ahead of the others.
  const ahead: MatchEvidence = { covered: 0.34, similarity: 0.48, asked: 0.26, learned: 0, margin: 0.6, lead: 0.6 };
  expect(labelOf(ahead)).toBe("weak");
  expect(labelOf({ ...ahead, code: { ...code, covers: 1 } })).toBe("fair");
  expect(labelOf({ ...ahead, similarity: 0.9, covered: 0.9, asked: 0.9, code: { ...code, covers: 3 } })).toBe("strong");
  expect(labelOf({ ...ahead, code: { ...code, covers: 1 }, margin: 0.03, lead: 0.03 })).toBe("weak");
});

test("parameters the request's values fill one to one make a result far ahead fair, never strong", () => {
  const code = { covers: 0, opposed: false, leans: false, unfilled: false, fills: true };
  // "7322 secs -> h:m:s" for format_duration(seconds): hardly a word of it said, far ahead of the others.
  const terse: MatchEvidence = { covered: 0.14, similarity: 0.52, asked: 0.06, learned: 0, margin: 0.29, lead: 0.29 };
  expect(labelOf(terse)).toBe("weak");
  expect(labelOf({ ...terse, code })).toBe("fair");
  expect(labelOf({ ...terse, code, covered: 0.9, similarity: 0.9, asked: 0.2 })).toBe("fair");
  // Not far enough ahead (a twin close behind), another word in a slot, code leaning the other way.
  expect(labelOf({ ...terse, code, margin: 0.12, lead: 0.12 })).toBe("weak");
  expect(labelOf({ ...terse, code, substituted: "near" })).toBe("weak");
  expect(labelOf({ ...terse, code: { ...code, leans: true } })).toBe("weak");
});

test("only a hit ahead of every other may be called: the leaders whose code is read", () => {
  const hit = (key: string, score: number, unlearned?: number) => ({ key, score, ...(unlearned !== undefined ? { unlearned } : {}) }) as never;
  expect(leaders([hit("a", 0.9), hit("b", 0.5)]).map((h: { key: string }) => h.key)).toEqual(["a"]);
  // Near twins: neither is ahead, no label can call one.
  expect(leaders([hit("a", 0.9), hit("b", 0.88)])).toEqual([]);
  // Past use lifted b far ahead; a leads by its words.
  expect(leaders([hit("a", 0.9, 0.9), hit("b", 1.5, 0.5)]).map((h: { key: string }) => h.key)).toEqual(["a", "b"]);
});
