// A fourth task stream for bench/reuse.ts (`--tasks blind2`), written blind on 2026-11-27 by a helper
// that saw the rules of the streams (bench/reuse-tasks.ts's types and one example task) but not pml's
// ranking, its other streams' requests, or the changes being judged. Nothing is tuned on it:
// bench/reuse.ts never prints its requests (no misses, no --records, no --verbose).
// Near-twins are there so that a careless match gives a wrong answer, not a miss: three questions on
// one CSV column (how many distinct values, which is most frequent, totals per group), a duration
// string to seconds and seconds to a clock string, e-mails out of pasted text and out of a file, and
// CSV→JSON against JSON→CSV (same `path`/`out` inputs, opposite directions).
// The code strings are raw so that their regular expressions read as they run in the sandbox.
import { type Ask, csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const str = (a: Ask, k: string) => a.args[k] as string;
const num = (a: Ask, k: string) => a.args[k] as number;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const uniqueEmails = (t: string) => [...new Set(t.match(EMAIL) ?? [])];

/** A CSV file's rows as objects (plain comma-separated, no quoting). */
const csvRows = (t: string) => {
  const [head, ...rows] = t
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  return rows.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ""])));
};
const csvValues = (a: Ask) => csvRows(input(a)).map((r) => r[str(a, "column")]!);

const HEX_TO_RGB: ReuseTask = {
  name: "util:hex_color_to_rgb",
  intent: "convert a hex color code like #1e90ff into its red, green and blue components",
  code: String.raw`let h = String(args.hex).trim().replace(/^#/, "");
if (h.length === 3) h = h.split("").map((c) => c + c).join("");
return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));`,
  expect: (a) => {
    let h = str(a, "hex").trim().replace(/^#/, "");
    if (h.length === 3) h = [...h].map((c) => c + c).join("");
    return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16));
  },
  asks: [
    { say: "convert the hex color #1e90ff to RGB", args: { hex: "#1e90ff" } },
    { say: "what are the red, green and blue values of #FF8800? I need them for a CSS rgba()", args: { hex: "#FF8800" } },
    { say: "our brand colour is #2c3e50, give it to me as three 0-255 numbers", args: { hex: "#2c3e50" } },
    { say: "the designer sent #abc, what is that in rgb terms?", args: { hex: "#abc" } },
  ],
};

const DURATION_TO_SECONDS: ReuseTask = {
  name: "util:duration_to_seconds",
  intent: "convert a duration string like 1h30m into a total number of seconds",
  code: String.raw`const unit = { d: 86400, h: 3600, m: 60, s: 1 };
let total = 0;
for (const m of String(args.duration).matchAll(/(\d+(?:\.\d+)?)\s*([dhms])/g)) total += Number(m[1]) * unit[m[2]];
return total;`,
  expect: (a) => {
    const unit: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1 };
    let total = 0;
    for (const m of str(a, "duration").matchAll(/(\d+(?:\.\d+)?)\s*([dhms])/g)) total += Number(m[1]) * unit[m[2]!]!;
    return total;
  },
  asks: [
    { say: "convert the duration 1h30m to seconds", args: { duration: "1h30m" } },
    { say: "the timeout in our config says 2m45s, how many seconds is that?", args: { duration: "2m45s" } },
    { say: "a job ran for 3h5m12s and the dashboard wants it as a plain count of seconds", args: { duration: "3h5m12s" } },
    { say: "I'm setting a cache TTL of 1d6h, what number goes in the field that takes seconds?", args: { duration: "1d6h" } },
  ],
};

const SECONDS_TO_CLOCK: ReuseTask = {
  name: "util:seconds_to_clock",
  intent: "format a number of seconds as an HH:MM:SS clock string",
  code: String.raw`const s = Math.floor(args.seconds);
const parts = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
return parts.map((n) => String(n).padStart(2, "0")).join(":");`,
  expect: (a) => {
    const s = Math.floor(num(a, "seconds"));
    return [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, "0")).join(":");
  },
  asks: [
    { say: "format 3725 seconds as HH:MM:SS", args: { seconds: 3725 } },
    { say: "show 59 seconds the way a stopwatch display would, hours then minutes then seconds", args: { seconds: 59 } },
    { say: "the video is 5400 s long; how does that read on a timer with hours, minutes and seconds?", args: { seconds: 5400 } },
    { say: "render 90061 secs as hh:mm:ss for the run summary", args: { seconds: 90061 } },
  ],
};

