// The 13th blind reuse stream (`--tasks blind13`), written blind on 2026-12-07 by a helper that saw
// only the format (bench/reuse-tasks.ts's types and one of its tasks), never pml's ranking nor any
// other stream. Nothing is tuned on it; its requests are never printed. 20 tasks, 60 requests, with
// 8 near-twin pairs whose inputs have the same names and kinds (keys vs values, encode vs decode,
// lowest vs highest, include vs exclude, count vs list, first vs last, sorted vs reversed, after vs
// before), so that a careless reuse runs and answers wrongly. The repeats vary in voice on purpose.

import { type Ask, csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const textLines = (a: Ask) => input(a).replace(/\n$/, "").split("\n");
const nonEmpty = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "");
const deps = (a: Ask): Record<string, string> => JSON.parse(input(a)).dependencies ?? {};
const table = (a: Ask) => {
  const [head, ...rows] = input(a)
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  return { head: head!, rows };
};
const pricedName = (a: Ask, pick: (x: number, best: number) => boolean) => {
  const { head, rows } = table(a);
  const n = head.indexOf("name");
  const p = head.indexOf("price");
  let best = rows[0]!;
  for (const r of rows) if (pick(Number(r[p]), Number(best[p]))) best = r;
  return best[n];
};
const shiftDate = (a: Ask, sign: number) => {
  const d = new Date(`${a.args.date as string}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + sign * Number(a.args.days));
  return d.toISOString().slice(0, 10);
};
const headingRe = /^#{1,6}\s+/;

const PKG = (deps: Record<string, string>, dev: Record<string, string> = {}) =>
  `${JSON.stringify({ name: "app", version: "1.0.0", dependencies: deps, devDependencies: dev }, null, 2)}\n`;

const DEP_NAMES: ReuseTask = {
  name: "pkg:list_dependency_names",
  intent: "list the names of the runtime dependencies declared in a package.json",
  code: String.raw`const p = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return Object.keys(p.dependencies ?? {});`,
  expect: (a) => Object.keys(deps(a)),
  asks: [
    {
      say: "list the names of the runtime dependencies declared in web/package.json",
      args: { path: "web/package.json" },
      files: { "web/package.json": PKG({ react: "^18.2.0", "react-dom": "^18.2.0", zod: "3.22.4" }, { vitest: "^1.0.0" }) },
    },
    {
      say: "which dependencies does services/api/package.json have? just the names, not the dev ones",
      args: { path: "services/api/package.json" },
      files: { "services/api/package.json": PKG({ express: "^4.18.2", pg: "~8.11.0", dotenv: "16.3.1", cors: "^2.8.5" }, { jest: "29" }) },
    },
    {
      say: "what libs does tools/cli/package.json ship with (not the dev tooling)",
      args: { path: "tools/cli/package.json" },
      files: { "tools/cli/package.json": PKG({ commander: "^11.1.0", chalk: "5.3.0" }, { typescript: "^5.3.0" }) },
    },
  ],
};

const DEP_VERSIONS: ReuseTask = {
  name: "pkg:list_dependency_versions",
  intent: "list the version ranges of the runtime dependencies declared in a package.json",
  code: String.raw`const p = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return Object.values(p.dependencies ?? {});`,
  expect: (a) => Object.values(deps(a)),
  asks: [
    {
      say: "list the version ranges of the runtime dependencies declared in shop/package.json",
      args: { path: "shop/package.json" },
      files: { "shop/package.json": PKG({ next: "14.0.4", stripe: "^14.9.0", swr: "^2.2.4" }, { eslint: "^8" }) },
    },
    {
      say: "pls give me the version specs of every dependency in worker/package.json (only the strings like ^1.2.3)",
      args: { path: "worker/package.json" },
      files: { "worker/package.json": PKG({ bullmq: "^5.1.0", ioredis: "5.3.2", pino: "~8.17.1" }) },
    },
    {
      say: "semver constraints pinned in admin/package.json, in order?",
      args: { path: "admin/package.json" },
      files: { "admin/package.json": PKG({ vue: "^3.4.5", pinia: "2.1.7", axios: ">=1.6.0 <2" }, { vite: "^5.0.0" }) },
    },
  ],
};

const PERCENT_ENCODE: ReuseTask = {
  name: "url:percent_encode_text",
  intent: "percent-encode a piece of text so it can go in a URL",
  code: "return encodeURIComponent(String(args.text));",
  expect: (a) => encodeURIComponent(String(a.args.text)),
  asks: [
    { say: "percent-encode this text so it can go in a URL: Ana & Bo's café", args: { text: "Ana & Bo's café" } },
    { say: "i need to put 'price >= 10 / unit' inside an URL query, can you encode it for me", args: { text: "price >= 10 / unit" } },
    { say: "escape `rock&roll #1?` for a querystring", args: { text: "rock&roll #1?" } },
  ],
};

