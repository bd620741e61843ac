// The 12th blind stream of bench/reuse.ts (`--tasks blind12`): written blind on 2026-12-07 by a
// helper that saw only the format (bench/reuse-tasks.ts's types, helpers and one example task),
// never pml's ranking, its labels or any bench output. Nothing is tuned on it; its requests are
// never printed. 20 tasks, each asked 3 times by different users on different days (terse,
// chatty, a file name and little else, jargon, typos, a non-native speaker); about half of the
// repeats share a content word with the intent and half share none. 8 near-twin pairs take
// inputs of the same names and kinds, so that reusing the twin runs and answers wrongly: first
// vs last ERROR message, a URL's host vs its path, base64 encode vs decode, versions oldest-first vs
// newest-first, checked vs unchecked checklist items, days after vs before a date, counting vs
// listing 5xx requests, cheapest vs priciest product.
import { type Ask, csv, input, lines, type ReuseTask } from "./reuse-tasks.ts";

// --- logs: first vs last ERROR message ---

const errorMessages = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => /\bERROR\b/.test(l))
    .map((l) => l.replace(/^.*?\bERROR\b/, "").trim());

const FIRST_ERROR_LINE: ReuseTask = {
  name: "log:first_error_message",
  intent: "get the message of the first ERROR entry in a log file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const hit = t.split("\n").find((l) => /\bERROR\b/.test(l));
return hit === undefined ? null : hit.slice(hit.indexOf("ERROR") + 5).trim();`,
  expect: (a) => errorMessages(a)[0] ?? null,
  asks: [
    {
      say: "get the message of the first ERROR entry in logs/api.log",
      args: { path: "logs/api.log" },
      files: {
        "logs/api.log": lines(
          "2026-03-02T08:00:01Z INFO server listening on :8080",
          "2026-03-02T08:00:05Z WARN slow query 812ms",
          "2026-03-02T08:01:10Z ERROR db connection refused",
          "2026-03-02T08:01:12Z INFO retrying",
          "2026-03-02T08:02:40Z ERROR db pool exhausted",
          "2026-03-02T08:03:00Z INFO recovered",
        ),
      },
    },
    {
      say: "hey, the worker fell over during the night. could you grab the earliest error entry from logs/worker-night.log so I can see where it started?",
      args: { path: "logs/worker-night.log" },
      files: {
        "logs/worker-night.log": lines(
          "2026-03-03T01:00:00Z INFO job batch-17 started",
          "2026-03-03T01:12:44Z WARN retry 1 for item 4411",
          "2026-03-03T01:13:02Z ERROR item 4411: upstream 502",
          "2026-03-03T02:40:19Z ERROR out of memory, worker restarting",
          "2026-03-03T02:41:00Z INFO job batch-18 started",
        ),
      },
    },
    {
      say: "var/cron.out: which failure came up before all the others, and what did it say?",
      args: { path: "var/cron.out" },
      files: {
        "var/cron.out": lines(
          "[2026-03-04 00:00:01] INFO rotate archives",
          "[2026-03-04 00:05:00] INFO backup started",
          "[2026-03-04 00:07:31] ERROR backup: disk full on /mnt/b",
          "[2026-03-04 00:30:00] INFO cleanup done",
          "[2026-03-04 01:00:02] ERROR cert renew failed: timeout",
        ),
      },
    },
  ],
};

const LAST_ERROR_LINE: ReuseTask = {
  name: "log:last_error_message",
  intent: "get the message of the last ERROR entry in a log file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const hits = t.split("\n").filter((l) => /\bERROR\b/.test(l));
if (hits.length === 0) return null;
const last = hits[hits.length - 1];
return last.slice(last.indexOf("ERROR") + 5).trim();`,
  expect: (a) => errorMessages(a).at(-1) ?? null,
  asks: [
    {
      say: "get the message of the last ERROR entry in logs/api-eu.log",
      args: { path: "logs/api-eu.log" },
      files: {
        "logs/api-eu.log": lines(
          "2026-03-05T09:00:00Z INFO boot",
          "2026-03-05T09:00:03Z ERROR cache: redis unreachable",
          "2026-03-05T09:00:09Z INFO cache: connected",
          "2026-03-05T09:14:27Z ERROR handler /orders panicked: nil map",
          "2026-03-05T09:15:00Z WARN latency p99 1.8s",
        ),
      },
    },
    {
      say: "most recent error in logs/payments.log pls, just the text",
      args: { path: "logs/payments.log" },
      files: {
        "logs/payments.log": lines(
          "2026-03-06T11:02:10Z ERROR charge ch_81 declined: card expired",
          "2026-03-06T11:05:44Z INFO charge ch_82 ok",
          "2026-03-06T11:09:31Z ERROR webhook signature mismatch",
          "2026-03-06T11:10:00Z INFO settle batch 9",
        ),
      },
    },
    {
      say: "srv/gateway.out - wich failure happend most lately? i need only what it says",
      args: { path: "srv/gateway.out" },
      files: {
        "srv/gateway.out": lines(
          "2026-03-07 18:00:00 ERROR tls handshake failed from 198.51.100.7",
          "2026-03-07 18:02:11 INFO reload config",
          "2026-03-07 18:03:40 ERROR upstream auth-svc timed out after 30s",
          "2026-03-07 18:03:41 WARN circuit open for auth-svc",
          "2026-03-07 18:05:00 INFO circuit closed",
        ),
      },
    },
  ],
};

