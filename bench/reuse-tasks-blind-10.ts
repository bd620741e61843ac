// Blind reuse stream 10 (`bun bench/reuse.ts --tasks blind10`): written blind on 2026-12-07 by a
// helper that saw only the stream's format (bench/reuse-tasks.ts's types, helpers and one task),
// not pml's ranking, its other streams' tasks or any bench output. Its requests are never printed.
// 20 tasks, 60 requests: each first asked in about the intent's words, then twice by other users on
// other days (one repeat shares a content word with the intent, one shares none). Nine near-twin
// pairs take inputs of the same names and kinds, so that a careless reuse runs and answers wrongly:
// a URL's host vs its path, a month's last day vs its first Monday, a field's values vs its distinct
// values, lines starting vs ending with a marker, gcd vs lcm, a CSV's first vs last row, HTML escape
// vs unescape, ISO week vs quarter, words sorted alphabetically vs by length. Everything runs offline on pml's built-in
// filesystem tools.
import { type Ask, csv, input, lines, type ReuseTask } from "./reuse-tasks.ts";

const DAY = 86_400_000;
const utc = (date: unknown) => Date.parse(`${date}T00:00:00Z`);
const json = (ask: Ask) => JSON.parse(input(ask)) as Record<string, unknown>[];
const filled = (t: string) => t.split("\n").filter((l) => l.trim() !== "");
const rowObject = (t: string, which: "first" | "last") => {
  const rows = filled(t);
  const head = rows[0]!.split(",").map((h) => h.trim());
  const cells = rows[which === "first" ? 1 : rows.length - 1]!.split(",");
  return Object.fromEntries(head.map((h, i) => [h, (cells[i] ?? "").trim()]));
};
const words = (t: unknown) => String(t).split(/\s+/).filter(Boolean);

const HOSTNAME: ReuseTask = {
  name: "url:extract_hostname",
  intent: "get the host name out of a URL",
  code: "const m = /^[a-z][a-z0-9+.-]*:\\/\\/(?:[^@\\/?#]*@)?([^:\\/?#]+)/i.exec(String(args.url));\nreturn m ? m[1].toLowerCase() : null;",
  expect: (a) => new URL(a.args.url as string).hostname,
  asks: [
    { say: "get the host name out of https://api.stripe.com/v1/charges?limit=3", args: { url: "https://api.stripe.com/v1/charges?limit=3" } },
    {
      say: "which host does https://deploy:hunter2@cdn.jsdelivr.net:8443/npm/react@18/index.js actually hit?",
      args: { url: "https://deploy:hunter2@cdn.jsdelivr.net:8443/npm/react@18/index.js" },
    },
    { say: "domain only pls: http://Docs.Python.org/3/library/os.html#os.walk", args: { url: "http://Docs.Python.org/3/library/os.html#os.walk" } },
  ],
};

const URL_PATH: ReuseTask = {
  name: "url:extract_path",
  intent: "get the path part of a URL, without the query or fragment",
  code: 'const rest = String(args.url).replace(/^[a-z][a-z0-9+.-]*:\\/\\/[^\\/?#]*/i, "");\nconst p = rest.split(/[?#]/)[0];\nreturn p === "" ? "/" : p;',
  expect: (a) => new URL(a.args.url as string).pathname,
  asks: [
    { say: "get the path part of https://shop.example.com/cart/items/42?ref=mail, without the query", args: { url: "https://shop.example.com/cart/items/42?ref=mail" } },
    { say: "whats the path in http://localhost:3000/api/v2/users#top", args: { url: "http://localhost:3000/api/v2/users#top" } },
    {
      say: "route only for https://github.com/oven-sh/bun/issues/1234?q=is%3Aopen -- drop the domain and the ?stuff",
      args: { url: "https://github.com/oven-sh/bun/issues/1234?q=is%3Aopen" },
    },
  ],
};

const ORDERS = `${JSON.stringify(
  [
    { id: 1, status: "paid", total: 40 },
    { id: 2, status: "open", total: 12.5 },
    { id: 3, status: "paid", total: 99 },
    { id: 4, status: "void", total: 0 },
    { id: 5, status: "open", total: 7 },
  ],
  null,
  2,
)}\n`;

