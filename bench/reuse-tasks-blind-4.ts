// A sixth task stream for bench/reuse.ts (`--tasks blind4`), written blind on 2026-12-06 by a helper
// that saw the rules of the streams (bench/reuse-tasks.ts's types and one example task) but not pml's
// ranking, its other streams' requests, or the changes being judged (it judges the word-list
// ablation, issue 46.4). Nothing is tuned on it: bench/reuse.ts never prints its requests (no misses,
// no --records, no --verbose).
// Near-twins are there so that a careless match gives a wrong answer, not a miss: vowels against
// consonants of one text (same `text`), percent-encoding against decoding (same `text`, opposite
// directions), the sum, the largest and the smallest of one field of a JSON array (same
// `path`/`field`), and numbers sorted up against sorted down (same `path`).
// The stream's format has no task whose right answer is a plain tool (the agent calls capabilities or
// writes code), so it has none of the generic first requests a plain tool would answer.
// The code strings are raw so that their regular expressions read as they run in the sandbox.
import { type Ask, csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const str = (a: Ask, k: string) => a.args[k] as string;
const num = (a: Ask, k: string) => a.args[k] as number;
const letters = (t: string) => [...t.toLowerCase()].filter((c) => c >= "a" && c <= "z");
const isVowel = (c: string) => "aeiou".includes(c);

const COUNT_VOWELS: ReuseTask = {
  name: "text:count_vowels",
  intent: "count the vowels (a, e, i, o, u, any case) in a piece of text",
  code: String.raw`return (String(args.text).match(/[aeiou]/gi) ?? []).length;`,
  expect: (a) => letters(str(a, "text")).filter(isVowel).length,
  asks: [
    { say: "count the vowels in 'Programming is fun'", args: { text: "Programming is fun" } },
    { say: "for my kid's worksheet: in 'The cat sat on the mat', how many of the letters are a e i o u?", args: { text: "The cat sat on the mat" } },
    { say: "'Strength and Honour' has how many vowel letters?", args: { text: "Strength and Honour" } },
    { say: "She sells sea shells: how many a/e/i/o/u are in it?", args: { text: "She sells sea shells" } },
  ],
};

const COUNT_CONSONANTS: ReuseTask = {
  name: "text:count_consonants",
  intent: "count the consonant letters (letters other than a, e, i, o, u) in a piece of text",
  code: String.raw`return (String(args.text).match(/[b-df-hj-np-tv-z]/gi) ?? []).length;`,
  expect: (a) => letters(str(a, "text")).filter((c) => !isVowel(c)).length,
  asks: [
    { say: "count the consonants in 'Programming is fun'", args: { text: "Programming is fun" } },
    { say: "in 'The cat sat on the mat', how many letters are not vowels? spaces don't count", args: { text: "The cat sat on the mat" } },
    { say: "how many non-vowel letters are there in 'Strength and Honour'", args: { text: "Strength and Honour" } },
    { say: "tongue twister check: number of b, c, d... type letters in 'She sells sea shells'", args: { text: "She sells sea shells" } },
  ],
};

const URL_ENCODE: ReuseTask = {
  name: "text:url_encode",
  intent: "percent-encode a string so it can go in a URL query parameter",
  code: "return encodeURIComponent(String(args.text));",
  expect: (a) => encodeURIComponent(str(a, "text")),
  asks: [
    { say: "percent-encode 'a b&c=d' for a query string", args: { text: "a b&c=d" } },
    { say: "what does 'café au lait' look like escaped for a URL parameter?", args: { text: "café au lait" } },
    { say: "I need to put x/y?z into ?q= safely, give me the escaped form", args: { text: "x/y?z" } },
  ],
};

const URL_DECODE: ReuseTask = {
  name: "text:url_decode",
  intent: "decode a percent-encoded URL string back to plain text",
  code: "return decodeURIComponent(String(args.text).replace(/\\+/g, ' '));",
  expect: (a) => decodeURIComponent(str(a, "text").replaceAll("+", " ")),
  asks: [
    { say: "decode 'a%20b%26c%3Dd'", args: { text: "a%20b%26c%3Dd" } },
    { say: "what is caf%C3%A9%20au%20lait in readable text?", args: { text: "caf%C3%A9%20au%20lait" } },
    { say: "the access log shows q=x%2Fy%3Fz, what did the user actually search for?", args: { text: "x%2Fy%3Fz" } },
    { say: "unescape this form value for me: hello+world%21", args: { text: "hello+world%21" } },
  ],
};

const CART = "shop/cart.json";
const HOURS = "team/hours.json";
const DISKS = "infra/disks.json";
const ARRAYS = {
  [CART]: JSON.stringify([
    { sku: "a1", price: 9.99, qty: 2 },
    { sku: "b2", price: 24.5, qty: 1 },
    { sku: "c3", price: 3.25, qty: 6 },
  ]),
  [HOURS]: JSON.stringify([
    { name: "ana", hours: 38 },
    { name: "bo", hours: 42.5 },
    { name: "chen", hours: 35 },
  ]),
  [DISKS]: JSON.stringify([
    { host: "db1", free_gb: 120 },
    { host: "web1", free_gb: 18 },
    { host: "web2", free_gb: 64 },
    { host: "cache", free_gb: 7 },
  ]),
};
const onArray = (say: string, path: keyof typeof ARRAYS, field: string): Ask => ({ say, args: { path, field }, files: { [path]: ARRAYS[path] } });
const fieldValues = (a: Ask) => (JSON.parse(input(a)) as Record<string, number>[]).map((o) => o[str(a, "field")]!);
const READ_FIELD = "const v = JSON.parse(await mcp.filesystem.read_file({ path: args.path })).map((o) => Number(o[args.field]));";

const SUM_FIELD: ReuseTask = {
  name: "json:sum_field",
  intent: "add up a numeric field across the objects of a JSON array file, rounded to 2 decimals",
  code: `${READ_FIELD}\nreturn Math.round(v.reduce((s, x) => s + x, 0) * 100) / 100;`,
  expect: (a) => round2(fieldValues(a).reduce((s, x) => s + x, 0)),
  asks: [
    onArray("add up the price field over everything in shop/cart.json", CART, "price"),
    onArray("total hours the team logged, from team/hours.json", HOURS, "hours"),
    onArray("how much free space is there altogether (free_gb) across infra/disks.json?", DISKS, "free_gb"),
    onArray("shop/cart.json: how many items were ordered in all, going by qty", CART, "qty"),
  ],
};

const MAX_FIELD: ReuseTask = {
  name: "json:max_field",
  intent: "find the largest value of a numeric field across the objects of a JSON array file",
  code: `${READ_FIELD}\nreturn Math.max(...v);`,
  expect: (a) => fieldValues(a).sort((x, y) => y - x)[0],
  asks: [
    onArray("what's the highest hours value in team/hours.json?", HOURS, "hours"),
    onArray("which is the most free_gb any host has in infra/disks.json", DISKS, "free_gb"),
    onArray("the priciest item's price in shop/cart.json?", CART, "price"),
    onArray("shop/cart.json: the biggest qty on any one line", CART, "qty"),
  ],
};

const MIN_FIELD: ReuseTask = {
  name: "json:min_field",
  intent: "find the smallest value of a numeric field across the objects of a JSON array file",
  code: `${READ_FIELD}\nreturn Math.min(...v);`,
  expect: (a) => fieldValues(a).sort((x, y) => x - y)[0],
  asks: [
    onArray("smallest free_gb in infra/disks.json", DISKS, "free_gb"),
    onArray("what does the cheapest thing in shop/cart.json cost?", CART, "price"),
    onArray("who put in the fewest hours? just the number, from team/hours.json", HOURS, "hours"),
    onArray("lowest qty ordered for an item in shop/cart.json", CART, "qty"),
  ],
};

const SCORES = "data/scores.txt";
const PRICES = "data/prices.txt";
const PORTS = "data/ports.txt";
const SIZES = "data/sizes.txt";
const NUMBER_FILES = {
  [SCORES]: lines("42", "7", "19", "88", "3"),
  [PRICES]: lines("19.99", "5", "", "120.5", "0.99"),
  [PORTS]: lines("8080", "22", "443", "3000"),
  [SIZES]: lines("512", "64", "2048", "128"),
};
const onNumbers = (say: string, path: keyof typeof NUMBER_FILES): Ask => ({ say, args: { path }, files: { [path]: NUMBER_FILES[path] } });
const numbersOf = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map(Number);
const READ_NUMBERS = `const v = (await mcp.filesystem.read_file({ path: args.path })).split("\\n").filter((l) => l.trim() !== "").map(Number);`;

const SORT_UP: ReuseTask = {
  name: "fs:sort_numbers_ascending",
  intent: "sort the numbers listed one per line in a file from smallest to largest",
  code: `${READ_NUMBERS}\nreturn v.sort((a, b) => a - b);`,
  expect: (a) => numbersOf(a).sort((x, y) => x - y),
  asks: [
    onNumbers("sort the numbers in data/scores.txt from smallest to largest", SCORES),
    onNumbers("put data/prices.txt in increasing order", PRICES),
    onNumbers("data/ports.txt, lowest first please", PORTS),
  ],
};

const SORT_DOWN: ReuseTask = {
  name: "fs:sort_numbers_descending",
  intent: "sort the numbers listed one per line in a file from largest to smallest",
  code: `${READ_NUMBERS}\nreturn v.sort((a, b) => b - a);`,
  expect: (a) => numbersOf(a).sort((x, y) => y - x),
  asks: [
    onNumbers("order data/prices.txt from largest to smallest", PRICES),
    onNumbers("rank data/scores.txt, highest at the top", SCORES),
    onNumbers("data/ports.txt with the biggest number first", PORTS),
    onNumbers("data/sizes.txt in descending order", SIZES),
  ],
};

const COUNT_SENTENCES: ReuseTask = {
  name: "text:count_sentences",
  intent: "count the sentences in a paragraph (ended by . ! or ?)",
  code: String.raw`return String(args.text).split(/[.!?]+/).filter((s) => s.trim() !== "").length;`,
  expect: (a) => (str(a, "text").match(/[^.!?]*[A-Za-z0-9][^.!?]*([.!?]+|$)/g) ?? []).filter((s) => s.trim() !== "").length,
  asks: [
    { say: "how many sentences in 'Hi there. How are you? Fine!'", args: { text: "Hi there. How are you? Fine!" } },
    {
      say: "sentence count of this paragraph: 'We shipped v2. It broke prod! Rollback done. Lessons learned?'",
      args: { text: "We shipped v2. It broke prod! Rollback done. Lessons learned?" },
    },
    { say: "'The meeting ran long. Nobody noticed' -- how many sentences is that", args: { text: "The meeting ran long. Nobody noticed" } },
  ],
};

const FIRST_WORDS: ReuseTask = {
  name: "text:first_n_words",
  intent: "keep only the first n words of a text",
  code: String.raw`return String(args.text).trim().split(/\s+/).slice(0, args.n).join(" ");`,
  expect: (a) => str(a, "text").split(" ").filter(Boolean).slice(0, num(a, "n")).join(" "),
  asks: [
    { say: "keep just the first 5 words of 'the build failed because the cache was stale again'", args: { text: "the build failed because the cache was stale again", n: 5 } },
    { say: "shorten this to its opening 3 words for a preview: 'Deploys are frozen until Monday morning'", args: { text: "Deploys are frozen until Monday morning", n: 3 } },
    {
      say: "cut the abstract down to 8 words: 'We present a small model that ranks saved programs by how well they fit'",
      args: { text: "We present a small model that ranks saved programs by how well they fit", n: 8 },
    },
  ],
};

const UNIQUE_LINES: ReuseTask = {
  name: "fs:distinct_lines",
  intent: "list a file's lines with duplicates removed, keeping the order of first appearance",
  code: `const ls = (await mcp.filesystem.read_file({ path: args.path })).split("\\n").filter((l) => l !== "");
return [...new Set(ls)];`,
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l, i, all) => l !== "" && all.indexOf(l) === i),
  asks: [
    {
      say: "list the distinct lines of lists/emails.txt, keeping their order",
      args: { path: "lists/emails.txt" },
      files: { "lists/emails.txt": lines("a@x.io", "b@x.io", "a@x.io", "c@x.io", "b@x.io") },
    },
    { say: "logs/hosts.txt has repeats, give me each host once", args: { path: "logs/hosts.txt" }, files: { "logs/hosts.txt": lines("web1", "web2", "web1", "db1") } },
    {
      say: "dedupe words/tags.txt for me (in the order they first show up)",
      args: { path: "words/tags.txt" },
      files: { "words/tags.txt": lines("go", "rust", "go", "go", "zig") },
    },
  ],
};

