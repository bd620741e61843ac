// The seventh blind reuse stream (bench/reuse.ts --tasks blind7): written blind on 2026-12-07 by a
// helper that saw only the format of bench/reuse-tasks.ts (its types, helpers and one task), not
// pml, its ranking or the other streams' asks. Nothing is tuned on it; its requests are never
// printed. 20 tasks, 16 of them in 8 near-twin pairs whose inputs have the same names and kinds, so
// that a careless reuse runs and answers wrongly: the longest vs the shortest line of a file, the
// median vs the spread of a column of numbers, percent-encoding vs decoding, the first vs the last
// column of a TSV file, uppercase vs lowercase letters, names starting vs ending with a letter, a minor vs a
// patch bump of a version, the texts vs the targets of markdown links. The repeats are worded by
// different users on different days: terse, chatty, a file name only, jargon, a typo; some use the
// intent's words, some none of them. Everything runs offline on pml's built-in filesystem tools.

import { type Ask, input, lines, type ReuseTask } from "./reuse-tasks.ts";

const textLines = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "");
const numbers = (a: Ask) =>
  textLines(a)
    .map(Number)
    .sort((x, y) => x - y);
const tsvColumn = (a: Ask, pick: (cells: string[]) => string) =>
  textLines(a)
    .slice(1)
    .map((l) => pick(l.split("\t")));
const linkParts = (a: Ask, part: 1 | 2) => [...input(a).matchAll(/\[([^\]]+)\]\(([^)]+)\)/g)].map((m) => m[part]);
const names = (a: Ask) =>
  textLines(a)
    .map((l) => l.trim())
    .filter((n) => n.length > 0);
const bump = (v: string, part: "minor" | "patch") => {
  const [ma, mi, pa] = v.split(".").map(Number) as [number, number, number];
  return part === "minor" ? `${ma}.${mi + 1}.0` : `${ma}.${mi}.${pa + 1}`;
};

const LONGEST_LINE: ReuseTask = {
  name: "text:longest_line",
  intent: "return the longest line of a text file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "");
return ls.reduce((a, b) => (b.length > a.length ? b : a));`,
  expect: (a) => textLines(a).reduce((x, y) => (y.length > x.length ? y : x)),
  asks: [
    {
      say: "return the longest line of a text file: quotes/wilde.txt",
      args: { path: "quotes/wilde.txt" },
      files: { "quotes/wilde.txt": lines("Be yourself.", "Everyone else is already taken, they say.", "I can resist anything except temptation.") },
    },
    {
      say: "which row of errors/stack.txt runs widest? the one that overflows my terminal",
      args: { path: "errors/stack.txt" },
      files: { "errors/stack.txt": lines("TypeError: x is undefined", "    at render (src/ui/table/VirtualizedRowRenderer.tsx:212:17)", "    at main (index.ts:3)") },
    },
    {
      say: "copy/slogans.md - gimme the wordiest one",
      args: { path: "copy/slogans.md" },
      files: { "copy/slogans.md": lines("Ship it.", "Fast builds, happy devs.", "The editor that gets out of your way, every single day.", "Just code.") },
    },
  ],
};

const SHORTEST_LINE: ReuseTask = {
  name: "text:shortest_line",
  intent: "return the shortest non-empty line of a text file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "");
return ls.reduce((a, b) => (b.length < a.length ? b : a));`,
  expect: (a) => textLines(a).reduce((x, y) => (y.length < x.length ? y : x)),
  asks: [
    {
      say: "return the shortest non-empty line of poems/haiku.txt",
      args: { path: "poems/haiku.txt" },
      files: { "poems/haiku.txt": lines("an old silent pond", "a frog jumps in", "", "splash! silence again") },
    },
    {
      say: "in names/pets.txt, which entry has the fewest characters?",
      args: { path: "names/pets.txt" },
      files: { "names/pets.txt": lines("Biscuit", "Mr. Whiskers", "Bo", "Pepperoni") },
    },
    {
      say: "tiniest row in tags/labels.txt pls (skip blanks)",
      args: { path: "tags/labels.txt" },
      files: { "tags/labels.txt": lines("needs-triage", "", "bug", "good first issue", "wontfix") },
    },
  ],
};

