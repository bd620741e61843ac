// Blind reuse stream 11 (`bun bench/reuse.ts --tasks blind11`): written blind on 2026-12-07 by a
// helper that saw only the stream's format (bench/reuse-tasks.ts's types, helpers and one task),
// not pml's ranking or any bench output; the 11th blind stream. Nothing is tuned on it and its
// requests are never printed. 20 tasks, 60 requests: each first asked in about the intent's words,
// then twice by other users on other days (terse, chatty, a file name only, jargon, a typo; about
// half of the repeats share a content word with the intent, half share none). Eight near-twin pairs
// take inputs of the same names and kinds, so that a careless reuse runs and answers wrongly: a CSV
// date column's earliest vs latest, URL percent-encode vs decode, a query string's names vs values,
// feature flags on vs off, days added vs subtracted, the highest vs lowest version tag, the slowest
// vs fastest endpoint of an access log, lines two files share vs lines only the first has.
// Everything runs offline on pml's built-in filesystem tools.
import { type Ask, csv, input, lines, type ReuseTask } from "./reuse-tasks.ts";

const rows = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((l) => l.split(",").map((c) => c.trim()));
const columnOf = (a: Ask, column: string) => {
  const [head, ...body] = rows(input(a));
  const i = head!.indexOf(column);
  return body.map((r) => r[i]!);
};
const datesOf = (a: Ask) => columnOf(a, a.args.column as string).filter((d) => d !== "");
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

const CSV_DATE = `const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.trim().split("\\n").map((l) => l.split(",").map((c) => c.trim()));
const i = head.indexOf(args.column);
const ds = rows.map((r) => r[i]).filter((d) => d !== undefined && d !== "").sort();`;

const EARLIEST_DATE: ReuseTask = {
  name: "csv:find_earliest_date",
  intent: "find the earliest date in a date column of a CSV file",
  code: `${CSV_DATE}\nreturn ds[0];`,
  expect: (a) => datesOf(a).sort()[0],
  asks: [
    {
      say: "find the earliest date in the signup_date column of data/users.csv",
      args: { path: "data/users.csv", column: "signup_date" },
      files: {
        "data/users.csv": csv("id,email,signup_date", [
          [1, "ana@x.io", "2025-03-14"],
          [2, "bo@x.io", "2024-11-02"],
          [3, "cy@x.io", "2025-01-09"],
          [4, "di@x.io", "2024-12-30"],
        ]),
      },
    },
    {
      say: "when did the very first order come in? sales/q3_orders.csv, it's the ordered_on field",
      args: { path: "sales/q3_orders.csv", column: "ordered_on" },
      files: {
        "sales/q3_orders.csv": csv("order_id,ordered_on,total", [
          [1001, "2026-08-14", 59.9],
          [1002, "2026-07-03", 12],
          [1003, "2026-09-21", 230.5],
          [1004, "2026-07-19", 8.75],
        ]),
      },
    },
    {
      say: "hr/hires.csv -> oldest date under hired pls",
      args: { path: "hr/hires.csv", column: "hired" },
      files: {
        "hr/hires.csv": csv("name,team,hired", [
          ["Lena", "infra", "2019-06-01"],
          ["Omar", "web", "2017-02-15"],
          ["Priya", "data", "2021-10-11"],
        ]),
      },
    },
  ],
};

const LATEST_DATE: ReuseTask = {
  name: "csv:find_latest_date",
  intent: "find the latest date in a date column of a CSV file",
  code: `${CSV_DATE}\nreturn ds[ds.length - 1];`,
  expect: (a) => datesOf(a).sort().at(-1),
  asks: [
    {
      say: "find the latest date in the shipped column of ops/shipments.csv",
      args: { path: "ops/shipments.csv", column: "shipped" },
      files: {
        "ops/shipments.csv": csv("tracking,shipped,carrier", [
          ["ZX1", "2026-10-02", "dhl"],
          ["ZX2", "2026-11-17", "ups"],
          ["ZX3", "2026-09-30", "dhl"],
          ["ZX4", "2026-11-05", "fedex"],
        ]),
      },
    },
    {
      say: "most recent last_login in auth/accounts.csv? trying to see if anyone touched these this month",
      args: { path: "auth/accounts.csv", column: "last_login" },
      files: {
        "auth/accounts.csv": csv("user,last_login", [
          ["root", "2026-12-01"],
          ["deploy", "2026-12-06"],
          ["alice", "2026-11-20"],
        ]),
      },
    },
    {
      say: "whats teh newest date under released in catalog/albums.csv",
      args: { path: "catalog/albums.csv", column: "released" },
      files: {
        "catalog/albums.csv": csv("title,released", [
          ["Kind of Blue", "1959-08-17"],
          ["Blue Train", "1958-01-01"],
          ["Giant Steps", "1960-01-27"],
          ["Mingus Ah Um", "1959-10-01"],
        ]),
      },
    },
  ],
};