const PERCENT_DECODE: ReuseTask = {
  name: "url:percent_decode_text",
  intent: "decode percent-encoded text from a URL back to plain text",
  code: "return decodeURIComponent(String(args.text));",
  expect: (a) => decodeURIComponent(String(a.args.text)),
  asks: [
    { say: "decode this percent-encoded text from a URL back to plain text: caf%C3%A9%20au%20lait", args: { text: "caf%C3%A9%20au%20lait" } },
    { say: "what does q%3Dred%20shoes%26size%3D42 say once decoded?", args: { text: "q%3Dred%20shoes%26size%3D42" } },
    { say: "unescape %2Fhome%2Fana%2Fmy%20docs pls, the %XX things are unreadable", args: { text: "%2Fhome%2Fana%2Fmy%20docs" } },
  ],
};

const CHEAPEST: ReuseTask = {
  name: "csv:cheapest_item_name",
  intent: "find the name of the item with the lowest price in a CSV with name and price columns",
  code: String.raw`const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\n").map((l) => l.split(","));
const n = head.indexOf("name");
const p = head.indexOf("price");
let best = rows[0];
for (const r of rows) if (Number(r[p]) < Number(best[p])) best = r;
return best[n];`,
  expect: (a) => pricedName(a, (x, b) => x < b),
  asks: [
    {
      say: "find the name of the item with the lowest price in catalog/mugs.csv",
      args: { path: "catalog/mugs.csv" },
      files: {
        "catalog/mugs.csv": csv("sku,name,price", [
          ["M1", "white mug", 8.5],
          ["M2", "travel mug", 14],
          ["M3", "espresso cup", 6.25],
          ["M4", "tea mug", 9],
        ]),
      },
    },
    {
      say: "Which item has the lowest cost in quotes/laptops.csv?",
      args: { path: "quotes/laptops.csv" },
      files: {
        "quotes/laptops.csv": csv("name,price,stock", [
          ["Lenovo T14", 1120, 4],
          ["Dell XPS 13", 1399, 2],
          ["Acer Swift", 849, 7],
          ["HP Envy", 999, 1],
        ]),
      },
    },
    {
      say: "suppliers/bolts.csv — whats the most budget option there",
      args: { path: "suppliers/bolts.csv" },
      files: {
        "suppliers/bolts.csv": csv("name,price", [
          ["M6 steel", 0.12],
          ["M6 inox", 0.31],
          ["M8 steel", 0.09],
          ["M8 zinc", 0.1],
        ]),
      },
    },
  ],
};