const LONGEST_WORD: ReuseTask = {
  name: "text:longest_word",
  intent: "find the longest word in a text (the first one on a tie)",
  code: String.raw`let best = "";
for (const w of String(args.text).match(/[A-Za-z]+/g) ?? []) if (w.length > best.length) best = w;
return best;`,
  expect: (a) => (str(a, "text").match(/[A-Za-z]+/g) ?? []).reduce((b, w) => (w.length > b.length ? w : b), ""),
  asks: [
    { say: "which is the longest word in 'the quick brown fox jumped'", args: { text: "the quick brown fox jumped" } },
    { say: "in 'internationalization is hard to type', which word has the most letters?", args: { text: "internationalization is hard to type" } },
    { say: "pick the lengthiest one out of 'cat elephant giraffe dog'", args: { text: "cat elephant giraffe dog" } },
  ],
};

const GCD: ReuseTask = {
  name: "num:greatest_common_divisor",
  intent: "greatest common divisor of two whole numbers",
  code: "let a = Math.abs(args.a), b = Math.abs(args.b);\nwhile (b) [a, b] = [b, a % b];\nreturn a;",
  expect: (a) => {
    let d = Math.min(num(a, "a"), num(a, "b"));
    while (num(a, "a") % d || num(a, "b") % d) d--;
    return d;
  },
  asks: [
    { say: "greatest common divisor of 84 and 36", args: { a: 84, b: 36 } },
    { say: "largest number that divides both 1071 and 462?", args: { a: 1071, b: 462 } },
    { say: "I want to cut boards of 48 cm and 180 cm into equal pieces with nothing left over; how long can the pieces be at most?", args: { a: 48, b: 180 } },
    { say: "to simplify 270/192, what do I divide top and bottom by?", args: { a: 270, b: 192 } },
  ],
};