const MEDIAN_NUMBERS: ReuseTask = {
  name: "stats:median_numbers",
  intent: "compute the median of the numbers in a file, one number per line",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const xs = t.split("\n").filter((l) => l.trim() !== "").map(Number).sort((a, b) => a - b);
const m = Math.floor(xs.length / 2);
return xs.length % 2 ? xs[m] : (xs[m - 1] + xs[m]) / 2;`,
  expect: (a) => {
    const xs = numbers(a);
    const m = Math.floor(xs.length / 2);
    return xs.length % 2 ? xs[m] : (xs[m - 1]! + xs[m]!) / 2;
  },
  asks: [
    {
      say: "compute the median of the numbers in perf/latency_ms.txt",
      args: { path: "perf/latency_ms.txt" },
      files: { "perf/latency_ms.txt": lines("120", "95", "300", "101", "88") },
    },
    {
      say: "what's the middle value of scores/quiz.txt once you sort it? (even count, so average the two middle ones)",
      args: { path: "scores/quiz.txt" },
      files: { "scores/quiz.txt": lines("7", "9", "4", "10", "6", "8") },
    },
    { say: "p50 of bench/boot_times.txt", args: { path: "bench/boot_times.txt" }, files: { "bench/boot_times.txt": lines("2.4", "1.9", "3.1", "2.2", "5.0", "2.0", "2.8") } },
  ],
};

const RANGE_NUMBERS: ReuseTask = {
  name: "stats:range_numbers",
  intent: "compute the spread (largest minus smallest) of the numbers in a file, one number per line",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const xs = t.split("\n").filter((l) => l.trim() !== "").map(Number);
return Math.max(...xs) - Math.min(...xs);`,
  expect: (a) => {
    const xs = numbers(a);
    return xs[xs.length - 1]! - xs[0]!;
  },
  asks: [
    {
      say: "compute the spread, largest minus smallest, of the numbers in weather/highs.txt",
      args: { path: "weather/highs.txt" },
      files: { "weather/highs.txt": lines("18", "24", "21", "15", "27") },
    },
    {
      say: "how far apart are the best and worst values in runs/lap_seconds.txt?",
      args: { path: "runs/lap_seconds.txt" },
      files: { "runs/lap_seconds.txt": lines("64", "61", "70", "66", "59", "63") },
    },
    { say: "max-min for sensors/humidity.txt", args: { path: "sensors/humidity.txt" }, files: { "sensors/humidity.txt": lines("40", "55", "47", "38", "61", "52", "44") } },
  ],
};

const PERCENT_ENCODE: ReuseTask = {
  name: "url:percent_encode",
  intent: "percent-encode a string so it can go in a URL query parameter",
  code: "return encodeURIComponent(args.text);",
  expect: (a) => encodeURIComponent(a.args.text as string),
  asks: [
    { say: "percent-encode 'tom & jerry' so it can go in a URL query", args: { text: "tom & jerry" } },
    { say: "make 'a=1&b=2 c' safe to stick after ?q= in a link", args: { text: "a=1&b=2 c" } },
    { say: "urlencode this: café au lait/50%", args: { text: "café au lait/50%" } },
  ],
};

const PERCENT_DECODE: ReuseTask = {
  name: "url:percent_decode",
  intent: "decode a percent-encoded URL string back to plain text",
  code: "return decodeURIComponent(args.text);",
  expect: (a) => decodeURIComponent(a.args.text as string),
  asks: [
    { say: "decode the percent-encoded string hello%20world%21 back to plain text", args: { text: "hello%20world%21" } },
    { say: "what does 'q%3Dred%26size%3DM' actually say? it's from a tracking link", args: { text: "q%3Dred%26size%3DM" } },
    { say: "unescape caf%C3%A9%2Fmenu", args: { text: "caf%C3%A9%2Fmenu" } },
  ],
};

const TSV_FIRST_COLUMN: ReuseTask = {
  name: "tsv:first_column",
  intent: "list the values of the first column of a tab-separated file, header excluded",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").slice(1).map((l) => l.split("\t")[0]);`,
  expect: (a) => tsvColumn(a, (c) => c[0]!),
  asks: [
    {
      say: "list the values of the first column of the tab-separated file data/cities.tsv, without the header",
      args: { path: "data/cities.tsv" },
      files: { "data/cities.tsv": lines("city\tcountry\tpop", "Porto\tPT\t230000", "Lyon\tFR\t520000", "Gent\tBE\t265000") },
    },
    {
      say: "from exports/staff.tsv, just the leftmost field of every record pls",
      args: { path: "exports/staff.tsv" },
      files: { "exports/staff.tsv": lines("id\tname\trole", "e01\tAna\tdev", "e02\tBo\tops", "e03\tCy\tpm", "e04\tDee\tqa") },
    },
    {
      say: "cut -f1 on inventory/parts.tsv, minus the title row",
      args: { path: "inventory/parts.tsv" },
      files: { "inventory/parts.tsv": lines("sku\tdesc\tqty", "BX-1\tbolt\t400", "NT-7\tnut\t950") },
    },
  ],
};

