// The 18th blind reuse stream (`--tasks blind18`), written blind on 2026-12-07 by someone who saw
// only the format (bench/reuse-tasks.ts's types, helpers and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60
// requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names
// and kinds (longest vs shortest line, count vs line numbers of markers, minutes vs hours, lines
// kept vs dropped, key-value object vs export lines, one field vs another, later vs earlier, mean
// vs median) and 4 single tasks. The repeats are worded as different users on different days
// would ask (terse, chatty, a file name, jargon, typos, a non-native speaker); one repeat of each
// task shares a content word with its intent, the other shares none.
import { type Ask, csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const filled = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "");

const byLength = (a: Ask, longest: boolean) => {
  let best = "";
  let first = true;
  for (const l of filled(a)) {
    if (first || (longest ? l.length > best.length : l.length < best.length)) best = l;
    first = false;
  }
  return best;
};

const LONGEST_LINE: ReuseTask = {
  name: "text:find_longest_line",
  intent: "find the longest non-empty line in a text file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "");
let best = ls[0] ?? "";
for (const l of ls) if (l.length > best.length) best = l;
return best;`,
  expect: (a) => byLength(a, true),
  asks: [
    {
      say: "find the longest non-empty line in poems/haiku.txt",
      args: { path: "poems/haiku.txt" },
      files: { "poems/haiku.txt": lines("an old silent pond", "", "a frog jumps into the pond", "splash! silence again") },
    },
    {
      say: "which line is the longest in quotes/monday.txt",
      args: { path: "quotes/monday.txt" },
      files: { "quotes/monday.txt": lines("Carpe diem.", "Well begun is half done, said the teacher.", "", "Onward.", "Keep calm and carry on") },
    },
    {
      say: "wich row of drafts/slogans.md goes on the most?",
      args: { path: "drafts/slogans.md" },
      files: { "drafts/slogans.md": lines("Fresh every day", "Think big", "", "The bakery your grandmother would have opened", "Bread, reinvented") },
    },
  ],
};

const SHORTEST_LINE: ReuseTask = {
  name: "text:find_shortest_line",
  intent: "find the shortest non-empty line in a text file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "");
let best = ls[0] ?? "";
for (const l of ls) if (l.length < best.length) best = l;
return best;`,
  expect: (a) => byLength(a, false),
  asks: [
    {
      say: "find the shortest non-empty line in menu/dishes.txt",
      args: { path: "menu/dishes.txt" },
      files: { "menu/dishes.txt": lines("mushroom risotto", "pho", "", "grilled sea bass with lemon", "ramen bowl") },
    },
    {
      say: "shortest line in ops/hostnames.txt?",
      args: { path: "ops/hostnames.txt" },
      files: { "ops/hostnames.txt": lines("db-primary.internal", "cache-02.internal", "", "lb.internal", "search-node-7.internal") },
    },
    {
      say: "in todo/errands.txt, what entry is briefest? skip the blanks",
      args: { path: "todo/errands.txt" },
      files: { "todo/errands.txt": lines("pick up dry cleaning", "", "renew passport at city hall", "gym", "", "buy stamps") },
    },
  ],
};

const todoLines = (a: Ask) =>
  input(a)
    .split("\n")
    .flatMap((l, i) => (l.includes("TODO") ? [i + 1] : []));

const COUNT_TODOS: ReuseTask = {
  name: "code:count_todo_comments",
  intent: "count the TODO comments in a source file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.includes("TODO")).length;`,
  expect: (a) => todoLines(a).length,
  asks: [
    {
      say: "count the TODO comments in lib/app.js",
      args: { path: "lib/app.js" },
      files: { "lib/app.js": lines("const app = init();", "// TODO: read the port from env", "app.listen(3000);", "// TODO handle SIGTERM") },
    },
    {
      say: "how many TODO markers are left in server/routes.py",
      args: { path: "server/routes.py" },
      files: {
        "server/routes.py": lines(
          "from flask import Flask",
          "app = Flask(__name__)",
          "# TODO auth",
          "@app.get('/')",
          "def home():",
          "    # TODO cache this",
          "    return 'hi'",
          "# TODO tests",
        ),
      },
    },
    {
      say: "tech-debt markers left in pkg/worker.go, just the tally",
      args: { path: "pkg/worker.go" },
      files: { "pkg/worker.go": lines("package worker", "", "func Run() {", "\t// TODO: backoff", "\tfor {", "\t}", "}") },
    },
  ],
};