const EXTRACT_EMAILS: ReuseTask = {
  name: "text:extract_emails",
  intent: "extract the unique email addresses from a piece of text, in order of appearance",
  code: String.raw`const found = String(args.text).match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g) || [];
return [...new Set(found)];`,
  expect: (a) => uniqueEmails(str(a, "text")),
  asks: [
    { say: "pull the email addresses out of this: 'Contact ana@shop.io or sales@shop.io for help'", args: { text: "Contact ana@shop.io or sales@shop.io for help" } },
    {
      say: "which e-mails are mentioned here, no repeats: 'cc bo.kim@acme.org, reply to hr@acme.org and bo.kim@acme.org'",
      args: { text: "cc bo.kim@acme.org, reply to hr@acme.org and bo.kim@acme.org" },
    },
    {
      say: "grab every address from this signature: 'Dara Diop | dara@studio.fr | press: media@studio.fr'",
      args: { text: "Dara Diop | dara@studio.fr | press: media@studio.fr" },
    },
  ],
};

const EXTRACT_EMAILS_FILE: ReuseTask = {
  name: "fs:extract_emails_from_file",
  intent: "list the unique email addresses found in a text file, in order of appearance",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return [...new Set(t.match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g) || [])];`,
  expect: (a) => uniqueEmails(input(a)),
  asks: [
    {
      say: "extract the email addresses from contacts/team.txt",
      args: { path: "contacts/team.txt" },
      files: { "contacts/team.txt": lines("Ana Lima - ana.lima@corp.com", "Bo Kim - bo@corp.com", "Chen (no mail)", "Dara - dara.d@corp.com") },
    },
    {
      say: "support/tickets.log has customer messages; give me each address that shows up in it, once",
      args: { path: "support/tickets.log" },
      files: {
        "support/tickets.log": lines(
          "#101 from eli@mail.net: login fails",
          "#102 from fatou@home.org: refund?",
          "#103 from eli@mail.net: still failing",
          "#104 from gus@work.io: thanks",
        ),
      },
    },
    {
      say: "which mail addresses does docs/README.md mention?",
      args: { path: "docs/README.md" },
      files: { "docs/README.md": lines("# Tool", "", "Bugs: issues@tool.dev", "Security reports go to security@tool.dev only.", "Maintainer: Ivo <ivo@tool.dev>") },
    },
  ],
};

const COUNT_DISTINCT: ReuseTask = {
  name: "csv:count_distinct_values",
  intent: "count how many different values a column of a CSV file takes",
  code: String.raw`const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\n").map((l) => l.split(","));
const i = head.indexOf(args.column);
return new Set(rows.map((r) => r[i])).size;`,
  expect: (a) => new Set(csvValues(a)).size,
  asks: [
    {
      say: "count the distinct values of the city column in data/customers.csv",
      args: { path: "data/customers.csv", column: "city" },
      files: {
        "data/customers.csv": csv("id,name,city", [
          [1, "Ana", "Lisbon"],
          [2, "Bo", "Seoul"],
          [3, "Chen", "Lisbon"],
          [4, "Dara", "Dakar"],
          [5, "Eli", "Seoul"],
        ]),
      },
    },
    {
      say: "how many different countries are there in sales/orders.csv?",
      args: { path: "sales/orders.csv", column: "country" },
      files: {
        "sales/orders.csv": csv("order,country,total", [
          ["A1", "FR", 20],
          ["A2", "DE", 35],
          ["A3", "FR", 12],
          ["A4", "JP", 80],
          ["A5", "BR", 44],
          ["A6", "DE", 9],
        ]),
      },
    },
    {
      say: "in hr/staff.csv, how many separate departments do we have? it's the dept column",
      args: { path: "hr/staff.csv", column: "dept" },
      files: {
        "hr/staff.csv": csv("name,dept,salary", [
          ["Ana", "eng", 5000],
          ["Bo", "eng", 5200],
          ["Chen", "sales", 4100],
          ["Dara", "ops", 3900],
          ["Eli", "sales", 4300],
          ["Fatou", "legal", 6100],
          ["Gus", "eng", 4800],
        ]),
      },
    },
    {
      say: "reports/visits.csv: how many unique browsers appear under browser?",
      args: { path: "reports/visits.csv", column: "browser" },
      files: {
        "reports/visits.csv": csv("day,browser,visits", [
          ["mon", "firefox", 10],
          ["mon", "chrome", 30],
          ["tue", "chrome", 28],
          ["tue", "safari", 7],
        ]),
      },
    },
  ],
};

const MOST_COMMON: ReuseTask = {
  name: "csv:most_common_value",
  intent: "find the value that appears most often in a column of a CSV file",
  code: String.raw`const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\n").map((l) => l.split(","));