// --- URLs: host vs path ---

const URL_HOSTNAME: ReuseTask = {
  name: "url:parse_domain",
  intent: "extract the host name from a URL",
  code: String.raw`const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@\/?#]*@)?([^:\/?#]+)/i.exec(String(args.url).trim());
return m ? m[1].toLowerCase() : null;`,
  expect: (a) => new URL(a.args.url as string).hostname,
  asks: [
    { say: "extract the host name from https://api.example.com:8443/v2/users?id=7", args: { url: "https://api.example.com:8443/v2/users?id=7" } },
    { say: "what's the FQDN in this URL: https://deploy:s3cret@ci.internal.acme.io/job/42/console", args: { url: "https://deploy:s3cret@ci.internal.acme.io/job/42/console" } },
    { say: "which server is this link pointing? http://Files.Example.ORG/share/report.pdf", args: { url: "http://Files.Example.ORG/share/report.pdf" } },
  ],
};

const URL_PATH: ReuseTask = {
  name: "url:parse_route",
  intent: "extract the path part from a URL",
  code: String.raw`const m = /^[a-z][a-z0-9+.-]*:\/\/[^\/?#]*([^?#]*)/i.exec(String(args.url).trim());
return m ? m[1] || "/" : null;`,
  expect: (a) => new URL(a.args.url as string).pathname,
  asks: [
    { say: "extract the path part from https://shop.example.com/cart/checkout?step=2", args: { url: "https://shop.example.com/cart/checkout?step=2" } },
    {
      say: "I'm writing a redirect rule and only need the route bit of this URL, no domain and no query: https://docs.example.dev/guides/install/linux#prereqs",
      args: { url: "https://docs.example.dev/guides/install/linux#prereqs" },
    },
    { say: "route of http://localhost:3000/api/v1/orders/991?expand=items", args: { url: "http://localhost:3000/api/v1/orders/991?expand=items" } },
  ],
};

// --- text: base64 encode vs decode ---

const B64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

const BASE64_ENCODE: ReuseTask = {
  name: "b64:encode_text",
  intent: "encode a text string as base64",
  code: String.raw`const enc = encodeURIComponent(args.text);
const bytes = [];
for (let i = 0; i < enc.length; i++) {
  if (enc[i] === "%") {
    bytes.push(parseInt(enc.slice(i + 1, i + 3), 16));
    i += 2;
  } else bytes.push(enc.charCodeAt(i));
}
const A = "${B64_ALPHABET}";
let out = "";
for (let i = 0; i < bytes.length; i += 3) {
  const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
  out += A[(n >> 18) & 63] + A[(n >> 12) & 63];
  out += i + 1 < bytes.length ? A[(n >> 6) & 63] : "=";
  out += i + 2 < bytes.length ? A[n & 63] : "=";
}
return out;`,
  expect: (a) => Buffer.from(a.args.text as string, "utf8").toString("base64"),
  asks: [
    { say: "encode 'hello world' as base64", args: { text: "hello world" } },
    { say: "b64 of admin:hunter2 for a Basic auth header", args: { text: "admin:hunter2" } },
    { say: "pls base64 this string: Größe: 42", args: { text: "Größe: 42" } },
  ],
};

