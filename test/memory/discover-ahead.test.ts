// A result far ahead of every other by words and meaning is worth calling (fair) even when the
// request says few of its own words (issue 46, item 1): "what's 48879 in hex?" names none of
// `decimal_to_hex`'s "convert a decimal number given as a string", yet nothing else comes near.
// Before, such a result was unmarked and the agent wrote the code again. Never strong by that alone.
// Through the real dist/pml.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type MemoryFixture, memoryFixture, saved } from "./helpers.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

test("a result far ahead of the others is fair, not strong, though the request says few of its words", async () => {
  const ask = await saved(fx, [
    ["num:decimal_to_hex", "convert a decimal number given as a string to lowercase hexadecimal"],
    ["text:name_initials", "return the capitalised initials of a person's full name"],
    ["md:open_checklist_items", "list the unchecked items of a markdown checklist"],
  ]);
  const first = (await ask("what's 48879 in hex?"))[0];
  expect(`${first?.id}: ${first?.match}`).toBe("num:decimal_to_hex: fair");
});
