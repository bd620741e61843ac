// A capability's code is evidence for its `match` label (issue 46; src/memory/code-match.ts): what it
// calls says what it does, where a paraphrase meets neither its name nor its intent. Code that
// encodes is not the capability for "decode", whatever its texts say; `Math.max(...) - Math.min(...)`
// backs "max-min"; a capability whose required path the request cannot fill is not certain. Code is
// the agent's, maybe written from a hostile prompt: a body padded with every word backs nothing.
// Through the real dist/pml.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type MemoryFixture, matchOf, memoryFixture, saved } from "./helpers.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

test("a twin by code: the request names what the other twin's code does, and is not strong", async () => {
  const ask = await saved(fx, [["url:convert_component", "convert a url component for a query string", { code: "return encodeURIComponent(args.text);", args: { text: "a b" } }]]);
  const other = "decode the url component 'tom%20%26%20jerry' for a query string";
  expect(`${other}: ${matchOf(await ask(other), "url:convert_component") ?? "absent"}`).toMatch(/: (weak|absent)$/);
});

test("a capability whose code is padded with every word backs no request by it", async () => {
  const pad = Array.from({ length: 12 }, (_, i) => `max${i}() min${i}() spread${i}() numbers${i}()`).join(" ");
  const ask = await saved(fx, [["misc:helper_tool", "a small helper", { code: `/* Math.max() Math.min() read() write() list() ${pad} */ return 1;` }]]);
  const query = "max-min of the numbers [4, 8, 15, 16]";
  expect(`${query}: ${matchOf(await ask(query), "misc:helper_tool") ?? "absent"}`).toMatch(/: (weak|absent)$/);
});

test("a capability whose required path the request's values cannot fill is not strong", async () => {
  const ask = await saved(fx, [["text:count_words", "count the words of a text file", { code: "return String(args.path).split(/\\s+/).length;", args: { path: "notes.txt" } }]]);
  const own = "count the words of the text file docs/intro.txt";
  expect(`${own}: ${matchOf(await ask(own), "text:count_words")}`).toBe(`${own}: strong`);
  const unfilled = "count the words of the text 'the quick brown fox'";
  expect(`${unfilled}: ${matchOf(await ask(unfilled), "text:count_words") ?? "absent"}`).not.toMatch(/: strong$/);
});

test("a capability far ahead whose required parameters the request's values fill one to one is worth calling (fair), never strong by it", async () => {
  const code = 'const s = args.seconds;\nconst p = (n) => String(n).padStart(2, "0");\nreturn `${p(Math.floor(s / 3600))}:${p(Math.floor((s % 3600) / 60))}:${p(s % 60)}`;';
  const ask = await saved(fx, [
    ["time:format_duration", "format a number of seconds as hh:mm:ss", { code, args: { seconds: 3725 } }],
    ["text:reverse_text", "reverse the characters of a text", { code: "return [...args.text].reverse().join('');", args: { text: "abc" } }],
  ]);
  // Few of its words said ("secs", "h:m:s"), but one number for its one number.
  const terse = "7322 secs -> h:m:s";
  expect(`${terse}: ${matchOf(await ask(terse), "time:format_duration")}`).toBe(`${terse}: fair`);
  // A value left over (a second number) is not the request it takes.
  const more = "7322 secs -> h:m:s in 2 parts";
  expect(`${more}: ${matchOf(await ask(more), "time:format_duration") ?? "absent"}`).toMatch(/: (weak|absent)$/);
});