const i = head.indexOf(args.column);
const n = new Map();
for (const r of rows) n.set(r[i], (n.get(r[i]) || 0) + 1);
let best = null, most = 0;
for (const [v, c] of n) if (c > most) { best = v; most = c; }
return best;`,
  expect: (a) => {
    const n = new Map<string, number>();
    for (const v of csvValues(a)) n.set(v, (n.get(v) ?? 0) + 1);
    let best: string | null = null;
    let most = 0;
    for (const [v, c] of n)
      if (c > most) {
        best = v;
        most = c;
      }
    return best;
  },
  asks: [
    {
      say: "which value appears most often in the status column of data/tickets.csv?",
      args: { path: "data/tickets.csv", column: "status" },
      files: {
        "data/tickets.csv": csv("id,status,owner", [
          [1, "open", "ana"],
          [2, "closed", "bo"],
          [3, "open", "bo"],
          [4, "pending", "ana"],
          [5, "open", "chen"],
          [6, "closed", "ana"],
        ]),
      },
    },
    {
      say: "what's our best-selling product according to shop/orders.csv? one row per sale, product column",
      args: { path: "shop/orders.csv", column: "product" },
      files: {
        "shop/orders.csv": csv("date,product,qty", [
          ["2026-11-01", "mug", 1],
          ["2026-11-01", "tee", 2],
          ["2026-11-02", "cap", 1],
          ["2026-11-03", "tee", 1],
          ["2026-11-03", "mug", 3],
          ["2026-11-04", "tee", 1],
        ]),
      },
    },
    {
      say: "in survey/answers.csv, which rating did people pick the most? the column is rating",
      args: { path: "survey/answers.csv", column: "rating" },
      files: {
        "survey/answers.csv": csv("respondent,rating", [
          ["r1", 4],
          ["r2", 5],
          ["r3", 4],
          ["r4", 3],
          ["r5", 4],
          ["r6", 5],
        ]),
      },
    },
    {
      say: "which error code comes up the most in logs/errors.csv (code column)?",
      args: { path: "logs/errors.csv", column: "code" },
      files: {
        "logs/errors.csv": csv("time,code,route", [
          ["10:01", "E502", "/api"],
          ["10:04", "E404", "/img"],
          ["10:09", "E502", "/api"],
          ["10:15", "E500", "/login"],
          ["10:20", "E502", "/cart"],
        ]),
      },
    },
  ],
};

const SUM_BY_GROUP: ReuseTask = {
  name: "csv:sum_by_group",
  intent: "total a numeric CSV column for each distinct value of another column",
  code: String.raw`const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\n").map((l) => l.split(","));
const k = head.indexOf(args.key), v = head.indexOf(args.value);
const out = {};
for (const r of rows) out[r[k]] = (out[r[k]] || 0) + Number(r[v]);
for (const g of Object.keys(out)) out[g] = Math.round(out[g] * 100) / 100;
return out;`,
  expect: (a) => {
    const out: Record<string, number> = {};
    for (const r of csvRows(input(a))) {
      const g = r[str(a, "key")]!;
      out[g] = (out[g] ?? 0) + Number(r[str(a, "value")]);
    }
    for (const g of Object.keys(out)) out[g] = round2(out[g]!);
    return out;
  },
  asks: [
    {
      say: "sum the amount column of data/expenses.csv for each category",
      args: { path: "data/expenses.csv", key: "category", value: "amount" },
      files: {
        "data/expenses.csv": csv("date,category,amount", [
          ["11-01", "food", 12.5],
          ["11-01", "travel", 40],
          ["11-02", "food", 8.25],
          ["11-03", "office", 19.99],
          ["11-04", "travel", 15.5],
        ]),
      },
    },
    {
      say: "how much did each region bring in according to sales/q3.csv? add up revenue per region",
      args: { path: "sales/q3.csv", key: "region", value: "revenue" },
      files: {
        "sales/q3.csv": csv("month,region,revenue", [
          ["jul", "north", 1200],
          ["jul", "south", 950],
          ["aug", "north", 1340],
          ["aug", "east", 410],
          ["sep", "south", 1020],
          ["sep", "east", 505],
        ]),
      },
    },
    {
      say: "my manager wants hours per person from time/timesheet.csv, totals of the hours column by name",
      args: { path: "time/timesheet.csv", key: "name", value: "hours" },
      files: {
        "time/timesheet.csv": csv("name,day,hours", [
          ["ana", "mon", 7.5],
          ["bo", "mon", 8],
          ["ana", "tue", 6.25],
          ["bo", "tue", 4],
          ["chen", "tue", 8],
          ["ana", "wed", 3],
        ]),
      },
    },
    {
      say: "break down the shipped kg by warehouse in stock/shipments.csv",
      args: { path: "stock/shipments.csv", key: "warehouse", value: "kg" },
      files: {
        "stock/shipments.csv": csv("id,warehouse,kg", [
          ["s1", "LYS", 120.4],
          ["s2", "ORY", 98.1],
          ["s3", "LYS", 33.3],
          ["s4", "ORY", 1.9],
        ]),
      },
    },
  ],
};

/** CSV → JSON as the canned code does it: numbers where a cell reads as one. */
const csvToJsonText = (t: string) =>
  JSON.stringify(
    csvRows(t).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v !== "" && !Number.isNaN(Number(v)) ? Number(v) : v]))),
    null,
    2,
  ) + "\n";

const CSV_TO_JSON: ReuseTask = {
  name: "fs:csv_to_json_file",
  intent: "convert a CSV file into a JSON array of objects written to another file, returning the row count",
  code: String.raw`const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\n").map((l) => l.split(","));