const BASE64_DECODE: ReuseTask = {
  name: "b64:decode_text",
  intent: "decode a base64 string back to text",
  code: String.raw`const A = "${B64_ALPHABET}";
const s = String(args.text).replace(/[^A-Za-z0-9+\/]/g, "");
const bytes = [];
let buf = 0;
let bits = 0;
for (const c of s) {
  buf = ((buf << 6) | A.indexOf(c)) & 0xffff;
  bits += 6;
  if (bits >= 8) {
    bits -= 8;
    bytes.push((buf >> bits) & 255);
  }
}
return decodeURIComponent(bytes.map((b) => "%" + b.toString(16).padStart(2, "0")).join(""));`,
  expect: (a) => Buffer.from(a.args.text as string, "base64").toString("utf8"),
  asks: [
    { say: "decode the base64 string SGVsbG8sIFBNTCE=", args: { text: "SGVsbG8sIFBNTCE=" } },
    { say: "someone pasted dXNlcj1rZXZpbiZyb2xlPW9wcw== in the ticket, what does it actually say?", args: { text: "dXNlcj1rZXZpbiZyb2xlPW9wcw==" } },
    { say: "please, this base64 what is meaning: eyJhbGciOiJIUzI1NiJ9", args: { text: "eyJhbGciOiJIUzI1NiJ9" } },
  ],
};

// --- versions: oldest first vs newest first ---

const byVersion = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });
const versions = (a: Ask) => [...(a.args.versions as string[])];

const SORT_VERSIONS_ASC: ReuseTask = {
  name: "semver:sort_versions_ascending",
  intent: "sort semantic version numbers from oldest to newest",
  code: String.raw`const key = (v) => String(v).trim().replace(/^v/, "").split(".").map(Number);
return [...args.versions].sort((a, b) => {
  const x = key(a);
  const y = key(b);
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
});`,
  expect: (a) => versions(a).sort(byVersion),
  asks: [
    { say: "sort these semantic versions from oldest to newest: 1.10.0, 1.2.3, 1.9.12, 0.9.0", args: { versions: ["1.10.0", "1.2.3", "1.9.12", "0.9.0"] } },
    { say: "oldest release first please: 3.1.0, 3.0.12, 3.0.2, 2.14.1", args: { versions: ["3.1.0", "3.0.12", "3.0.2", "2.14.1"] } },
    { say: "changelog order, ascending, for tags 2.0.0 10.0.1 2.0.10 2.0.9", args: { versions: ["2.0.0", "10.0.1", "2.0.10", "2.0.9"] } },
  ],
};

const SORT_VERSIONS_DESC: ReuseTask = {
  name: "semver:sort_versions_descending",
  intent: "sort semantic version numbers from newest to oldest",
  code: String.raw`const key = (v) => String(v).trim().replace(/^v/, "").split(".").map(Number);
return [...args.versions].sort((a, b) => {
  const x = key(a);
  const y = key(b);
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
  return 0;
});`,
  expect: (a) => versions(a).sort((x, y) => byVersion(y, x)),
  asks: [
    { say: "sort these semantic versions from newest to oldest: 4.0.0, 4.0.10, 3.11.2, 4.0.2", args: { versions: ["4.0.0", "4.0.10", "3.11.2", "4.0.2"] } },
    {
      say: "for the releases dropdown I want the latest at the top. can you arrange 0.12.0, 0.9.8, 1.0.0, 0.12.3 that way?",
      args: { versions: ["0.12.0", "0.9.8", "1.0.0", "0.12.3"] },
    },
    { say: "sort thes tags newst first: 7.2.0 7.10.1 7.2.11 6.99.0", args: { versions: ["7.2.0", "7.10.1", "7.2.11", "6.99.0"] } },
  ],
};

// --- markdown checklists: checked vs unchecked ---

const checklist = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => /^\s*[-*+]\s+\[([ xX])\]\s+(.*\S)\s*$/.exec(l))
    .filter((m) => m !== null)
    .map((m) => ({ done: m[1] !== " ", text: m[2]! }));