const PLUCK_FIELD: ReuseTask = {
  name: "json:pluck_field",
  intent: "list one field's value from every object of a JSON array file, in order",
  code: "const rows = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn rows.map((r) => r[args.field]);",
  expect: (a) => json(a).map((r) => r[a.args.field as string]),
  asks: [
    {
      say: "list the email field's value from every object in data/users.json, in order",
      args: { path: "data/users.json", field: "email" },
      files: { "data/users.json": JSON.stringify([{ email: "ana@x.io" }, { email: "bo@y.io" }, { email: "ana@x.io" }, { email: "cy@z.dev" }]) },
    },
    {
      say: "from fixtures/orders.json give me the status field of each order, one per order",
      args: { path: "fixtures/orders.json", field: "status" },
      files: { "fixtures/orders.json": ORDERS },
    },
    {
      say: "content/posts.json: the `tag` of each post, post by post, dupes included",
      args: { path: "content/posts.json", field: "tag" },
      files: {
        "content/posts.json": JSON.stringify([
          { slug: "a", tag: "bun" },
          { slug: "b", tag: "mcp" },
          { slug: "c", tag: "bun" },
        ]),
      },
    },
  ],
};

const DISTINCT_FIELD: ReuseTask = {
  name: "json:distinct_field",
  intent: "unique values of a field across a JSON array file",
  code: "const rows = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn [...new Set(rows.map((r) => r[args.field]))];",
  expect: (a) => {
    const seen: unknown[] = [];
    for (const r of json(a)) if (!seen.includes(r[a.args.field as string])) seen.push(r[a.args.field as string]);
    return seen;
  },
  asks: [
    {
      say: "unique values of the country field across data/customers.json",
      args: { path: "data/customers.json", field: "country" },
      files: {
        "data/customers.json": JSON.stringify([
          { name: "Ana", country: "PT" },
          { name: "Bo", country: "SE" },
          { name: "Cy", country: "PT" },
          { name: "Di", country: "BR" },
          { name: "Ed", country: "SE" },
        ]),
      },
    },
    { say: "which distinct status values show up in fixtures/orders.json?", args: { path: "fixtures/orders.json", field: "status" }, files: { "fixtures/orders.json": ORDERS } },
    {
      say: "what roles do we even have in config/team.json? each one once",
      args: { path: "config/team.json", field: "role" },
      files: {
        "config/team.json": JSON.stringify([
          { user: "mia", role: "admin" },
          { user: "raj", role: "dev" },
          { user: "lu", role: "dev" },
          { user: "oz", role: "viewer" },
          { user: "kim", role: "admin" },
        ]),
      },
    },
  ],
};

const GCD: ReuseTask = {
  name: "math:gcd_numbers",
  intent: "greatest common divisor of two integers",
  code: "let a = Math.abs(Number(args.a));\nlet b = Math.abs(Number(args.b));\nwhile (b) [a, b] = [b, a % b];\nreturn a;",
  expect: (a) => {
    const x = Number(a.args.a);
    const y = Number(a.args.b);
    for (let d = Math.min(x, y); d > 1; d--) if (x % d === 0 && y % d === 0) return d;
    return 1;
  },
  asks: [
    { say: "greatest common divisor of 84 and 126", args: { a: 84, b: 126 } },
    { say: "highest common factor of 1071 and 462?", args: { a: 1071, b: 462 } },
    { say: "biggest number that splits both 360 and 945 evenly", args: { a: 360, b: 945 } },
  ],
};

const LCM: ReuseTask = {
  name: "math:lcm_numbers",
  intent: "least common multiple of two integers",
  code: "const x = Math.abs(Number(args.a));\nconst y = Math.abs(Number(args.b));\nlet a = x;\nlet b = y;\nwhile (b) [a, b] = [b, a % b];\nreturn (x / a) * y;",
  expect: (a) => {
    const x = Number(a.args.a);
    const y = Number(a.args.b);
    let m = Math.max(x, y);
    while (m % x !== 0 || m % y !== 0) m++;
    return m;
  },
  asks: [
    { say: "least common multiple of 12 and 18", args: { a: 12, b: 18 } },
    { say: "smallest multiple shared by 21 and 6", args: { a: 21, b: 6 } },
    { say: "bus A every 14 min, bus B every 35 min, both just left -- how many minutes till they line up again?", args: { a: 14, b: 35 } },
  ],
};