const objs = rows.map((r) => Object.fromEntries(head.map((h, i) => {
  const v = r[i] ?? "";
  return [h, v !== "" && !Number.isNaN(Number(v)) ? Number(v) : v];
})));
await mcp.filesystem.write_file({ path: args.out, content: JSON.stringify(objs, null, 2) + "\n" });
return objs.length;`,
  expect: (a) => csvRows(input(a)).length,
  leaves: (a) => ({ [str(a, "out")]: csvToJsonText(input(a)) }),
  asks: [
    {
      say: "convert data/users.csv into a JSON array of objects and save it as data/users.json",
      args: { path: "data/users.csv", out: "data/users.json" },
      files: {
        "data/users.csv": csv("id,name,role", [
          [1, "ana", "admin"],
          [2, "bo", "dev"],
          [3, "chen", "dev"],
        ]),
      },
    },
    {
      say: "turn inventory/parts.csv into JSON at inventory/parts.json, one object per row",
      args: { path: "inventory/parts.csv", out: "inventory/parts.json" },
      files: {
        "inventory/parts.csv": csv("sku,label,stock,price", [
          ["P-1", "bolt", 140, 0.15],
          ["P-2", "nut", 300, 0.05],
          ["P-3", "washer", 0, 0.02],
          ["P-4", "hinge", 12, 3.4],
        ]),
      },
    },
    {
      say: "the frontend needs catalog/prices.csv as something it can fetch and parse; write it to web/prices.json",
      args: { path: "catalog/prices.csv", out: "web/prices.json" },
      files: {
        "catalog/prices.csv": csv("plan,monthly,yearly", [
          ["free", 0, 0],
          ["pro", 9.99, 99],
        ]),
      },
    },
  ],
};

const jsonToCsvText = (t: string) => {
  const rows = JSON.parse(t) as Record<string, unknown>[];
  const head = Object.keys(rows[0]!);
  return lines(head.join(","), ...rows.map((r) => head.map((h) => String(r[h] ?? "")).join(",")));
};

const JSON_TO_CSV: ReuseTask = {
  name: "fs:json_to_csv_file",
  intent: "convert a JSON file holding an array of objects into a CSV file, returning the row count",
  code: String.raw`const rows = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