const IS_PRIME: ReuseTask = {
  name: "num:is_prime",
  intent: "check whether a whole number is prime",
  code: "const n = args.n;\nif (n < 2) return false;\nfor (let d = 2; d * d <= n; d++) if (n % d === 0) return false;\nreturn true;",
  expect: (a) => num(a, "n") > 1 && Array.from({ length: num(a, "n") - 2 }, (_, i) => i + 2).every((d) => num(a, "n") % d !== 0),
  asks: [
    { say: "is 97 prime?", args: { n: 97 } },
    { say: "check 221 for me: prime or not", args: { n: 221 } },
    { say: "is 7919 a prime number", args: { n: 7919 } },
    { say: "my hash table has 1009 buckets, is that one of those numbers only divisible by 1 and itself?", args: { n: 1009 } },
  ],
};

const THOUSANDS: ReuseTask = {
  name: "num:thousands_separators",
  intent: "write an integer with commas between groups of three digits",
  code: String.raw`const s = String(Math.abs(args.n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
return (args.n < 0 ? "-" : "") + s;`,
  expect: (a) => {
    const digits = String(Math.abs(num(a, "n")));
    const groups: string[] = [];
    for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
    return (num(a, "n") < 0 ? "-" : "") + groups.join(",");
  },
  asks: [
    { say: "format 1234567 with thousands separators", args: { n: 1234567 } },
    { say: "write 9876543210 with commas so it's readable", args: { n: 9876543210 } },
    { say: "show -45000 the way an accountant would, sign kept", args: { n: -45000 } },
    { say: "make 1000 look nice for the dashboard label", args: { n: 1000 } },
  ],
};