const SALES = csv("date,region,amount", [
  ["2025-01-02", "north", 120],
  ["2025-01-03", "south", 80],
  ["2025-01-04", "east", 45],
]);

const FIRST_ROW: ReuseTask = {
  name: "csv:first_row_object",
  intent: "read the first data row of a CSV file as an object keyed by the header",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nconst rows = t.split("\\n").filter((l) => l.trim() !== "");\nconst head = rows[0].split(",").map((h) => h.trim());\nconst cells = rows[1].split(",");\nconst o = {};\nhead.forEach((h, i) => { o[h] = (cells[i] ?? "").trim(); });\nreturn o;',
  expect: (a) => rowObject(input(a), "first"),
  asks: [
    { say: "read the first data row of exports/sales.csv as an object keyed by the header", args: { path: "exports/sales.csv" }, files: { "exports/sales.csv": SALES } },
    {
      say: "show me the first record in logs/visits.csv, column names as keys",
      args: { path: "logs/visits.csv" },
      files: {
        "logs/visits.csv": csv("ts,page,ms", [
          ["09:00", "/home", 31],
          ["09:01", "/pricing", 54],
          ["09:05", "/signup", 88],
        ]),
      },
    },
    {
      say: "peek at the top entry of inventory.csv, the one under the titles line, as name: value pairs",
      args: { path: "inventory.csv" },
      files: {
        "inventory.csv": csv("sku,name,qty", [
          ["A-1", "bolt", 500],
          ["A-2", "nut", 430],
          ["B-7", "washer", 90],
        ]),
      },
    },
  ],
};

const LAST_ROW: ReuseTask = {
  name: "csv:last_row_object",
  intent: "read the last row of a CSV file as an object keyed by the header",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nconst rows = t.split("\\n").filter((l) => l.trim() !== "");\nconst head = rows[0].split(",").map((h) => h.trim());\nconst cells = rows[rows.length - 1].split(",");\nconst o = {};\nhead.forEach((h, i) => { o[h] = (cells[i] ?? "").trim(); });\nreturn o;',
  expect: (a) => rowObject(input(a), "last"),
  asks: [
    { say: "read the last row of exports/sales.csv as an object keyed by the header", args: { path: "exports/sales.csv" }, files: { "exports/sales.csv": SALES } },
    {
      say: "last line of data in sensors/readings.csv as a dict, header for the keys",
      args: { path: "sensors/readings.csv" },
      files: {
        "sensors/readings.csv": csv("time,temp,humidity", [
          ["10:00", 21.5, 40],
          ["10:10", 21.9, 41],
          ["10:20", 22.4, 39],
          ["10:30", 22.8, 38],
        ]),
      },
    },
    {
      say: "most recent entry appended to books/ledger.csv -- give it to me with its field names",
      args: { path: "books/ledger.csv" },
      files: {
        "books/ledger.csv": csv("when,payee,debit", [
          ["2025-03-01", "rent", 900],
          ["2025-03-02", "groceries", 64],
          ["2025-03-04", "internet", 35],
        ]),
      },
    },
  ],
};

const ISO_WEEK: ReuseTask = {
  name: "date:iso_week_number",
  intent: "ISO 8601 week number of a date",
  code: 'const d = new Date(args.date + "T00:00:00Z");\nconst wd = d.getUTCDay() || 7;\nd.setUTCDate(d.getUTCDate() + 4 - wd);\nconst jan1 = Date.UTC(d.getUTCFullYear(), 0, 1);\nreturn Math.floor((d.getTime() - jan1) / 86400000 / 7) + 1;',
  expect: (a) => {
    // The week holding the date's Thursday belongs to that Thursday's year; week 1 holds January 4th.
    const t = utc(a.args.date);
    const weekday = (new Date(t).getUTCDay() + 6) % 7;
    const thursday = t + (3 - weekday) * DAY;
    const year = new Date(thursday).getUTCFullYear();
    const jan4 = Date.UTC(year, 0, 4);
    const week1Monday = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY;
    return Math.round((thursday - 3 * DAY - week1Monday) / (7 * DAY)) + 1;
  },
  asks: [
    { say: "ISO 8601 week number of 2026-06-15", args: { date: "2026-06-15" } },
    { say: "sprint planning: what week of the year does 2024-12-30 fall in, ISO rules?", args: { date: "2024-12-30" } },
    { say: "KW for 2021-01-03? (Kalenderwoche, like on German calendars)", args: { date: "2021-01-03" } },
  ],
};