const head = Object.keys(rows[0]);
const out = [head.join(","), ...rows.map((r) => head.map((h) => String(r[h] ?? "")).join(","))];
await mcp.filesystem.write_file({ path: args.out, content: out.join("\n") + "\n" });
return rows.length;`,
  expect: (a) => (JSON.parse(input(a)) as unknown[]).length,
  leaves: (a) => ({ [str(a, "out")]: jsonToCsvText(input(a)) }),
  asks: [
    {
      say: "convert data/orders.json (an array of objects) to CSV at data/orders.csv",
      args: { path: "data/orders.json", out: "data/orders.csv" },
      files: {
        "data/orders.json": JSON.stringify([
          { id: 1, item: "mug", total: 12.5 },
          { id: 2, item: "tee", total: 20 },
        ]),
      },
    },
    {
      say: "export the records in api/users.json as a comma-separated spreadsheet file, reports/users.csv",
      args: { path: "api/users.json", out: "reports/users.csv" },
      files: {
        "api/users.json": JSON.stringify(
          [
            { name: "ana", email: "ana@x.io", active: true },
            { name: "bo", email: "bo@x.io", active: false },
            { name: "chen", email: "chen@x.io", active: true },
          ],
          null,
          2,
        ),
      },
    },
    {
      say: "flatten metrics/daily.json into rows and columns at metrics/daily.csv so I can open it in Excel",
      args: { path: "metrics/daily.json", out: "metrics/daily.csv" },
      files: {
        "metrics/daily.json": JSON.stringify([
          { day: "2026-11-20", users: 310, errors: 2 },
          { day: "2026-11-21", users: 287, errors: 0 },
          { day: "2026-11-22", users: 355, errors: 5 },
          { day: "2026-11-23", users: 402, errors: 1 },
        ]),
      },
    },
  ],
};

const BUMP_SEMVER: ReuseTask = {
  name: "text:bump_semver",
  intent: "bump the major, minor or patch part of a semantic version string",
  code: String.raw`let [ma, mi, pa] = String(args.version).replace(/^v/, "").split(".").map(Number);
if (args.part === "major") { ma += 1; mi = 0; pa = 0; }
else if (args.part === "minor") { mi += 1; pa = 0; }
else pa += 1;
return [ma, mi, pa].join(".");`,
  expect: (a) => {
    let [ma, mi, pa] = str(a, "version").replace(/^v/, "").split(".").map(Number) as [number, number, number];
    if (str(a, "part") === "major") [ma, mi, pa] = [ma + 1, 0, 0];
    else if (str(a, "part") === "minor") [mi, pa] = [mi + 1, 0];
    else pa += 1;
    return [ma, mi, pa].join(".");
  },
  asks: [
    { say: "bump the minor part of version 1.4.2", args: { version: "1.4.2", part: "minor" } },
    { say: "we're shipping a breaking change on 2.9.13, what does the major bump make it?", args: { version: "2.9.13", part: "major" } },
    { say: "bugfix release: what's the next patch number after 0.3.9?", args: { version: "0.3.9", part: "patch" } },
    { say: "new feature going out, 3.0.7 gets the minor increase - what's it called now?", args: { version: "3.0.7", part: "minor" } },
  ],
};

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

const WEEKDAY_OF_DATE: ReuseTask = {
  name: "date:weekday_of_date",
  intent: "give the name of the weekday an ISO date (YYYY-MM-DD) falls on",
  code: String.raw`const names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
return names[new Date(args.date + "T00:00:00Z").getUTCDay()];`,
  expect: (a) => WEEKDAYS[new Date(str(a, "date") + "T00:00:00Z").getUTCDay()],
  asks: [
    { say: "what day of the week is 2026-03-14?", args: { date: "2026-03-14" } },
    { say: "which weekday did 1999-12-31 land on?", args: { date: "1999-12-31" } },
    { say: "the launch is set for 2027-01-01 - which day of the week will that be?", args: { date: "2027-01-01" } },
    { say: "I was born on 1990-07-04, what day was that?", args: { date: "1990-07-04" } },
  ],
};

const LOG_LEVEL_COUNTS: ReuseTask = {
  name: "fs:log_level_counts",
  intent: "count the lines of each log level (DEBUG, INFO, WARN, ERROR) in a log file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = {};
for (const l of t.split("\n")) {
  const m = l.match(/\b(DEBUG|INFO|WARN|ERROR)\b/);
  if (m) out[m[1]] = (out[m[1]] || 0) + 1;
}
return out;`,
  expect: (a) => {
    const out: Record<string, number> = {};
    for (const l of input(a).split("\n")) {
      const m = l.match(/\b(DEBUG|INFO|WARN|ERROR)\b/);
      if (m) out[m[1]!] = (out[m[1]!] ?? 0) + 1;
    }
    return out;
  },
  asks: [
    {
      say: "count log lines per level in logs/app.log",
      args: { path: "logs/app.log" },
      files: {
        "logs/app.log": lines("10:00:01 INFO boot", "10:00:02 INFO listening on 8080", "10:01:13 WARN slow query 1.2s", "10:02:40 ERROR db timeout", "10:02:41 INFO retry"),
      },
    },
    {
      say: "how many errors vs warnings vs info messages are in server/out.log?",
      args: { path: "server/out.log" },
      files: {
        "server/out.log": lines("[WARN] disk 85%", "[INFO] backup done", "[ERROR] mail bounce", "[ERROR] mail bounce", "[WARN] disk 90%", "[WARN] disk 95%"),
      },
    },
    {
      say: "give me a tally by severity for var/worker.log, the debug noise included",
      args: { path: "var/worker.log" },
      files: {
        "var/worker.log": lines("DEBUG poll", "DEBUG poll", "INFO job 7 start", "DEBUG poll", "INFO job 7 done", "ERROR job 8 crashed", "DEBUG poll"),
      },
    },
  ],
};

