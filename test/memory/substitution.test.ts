// A capability's text is aligned with the request over its first 1,000 characters only
// (src/memory/substitution.ts): the alignment costs the request's words times the text's, and an
// intent (or a team hit's description) may be a pasted text of any length.
import { expect, test } from "bun:test";
import { substitutionIn } from "../../src/memory/substitution.ts";
import { readWordVectors } from "../../src/memory/word-vectors.ts";

const twin = "list the unchecked items of a markdown checklist";
const filler = (chars: number) => "alpha bravo charlie delta echo foxtrot ".repeat(Math.ceil(chars / 39)).slice(0, chars);

test("a text's substituted slot is seen within its first 1,000 characters, and not read beyond them", () => {
  const substituted = substitutionIn("list the checked items of a markdown checklist");
  expect(substituted([twin])).toBe("twin");
  // Said after a short preamble: still the slot, in a text that says other things too.
  expect(substituted([`${filler(300)} ${twin}`])).toBe("slot");
  // Said after 200 KB: never aligned, so the request is not held for a pasted text.
  expect(substituted([`${filler(200_000)} ${twin}`])).toBeUndefined();
});

test("a slot holding the opposite of the request's word, or of one of its WordNet synonyms, is another word put in it", () => {
  // Word vectors put "start" as near "end" as a synonym; WordNet holds "begin" as the opposite of
  // "end", not "start": start's synonym begin is.
  const vectors = readWordVectors(new URL("../../src/memory/generated/word-vectors.bin", import.meta.url).pathname);
  expect(vectors).toBeDefined();
  const ending = ["ending with", "list the names of a one-per-line file that end with a given suffix"];
  expect(substitutionIn("list the names in team/roster.txt that start with the letter M", vectors)(ending)).toBeDefined();
  expect(substitutionIn("put '> ' at the start of every line of this text", vectors)(["suffix lines", "put a marker string at the end of every line of a text"])).toBeDefined();
  // Its own request, in other words, puts nothing in it.
  expect(substitutionIn("which names in staff.txt end with 'son'", vectors)(ending)).toBeUndefined();
});