const ADD_DAYS: ReuseTask = {
  name: "date:add_days",
  intent: "the calendar date a number of days after (or before, if negative) a date, as YYYY-MM-DD",
  code: `const d = new Date(args.date + "T00:00:00Z");
d.setUTCDate(d.getUTCDate() + args.days);
return d.toISOString().slice(0, 10);`,
  expect: (a) => new Date(Date.parse(`${str(a, "date")}T12:00:00Z`) + num(a, "days") * 86400000).toISOString().slice(0, 10),
  asks: [
    { say: "what date is 30 days after 2026-01-15?", args: { date: "2026-01-15", days: 30 } },
    { say: "the invoice is dated 2026-11-20 with net 45 terms, when is it due?", args: { date: "2026-11-20", days: 45 } },
    { say: "90 days on from 2024-12-01 lands on which day", args: { date: "2024-12-01", days: 90 } },
    { say: "the day before 2026-03-01, please", args: { date: "2026-03-01", days: -1 } },
  ],
};

const AGE_ON: ReuseTask = {
  name: "date:age_on_date",
  intent: "how many full years old someone born on a date is on another date",
  code: `const [by, bm, bd] = args.birth.split("-").map(Number);
const [y, m, d] = args.on.split("-").map(Number);
return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);`,
  expect: (a) => {
    const b = str(a, "birth");
    const on = str(a, "on");
    const years = Number(on.slice(0, 4)) - Number(b.slice(0, 4));
    return on.slice(5) < b.slice(5) ? years - 1 : years;
  },
  asks: [
    { say: "how old is someone born 1990-06-15 on 2026-12-06?", args: { birth: "1990-06-15", on: "2026-12-06" } },
    { say: "my daughter was born 2019-12-07; what age is she as of 2026-12-06?", args: { birth: "2019-12-07", on: "2026-12-06" } },
    { say: "leap-day baby, 2000-02-29: how many birthdays has she had by 2025-02-28?", args: { birth: "2000-02-29", on: "2025-02-28" } },
  ],
};