const envKeys = (t: string) =>
  t
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#") && l.includes("="))
    .map((l) => l.slice(0, l.indexOf("=")).trim());

const ENV_KEYS_MISSING: ReuseTask = {
  name: "fs:env_keys_missing",
  intent: "list the keys that an example env template defines but the actual env file lacks",
  code: String.raw`const keys = (t) => t.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#") && l.includes("=")).map((l) => l.slice(0, l.indexOf("=")).trim());
const have = new Set(keys(await mcp.filesystem.read_file({ path: args.actual })));
return keys(await mcp.filesystem.read_file({ path: args.example })).filter((k) => !have.has(k));`,
  expect: (a) => {
    const have = new Set(envKeys(input(a, "actual")));
    return envKeys(input(a, "example")).filter((k) => !have.has(k));
  },
  asks: [
    {
      say: "which keys from env/example.env are missing in env/dev.env?",
      args: { example: "env/example.env", actual: "env/dev.env" },
      files: {
        "env/example.env": lines("# app", "PORT=", "DATABASE_URL=", "SECRET_KEY=", "LOG_LEVEL=info"),
        "env/dev.env": lines("PORT=3000", "DATABASE_URL=postgres://localhost/app"),
      },
    },
    {
      say: "compare config/sample.env against config/local.env and tell me which variables I still have to set",
      args: { example: "config/sample.env", actual: "config/local.env" },
      files: {
        "config/sample.env": lines("API_URL=", "API_TOKEN=", "", "# optional", "SENTRY_DSN=", "FEATURE_X=false"),
        "config/local.env": lines("API_URL=http://localhost:8080", "FEATURE_X=true", "API_TOKEN=abc"),
      },
    },
    {
      say: "deploy/template.env lists the required settings; which of them aren't in deploy/prod.env yet?",
      args: { example: "deploy/template.env", actual: "deploy/prod.env" },
      files: {
        "deploy/template.env": lines("REDIS_URL=", "S3_BUCKET=", "S3_REGION=", "SMTP_HOST=", "SMTP_PASS="),
        "deploy/prod.env": lines("# prod", "S3_BUCKET=assets-prod", "SMTP_HOST=mail.example.com"),
      },
    },
  ],
};

const LOAN_PAYMENT: ReuseTask = {
  name: "math:loan_monthly_payment",
  intent: "compute the fixed monthly payment of a loan from the principal, the annual interest rate in percent and the term in years",
  code: String.raw`const r = args.rate / 100 / 12, n = args.years * 12;
const p = r === 0 ? args.principal / n : (args.principal * r) / (1 - Math.pow(1 + r, -n));
return Math.round(p * 100) / 100;`,
  expect: (a) => {
    const r = num(a, "rate") / 100 / 12;
    const n = num(a, "years") * 12;
    return round2(r === 0 ? num(a, "principal") / n : (num(a, "principal") * r) / (1 - (1 + r) ** -n));
  },
  asks: [
    { say: "monthly payment on a 250000 loan at 4.5% over 30 years?", args: { principal: 250000, rate: 4.5, years: 30 } },
    { say: "I'm borrowing 18000 for a car at 6.9% for 5 years, what will it cost me each month?", args: { principal: 18000, rate: 6.9, years: 5 } },
    { say: "mortgage of 420000, 3.75 percent a year, 25 year term: how much goes out per month?", args: { principal: 420000, rate: 3.75, years: 25 } },
    { say: "how much a month would I pay back on 5000 at 12% yearly interest over 2 years?", args: { principal: 5000, rate: 12, years: 2 } },
  ],
};