const PERCENT_ENCODE: ReuseTask = {
  name: "url:encode_component",
  intent: "percent-encode a text so it can go in a URL query parameter",
  code: "return encodeURIComponent(args.text);",
  expect: (a) => encodeURIComponent(a.args.text as string),
  asks: [
    { say: "percent-encode `Tom & Jerry's café` so it can go in a URL query parameter", args: { text: "Tom & Jerry's café" } },
    { say: "urlencode: a+b=c/d?", args: { text: "a+b=c/d?" } },
    {
      say: "I'm building a search link by hand and the term is `50% off — shoes & socks`, what do I paste after q= so it doesn't break?",
      args: { text: "50% off — shoes & socks" },
    },
  ],
};

const PERCENT_DECODE: ReuseTask = {
  name: "url:decode_component",
  intent: "decode a percent-encoded URL string back into plain text",
  code: 'return decodeURIComponent(args.text.replace(/\\+/g, " "));',
  expect: (a) => decodeURIComponent((a.args.text as string).replace(/\+/g, " ")),
  asks: [
    { say: "decode the percent-encoded URL string hello%20world%21%3F back into plain text", args: { text: "hello%20world%21%3F" } },
    { say: "unescape caf%C3%A9+au+lait%2C%20noir", args: { text: "caf%C3%A9+au+lait%2C%20noir" } },
    { say: "got q%3Dred%20shoes%26size%3D42 in a log line, can you decode it for me", args: { text: "q%3Dred%20shoes%26size%3D42" } },
  ],
};

const QUERY = `const q = (args.url.split("#")[0].split("?")[1] || "").split("&").filter((p) => p !== "");
const dec = (s) => decodeURIComponent(s.replace(/\\+/g, " "));`;
const queryPairs = (a: Ask) =>
  ((a.args.url as string).split("#")[0]!.split("?")[1] ?? "")
    .split("&")
    .filter((p) => p !== "")
    .map((p) => {
      const i = p.indexOf("=");
      const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
      return i < 0 ? [dec(p), ""] : [dec(p.slice(0, i)), dec(p.slice(i + 1))];
    });

const QUERY_NAMES: ReuseTask = {
  name: "url:list_query_names",
  intent: "list the parameter names of a URL's query string, in order",
  code: `${QUERY}\nreturn q.map((p) => dec(p.split("=")[0]));`,
  expect: (a) => queryPairs(a).map((p) => p[0]),
  asks: [
    {
      say: "list the parameter names of the query string in https://shop.example.com/search?q=lamp&color=red&page=2",
      args: { url: "https://shop.example.com/search?q=lamp&color=red&page=2" },
    },
    {
      say: "which keys does this link pass? https://api.example.org/v2/items?limit=50&offset=100&sort=-created#top",
      args: { url: "https://api.example.org/v2/items?limit=50&offset=100&sort=-created#top" },
    },
    {
      say: "query param names for http://localhost:8080/cb?code=abc123&state=xyz&scope=read%20write",
      args: { url: "http://localhost:8080/cb?code=abc123&state=xyz&scope=read%20write" },
    },
  ],
};

