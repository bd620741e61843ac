// A capability's text is aligned with the request over its first 1,000 characters only
// (src/memory/substitution.ts): the alignment costs the request's words times the text's, and an
// intent (or a team hit's description) may be a pasted text of any length.
import { expect, test } from "bun:test";
import { substitutionIn, twinRequest } from "../../src/memory/substitution.ts";
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

test("a past request that says the same but a word that turns it around asks for the twin; a rephrasing does not", () => {
  const twins: [string, string][] = [
    ["what calendar date is 45 days after 2026-01-20?", "what calendar date is 10 days before 2027-03-05?"],
    ["names of the feature flags turned on in config/flags.json", "names of the feature flags turned off in config/staging.json"],
    ["keep only the lines of logs/app.log that contain ERROR", "keep only the lines of logs/x.log that don't contain DEBUG"],
    ["list the checked items of the checklist in docs/a.md", "list the unchecked items of the checklist in docs/b.md"],
    ["encrypt 'meet me' with a caesar cipher, shift 3", "decrypt 'phhw ph' with a caesar cipher, shift 3"],
  ];
  for (const [a, b] of twins) {
    expect(twinRequest(a)(b)).toBe(true);
    expect(twinRequest(b)(a)).toBe(true);
  }
  const same: [string, string][] = [
    // Other data only: quoted text, paths, numbers.
    ["list the feature flags turned on in web.json", "list the feature flags turned on in app.json"],
    // A word put for another is a rephrasing as often as a twin: word vectors cannot tell.
    ["execute the unit tests and tell me what broke", "execute the unit tests and tell me what failed"],
    // A negation of a word only one of them says.
    ["length of bio.txt in characters, ignore the line breaks", "count the characters in draft.txt, line breaks not counted"],
    // Too few words in common to read either as the other turned around.
    ["round 2.5 up", "round 7.1 down"],
  ];
  for (const [a, b] of same) expect(twinRequest(a)(b)).toBe(false);
});

test("a conversion starts from a phrase: a request into what a capability converts from asks for its twin", () => {
  const toZone = ["utc time to zone", "convert a UTC time to the local time of a time zone"];
  // "to UTC" where the name converts from "utc time": the other way round, though "utc" is not the
  // word just before its "to".
  expect(substitutionIn("convert 14:30 Tokyo time to UTC")(toZone)).toBe("twin");
  expect(substitutionIn("turn bytes into a hex string")(["hex string to bytes", "decode a hex string to bytes"])).toBe("twin");
  expect(substitutionIn("convert 09:00 UTC to Tokyo time")(toZone)).not.toBe("twin");
});

test("what replaces what: 'X replaced by Y' and 'replace X with Y' convert X into Y, a comma ends the phrase", () => {
  const expand = ["tabs to spaces", "rewrite a text with each tab replaced by two spaces, into another file"];
  const collapse = ["spaces to tabs", "rewrite a text with each run of two spaces replaced by a tab, into another file"];
  expect(substitutionIn("in notes.txt, two spaces replaced by a tab please")(expand)).toBe("twin");
  expect(substitutionIn("replace the spaces of notes.txt with tabs")(expand)).toBe("twin");
  // Its own task: "…spaces, into another file" does not convert from "spaces".
  expect(substitutionIn("replace the tabs of notes.txt with spaces")(expand)).toBeUndefined();
  expect(substitutionIn("in notes.txt, two spaces replaced by a tab please")(collapse)).toBeUndefined();
});

test("for [strong], a slot holds a word only by its stem: a comparative's opposite, a sibling unit", () => {
  const vectors = readWordVectors(new URL("../../src/memory/generated/word-vectors.bin", import.meta.url).pathname);
  // "later" / "earlier": the stemmer keeps comparatives; WordNet's opposites are late / early.
  expect(substitutionIn("move 10:15 later by 20 minutes", vectors)(["move time earlier", "move a clock time earlier by some minutes"])).toBeDefined();
  // Word vectors put "hours" as near "minutes" as a synonym: a sibling, not the same unit.
  expect(substitutionIn("sum the seconds column of a.csv, total in hours", vectors)(["sum seconds as minutes", "sum a seconds column, total in minutes"])).toBe("near");
  // A word near in meaning is held for "another task" (HELD_COSINE), not for certain.
  const large = ["find large files", "find the large files of a folder"];
  expect(substitutionIn("find the big files of logs/", vectors)(large)).toBe("near");
  expect(substitutionIn("find the large files of tmp/", vectors)(large)).toBeUndefined();
});

test("a word one text negates and the other says plainly turns the task around", () => {
  const nonTest = ["list non test files", "list the files that are not tests in a file listing"];
  expect(substitutionIn("list the test files of manifest/files.txt")(nonTest)).toBe("twin");
  expect(substitutionIn("keep the lines of a.log that contain ERROR")(["drop matching lines", "keep the lines of a text that do not contain a given string"])).toBe("twin");
  expect(substitutionIn("which files of ls.txt aren't tests")(["list test files", "list the test files in a file listing"])).toBe("twin");
  // Both negate it: the same task.
  expect(substitutionIn("list the non-test files of manifest/files.txt")(nonTest)).toBeUndefined();
});