const STANDARD_DEVIATION: ReuseTask = {
  name: "math:standard_deviation",
  intent: "compute the population standard deviation of a list of numbers, rounded to 2 decimals",
  code: String.raw`const xs = args.numbers;
const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
const v = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
return Math.round(Math.sqrt(v) * 100) / 100;`,
  expect: (a) => {
    const xs = a.args.numbers as number[];
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    return round2(Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length));
  },
  asks: [
    { say: "population standard deviation of 2, 4, 4, 4, 5, 5, 7, 9", args: { numbers: [2, 4, 4, 4, 5, 5, 7, 9] } },
    { say: "how spread out are these response times around their mean: 120, 135, 118, 160, 142 ms? whole population", args: { numbers: [120, 135, 118, 160, 142] } },
    { say: "what's sigma for the class scores 88.5, 92, 79.5, 95, 85 (that's everyone, not a sample)?", args: { numbers: [88.5, 92, 79.5, 95, 85] } },
  ],
};

const MASK_SECRET: ReuseTask = {
  name: "text:mask_secret",
  intent: "mask a secret string with asterisks, leaving only its last few characters visible",
  code: String.raw`const s = String(args.secret), k = Math.max(0, s.length - args.visible);
return "*".repeat(k) + s.slice(k);`,
  expect: (a) => {
    const s = str(a, "secret");
    const k = Math.max(0, s.length - num(a, "visible"));
    return "*".repeat(k) + s.slice(k);
  },
  asks: [
    { say: "mask the token sk_live_4f9a8b7c leaving the last 4 characters visible", args: { secret: "sk_live_4f9a8b7c", visible: 4 } },
    { say: "I'm pasting an API key into a ticket, hide all but the final 6 of ghp_x81KdLq02mZp", args: { secret: "ghp_x81KdLq02mZp", visible: 6 } },
    { say: "show card number 4111111111111111 with only the last 4 digits, stars for the rest", args: { secret: "4111111111111111", visible: 4 } },
    { say: "star out everything except the trailing 3 chars of hunter2secret", args: { secret: "hunter2secret", visible: 3 } },
  ],
};

const BYTES_TO_HUMAN: ReuseTask = {
  name: "util:bytes_to_human",
  intent: "format a byte count as a human-readable size like 1.5 MB, in powers of 1024 with one decimal",
  code: String.raw`const units = ["B", "KB", "MB", "GB", "TB"];
let n = args.bytes, u = 0;
if (n < 1024) return n + " B";
while (n >= 1024 && u < units.length - 1) { n /= 1024; u++; }
return n.toFixed(1) + " " + units[u];`,
  expect: (a) => {
    const units = ["B", "KB", "MB", "GB", "TB"];
    let n = num(a, "bytes");
    let u = 0;
    if (n < 1024) return n + " B";
    while (n >= 1024 && u < units.length - 1) {
      n /= 1024;
      u++;
    }
    return n.toFixed(1) + " " + units[u];
  },
  asks: [
    { say: "format 1536 bytes as a human readable size", args: { bytes: 1536 } },
    { say: "the upload is 734003200 bytes; say it in KB/MB/GB the way a file manager shows it", args: { bytes: 734003200 } },
    { say: "how big is 5368709120 bytes in friendly units?", args: { bytes: 5368709120 } },
    { say: "display 999 bytes nicely for the size column", args: { bytes: 999 } },
  ],
};