const CHECKED_ITEMS: ReuseTask = {
  name: "md:list_checked_items",
  intent: "list the checked-off items of a markdown checklist",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const l of t.split("\n")) {
  const m = /^\s*[-*+]\s+\[([ xX])\]\s+(.*\S)\s*$/.exec(l);
  if (m && m[1] !== " ") out.push(m[2]);
}
return out;`,
  expect: (a) => checklist(a).flatMap((i) => (i.done ? [i.text] : [])),
  asks: [
    {
      say: "list the checked-off items in notes/sprint-14.md",
      args: { path: "notes/sprint-14.md" },
      files: {
        "notes/sprint-14.md": lines(
          "# Sprint 14",
          "- [x] migrate auth to OAuth2",
          "- [ ] add rate limiting",
          "- [X] fix flaky upload test",
          "  - [x] pin chromium version",
          "- [ ] write release notes",
        ),
      },
    },
    {
      say: "what have we already finished? the checklist is in planning/launch.md",
      args: { path: "planning/launch.md" },
      files: {
        "planning/launch.md": lines("## Launch", "", "* [x] domain bought", "* [x] DNS records set", "* [ ] status page", "* [ ] press kit", "", "Ask legal about the footer."),
      },
    },
    {
      say: "docs/release-steps.md: done ones?",
      args: { path: "docs/release-steps.md" },
      files: { "docs/release-steps.md": lines("Release steps", "- [ ] bump version", "- [x] update changelog", "- [ ] tag and push", "- [x] run e2e suite") },
    },
  ],
};

const UNCHECKED_ITEMS: ReuseTask = {
  name: "md:list_unchecked_items",
  intent: "list the items still unchecked in a markdown checklist",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const l of t.split("\n")) {
  const m = /^\s*[-*+]\s+\[([ xX])\]\s+(.*\S)\s*$/.exec(l);
  if (m && m[1] === " ") out.push(m[2]);
}
return out;`,
  expect: (a) => checklist(a).flatMap((i) => (i.done ? [] : [i.text])),
  asks: [
    {
      say: "list the unchecked items in notes/sprint-15.md",
      args: { path: "notes/sprint-15.md" },
      files: { "notes/sprint-15.md": lines("# Sprint 15", "- [ ] dark mode toggle", "- [x] upgrade to Node 22", "- [ ] audit npm packages", "- [x] remove legacy API") },
    },
    {
      say: "in todo/moving-house.md, which things i still must do?",
      args: { path: "todo/moving-house.md" },
      files: { "todo/moving-house.md": lines("- [x] book the van", "- [ ] cancel internet", "- [ ] change address at the bank", "- [x] pack kitchen") },
    },
    {
      say: "open items in the DoD checklist at qa/definition-of-done.md",
      args: { path: "qa/definition-of-done.md" },
      files: {
        "qa/definition-of-done.md": lines(
          "# Definition of done",
          "- [x] code reviewed",
          "- [ ] unit tests green",
          "- [x] docs updated",
          "- [ ] feature flag removed",
          "- [ ] product owner sign-off",
        ),
      },
    },
  ],
};

// --- dates: days after vs days before ---

const shiftDays = (a: Ask, sign: 1 | -1) => new Date(Date.parse(`${a.args.date as string}T00:00:00Z`) + sign * (a.args.days as number) * 86_400_000).toISOString().slice(0, 10);

const ADD_DAYS: ReuseTask = {
  name: "calendar:add_days",
  intent: "add a number of days to a calendar date",
  code: String.raw`const [y, m, d] = String(args.date).split("-").map(Number);
return new Date(Date.UTC(y, m - 1, d + Number(args.days))).toISOString().slice(0, 10);`,
  expect: (a) => shiftDays(a, 1),
  asks: [
    { say: "add 30 days to 2026-01-15", args: { date: "2026-01-15", days: 30 } },
    { say: "the invoice is dated 2026-02-20 with payment terms of 14 days, when is it due?", args: { date: "2026-02-20", days: 14 } },
    { say: "2024-12-25 + 90d", args: { date: "2024-12-25", days: 90 } },
  ],
};

const SUBTRACT_DAYS: ReuseTask = {
  name: "calendar:subtract_days",
  intent: "subtract a number of days from a calendar date",
  code: String.raw`const [y, m, d] = String(args.date).split("-").map(Number);
return new Date(Date.UTC(y, m - 1, d - Number(args.days))).toISOString().slice(0, 10);`,
  expect: (a) => shiftDays(a, -1),
  asks: [
    { say: "subtract 45 days from 2026-03-10", args: { date: "2026-03-10", days: 45 } },
    { say: "code freeze is 21 days before the 2026-07-04 launch, what date is that?", args: { date: "2026-07-04", days: 21 } },
    { say: "2025-03-01 minus 100 dayz, wich one is it?", args: { date: "2025-03-01", days: 100 } },
  ],
};

// --- access logs: count 5xx vs list the paths that got them ---

const serverErrorPaths = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => /"[A-Z]+ (\S+)[^"]*" (\d{3})\b/.exec(l))
    .filter((m) => m !== null && m[2]!.startsWith("5"))
    .map((m) => m![1]!.split("?")[0]!);