const CSV_TO_MD: ReuseTask = {
  name: "csv:to_markdown_table",
  intent: "turn a CSV file into a Markdown table with a header row",
  code: `const rows = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\\n").map((l) => l.split(","));
const row = (r) => "| " + r.join(" | ") + " |";
return [row(rows[0]), row(rows[0].map(() => "---")), ...rows.slice(1).map(row)].join("\\n");`,
  expect: (a) => {
    const [head, ...rows] = input(a).trim().split("\n");
    const cells = (l: string) => `| ${l.split(",").join(" | ")} |`;
    return [cells(head!), `|${" --- |".repeat(head!.split(",").length)}`, ...rows.map(cells)].join("\n");
  },
  asks: [
    {
      say: "turn team/roster.csv into a markdown table",
      args: { path: "team/roster.csv" },
      files: {
        "team/roster.csv": csv("name,role", [
          ["ana", "dev"],
          ["bo", "ops"],
        ]),
      },
    },
    {
      say: "I want to paste inv/stock.csv into a GitHub comment, pipes and a header line",
      args: { path: "inv/stock.csv" },
      files: {
        "inv/stock.csv": csv("item,qty,bin", [
          ["bolts", 400, "A1"],
          ["nuts", 250, "A2"],
          ["washers", 90, "B1"],
        ]),
      },
    },
    {
      say: "bench/results.csv as a table for the README please",
      args: { path: "bench/results.csv" },
      files: {
        "bench/results.csv": csv("case,ms", [
          ["cold", 812],
          ["warm", 95],
        ]),
      },
    },
  ],
};

