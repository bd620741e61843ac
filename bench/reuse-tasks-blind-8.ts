// The eighth blind reuse stream (bench/reuse.ts --tasks blind8): written blind on 2026-12-07 by a
// helper that saw only the format of bench/reuse-tasks.ts (its types, helpers and one task), not
// pml, its ranking or the other streams' asks; its ideas differ from blind7's, written in the same
// session. Nothing is tuned on it; its requests are never printed. 20 tasks, 16 of them in 8
// near-twin pairs whose inputs have the same names and kinds, so that a careless reuse runs and
// answers wrongly: the distinct values vs the empty cells of a CSV column, a sentence's word
// order reversed vs each word's letters reversed, the earliest vs the latest date of a file, the
// keys holding null vs an empty string in a JSON file, the gcd vs the lcm of two numbers, a prefix
// vs a suffix on every line, the odd vs the even lines of a file, the domains vs the user names of
// a list of email addresses. Several repeats use none of the intent's content words, some use
// them; they are worded by different users on different days (terse, chatty, a file name only,
// jargon, a typo). Everything runs offline on pml's built-in filesystem tools.

import { type Ask, csv, input, lines, type ReuseTask } from "./reuse-tasks.ts";

const nonBlank = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "");
const column = (a: Ask) => {
  const [head, ...rows] = nonBlank(a).map((l) => l.split(","));
  const i = head!.indexOf(a.args.column as string);
  return rows.map((r) => r[i]!);
};
const sortedDates = (a: Ask) => nonBlank(a).sort();
const jsonKeysWhere = (a: Ask, test: (v: unknown) => boolean) =>
  Object.entries(JSON.parse(input(a)) as Record<string, unknown>)
    .filter(([, v]) => test(v))
    .map(([k]) => k);
const gcd = (x: number, y: number): number => (y === 0 ? Math.abs(x) : gcd(y, x % y));
const everyLine = (a: Ask, f: (l: string) => string) => (a.args.text as string).split("\n").map(f).join("\n");
const emailPart = (a: Ask, i: 0 | 1) => nonBlank(a).map((l) => l.trim().split("@")[i]!);

const DISTINCT_VALUES: ReuseTask = {
  name: "csv:distinct_values",
  intent: "count the distinct values of one column of a CSV file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.split("\n").filter((l) => l.trim() !== "").map((l) => l.split(","));
const i = head.indexOf(args.column);
return new Set(rows.map((r) => r[i])).size;`,
  expect: (a) => new Set(column(a)).size,
  asks: [
    {
      say: "count the distinct values of the country column in sales/q3.csv",
      args: { path: "sales/q3.csv", column: "country" },
      files: {
        "sales/q3.csv": csv("id,country,amount", [
          [1, "PT", 20],
          [2, "FR", 35],
          [3, "PT", 12],
          [4, "DE", 50],
          [5, "PT", 8],
        ]),
      },
    },
    {
      say: "in hr/people.csv, how many different teams are there? (the `team` field)",
      args: { path: "hr/people.csv", column: "team" },
      files: {
        "hr/people.csv": csv("name,team", [
          ["Ana", "web"],
          ["Bo", "infra"],
          ["Cy", "web"],
          ["Dee", "data"],
          ["Eli", "infra"],
          ["Fay", "mobile"],
        ]),
      },
    },
    {
      say: "cardinality of browser in logs/visits.csv",
      args: { path: "logs/visits.csv", column: "browser" },
      files: {
        "logs/visits.csv": csv("ts,browser", [
          ["09:00", "firefox"],
          ["09:01", "chrome"],
          ["09:02", "chrome"],
          ["09:05", "chrome"],
          ["09:07", "safari"],
        ]),
      },
    },
  ],
};

const EMPTY_CELLS: ReuseTask = {
  name: "csv:empty_cells_in_column",
  intent: "count the rows of a CSV file whose cell in one column is empty",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.split("\n").filter((l) => l.trim() !== "").map((l) => l.split(","));
const i = head.indexOf(args.column);
return rows.filter((r) => (r[i] ?? "").trim() === "").length;`,
  expect: (a) => column(a).filter((v) => v.trim() === "").length,
  asks: [
    {
      say: "count the rows whose phone cell is empty in crm/export.csv",
      args: { path: "crm/export.csv", column: "phone" },
      files: { "crm/export.csv": lines("name,phone,city", "Ana,912000111,Porto", "Bo,,Braga", "Cy,,Faro", "Dee,913555222,Lisboa") },
    },
    {
      say: "in hr/staff.csv, how many people have no manager filled in? (`manager`)",
      args: { path: "hr/staff.csv", column: "manager" },
      files: { "hr/staff.csv": lines("name,team,manager", "Eli,web,Ana", "Fay,infra,", "Gus,web,Ana", "Hal,data,", "Ivy,data,") },
    },
    {
      say: "missing values in the `browser` field, logs/sessions.csv",
      args: { path: "logs/sessions.csv", column: "browser" },
      files: { "logs/sessions.csv": lines("ts,browser", "10:00,firefox", "10:01,", "10:02,chrome") },
    },
  ],
};