const TSV_LAST_COLUMN: ReuseTask = {
  name: "tsv:last_column",
  intent: "list the values of the last column of a tab-separated file, header excluded",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").slice(1).map((l) => { const c = l.split("\t"); return c[c.length - 1]; });`,
  expect: (a) => tsvColumn(a, (c) => c[c.length - 1]!),
  asks: [
    {
      say: "list the values of the last column of the tab-separated file data/rivers.tsv, header excluded",
      args: { path: "data/rivers.tsv" },
      files: { "data/rivers.tsv": lines("river\tcountry\tkm", "Douro\tPT\t897", "Loire\tFR\t1006", "Scheldt\tBE\t350") },
    },
    {
      say: "exports/tickets.tsv - what's in the rightmost field of each row? skip the headings",
      args: { path: "exports/tickets.tsv" },
      files: { "exports/tickets.tsv": lines("id\ttitle\tstatus", "T-1\tlogin broken\topen", "T-2\tdark mode\tclosed", "T-3\tslow search\topen") },
    },
    {
      say: "final colum of every line in logs/jobs.tsv except the first",
      args: { path: "logs/jobs.tsv" },
      files: { "logs/jobs.tsv": lines("job\tstarted\texit", "backup\t02:00\t0", "reindex\t03:10\t1", "vacuum\t04:00\t0", "report\t05:30\t0") },
    },
  ],
};

const COUNT_UPPERCASE: ReuseTask = {
  name: "letters:uppercase_tally",
  intent: "count the uppercase letters A-Z in a text",
  code: "return (args.text.match(/[A-Z]/g) ?? []).length;",
  expect: (a) => ((a.args.text as string).match(/[A-Z]/g) ?? []).length,
  asks: [
    { say: "count the uppercase letters in 'Hello World From NASA'", args: { text: "Hello World From NASA" } },
    { say: "is someone SHOUTING here? how many capitals are in 'PLEASE fix This ASAP'", args: { text: "PLEASE fix This ASAP" } },
    { say: "# of caps: 'iPhone and MacBook Pro'", args: { text: "iPhone and MacBook Pro" } },
  ],
};

const COUNT_LOWERCASE: ReuseTask = {
  name: "letters:lowercase_tally",
  intent: "count the lowercase letters a-z in a text",
  code: "return (args.text.match(/[a-z]/g) ?? []).length;",
  expect: (a) => ((a.args.text as string).match(/[a-z]/g) ?? []).length,
  asks: [
    { say: "count the lowercase letters in 'Hello World'", args: { text: "Hello World" } },
    { say: "how many small (non-capital) letters does 'PLEASE fix This ASAP' contain?", args: { text: "PLEASE fix This ASAP" } },
    { say: "lower-case char count for 'TypeScript 5.7 Beta'", args: { text: "TypeScript 5.7 Beta" } },
  ],
};

const NAMES_STARTING: ReuseTask = {
  name: "names:starting_with",
  intent: "list the names of a one-per-line file that start with a given letter, ignoring case",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const l = args.letter.toLowerCase();
return t.split("\n").map((s) => s.trim()).filter((s) => s !== "" && s[0].toLowerCase() === l);`,
  expect: (a) => names(a).filter((n) => n[0]!.toLowerCase() === (a.args.letter as string).toLowerCase()),
  asks: [
    {
      say: "list the names in team/roster.txt that start with the letter M",
      args: { path: "team/roster.txt", letter: "M" },
      files: { "team/roster.txt": lines("Maria", "Tom", "mike", "Anna", "Mo") },
    },
    {
      say: "seating chart: who in events/guests.txt has a first name beginning with 's'?",
      args: { path: "events/guests.txt", letter: "s" },
      files: { "events/guests.txt": lines("Sara", "Luis", "Sven", "Ines", "Lars") },
    },
    {
      say: "which words in dict/cities.txt begin with a B",
      args: { path: "dict/cities.txt", letter: "B" },
      files: { "dict/cities.txt": lines("Berlin", "Lisbon", "Bern", "Dublin", "Bogota", "Oslo") },
    },
  ],
};

const NAMES_ENDING: ReuseTask = {
  name: "names:ending_with",
  intent: "list the names of a one-per-line file that end with a given letter, ignoring case",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const l = args.letter.toLowerCase();
return t.split("\n").map((s) => s.trim()).filter((s) => s !== "" && s[s.length - 1].toLowerCase() === l);`,
  expect: (a) => names(a).filter((n) => n[n.length - 1]!.toLowerCase() === (a.args.letter as string).toLowerCase()),
  asks: [
    {
      say: "list the names in team/interns.txt that end with the letter a",
      args: { path: "team/interns.txt", letter: "a" },
      files: { "team/interns.txt": lines("Maria", "Tom", "Anna", "Eva", "Mo") },
    },
    {
      say: "for the rhyme generator: which entries of words/animals.txt finish on an 'e'?",
      args: { path: "words/animals.txt", letter: "e" },
      files: { "words/animals.txt": lines("horse", "cat", "snake", "eel", "mouse", "dog") },
    },
    {
      say: "names in clubs/members.txt whose last letter is N",
      args: { path: "clubs/members.txt", letter: "N" },
      files: { "clubs/members.txt": lines("Nina", "Jan", "Ben", "Noor", "Karen") },
    },
  ],
};