const PRICIEST: ReuseTask = {
  name: "csv:priciest_item_name",
  intent: "find the name of the item with the highest price in a CSV with name and price columns",
  code: String.raw`const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\n").map((l) => l.split(","));
const n = head.indexOf("name");
const p = head.indexOf("price");
let best = rows[0];
for (const r of rows) if (Number(r[p]) > Number(best[p])) best = r;
return best[n];`,
  expect: (a) => pricedName(a, (x, b) => x > b),
  asks: [
    {
      say: "find the name of the item with the highest price in menu/wines.csv",
      args: { path: "menu/wines.csv" },
      files: {
        "menu/wines.csv": csv("name,price,year", [
          ["Rioja", 32, 2018],
          ["Barolo", 78, 2016],
          ["Chablis", 41, 2020],
          ["Vinho Verde", 19, 2022],
        ]),
      },
    },
    {
      say: "hey, quick one: in rentals/bikes.csv which item costs the most?",
      args: { path: "rentals/bikes.csv" },
      files: {
        "rentals/bikes.csv": csv("id,name,price", [
          [1, "city bike", 12],
          [2, "e-bike", 35],
          [3, "tandem", 28],
          [4, "kids bike", 8],
        ]),
      },
    },
    {
      say: "top dollar entry of cart/2026-11.csv?",
      args: { path: "cart/2026-11.csv" },
      files: {
        "cart/2026-11.csv": csv("name,price", [
          ["usb hub", 24.99],
          ["monitor arm", 89],
          ["webcam", 59.5],
          ["keyboard", 129.9],
          ["mouse pad", 11],
        ]),
      },
    },
  ],
};

const MATCHING: ReuseTask = {
  name: "log:lines_containing_word",
  intent: "keep only the lines of a log file that contain a given word",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "" && l.includes(args.word));`,
  expect: (a) => nonEmpty(a).filter((l) => l.includes(a.args.word as string)),
  asks: [
    {
      say: "keep only the lines of logs/app.log that contain the word ERROR",
      args: { path: "logs/app.log", word: "ERROR" },
      files: {
        "logs/app.log": lines("10:01 INFO boot", "10:02 ERROR db timeout", "10:03 WARN slow query", "10:04 ERROR db timeout again", "10:05 INFO ready"),
      },
    },
    {
      say: "grep for 'timeout' in var/worker.log, i just want the matching lines",
      args: { path: "var/worker.log", word: "timeout" },
      files: {
        "var/worker.log": lines("job 1 ok", "job 2 timeout after 30s", "job 3 ok", "job 4 retry", "job 5 timeout after 30s"),
      },
    },
    {
      say: "show me every row of nginx/access.log where POST appears",
      args: { path: "nginx/access.log", word: "POST" },
      files: {
        "nginx/access.log": lines("GET /index 200", "POST /login 302", "GET /css/app.css 200", "POST /api/cart 201", "DELETE /api/cart/3 204"),
      },
    },
  ],
};

const WITHOUT: ReuseTask = {
  name: "log:lines_without_word",
  intent: "drop the lines of a log file that contain a given word and keep the rest",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "" && !l.includes(args.word));`,
  expect: (a) => nonEmpty(a).filter((l) => !l.includes(a.args.word as string)),
  asks: [
    {
      say: "drop the lines of logs/build.log that contain the word DEBUG and keep the rest",
      args: { path: "logs/build.log", word: "DEBUG" },
      files: {
        "logs/build.log": lines("DEBUG resolving deps", "compile src/a.ts", "DEBUG cache hit", "compile src/b.ts", "done in 4s"),
      },
    },
    {
      say: "strip out every healthcheck line from ops/gateway.log, what's left?",
      args: { path: "ops/gateway.log", word: "healthcheck" },
      files: {
        "ops/gateway.log": lines("GET /healthcheck 200", "GET /orders 200", "GET /healthcheck 200", "POST /orders 500", "GET /healthcheck 200"),
      },
    },
    {
      say: "filter out the noise: hide anything mentioning heartbeat in mq/consumer.log",
      args: { path: "mq/consumer.log", word: "heartbeat" },
      files: {
        "mq/consumer.log": lines("heartbeat", "msg 17 consumed", "heartbeat", "msg 18 rejected", "heartbeat", "msg 19 consumed"),
      },
    },
  ],
};