const REVERSE_WORD_ORDER: ReuseTask = {
  name: "text:reverse_word_order",
  intent: "reverse the order of the words in a sentence",
  code: 'return args.text.split(" ").reverse().join(" ");',
  expect: (a) => (a.args.text as string).split(" ").reverse().join(" "),
  asks: [
    { say: "reverse the order of the words in 'the quick brown fox'", args: { text: "the quick brown fox" } },
    { say: "say 'one two three four five' back to front, whole tokens stay intact", args: { text: "one two three four five" } },
    { say: "yoda-fy: 'you must learn patience'", args: { text: "you must learn patience" } },
  ],
};

const REVERSE_EACH_WORD: ReuseTask = {
  name: "text:reverse_each_word",
  intent: "reverse the letters of each word in a sentence, keeping the words in place",
  code: 'return args.text.split(" ").map((w) => w.split("").reverse().join("")).join(" ");',
  expect: (a) =>
    (a.args.text as string)
      .split(" ")
      .map((w) => w.split("").reverse().join(""))
      .join(" "),
  asks: [
    { say: "reverse the letters of each word in 'hello big world', words keep their place", args: { text: "hello big world" } },
    { say: "mirror every token of 'one two three four five' on its own, don't move them around", args: { text: "one two three four five" } },
    { say: "spell each word backwards: 'stressed desserts are good'", args: { text: "stressed desserts are good" } },
  ],
};

const EARLIEST_DATE: ReuseTask = {
  name: "dates:earliest_date",
  intent: "find the earliest of the ISO dates listed one per line in a file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").sort()[0];`,
  expect: (a) => sortedDates(a)[0],
  asks: [
    {
      say: "find the earliest of the ISO dates in releases/dates.txt",
      args: { path: "releases/dates.txt" },
      files: { "releases/dates.txt": lines("2025-11-03", "2024-06-30", "2026-01-15", "2025-02-28") },
    },
    {
      say: "hr/hires.txt has one start day per row; who joined first, I mean which day?",
      args: { path: "hr/hires.txt" },
      files: { "hr/hires.txt": lines("2021-09-01", "2019-03-18", "2023-01-09") },
    },
    {
      say: "oldest entry in backups/snapshots.txt",
      args: { path: "backups/snapshots.txt" },
      files: { "backups/snapshots.txt": lines("2026-12-01", "2026-11-24", "2026-12-06", "2026-11-30") },
    },
  ],
};

const LATEST_DATE: ReuseTask = {
  name: "dates:latest_date",
  intent: "find the latest of the ISO dates listed one per line in a file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ds = t.split("\n").filter((l) => l.trim() !== "").sort();
return ds[ds.length - 1];`,
  expect: (a) => sortedDates(a).at(-1),
  asks: [
    {
      say: "find the latest of the ISO dates in audits/runs.txt",
      args: { path: "audits/runs.txt" },
      files: { "audits/runs.txt": lines("2026-03-02", "2026-07-19", "2025-12-31") },
    },
    {
      say: "when did we last rotate keys? each rotation is a day on its own row in sec/rotations.txt",
      args: { path: "sec/rotations.txt" },
      files: { "sec/rotations.txt": lines("2026-01-10", "2026-04-11", "2026-10-09", "2026-07-12") },
    },
    {
      say: "most recent day in backups/weekly.txt?",
      args: { path: "backups/weekly.txt" },
      files: { "backups/weekly.txt": lines("2026-11-15", "2026-11-29", "2026-11-22", "2026-11-08") },
    },
  ],
};

