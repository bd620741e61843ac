// The 17th blind reuse stream (`--tasks blind17`), written blind on 2026-12-07 by someone who saw
// only the format (bench/reuse-tasks.ts's types, shared functions and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60
// requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names
// and kinds (a contact's email vs phone, enabled vs commented-out cron entries, a timesheet's total
// in minutes vs decimal hours, rotating lines left vs right, newest vs oldest changelog release,
// count vs ids of orders above a minimum, names as "First Last" vs "Last, First", adding vs
// removing line numbers in a written copy) and 4 single tasks. The repeats are worded as different
// users on different days would ask (terse, chatty, a file name, jargon, typos, a non-native
// speaker); one repeat of each task shares a content word with its intent, the other shares none.
import { type Ask, csv, input, lines, type ReuseTask } from "./reuse-tasks.ts";

const rows = (a: Ask) => {
  const [head, ...rest] = input(a)
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  return rest.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ""])));
};
const textLines = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "");

// ---- a contact's email vs phone --------------------------------------------------------------

const CONTACT_EMAILS: ReuseTask = {
  name: "contacts:list_email_addresses",
  intent: "list the email addresses of a contacts table, in file order",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.trim().split("\n");
const head = ls[0].split(",");
const i = head.indexOf("email");
return ls.slice(1).filter((l) => l.trim() !== "").map((l) => l.split(",")[i]);`,
  expect: (a) => rows(a).map((r) => r.email),
  asks: [
    {
      say: "list the email addresses in crm/contacts.csv, in file order",
      args: { path: "crm/contacts.csv" },
      files: {
        "crm/contacts.csv": csv("name,email,phone", [
          ["Ana Lima", "ana@lima.dev", "+351 912 000 111"],
          ["Bo Kim", "bo.kim@mail.kr", "+82 10 5555 0101"],
          ["Chen Wei", "chen@wei.cn", "+86 138 0000 2222"],
        ]),
      },
    },
    {
      say: "email column of people/team.csv pls",
      args: { path: "people/team.csv" },
      files: {
        "people/team.csv": csv("name,email,phone", [
          ["Dara Okafor", "dara@okafor.ng", "+234 803 111 2222"],
          ["Eli Cohen", "eli@cohen.il", "+972 50 123 4567"],
        ]),
      },
    },
    {
      say: "I want to mail everyone in club/members.csv, what are their inboxes? top to bottom",
      args: { path: "club/members.csv" },
      files: {
        "club/members.csv": csv("name,email,phone", [
          ["Fatou Diop", "fatou@diop.sn", "+221 77 000 1111"],
          ["Gus Berg", "gus@berg.se", "+46 70 222 3333"],
          ["Hana Sato", "hana@sato.jp", "+81 90 4444 5555"],
          ["Ivo Petrov", "ivo@petrov.bg", "+359 88 666 7777"],
        ]),
      },
    },
  ],
};

const CONTACT_PHONES: ReuseTask = {
  name: "contacts:list_phone_numbers",
  intent: "list the phone numbers of a contacts table, in file order",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.trim().split("\n");
const head = ls[0].split(",");
const i = head.indexOf("phone");
return ls.slice(1).filter((l) => l.trim() !== "").map((l) => l.split(",")[i]);`,
  expect: (a) => rows(a).map((r) => r.phone),
  asks: [
    {
      say: "list the phone numbers in sales/contacts.csv, in file order",
      args: { path: "sales/contacts.csv" },
      files: {
        "sales/contacts.csv": csv("name,email,phone", [
          ["Jo Park", "jo@park.us", "+1 415 555 0199"],
          ["Kai Nakamura", "kai@naka.jp", "+81 80 1234 5678"],
          ["Lea Roux", "lea@roux.fr", "+33 6 12 34 56 78"],
        ]),
      },
    },
    {
      say: "phone column of vendors/suppliers.csv",
      args: { path: "vendors/suppliers.csv" },
      files: {
        "vendors/suppliers.csv": csv("name,email,phone", [
          ["Mo Salah", "mo@nile.eg", "+20 100 000 0001"],
          ["Nia Jones", "nia@jones.uk", "+44 7700 900123"],
        ]),
      },
    },
    {
      say: "gonna ring each person in staff/oncall.csv, give me what I should dial, same sequence as they appear",
      args: { path: "staff/oncall.csv" },
      files: {
        "staff/oncall.csv": csv("name,email,phone", [
          ["Oli Hart", "oli@hart.au", "+61 412 345 678"],
          ["Pia Berg", "pia@berg.no", "+47 912 34 567"],
          ["Quin Li", "quin@li.sg", "+65 8123 4567"],
        ]),
      },
    },
  ],
};

