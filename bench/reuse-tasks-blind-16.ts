// The 16th blind reuse stream (`--tasks blind16`), written blind on 2026-12-07 by someone who saw
// only the format (bench/reuse-tasks.ts's types, shared functions and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60
// requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names
// and kinds (count vs list of created tables, month-first vs day-first dates, UTC to an offset vs
// back, a URL's fragment vs its query string, lines in both files vs only in the first, a line at
// the top vs the end, priced above vs below a limit, hours vs minutes between timestamps) and 4
// single tasks. The repeats are worded as different users on different days would ask (terse,
// chatty, a file name, jargon, typos, a non-native speaker); one repeat of each task shares a
// content word with its intent, the other shares none.
import { type Ask, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const arg = (a: Ask, key: string) => a.args[key] as string;
/** The table names a SQL file creates, in order (a scan of the words, not a regex over the text). */
const createdTables = (sql: string) => {
  const words = sql
    .replace(/--[^\n]*/g, " ")
    .split(/[\s(;]+/)
    .filter(Boolean);
  const names: string[] = [];
  for (let i = 0; i + 2 < words.length; i++) {
    if (words[i]!.toLowerCase() !== "create" || words[i + 1]!.toLowerCase() !== "table") continue;
    let j = i + 2;
    if (words[j]!.toLowerCase() === "if" && words[j + 1]?.toLowerCase() === "not" && words[j + 2]?.toLowerCase() === "exists") j += 3;
    names.push(words[j]!.replace(/["`]/g, ""));
  }
  return names;
};
/** Minutes of the day of "HH:MM" shifted by "+HH:MM" / "-HH:MM" times `sign`, back as "HH:MM". */
const shiftClock = (time: string, offset: string, sign: number) => {
  const [h, m] = time.split(":").map(Number);
  const [oh, om] = offset.slice(1).split(":").map(Number);
  const off = (offset[0] === "-" ? -1 : 1) * (oh! * 60 + om!);
  const t = (((h! * 60 + m! + sign * off) % 1440) + 1440) % 1440;
  return `${String(Math.floor(t / 60)).padStart(2, "0")}:${String(t % 60).padStart(2, "0")}`;
};
const itemsOf = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
const bothFiles = (a: Ask) => {
  const right = new Set(itemsOf(input(a, "right")));
  return [...new Set(itemsOf(input(a, "left")))].filter((x) => right.has(x));
};
const onlyFirst = (a: Ask) => {
  const right = new Set(itemsOf(input(a, "right")));
  return [...new Set(itemsOf(input(a, "left")))].filter((x) => !right.has(x));
};
const prices = (a: Ask) => JSON.parse(input(a)) as { id: string; price: number }[];
const spanMs = (a: Ask) => Date.parse(arg(a, "to")) - Date.parse(arg(a, "from"));

const COUNT_CREATED_TABLES: ReuseTask = {
  name: "sql:count_created_tables",
  intent: "count the CREATE TABLE statements in a SQL file",
  code: String.raw`const sql = await mcp.filesystem.read_file({ path: args.path });
return (sql.replace(/--[^\n]*/g, " ").match(/\bcreate\s+table\b/gi) || []).length;`,
  expect: (a) => createdTables(input(a)).length,
  asks: [
    {
      say: "count the CREATE TABLE statements in db/migrations/001_init.sql",
      args: { path: "db/migrations/001_init.sql" },
      files: {
        "db/migrations/001_init.sql": lines(
          "CREATE TABLE users (id SERIAL PRIMARY KEY, email TEXT NOT NULL);",
          "CREATE TABLE sessions (id UUID PRIMARY KEY, user_id INT REFERENCES users(id));",
          "CREATE INDEX sessions_user ON sessions (user_id);",
          "CREATE TABLE audit_log (at TIMESTAMPTZ, what TEXT);",
        ),
      },
    },
    {
      say: "how many table definitions does schema/core.sql hold?",
      args: { path: "schema/core.sql" },
      files: {
        "schema/core.sql": lines(
          "-- core schema",
          "create table if not exists accounts (id bigint primary key);",
          "create table ledger (id bigint, account_id bigint, cents bigint);",
          "insert into accounts values (1);",
        ),
      },
    },
    {
      say: "DDL in migrations/0042_billing.pgsql: how many relations get defined?",
      args: { path: "migrations/0042_billing.pgsql" },
      files: {
        "migrations/0042_billing.pgsql": lines(
          "BEGIN;",
          "CREATE TABLE invoices (id SERIAL PRIMARY KEY, total NUMERIC(10,2));",
          "CREATE TABLE invoice_lines (invoice_id INT, sku TEXT, qty INT);",
          "CREATE TABLE payments (id SERIAL, invoice_id INT, paid_at DATE);",
          "ALTER TABLE payments ADD COLUMN method TEXT;",
          "CREATE TABLE refunds (payment_id INT, cents INT);",
          "COMMIT;",
        ),
      },
    },
  ],
};

const LIST_CREATED_TABLES: ReuseTask = {
  name: "sql:list_created_tables",
  intent: "list the names of the tables a SQL file creates, in order",
  code: String.raw`const sql = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const m of sql.replace(/--[^\n]*/g, " ").matchAll(/\bcreate\s+table\s+(?:if\s+not\s+exists\s+)?["\x60]?([\w.]+)["\x60]?/gi)) out.push(m[1]);
return out;`,
  expect: (a) => createdTables(input(a)),
  asks: [
    {
      say: "list the names of the tables db/init.sql creates, in order",
      args: { path: "db/init.sql" },
      files: {
        "db/init.sql": lines(
          "CREATE TABLE authors (id INT PRIMARY KEY, name TEXT);",
          "CREATE TABLE books (id INT PRIMARY KEY, author_id INT, title TEXT);",
          "CREATE VIEW book_titles AS SELECT title FROM books;",
        ),
      },
    },
    {
      say: "which tables does schema/shop.sql set up?",
      args: { path: "schema/shop.sql" },
      files: {
        "schema/shop.sql": lines(
          "create table if not exists products (sku text primary key, price numeric);",
          "-- create table legacy_products (sku text);",
          "create table carts (id serial, owner text);",
          "create table cart_items (cart_id int, sku text, qty int);",
        ),
      },
    },
    {
      say: "wat relations r defined in migrations/0007_auth.pgsql? give me em",
      args: { path: "migrations/0007_auth.pgsql" },
      files: {
        "migrations/0007_auth.pgsql": lines(
          "CREATE TABLE roles (id SERIAL PRIMARY KEY, name TEXT UNIQUE);",
          "CREATE TABLE user_roles (user_id INT, role_id INT);",
          "DROP TABLE IF EXISTS old_perms;",
        ),
      },
    },
  ],
};

const US_DATE: ReuseTask = {
  name: "date:format_us_style",
  intent: "format an ISO date as a US-style date, MM/DD/YYYY",
  code: 'const [y, m, d] = String(args.date).slice(0, 10).split("-");\nreturn `${m}/${d}/${y}`;',
  expect: (a) => {
    const d = new Date(`${arg(a, "date")}T00:00:00Z`);
    const p = (n: number) => String(n).padStart(2, "0");
    return `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()}`;
  },
  asks: [
    { say: "format 2026-03-04 as a US-style date, MM/DD/YYYY", args: { date: "2026-03-04" } },
    { say: "american date for 2025-11-07 pls", args: { date: "2025-11-07" } },
    { say: "my colleague in Ohio wants 2027-01-09 written the way they write it over there, month first with slashes", args: { date: "2027-01-09" } },
  ],
};

const DAY_FIRST_DATE: ReuseTask = {
  name: "date:format_day_first",
  intent: "format an ISO date day first, as DD/MM/YYYY",
  code: 'const [y, m, d] = String(args.date).slice(0, 10).split("-");\nreturn `${d}/${m}/${y}`;',
  expect: (a) => {
    const d = new Date(`${arg(a, "date")}T00:00:00Z`);
    const p = (n: number) => String(n).padStart(2, "0");
    return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
  },
  asks: [
    { say: "format 2026-05-02 day first, as DD/MM/YYYY", args: { date: "2026-05-02" } },
    { say: "2025-08-11 -> british date please", args: { date: "2025-08-11" } },
    { say: "in my country we put the month in the middle. how I write 2027-10-03 with slashes?", args: { date: "2027-10-03" } },
  ],
};

const UTC_TO_OFFSET: ReuseTask = {
  name: "time:utc_clock_to_offset",
  intent: "convert a UTC clock time to the local time at a given UTC offset",
  code: String.raw`const [h, m] = args.time.split(":").map(Number);
const sign = args.offset[0] === "-" ? -1 : 1;
const [oh, om] = args.offset.slice(1).split(":").map(Number);
const t = (((h * 60 + m + sign * (oh * 60 + om)) % 1440) + 1440) % 1440;
return String(Math.floor(t / 60)).padStart(2, "0") + ":" + String(t % 60).padStart(2, "0");`,
  expect: (a) => shiftClock(arg(a, "time"), arg(a, "offset"), 1),
  asks: [
    { say: "convert 14:30 UTC to local time at UTC offset +02:00", args: { time: "14:30", offset: "+02:00" } },
    { say: "09:45 UTC in +05:30 land?", args: { time: "09:45", offset: "+05:30" } },
    { say: "the server says 23:10 zulu; what will the wall show for me, I'm at -07:00?", args: { time: "23:10", offset: "-07:00" } },
  ],
};

const OFFSET_TO_UTC: ReuseTask = {
  name: "time:offset_clock_to_utc",
  intent: "convert a local clock time at a UTC offset to UTC",
  code: String.raw`const [h, m] = args.time.split(":").map(Number);
const sign = args.offset[0] === "-" ? -1 : 1;
const [oh, om] = args.offset.slice(1).split(":").map(Number);
const t = (((h * 60 + m - sign * (oh * 60 + om)) % 1440) + 1440) % 1440;
return String(Math.floor(t / 60)).padStart(2, "0") + ":" + String(t % 60).padStart(2, "0");`,
  expect: (a) => shiftClock(arg(a, "time"), arg(a, "offset"), -1),
  asks: [
    { say: "convert 08:15 local at UTC offset -05:00 to UTC", args: { time: "08:15", offset: "-05:00" } },
    { say: "meeting is 18:00 here (+09:00), what's that in utc", args: { time: "18:00", offset: "+09:00" } },
    { say: "we're on -03:00 and standup is 10:20 - zulu equivalent?", args: { time: "10:20", offset: "-03:00" } },
  ],
};

const URL_FRAGMENT: ReuseTask = {
  name: "url:extract_fragment",
  intent: "get the fragment of a URL, the part after #",
  code: 'const i = args.url.indexOf("#");\nreturn i < 0 ? "" : args.url.slice(i + 1);',
  expect: (a) => new URL(arg(a, "url")).hash.slice(1),
  asks: [
    { say: "get the fragment of https://docs.example.com/guide?lang=en#install, the part after #", args: { url: "https://docs.example.com/guide?lang=en#install" } },
    { say: "fragment of https://shop.example.org/p/42?ref=mail&utm=x#reviews", args: { url: "https://shop.example.org/p/42?ref=mail&utm=x#reviews" } },
    {
      say: "which anchor does this link jump to? https://wiki.example.net/Page?action=view&rev=7#History",
      args: { url: "https://wiki.example.net/Page?action=view&rev=7#History" },
    },
  ],
};

const URL_QUERY_STRING: ReuseTask = {
  name: "url:extract_query_string",
  intent: "get the raw query string of a URL, without the leading ? or the # part",
  code: 'const noHash = args.url.split("#")[0];\nconst i = noHash.indexOf("?");\nreturn i < 0 ? "" : noHash.slice(i + 1);',
  expect: (a) => new URL(arg(a, "url")).search.slice(1),
  asks: [
    { say: "get the raw query string of https://api.example.com/v1/items?page=2&size=50#top", args: { url: "https://api.example.com/v1/items?page=2&size=50#top" } },
    { say: "query bit of https://maps.example.org/search?q=cafe&zoom=14#map pls", args: { url: "https://maps.example.org/search?q=cafe&zoom=14#map" } },
    {
      say: "what comes after the question mark in https://news.example.net/a?id=881&src=rss#comments (not the hash bit)",
      args: { url: "https://news.example.net/a?id=881&src=rss#comments" },
    },
  ],
};

const LINES_IN_BOTH: ReuseTask = {
  name: "list:common_lines_of_two_files",
  intent: "list the lines found in both of two text files",
  code: String.raw`const read = async (p) => (await mcp.filesystem.read_file({ path: p })).split("\n").map((l) => l.trim()).filter((l) => l !== "");
const left = await read(args.left);
const right = new Set(await read(args.right));
return [...new Set(left)].filter((x) => right.has(x));`,
  expect: bothFiles,
  asks: [
    {
      say: "list the lines found in both team/a.txt and team/b.txt",
      args: { left: "team/a.txt", right: "team/b.txt" },
      files: { "team/a.txt": lines("Ana", "Bo", "Chen", "Dara"), "team/b.txt": lines("Chen", "Eli", "Ana", "Fatou") },
    },
    {
      say: "names on both invites/march.txt and invites/april.txt?",
      args: { left: "invites/march.txt", right: "invites/april.txt" },
      files: {
        "invites/march.txt": lines("Gus", "Hana", "Ivo", "Jun", "Kemal"),
        "invites/april.txt": lines("Kemal", "Lea", "Gus", "Mo"),
      },
    },
    {
      say: "set intersection of stock/warehouse.lst and stock/shop.lst",
      args: { left: "stock/warehouse.lst", right: "stock/shop.lst" },
      files: {
        "stock/warehouse.lst": lines("bolt-m6", "nut-m6", "washer-8", "hinge-40", "", "screw-4x30"),
        "stock/shop.lst": lines("screw-4x30", "glue-stick", "washer-8"),
      },
    },
  ],
};

const LINES_ONLY_IN_FIRST: ReuseTask = {
  name: "list:lines_missing_from_second",
  intent: "list the lines of the first file that are missing from the second",
  code: String.raw`const read = async (p) => (await mcp.filesystem.read_file({ path: p })).split("\n").map((l) => l.trim()).filter((l) => l !== "");
const left = await read(args.left);
const right = new Set(await read(args.right));
return [...new Set(left)].filter((x) => !right.has(x));`,
  expect: onlyFirst,
  asks: [
    {
      say: "list the lines of roster/old.txt that are missing from roster/new.txt",
      args: { left: "roster/old.txt", right: "roster/new.txt" },
      files: { "roster/old.txt": lines("Nia", "Omar", "Pia", "Quinn"), "roster/new.txt": lines("Pia", "Rui", "Nia") },
    },
    {
      say: "who's in club/2025.txt but missing in club/2026.txt?",
      args: { left: "club/2025.txt", right: "club/2026.txt" },
      files: { "club/2025.txt": lines("Sam", "Tove", "Uma", "Vik", "Wen"), "club/2026.txt": lines("Wen", "Sam", "Xia") },
    },
    {
      say: "set difference: pkgs/before.lst minus pkgs/after.lst",
      args: { left: "pkgs/before.lst", right: "pkgs/after.lst" },
      files: {
        "pkgs/before.lst": lines("curl", "git", "jq", "make", "vim"),
        "pkgs/after.lst": lines("curl", "git", "ripgrep", "vim"),
      },
    },
  ],
};

const prepended = (a: Ask) => `${arg(a, "line")}\n${input(a)}`;
const appended = (a: Ask) => {
  const t = input(a);
  return `${t}${t === "" || t.endsWith("\n") ? "" : "\n"}${arg(a, "line")}\n`;
};

const PREPEND_LINE: ReuseTask = {
  name: "fs:prepend_line_to_file",
  intent: "prepend a line to the top of a text file",
  code: String.raw`const old = await mcp.filesystem.read_file({ path: args.path });
const content = args.line + "\n" + old;
await mcp.filesystem.write_file({ path: args.path, content });
return content;`,
  expect: prepended,
  leaves: (a) => ({ [arg(a, "path")]: prepended(a) }),
  asks: [
    {
      say: "prepend the line '# generated, do not edit' to the top of out/report.md",
      args: { path: "out/report.md", line: "# generated, do not edit" },
      files: { "out/report.md": lines("## Sales", "up 4%") },
    },
    {
      say: "put 'TITLE: Q3 numbers' at the top of drafts/q3.txt",
      args: { path: "drafts/q3.txt", line: "TITLE: Q3 numbers" },
      files: { "drafts/q3.txt": lines("revenue 1.2M", "costs 0.9M", "margin 25%") },
    },
    {
      say: "insert 'Dear team,' before everything else in mail/body.txt",
      args: { path: "mail/body.txt", line: "Dear team," },
      files: { "mail/body.txt": lines("the release moves to Friday.", "thanks, Ana") },
    },
  ],
};

const APPEND_LINE: ReuseTask = {
  name: "fs:append_line_to_file",
  intent: "append a line to the end of a text file",
  code: String.raw`const old = await mcp.filesystem.read_file({ path: args.path });
const content = old + (old === "" || old.endsWith("\n") ? "" : "\n") + args.line + "\n";
await mcp.filesystem.write_file({ path: args.path, content });
return content;`,
  expect: appended,
  leaves: (a) => ({ [arg(a, "path")]: appended(a) }),
  asks: [
    {
      say: "append the line 'done: ship v2' to the end of notes/log.txt",
      args: { path: "notes/log.txt", line: "done: ship v2" },
      files: { "notes/log.txt": lines("todo: write docs", "done: fix login") },
    },
    {
      say: "stick '2026-12-07 deploy ok' on the end of ops/history.txt",
      args: { path: "ops/history.txt", line: "2026-12-07 deploy ok" },
      files: { "ops/history.txt": "2026-12-01 deploy ok\n2026-12-04 rollback" },
    },
    {
      say: "add 'milk' as the final entry of shopping/list.md",
      args: { path: "shopping/list.md", line: "milk" },
      files: { "shopping/list.md": lines("eggs", "bread", "apples") },
    },
  ],
};

const PRICED_ABOVE: ReuseTask = {
  name: "json:ids_priced_above",
  intent: "list the ids of the items whose price is above a limit",
  code: "const items = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn items.filter((x) => x.price > Number(args.limit)).map((x) => x.id);",
  expect: (a) => {
    const out: string[] = [];
    for (const x of prices(a)) if (x.price > (a.args.limit as number)) out.push(x.id);
    return out;
  },
  asks: [
    {
      say: "list the ids of items in shop/items.json priced above 20",
      args: { path: "shop/items.json", limit: 20 },
      files: {
        "shop/items.json": json([
          { id: "mug", price: 12 },
          { id: "lamp", price: 45 },
          { id: "rug", price: 20 },
          { id: "chair", price: 89.9 },
        ]),
      },
    },
    {
      say: "what costs above 100 in catalog/gear.json? ids only",
      args: { path: "catalog/gear.json", limit: 100 },
      files: {
        "catalog/gear.json": json([
          { id: "tent-2p", price: 240 },
          { id: "stove", price: 65 },
          { id: "pad", price: 100 },
          { id: "pack-50l", price: 180 },
          { id: "headlamp", price: 35 },
        ]),
      },
    },
    {
      say: "skus in inv/stock.json dearer than 9.5",
      args: { path: "inv/stock.json", limit: 9.5 },
      files: {
        "inv/stock.json": json([
          { id: "A-100", price: 9.49 },
          { id: "A-101", price: 12 },
          { id: "B-200", price: 3.2 },
          { id: "C-300", price: 9.51 },
        ]),
      },
    },
  ],
};

const PRICED_BELOW: ReuseTask = {
  name: "json:ids_priced_below",
  intent: "list the ids of the items whose price is below a limit",
  code: "const items = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn items.filter((x) => x.price < Number(args.limit)).map((x) => x.id);",
  expect: (a) => {
    const out: string[] = [];
    for (const x of prices(a)) if (x.price < (a.args.limit as number)) out.push(x.id);
    return out;
  },
  asks: [
    {
      say: "list the ids of items in shop/sale.json priced below 15",
      args: { path: "shop/sale.json", limit: 15 },
      files: {
        "shop/sale.json": json([
          { id: "socks", price: 6 },
          { id: "scarf", price: 15 },
          { id: "gloves", price: 22 },
          { id: "cap", price: 11.5 },
        ]),
      },
    },
    {
      say: "ids with price below 50 in menu/dishes.json",
      args: { path: "menu/dishes.json", limit: 50 },
      files: {
        "menu/dishes.json": json([
          { id: "ramen", price: 14 },
          { id: "omakase", price: 120 },
          { id: "gyoza", price: 8 },
          { id: "wagyu", price: 65 },
        ]),
      },
    },
    {
      say: "cheaper than 3 euros - which ones in market/fruit.json?",
      args: { path: "market/fruit.json", limit: 3 },
      files: {
        "market/fruit.json": json([
          { id: "mango", price: 3.5 },
          { id: "banana", price: 1.2 },
          { id: "kiwi", price: 3 },
          { id: "lime", price: 0.8 },
          { id: "figs", price: 4.9 },
        ]),
      },
    },
  ],
};

const HOURS_BETWEEN: ReuseTask = {
  name: "date:hours_between_timestamps",
  intent: "compute the number of hours between two ISO timestamps, to 2 decimals",
  code: "const ms = new Date(args.to).getTime() - new Date(args.from).getTime();\nreturn Math.round((ms / 3600000) * 100) / 100;",
  expect: (a) => round2(spanMs(a) / 3_600_000),
  asks: [
    { say: "compute the number of hours between 2026-12-01T08:00:00Z and 2026-12-02T10:30:00Z", args: { from: "2026-12-01T08:00:00Z", to: "2026-12-02T10:30:00Z" } },
    { say: "hours from 2026-11-30T22:15:00Z to 2026-12-01T06:45:00Z?", args: { from: "2026-11-30T22:15:00Z", to: "2026-12-01T06:45:00Z" } },
    {
      say: "how long did the outage last, in h? began 2026-10-04T13:05:00Z, ended 2026-10-04T16:41:00Z",
      args: { from: "2026-10-04T13:05:00Z", to: "2026-10-04T16:41:00Z" },
    },
  ],
};

const MINUTES_BETWEEN: ReuseTask = {
  name: "date:minutes_between_timestamps",
  intent: "compute the number of minutes between two ISO timestamps",
  code: "const ms = new Date(args.to).getTime() - new Date(args.from).getTime();\nreturn Math.round(ms / 60000);",
  expect: (a) => Math.round(spanMs(a) / 60_000),
  asks: [
    { say: "compute the number of minutes between 2026-12-03T09:10:00Z and 2026-12-03T11:55:00Z", args: { from: "2026-12-03T09:10:00Z", to: "2026-12-03T11:55:00Z" } },
    { say: "minutes from 2026-12-05T23:40:00Z till 2026-12-06T00:25:00Z", args: { from: "2026-12-05T23:40:00Z", to: "2026-12-06T00:25:00Z" } },
    {
      say: "the call began 2026-09-14T15:02:00Z and ended 2026-09-14T16:20:00Z, how long in mins",
      args: { from: "2026-09-14T15:02:00Z", to: "2026-09-14T16:20:00Z" },
    },
  ],
};

const YAML_TOP_KEYS: ReuseTask = {
  name: "yaml:list_top_level_keys",
  intent: "list the top-level keys of a YAML file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const l of t.split("\n")) {
  const m = /^([A-Za-z_][\w.-]*)\s*:/.exec(l);
  if (m) out.push(m[1]);
}
return out;`,
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l) => l !== "" && !/^[\s#-]/.test(l) && l.includes(":"))
      .map((l) => l.slice(0, l.indexOf(":")).trim()),
  asks: [
    {
      say: "list the top-level keys of deploy/app.yaml",
      args: { path: "deploy/app.yaml" },
      files: {
        "deploy/app.yaml": lines(
          "# app settings",
          "name: shop",
          "replicas: 3",
          "image:",
          "  repo: ghcr.io/acme/shop",
          "  tag: 1.4.2",
          "env:",
          "  - name: LOG_LEVEL",
          "    value: info",
        ),
      },
    },
    {
      say: "root keys in .github/workflows/ci.yml?",
      args: { path: ".github/workflows/ci.yml" },
      files: {
        ".github/workflows/ci.yml": lines(
          "name: ci",
          "on:",
          "  push:",
          "    branches: [main]",
          "permissions:",
          "  contents: read",
          "jobs:",
          "  test:",
          "    runs-on: ubuntu-latest",
        ),
      },
    },
    {
      say: "what sections sit at indentation zero in k8s/service.yml",
      args: { path: "k8s/service.yml" },
      files: {
        "k8s/service.yml": lines(
          "apiVersion: v1",
          "kind: Service",
          "metadata:",
          "  name: web",
          "  labels:",
          "    app: web",
          "spec:",
          "  ports:",
          "    - port: 80",
          "      targetPort: 8080",
        ),
      },
    },
  ],
};

const NODE_ENGINE: ReuseTask = {
  name: "pkg:read_node_engine_range",
  intent: "read the Node version range in a manifest's engines field",
  code: "const pkg = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn (pkg.engines && pkg.engines.node) || null;",
  expect: (a) => (JSON.parse(input(a)) as { engines?: { node?: string } }).engines?.node ?? null,
  asks: [
    {
      say: "read the Node version range web/package.json asks for in engines",
      args: { path: "web/package.json" },
      files: { "web/package.json": json({ name: "web", version: "2.0.0", engines: { node: ">=20.11", npm: ">=10" }, dependencies: { next: "^14.2.5" } }) },
    },
    {
      say: "which node does api/package.json need?",
      args: { path: "api/package.json" },
      files: { "api/package.json": json({ name: "api", private: true, engines: { node: "^18.18.0 || >=20.0.0" }, scripts: { start: "node dist/main.js" } }) },
    },
    {
      say: "what runtime does svc/worker/package.json require?",
      args: { path: "svc/worker/package.json" },
      files: { "svc/worker/package.json": json({ name: "worker", type: "module", engines: { node: "22.x" }, devDependencies: { tsx: "^4.16.0" } }) },
    },
  ],
};

const EMPTY_ENV_KEYS: ReuseTask = {
  name: "config:list_env_keys_without_value",
  intent: "list the keys left empty in an env file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const raw of t.split("\n")) {
  const l = raw.trim();
  if (l === "" || l.startsWith("#") || !l.includes("=")) continue;
  const i = l.indexOf("=");
  const v = l.slice(i + 1).trim();
  if (v === "" || v === '""' || v === "''") out.push(l.slice(0, i).trim());
}
return out;`,
  expect: (a) =>
    input(a)
      .split("\n")
      .map((l) => /^\s*([A-Za-z_]\w*)\s*=\s*(?:""|'')?\s*$/.exec(l)?.[1])
      .filter((k): k is string => k !== undefined),
  asks: [
    {
      say: "list the keys left empty in app/local.env",
      args: { path: "app/local.env" },
      files: { "app/local.env": lines("# local", "PORT=3000", "DATABASE_URL=", "REDIS_URL=redis://localhost:6379", "SENTRY_DSN=") },
    },
    {
      say: "which vars are empty in deploy/staging.env?",
      args: { path: "deploy/staging.env" },
      files: { "deploy/staging.env": lines("NODE_ENV=staging", 'API_KEY=""', "# MAIL_HOST=", "MAIL_HOST=smtp.example.com", "MAIL_PASS=", "FEATURE_X=0") },
    },
    {
      say: "settings with no value yet in config/secrets.dotenv? I must fill them before go-live",
      args: { path: "config/secrets.dotenv" },
      files: { "config/secrets.dotenv": lines("STRIPE_KEY=", "STRIPE_WEBHOOK=''", "JWT_SECRET=s3cr3t", "", "S3_BUCKET=") },
    },
  ],
};

const minified = (a: Ask) => JSON.stringify(JSON.parse(input(a)));

const MINIFIED_COPY: ReuseTask = {
  name: "json:write_minified_copy",
  intent: "write a minified copy of a JSON file to another path",
  code: "const content = JSON.stringify(JSON.parse(await mcp.filesystem.read_file({ path: args.path })));\nawait mcp.filesystem.write_file({ path: args.out, content });\nreturn content.length;",
  expect: (a) => minified(a).length,
  leaves: (a) => ({ [arg(a, "out")]: minified(a) }),
  asks: [
    {
      say: "write a minified copy of data/config.json to dist/config.min.json",
      args: { path: "data/config.json", out: "dist/config.min.json" },
      files: { "data/config.json": json({ theme: "dark", retries: 3, endpoints: { api: "https://api.example.com", cdn: "https://cdn.example.com" } }) },
    },
    {
      say: "minified version of i18n/en.json into build/en.json pls",
      args: { path: "i18n/en.json", out: "build/en.json" },
      files: { "i18n/en.json": json({ hello: "Hello", bye: "Goodbye", cart: { empty: "Your cart is empty", items: "{n} items" } }) },
    },
    {
      say: "squash the whitespace out of maps/parks.geojson and save it as tmp/parks.min.geojson",
      args: { path: "maps/parks.geojson", out: "tmp/parks.min.geojson" },
      files: {
        "maps/parks.geojson": json({
          type: "FeatureCollection",
          features: [{ type: "Feature", properties: { name: "Riverside" }, geometry: { type: "Point", coordinates: [2.35, 48.85] } }],
        }),
      },
    },
  ],
};

export const BLIND_16_TASKS: ReuseTask[] = [
  COUNT_CREATED_TABLES,
  LIST_CREATED_TABLES,
  US_DATE,
  DAY_FIRST_DATE,
  UTC_TO_OFFSET,
  OFFSET_TO_UTC,
  URL_FRAGMENT,
  URL_QUERY_STRING,
  LINES_IN_BOTH,
  LINES_ONLY_IN_FIRST,
  PREPEND_LINE,
  APPEND_LINE,
  PRICED_ABOVE,
  PRICED_BELOW,
  HOURS_BETWEEN,
  MINUTES_BETWEEN,
  YAML_TOP_KEYS,
  NODE_ENGINE,
  EMPTY_ENV_KEYS,
  MINIFIED_COPY,
];