const BUMP_MINOR: ReuseTask = {
  name: "semver:bump_minor",
  intent: "bump the minor part of a semantic version and reset the patch to 0",
  code: 'const [ma, mi] = args.version.split(".").map(Number);\nreturn ma + "." + (mi + 1) + ".0";',
  expect: (a) => bump(a.args.version as string, "minor"),
  asks: [
    { say: "bump the minor part of version 2.7.3", args: { version: "2.7.3" } },
    { say: "we're adding a feature (backwards compatible) on top of 0.9.12 - what's the next version number?", args: { version: "0.9.12" } },
    { say: "1.4.9 -> next feature release?", args: { version: "1.4.9" } },
  ],
};

const BUMP_PATCH: ReuseTask = {
  name: "semver:bump_patch",
  intent: "bump the patch part of a semantic version",
  code: 'const [ma, mi, pa] = args.version.split(".").map(Number);\nreturn ma + "." + mi + "." + (pa + 1);',
  expect: (a) => bump(a.args.version as string, "patch"),
  asks: [
    { say: "bump the patch part of version 3.1.4", args: { version: "3.1.4" } },
    { say: "hotfix on top of 0.9.12, only a bugfix, nothing new. which version do we tag?", args: { version: "0.9.12" } },
    { say: "bugfix relase after 5.0.9", args: { version: "5.0.9" } },
  ],
};

const LINK_TEXTS: ReuseTask = {
  name: "md:link_texts",
  intent: "list the visible texts of the markdown links [text](url) in a file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return [...t.matchAll(/\[([^\]]+)\]\(([^)]+)\)/g)].map((m) => m[1]);`,
  expect: (a) => linkParts(a, 1),
  asks: [
    {
      say: "list the texts of the markdown links in docs/links.md",
      args: { path: "docs/links.md" },
      files: { "docs/links.md": lines("See [the guide](https://ex.com/guide) and [FAQ](faq.md).", "Chat on [Discord](https://discord.gg/x).") },
    },
    {
      say: "what do the clickable words in README-es.md say? not where they point, the labels",
      args: { path: "README-es.md" },
      files: { "README-es.md": lines("# Hola", "Lee [la documentación](docs/es/index.md) o abre [un issue](https://github.com/o/r/issues).") },
    },
    {
      say: "anchor text for every [..](..) in blog/post.md",
      args: { path: "blog/post.md" },
      files: { "blog/post.md": lines("I used [Bun](https://bun.sh), [Biome](https://biomejs.dev)", "and [my old post](/2025/tools).") },
    },
  ],
};

const LINK_URLS: ReuseTask = {
  name: "md:link_urls",
  intent: "list the targets (URLs) of the markdown links [text](url) in a file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return [...t.matchAll(/\[([^\]]+)\]\(([^)]+)\)/g)].map((m) => m[2]);`,
  expect: (a) => linkParts(a, 2),
  asks: [
    {
      say: "list the URLs the markdown links in docs/refs.md point to",
      args: { path: "docs/refs.md" },
      files: { "docs/refs.md": lines("Based on [RFC 9110](https://www.rfc-editor.org/rfc/rfc9110) and [MDN](https://developer.mozilla.org).") },
    },
    {
      say: "I want to check for dead links in CONTRIBUTING.md: where does each one go?",
      args: { path: "CONTRIBUTING.md" },
      files: { "CONTRIBUTING.md": lines("Read the [code of conduct](CODE_OF_CONDUCT.md).", "Ask on [the forum](https://forum.ex.org/c/dev).") },
    },
    {
      say: "hrefs in notes/reading.md",
      args: { path: "notes/reading.md" },
      files: {
        "notes/reading.md": lines("- [SICP](https://mitpress.mit.edu/sicp)", "- [Crafting Interpreters](https://craftinginterpreters.com)", "- [local copy](./pdf/ci.pdf)"),
      },
    },
  ],
};