const QUERY_VALUES: ReuseTask = {
  name: "url:list_query_values",
  intent: "list the parameter values of a URL's query string, in order, decoded",
  code: `${QUERY}\nreturn q.map((p) => { const i = p.indexOf("="); return i < 0 ? "" : dec(p.slice(i + 1)); });`,
  expect: (a) => queryPairs(a).map((p) => p[1]),
  asks: [
    {
      say: "list the decoded parameter values of the query string in https://maps.example.com/dir?from=Lisbon&to=Porto&mode=train",
      args: { url: "https://maps.example.com/dir?from=Lisbon&to=Porto&mode=train" },
    },
    {
      say: "what's actually being sent in https://t.example.net/p?utm_source=news%20letter&utm_medium=email&utm_campaign=dec_sale ? just the right-hand sides",
      args: { url: "https://t.example.net/p?utm_source=news%20letter&utm_medium=email&utm_campaign=dec_sale" },
    },
    { say: "values only: https://x.test/?a=1&b=&c=hello+there", args: { url: "https://x.test/?a=1&b=&c=hello+there" } },
  ],
};

const flagsOf = (a: Ask, on: boolean) =>
  Object.entries((JSON.parse(input(a)) as { features: Record<string, unknown> }).features)
    .filter(([, v]) => v === on)
    .map(([k]) => k);

const ENABLED_FLAGS: ReuseTask = {
  name: "config:list_enabled_flags",
  intent: "list the feature flags turned on (true) in a JSON config's features object",
  code: "const c = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn Object.keys(c.features).filter((k) => c.features[k] === true);",
  expect: (a) => flagsOf(a, true),
  asks: [
    {
      say: "list the feature flags turned on in config/app.json",
      args: { path: "config/app.json" },
      files: { "config/app.json": json({ name: "shop", features: { darkMode: true, betaCheckout: false, newSearch: true, legacyApi: false } }) },
    },
    {
      say: "which toggles are live in settings/prod.json?",
      args: { path: "settings/prod.json" },
      files: { "settings/prod.json": json({ env: "prod", features: { payments: true, chat: false, exports: true, ai_summary: true } }) },
    },
    {
      say: "deploy/staging.json flags == true",
      args: { path: "deploy/staging.json" },
      files: { "deploy/staging.json": json({ features: { rateLimit: false, canary: true, maintenance: false } }) },
    },
  ],
};

const DISABLED_FLAGS: ReuseTask = {
  name: "config:list_disabled_flags",
  intent: "list the feature flags turned off (false) in a JSON config's features object",
  code: "const c = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn Object.keys(c.features).filter((k) => c.features[k] === false);",
  expect: (a) => flagsOf(a, false),
  asks: [
    {
      say: "list the feature flags turned off in config/mobile.json",
      args: { path: "config/mobile.json" },
      files: { "config/mobile.json": json({ features: { pushNotifications: true, offlineMode: false, biometrics: false, tabletLayout: true } }) },
    },
    {
      say: "what's disabled in env/qa.json right now? QA says some stuff is missing from the site",
      args: { path: "env/qa.json" },
      files: { "env/qa.json": json({ features: { search: true, wishlist: false, reviews: true, giftCards: false, coupons: false } }) },
    },
    {
      say: "flags that are false - web/beta.json",
      args: { path: "web/beta.json" },
      files: { "web/beta.json": json({ version: 3, features: { sso: false, audit: true } }) },
    },
  ],
};

