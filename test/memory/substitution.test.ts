// A capability's text is aligned with the request over its first 1,000 characters only
// (src/memory/substitution.ts): the alignment costs the request's words times the text's, and an
// intent (or a team hit's description) may be a pasted text of any length.
import { expect, test } from "bun:test";
import { substitutionIn } from "../../src/memory/substitution.ts";

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