// ---- enabled vs commented-out cron entries ----------------------------------------------------

const CRON_FIELD = /^[\d*/,-]+$/;
const cronCommand = (line: string) => {
  const f = line.trim().split(/\s+/);
  return f.length >= 6 && f.slice(0, 5).every((x) => CRON_FIELD.test(x)) ? f.slice(5).join(" ") : undefined;
};
const cronEntries = (a: Ask, commented: boolean) =>
  input(a)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && l.startsWith("#") === commented)
    .map((l) => cronCommand(l.replace(/^#\s*/, "")))
    .filter((c): c is string => c !== undefined);

const CRON_CODE = (commented: boolean) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const raw of t.split("\n")) {
  const l = raw.trim();
  if (l === "" || l.startsWith("#") !== ${commented}) continue;
  const f = l.replace(/^#\s*/, "").split(/\s+/);
  if (f.length < 6 || !f.slice(0, 5).every((x) => /^[\d*\/,-]+$/.test(x))) continue;
  out.push(f.slice(5).join(" "));
}
return out;`;

const CRON_ACTIVE: ReuseTask = {
  name: "cron:list_enabled_commands",
  intent: "list the commands of the enabled entries in a crontab file",
  code: CRON_CODE(false),
  expect: (a) => cronEntries(a, false),
  asks: [
    {
      say: "list the commands of the enabled entries in ops/crontab",
      args: { path: "ops/crontab" },
      files: {
        "ops/crontab": lines(
          "MAILTO=ops@example.com",
          "# rotate logs nightly",
          "0 2 * * * /usr/sbin/logrotate /etc/logrotate.conf",
          "# */5 * * * * /opt/bin/poll-queue",
          "30 6 * * 1-5 /opt/bin/report --daily",
        ),
      },
    },
    {
      say: "which jobs actually run from the crontab at infra/web.cron? not the commented ones",
      args: { path: "infra/web.cron" },
      files: {
        "infra/web.cron": lines(
          "# web tier",
          "*/10 * * * * /srv/web/bin/warm-cache",
          "#0 3 * * 0 /srv/web/bin/purge-cdn",
          "#15 4 * * * /srv/web/bin/sitemap",
          "45 23 * * * /srv/web/bin/backup-uploads",
        ),
      },
    },
    {
      say: "what does the scheduler on box db01 execute? see etc/db01.cron, skip lines with a hash in front",
      args: { path: "etc/db01.cron" },
      files: {
        "etc/db01.cron": lines(
          "SHELL=/bin/bash",
          "# 0 1 * * * pg_dump shop > /backup/shop.sql",
          "0 */6 * * * vacuumdb --all --analyze",
          "",
          "# disabled while migrating",
          "# 20 5 * * 6 /opt/db/reindex.sh",
        ),
      },
    },
  ],
};

const CRON_DISABLED: ReuseTask = {
  name: "cron:list_commented_out_commands",
  intent: "list the commands of the commented-out entries in a crontab file",
  code: CRON_CODE(true),
  expect: (a) => cronEntries(a, true),
  asks: [
    {
      say: "list the commands of the commented-out entries in ops/backup.crontab",
      args: { path: "ops/backup.crontab" },
      files: {
        "ops/backup.crontab": lines("# backups", "0 1 * * * /opt/backup/run --full", "# 0 */4 * * * /opt/backup/run --incremental", "#30 2 * * 0 /opt/backup/verify"),
      },
    },
    {
      say: "crontab jobs someone switched off in srv/app.cron?",
      args: { path: "srv/app.cron" },
      files: {
        "srv/app.cron": lines(
          "*/2 * * * * /srv/app/bin/heartbeat",
          "# 5 0 * * * /srv/app/bin/expire-sessions",
          "# app jobs below are owned by team-b",
          "0 9 * * 1 /srv/app/bin/weekly-digest",
        ),
      },
    },
    {
      say: "in etc/mail.cron which scheduled jobs are turned off with a # ? just what they would run",
      args: { path: "etc/mail.cron" },
      files: {
        "etc/mail.cron": lines(
          "MAILTO=root",
          "*/15 * * * * /usr/bin/fetchmail -s",
          "#0 4 * * * /usr/bin/sa-learn --sync",
          "# 10 4 * * * /usr/local/bin/clean-spool",
          "20 4 * * * /usr/bin/postqueue -f",
        ),
      },
    },
  ],
};

// ---- a timesheet's total in minutes vs decimal hours ------------------------------------------

const loggedMinutes = (a: Ask) =>
  textLines(a).reduce((s, l) => {
    const m = l.match(/(\d+):(\d\d)/);
    return m ? s + Number(m[1]) * 60 + Number(m[2]) : s;
  }, 0);
const SHEET_CODE = (tail: string) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let total = 0;
for (const l of t.split("\n")) {
  const m = l.match(/(\d+):(\d\d)/);
  if (m) total += Number(m[1]) * 60 + Number(m[2]);
}
${tail}`;

const SHEET_MINUTES: ReuseTask = {
  name: "timesheet:total_logged_minutes",
  intent: "add up the hours:minutes entries of a timesheet file and give the total in minutes",
  code: SHEET_CODE("return total;"),
  expect: (a) => loggedMinutes(a),
  asks: [
    {
      say: "add up the hours:minutes entries of work/timesheet.txt and give the total in minutes",
      args: { path: "work/timesheet.txt" },
      files: { "work/timesheet.txt": lines("2025-03-03 7:45 backend", "2025-03-04 8:10 backend", "2025-03-05 6:30 reviews") },
    },
    {
      say: "how many minutes did I log in march/week10.txt",
      args: { path: "march/week10.txt" },
      files: { "march/week10.txt": lines("mon 8:00 support", "tue 7:20 support", "wed 4:05 training", "thu 9:15 release") },
    },
    {
      say: "logs/anna-w11.txt, how long altogether? answer in mins",
      args: { path: "logs/anna-w11.txt" },
      files: { "logs/anna-w11.txt": lines("2025-03-10 5:50 design", "2025-03-11 6:40 design", "", "2025-03-12 2:25 meetings") },
    },
  ],
};

const SHEET_HOURS: ReuseTask = {
  name: "timesheet:total_logged_decimal_hours",
  intent: "add up the hours:minutes entries of a timesheet file and give the total in decimal hours, rounded to 2 places",
  code: SHEET_CODE("return Math.round((total / 60) * 100) / 100;"),
  expect: (a) => Math.round((loggedMinutes(a) / 60) * 100) / 100,
  asks: [
    {
      say: "add up the hours:minutes entries of work/jan.timesheet and give the total in decimal hours, rounded to 2 places",
      args: { path: "work/jan.timesheet" },
      files: { "work/jan.timesheet": lines("2025-01-06 8:30 onboarding", "2025-01-07 7:15 setup", "2025-01-08 6:45 tickets") },
    },
    {
      say: "billable hours in clients/acme-feb.txt as a decimal number?",
      args: { path: "clients/acme-feb.txt" },
      files: { "clients/acme-feb.txt": lines("feb 03 3:20 audit", "feb 04 2:50 audit", "feb 06 1:10 call") },
    },
    {
      say: "bitte, wie viel Zeit steht in logs/ben-w07.txt? in h, like 12.5",
      args: { path: "logs/ben-w07.txt" },
      files: { "logs/ben-w07.txt": lines("mo 9:00 lager", "di 8:40 lager", "mi 7:55 inventur", "do 4:10 schulung") },
    },
  ],
};

// ---- rotating lines left vs right -------------------------------------------------------------

const rotate = (a: Ask, left: boolean) => {
  const ls = textLines(a);
  const k = Number(a.args.n) % ls.length;
  const cut = left ? k : ls.length - k;
  return [...ls.slice(cut), ...ls.slice(0, cut)];
};
const ROTATE_CODE = (left: boolean) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "");
const k = Number(args.n) % ls.length;
const cut = ${left ? "k" : "ls.length - k"};
return ls.slice(cut).concat(ls.slice(0, cut));`;

const ROTATE_LEFT: ReuseTask = {
  name: "list:rotate_lines_left",
  intent: "rotate the lines of a text file left by n places (the first n lines move to the end)",
  code: ROTATE_CODE(true),
  expect: (a) => rotate(a, true),
  asks: [
    {
      say: "rotate the lines of queue/today.txt left by 2 places",
      args: { path: "queue/today.txt", n: 2 },
      files: { "queue/today.txt": lines("ana", "bo", "chen", "dara", "eli") },
    },
    {
      say: "rotate shifts/rota.txt by 1, the top one goes to the bottom",
      args: { path: "shifts/rota.txt", n: 1 },
      files: { "shifts/rota.txt": lines("Mon: Gus", "Tue: Hana", "Wed: Ivo", "Thu: Jo") },
    },
    {
      say: "cycle players/order.txt so the opening 3 names wrap round to the back",
      args: { path: "players/order.txt", n: 3 },
      files: { "players/order.txt": lines("Kai", "Lea", "Mo", "Nia", "Oli", "Pia", "Quin") },
    },
  ],
};

const ROTATE_RIGHT: ReuseTask = {
  name: "list:rotate_lines_right",
  intent: "rotate the lines of a text file right by n places (the last n lines move to the front)",
  code: ROTATE_CODE(false),
  expect: (a) => rotate(a, false),
  asks: [
    {
      say: "rotate the lines of queue/night.txt right by 2 places",
      args: { path: "queue/night.txt", n: 2 },
      files: { "queue/night.txt": lines("rex", "sol", "tam", "uma", "vic") },
    },
    {
      say: "rotate right by 1: duty/weekend.txt",
      args: { path: "duty/weekend.txt", n: 1 },
      files: { "duty/weekend.txt": lines("Sat AM Wes", "Sat PM Xia", "Sun AM Yan", "Sun PM Zoe") },
    },
    {
      say: "in speakers/slots.txt bring the bottom 3 up to the top, keep the rest in sequence",
      args: { path: "speakers/slots.txt", n: 3 },
      files: { "speakers/slots.txt": lines("09:00 keynote", "10:00 rust", "11:00 wasm", "13:00 gpu", "14:00 llm", "15:00 panel", "16:00 close") },
    },
  ],
};

// ---- newest vs oldest changelog release -------------------------------------------------------

const releases = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => l.match(/^##\s+\[?v?(\d+\.\d+\.\d+)\]?/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => m[1]!);
const RELEASE_CODE = (pick: string) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const vs = [];
for (const l of t.split("\n")) {
  const m = l.match(/^##\s+\[?v?(\d+\.\d+\.\d+)\]?/);
  if (m) vs.push(m[1]);
}
return ${pick};`;

const CHANGELOG_NEWEST: ReuseTask = {
  name: "changelog:newest_release_version",
  intent: "give the version of the newest release in a markdown changelog",
  code: RELEASE_CODE("vs[0] ?? null"),
  expect: (a) => releases(a)[0] ?? null,
  asks: [
    {
      say: "give the version of the newest release in CHANGELOG.md",
      args: { path: "CHANGELOG.md" },
      files: {
        "CHANGELOG.md": lines(
          "# Changelog",
          "",
          "## [Unreleased]",
          "- wip",
          "",
          "## [2.3.1] - 2025-05-02",
          "- fix",
          "",
          "## [2.3.0] - 2025-04-11",
          "- feat",
          "",
          "## [2.2.0] - 2025-02-20",
          "- feat",
        ),
      },
    },
    {
      say: "latest release of libs/parser/CHANGELOG.md?",
      args: { path: "libs/parser/CHANGELOG.md" },
      files: { "libs/parser/CHANGELOG.md": lines("# parser", "", "## 0.9.4", "- perf", "", "## 0.9.3", "- fix", "", "## 0.8.0", "- first beta") },
    },
    {
      say: "what did pkg/ui/HISTORY.md ship most recently, which semver",
      args: { path: "pkg/ui/HISTORY.md" },
      files: {
        "pkg/ui/HISTORY.md": lines(
          "# History",
          "",
          "## v5.0.0 (2025-06-01)",
          "- breaking: new theme api",
          "",
          "## v4.7.2 (2025-03-15)",
          "- fix",
          "",
          "## v4.7.0 (2025-01-09)",
          "- dark mode",
        ),
      },
    },
  ],
};

const CHANGELOG_OLDEST: ReuseTask = {
  name: "changelog:oldest_release_version",
  intent: "give the version of the oldest release in a markdown changelog",
  code: RELEASE_CODE("vs.length ? vs[vs.length - 1] : null"),
  expect: (a) => releases(a).at(-1) ?? null,
  asks: [
    {
      say: "give the version of the oldest release in docs/CHANGELOG.md",
      args: { path: "docs/CHANGELOG.md" },
      files: {
        "docs/CHANGELOG.md": lines("# Changelog", "", "## [1.2.0] - 2025-03-01", "- feat", "", "## [1.1.0] - 2024-12-01", "- feat", "", "## [1.0.0] - 2024-09-15", "- stable"),
      },
    },
    {
      say: "first ever version listed in tools/lint/CHANGELOG.md",
      args: { path: "tools/lint/CHANGELOG.md" },
      files: { "tools/lint/CHANGELOG.md": lines("# lint", "", "## 3.1.0", "- rules", "", "## 3.0.0", "- rewrite", "", "## 2.4.5", "- fix", "", "## 2.4.0", "- import") },
    },
    {
      say: "pkg/db/HISTORY.md: which semver did it start at? the initial entry at the bottom",
      args: { path: "pkg/db/HISTORY.md" },
      files: { "pkg/db/HISTORY.md": lines("# History", "", "## v0.6.0 (2025-05-20)", "- pooling", "", "## v0.5.1 (2025-02-02)", "- fix", "", "## v0.1.0 (2024-07-07)", "- hello") },
    },
  ],
};

// ---- count vs ids of orders above a minimum ---------------------------------------------------

const bigOrders = (a: Ask) => rows(a).filter((r) => Number(r.total) > Number(a.args.min));
const ORDERS_CODE = (tail: string) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.trim().split("\n");
const head = ls[0].split(",");
const it = head.indexOf("total");
const ii = head.indexOf("id");
const big = ls.slice(1).map((l) => l.split(",")).filter((r) => Number(r[it]) > Number(args.min));
${tail}`;

const ORDERS_COUNT: ReuseTask = {
  name: "orders:count_orders_above_minimum",
  intent: "count the orders in a table whose total is above a minimum amount",
  code: ORDERS_CODE("return big.length;"),
  expect: (a) => bigOrders(a).length,
  asks: [
    {
      say: "count the orders in shop/orders.csv whose total is above 100",
      args: { path: "shop/orders.csv", min: 100 },
      files: {
        "shop/orders.csv": csv("id,customer,total", [
          ["A-101", "ana", 45.5],
          ["A-102", "bo", 120],
          ["A-103", "chen", 310.25],
          ["A-104", "dara", 99.99],
        ]),
      },
    },
    {
      say: "how many orders over 250 in q2/orders.csv",
      args: { path: "q2/orders.csv", min: 250 },
      files: {
        "q2/orders.csv": csv("id,customer,total", [
          ["Q2-1", "eli", 251],
          ["Q2-2", "fatou", 80],
          ["Q2-3", "gus", 999],
        ]),
      },
    },
    {
      say: "big baskets in eu/sales-may.csv: how many went past 80 euros?",
      args: { path: "eu/sales-may.csv", min: 80 },
      files: {
        "eu/sales-may.csv": csv("id,customer,total", [
          ["M-7", "hana", 81.2],
          ["M-8", "ivo", 12],
          ["M-9", "jo", 80],
          ["M-10", "kai", 140],
          ["M-11", "lea", 300],
        ]),
      },
    },
  ],
};

const ORDERS_IDS: ReuseTask = {
  name: "orders:list_order_ids_above_minimum",
  intent: "list the ids of the orders in a table whose total is above a minimum amount",
  code: ORDERS_CODE("return big.map((r) => r[ii]);"),
  expect: (a) => bigOrders(a).map((r) => r.id),
  asks: [
    {
      say: "list the ids of the orders in shop/march.csv whose total is above 100",
      args: { path: "shop/march.csv", min: 100 },
      files: {
        "shop/march.csv": csv("id,customer,total", [
          ["B-201", "mo", 150],
          ["B-202", "nia", 20],
          ["B-203", "oli", 100.01],
        ]),
      },
    },
    {
      say: "ids of everything over 60 in q3/orders.csv",
      args: { path: "q3/orders.csv", min: 60 },
      files: {
        "q3/orders.csv": csv("id,customer,total", [
          ["Q3-1", "pia", 59.9],
          ["Q3-2", "quin", 61],
          ["Q3-3", "rex", 75],
          ["Q3-4", "sol", 10],
        ]),
      },
    },
    {
      say: "which purchases in us/sales-jun.csv topped 500 dollars? give me their references",
      args: { path: "us/sales-jun.csv", min: 500 },
      files: {
        "us/sales-jun.csv": csv("id,customer,total", [
          ["J-31", "tam", 720],
          ["J-32", "uma", 500],
          ["J-33", "vic", 1250.5],
        ]),
      },
    },
  ],
};

// ---- names as "First Last" vs "Last, First" ---------------------------------------------------

const ROSTER_CODE = (fmt: string) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.trim().split("\n");
const head = ls[0].split(",");
const f = head.indexOf("first");
const l = head.indexOf("last");
return ls.slice(1).filter((x) => x.trim() !== "").map((x) => x.split(",")).map((r) => ${fmt});`;

const ROSTER_FIRST_LAST: ReuseTask = {
  name: "roster:names_first_then_last",
  intent: "list the people of a roster table as 'First Last'",
  code: ROSTER_CODE("r[f] + ' ' + r[l]"),
  expect: (a) => rows(a).map((r) => `${r.first} ${r.last}`),
  asks: [
    {
      say: "list the people of club/roster.csv as 'First Last'",
      args: { path: "club/roster.csv" },
      files: {
        "club/roster.csv": csv("first,last,role", [
          ["Ada", "Lovelace", "captain"],
          ["Alan", "Turing", "keeper"],
          ["Grace", "Hopper", "coach"],
        ]),
      },
    },
    {
      say: "roster names for team/a.csv, given name then surname",
      args: { path: "team/a.csv" },
      files: {
        "team/a.csv": csv("first,last,role", [
          ["Katherine", "Johnson", "lead"],
          ["Edsger", "Dijkstra", "dev"],
        ]),
      },
    },
    {
      say: "badges for event/attendees.csv: forename space family name, each one",
      args: { path: "event/attendees.csv" },
      files: {
        "event/attendees.csv": csv("first,last,role", [
          ["Barbara", "Liskov", "speaker"],
          ["Donald", "Knuth", "guest"],
          ["Frances", "Allen", "speaker"],
          ["Ken", "Thompson", "guest"],
        ]),
      },
    },
  ],
};

const ROSTER_LAST_FIRST: ReuseTask = {
  name: "roster:names_last_comma_first",
  intent: "list the people of a roster table as 'Last, First'",
  code: ROSTER_CODE("r[l] + ', ' + r[f]"),
  expect: (a) => rows(a).map((r) => `${r.last}, ${r.first}`),
  asks: [
    {
      say: "list the people of school/roster.csv as 'Last, First'",
      args: { path: "school/roster.csv" },
      files: {
        "school/roster.csv": csv("first,last,role", [
          ["Marie", "Curie", "chem"],
          ["Niels", "Bohr", "physics"],
          ["Emmy", "Noether", "maths"],
        ]),
      },
    },
    {
      say: "people in lab/staff.csv, surname comma forename",
      args: { path: "lab/staff.csv" },
      files: {
        "lab/staff.csv": csv("first,last,role", [
          ["Rosalind", "Franklin", "xray"],
          ["Linus", "Pauling", "chem"],
        ]),
      },
    },
    {
      say: "for the index cards: bib/authors.csv -> Lovelace, Ada style",
      args: { path: "bib/authors.csv" },
      files: {
        "bib/authors.csv": csv("first,last,role", [
          ["Claude", "Shannon", "author"],
          ["John", "McCarthy", "author"],
          ["Margaret", "Hamilton", "editor"],
        ]),
      },
    },
  ],
};

// ---- adding vs removing line numbers in a written copy ----------------------------------------

const numbered = (a: Ask) => lines(...textLines(a).map((l, i) => `${i + 1}. ${l}`));
const unnumbered = (a: Ask) => lines(...textLines(a).map((l) => l.replace(/^\s*\d+[.)]\s+/, "")));

const WRITE_NUMBERED: ReuseTask = {
  name: "listing:write_numbered_copy",
  intent: "write a copy of a text file with each line prefixed by its number",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "");
const content = ls.map((l, i) => (i + 1) + ". " + l).join("\n") + "\n";
await mcp.filesystem.write_file({ path: args.out, content });
return content;`,
  expect: (a) => numbered(a),
  leaves: (a) => ({ [a.args.out as string]: numbered(a) }),
  asks: [
    {
      say: "write a copy of drafts/steps.txt to drafts/steps.numbered.txt with each line prefixed by its number ('1. ')",
      args: { path: "drafts/steps.txt", out: "drafts/steps.numbered.txt" },
      files: { "drafts/steps.txt": lines("clone the repo", "install deps", "run the tests") },
    },
    {
      say: "numbered copy of recipes/bread.txt into recipes/bread-n.txt please",
      args: { path: "recipes/bread.txt", out: "recipes/bread-n.txt" },
      files: { "recipes/bread.txt": lines("mix 500 g flour and 350 g water", "rest 30 min", "add 10 g salt", "fold, then proof overnight", "bake at 250 C") },
    },
    {
      say: "turn agenda/mon.txt into an enumerated list 1. 2. 3. and save as agenda/mon.out.txt",
      args: { path: "agenda/mon.txt", out: "agenda/mon.out.txt" },
      files: { "agenda/mon.txt": lines("standup", "budget review", "hiring sync", "retro") },
    },
  ],
};

const WRITE_UNNUMBERED: ReuseTask = {
  name: "listing:write_unnumbered_copy",
  intent: "write a copy of a text file with the leading line numbers removed",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "");
const content = ls.map((l) => l.replace(/^\s*\d+[.)]\s+/, "")).join("\n") + "\n";
await mcp.filesystem.write_file({ path: args.out, content });
return content;`,
  expect: (a) => unnumbered(a),
  leaves: (a) => ({ [a.args.out as string]: unnumbered(a) }),
  asks: [
    {
      say: "write a copy of drafts/plan.txt to drafts/plan.plain.txt with the leading line numbers ('1. ') removed",
      args: { path: "drafts/plan.txt", out: "drafts/plan.plain.txt" },
      files: { "drafts/plan.txt": lines("1. scope", "2. estimate", "3. build", "4. ship") },
    },
    {
      say: "strip numbers off notes/ranked.txt, output notes/ranked-clean.txt",
      args: { path: "notes/ranked.txt", out: "notes/ranked-clean.txt" },
      files: { "notes/ranked.txt": lines("1) Lisbon", "2) Kyoto", "3) Oaxaca") },
    },
    {
      say: "de-enumerate agenda/tue.txt → agenda/tue.out.txt (drop the 1. 2. 3. in front)",
      args: { path: "agenda/tue.txt", out: "agenda/tue.out.txt" },
      files: { "agenda/tue.txt": lines("1. demo prep", "2. 1:1 with Sam", "3. vendor call", "4. inbox zero", "5. plan Q3") },
    },
  ],
};