const shiftDate = (a: Ask, sign: number) => {
  const d = new Date(`${a.args.date as string}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + sign * (a.args.days as number));
  return d.toISOString().slice(0, 10);
};
const SHIFT = 'const d = new Date(args.date + "T00:00:00Z");\nd.setUTCDate(d.getUTCDate() ';

const ADD_DAYS: ReuseTask = {
  name: "date:add_days_to_date",
  intent: "add a number of days to a date given as YYYY-MM-DD",
  code: `${SHIFT}+ args.days);\nreturn d.toISOString().slice(0, 10);`,
  expect: (a) => shiftDate(a, 1),
  asks: [
    { say: "add 45 days to 2026-12-07", args: { date: "2026-12-07", days: 45 } },
    { say: "parcel shipped 2026-02-20, transit time 10d, ETA?", args: { date: "2026-02-20", days: 10 } },
    { say: "my free trail starts 2024-12-15 and lasts 90 days, what's the end date?", args: { date: "2024-12-15", days: 90 } },
  ],
};

const SUBTRACT_DAYS: ReuseTask = {
  name: "date:subtract_days_from_date",
  intent: "subtract a number of days from a date given as YYYY-MM-DD",
  code: `${SHIFT}- args.days);\nreturn d.toISOString().slice(0, 10);`,
  expect: (a) => shiftDate(a, -1),
  asks: [
    { say: "subtract 30 days from 2026-03-10", args: { date: "2026-03-10", days: 30 } },
    { say: "the report is due 2027-01-05 and I want a reminder 14 days earlier, which day is that?", args: { date: "2027-01-05", days: 14 } },
    { say: "launch is 2026-06-01, kickoff at T-100, gimme the kickoff", args: { date: "2026-06-01", days: 100 } },
  ],
};

const SEMVER = `const t = await mcp.filesystem.read_file({ path: args.path });
const tags = t.split("\\n").map((l) => l.trim()).filter((l) => /^v?\\d+\\.\\d+\\.\\d+$/.test(l));
const key = (s) => s.replace(/^v/, "").split(".").map(Number);
tags.sort((x, y) => { const a = key(x), b = key(y); return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; });`;
const semverTags = (a: Ask) => {
  const key = (s: string) => s.replace(/^v/, "").split(".").map(Number);
  const cmp = (x: string, y: string) => {
    const [p, q] = [key(x), key(y)];
    for (let i = 0; i < 3; i++) if (p[i] !== q[i]) return p[i]! - q[i]!;
    return 0;
  };
  return input(a)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^v?\d+\.\d+\.\d+$/.test(l))
    .sort(cmp);
};

const NEWEST_TAG: ReuseTask = {
  name: "git:find_newest_tag",
  intent: "find the highest semantic version among the tags listed in a text file",
  code: `${SEMVER}\nreturn tags[tags.length - 1];`,
  expect: (a) => semverTags(a).at(-1),
  asks: [
    {
      say: "find the highest semantic version among the tags listed in release/tags.txt",
      args: { path: "release/tags.txt" },
      files: { "release/tags.txt": lines("v1.2.0", "v1.10.1", "v1.9.7", "v0.12.0", "nightly") },
    },
    {
      say: "what's our latest release? I saved the `git tag` output to tmp/gittags.out",
      args: { path: "tmp/gittags.out" },
      files: { "tmp/gittags.out": lines("2.0.0", "2.0.10", "2.0.9", "1.99.0") },
    },
    { say: "max semver in vendor/lib-versions.txt", args: { path: "vendor/lib-versions.txt" }, files: { "vendor/lib-versions.txt": lines("v3.4.2", "v3.4.10", "v3.3.99") } },
  ],
};

const OLDEST_TAG: ReuseTask = {
  name: "git:find_oldest_tag",
  intent: "find the lowest semantic version among the tags listed in a text file",
  code: `${SEMVER}\nreturn tags[0];`,
  expect: (a) => semverTags(a)[0],
  asks: [
    {
      say: "find the lowest semantic version among the tags listed in legacy/tags.txt",
      args: { path: "legacy/tags.txt" },
      files: { "legacy/tags.txt": lines("v2.10.0", "v2.9.0", "v2.11.3", "v3.0.0") },
    },
    { say: "earliest version we still have tagged? see ci/tags.txt", args: { path: "ci/tags.txt" }, files: { "ci/tags.txt": lines("0.10.0", "0.9.5", "0.9.12", "1.0.0") } },
    { say: "oldest rel in archive/tag-list.txt pls", args: { path: "archive/tag-list.txt" }, files: { "archive/tag-list.txt": lines("v10.0.0", "v9.1.0", "v9.0.3") } },
  ],
};

const ENDPOINT = `const t = await mcp.filesystem.read_file({ path: args.path });
const sum = {}, n = {};
for (const l of t.split("\\n")) {
  const p = l.trim().split(/\\s+/);
  if (p.length < 5) continue;
  sum[p[2]] = (sum[p[2]] || 0) + parseFloat(p[p.length - 1]);
  n[p[2]] = (n[p[2]] || 0) + 1;
}
const avg = Object.keys(sum).map((k) => [k, sum[k] / n[k]]).sort((a, b) => a[1] - b[1]);`;
const averages = (a: Ask) => {
  const by = new Map<string, number[]>();
  for (const l of input(a).split("\n")) {
    const p = l.trim().split(/\s+/);
    if (p.length < 5) continue;
    by.set(p[2]!, [...(by.get(p[2]!) ?? []), Number.parseFloat(p.at(-1)!)]);
  }
  return [...by].map(([k, ms]) => [k, ms.reduce((x, y) => x + y, 0) / ms.length] as const).sort((x, y) => x[1] - y[1]);
};
const log = (...reqs: string[]) => lines(...reqs.map((r, i) => `2026-12-0${1 + (i % 6)}T10:0${i % 10}:00Z ${r}`));

const SLOWEST_ENDPOINT: ReuseTask = {
  name: "log:find_slowest_endpoint",
  intent: "find the request path with the highest average response time in an access log",
  code: `${ENDPOINT}\nreturn avg[avg.length - 1][0];`,
  expect: (a) => averages(a).at(-1)![0],
  asks: [
    {
      say: "find the request path with the highest average response time in logs/access.log",
      args: { path: "logs/access.log" },
      files: {
        "logs/access.log": log("GET /api/users 200 120ms", "GET /api/orders 200 340ms", "GET /api/users 200 80ms", "POST /api/orders 201 300ms", "GET /health 200 5ms"),
      },
    },
    {
      say: "which route is dragging? nginx/timing.log",
      args: { path: "nginx/timing.log" },
      files: { "nginx/timing.log": log("GET /login 200 90ms", "GET /search 200 400ms", "GET /login 302 110ms", "GET /search 200 100ms", "GET /cart 200 240ms") },
    },
    {
      say: "endpoint w/ worst avg latency in api/requests.log",
      args: { path: "api/requests.log" },
      files: { "api/requests.log": log("GET /v2/report 200 900ms", "GET /v2/list 200 50ms", "GET /v2/report 200 100ms", "DELETE /v2/item 204 700ms") },
    },
  ],
};

const FASTEST_ENDPOINT: ReuseTask = {
  name: "log:find_fastest_endpoint",
  intent: "find the request path with the lowest average response time in an access log",
  code: `${ENDPOINT}\nreturn avg[0][0];`,
  expect: (a) => averages(a)[0]![0],
  asks: [
    {
      say: "find the request path with the lowest average response time in logs/edge-access.log",
      args: { path: "logs/edge-access.log" },
      files: { "logs/edge-access.log": log("GET /img 200 12ms", "GET /api/feed 200 200ms", "GET /api/me 200 30ms", "GET /img 200 18ms", "GET /api/me 200 10ms") },
    },
    {
      say: "quickest endpoint on average in srv/gateway.log?",
      args: { path: "srv/gateway.log" },
      files: { "srv/gateway.log": log("POST /v1/quote 200 55ms", "GET /v1/ping 200 3ms", "POST /v1/quote 200 65ms", "POST /v1/order 201 500ms") },
    },
    {
      say: "which path responds fastest, averaged, in web/access-2026-12-06.log",
      args: { path: "web/access-2026-12-06.log" },
      files: { "web/access-2026-12-06.log": log("GET / 200 40ms", "GET /about 200 25ms", "GET / 200 20ms", "GET /blog 200 35ms", "GET /about 200 45ms") },
    },
  ],
};

const lineSet = (t: string) => [...new Set(t.split("\n").map((l) => l.trim()))].filter((l) => l !== "");
const LINE_SETS = `const lineSet = (t) => [...new Set(t.split("\\n").map((l) => l.trim()))].filter((l) => l !== "");
const a = lineSet(await mcp.filesystem.read_file({ path: args.first }));
const b = new Set(lineSet(await mcp.filesystem.read_file({ path: args.second })));`;

const COMMON_LINES: ReuseTask = {
  name: "text:list_common_lines",
  intent: "list the lines that appear in both of two text files",
  code: `${LINE_SETS}\nreturn a.filter((l) => b.has(l));`,
  expect: (a) => lineSet(input(a, "first")).filter((l) => lineSet(input(a, "second")).includes(l)),
  asks: [
    {
      say: "list the lines that appear in both lists/march.txt and lists/april.txt",
      args: { first: "lists/march.txt", second: "lists/april.txt" },
      files: { "lists/march.txt": lines("ana", "bo", "cy", "dee"), "lists/april.txt": lines("cy", "eve", "ana", "fin") },
    },
    {
      say: "who is on both teams/frontend.txt and teams/backend.txt?",
      args: { first: "teams/frontend.txt", second: "teams/backend.txt" },
      files: { "teams/frontend.txt": lines("Mara", "Jon", "Ivo"), "teams/backend.txt": lines("Ivo", "Kai", "Mara") },
    },
    {
      say: "intersection of deps/old.txt & deps/new.txt",
      args: { first: "deps/old.txt", second: "deps/new.txt" },
      files: { "deps/old.txt": lines("react", "lodash", "axios", "zod"), "deps/new.txt": lines("zod", "vitest", "react") },
    },
  ],
};

const MISSING_LINES: ReuseTask = {
  name: "text:list_missing_lines",
  intent: "list the lines of the first text file that are missing from the second one",
  code: `${LINE_SETS}\nreturn a.filter((l) => !b.has(l));`,
  expect: (a) => lineSet(input(a, "first")).filter((l) => !lineSet(input(a, "second")).includes(l)),
  asks: [
    {
      say: "list the lines of inventory/expected.txt that are missing from inventory/scanned.txt",
      args: { first: "inventory/expected.txt", second: "inventory/scanned.txt" },
      files: { "inventory/expected.txt": lines("SKU-1", "SKU-2", "SKU-3", "SKU-4"), "inventory/scanned.txt": lines("SKU-2", "SKU-4", "SKU-9") },
    },
    {
      say: "emails/invited.txt vs emails/rsvp.txt — who never answered?",
      args: { first: "emails/invited.txt", second: "emails/rsvp.txt" },
      files: { "emails/invited.txt": lines("a@x.io", "b@x.io", "c@x.io", "d@x.io"), "emails/rsvp.txt": lines("c@x.io", "a@x.io") },
    },
    {
      say: "set difference: keys/required.txt minus keys/present.txt",
      args: { first: "keys/required.txt", second: "keys/present.txt" },
      files: { "keys/required.txt": lines("DB_URL", "API_KEY", "SENTRY_DSN", "PORT"), "keys/present.txt": lines("PORT", "DB_URL") },
    },
  ],
};

const PRIVATE_IP: ReuseTask = {
  name: "net:check_private_ip",
  intent: "check whether an IPv4 address is in a private range (10/8, 172.16/12, 192.168/16)",
  code: 'const [a, b] = args.ip.trim().split(".").map(Number);\nreturn a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);',
  expect: (a) => {
    const [x, y] = (a.args.ip as string).split(".").map(Number) as [number, number];
    return x === 10 || (x === 172 && y >= 16 && y < 32) || (x === 192 && y === 168);
  },
  asks: [
    { say: "check whether 172.20.3.4 is in a private range", args: { ip: "172.20.3.4" } },
    { say: "is 172.32.0.1 internal or public-facing?", args: { ip: "172.32.0.1" } },
    { say: "RFC1918? 192.168.1.254", args: { ip: "192.168.1.254" } },
  ],
};

const HEX_RGB: ReuseTask = {
  name: "color:convert_hex_rgb",
  intent: "convert a hex color code to an rgb() string",
  code: 'let h = args.hex.trim().replace(/^#/, "");\nif (h.length === 3) h = h.split("").map((c) => c + c).join("");\nreturn "rgb(" + [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)).join(", ") + ")";',
  expect: (a) => {
    const h = (a.args.hex as string).replace("#", "");
    const full = h.length === 3 ? [...h].map((c) => c + c).join("") : h;
    return `rgb(${Number.parseInt(full.slice(0, 2), 16)}, ${Number.parseInt(full.slice(2, 4), 16)}, ${Number.parseInt(full.slice(4, 6), 16)})`;
  },
  asks: [
    { say: "convert the hex color #ff8800 to an rgb() string", args: { hex: "#ff8800" } },
    { say: "#0af as rgb pls", args: { hex: "#0af" } },
    { say: "the designer sent 1E90FF, what is that in red/green/blue numbers?", args: { hex: "1E90FF" } },
  ],
};

const DUPLICATE_EMAILS: ReuseTask = {
  name: "csv:find_duplicate_emails",
  intent: "list the email addresses that appear more than once in a CSV file's email column, ignoring case, in first-seen order",
  code: `const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.trim().split("\\n").map((l) => l.split(","));