const NULL_KEYS: ReuseTask = {
  name: "json:null_keys",
  intent: "list the keys of a JSON object file whose value is null",
  code: String.raw`const o = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return Object.keys(o).filter((k) => o[k] === null);`,
  expect: (a) => jsonKeysWhere(a, (v) => v === null),
  asks: [
    {
      say: "list the keys whose value is null in config/profile.json",
      args: { path: "config/profile.json" },
      files: { "config/profile.json": JSON.stringify({ name: "Ana", phone: null, bio: "", avatar: null, city: "Porto" }) },
    },
    {
      say: "which settings in app/flags.json were never filled in - they literally say null",
      args: { path: "app/flags.json" },
      files: { "app/flags.json": JSON.stringify({ darkMode: true, locale: null, beta: "", timezone: null, theme: "" }) },
    },
    {
      say: "props set to null, fixtures/order.json",
      args: { path: "fixtures/order.json" },
      files: { "fixtures/order.json": JSON.stringify({ id: 7, coupon: null, note: "", giftWrap: false, shippedAt: null }) },
    },
  ],
};

const EMPTY_STRING_KEYS: ReuseTask = {
  name: "json:empty_string_keys",
  intent: "list the keys of a JSON object file whose value is an empty string",
  code: String.raw`const o = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return Object.keys(o).filter((k) => o[k] === "");`,
  expect: (a) => jsonKeysWhere(a, (v) => v === ""),
  asks: [
    {
      say: "list the keys whose value is an empty string in config/account.json",
      args: { path: "config/account.json" },
      files: { "config/account.json": JSON.stringify({ user: "bo", email: "", token: null, nickname: "", plan: "pro" }) },
    },
    {
      say: 'i18n/pt.json: which entries have "" as their text? the translators skipped them',
      args: { path: "i18n/pt.json" },
      files: { "i18n/pt.json": JSON.stringify({ hello: "olá", bye: "", save: "guardar", cancel: "", help: null }) },
    },
    {
      say: 'blank fields in forms/signup.json ("" only, not null)',
      args: { path: "forms/signup.json" },
      files: { "forms/signup.json": JSON.stringify({ first: "Cy", last: "", company: null, vat: "", country: "BE" }) },
    },
  ],
};

const GCD: ReuseTask = {
  name: "num:compute_gcd",
  intent: "compute the greatest common divisor of two integers",
  code: "let x = Math.abs(args.a), y = Math.abs(args.b);\nwhile (y) [x, y] = [y, x % y];\nreturn x;",
  expect: (a) => gcd(a.args.a as number, a.args.b as number),
  asks: [
    { say: "compute the greatest common divisor of 84 and 36", args: { a: 84, b: 36 } },
    { say: "I'm reducing the fraction 462/1071, what's the biggest number both divide by?", args: { a: 462, b: 1071 } },
    { say: "hcf(120, 75)?", args: { a: 120, b: 75 } },
  ],
};

const LCM: ReuseTask = {
  name: "num:compute_lcm",
  intent: "compute the least common multiple of two integers",
  code: "let x = Math.abs(args.a), y = Math.abs(args.b);\nwhile (y) [x, y] = [y, x % y];\nreturn Math.abs(args.a * args.b) / x;",
  expect: (a) => Math.abs((a.args.a as number) * (a.args.b as number)) / gcd(a.args.a as number, a.args.b as number),
  asks: [
    { say: "compute the least common multiple of 4 and 6", args: { a: 4, b: 6 } },
    { say: "one cron job runs every 12 minutes, another every 18; after how many minutes do they first coincide again?", args: { a: 12, b: 18 } },
    { say: "lowest commn multiple, 21 and 35", args: { a: 21, b: 35 } },
  ],
};

const PREFIX_LINES: ReuseTask = {
  name: "text:prefix_lines",
  intent: "put a marker string at the start of every line of a text",
  code: 'return args.text.split("\\n").map((l) => args.mark + l).join("\\n");',
  expect: (a) => everyLine(a, (l) => (a.args.mark as string) + l),
  asks: [
    { say: "put '> ' at the start of every line of this text", args: { text: "I disagree.\nHere is why.", mark: "> " } },
    { say: "comment these out with '# ' in front:\nrm -rf build\nnpm ci", args: { text: "rm -rf build\nnpm ci", mark: "# " } },
    { say: "bullet each row with '- ': milk / eggs / bread", args: { text: "milk\neggs\nbread", mark: "- " } },
  ],
};

