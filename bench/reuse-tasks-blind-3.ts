// A fifth task stream for bench/reuse.ts (`--tasks blind3`), written blind on 2026-12-06 by a helper
// that saw the rules of the streams (bench/reuse-tasks.ts's types and one example task) but not pml's
// ranking, its other streams' requests, or the changes being judged (it judges the label change,
// issue 46.1/46.2). Nothing is tuned on it: bench/reuse.ts never prints its requests (no misses, no
// --records, no --verbose).
// Near-twins are there so that a careless match gives a wrong answer, not a miss: camelCase→snake_case
// against snake_case→camelCase (same `name` input), the median against the spread of one CSV column
// (same `path`/`column`), three questions on one date (weekday, day of the year, ISO week), and
// kilometres→miles against miles→kilometres (same `value`).
// The stream's format has no task whose right answer is a plain tool (the agent calls capabilities or
// writes code), so it has none of the generic first requests a plain tool would answer.
// The code strings are raw so that their regular expressions read as they run in the sandbox.
import { type Ask, csv, csvColumn, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const str = (a: Ask, k: string) => a.args[k] as string;
const num = (a: Ask, k: string) => a.args[k] as number;
const DAY_MS = 86400000;
const utc = (d: string) => new Date(`${d}T00:00:00Z`);

const CAMEL_TO_SNAKE: ReuseTask = {
  name: "text:camel_to_snake",
  intent: "convert a camelCase identifier to snake_case",
  code: String.raw`return String(args.name).replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();`,
  expect: (a) => [...str(a, "name")].map((c, i) => (i > 0 && c >= "A" && c <= "Z" ? `_${c.toLowerCase()}` : c.toLowerCase())).join(""),
  asks: [
    { say: "convert userId from camelCase to snake_case", args: { name: "userId" } },
    { say: "I need the python-style spelling of createdAtDate for the db column", args: { name: "createdAtDate" } },
    { say: "rename parseHttpResponse the way our Python linter wants it (all lowercase, underscores between the parts)", args: { name: "parseHttpResponse" } },
    { say: "maxRetryCount -> what would that be as a postgres column name?", args: { name: "maxRetryCount" } },
  ],
};

const SNAKE_TO_CAMEL: ReuseTask = {
  name: "text:snake_to_camel",
  intent: "convert a snake_case identifier to camelCase",
  code: String.raw`return String(args.name).replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());`,
  expect: (a) =>
    str(a, "name")
      .split("_")
      .map((p, i) => (i === 0 ? p : p.charAt(0).toUpperCase() + p.slice(1)))
      .join(""),
  asks: [
    { say: "turn user_id into camelCase", args: { name: "user_id" } },
    { say: "what's created_at_date as a JavaScript property name?", args: { name: "created_at_date" } },
    { say: "the API sends max_retry_count; how do I spell it the TypeScript way, humps and no underscores?", args: { name: "max_retry_count" } },
  ],
};

const Q1 = "sales/q1.csv";
const TEMPS = "lab/temps.csv";
const LATENCY = "perf/latency.csv";
const SALARIES = "hr/salaries.csv";
const CSVS = {
  [Q1]: csv("region,units,revenue", [
    ["north", 12, 340.5],
    ["south", 7, 120],
    ["east", 21, 610.25],
    ["west", 9, 200],
    ["central", 15, 415],
  ]),
  [TEMPS]: csv("day,low,high", [
    [1, -2, 6],
    [2, 0, 9],
    [3, 3, 11],
    [4, -5, 2],
  ]),
  [LATENCY]: csv("endpoint,ms", [
    ["/login", 120],
    ["/search", 85],
    ["/export", 240],
    ["/feed", 95],
    ["/profile", 110],
    ["/report", 300],
    ["/ping", 70],
  ]),
  [SALARIES]: csv("name,salary", [
    ["ana", 52000],
    ["bo", 61000],
    ["chen", 58000],
    ["dara", 75000],
  ]),
};
const onCsv = (say: string, path: keyof typeof CSVS, column: string): Ask => ({ say, args: { path, column }, files: { [path]: CSVS[path] } });
const READ_COLUMN = String.raw`const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\n").map((l) => l.split(","));
const i = head.indexOf(args.column);
const v = rows.map((r) => Number(r[i]));`;

const COLUMN_MEDIAN: ReuseTask = {
  name: "csv:column_median",
  intent: "find the median of a numeric column in a CSV file",
  code: `${READ_COLUMN}
v.sort((a, b) => a - b);
const m = Math.floor(v.length / 2);
return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;`,
  expect: (a) => {
    const v = csvColumn(a).sort((x, y) => x - y);
    const lo = v[Math.ceil(v.length / 2) - 1]!;
    const hi = v[Math.floor(v.length / 2)]!;
    return (lo + hi) / 2;
  },
  asks: [
    onCsv("what's the median of the units column in sales/q1.csv?", Q1, "units"),
    onCsv("middle value of ms in perf/latency.csv, the typical request time and not the average", LATENCY, "ms"),
    onCsv("hr/salaries.csv: what salary sits right in the middle when you line them all up?", SALARIES, "salary"),
    onCsv("lab/temps.csv, column high: give me the 50th percentile", TEMPS, "high"),
  ],
};

const COLUMN_RANGE: ReuseTask = {
  name: "csv:column_range",
  intent: "compute the spread (largest minus smallest value) of a numeric column in a CSV file",
  code: `${READ_COLUMN}
return Math.max(...v) - Math.min(...v);`,
  expect: (a) => {
    const v = csvColumn(a);
    return round2(Math.max(...v) - Math.min(...v));
  },
  asks: [
    onCsv("how far apart are the biggest and smallest numbers in the ms column of perf/latency.csv?", LATENCY, "ms"),
    onCsv("difference between the best and the worst revenue in sales/q1.csv", Q1, "revenue"),
    onCsv("lab/temps.csv: how many degrees separate the coldest and the warmest low?", TEMPS, "low"),
    onCsv("gap between the top and the bottom salary in hr/salaries.csv", SALARIES, "salary"),
  ],
};

const WEEKDAY: ReuseTask = {
  name: "date:day_of_week",
  intent: "tell which day of the week a calendar date falls on",
  code: `const names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
return names[new Date(args.date + "T00:00:00Z").getUTCDay()];`,
  expect: (a) => ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][utc(str(a, "date")).getUTCDay()],
  asks: [
    { say: "what day of the week is 2026-03-14?", args: { date: "2026-03-14" } },
    { say: "was 2024-12-30 a Monday? tell me the day name", args: { date: "2024-12-30" } },
    { say: "my flight leaves on 2021-01-03, which weekday is that", args: { date: "2021-01-03" } },
    { say: "2026-07-04: weekend or not? just say the day", args: { date: "2026-07-04" } },
  ],
};