const SNAKE_TO_CAMEL: ReuseTask = {
  name: "ident:snake_to_camel",
  intent: "convert a snake_case identifier to camelCase",
  code: "return args.name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());",
  expect: (a) => (a.args.name as string).replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
  asks: [
    { say: "convert the snake_case identifier user_account_id to camelCase", args: { name: "user_account_id" } },
    { say: "the JS side wants max_retry_count spelled the javascript way, what do I call it?", args: { name: "max_retry_count" } },
    { say: "is_feature_enabled in lowerCamel", args: { name: "is_feature_enabled" } },
  ],
};

const DIGIT_SUM: ReuseTask = {
  name: "num:digit_sum",
  intent: "add up the decimal digits of a whole number",
  code: 'return String(Math.abs(args.n)).split("").reduce((s, d) => s + Number(d), 0);',
  expect: (a) =>
    String(Math.abs(a.args.n as number))
      .split("")
      .reduce((s, d) => s + Number(d), 0),
  asks: [
    { say: "add up the digits of 98765", args: { n: 98765 } },
    { say: "checksum-ish thing for a puzzle: 4 + 0 + 7 + ... for the number 40721, what total?", args: { n: 40721 } },
    { say: "digit sum of 1234567", args: { n: 1234567 } },
  ],
};

const ZERO_PAD: ReuseTask = {
  name: "num:zero_pad",
  intent: "left-pad an integer with zeros to a fixed width",
  code: 'return String(args.n).padStart(args.width, "0");',
  expect: (a) => String(a.args.n).padStart(a.args.width as number, "0"),
  asks: [
    { say: "left-pad 42 with zeros to width 5", args: { n: 42, width: 5 } },
    { say: "invoice numbers must be 8 digits long with leading 0s; what is invoice 1337 then?", args: { n: 1337, width: 8 } },
    { say: "frame 7 -> 3-digit filename number (like 007)", args: { n: 7, width: 3 } },
  ],
};

const ACTIVE_EMAILS: ReuseTask = {
  name: "json:active_user_emails",
  intent: "list the email of each user marked active in a JSON array of users",
  code: String.raw`const users = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return users.filter((u) => u.active === true).map((u) => u.email);`,
  expect: (a) => (JSON.parse(input(a)) as Array<{ email: string; active: boolean }>).filter((u) => u.active).map((u) => u.email),
  asks: [
    {
      say: "list the emails of the active users in data/users.json",
      args: { path: "data/users.json" },
      files: {
        "data/users.json": JSON.stringify([
          { email: "ana@ex.com", active: true },
          { email: "bo@ex.com", active: false },
          { email: "cy@ex.com", active: true },
        ]),
      },
    },
    {
      say: "newsletter time: who in crm/accounts.json is still enabled? I only need their addresses",
      args: { path: "crm/accounts.json" },
      files: {
        "crm/accounts.json": JSON.stringify([
          { email: "x@shop.io", active: false },
          { email: "y@shop.io", active: true },
        ]),
      },
    },
    {
      say: "mailing list from backups/members.json (active==true only)",
      args: { path: "backups/members.json" },
      files: {
        "backups/members.json": JSON.stringify([
          { email: "m1@club.org", active: true },
          { email: "m2@club.org", active: true },
          { email: "m3@club.org", active: false },
          { email: "m4@club.org", active: true },
        ]),
      },
    },
  ],
};

export const BLIND_7_TASKS: readonly ReuseTask[] = [
  LONGEST_LINE,
  PERCENT_ENCODE,
  MEDIAN_NUMBERS,
  TSV_FIRST_COLUMN,
  COUNT_UPPERCASE,
  SNAKE_TO_CAMEL,
  NAMES_STARTING,
  BUMP_MINOR,
  LINK_TEXTS,
  DIGIT_SUM,
  SHORTEST_LINE,
  PERCENT_DECODE,
  RANGE_NUMBERS,
  TSV_LAST_COLUMN,
  COUNT_LOWERCASE,
  ZERO_PAD,
  NAMES_ENDING,
  BUMP_PATCH,
  LINK_URLS,
  ACTIVE_EMAILS,
];