const SUFFIX_LINES: ReuseTask = {
  name: "text:suffix_lines",
  intent: "put a marker string at the end of every line of a text",
  code: 'return args.text.split("\\n").map((l) => l + args.mark).join("\\n");',
  expect: (a) => everyLine(a, (l) => l + (a.args.mark as string)),
  asks: [
    { say: "put ';' at the end of every line of this text", args: { text: "let a = 1\nlet b = 2", mark: ";" } },
    { say: "shell continuation: tack ' \\' onto each row of\ndocker run\n-p 80:80", args: { text: "docker run\n-p 80:80", mark: " \\" } },
    { say: "append ',' after each of: red / green / blue", args: { text: "red\ngreen\nblue", mark: "," } },
  ],
};

const ODD_LINES: ReuseTask = {
  name: "text:odd_lines",
  intent: "keep the odd-numbered lines (1st, 3rd, 5th...) of a text file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").filter((_, i) => i % 2 === 0);`,
  expect: (a) => nonBlank(a).filter((_, i) => i % 2 === 0),
  asks: [
    {
      say: "keep the odd-numbered lines of pairs/qa.txt",
      args: { path: "pairs/qa.txt" },
      files: { "pairs/qa.txt": lines("Q: what is pml?", "A: a memory layer", "Q: does it run offline?", "A: yes") },
    },
    {
      say: "flashcards/es.txt alternates word, translation, word, translation... give me only the words (1st, 3rd, ...)",
      args: { path: "flashcards/es.txt" },
      files: { "flashcards/es.txt": lines("gato", "cat", "perro", "dog", "casa", "house") },
    },
    {
      say: "rows 1,3,5.. of export/pairs.txt",
      args: { path: "export/pairs.txt" },
      files: { "export/pairs.txt": lines("k1", "v1", "k2", "v2", "k3") },
    },
  ],
};

const EVEN_LINES: ReuseTask = {
  name: "text:even_lines",
  intent: "keep the even-numbered lines (2nd, 4th, 6th...) of a text file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").filter((_, i) => i % 2 === 1);`,
  expect: (a) => nonBlank(a).filter((_, i) => i % 2 === 1),
  asks: [
    {
      say: "keep the even-numbered lines of pairs/chat.txt",
      args: { path: "pairs/chat.txt" },
      files: { "pairs/chat.txt": lines("ana: hi", "bo: hey", "ana: lunch?", "bo: sure") },
    },
    {
      say: "flashcards/de.txt goes word, translation, word, translation; I just want the translations",
      args: { path: "flashcards/de.txt" },
      files: { "flashcards/de.txt": lines("Hund", "dog", "Katze", "cat", "Haus", "house") },
    },
    {
      say: "every second row of export/kv.txt, starting from row 2",
      args: { path: "export/kv.txt" },
      files: { "export/kv.txt": lines("host", "db.local", "port", "5432", "user") },
    },
  ],
};

const EMAIL_DOMAINS: ReuseTask = {
  name: "email:list_domains",
  intent: "list the domain part of each email address in a file, one address per line",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").map((l) => l.trim().split("@")[1]);`,
  expect: (a) => emailPart(a, 1),
  asks: [
    {
      say: "list the domain part of each email address in lists/beta.txt",
      args: { path: "lists/beta.txt" },
      files: { "lists/beta.txt": lines("ana@acme.io", "bo@gmail.com", "cy@uni.edu") },
    },
    {
      say: "which companies are these people from? go by what's after the @ in crm/leads.txt",
      args: { path: "crm/leads.txt" },
      files: { "crm/leads.txt": lines("j.doe@initech.com", "mary@globex.net", "sam@initech.com", "li@hooli.xyz") },
    },
    {
      say: "hostnames of the addrs in ops/oncall.txt",
      args: { path: "ops/oncall.txt" },
      files: { "ops/oncall.txt": lines("pager@ops.example.org", "night@sre.example.org") },
    },
  ],
};