const byLower = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);

const SORT_WORDS: ReuseTask = {
  name: "text:sort_words_alpha",
  intent: "sort the words of a sentence alphabetically, ignoring case",
  code: 'const w = String(args.text).split(/\\s+/).filter(Boolean);\nw.sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));\nreturn w.join(" ");',
  expect: (a) => [...words(a.args.text)].sort(byLower).join(" "),
  asks: [
    { say: "sort the words of 'zebra apple Mango kiwi' alphabetically", args: { text: "zebra apple Mango kiwi" } },
    { say: "put these words in A-Z order: delta alpha charlie bravo", args: { text: "delta alpha charlie bravo" } },
    { say: "dictionary order please -- pear fig Banana cherry", args: { text: "pear fig Banana cherry" } },
  ],
};

const SEMVER: ReuseTask = {
  name: "semver:compare_versions",
  intent: "compare two semantic version strings, -1, 0 or 1 like a sort comparator",
  code: 'const pa = String(args.a).replace(/^v/, "").split(".").map(Number);\nconst pb = String(args.b).replace(/^v/, "").split(".").map(Number);\nfor (let i = 0; i < 3; i++) {\n  const x = pa[i] || 0;\n  const y = pb[i] || 0;\n  if (x !== y) return x < y ? -1 : 1;\n}\nreturn 0;',
  expect: (a) => {
    const key = (v: unknown) =>
      String(v)
        .replace(/^v/, "")
        .split(".")
        .map((n) => n.padStart(6, "0"))
        .join(".");
    const [x, y] = [key(a.args.a), key(a.args.b)];
    return x < y ? -1 : x > y ? 1 : 0;
  },
  asks: [
    { say: "compare two semantic versions, 1.10.0 vs 1.9.3, as -1/0/1", args: { a: "1.10.0", b: "1.9.3" } },
    { say: "which version is newer, 3.4.9 or 3.4.10? comparator result for the first vs the second", args: { a: "3.4.9", b: "3.4.10" } },
    { say: "v2.0.0 and 2.0.0 -- same release or is one ahead? -1, 0 or 1 please", args: { a: "v2.0.0", b: "2.0.0" } },
  ],
};

const STARTS_WITH: ReuseTask = {
  name: "text:lines_starting_with",
  intent: "list the lines of a file that begin with a given prefix",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").filter((l) => l.startsWith(args.marker));',
  expect: (a) => {
    const m = String(a.args.marker);
    return input(a)
      .split("\n")
      .filter((l) => l.slice(0, m.length) === m);
  },
  asks: [
    {
      say: "list the lines of CHANGELOG.md that begin with '- fix'",
      args: { path: "CHANGELOG.md", marker: "- fix" },
      files: { "CHANGELOG.md": lines("## 1.4.0", "- feat: dark mode", "- fix: crash on empty config", "- fix: typo in help", "- chore: bump deps") },
    },
    {
      say: "which lines in notes/todo.txt start with [ ] ? i.e. the unticked ones",
      args: { path: "notes/todo.txt", marker: "[ ]" },
      files: { "notes/todo.txt": lines("[x] book flights", "[ ] renew passport", "[ ] call the bank", "[x] pay rent") },
    },
    {
      say: "logs/app.log: everything opening with ERROR",
      args: { path: "logs/app.log", marker: "ERROR" },
      files: { "logs/app.log": lines("INFO boot ok", "ERROR db timeout after 5s", "WARN slow query", "ERROR cache miss storm", "INFO shutdown") },
    },
  ],
};