const PRETTY_JSON: ReuseTask = {
  name: "json:pretty_print",
  intent: "reformat a JSON file with 2-space indentation",
  code: "return JSON.stringify(JSON.parse(await mcp.filesystem.read_file({ path: args.path })), null, 2);",
  expect: (a) => JSON.stringify(JSON.parse(input(a)), null, 2),
  asks: [
    { say: "pretty-print api/resp.json with 2-space indentation", args: { path: "api/resp.json" }, files: { "api/resp.json": '{"ok":true,"data":{"id":3,"tags":["a","b"]}}' } },
    { say: "cfg/min.json is all on one line, make it readable", args: { path: "cfg/min.json" }, files: { "cfg/min.json": '{"port":8080,"hosts":["a","b"],"tls":{"on":false}}' } },
    {
      say: "lay out api/user.json nicely indented so I can review it",
      args: { path: "api/user.json" },
      files: { "api/user.json": '[{"id":1,"name":"Ana"},{"id":2,"name":"Bo"}]' },
    },
  ],
};

const WORD_OCCURRENCES: ReuseTask = {
  name: "fs:word_occurrences",
  intent: "count how many times a given word occurs in a text file (whole words, any case)",
  code: String.raw`const w = String(args.word).toLowerCase();
return ((await mcp.filesystem.read_file({ path: args.path })).toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((x) => x === w).length;`,
  expect: (a) =>
    input(a)
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((x) => x === str(a, "word").toLowerCase()).length,
  asks: [
    {
      say: "how many times does the word cat appear in docs/story.txt?",
      args: { path: "docs/story.txt", word: "cat" },
      files: { "docs/story.txt": lines("The cat saw another cat.", "Cats and the CAT, and a catalog.") },
    },
    {
      say: "count the mentions of review in notes/standup.txt",
      args: { path: "notes/standup.txt", word: "review" },
      files: { "notes/standup.txt": lines("blocked on review", "review done", "need a review from Bo, reviewers busy") },
    },
    {
      say: "in logs/app.log, how often is error written as a word of its own?",
      args: { path: "logs/app.log", word: "error" },
      files: { "logs/app.log": lines("error: disk", "warn: errors rising", "ERROR again", "ok") },
    },
  ],
};

const sortedLines = (a: Ask) =>
  lines(
    ...input(a)
      .split("\n")
      .filter((l) => l !== "")
      .sort(),
  );

const WRITE_SORTED: ReuseTask = {
  name: "fs:write_sorted_copy",
  intent: "write a file's lines sorted alphabetically to another file",
  code: `const ls = (await mcp.filesystem.read_file({ path: args.path })).split("\\n").filter((l) => l !== "").sort();
await mcp.filesystem.write_file({ path: args.out, content: ls.join("\\n") + "\\n" });
return ls.length;`,
  expect: (a) => sortedLines(a).split("\n").length - 1,
  leaves: (a) => ({ [str(a, "out")]: sortedLines(a) }),
  asks: [
    {
      say: "sort lists/names.txt alphabetically into lists/names.sorted.txt",
      args: { path: "lists/names.txt", out: "lists/names.sorted.txt" },
      files: { "lists/names.txt": lines("zoe", "adam", "mia", "bob") },
    },
    {
      say: "alphabetize lists/cities.txt and save that as lists/cities_az.txt",
      args: { path: "lists/cities.txt", out: "lists/cities_az.txt" },
      files: { "lists/cities.txt": lines("Oslo", "Lima", "Cairo", "Quito", "Bern") },
    },
    {
      say: "put the lines of deps/requirements.txt in A-Z order, output to deps/requirements.sorted.txt",
      args: { path: "deps/requirements.txt", out: "deps/requirements.sorted.txt" },
      files: { "deps/requirements.txt": lines("requests==2.32", "flask==3.0", "numpy==2.1", "attrs==24.2") },
    },
  ],
};

export const BLIND_4_TASKS: readonly ReuseTask[] = [
  COUNT_VOWELS,
  COUNT_CONSONANTS,
  URL_ENCODE,
  URL_DECODE,
  SUM_FIELD,
  MAX_FIELD,
  MIN_FIELD,
  SORT_UP,
  SORT_DOWN,
  COUNT_SENTENCES,
  FIRST_WORDS,
  UNIQUE_LINES,
  LONGEST_WORD,
  GCD,
  IS_PRIME,
  THOUSANDS,
  ADD_DAYS,
  AGE_ON,
  CSV_TO_MD,
  PRETTY_JSON,
  WORD_OCCURRENCES,
  WRITE_SORTED,
];