// ---- single tasks -----------------------------------------------------------------------------

const INI_SECTIONS: ReuseTask = {
  name: "ini:list_section_names",
  intent: "list the section names of an INI file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const l of t.split("\n")) {
  const m = l.trim().match(/^\[([^\]]+)\]$/);
  if (m) out.push(m[1].trim());
}
return out;`,
  expect: (a) =>
    input(a)
      .split("\n")
      .map((l) => /^\[([^\]]+)\]$/.exec(l.trim()))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => m[1]!.trim()),
  asks: [
    {
      say: "list the section names of config/app.ini",
      args: { path: "config/app.ini" },
      files: { "config/app.ini": lines("; app config", "[server]", "port = 8080", "", "[database]", "url = postgres://localhost/app", "", "[cache]", "ttl = 60") },
    },
    {
      say: "section headers in deploy/php.ini?",
      args: { path: "deploy/php.ini" },
      files: {
        "deploy/php.ini": lines("[PHP]", "memory_limit = 256M", "[Date]", "date.timezone = UTC", "[opcache]", "opcache.enable = 1", "[Session]", "session.gc_maxlifetime = 1440"),
      },
    },
    {
      say: "which [bracketed] groups does tools/git.cfg declare?",
      args: { path: "tools/git.cfg" },
      files: { "tools/git.cfg": lines("[user]", "  name = Ana", "  email = ana@lima.dev", "[core]", "  editor = vim", '[remote "origin"]', "  url = git@example.com:ana/app.git") },
    },
  ],
};

const hostAddress = (a: Ask) => {
  for (const l of input(a).split("\n")) {
    const f = l.replace(/#.*/, "").trim().split(/\s+/);
    if (f.length > 1 && f.slice(1).includes(a.args.host as string)) return f[0];
  }
  return null;
};

const HOSTS_LOOKUP: ReuseTask = {
  name: "hosts:lookup_address_for_name",
  intent: "look up the IP address of a host name in a hosts file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
for (const l of t.split("\n")) {
  const f = l.replace(/#.*/, "").trim().split(/\s+/);
  if (f.length > 1 && f.slice(1).includes(args.host)) return f[0];
}
return null;`,
  expect: hostAddress,
  asks: [
    {
      say: "look up the IP address of db.local in net/hosts",
      args: { path: "net/hosts", host: "db.local" },
      files: { "net/hosts": lines("127.0.0.1 localhost", "10.0.0.5 db.local db", "10.0.0.6 cache.local") },
    },
    {
      say: "address for cache.internal per etc/hosts.lab",
      args: { path: "etc/hosts.lab", host: "cache.internal" },
      files: { "etc/hosts.lab": lines("# lab", "192.168.7.2   web.internal", "# 192.168.7.9 cache.internal", "192.168.7.3   cache.internal redis", "::1 localhost") },
    },
    {
      say: "where does api.test resolve to according to vm/static-names.txt",
      args: { path: "vm/static-names.txt", host: "api.test" },
      files: { "vm/static-names.txt": lines("172.16.0.10\tapp.test", "172.16.0.11\tapi.test api", "172.16.0.12\tdocs.test") },
    },
  ],
};