const DAY_OF_YEAR: ReuseTask = {
  name: "date:day_of_year",
  intent: "give the ordinal day number of a date within its year (January 1st is 1)",
  code: `const d = new Date(args.date + "T00:00:00Z");
return Math.round((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1;`,
  expect: (a) => {
    const d = utc(str(a, "date"));
    const months = [31, d.getUTCFullYear() % 4 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    return months.slice(0, d.getUTCMonth()).reduce((n, m) => n + m, 0) + d.getUTCDate();
  },
  asks: [
    { say: "which day of the year is 2026-07-04, counting Jan 1 as day 1?", args: { date: "2026-07-04" } },
    { say: "how many days into its year is 2026-03-14?", args: { date: "2026-03-14" } },
    { say: "2024-12-30 is the Nth day of 2024, what's N", args: { date: "2024-12-30" } },
  ],
};

const ISO_WEEK: ReuseTask = {
  name: "date:iso_week",
  intent: "give the ISO-8601 week number of a date",
  code: `const t = new Date(args.date + "T00:00:00Z");
t.setUTCDate(t.getUTCDate() + 3 - ((t.getUTCDay() + 6) % 7));
return Math.floor((t.getTime() - Date.UTC(t.getUTCFullYear(), 0, 1)) / 86400000 / 7) + 1;`,
  // Written out: the week of the Thursday of the date's (Monday-start) week.
  expect: (a) =>
    ({ "2026-03-14": 11, "2021-01-03": 53, "2024-12-30": 1, "2026-07-04": 27 })[str(a, "date")] ??
    (() => {
      throw new Error(`no week written for ${str(a, "date")}`);
    })(),
  asks: [
    { say: "what ISO week number does 2026-03-14 fall in?", args: { date: "2026-03-14" } },
    { say: "our sprints are named after the calendar week (KW); which one is 2021-01-03 in?", args: { date: "2021-01-03" } },
    { say: "week-of-year per ISO 8601 for 2024-12-30, please", args: { date: "2024-12-30" } },
    { say: "payroll is keyed by the Monday-start week count of the year; what is it for 2026-07-04?", args: { date: "2026-07-04" } },
  ],
};

const MILE_KM = 1.609344;

const KM_TO_MILES: ReuseTask = {
  name: "unit:km_to_miles",
  intent: "convert a distance in kilometres to miles, rounded to 2 decimals",
  code: "return Math.round((args.value / 1.609344) * 100) / 100;",
  expect: (a) => round2(num(a, "value") / MILE_KM),
  asks: [
    { say: "convert 42.195 km to miles", args: { value: 42.195 } },
    { say: "I ran a 10k this morning, how far is that for my American friend?", args: { value: 10 } },
    { say: "the road sign says Lyon 465, and that's kilometres; what is it in mi?", args: { value: 465 } },
    { say: "5 kilometre race, how long in imperial?", args: { value: 5 } },
  ],
};

const MILES_TO_KM: ReuseTask = {
  name: "unit:miles_to_km",
  intent: "convert a distance in miles to kilometres, rounded to 2 decimals",
  code: "return Math.round(args.value * 1.609344 * 100) / 100;",
  expect: (a) => round2(num(a, "value") * MILE_KM),
  asks: [
    { say: "convert 26.2 miles to kilometers", args: { value: 26.2 } },
    { say: "the trail is 10 mi long; how many km is that", args: { value: 10 } },
    { say: "the rental car's odometer shows 465 and it counts in miles; metric please", args: { value: 465 } },
  ],
};

const SLUGIFY: ReuseTask = {
  name: "text:make_slug",
  intent: "turn a title into a URL slug: lowercase words joined by hyphens, punctuation dropped",
  code: String.raw`return String(args.title).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");`,
  expect: (a) =>
    str(a, "title")
      .toLowerCase()
      .split(/[^a-z0-9]/)
      .filter(Boolean)
      .join("-"),
  asks: [
    { say: "make a slug out of 'Hello, World! My First Post'", args: { title: "Hello, World! My First Post" } },
    { say: "the blog post 'Top 10 Tips for Faster CI Builds' needs a permalink, lowercase with dashes", args: { title: "Top 10 Tips for Faster CI Builds" } },
    { say: "what would the web address part be for the page called 'FAQ & Contact Info'?", args: { title: "FAQ & Contact Info" } },
  ],
};

const TITLE_CASE: ReuseTask = {
  name: "text:title_case",
  intent: "capitalize the first letter of every word in a phrase",
  code: `return String(args.text).split(" ").map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w)).join(" ");`,
  expect: (a) =>
    str(a, "text")
      .split(" ")
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(" "),
  asks: [
    { say: "capitalize each word: 'the quick brown fox'", args: { text: "the quick brown fox" } },
    { say: "make 'release notes for version two' look like a heading, big first letter on every word", args: { text: "release notes for version two" } },
    { say: "my book is called 'a tale of two cities', upper the initials of it", args: { text: "a tale of two cities" } },
  ],
};

const MOST_COMMON_WORD: ReuseTask = {
  name: "text:most_common_word",
  intent: "find the most frequent word in a text file (any case; a tie goes to the word seen first)",
  code: String.raw`const words = (await mcp.filesystem.read_file({ path: args.path })).toLowerCase().match(/[a-z']+/g) ?? [];
const n = new Map();
for (const w of words) n.set(w, (n.get(w) ?? 0) + 1);
let best = null;
for (const [w, c] of n) if (best === null || c > n.get(best)) best = w;
return best;`,
  expect: (a) => {
    const words =
      input(a)
        .toLowerCase()
        .match(/[a-z']+/g) ?? [];
    const count = (w: string) => words.filter((x) => x === w).length;
    return words.reduce((best, w) => (count(w) > count(best) ? w : best), words[0]!);
  },
  asks: [
    {
      say: "what's the most frequent word in docs/review.txt?",
      args: { path: "docs/review.txt" },
      files: { "docs/review.txt": lines("bug in login", "login page slow", "bug again in login", "fix login bug") },
    },
    {
      say: "logs/errors.txt, which word shows up the most?",
      args: { path: "logs/errors.txt" },
      files: { "logs/errors.txt": lines("timeout calling db", "db timeout again", "retry ok", "timeout") },
    },
    {
      say: "skim feedback/survey.txt and tell me the one word people keep repeating",
      args: { path: "feedback/survey.txt" },
      files: { "feedback/survey.txt": lines("Great app, great support.", "Slow sync.", "GREAT price, slow export.") },
    },
  ],
};

const PERCENT_CHANGE: ReuseTask = {
  name: "num:percent_change",
  intent: "compute the percentage change from an old value to a new one, rounded to 2 decimals",
  code: "return Math.round(((args.to - args.from) / args.from) * 10000) / 100;",
  expect: (a) => round2(((num(a, "to") - num(a, "from")) / num(a, "from")) * 100),
  asks: [
    { say: "percentage change from 80 to 92?", args: { from: 80, to: 92 } },
    { say: "site traffic went from 1250 to 1100 visits, by what percent did it move?", args: { from: 1250, to: 1100 } },
    { say: "our cloud bill was 340 last month and 391 now, how much is that up in %", args: { from: 340, to: 391 } },
    { say: "the stock dropped 57.5 -> 46; what's that as a % of the old price?", args: { from: 57.5, to: 46 } },
  ],
};

const COMPOUND_INTEREST: ReuseTask = {
  name: "num:compound_interest",
  intent: "final balance of a principal compounded yearly at a percent rate over some years, rounded to cents",
  code: "return Math.round(args.principal * Math.pow(1 + args.rate / 100, args.years) * 100) / 100;",
  expect: (a) => round2(num(a, "principal") * (1 + num(a, "rate") / 100) ** num(a, "years")),
  asks: [
    { say: "final balance for 1000 at 5% compounded yearly for 10 years", args: { principal: 1000, rate: 5, years: 10 } },
    { say: "if I leave 2500 in a savings account paying 3.2% a year for 4 years, what will I end up with?", args: { principal: 2500, rate: 3.2, years: 4 } },
    { say: "10k invested, 7 percent annual growth, 20 years: ending amount?", args: { principal: 10000, rate: 7, years: 20 } },
  ],
};

const ROMAN: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };

const ROMAN_TO_INT: ReuseTask = {
  name: "num:roman_to_int",
  intent: "convert a Roman numeral to an integer",
  code: `const v = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
const s = String(args.numeral).toUpperCase();
let n = 0;
for (let i = 0; i < s.length; i++) n += v[s[i]] < (v[s[i + 1]] ?? 0) ? -v[s[i]] : v[s[i]];
return n;`,
  expect: (a) => {
    const ds = [...str(a, "numeral").toUpperCase()].map((c) => ROMAN[c]!);
    return ds.reduce((n, d, i) => n + (d < (ds[i + 1] ?? 0) ? -d : d), 0);
  },
  asks: [
    { say: "convert the Roman numeral XIV to a number", args: { numeral: "XIV" } },
    { say: "the copyright line says MCMXCIV, what year is that?", args: { numeral: "MCMXCIV" } },
    { say: "Super Bowl LVIII, which number is that one", args: { numeral: "LVIII" } },
    { say: "chapter XLII in normal digits?", args: { numeral: "XLII" } },
  ],
};

const DAYS_BETWEEN: ReuseTask = {
  name: "date:days_between",
  intent: "count the days from one date to another",
  code: `return Math.round((new Date(args.end + "T00:00:00Z").getTime() - new Date(args.start + "T00:00:00Z").getTime()) / 86400000);`,
  expect: (a) => Math.round((utc(str(a, "end")).getTime() - utc(str(a, "start")).getTime()) / DAY_MS),
  asks: [
    { say: "how many days from 2026-01-15 to 2026-03-01?", args: { start: "2026-01-15", end: "2026-03-01" } },
    { say: "I started on 2025-11-03 and my probation ends 2026-02-01; how long is that in days", args: { start: "2025-11-03", end: "2026-02-01" } },
    { say: "days left from 2026-12-06 until 2026-12-25?", args: { start: "2026-12-06", end: "2026-12-25" } },
    { say: "today is 2026-12-06 and the lease runs out on 2027-06-30; how long is that, counted in days?", args: { start: "2026-12-06", end: "2027-06-30" } },
  ],
};

const ARRAY_LENGTH: ReuseTask = {
  name: "json:array_length",
  intent: "count the items of the array stored under a key in a JSON file",
  code: "return JSON.parse(await mcp.filesystem.read_file({ path: args.path }))[args.key].length;",
  expect: (a) => (JSON.parse(input(a))[str(a, "key")] as unknown[]).length,
  asks: [
    {
      say: "how many entries does the items array in data/order.json have?",
      args: { path: "data/order.json", key: "items" },
      files: { "data/order.json": JSON.stringify({ id: 7, items: ["mug", "tea", "spoon"], tags: ["gift"] }) },
    },
    {
      say: "config/servers.json lists our servers, how many are there",
      args: { path: "config/servers.json", key: "servers" },
      files: { "config/servers.json": JSON.stringify({ region: "eu", servers: [{ host: "a" }, { host: "b" }] }) },
    },
    {
      say: "count what's under dependencies in pkg/deps.json",
      args: { path: "pkg/deps.json", key: "dependencies" },
      files: { "pkg/deps.json": JSON.stringify({ name: "app", dependencies: ["react", "zod", "vite", "bun-types"] }) },
    },
  ],
};

const FLATTEN_KEYS: ReuseTask = {
  name: "json:leaf_key_paths",
  intent: "list every leaf key path of a JSON file in dotted form (a.b.c)",
  code: `const out = [];
const walk = (o, pre) => {
  for (const [k, v] of Object.entries(o)) {
    if (v && typeof v === "object" && !Array.isArray(v)) walk(v, pre + k + ".");
    else out.push(pre + k);
  }
};
walk(JSON.parse(await mcp.filesystem.read_file({ path: args.path })), "");
return out;`,
  expect: (a) => {
    const paths = (o: Record<string, unknown>): string[] =>
      Object.entries(o).flatMap(([k, v]) => (v && typeof v === "object" && !Array.isArray(v) ? paths(v as Record<string, unknown>).map((p) => `${k}.${p}`) : [k]));
    return paths(JSON.parse(input(a)));
  },
  asks: [
    {
      say: "list all leaf key paths in conf/app.json in dotted notation",
      args: { path: "conf/app.json" },
      files: { "conf/app.json": JSON.stringify({ db: { host: "localhost", port: 5432 }, debug: true }) },
    },
    {
      say: "I need every setting name in conf/theme.json spelled like colors.fg.main, for the env-var mapping",
      args: { path: "conf/theme.json" },
      files: { "conf/theme.json": JSON.stringify({ colors: { bg: "#fff", fg: { main: "#000", muted: "#666" } }, font: "Inter" }) },
    },
    {
      say: "which dotted paths does conf/flags.json define? only the ends, not the parents",
      args: { path: "conf/flags.json" },
      files: { "conf/flags.json": JSON.stringify({ beta: { search: true }, ops: { alerts: { email: false, pager: ["bo"] } } }) },
    },
  ],
};

const TODO_LINES: ReuseTask = {
  name: "fs:todo_line_numbers",
  intent: "list the line numbers (from 1) of the lines mentioning TODO in a source file",
  code: `const ls = (await mcp.filesystem.read_file({ path: args.path })).split("\\n");
return ls.flatMap((l, i) => (l.includes("TODO") ? [i + 1] : []));`,
  expect: (a) =>
    input(a)
      .split("\n")
      .map((l, i) => (l.includes("TODO") ? i + 1 : 0))
      .filter((n) => n > 0),
  asks: [
    {
      say: "on which lines of src/app.js are there TODO comments?",
      args: { path: "src/app.js" },
      files: { "src/app.js": lines("import x from 'y';", "// TODO: handle errors", "const a = 1;", "", "function f() { // TODO later", "  return a;", "}") },
    },
    {
      say: "give me the line numbers in lib/util.py where someone left a TODO",
      args: { path: "lib/util.py" },
      files: { "lib/util.py": lines("def f():", "    pass  # TODO: real impl", "", "# TODO remove", "x = 1") },
    },
    {
      say: "web/main.go: where are the unfinished bits flagged? line numbers please",
      args: { path: "web/main.go" },
      files: { "web/main.go": lines("package main", "", "// TODO(ana): config", "func main() {", "\t// TODO: flags", "\trun()", "}") },
    },
  ],
};

const EXTRACT_URLS: ReuseTask = {
  name: "text:extract_urls",
  intent: "pull every http or https link out of a pasted text, each once, in order",
  code: String.raw`const found = (String(args.text).match(/https?:\/\/[^\s"'<>()]+/g) ?? []).map((u) => u.replace(/[.,;:!?]+$/, ""));
return [...new Set(found)];`,
  expect: (a) => {
    const out: string[] = [];
    for (const m of str(a, "text").matchAll(/https?:\/\/[^\s"'<>()]+/g)) {
      const u = m[0].replace(/[.,;:!?]+$/, "");
      if (!out.includes(u)) out.push(u);
    }
    return out;
  },
  asks: [
    {
      say: "pull the links out of: 'see https://example.com/docs and http://foo.org/a?b=1 for details'",
      args: { text: "see https://example.com/docs and http://foo.org/a?b=1 for details" },
    },
    {
      say: "which addresses are in this message? 'Staging is at https://staging.acme.dev, prod at https://acme.dev. Docs: https://acme.dev/docs'",
      args: { text: "Staging is at https://staging.acme.dev, prod at https://acme.dev. Docs: https://acme.dev/docs" },
    },
    {
      say: "grab the web links from this chat line: 'ok (https://git.io/x1) and http://10.0.0.5:8080/health, and again https://git.io/x1'",
      args: { text: "ok (https://git.io/x1) and http://10.0.0.5:8080/health, and again https://git.io/x1" },
    },
  ],
};

const APP_INI = lines("[server]", "port = 8080", "host=0.0.0.0", "", "[db]", "port = 5432", "name = shop");
const GIT_INI = lines("; user settings", "[user]", "name = Ana", "email = ana@example.com", "[core]", "editor = vim");

const INI_VALUE: ReuseTask = {
  name: "fs:ini_value",
  intent: "read one setting from a section of an .ini file",
  code: String.raw`let section = "";
for (const raw of (await mcp.filesystem.read_file({ path: args.path })).split("\n")) {
  const l = raw.trim();
  if (!l || l.startsWith(";") || l.startsWith("#")) continue;
  const s = /^\[(.+)\]$/.exec(l);
  if (s) { section = s[1].trim(); continue; }
  const eq = l.indexOf("=");
  if (eq > 0 && section === args.section && l.slice(0, eq).trim() === args.key) return l.slice(eq + 1).trim();
}
return null;`,
  expect: (a) => {
    let section = "";
    for (const l of input(a)
      .split("\n")
      .map((x) => x.trim())) {
      if (l.startsWith("[")) section = l.slice(1, -1);
      else if (section === str(a, "section") && l.split("=")[0]!.trim() === str(a, "key")) return l.split("=").slice(1).join("=").trim();
    }
    return null;
  },
  asks: [
    { say: "read port from the [db] section of etc/app.ini", args: { path: "etc/app.ini", section: "db", key: "port" }, files: { "etc/app.ini": APP_INI } },
    { say: "what host is the server block of etc/app.ini set to?", args: { path: "etc/app.ini", section: "server", key: "host" }, files: { "etc/app.ini": APP_INI } },
    { say: "in tools/git.ini, what's the email under [user]?", args: { path: "tools/git.ini", section: "user", key: "email" }, files: { "tools/git.ini": GIT_INI } },
    { say: "etc/app.ini: which port does the server listen on?", args: { path: "etc/app.ini", section: "server", key: "port" }, files: { "etc/app.ini": APP_INI } },
  ],
};

const LEADS = csv("name,source,status", [
  ["acme", "web", "won"],
  ["bolt", "ads", "lost"],
  ["cord", "web", "open"],
  ["dune", "referral", "won"],
  ["echo", "web", "won"],
]);
const TICKETS = csv("id,priority,team", [
  [1, "high", "core"],
  [2, "low", "web"],
  [3, "high", "web"],
  [4, "medium", "core"],
  [5, "high", "web"],
]);

const COUNT_MATCHING: ReuseTask = {
  name: "csv:count_rows_where",
  intent: "count the rows of a CSV file whose column equals a given value",
  code: `const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\\n").map((l) => l.split(","));
const i = head.indexOf(args.column);
return rows.filter((r) => r[i] === String(args.value)).length;`,
  expect: (a) => {
    const [head, ...rows] = input(a).trim().split("\n");
    const i = head!.split(",").indexOf(str(a, "column"));
    return rows.filter((r) => r.split(",")[i] === str(a, "value")).length;
  },
  asks: [
    { say: "count the rows in crm/leads.csv where status is won", args: { path: "crm/leads.csv", column: "status", value: "won" }, files: { "crm/leads.csv": LEADS } },
    {
      say: "how many high priority tickets are there in ops/tickets.csv?",
      args: { path: "ops/tickets.csv", column: "priority", value: "high" },
      files: { "ops/tickets.csv": TICKETS },
    },
    { say: "ops/tickets.csv: how many of them belong to team core", args: { path: "ops/tickets.csv", column: "team", value: "core" }, files: { "ops/tickets.csv": TICKETS } },
    {
      say: "leads that came in from the web, in crm/leads.csv; just the number",
      args: { path: "crm/leads.csv", column: "source", value: "web" },
      files: { "crm/leads.csv": LEADS },
    },
  ],
};

export const BLIND_3_TASKS: readonly ReuseTask[] = [
  CAMEL_TO_SNAKE,
  SNAKE_TO_CAMEL,
  COLUMN_MEDIAN,
  COLUMN_RANGE,
  WEEKDAY,
  DAY_OF_YEAR,
  ISO_WEEK,
  KM_TO_MILES,
  MILES_TO_KM,
  SLUGIFY,
  TITLE_CASE,
  MOST_COMMON_WORD,
  PERCENT_CHANGE,
  COMPOUND_INTEREST,
  ROMAN_TO_INT,
  DAYS_BETWEEN,
  ARRAY_LENGTH,
  FLATTEN_KEYS,
  TODO_LINES,
  EXTRACT_URLS,
  INI_VALUE,
  COUNT_MATCHING,
];