const access = (ip: string, day: string, time: string, req: string, status: number, bytes: number) => `${ip} - - [${day}/Mar/2026:${time} +0000] "${req}" ${status} ${bytes}`;

const COUNT_5XX: ReuseTask = {
  name: "http:count_server_errors",
  intent: "count the requests answered with a 5xx status in an access log",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let n = 0;
for (const l of t.split("\n")) {
  const m = /"[A-Z]+ (\S+)[^"]*" (\d{3})\b/.exec(l);
  if (m && m[2][0] === "5") n++;
}
return n;`,
  expect: (a) => serverErrorPaths(a).length,
  asks: [
    {
      say: "count the requests answered with a 5xx status in logs/access-0301.log",
      args: { path: "logs/access-0301.log" },
      files: {
        "logs/access-0301.log": lines(
          access("203.0.113.5", "01", "10:00:01", "GET /api/users HTTP/1.1", 200, 512),
          access("203.0.113.9", "01", "10:00:02", "POST /api/orders HTTP/1.1", 502, 0),
          access("198.51.100.4", "01", "10:00:05", "GET /health HTTP/1.1", 200, 2),
          access("203.0.113.5", "01", "10:00:07", "GET /api/orders/17 HTTP/1.1", 500, 87),
          access("198.51.100.4", "01", "10:00:09", "GET /missing HTTP/1.1", 404, 150),
        ),
      },
    },
    {
      say: "how many 5xx in web/nginx-access.log?",
      args: { path: "web/nginx-access.log" },
      files: {
        "web/nginx-access.log": lines(
          access("10.0.0.2", "02", "12:00:00", "GET / HTTP/2.0", 200, 1024),
          access("10.0.0.3", "02", "12:00:01", "GET /login HTTP/2.0", 503, 0),
          access("10.0.0.3", "02", "12:00:02", "GET /login HTTP/2.0", 503, 0),
          access("10.0.0.4", "02", "12:00:04", "POST /api/pay HTTP/2.0", 504, 0),
          access("10.0.0.5", "02", "12:00:06", "GET /static/app.js HTTP/2.0", 304, 0),
          access("10.0.0.2", "02", "12:00:09", "POST /api/cart HTTP/2.0", 201, 33),
        ),
      },
    },
    {
      say: "the dashboard showed a spike yesterday; how many hits in srv/edge-0302.txt blew up on the server side (500s and friends)?",
      args: { path: "srv/edge-0302.txt" },
      files: {
        "srv/edge-0302.txt": lines(
          access("192.0.2.10", "02", "23:59:58", "GET /v2/feed HTTP/1.1", 500, 0),
          access("192.0.2.11", "02", "23:59:59", "GET /v2/feed HTTP/1.1", 200, 4096),
          access("192.0.2.12", "02", "23:59:59", "GET /v2/me HTTP/1.1", 401, 19),
          access("192.0.2.10", "03", "00:00:01", "PUT /v2/me/avatar HTTP/1.1", 507, 0),
          access("192.0.2.13", "03", "00:00:02", "GET /v2/feed?page=2 HTTP/1.1", 500, 0),
          access("192.0.2.14", "03", "00:00:03", "DELETE /v2/session HTTP/1.1", 501, 0),
        ),
      },
    },
  ],
};

const LIST_5XX_PATHS: ReuseTask = {
  name: "http:list_failing_paths",
  intent: "list the distinct request paths answered with a 5xx status in an access log",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const l of t.split("\n")) {
  const m = /"[A-Z]+ (\S+)[^"]*" (\d{3})\b/.exec(l);
  if (!m || m[2][0] !== "5") continue;
  const p = m[1].split("?")[0];
  if (!out.includes(p)) out.push(p);
}
return out;`,
  expect: (a) => [...new Set(serverErrorPaths(a))],
  asks: [
    {
      say: "list the distinct request paths answered with a 5xx status in logs/access-0303.log",
      args: { path: "logs/access-0303.log" },
      files: {
        "logs/access-0303.log": lines(
          access("203.0.113.20", "03", "09:00:00", "GET /api/search?q=shoes HTTP/1.1", 500, 0),
          access("203.0.113.21", "03", "09:00:01", "GET /api/search?q=hats HTTP/1.1", 500, 0),
          access("203.0.113.22", "03", "09:00:03", "GET /api/users HTTP/1.1", 200, 640),
          access("203.0.113.23", "03", "09:00:04", "POST /api/upload HTTP/1.1", 503, 0),
          access("203.0.113.20", "03", "09:00:06", "GET /api/search HTTP/1.1", 200, 2210),
        ),
      },
    },
    {
      say: "which endpoints are throwing 50x in srv/edge-0304.txt? each one once",
      args: { path: "srv/edge-0304.txt" },
      files: {
        "srv/edge-0304.txt": lines(
          access("192.0.2.30", "04", "14:10:00", "GET /v1/feed HTTP/2.0", 502, 0),
          access("192.0.2.31", "04", "14:10:01", "GET /v1/profile HTTP/2.0", 200, 830),
          access("192.0.2.32", "04", "14:10:02", "POST /v1/profile HTTP/2.0", 500, 0),
          access("192.0.2.30", "04", "14:10:05", "GET /v1/feed HTTP/2.0", 504, 0),
          access("192.0.2.33", "04", "14:10:07", "GET /v1/ping HTTP/2.0", 204, 0),
        ),
      },
    },
    {
      say: "from logs/lb-access.log give me please which paths have 5xx, without repeat",
      args: { path: "logs/lb-access.log" },
      files: {
        "logs/lb-access.log": lines(
          access("10.1.0.7", "05", "07:30:00", "GET /checkout HTTP/1.1", 200, 5120),
          access("10.1.0.8", "05", "07:30:02", "POST /checkout/confirm HTTP/1.1", 503, 0),
          access("10.1.0.9", "05", "07:30:03", "GET /cart HTTP/1.1", 500, 0),
          access("10.1.0.8", "05", "07:30:09", "POST /checkout/confirm HTTP/1.1", 503, 0),
          access("10.1.0.7", "05", "07:31:00", "GET /robots.txt HTTP/1.1", 404, 0),
        ),
      },
    },
  ],
};