const TODO_LINES: ReuseTask = {
  name: "code:list_todo_line_numbers",
  intent: "list the line numbers of TODO comments in a source file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
t.split("\n").forEach((l, i) => { if (l.includes("TODO")) out.push(i + 1); });
return out;`,
  expect: (a) => todoLines(a),
  asks: [
    {
      say: "list the line numbers of TODO comments in lib/cart.js",
      args: { path: "lib/cart.js" },
      files: {
        "lib/cart.js": lines("export function total(items) {", "  // TODO: taxes", "  let s = 0;", "  for (const i of items) s += i.price;", "  // TODO round", "  return s;", "}"),
      },
    },
    {
      say: "on which lines of api/handlers.ts are the TODO comments?",
      args: { path: "api/handlers.ts" },
      files: {
        "api/handlers.ts": lines("// TODO split this file", "import { db } from './db';", "", "export async function get(id: string) {", "  return db.find(id); // TODO 404", "}"),
      },
    },
    {
      say: "where are the tech-debt markers in cmd/main.go? give me row positions",
      args: { path: "cmd/main.go" },
      files: { "cmd/main.go": lines("package main", "", 'import "fmt"', "", "func main() {", "\t// TODO flags", '\tfmt.Println("ok")', "\t// TODO exit code", "}") },
    },
  ],
};

const secondsTotal = (a: Ask) => {
  const [head, ...rows] = input(a)
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  const i = head!.indexOf("seconds");
  return rows.reduce((s, r) => s + Number(r[i]), 0);
};
const sumSecondsCode = (div: number) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.trim().split("\n").map((l) => l.split(","));
const i = rows[0].indexOf("seconds");
let s = 0;
for (const r of rows.slice(1)) s += Number(r[i]);
return Math.round((s / ${div}) * 100) / 100;`;

const SECONDS_AS_MINUTES: ReuseTask = {
  name: "time:sum_seconds_as_minutes",
  intent: "add up a seconds column and give the total in minutes, to 2 decimals",
  code: sumSecondsCode(60),
  expect: (a) => round2(secondsTotal(a) / 60),
  asks: [
    {
      say: "add up the seconds column of calls/june.csv and give the total in minutes, to 2 decimals",
      args: { path: "calls/june.csv" },
      files: {
        "calls/june.csv": csv("caller,seconds", [
          ["ana", 125],
          ["bo", 340],
          ["cy", 61],
        ]),
      },
    },
    {
      say: "how many minutes of talk time in support/week12.csv?",
      args: { path: "support/week12.csv" },
      files: {
        "support/week12.csv": csv("ticket,agent,seconds", [
          [101, "dee", 600],
          [102, "eli", 95],
          [103, "dee", 1210],
          [104, "fay", 33],
        ]),
      },
    },
    {
      say: "sum up the durations from runs/batch.csv, express it in mins",
      args: { path: "runs/batch.csv" },
      files: {
        "runs/batch.csv": csv("job,seconds,status", [
          ["etl", 4000, "ok"],
          ["report", 1500, "ok"],
          ["backup", 7300, "failed"],
        ]),
      },
    },
  ],
};

const SECONDS_AS_HOURS: ReuseTask = {
  name: "time:sum_seconds_as_hours",
  intent: "add up a seconds column and give the total in hours, to 2 decimals",
  code: sumSecondsCode(3600),
  expect: (a) => round2(secondsTotal(a) / 3600),
  asks: [
    {
      say: "add up the seconds column of shifts/oct.csv and give the total in hours, to 2 decimals",
      args: { path: "shifts/oct.csv" },
      files: {
        "shifts/oct.csv": csv("day,seconds", [
          ["mon", 28800],
          ["tue", 30600],
          ["wed", 25200],
        ]),
      },
    },
    {
      say: "hours worked per timesheets/ana.csv?",
      args: { path: "timesheets/ana.csv" },
      files: {
        "timesheets/ana.csv": csv("date,project,seconds", [
          ["2026-11-02", "alpha", 14400],
          ["2026-11-03", "beta", 9000],
          ["2026-11-04", "alpha", 19800],
        ]),
      },
    },
    {
      say: "wie lange insgesamt in h, file render/jobs.csv",
      args: { path: "render/jobs.csv" },
      files: {
        "render/jobs.csv": csv("frame_set,seconds", [
          ["intro", 5400],
          ["act1", 12600],
          ["credits", 900],
        ]),
      },
    },
  ],
};

const withWord = (a: Ask, keep: boolean) => filled(a).filter((l) => l.includes(a.args.word as string) === keep);

const KEEP_LINES: ReuseTask = {
  name: "text:keep_lines_with_word",
  intent: "keep only the lines of a file that contain a given word",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "" && l.includes(args.word));`,
  expect: (a) => withWord(a, true),
  asks: [
    {
      say: "keep only the lines of logs/app.log that contain the word timeout",
      args: { path: "logs/app.log", word: "timeout" },
      files: { "logs/app.log": lines("GET /a 200", "GET /b timeout after 30s", "POST /c 201", "", "GET /d timeout after 30s (retry)") },
    },
    {
      say: "grep WARN in var/sys.log",
      args: { path: "var/sys.log", word: "WARN" },
      files: { "var/sys.log": lines("INFO boot", "WARN fan speed low", "INFO net up", "WARN disk 91%", "ERROR kernel oops") },
    },
    {
      say: "show me just the lines mentioning disk in audit/report.txt",
      args: { path: "audit/report.txt", word: "disk" },
      files: { "audit/report.txt": lines("cpu ok", "disk sda healthy", "memory ok", "disk sdb degraded", "", "fans ok") },
    },
  ],
};

const DROP_LINES: ReuseTask = {
  name: "text:drop_lines_with_word",
  intent: "remove the lines of a file that contain a given word",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "" && !l.includes(args.word));`,
  expect: (a) => withWord(a, false),
  asks: [
    {
      say: "remove the lines of mail/inbox.txt that contain the word spam",
      args: { path: "mail/inbox.txt", word: "spam" },
      files: { "mail/inbox.txt": lines("from ana: lunch?", "from x: spam offer", "from bo: invoice", "", "from y: more spam") },
    },
    {
      say: "grep -v DEBUG on srv/out.log",
      args: { path: "srv/out.log", word: "DEBUG" },
      files: { "srv/out.log": lines("DEBUG conn pool 4", "INFO started", "DEBUG gc", "INFO ready", "ERROR lost db") },
    },
    {
      say: "filter out the lines that mention draft in docs/index.txt",
      args: { path: "docs/index.txt", word: "draft" },
      files: { "docs/index.txt": lines("intro.md", "setup.md (draft)", "api.md", "faq.md draft", "", "changelog.md") },
    },
  ],
};

