// Blind reuse stream 9 (`bun bench/reuse.ts --tasks blind9`): written blind on 2026-12-07 by a
// helper that saw only the stream format (bench/reuse-tasks.ts's types and helpers and one of its
// tasks), not pml, its ranking or the other streams' asks. Nothing is tuned on it; its requests are
// never printed (no misses, no --records, no --verbose). 20 tasks, each asked three times: first in
// the intent's words, then by other users on other days (terse, chatty, a file name only, jargon, a
// typo), about half of the repeats sharing a content word with the intent and half none. Sixteen of
// them are eight near-twin pairs whose inputs have the same names and kinds (largest vs smallest,
// encode vs decode, sorted Z-A vs reversed, digits vs letters kept, base 2 vs base 16, longest vs
// shortest line, weeks forward vs back, padded left vs right), so that a careless reuse runs and
// answers wrong.
import { type Ask, input, lines, type ReuseTask } from "./reuse-tasks.ts";

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const text = (a: Ask) => a.args.text as string;
const fileLines = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l !== "");
const shiftWeeks = (a: Ask, sign: number) => {
  const d = new Date(`${a.args.date as string}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + sign * 7 * (a.args.weeks as number));
  return d.toISOString().slice(0, 10);
};

const PICK_LARGEST: ReuseTask = {
  name: "list:pick_largest",
  intent: "find the largest number in a list",
  code: "return Math.max(...args.numbers);",
  expect: (a) => Math.max(...(a.args.numbers as number[])),
  asks: [
    { say: "find the largest number in [4, 17, 9, 2]", args: { numbers: [4, 17, 9, 2] } },
    { say: "max of 3.5, -2, 11, 10.9?", args: { numbers: [3.5, -2, 11, 10.9] } },
    { say: "largest number here pls: 120, 450, 300, 449", args: { numbers: [120, 450, 300, 449] } },
  ],
};

const PICK_SMALLEST: ReuseTask = {
  name: "list:pick_smallest",
  intent: "find the smallest number in a list",
  code: "return Math.min(...args.numbers);",
  expect: (a) => Math.min(...(a.args.numbers as number[])),
  asks: [
    { say: "find the smallest number in [8, 3, 12, 5]", args: { numbers: [8, 3, 12, 5] } },
    { say: "lowest overnight temp this week? -3, 1, -7, 0, 4", args: { numbers: [-3, 1, -7, 0, 4] } },
    { say: "whats the smallest of 250 199 305 199.5", args: { numbers: [250, 199, 305, 199.5] } },
  ],
};

const ENCODE_BASE64: ReuseTask = {
  name: "text:encode_base64",
  intent: "encode a text as base64",
  code: [
    `const A = "${B64}";`,
    "const s = args.text;",
    'let out = "";',
    "for (let i = 0; i < s.length; i += 3) {",
    "  const n = (s.charCodeAt(i) << 16) | ((s.charCodeAt(i + 1) || 0) << 8) | (s.charCodeAt(i + 2) || 0);",
    '  out += A[(n >> 18) & 63] + A[(n >> 12) & 63] + (i + 1 < s.length ? A[(n >> 6) & 63] : "=") + (i + 2 < s.length ? A[n & 63] : "=");',
    "}",
    "return out;",
  ].join("\n"),
  expect: (a) => Buffer.from(text(a), "utf8").toString("base64"),
  asks: [
    { say: "encode the text 'hello pml' as base64", args: { text: "hello pml" } },
    { say: "b64 this for the basic auth header: admin:s3cret", args: { text: "admin:s3cret" } },
    { say: "need 'user=42&ok=1' base64-encoded", args: { text: "user=42&ok=1" } },
  ],
};

const DECODE_BASE64: ReuseTask = {
  name: "text:decode_base64",
  intent: "decode base64 back to plain text",
  code: [
    `const A = "${B64}";`,
    'const s = args.text.replace(/[^A-Za-z0-9+/]/g, "");',
    'let acc = 0, bits = 0, out = "";',
    "for (const ch of s) {",
    "  acc = ((acc << 6) | A.indexOf(ch)) & 0xffffff;",
    "  bits += 6;",
    "  if (bits >= 8) {",
    "    bits -= 8;",
    "    out += String.fromCharCode((acc >> bits) & 255);",
    "  }",
    "}",
    "return out;",
  ].join("\n"),
  expect: (a) => Buffer.from(text(a), "base64").toString("latin1"),
  asks: [
    { say: "decode this base64 back to plain text: cG1sIHJvY2tz", args: { text: "cG1sIHJvY2tz" } },
    { say: "what does aGVsbG8gd29ybGQ= say?", args: { text: "aGVsbG8gd29ybGQ=" } },
    { say: "the token payload is eyJ1c2VyIjoiYW5hIn0 , decode it", args: { text: "eyJ1c2VyIjoiYW5hIn0" } },
  ],
};

const SORT_LINES: ReuseTask = {
  name: "fs:sort_lines_descending",
  intent: "sort the lines of a file in descending alphabetical order, Z to A",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").filter((l) => l !== "").sort().reverse();',
  expect: (a) => fileLines(a).sort().reverse(),
  asks: [
    {
      say: "sort the lines of lists/names.txt in descending alphabetical order",
      args: { path: "lists/names.txt" },
      files: { "lists/names.txt": lines("mia", "ana", "zoe", "bo") },
    },
    {
      say: "put config/allowlist.txt in Z-A order",
      args: { path: "config/allowlist.txt" },
      files: { "config/allowlist.txt": lines("staging.acme.dev", "api.acme.dev", "www.acme.dev", "cdn.acme.dev") },
    },
    { say: "reverse-alphabetize teh lines in deps.txt", args: { path: "deps.txt" }, files: { "deps.txt": lines("react", "axios", "zod", "lodash", "express") } },
  ],
};

const REVERSE_LINES: ReuseTask = {
  name: "fs:reverse_lines",
  intent: "reverse the order of the lines in a file",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").filter((l) => l !== "").reverse();',
  expect: (a) => fileLines(a).reverse(),
  asks: [
    {
      say: "reverse the order of the lines in history/steps.txt",
      args: { path: "history/steps.txt" },
      files: { "history/steps.txt": lines("clone", "install", "build", "test", "deploy") },
    },
    {
      say: "flip logs/events.log upside down, newest entry first (it's appended as things happen)",
      args: { path: "logs/events.log" },
      files: { "logs/events.log": lines("boot", "login ana", "upload report", "logout ana") },
    },
    { say: "lines of stack.txt in reverse order please", args: { path: "stack.txt" }, files: { "stack.txt": lines("main", "handler", "parse", "readToken") } },
  ],
};

const EXTRACT_DIGITS: ReuseTask = {
  name: "text:extract_digits",
  intent: "keep only the digits of a text, dropping everything else",
  code: 'return args.text.replace(/[^0-9]/g, "");',
  expect: (a) => [...text(a)].filter((c) => c >= "0" && c <= "9").join(""),
  asks: [
    { say: "keep only the digits of '+1 (415) 555-0132'", args: { text: "+1 (415) 555-0132" } },
    { say: "strip everything but numbers out of 'INV-2026/00417-B'", args: { text: "INV-2026/00417-B" } },
    { say: "just the digits from 'Rm 12B, Bldg 7' plz", args: { text: "Rm 12B, Bldg 7" } },
  ],
};

const EXTRACT_LETTERS: ReuseTask = {
  name: "text:extract_letters",
  intent: "keep only the letters of a text, dropping digits, spaces and punctuation",
  code: 'return args.text.replace(/[^A-Za-z]/g, "");',
  expect: (a) => [...text(a)].filter((c) => /[A-Za-z]/.test(c)).join(""),
  asks: [
    { say: "keep only the letters of 'R2-D2 & C-3PO'", args: { text: "R2-D2 & C-3PO" } },
    { say: "sku 'AB-12-cd-34' -> alpha chars only", args: { text: "AB-12-cd-34" } },
    { say: "remove the numbers, spaces and symbols from 'Flight LH 441, gate B22'", args: { text: "Flight LH 441, gate B22" } },
  ],
};

const FORMAT_BINARY: ReuseTask = {
  name: "num:format_binary",
  intent: "write an integer in base 2",
  code: "return args.n.toString(2);",
  expect: (a) => (a.args.n as number).toString(2),
  asks: [
    { say: "write the integer 10 in base 2", args: { n: 10 } },
    { say: "255 to binary", args: { n: 255 } },
    { say: "base 2 form of 1000 pls", args: { n: 1000 } },
  ],
};

const FORMAT_HEX: ReuseTask = {
  name: "num:format_hex",
  intent: "write an integer in base 16, lowercase digits",
  code: "return args.n.toString(16);",
  expect: (a) => (a.args.n as number).toString(16),
  asks: [
    { say: "write the integer 48879 in base 16", args: { n: 48879 } },
    { say: "hex for 4096?", args: { n: 4096 } },
    { say: "what's 3054 in hexadecimal, for a css-ish color channel dump", args: { n: 3054 } },
  ],
};

const LONGEST_LINE: ReuseTask = {
  name: "fs:find_longest_line",
  intent: "find the longest line of a file",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nlet best = "";\nfor (const l of t.split("\\n")) if (l.length > best.length) best = l;\nreturn best;',
  expect: (a) => fileLines(a).reduce((b, l) => (l.length > b.length ? l : b), ""),
  asks: [
    {
      say: "find the longest line of poems/haiku.txt",
      args: { path: "poems/haiku.txt" },
      files: { "poems/haiku.txt": lines("an old silent pond", "a frog jumps into the pond", "splash! silence again") },
    },
    {
      say: "which row in src/banner.txt is widest? checking it fits 80 cols",
      args: { path: "src/banner.txt" },
      files: { "src/banner.txt": lines("+--------+", "|  ACME  build tools v3  |", "+--+") },
    },
    {
      say: "longest line in README.txt",
      args: { path: "README.txt" },
      files: { "README.txt": lines("Setup", "", "Run make, then make install as root.", "Done.") },
    },
  ],
};

const SHORTEST_LINE: ReuseTask = {
  name: "fs:find_shortest_line",
  intent: "find the shortest non-empty line of a file",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nlet best;\nfor (const l of t.split("\\n")) if (l !== "" && (best === undefined || l.length < best.length)) best = l;\nreturn best ?? "";',
  expect: (a) => fileLines(a).reduce((b, l) => (l.length < b.length ? l : b)),
  asks: [
    { say: "find the shortest non-empty line of words/list.txt", args: { path: "words/list.txt" }, files: { "words/list.txt": lines("banana", "fig", "cherry", "kiwi") } },
    {
      say: "tightest entry in menu/items.txt, the one with the fewest characters",
      args: { path: "menu/items.txt" },
      files: { "menu/items.txt": lines("margherita pizza", "soup", "caesar salad", "tiramisu") },
    },
    {
      say: "shortest line of quotes.txt? skip blank ones",
      args: { path: "quotes.txt" },
      files: { "quotes.txt": lines("Stay hungry.", "", "Less is more.", "Be kind.", "Know thyself.") },
    },
  ],
};

const ADD_WEEKS: ReuseTask = {
  name: "date:add_weeks",
  intent: "move a date (YYYY-MM-DD) forward by a number of weeks",
  code: 'const d = new Date(args.date + "T00:00:00Z");\nd.setUTCDate(d.getUTCDate() + 7 * args.weeks);\nreturn d.toISOString().slice(0, 10);',
  expect: (a) => shiftWeeks(a, 1),
  asks: [
    { say: "move 2026-01-25 forward by 3 weeks", args: { date: "2026-01-25", weeks: 3 } },
    { say: "sprint kicks off 2026-02-16 and runs a fortnight, when does it finish?", args: { date: "2026-02-16", weeks: 2 } },
    { say: "2026-12-21 + 6 weeks ?", args: { date: "2026-12-21", weeks: 6 } },
  ],
};

const SUBTRACT_WEEKS: ReuseTask = {
  name: "date:subtract_weeks",
  intent: "move a date (YYYY-MM-DD) back by a number of weeks",
  code: 'const d = new Date(args.date + "T00:00:00Z");\nd.setUTCDate(d.getUTCDate() - 7 * args.weeks);\nreturn d.toISOString().slice(0, 10);',
  expect: (a) => shiftWeeks(a, -1),
  asks: [
    { say: "move 2026-03-05 back by 2 weeks", args: { date: "2026-03-05", weeks: 2 } },
    { say: "what was the date 10 weeks before 2026-01-10?", args: { date: "2026-01-10", weeks: 10 } },
    { say: "launch is 2026-06-01; code freeze is 4 wks earlier. which day is that", args: { date: "2026-06-01", weeks: 4 } },
  ],
};

const PAD_START: ReuseTask = {
  name: "text:pad_start",
  intent: "pad a text with spaces on the left up to a width, so it is right-aligned",
  code: "return String(args.text).padStart(args.width);",
  expect: (a) => " ".repeat(Math.max(0, (a.args.width as number) - text(a).length)) + text(a),
  asks: [
    { say: "pad '42' with spaces on the left to width 6", args: { text: "42", width: 6 } },
    { say: "right-justify 'total' in a 10 char column", args: { text: "total", width: 10 } },
    { say: "leftpad 'x7' to 5", args: { text: "x7", width: 5 } },
  ],
};

const PAD_END: ReuseTask = {
  name: "text:pad_end",
  intent: "pad a text with spaces on the right up to a width, so it is left-aligned",
  code: "return String(args.text).padEnd(args.width);",
  expect: (a) => text(a) + " ".repeat(Math.max(0, (a.args.width as number) - text(a).length)),
  asks: [
    { say: "pad 'id' with spaces on the right to width 8", args: { text: "id", width: 8 } },
    { say: "left-justify 'name' in a 12-wide field", args: { text: "name", width: 12 } },
    { say: "fill 'ok' out with trailing blanks to 6 characters", args: { text: "ok", width: 6 } },
  ],
};

const COUNT_DISTINCT: ReuseTask = {
  name: "csv:count_distinct",
  intent: "count the different values in a column of a CSV file",
  code: [
    "const t = await mcp.filesystem.read_file({ path: args.path });",
    'const [head, ...rows] = t.trim().split("\\n").map((l) => l.split(","));',
    "const i = head.indexOf(args.column);",
    "return new Set(rows.map((r) => r[i].trim())).size;",
  ].join("\n"),
  expect: (a) => {
    const [head, ...rows] = input(a)
      .trim()
      .split("\n")
      .map((l) => l.split(","));
    const i = head!.indexOf(a.args.column as string);
    return new Set(rows.map((r) => r[i]!.trim())).size;
  },
  asks: [
    {
      say: "count the different values in the city column of data/people.csv",
      args: { path: "data/people.csv", column: "city" },
      files: { "data/people.csv": lines("name,city", "ana,Lisbon", "bo,Porto", "chen,Lisbon", "dara,Faro", "eli,Porto") },
    },
    {
      say: "how many unique countries appear in reports/sales.csv (country column)?",
      args: { path: "reports/sales.csv", column: "country" },
      files: { "reports/sales.csv": lines("id,country,amount", "1,FR,20", "2,DE,35", "3,FR,12", "4,ES,9", "5,IT,40", "6,DE,7") },
    },
    {
      say: "cardinality of `plan` in billing/subs.csv",
      args: { path: "billing/subs.csv", column: "plan" },
      files: { "billing/subs.csv": lines("user,plan", "u1,pro", "u2,free", "u3,free", "u4,pro", "u5,team", "u6,free") },
    },
  ],
};

const FORMAT_DURATION: ReuseTask = {
  name: "time:format_duration",
  intent: "format a number of seconds as hh:mm:ss",
  code: 'const s = args.seconds;\nconst p = (n) => String(n).padStart(2, "0");\nreturn `${p(Math.floor(s / 3600))}:${p(Math.floor((s % 3600) / 60))}:${p(s % 60)}`;',
  expect: (a) => {
    const s = a.args.seconds as number;
    return [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, "0")).join(":");
  },
  asks: [
    { say: "format 3725 seconds as hh:mm:ss", args: { seconds: 3725 } },
    { say: "the job took 86399s, give it to me as a clock reading", args: { seconds: 86399 } },
    { say: "7322 secs -> h:m:s", args: { seconds: 7322 } },
  ],
};

const CHECK_PALINDROME: ReuseTask = {
  name: "text:check_palindrome",
  intent: "check whether a text reads the same backwards, ignoring case, spaces and punctuation",
  code: 'const s = args.text.toLowerCase().replace(/[^a-z0-9]/g, "");\nreturn s === s.split("").reverse().join("");',
  expect: (a) => {
    const s = text(a)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "");
    return s === [...s].reverse().join("");
  },
  asks: [
    { say: "check whether 'Never odd or even' reads the same backwards", args: { text: "Never odd or even" } },
    { say: "is 'A man, a plan, a canal: Panama' a palindrome?", args: { text: "A man, a plan, a canal: Panama" } },
    { say: "does 'Openair' read the same both ways, ignoring case", args: { text: "Openair" } },
  ],
};

const COUNT_LEVELS: ReuseTask = {
  name: "log:count_levels",
  intent: "count the lines of a log file per level (ERROR, WARN, INFO, DEBUG)",
  code: [
    "const t = await mcp.filesystem.read_file({ path: args.path });",
    "const counts = {};",
    'for (const l of t.split("\\n")) {',
    "  const m = l.match(/\\b(ERROR|WARN|INFO|DEBUG)\\b/);",
    "  if (m) counts[m[1]] = (counts[m[1]] || 0) + 1;",
    "}",
    "return counts;",
  ].join("\n"),
  expect: (a) => {
    const counts: Record<string, number> = {};
    for (const l of input(a).split("\n")) {
      const m = /\b(ERROR|WARN|INFO|DEBUG)\b/.exec(l);
      if (m) counts[m[1]!] = (counts[m[1]!] ?? 0) + 1;
    }
    return counts;
  },
  asks: [
    {
      say: "count the lines of logs/api.log per level",
      args: { path: "logs/api.log" },
      files: {
        "logs/api.log": lines(
          "2026-12-01 10:00:01 INFO listening on :8080",
          "2026-12-01 10:00:07 WARN slow request /users 1200ms",
          "2026-12-01 10:01:00 INFO GET /health 200",
          "2026-12-01 10:02:13 ERROR db timeout",
        ),
      },
    },
    {
      say: "how many errors vs warnings in var/worker.log",
      args: { path: "var/worker.log" },
      files: {
        "var/worker.log": lines(
          "[ERROR] job 17 failed: ENOENT",
          "[WARN] retrying job 17",
          "[ERROR] job 17 failed: ENOENT",
          "[DEBUG] queue depth 4",
          "[WARN] queue lag 30s",
          "[ERROR] giving up on job 17",
        ),
      },
    },
    {
      say: "breakdown by severity for deploy-2026-12-01.txt",
      args: { path: "deploy-2026-12-01.txt" },
      files: { "deploy-2026-12-01.txt": lines("INFO pulling image", "INFO migrating", "DEBUG 14 migrations", "INFO ready", "WARN cache cold") },
    },
  ],
};

export const BLIND_9_TASKS: readonly ReuseTask[] = [
  PICK_LARGEST,
  SORT_LINES,
  ENCODE_BASE64,
  EXTRACT_DIGITS,
  FORMAT_BINARY,
  LONGEST_LINE,
  ADD_WEEKS,
  PAD_START,
  COUNT_DISTINCT,
  PICK_SMALLEST,
  REVERSE_LINES,
  DECODE_BASE64,
  FORMAT_DURATION,
  EXTRACT_LETTERS,
  FORMAT_HEX,
  SHORTEST_LINE,
  SUBTRACT_WEEKS,
  CHECK_PALINDROME,
  PAD_END,
  COUNT_LEVELS,
];