// --- CSV price lists: cheapest vs priciest ---

const productBy = (a: Ask, better: (x: number, y: number) => boolean) => {
  const [head, ...rows] = input(a)
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  const p = head!.indexOf("price");
  const n = head!.indexOf("name");
  return rows.reduce((best, r) => (better(Number(r[p]), Number(best[p])) ? r : best))[n];
};

const CHEAPEST_PRODUCT: ReuseTask = {
  name: "csv:cheapest_product",
  intent: "name the lowest-priced product in a CSV price list",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.trim().split("\n").map((l) => l.split(","));
const p = head.indexOf("price");
const n = head.indexOf("name");
let best = null;
for (const r of rows) if (best === null || Number(r[p]) < Number(best[p])) best = r;
return best ? best[n] : null;`,
  expect: (a) => productBy(a, (x, y) => x < y),
  asks: [
    {
      say: "name the lowest-priced product in data/catalog-a.csv",
      args: { path: "data/catalog-a.csv" },
      files: {
        "data/catalog-a.csv": csv("sku,name,price", [
          ["A1", "USB-C cable", 9.5],
          ["A2", "Laptop stand", 34],
          ["A3", "HDMI adapter", 12.99],
          ["A4", "Webcam cover", 3.25],
        ]),
      },
    },
    {
      say: "which product costs the least in shop/spring-sale.csv? I'm on a budget",
      args: { path: "shop/spring-sale.csv" },
      files: {
        "shop/spring-sale.csv": csv("name,price,stock", [
          ["Garden gloves", 7.9, 40],
          ["Seed kit", 15, 12],
          ["Watering can", 11.5, 8],
          ["Hose 20m", 24.99, 5],
        ]),
      },
    },
    {
      say: "inventory/q3-items.txt (comma separated) - cheapest?",
      args: { path: "inventory/q3-items.txt" },
      files: {
        "inventory/q3-items.txt": csv("price,sku,name", [
          [120, "Q1", "Monitor arm"],
          [89.9, "Q2", "Keyboard"],
          [1050, "Q3", "Standing desk"],
          [45, "Q4", "Desk mat"],
        ]),
      },
    },
  ],
};

const PRICIEST_PRODUCT: ReuseTask = {
  name: "csv:priciest_product",
  intent: "name the highest-priced product in a CSV price list",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.trim().split("\n").map((l) => l.split(","));
const p = head.indexOf("price");
const n = head.indexOf("name");
let best = null;
for (const r of rows) if (best === null || Number(r[p]) > Number(best[p])) best = r;
return best ? best[n] : null;`,
  expect: (a) => productBy(a, (x, y) => x > y),
  asks: [
    {
      say: "name the highest-priced product in data/catalog-b.csv",
      args: { path: "data/catalog-b.csv" },
      files: {
        "data/catalog-b.csv": csv("sku,name,price", [
          ["B1", "Phone case", 19],
          ["B2", "Screen protector", 8.75],
          ["B3", "Wireless charger", 100],
          ["B4", "Earbuds", 99.99],
        ]),
      },
    },
    {
      say: "in shop/gadgets.txt which one is costing most money?",
      args: { path: "shop/gadgets.txt" },
      files: {
        "shop/gadgets.txt": csv("name,price", [
          ["Smart plug", 21.5],
          ["Drone", 349],
          ["Fitness band", 59.95],
          ["VR headset", 1299],
        ]),
      },
    },
    {
      say: "most expensiv product in store/winter.csv?",
      args: { path: "store/winter.csv" },
      files: {
        "store/winter.csv": csv("sku,price,name", [
          ["W1", 45, "Wool scarf"],
          ["W2", 180, "Down jacket"],
          ["W3", 12.5, "Beanie"],
          ["W4", 95, "Snow boots"],
        ]),
      },
    },
  ],
};