const envPairs = (a: Ask) =>
  filled(a)
    .filter((l) => !l.trim().startsWith("#"))
    .map((l) => [l.slice(0, l.indexOf("=")).trim(), l.slice(l.indexOf("=") + 1).trim()] as const);

const ENV_TO_JSON: ReuseTask = {
  name: "env:parse_env_to_json",
  intent: "parse a KEY=VALUE settings file into a JSON object of keys and values",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = {};
for (const l of t.split("\n")) {
  if (l.trim() === "" || l.trim().startsWith("#")) continue;
  const i = l.indexOf("=");
  out[l.slice(0, i).trim()] = l.slice(i + 1).trim();
}
return out;`,
  expect: (a) => Object.fromEntries(envPairs(a)),
  asks: [
    {
      say: "parse config/local.conf into a JSON object of keys and values",
      args: { path: "config/local.conf" },
      files: { "config/local.conf": lines("# local", "PORT=8080", "HOST=localhost", "", "DEBUG=true") },
    },
    {
      say: "read stack/app.conf as a map",
      args: { path: "stack/app.conf" },
      files: { "stack/app.conf": lines("DB_URL=postgres://db:5432/app", "POOL=10", "# comment", "REGION=eu-west-1") },
    },
    {
      say: "keys and values of web/local.conf as json",
      args: { path: "web/local.conf" },
      files: { "web/local.conf": lines("API_BASE=https://api.example.test", "", "THEME=dark") },
    },
  ],
};

const ENV_TO_EXPORTS: ReuseTask = {
  name: "env:format_env_as_exports",
  intent: "turn a KEY=VALUE settings file into shell export lines",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const l of t.split("\n")) {
  if (l.trim() === "" || l.trim().startsWith("#")) continue;
  const i = l.indexOf("=");
  out.push("export " + l.slice(0, i).trim() + "=" + l.slice(i + 1).trim());
}
return out.join("\n");`,
  expect: (a) =>
    envPairs(a)
      .map(([k, v]) => `export ${k}=${v}`)
      .join("\n"),
  asks: [
    {
      say: "turn ops/deploy.conf into shell export lines",
      args: { path: "ops/deploy.conf" },
      files: { "ops/deploy.conf": lines("AWS_REGION=us-east-1", "# secret below", "BUCKET=logs-prod") },
    },
    {
      say: "I need export statements for svc/staging.conf",
      args: { path: "svc/staging.conf" },
      files: { "svc/staging.conf": lines("NODE_ENV=staging", "", "WORKERS=3", "QUEUE=jobs") },
    },
    {
      say: "make something I can source in bash from cfg/db.conf",
      args: { path: "cfg/db.conf" },
      files: { "cfg/db.conf": lines("PGHOST=10.0.0.5", "PGUSER=app", "# PGPASSWORD from vault", "PGDATABASE=main") },
    },
  ],
};