const commitsPerAuthor = (a: Ask) => {
  const out: Record<string, number> = {};
  for (const l of textLines(a)) {
    const who = l.split("|")[1]?.trim();
    if (who) out[who] = (out[who] ?? 0) + 1;
  }
  return out;
};

const COMMITS_PER_AUTHOR: ReuseTask = {
  name: "gitlog:count_commits_per_author",
  intent: "count the commits per author in a one-line git log file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = {};
for (const l of t.split("\n")) {
  if (l.trim() === "") continue;
  const who = (l.split("|")[1] || "").trim();
  if (who) out[who] = (out[who] || 0) + 1;
}
return out;`,
  expect: commitsPerAuthor,
  asks: [
    {
      say: "count the commits per author in repo/log.txt (hash|author|subject lines)",
      args: { path: "repo/log.txt" },
      files: { "repo/log.txt": lines("a1b2c3d|Ana Lima|fix typo", "b2c3d4e|Bo Kim|add parser", "c3d4e5f|Ana Lima|bump deps", "d4e5f6a|Ana Lima|docs") },
    },
    {
      say: "commits by person, history/export.txt",
      args: { path: "history/export.txt" },
      files: { "history/export.txt": lines("0f1e2d3|Chen Wei|init", "1e2d3c4|Dara Okafor|ci", "2d3c4b5|Dara Okafor|lint", "3c4b5a6|Eli Cohen|readme", "4b5a697|Chen Wei|tests") },
    },
    {
      say: "who contributed how much in audit/shortlog.psv? tally each name",
      args: { path: "audit/shortlog.psv" },
      files: { "audit/shortlog.psv": lines("9a8b7c6|Fatou Diop|api v2", "8b7c6d5|Fatou Diop|fix auth", "7c6d5e4|Gus Berg|perf", "6d5e4f3|Fatou Diop|release 2.0") },
    },
  ],
};

const isbn13Ok = (a: Ask) => {
  const d = String(a.args.isbn).replace(/[^0-9]/g, "");
  if (d.length !== 13) return false;
  let s = 0;
  for (let i = 0; i < 13; i++) s += Number(d[i]) * (i % 2 === 0 ? 1 : 3);
  return s % 10 === 0;
};

const ISBN13: ReuseTask = {
  name: "isbn:check_isbn13_checksum",
  intent: "check whether an ISBN-13 has a valid checksum",
  code: String.raw`const d = String(args.isbn).replace(/\D/g, "");
if (d.length !== 13) return false;
const sum = d.split("").reduce((s, c, i) => s + Number(c) * (i % 2 ? 3 : 1), 0);
return sum % 10 === 0;`,
  expect: isbn13Ok,
  asks: [
    { say: "check whether 978-0-306-40615-7 has a valid checksum", args: { isbn: "978-0-306-40615-7" } },
    { say: "is 9781861972713 a valid isbn?", args: { isbn: "9781861972713" } },
    { say: "the barcode on this book says 978-1-4028-9462-6, typo or ok?", args: { isbn: "978-1-4028-9462-6" } },
  ],
};

export const BLIND_17_TASKS: ReuseTask[] = [
  CONTACT_EMAILS,
  CONTACT_PHONES,
  CRON_ACTIVE,
  CRON_DISABLED,
  SHEET_MINUTES,
  SHEET_HOURS,
  ROTATE_LEFT,
  ROTATE_RIGHT,
  CHANGELOG_NEWEST,
  CHANGELOG_OLDEST,
  ORDERS_COUNT,
  ORDERS_IDS,
  ROSTER_FIRST_LAST,
  ROSTER_LAST_FIRST,
  WRITE_NUMBERED,
  WRITE_UNNUMBERED,
  INI_SECTIONS,
  HOSTS_LOOKUP,
  COMMITS_PER_AUTHOR,
  ISBN13,
];