const MD_LINK_TARGETS: ReuseTask = {
  name: "fs:markdown_link_targets",
  intent: "list the URLs that the inline links of a Markdown file point to, in order",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return [...t.matchAll(/\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)].map((m) => m[1]);`,
  expect: (a) => [...input(a).matchAll(/\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)].map((m) => m[1]),
  asks: [
    {
      say: "list the link URLs in docs/guide.md",
      args: { path: "docs/guide.md" },
      files: { "docs/guide.md": lines("# Guide", "", "Install [Node](https://nodejs.org) first.", "See the [FAQ](./faq.md) and [API](https://api.example.com/v2).") },
    },
    {
      say: "where do the links in README.md go? just the destinations",
      args: { path: "README.md" },
      files: { "README.md": lines("# pkg", "Builds run on [our CI](https://ci.example.com/pkg).", "", "MIT, see [LICENSE](LICENSE).") },
    },
    {
      say: "collect every hyperlink target from blog/post.md, I want to check for dead ones",
      args: { path: "blog/post.md" },
      files: {
        "blog/post.md": lines(
          "Yesterday I read [this paper](https://arxiv.org/abs/1234.5678).",
          'It builds on [earlier work](https://example.org/old "old") and',
          "[my last post](/2026/10/intro).",
        ),
      },
    },
  ],
};

const AGE_IN_YEARS: ReuseTask = {
  name: "date:age_in_years",
  intent: "compute a person's age in whole years on a given date from their birth date (both YYYY-MM-DD)",
  code: String.raw`const [by, bm, bd] = args.birthdate.split("-").map(Number);
const [y, m, d] = args.on.split("-").map(Number);
return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);`,
  expect: (a) => {
    const [by, bm, bd] = str(a, "birthdate").split("-").map(Number) as [number, number, number];
    const [y, m, d] = str(a, "on").split("-").map(Number) as [number, number, number];
    return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
  },
  asks: [
    { say: "how old is someone born 1990-05-17 on 2026-11-27?", args: { birthdate: "1990-05-17", on: "2026-11-27" } },
    { say: "born 2008-12-01: what age will they be on 2026-11-30, for the signup check?", args: { birthdate: "2008-12-01", on: "2026-11-30" } },
    { say: "a member whose birthday is 2000-02-29, how many years old were they as of 2024-02-28?", args: { birthdate: "2000-02-29", on: "2024-02-28" } },
  ],
};

const STRIP_HTML: ReuseTask = {
  name: "text:strip_html_tags",
  intent: "remove the HTML tags from a snippet and return its plain text with whitespace collapsed",
  code: String.raw`return String(args.html).replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();`,
  expect: (a) =>
    str(a, "html")
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  asks: [
    { say: "strip the tags from <p>Hello <b>world</b></p>", args: { html: "<p>Hello <b>world</b></p>" } },
    { say: 'give me just the words of this markup: <li><a href="/docs">Docs</a> and <em>more</em></li>', args: { html: '<li><a href="/docs">Docs</a> and <em>more</em></li>' } },
    { say: "what does <h1>Sale</h1><p>50% off today</p> say once the html is gone?", args: { html: "<h1>Sale</h1><p>50% off today</p>" } },
  ],
};

const SUM_JSON_FIELD: ReuseTask = {
  name: "json:sum_array_field",
  intent: "add up a numeric field across the objects of a JSON array file",
  code: String.raw`const items = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return Math.round(items.reduce((s, o) => s + Number(o[args.field] || 0), 0) * 100) / 100;`,
  expect: (a) => round2((JSON.parse(input(a)) as Record<string, unknown>[]).reduce((s, o) => s + Number(o[str(a, "field")] ?? 0), 0)),
  asks: [
    {
      say: "sum the price field over the items in shop/cart.json",
      args: { path: "shop/cart.json", field: "price" },
      files: {
        "shop/cart.json": JSON.stringify([
          { sku: "a", price: 4.99 },
          { sku: "b", price: 12.5 },
          { sku: "c", price: 0.99 },
        ]),
      },
    },
    {
      say: "what do all the amount values in billing/invoices.json come to?",
      args: { path: "billing/invoices.json", field: "amount" },
      files: {
        "billing/invoices.json": JSON.stringify(
          [
            { id: "INV-1", amount: 1200, paid: true },
            { id: "INV-2", amount: 340.75, paid: false },
            { id: "INV-3", amount: 89.25, paid: true },
          ],
          null,
          2,
        ),
      },
    },
    {
      say: "tracking/sessions.json logs my focus sessions; how many minutes is that altogether?",
      args: { path: "tracking/sessions.json", field: "minutes" },
      files: {
        "tracking/sessions.json": JSON.stringify([
          { day: "mon", minutes: 50 },
          { day: "mon", minutes: 25 },
          { day: "tue", minutes: 90 },
          { day: "wed", minutes: 45 },
        ]),
      },
    },
  ],
};

export const BLIND_2_TASKS: ReuseTask[] = [
  HEX_TO_RGB,
  DURATION_TO_SECONDS,
  SECONDS_TO_CLOCK,
  EXTRACT_EMAILS,
  EXTRACT_EMAILS_FILE,
  COUNT_DISTINCT,
  MOST_COMMON,
  SUM_BY_GROUP,
  CSV_TO_JSON,
  JSON_TO_CSV,
  BUMP_SEMVER,
  WEEKDAY_OF_DATE,
  LOG_LEVEL_COUNTS,
  ENV_KEYS_MISSING,
  LOAN_PAYMENT,
  STANDARD_DEVIATION,
  MASK_SECRET,
  BYTES_TO_HUMAN,
  MD_LINK_TARGETS,
  AGE_IN_YEARS,
  STRIP_HTML,
  SUM_JSON_FIELD,
];