type Contact = { name: string; email: string; phone: string };
const contacts = (a: Ask) => JSON.parse(input(a)) as Contact[];

const CONTACT_EMAILS: ReuseTask = {
  name: "contacts:list_contact_emails",
  intent: "list the email addresses from a JSON contacts file",
  code: String.raw`const list = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return list.map((c) => c.email);`,
  expect: (a) => contacts(a).map((c) => c.email),
  asks: [
    {
      say: "list the email addresses from crm/leads.json",
      args: { path: "crm/leads.json" },
      files: {
        "crm/leads.json": json([
          { name: "Ana Ruiz", email: "ana@ruiz.test", phone: "+34 600 111 222" },
          { name: "Bo Lind", email: "bo@lind.test", phone: "+46 70 333 4444" },
        ]),
      },
    },
    {
      say: "email addresses in team/people.json pls",
      args: { path: "team/people.json" },
      files: {
        "team/people.json": json([
          { name: "Cy Park", email: "cy@corp.test", phone: "555-0101" },
          { name: "Dee Moss", email: "dee@corp.test", phone: "555-0102" },
          { name: "Eli Stone", email: "eli@corp.test", phone: "555-0103" },
        ]),
      },
    },
    {
      say: "where do I send messages to the folks in club/members.json?",
      args: { path: "club/members.json" },
      files: {
        "club/members.json": json([
          { name: "Fay Ito", email: "fay.ito@club.test", phone: "090-1234-5678" },
          { name: "Gus Hale", email: "gus@hale.test", phone: "07700 900123" },
        ]),
      },
    },
  ],
};