const COUNT_HEADINGS: ReuseTask = {
  name: "md:count_headings",
  intent: "count the headings in a markdown file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => /^#{1,6}\s+/.test(l)).length;`,
  expect: (a) => textLines(a).filter((l) => headingRe.test(l)).length,
  asks: [
    {
      say: "count the headings in docs/guide.md",
      args: { path: "docs/guide.md" },
      files: { "docs/guide.md": lines("# Guide", "intro text", "## Install", "run it", "## Configure", "### Env vars", "set them", "## FAQ") },
    },
    {
      say: "how many heading lines (any # level) does CONTRIBUTING.md have??",
      args: { path: "CONTRIBUTING.md" },
      files: { "CONTRIBUTING.md": lines("# Contributing", "thanks!", "## Setup", "## Tests", "## Pull requests", "be kind") },
    },
    {
      say: "number of titles in wiki/onboarding.md",
      args: { path: "wiki/onboarding.md" },
      files: { "wiki/onboarding.md": lines("# Welcome", "## Day one", "laptop", "## Week one", "### Accounts", "### Tools", "## Who to ask") },
    },
  ],
};

const LIST_HEADINGS: ReuseTask = {
  name: "md:list_headings",
  intent: "list the heading titles of a markdown file, without the # marks",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => /^#{1,6}\s+/.test(l)).map((l) => l.replace(/^#{1,6}\s+/, "").trim());`,
  expect: (a) =>
    textLines(a)
      .filter((l) => headingRe.test(l))
      .map((l) => l.replace(headingRe, "").trim()),
  asks: [
    {
      say: "list the heading titles of README.md, without the # marks",
      args: { path: "README.md" },
      files: { "README.md": lines("# Acme CLI", "A tool.", "## Usage", "acme run", "## Options", "### --force", "## License") },
    },
    {
      say: "I'd like a table of contents for docs/api.md, just the heading text in order",
      args: { path: "docs/api.md" },
      files: { "docs/api.md": lines("# API", "## Auth", "tokens", "## Endpoints", "### GET /users", "### POST /users", "## Errors") },
    },
    {
      say: "outline of notes/retro.md?",
      args: { path: "notes/retro.md" },
      files: { "notes/retro.md": lines("# Retro 2026-11", "## Went well", "- deploys", "## To improve", "- flaky tests", "## Actions") },
    },
  ],
};

const HEAD: ReuseTask = {
  name: "text:first_n_lines",
  intent: "return the first N lines of a text file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.replace(/\n$/, "").split("\n").slice(0, Number(args.n));`,
  expect: (a) => textLines(a).slice(0, Number(a.args.n)),
  asks: [
    {
      say: "return the first 3 lines of data/cities.txt",
      args: { path: "data/cities.txt", n: 3 },
      files: { "data/cities.txt": lines("Lisbon", "Porto", "Braga", "Faro", "Coimbra", "Evora") },
    },
    {
      say: "first two lines of tmp/queue.txt, like head -n 2",
      args: { path: "tmp/queue.txt", n: 2 },
      files: { "tmp/queue.txt": lines("job-881", "job-882", "job-883", "job-884") },
    },
    {
      say: "show me the top four entries in leaderboard.txt please, the file is already ranked",
      args: { path: "leaderboard.txt", n: 4 },
      files: { "leaderboard.txt": lines("mia 980", "leo 955", "zoe 930", "sam 910", "ivy 870", "max 850", "ana 800") },
    },
  ],
};