const EMAIL_USERS: ReuseTask = {
  name: "email:local_parts",
  intent: "list the user name part (before the @) of each email address in a file, one address per line",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").map((l) => l.trim().split("@")[0]);`,
  expect: (a) => emailPart(a, 0),
  asks: [
    {
      say: "list the user name part, before the @, of each email address in lists/alpha.txt",
      args: { path: "lists/alpha.txt" },
      files: { "lists/alpha.txt": lines("dee@acme.io", "eli@gmail.com", "fay@uni.edu") },
    },
    {
      say: "turning crm/contacts.txt into login handles: whatever comes ahead of the @ sign",
      args: { path: "crm/contacts.txt" },
      files: { "crm/contacts.txt": lines("k.lee@initech.com", "omar@globex.net", "zoe.w@hooli.xyz") },
    },
    {
      say: "local-part of every addr, ops/escalation.txt",
      args: { path: "ops/escalation.txt" },
      files: { "ops/escalation.txt": lines("lead@ops.example.org", "cto@example.org") },
    },
  ],
};

const MINUTES_AS_CLOCK: ReuseTask = {
  name: "time:minutes_as_clock",
  intent: "write a number of minutes as hours and minutes, H:MM",
  code: 'const h = Math.floor(args.minutes / 60);\nconst m = args.minutes % 60;\nreturn h + ":" + String(m).padStart(2, "0");',
  expect: (a) => {
    const n = a.args.minutes as number;
    return `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}`;
  },
  asks: [
    { say: "write 135 minutes as hours and minutes (H:MM)", args: { minutes: 135 } },
    { say: "the film runs 97 min, how would that look on a clock-style duration?", args: { minutes: 97 } },
    { say: "425 mins -> h:mm pls", args: { minutes: 425 } },
  ],
};

const PALINDROME: ReuseTask = {
  name: "text:is_palindrome",
  intent: "check whether a text reads the same backwards, ignoring case, spaces and punctuation",
  code: 'const s = args.text.toLowerCase().replace(/[^a-z0-9]/g, "");\nreturn s === s.split("").reverse().join("");',
  expect: (a) => {
    const s = (a.args.text as string).toLowerCase().replace(/[^a-z0-9]/g, "");
    return s === s.split("").reverse().join("");
  },
  asks: [
    { say: "check whether 'A man, a plan, a canal: Panama' is a palindrome", args: { text: "A man, a plan, a canal: Panama" } },
    { say: "does 'Was it a car or a cat I saw?' read the same from either end?", args: { text: "Was it a car or a cat I saw?" } },
    { say: "palindrom? 'release notes'", args: { text: "release notes" } },
  ],
};

const INITIALS: ReuseTask = {
  name: "text:make_initials",
  intent: "make the uppercase initials of a full name",
  code: 'return args.name.split(/\\s+/).filter((w) => w).map((w) => w[0].toUpperCase()).join("");',
  expect: (a) =>
    (a.args.name as string)
      .split(/\s+/)
      .filter((w) => w)
      .map((w) => w[0]!.toUpperCase())
      .join(""),
  asks: [
    { say: "make the initials of Ada King Lovelace", args: { name: "Ada King Lovelace" } },
    { say: "for the avatar bubble I need the letters for 'grace brewster hopper'", args: { name: "grace brewster hopper" } },
    { say: "monogram: Alan Mathison Turing", args: { name: "Alan Mathison Turing" } },
  ],
};

const LEAP_YEARS: ReuseTask = {
  name: "dates:leap_years_between",
  intent: "list the leap years between two years, both included",
  code: "const out = [];\nfor (let y = args.from; y <= args.to; y++) if ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0) out.push(y);\nreturn out;",
  expect: (a) => {
    const out: number[] = [];
    for (let y = a.args.from as number; y <= (a.args.to as number); y++) if ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0) out.push(y);
    return out;
  },
  asks: [
    { say: "list the leap years between 2010 and 2030", args: { from: 2010, to: 2030 } },
    { say: "which years from 1890 to 1910 had a February 29th?", args: { from: 1890, to: 1910 } },
    { say: "366-day years, 1996..2004", args: { from: 1996, to: 2004 } },
  ],
};

export const BLIND_8_TASKS: readonly ReuseTask[] = [
  DISTINCT_VALUES,
  REVERSE_WORD_ORDER,
  EARLIEST_DATE,
  NULL_KEYS,
  GCD,
  MINUTES_AS_CLOCK,
  PREFIX_LINES,
  ODD_LINES,
  EMAIL_DOMAINS,
  PALINDROME,
  EMPTY_CELLS,
  REVERSE_EACH_WORD,
  LATEST_DATE,
  EMPTY_STRING_KEYS,
  LCM,
  INITIALS,
  SUFFIX_LINES,
  EVEN_LINES,
  EMAIL_USERS,
  LEAP_YEARS,
];