const CONTACT_PHONES: ReuseTask = {
  name: "contacts:list_contact_phones",
  intent: "list the phone numbers from a JSON contacts file",
  code: String.raw`const list = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return list.map((c) => c.phone);`,
  expect: (a) => contacts(a).map((c) => c.phone),
  asks: [
    {
      say: "list the phone numbers from crm/vendors.json",
      args: { path: "crm/vendors.json" },
      files: {
        "crm/vendors.json": json([
          { name: "Acme Paper", email: "sales@acme.test", phone: "+1 212 555 0199" },
          { name: "Blue Ink", email: "hi@blueink.test", phone: "+1 415 555 0142" },
        ]),
      },
    },
    {
      say: "phone numbers for everyone in hr/staff.json",
      args: { path: "hr/staff.json" },
      files: {
        "hr/staff.json": json([
          { name: "Hal Ng", email: "hal@firm.test", phone: "020 7946 0001" },
          { name: "Ivy Roe", email: "ivy@firm.test", phone: "020 7946 0002" },
          { name: "Jon Bek", email: "jon@firm.test", phone: "020 7946 0003" },
        ]),
      },
    },
    {
      say: "whom can I ring? gimme the digits from club/board.json",
      args: { path: "club/board.json" },
      files: {
        "club/board.json": json([
          { name: "Kim Sato", email: "kim@board.test", phone: "03-5555-0100" },
          { name: "Lou Berg", email: "lou@board.test", phone: "0171 5550123" },
        ]),
      },
    },
  ],
};

const shifted = (a: Ask, sign: number) => {
  const [h, m] = (a.args.time as string).split(":").map(Number);
  const t = (((h! * 60 + m! + sign * (a.args.minutes as number)) % 1440) + 1440) % 1440;
  return `${String(Math.floor(t / 60)).padStart(2, "0")}:${String(t % 60).padStart(2, "0")}`;
};
const shiftCode = (sign: string) => String.raw`const [h, m] = args.time.split(":").map(Number);
let t = (h * 60 + m ${sign} Number(args.minutes)) % 1440;
if (t < 0) t += 1440;
return String(Math.floor(t / 60)).padStart(2, "0") + ":" + String(t % 60).padStart(2, "0");`;

const SHIFT_LATER: ReuseTask = {
  name: "clock:shift_time_later",
  intent: "shift a clock time later by a number of minutes",
  code: shiftCode("+"),
  expect: (a) => shifted(a, 1),
  asks: [
    { say: "shift 09:40 later by 35 minutes", args: { time: "09:40", minutes: 35 } },
    { say: "what's 23:50 plus 25 min?", args: { time: "23:50", minutes: 25 } },
    { say: "the meeting at 14:15 got moved later by 90 minutes, new time?", args: { time: "14:15", minutes: 90 } },
  ],
};

const SHIFT_EARLIER: ReuseTask = {
  name: "clock:shift_time_earlier",
  intent: "shift a clock time earlier by a number of minutes",
  code: shiftCode("-"),
  expect: (a) => shifted(a, -1),
  asks: [
    { say: "shift 10:20 earlier by 45 minutes", args: { time: "10:20", minutes: 45 } },
    { say: "00:10 minus 30 min", args: { time: "00:10", minutes: 30 } },
    { say: "train time is 18:05, I want to leave 70 minutes earlier, when is that?", args: { time: "18:05", minutes: 70 } },
  ],
};

const column = (a: Ask) => {
  const [head, ...rows] = input(a)
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  const i = head!.indexOf(a.args.column as string);
  return rows.map((r) => Number(r[i]));
};
const readColumn = String.raw`const rows = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\n").map((l) => l.split(","));
const i = rows[0].indexOf(args.column);
const xs = rows.slice(1).map((r) => Number(r[i]));
`;