const TAIL: ReuseTask = {
  name: "text:last_n_lines",
  intent: "return the last N lines of a text file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.replace(/\n$/, "").split("\n").slice(-Number(args.n));`,
  expect: (a) => textLines(a).slice(-Number(a.args.n)),
  asks: [
    {
      say: "return the last 2 lines of logs/cron.txt",
      args: { path: "logs/cron.txt", n: 2 },
      files: { "logs/cron.txt": lines("00:00 backup ok", "01:00 rotate ok", "02:00 backup failed", "03:00 backup ok") },
    },
    {
      say: "tail the final 3 lines of history/shell.txt",
      args: { path: "history/shell.txt", n: 3 },
      files: { "history/shell.txt": lines("ls", "cd repo", "git pull", "npm test", "git push") },
    },
    {
      say: "what are the most recent 4 entrys at the bottom of journal.txt",
      args: { path: "journal.txt", n: 4 },
      files: { "journal.txt": lines("mon ran 5k", "tue rest", "wed gym", "thu ran 8k", "fri rest", "sat hike", "sun rest") },
    },
  ],
};

const SORT_LINES: ReuseTask = {
  name: "text:sort_lines_alphabetically",
  intent: "sort the lines of a text file alphabetically",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").sort();`,
  expect: (a) => nonEmpty(a).sort(),
  asks: [
    {
      say: "sort the lines of lists/fruit.txt alphabetically",
      args: { path: "lists/fruit.txt" },
      files: { "lists/fruit.txt": lines("pear", "apple", "fig", "mango", "banana") },
    },
    {
      say: "sort the names in team/members.txt A to Z",
      args: { path: "team/members.txt" },
      files: { "team/members.txt": lines("Sofia", "Bruno", "Yara", "Alex", "Marta") },
    },
    {
      say: ".gitignore entries in config/ignore.txt, lexicographic pls",
      args: { path: "config/ignore.txt" },
      files: { "config/ignore.txt": lines("node_modules", "dist", "coverage", ".env", "build") },
    },
  ],
};

const REVERSE_LINES: ReuseTask = {
  name: "text:reverse_line_order",
  intent: "reverse the order of the lines of a text file, last line first",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").reverse();`,
  expect: (a) => nonEmpty(a).reverse(),
  asks: [
    {
      say: "reverse the order of the lines of steps/deploy.txt, last line first",
      args: { path: "steps/deploy.txt" },
      files: { "steps/deploy.txt": lines("build image", "push image", "migrate db", "switch traffic") },
    },
    {
      say: "flip chat/export.txt so the newest message (at the end) comes first — keep every line",
      args: { path: "chat/export.txt" },
      files: { "chat/export.txt": lines("ana: hi", "bo: hey", "ana: lunch?", "bo: sure", "ana: 12:30") },
    },
    {
      say: "like tac on undo/stack.txt",
      args: { path: "undo/stack.txt" },
      files: { "undo/stack.txt": lines("insert title", "bold word", "delete para", "add image") },
    },
  ],
};

const ADD_DAYS: ReuseTask = {
  name: "date:date_after_n_days",
  intent: "the calendar date a number of days after a given date (YYYY-MM-DD)",
  code: String.raw`const d = new Date(args.date + "T00:00:00Z");
d.setUTCDate(d.getUTCDate() + Number(args.days));
return d.toISOString().slice(0, 10);`,
  expect: (a) => shiftDate(a, 1),
  asks: [
    { say: "what calendar date is 45 days after 2026-01-20?", args: { date: "2026-01-20", days: 45 } },
    { say: "invoice dated 2026-11-28 is due net 30, which date is that, in YYYY-MM-DD?", args: { date: "2026-11-28", days: 30 } },
    { say: "trial begins 2024-02-15 and runs two weeks, when does it end", args: { date: "2024-02-15", days: 14 } },
  ],
};

const SUB_DAYS: ReuseTask = {
  name: "date:date_before_n_days",
  intent: "the calendar date a number of days before a given date (YYYY-MM-DD)",
  code: String.raw`const d = new Date(args.date + "T00:00:00Z");
d.setUTCDate(d.getUTCDate() - Number(args.days));
return d.toISOString().slice(0, 10);`,
  expect: (a) => shiftDate(a, -1),
  asks: [
    { say: "what calendar date is 10 days before 2026-03-05?", args: { date: "2026-03-05", days: 10 } },
    { say: "the launch is on 2027-01-08, the code freeze must be 21 days before it, which date?", args: { date: "2027-01-08", days: 21 } },
    { say: "count back 90 from 2026-05-31 pls, where do we land", args: { date: "2026-05-31", days: 90 } },
  ],
};