const ENDS_WITH: ReuseTask = {
  name: "text:lines_ending_with",
  intent: "list the lines of a file that end with a given suffix",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").filter((l) => l !== "" && l.endsWith(args.marker));',
  expect: (a) => {
    const m = String(a.args.marker);
    return filled(input(a)).filter((l) => l.slice(l.length - m.length) === m);
  },
  asks: [
    {
      say: "list the lines of ci/build.log that end with FAILED",
      args: { path: "ci/build.log", marker: "FAILED" },
      files: { "ci/build.log": lines("lint ... ok", "unit ... FAILED", "e2e ... skipped", "types ... FAILED") },
    },
    {
      say: "rows in deps/imports.txt with the .js suffix",
      args: { path: "deps/imports.txt", marker: ".js" },
      files: { "deps/imports.txt": lines("./util.js", "./types.ts", "lodash", "./server/main.js", "./styles.css") },
    },
    {
      say: "which entries of tasks.md finish with '!!'? those are the urgent ones",
      args: { path: "tasks.md", marker: "!!" },
      files: { "tasks.md": lines("- rotate the API keys !!", "- tidy the wiki", "- fix prod login !!", "- order snacks !") },
    },
  ],
};

const HTML_ESCAPE: ReuseTask = {
  name: "html:escape_entities",
  intent: "escape &, <, >, \" and ' as HTML entities",
  code: 'return String(args.text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/\'/g, "&#39;");',
  expect: (a) => {
    const map: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
    return [...String(a.args.text)].map((c) => map[c] ?? c).join("");
  },
  asks: [
    { say: "escape <b>Tom & Jerry</b> as HTML entities", args: { text: "<b>Tom & Jerry</b>" } },
    { say: 'escape this before it goes into the template: 5 > 3 && "quoted"', args: { text: '5 > 3 && "quoted"' } },
    { say: "make <script>alert('x')</script> safe to show inside a div as literal text", args: { text: "<script>alert('x')</script>" } },
  ],
};

const HTML_UNESCAPE: ReuseTask = {
  name: "html:unescape_entities",
  intent: "turn HTML entities back into plain characters",
  code: 'return String(args.text).replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, \'"\').replace(/&#39;/g, "\'").replace(/&amp;/g, "&");',
  expect: (a) => {
    const map: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };
    return String(a.args.text).replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => map[e]!);
  },
  asks: [
    { say: "turn the HTML entities in 'Fish &amp; Chips &lt;3' back into plain characters", args: { text: "Fish &amp; Chips &lt;3" } },
    { say: "unescape the html entities: &quot;hi&quot; &#39;there&#39;", args: { text: "&quot;hi&quot; &#39;there&#39;" } },
    { say: "the RSS feed gives me 'AT&amp;T &gt; Verizon?' -- what did it originally say?", args: { text: "AT&amp;T &gt; Verizon?" } },
  ],
};

const MONTH_LAST_DAY: ReuseTask = {
  name: "date:month_last_day",
  intent: "last calendar day of the month a date is in",
  code: 'const d = new Date(args.date + "T00:00:00Z");\nreturn new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);',
  expect: (a) => {
    const [y, m] = String(a.args.date).split("-").map(Number) as [number, number];
    const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
    return `${y}-${String(m).padStart(2, "0")}-${days}`;
  },
  asks: [
    { say: "last calendar day of the month 2024-02-11 is in", args: { date: "2024-02-11" } },
    { say: "end of month for 2025-04-03? the invoices are due then", args: { date: "2025-04-03" } },
    { say: "2026-12-07: payroll cutoff is whenever that period closes, EOM. which one?", args: { date: "2026-12-07" } },
  ],
};