// --- singles ---

const MD_LINK_URLS: ReuseTask = {
  name: "md:extract_link_urls",
  intent: "collect the link URLs of a markdown document, images left out",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const re = /(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const out = [];
let m;
while ((m = re.exec(t)) !== null) if (m[1] === "") out.push(m[2]);
return out;`,
  expect: (a) =>
    [
      ...input(a)
        .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
        .matchAll(/\[[^\]]*\]\(([^)\s]+)[^)]*\)/g),
    ].map((m) => m[1]),
  asks: [
    {
      say: "collect the link URLs in docs/README.md, not the images",
      args: { path: "docs/README.md" },
      files: {
        "docs/README.md": lines(
          "# Project",
          "See the [install guide](https://example.dev/install) first.",
          "![logo](assets/logo.png)",
          'Questions go to the [forum](https://forum.example.dev "Forum") or [chat](https://chat.example.dev/room/42).',
        ),
      },
    },
    {
      say: "dump every href from site/about.md (skip the ![img] ones)",
      args: { path: "site/about.md" },
      files: {
        "site/about.md": lines(
          "## About us",
          "We build [open tools](https://github.com/acme) for [data teams](/teams).",
          "![team photo](img/team.jpg) taken at [our office](https://maps.example.com/?q=acme+hq).",
        ),
      },
    },
    {
      say: "I want to check for dead links before publishing: which addresses does blog/2026-04-post.md link to? pictures don't count",
      args: { path: "blog/2026-04-post.md" },
      files: {
        "blog/2026-04-post.md": lines(
          "# Q1 in numbers",
          "Following [part one](./2026-03-post.md), here is the chart:",
          "![chart](charts/q1.svg)",
          "Caching follows [the RFC](https://www.rfc-editor.org/rfc/rfc9110). Write to [us](mailto:hi@example.com).",
        ),
      },
    },
  ],
};

const DURATION_SECONDS: ReuseTask = {
  name: "time:parse_duration_seconds",
  intent: "convert a duration like 1h30m to seconds",
  code: String.raw`const unit = { d: 86400, h: 3600, m: 60, s: 1 };
const re = /(\d+(?:\.\d+)?)\s*([dhms])/gi;
let total = 0;
let m;
while ((m = re.exec(String(args.duration))) !== null) total += Number(m[1]) * unit[m[2].toLowerCase()];
return total;`,
  expect: (a) => {
    const unit: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1 };
    return [...(a.args.duration as string).matchAll(/(\d+)([dhms])/g)].reduce((t, m) => t + Number(m[1]) * unit[m[2]!]!, 0);
  },
  asks: [
    { say: "convert the duration 1h30m15s to seconds", args: { duration: "1h30m15s" } },
    { say: "2h5m in s", args: { duration: "2h5m" } },
    { say: "the job timeout in our CI yaml says 1d2h, how many seconds is that?", args: { duration: "1d2h" } },
  ],
};

const EMPTY_ENV_VARS: ReuseTask = {
  name: "env:list_empty_vars",
  intent: "list the variables left empty in a .env file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const raw of t.split("\n")) {
  const l = raw.trim();
  if (l === "" || l.startsWith("#")) continue;
  const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(l);
  if (!m) continue;
  let v = m[2].trim();
  if (!/^["']/.test(v)) v = v.replace(/(^|\s+)#.*$/, "").trim();
  if (v === "" || v === '""' || v === "''") out.push(m[1]);
}
return out;`,
  expect: (a) =>
    input(a)
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#"))
      .map((l) => l.replace(/^export\s+/, ""))
      .filter((l) => {
        const value = l.slice(l.indexOf("=") + 1).trim();
        return ["", '""', "''"].includes(value.startsWith('"') || value.startsWith("'") ? value : value.replace(/(^|\s+)#.*$/, "").trim());
      })
      .map((l) => l.slice(0, l.indexOf("=")).trim()),
  asks: [
    {
      say: "list the variables left empty in deploy/app.env",
      args: { path: "deploy/app.env" },
      files: {
        "deploy/app.env": lines(
          "# database",
          "DATABASE_URL=postgres://app@db:5432/app",
          "DB_PASSWORD=",
          "export REDIS_URL=redis://cache:6379",
          'SENTRY_DSN=""',
          "LOG_LEVEL=info",
          "STRIPE_KEY= # ask finance",
        ),
      },
    },
    {
      say: "which env keys in config/production.env still have no value? i must fill them before friday",
      args: { path: "config/production.env" },
      files: { "config/production.env": lines("NODE_ENV=production", "API_KEY=''", "PORT=8080", "SMTP_HOST=", "SMTP_USER=mailer") },
    },
    {
      say: "services/api/local.dotenv: which keys are still blank?",
      args: { path: "services/api/local.dotenv" },
      files: {
        "services/api/local.dotenv": lines("# local overrides", "DEBUG=true", "OPENAI_API_KEY=", "CACHE_TTL=60", "export JWT_SECRET=", 'GREETING="hello # not a comment"'),
      },
    },
  ],
};

const exactVersion = /^\d+\.\d+\.\d+$/;

const UNPINNED_DEPS: ReuseTask = {
  name: "npm:list_unpinned_dependencies",
  intent: "list the dependencies of a package.json not pinned to an exact version",
  code: String.raw`const p = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
const all = { ...(p.dependencies ?? {}), ...(p.devDependencies ?? {}) };
return Object.keys(all).filter((k) => !/^\d+\.\d+\.\d+$/.test(String(all[k]).trim())).sort();`,
  expect: (a) => {
    const p = JSON.parse(input(a)) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    return Object.entries({ ...p.dependencies, ...p.devDependencies })
      .filter(([, v]) => !exactVersion.test(v))
      .map(([k]) => k)
      .sort();
  },
  asks: [
    {
      say: "list the dependencies in web/package.json not pinned to an exact version",
      args: { path: "web/package.json" },
      files: {
        "web/package.json": JSON.stringify(
          {
            name: "web",
            private: true,
            dependencies: { react: "^18.3.1", "react-dom": "18.3.1", zod: "~3.23.8" },
            devDependencies: { vite: "5.4.2", typescript: ">=5.4 <6", eslint: "*" },
          },
          null,
          2,
        ),
      },
    },
    {
      say: "which deps in api/package.json float (caret, tilde, ranges, workspace:*)?",
      args: { path: "api/package.json" },
      files: {
        "api/package.json": JSON.stringify(
          { name: "api", dependencies: { express: "4.19.2", pg: "^8.12.0", "@acme/logger": "workspace:*" }, devDependencies: { jest: "29.7.0", nodemon: "~3.1.4" } },
          null,
          2,
        ),
      },
    },
    {
      say: "tools/cli/package.json: anything that isn't locked to a fixed release?",
      args: { path: "tools/cli/package.json" },
      files: {
        "tools/cli/package.json": JSON.stringify(
          {
            name: "cli",
            bin: { cli: "dist/cli.js" },
            dependencies: { commander: "12.1.0", chalk: "5.x", "left-pad": "1.3.0" },
            devDependencies: { tsx: "latest", vitest: "2.0.5" },
          },
          null,
          2,
        ),
      },
    },
  ],
};

export const BLIND_12_TASKS: readonly ReuseTask[] = [
  FIRST_ERROR_LINE,
  LAST_ERROR_LINE,
  URL_HOSTNAME,
  URL_PATH,
  BASE64_ENCODE,
  BASE64_DECODE,
  SORT_VERSIONS_ASC,
  SORT_VERSIONS_DESC,
  CHECKED_ITEMS,
  UNCHECKED_ITEMS,
  ADD_DAYS,
  SUBTRACT_DAYS,
  COUNT_5XX,
  LIST_5XX_PATHS,
  CHEAPEST_PRODUCT,
  PRICIEST_PRODUCT,
  MD_LINK_URLS,
  DURATION_SECONDS,
  EMPTY_ENV_VARS,
  UNPINNED_DEPS,
];