const queryParam = (url: string, param: string) => {
  const q = url.split("#")[0]!.split("?")[1] ?? "";
  for (const part of q.split("&")) {
    const [k, v = ""] = part.split("=");
    if (decodeURIComponent(k!) === param) return decodeURIComponent(v.replace(/\+/g, " "));
  }
  return null;
};

const QUERY_PARAM: ReuseTask = {
  name: "url:get_query_param",
  intent: "get the value of one query-string parameter from a URL",
  code: String.raw`const q = String(args.url).split("#")[0].split("?")[1] ?? "";
for (const part of q.split("&")) {
  const [k, v = ""] = part.split("=");
  if (decodeURIComponent(k) === args.param) return decodeURIComponent(v.replace(/\+/g, " "));
}
return null;`,
  expect: (a) => queryParam(a.args.url as string, a.args.param as string),
  asks: [
    {
      say: "get the value of the utm_source parameter from https://shop.example.com/p/42?utm_source=newsletter&utm_medium=email",
      args: { url: "https://shop.example.com/p/42?utm_source=newsletter&utm_medium=email", param: "utm_source" },
    },
    {
      say: "in https://maps.example.org/search?q=coffee+near+me&zoom=14#top what's the q value?",
      args: { url: "https://maps.example.org/search?q=coffee+near+me&zoom=14#top", param: "q" },
    },
    {
      say: "pull the page number out of http://localhost:3000/api/items?sort=desc&page=7&size=20",
      args: { url: "http://localhost:3000/api/items?sort=desc&page=7&size=20", param: "page" },
    },
  ],
};

const bumpMinor = (v: string) => {
  const [maj, min] = v.replace(/^v/, "").split(/[-+]/)[0]!.split(".").map(Number);
  return `${maj}.${min! + 1}.0`;
};

const BUMP_MINOR: ReuseTask = {
  name: "semver:bump_minor_version",
  intent: "bump the minor part of a semantic version and reset the patch to 0",
  code: String.raw`const [maj, min] = String(args.version).replace(/^v/, "").split(/[-+]/)[0].split(".").map(Number);
return maj + "." + (min + 1) + ".0";`,
  expect: (a) => bumpMinor(a.args.version as string),
  asks: [
    { say: "bump the minor part of 1.4.2 and reset the patch", args: { version: "1.4.2" } },
    { say: "we add a feature to v2.9.13, what's the next version number per semver?", args: { version: "v2.9.13" } },
    { say: "next feature release after 0.19.0-rc.1 ?", args: { version: "0.19.0-rc.1" } },
  ],
};

const totals = (a: Ask) => {
  const { head, rows } = table(a);
  const c = head.indexOf("category");
  const m = head.indexOf("amount");
  const out: Record<string, number> = {};
  for (const r of rows) out[r[c]!] = round2((out[r[c]!] ?? 0) + Number(r[m]));
  return out;
};