const i = head.map((h) => h.trim()).indexOf("email");
const n = {}, order = [];
for (const r of rows) {
  const e = (r[i] || "").trim().toLowerCase();
  if (e === "") continue;
  if (!(e in n)) { n[e] = 0; order.push(e); }
  n[e]++;
}
return order.filter((e) => n[e] > 1);`,
  expect: (a) => {
    const all = columnOf(a, "email").map((e) => e.toLowerCase());
    return [...new Set(all)].filter((e) => all.filter((x) => x === e).length > 1);
  },
  asks: [
    {
      say: "list the email addresses that appear more than once in crm/contacts.csv",
      args: { path: "crm/contacts.csv" },
      files: {
        "crm/contacts.csv": csv("name,email", [
          ["Ana", "ana@corp.io"],
          ["Bo", "BO@corp.io"],
          ["Ana L", "Ana@Corp.io"],
          ["Cy", "cy@corp.io"],
          ["Bob", "bo@corp.io"],
        ]),
      },
    },
    {
      say: "did anybody sign up twice? newsletter/subs.csv",
      args: { path: "newsletter/subs.csv" },
      files: {
        "newsletter/subs.csv": csv("email,joined", [
          ["x@m.net", "2026-01-02"],
          ["y@m.net", "2026-01-05"],
          ["X@M.net", "2026-02-11"],
          ["z@m.net", "2026-03-01"],
        ]),
      },
    },
    {
      say: "dupe addresses in events/rsvps.csv (case shouldn't matter)",
      args: { path: "events/rsvps.csv" },
      files: {
        "events/rsvps.csv": csv("id,email,seat", [
          [1, "k@e.org", "A1"],
          [2, "l@e.org", "A2"],
          [3, "m@e.org", "A3"],
          [4, "L@E.ORG", "A4"],
          [5, "k@e.org", "A5"],
          [6, "M@e.org", "A6"],
        ]),
      },
    },
  ],
};

const FORMAT_BYTES: ReuseTask = {
  name: "size:format_bytes",
  intent: "format a byte count as a human-readable size (B, KiB, MiB, GiB) with one decimal",
  code: 'const units = ["B", "KiB", "MiB", "GiB", "TiB"];\nlet n = args.bytes, u = 0;\nwhile (n >= 1024 && u < units.length - 1) { n /= 1024; u++; }\nreturn u === 0 ? n + " B" : n.toFixed(1) + " " + units[u];',
  expect: (a) => {
    const b = a.args.bytes as number;
    const u = [4, 3, 2, 1].find((k) => b >= 1024 ** k) ?? 0;
    return u === 0 ? `${b} B` : `${(b / 1024 ** u).toFixed(1)} ${["B", "KiB", "MiB", "GiB", "TiB"][u]}`;
  },
  asks: [
    { say: "format 1536 bytes as a human-readable size", args: { bytes: 1536 } },
    { say: "how big is 5000000 in megs, the way ls -lh shows it", args: { bytes: 5000000 } },
    { say: "pretty-print a size of 3221225472", args: { bytes: 3221225472 } },
  ],
};

export const BLIND_11_TASKS: readonly ReuseTask[] = [
  EARLIEST_DATE,
  PERCENT_ENCODE,
  ENABLED_FLAGS,
  PRIVATE_IP,
  NEWEST_TAG,
  QUERY_NAMES,
  SLOWEST_ENDPOINT,
  ADD_DAYS,
  COMMON_LINES,
  HEX_RGB,
  LATEST_DATE,
  DISABLED_FLAGS,
  PERCENT_DECODE,
  DUPLICATE_EMAILS,
  OLDEST_TAG,
  FASTEST_ENDPOINT,
  QUERY_VALUES,
  SUBTRACT_DAYS,
  MISSING_LINES,
  FORMAT_BYTES,
];