const MONTH_FIRST_MONDAY: ReuseTask = {
  name: "date:month_first_monday",
  intent: "first Monday of the month a date is in",
  code: 'const d = new Date(args.date + "T00:00:00Z");\nconst first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));\nfirst.setUTCDate(1 + ((8 - first.getUTCDay()) % 7));\nreturn first.toISOString().slice(0, 10);',
  expect: (a) => {
    const month = String(a.args.date).slice(0, 7);
    for (let day = 1; ; day++) {
      const iso = `${month}-${String(day).padStart(2, "0")}`;
      if (new Date(utc(iso)).getUTCDay() === 1) return iso;
    }
  },
  asks: [
    { say: "first Monday of the month 2024-02-11 is in", args: { date: "2024-02-11" } },
    { say: "team retro is the opening monday of each month -- when is it for the month of 2025-09-17?", args: { date: "2025-09-17" } },
    { say: "our meetup is always on the 1st Mon.; today is 2026-03-20, when was March's?", args: { date: "2026-03-20" } },
  ],
};

const QUARTER: ReuseTask = {
  name: "date:quarter_number",
  intent: "calendar quarter (1-4) a date falls in",
  code: 'const d = new Date(args.date + "T00:00:00Z");\nreturn Math.floor(d.getUTCMonth() / 3) + 1;',
  expect: (a) => Math.ceil(Number(String(a.args.date).slice(5, 7)) / 3),
  asks: [
    { say: "calendar quarter 2026-06-15 falls in", args: { date: "2026-06-15" } },
    { say: "which quarter is 2024-12-30 in, for the board report?", args: { date: "2024-12-30" } },
    { say: "2025-08-09 -- Q what?", args: { date: "2025-08-09" } },
  ],
};

const SORT_BY_LENGTH: ReuseTask = {
  name: "text:sort_words_by_length",
  intent: "order the words of a sentence from shortest to longest, ties kept in place",
  code: 'const w = String(args.text).split(/\\s+/).filter(Boolean);\nreturn w.map((x, i) => [x, i]).sort((p, q) => p[0].length - q[0].length || p[1] - q[1]).map((p) => p[0]).join(" ");',
  expect: (a) => {
    const w = words(a.args.text);
    const out: string[] = [];
    for (let n = 1; out.length < w.length; n++) for (const x of w) if (x.length === n) out.push(x);
    return out.join(" ");
  },
  asks: [
    { say: "order the words of 'banana fig apple kiwi' from shortest to longest", args: { text: "banana fig apple kiwi" } },
    { say: "arrange these words by size, small first: elephant cat horse ox", args: { text: "elephant cat horse ox" } },
    { say: "length-sort pls: internationalization is a long term", args: { text: "internationalization is a long term" } },
  ],
};

const DURATION: ReuseTask = {
  name: "time:duration_to_seconds",
  intent: "convert a duration like 1h30m into seconds",
  code: "const unit = { d: 86400, h: 3600, m: 60, s: 1 };\nlet total = 0;\nfor (const m of String(args.duration).matchAll(/(\\d+)\\s*([dhms])/g)) total += Number(m[1]) * unit[m[2]];\nreturn total;",
  expect: (a) => {
    let total = 0;
    let n = "";
    for (const c of String(a.args.duration)) {
      if (c >= "0" && c <= "9") n += c;
      else if ("dhms".includes(c) && n !== "") {
        total += Number(n) * { d: 86_400, h: 3_600, m: 60, s: 1 }[c as "d" | "h" | "m" | "s"];
        n = "";
      }
    }
    return total;
  },
  asks: [
    { say: "convert a duration like 1h30m into seconds: 1h30m", args: { duration: "1h30m" } },
    { say: "how many seconds is 2h5m30s? need it for a timeout env var", args: { duration: "2h5m30s" } },
    { say: "ttl is '1d12h' in the yaml, what's that as a plain integer for redis EXPIRE?", args: { duration: "1d12h" } },
  ],
};

/** In the order they first come up; twins apart, so that the second of a pair finds the first saved. */
export const BLIND_10_TASKS: readonly ReuseTask[] = [
  HOSTNAME,
  MONTH_LAST_DAY,
  PLUCK_FIELD,
  STARTS_WITH,
  GCD,
  FIRST_ROW,
  HTML_ESCAPE,
  ISO_WEEK,
  SORT_WORDS,
  SEMVER,
  URL_PATH,
  MONTH_FIRST_MONDAY,
  DISTINCT_FIELD,
  ENDS_WITH,
  LCM,
  LAST_ROW,
  HTML_UNESCAPE,
  QUARTER,
  SORT_BY_LENGTH,
  DURATION,
];