const SUM_BY_CATEGORY: ReuseTask = {
  name: "csv:sum_amount_by_category",
  intent: "total the amount column per category in a CSV of transactions",
  code: String.raw`const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\n").map((l) => l.split(","));
const c = head.indexOf("category");
const m = head.indexOf("amount");
const out = {};
for (const r of rows) out[r[c]] = Math.round(((out[r[c]] ?? 0) + Number(r[m])) * 100) / 100;
return out;`,
  expect: totals,
  asks: [
    {
      say: "total the amount column per category in bank/october.csv",
      args: { path: "bank/october.csv" },
      files: {
        "bank/october.csv": csv("date,category,amount", [
          ["2026-10-01", "food", 23.4],
          ["2026-10-02", "transport", 2.5],
          ["2026-10-03", "food", 11.1],
          ["2026-10-05", "rent", 900],
          ["2026-10-09", "transport", 40],
        ]),
      },
    },
    {
      say: "how much did we spend in each category? file is expenses/q3.csv",
      args: { path: "expenses/q3.csv" },
      files: {
        "expenses/q3.csv": csv("category,amount,note", [
          ["cloud", 310.25, "aws"],
          ["saas", 49, "figma"],
          ["cloud", 120.75, "gcp"],
          ["saas", 12, "1password"],
          ["travel", 430, "train"],
        ]),
      },
    },
    {
      say: "group-by bucket, sum the money: ledger/trip.csv",
      args: { path: "ledger/trip.csv" },
      files: {
        "ledger/trip.csv": csv("who,category,amount", [
          ["ana", "hotel", 180],
          ["bo", "meals", 36.5],
          ["ana", "meals", 22.3],
          ["bo", "hotel", 180],
          ["chen", "taxi", 17.8],
        ]),
      },
    },
  ],
};

const envValue = (t: string, key: string) => {
  for (const raw of t.split("\n")) {
    const l = raw.trim().replace(/^export\s+/, "");
    const i = l.indexOf("=");
    if (l === "" || l.startsWith("#") || i < 0 || l.slice(0, i).trim() !== key) continue;
    const v = l.slice(i + 1).trim();
    return /^(".*"|'.*')$/.test(v) ? v.slice(1, -1) : v;
  }
  return null;
};

const ENV_VALUE: ReuseTask = {
  name: "env:read_env_value",
  intent: "read the value of one variable from an env file (comments skipped, quotes removed)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
for (const raw of t.split("\n")) {
  const l = raw.trim().replace(/^export\s+/, "");
  const i = l.indexOf("=");
  if (l === "" || l.startsWith("#") || i < 0 || l.slice(0, i).trim() !== args.key) continue;
  const v = l.slice(i + 1).trim();
  return /^(".*"|'.*')$/.test(v) ? v.slice(1, -1) : v;
}
return null;`,
  expect: (a) => envValue(input(a), a.args.key as string),
  asks: [
    {
      say: "read the value of DATABASE_URL from api/dev.env",
      args: { path: "api/dev.env", key: "DATABASE_URL" },
      files: { "api/dev.env": lines("# local dev", "PORT=8080", 'DATABASE_URL="postgres://dev:dev@localhost:5432/app"', "LOG_LEVEL=debug") },
    },
    {
      say: "what port is set in frontend/local.env? the variable is VITE_PORT, ignore the commented one",
      args: { path: "frontend/local.env", key: "VITE_PORT" },
      files: { "frontend/local.env": lines("# VITE_PORT=3000", "VITE_PORT=5173", "VITE_API=http://localhost:8080") },
    },
    {
      say: "whats REDIS_HOST in deploy/staging.env",
      args: { path: "deploy/staging.env", key: "REDIS_HOST" },
      files: { "deploy/staging.env": lines("export NODE_ENV=staging", "export REDIS_HOST='redis.staging.internal'", "export REDIS_PORT=6379") },
    },
  ],
};

/** Twins sit apart so that the one seen first is not always the one asked next. */
export const BLIND_13_TASKS: readonly ReuseTask[] = [
  DEP_NAMES,
  CHEAPEST,
  MATCHING,
  COUNT_HEADINGS,
  HEAD,
  SORT_LINES,
  ADD_DAYS,
  PERCENT_ENCODE,
  QUERY_PARAM,
  SUM_BY_CATEGORY,
  DEP_VERSIONS,
  PRICIEST,
  WITHOUT,
  LIST_HEADINGS,
  TAIL,
  REVERSE_LINES,
  SUB_DAYS,
  PERCENT_DECODE,
  BUMP_MINOR,
  ENV_VALUE,
];