const COLUMN_MEAN: ReuseTask = {
  name: "stats:compute_column_mean",
  intent: "compute the mean of a numeric column in a table",
  code: `${readColumn}return Math.round((xs.reduce((s, x) => s + x, 0) / xs.length) * 100) / 100;`,
  expect: (a) => {
    const xs = column(a);
    return round2(xs.reduce((s, x) => s + x, 0) / xs.length);
  },
  asks: [
    {
      say: "compute the mean of the price column in shop/items.csv",
      args: { path: "shop/items.csv", column: "price" },
      files: {
        "shop/items.csv": csv("item,price", [
          ["pen", 2],
          ["mug", 8],
          ["lamp", 45],
          ["cap", 5],
        ]),
      },
    },
    {
      say: "avg of latency_ms in perf/run3.csv",
      args: { path: "perf/run3.csv", column: "latency_ms" },
      files: {
        "perf/run3.csv": csv("req,latency_ms", [
          [1, 12],
          [2, 15],
          [3, 11],
          [4, 240],
          [5, 14],
        ]),
      },
    },
    {
      say: "what's the mean score in class/quiz.csv?",
      args: { path: "class/quiz.csv", column: "score" },
      files: {
        "class/quiz.csv": csv("student,score", [
          ["ana", 9],
          ["bo", 7],
          ["cy", 2],
          ["dee", 10],
          ["eli", 8],
          ["fay", 9],
        ]),
      },
    },
  ],
};

const COLUMN_MEDIAN: ReuseTask = {
  name: "stats:compute_column_median",
  intent: "compute the median of a numeric column in a table",
  code: `${readColumn}xs.sort((p, q) => p - q);
const n = xs.length;
return n % 2 ? xs[(n - 1) / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;`,
  expect: (a) => {
    const xs = [...column(a)].sort((p, q) => p - q);
    const n = xs.length;
    return n % 2 === 1 ? xs[(n - 1) / 2] : (xs[n / 2 - 1]! + xs[n / 2]!) / 2;
  },
  asks: [
    {
      say: "compute the median of the rent column in city/flats.csv",
      args: { path: "city/flats.csv", column: "rent" },
      files: {
        "city/flats.csv": csv("flat,rent", [
          ["a", 900],
          ["b", 1200],
          ["c", 4000],
          ["d", 1100],
          ["e", 950],
        ]),
      },
    },
    {
      say: "middle value of age, people/survey.csv",
      args: { path: "people/survey.csv", column: "age" },
      files: {
        "people/survey.csv": csv("id,age", [
          [1, 23],
          [2, 31],
          [3, 67],
          [4, 29],
        ]),
      },
    },
    {
      say: "median salary from hr/pay.csv?",
      args: { path: "hr/pay.csv", column: "salary" },
      files: {
        "hr/pay.csv": csv("name,salary", [
          ["ivy", 52000],
          ["jon", 48000],
          ["kim", 250000],
          ["lou", 50000],
          ["max", 61000],
          ["ned", 47000],
        ]),
      },
    },
  ],
};

const REVERSE_TO_FILE: ReuseTask = {
  name: "fs:write_lines_reversed",
  intent: "write a file's lines in reverse order to another file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "").reverse();
await mcp.filesystem.write_file({ path: args.out, content: ls.join("\n") + "\n" });
return ls.length;`,
  expect: (a) => filled(a).length,
  leaves: (a) => ({ [a.args.out as string]: lines(...filled(a).reverse()) }),
  asks: [
    {
      say: "write the lines of notes/steps.txt in reverse order to notes/steps_rev.txt",
      args: { path: "notes/steps.txt", out: "notes/steps_rev.txt" },
      files: { "notes/steps.txt": lines("preheat oven", "mix flour and eggs", "", "bake 20 minutes") },
    },
    {
      say: "flip music/playlist.m3u upside down into music/playlist_flipped.m3u",
      args: { path: "music/playlist.m3u", out: "music/playlist_flipped.m3u" },
      files: { "music/playlist.m3u": lines("intro.mp3", "track01.mp3", "track02.mp3", "outro.mp3", "bonus.mp3") },
    },
    {
      say: "reverse history/log.txt line order, save as history/log_back.txt",
      args: { path: "history/log.txt", out: "history/log_back.txt" },
      files: { "history/log.txt": lines("v1 shipped", "v2 shipped", "", "v3 shipped") },
    },
  ],
};

const COUNT_VOWELS: ReuseTask = {
  name: "text:tally_vowels_in_text",
  intent: "count the vowels in a piece of text",
  code: String.raw`return (String(args.text).match(/[aeiou]/gi) || []).length;`,
  expect: (a) => [...(a.args.text as string).toLowerCase()].filter((c) => "aeiou".includes(c)).length,
  asks: [
    { say: "count the vowels in 'Programming is fun'", args: { text: "Programming is fun" } },
    { say: "how many a/e/i/o/u letters are in 'Banana Republic Outlet'", args: { text: "Banana Republic Outlet" } },
    { say: "vowels in: Queueing Theory", args: { text: "Queueing Theory" } },
  ],
};

const hostsOf = (a: Ask) => [...new Set(filled(a).map((l) => new URL(l.trim()).hostname))].sort();

const UNIQUE_HOSTS: ReuseTask = {
  name: "url:list_unique_hosts",
  intent: "list the distinct host names of the URLs in a file, sorted",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const hs = new Set(t.split("\n").filter((l) => l.trim() !== "").map((l) => l.trim().match(/^[a-z]+:\/\/([^/:?#]+)/i)[1]));
return [...hs].sort();`,
  expect: hostsOf,
  asks: [
    {
      say: "list the distinct host names of the URLs in links/bookmarks.txt, sorted",
      args: { path: "links/bookmarks.txt" },
      files: { "links/bookmarks.txt": lines("https://news.example.test/a", "https://blog.example.test/post/1", "https://news.example.test/b") },
    },
    {
      say: "which domains show up in crawl/seen.txt? dedupe + a-z",
      args: { path: "crawl/seen.txt" },
      files: { "crawl/seen.txt": lines("http://zeta.test/x", "https://alpha.test/", "", "https://zeta.test/y?q=1", "https://mid.test:8443/p") },
    },
    {
      say: "unique hosts from the urls in refs/sources.md",
      args: { path: "refs/sources.md" },
      files: { "refs/sources.md": lines("https://docs.lib.test/intro", "https://docs.lib.test/api", "https://wiki.test/Page", "https://cdn.lib.test/x.js") },
    },
  ],
};

const DAYS_IN_MONTH: ReuseTask = {
  name: "date:count_days_in_month",
  intent: "count the days in a given month of a year",
  code: String.raw`return new Date(Date.UTC(Number(args.year), Number(args.month), 0)).getUTCDate();`,
  expect: (a) => {
    const y = a.args.year as number;
    const m = a.args.month as number;
    const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  },
  asks: [
    { say: "count the days in month 2 of 2028", args: { year: 2028, month: 2 } },
    { say: "how long is february 2100, in days?", args: { year: 2100, month: 2 } },
    { say: "length of april 2031?", args: { year: 2031, month: 4 } },
  ],
};

export const BLIND_18_TASKS: ReuseTask[] = [
  LONGEST_LINE,
  COUNT_TODOS,
  SECONDS_AS_MINUTES,
  KEEP_LINES,
  ENV_TO_JSON,
  CONTACT_EMAILS,
  SHIFT_LATER,
  COLUMN_MEAN,
  REVERSE_TO_FILE,
  SHORTEST_LINE,
  TODO_LINES,
  SECONDS_AS_HOURS,
  DROP_LINES,
  COUNT_VOWELS,
  ENV_TO_EXPORTS,
  CONTACT_PHONES,
  SHIFT_EARLIER,
  UNIQUE_HOSTS,
  COLUMN_MEDIAN,
  DAYS_IN_MONTH,
];
