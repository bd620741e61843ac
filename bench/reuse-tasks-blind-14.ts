// The 14th blind reuse stream (`--tasks blind14`), written blind on 2026-12-07 by a helper that saw
// only the format (bench/reuse-tasks.ts's types, helpers and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60
// requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names
// and kinds (runtime vs dev dependencies, first vs last error, count vs list of distinct values,
// days after vs before, percent-encode vs decode, open vs ticked checkboxes, flags on vs off, minor
// vs patch bump) and 4 single tasks. The repeats are worded as different users on different days
// would ask (terse, chatty, a file name, jargon, typos, a non-native speaker); one repeat of each
// task shares a content word with its intent, the other shares none.
import { type Ask, csv, input, lines, type ReuseTask } from "./reuse-tasks.ts";

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const manifest = (a: Ask) => JSON.parse(input(a)) as Record<string, Record<string, string> | undefined>;

const RUNTIME_DEPS: ReuseTask = {
  name: "pkg:list_runtime_deps",
  intent: "list the runtime dependencies of a Node manifest by name, sorted",
  code: String.raw`const pkg = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return Object.keys(pkg.dependencies || {}).sort();`,
  expect: (a) => Object.keys(manifest(a).dependencies ?? {}).sort(),
  asks: [
    {
      say: "list the runtime dependencies of web/package.json by name, sorted",
      args: { path: "web/package.json" },
      files: {
        "web/package.json": json({
          name: "web",
          version: "1.2.0",
          dependencies: { react: "^18.3.1", "react-dom": "^18.3.1", axios: "^1.7.2", clsx: "^2.1.1" },
          devDependencies: { vite: "^5.3.1", typescript: "^5.5.2", vitest: "^1.6.0" },
        }),
      },
    },
    {
      say: "runtime deps of services/api/package.json pls",
      args: { path: "services/api/package.json" },
      files: {
        "services/api/package.json": json({
          name: "api",
          private: true,
          dependencies: { zod: "^3.23.8", fastify: "^4.28.0", pg: "^8.12.0", "@fastify/cors": "^9.0.1" },
          devDependencies: { tsx: "^4.16.0", "@types/pg": "^8.11.6" },
        }),
      },
    },
    {
      say: "hey, before I audit licences: what does tools/cli/package.json pull in for production? only the modules, alphabetical",
      args: { path: "tools/cli/package.json" },
      files: {
        "tools/cli/package.json": json({
          name: "acme-cli",
          bin: { acme: "dist/index.js" },
          devDependencies: { esbuild: "^0.21.5", eslint: "^9.6.0" },
          dependencies: { yargs: "^17.7.2", chalk: "^5.3.0", ora: "^8.0.1" },
        }),
      },
    },
  ],
};

const DEV_DEPS: ReuseTask = {
  name: "pkg:list_dev_deps",
  intent: "list the devDependencies of a Node manifest by name, sorted",
  code: String.raw`const pkg = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return Object.keys(pkg.devDependencies || {}).sort();`,
  expect: (a) => Object.keys(manifest(a).devDependencies ?? {}).sort(),
  asks: [
    {
      say: "list the devDependencies of apps/shop/package.json by name, sorted",
      args: { path: "apps/shop/package.json" },
      files: {
        "apps/shop/package.json": json({
          name: "shop",
          dependencies: { next: "14.2.4", stripe: "^16.0.0" },
          devDependencies: { prettier: "^3.3.2", "@types/node": "^20.14.9", jest: "^29.7.0", eslint: "^8.57.0" },
        }),
      },
    },
    {
      say: "please, I need the devDependencies names of libs/ui/package.json, sorted like alphabet",
      args: { path: "libs/ui/package.json" },
      files: {
        "libs/ui/package.json": json({
          name: "@acme/ui",
          peerDependencies: { react: ">=18" },
          dependencies: { "class-variance-authority": "^0.7.0" },
          devDependencies: { storybook: "^8.1.11", tsup: "^8.1.0", react: "^18.3.1" },
        }),
      },
    },
    {
      say: "which tooling does services/worker/package.json need at build and test time, not in prod?",
      args: { path: "services/worker/package.json" },
      files: {
        "services/worker/package.json": json({
          name: "worker",
          dependencies: { bullmq: "^5.8.3", ioredis: "^5.4.1" },
          devDependencies: { mocha: "^10.5.2", nodemon: "^3.1.4", chai: "^5.1.1" },
        }),
      },
    },
  ],
};

const LEVEL_LINE = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) ERROR\b/;
const errorTimes = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => LEVEL_LINE.exec(l)?.[1])
    .filter((t) => t !== undefined);

const FIRST_ERROR: ReuseTask = {
  name: "log:find_first_error",
  intent: "give the timestamp of the earliest ERROR entry in a log file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
for (const l of t.split("\n")) {
  const m = l.match(/^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) ERROR\b/);
  if (m) return m[1];
}
return null;`,
  expect: (a) => errorTimes(a)[0] ?? null,
  asks: [
    {
      say: "when did logs/app.log first hit an ERROR? give me the timestamp",
      args: { path: "logs/app.log" },
      files: {
        "logs/app.log": lines(
          "2026-11-30 07:58:12 INFO server listening on :8080",
          "2026-11-30 08:01:40 WARN slow query (812 ms)",
          "2026-11-30 08:02:45 ERROR db timeout after 5000 ms",
          "2026-11-30 08:02:46 INFO retrying after error",
          "2026-11-30 08:09:03 ERROR db timeout after 5000 ms",
          "2026-11-30 08:15:00 INFO recovered",
        ),
      },
    },
    {
      say: "var/worker.out: when did it start failing?",
      args: { path: "var/worker.out" },
      files: {
        "var/worker.out": lines(
          "2026-12-01 23:59:58 INFO job 881 done",
          "2026-12-02 00:00:03 INFO job 882 started",
          "2026-12-02 00:00:09 ERROR job 882: ENOSPC no space left on device",
          "2026-12-02 00:04:11 ERROR job 883: ENOSPC no space left on device",
          "2026-12-02 00:10:30 ERROR job 884: ENOSPC no space left on device",
        ),
      },
    },
    {
      say: "whats the eraliest error time in logs/payments.log",
      args: { path: "logs/payments.log" },
      files: {
        "logs/payments.log": lines(
          "2026-10-14 10:00:00 INFO provider=stripe connected",
          "2026-10-14 10:20:31 WARN card declined for order 5512",
          "2026-10-14 11:47:19 ERROR webhook signature mismatch",
          "2026-10-14 12:03:55 INFO webhook ok",
          "2026-10-14 16:30:02 ERROR refund 771 failed: insufficient balance",
        ),
      },
    },
  ],
};

const LAST_ERROR: ReuseTask = {
  name: "log:find_last_error",
  intent: "give the timestamp of the most recent ERROR entry in a log file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let last = null;
for (const l of t.split("\n")) {
  const m = l.match(/^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) ERROR\b/);
  if (m) last = m[1];
}
return last;`,
  expect: (a) => errorTimes(a).at(-1) ?? null,
  asks: [
    {
      say: "give the timestamp of the most recent ERROR in logs/api.log",
      args: { path: "logs/api.log" },
      files: {
        "logs/api.log": lines(
          "2026-12-03 09:12:00 ERROR upstream 502 from /v1/users",
          "2026-12-03 09:12:30 INFO upstream healthy",
          "2026-12-03 13:45:10 ERROR rate limiter store unreachable",
          "2026-12-03 13:46:00 WARN falling back to in-memory limiter",
          "2026-12-03 18:20:44 INFO deploy 4f2a1c finished",
        ),
      },
    },
    {
      say: "the pager went off overnight, can you check logs/gateway.log and tell me when the latest error was logged?",
      args: { path: "logs/gateway.log" },
      files: {
        "logs/gateway.log": lines(
          "2026-12-05 22:10:05 INFO route table reloaded",
          "2026-12-05 23:41:17 ERROR tls handshake failed for api.acme.io",
          "2026-12-06 01:02:33 ERROR tls handshake failed for api.acme.io",
          "2026-12-06 03:58:09 ERROR certificate expired for api.acme.io",
          "2026-12-06 04:00:00 INFO certificate renewed",
        ),
      },
    },
    {
      say: "in srv/billing.out, at what hour it failed the last time?",
      args: { path: "srv/billing.out" },
      files: {
        "srv/billing.out": lines(
          "2026-11-28 06:00:00 INFO nightly invoices: 412",
          "2026-11-28 06:03:12 ERROR invoice 90211 pdf render crashed",
          "2026-11-29 06:00:00 INFO nightly invoices: 398",
          "2026-11-29 06:02:58 ERROR invoice 90655 pdf render crashed",
          "2026-11-30 06:00:00 INFO nightly invoices: 405",
        ),
      },
    },
  ],
};

const columnValues = (a: Ask) => {
  const [head, ...rows] = input(a)
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  const i = head!.indexOf(a.args.column as string);
  return rows.map((r) => r[i]!);
};

const COUNT_DISTINCT: ReuseTask = {
  name: "csv:count_column_uniques",
  intent: "count how many different values a CSV column holds",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.trim().split("\n").map((l) => l.split(","));
const i = head.indexOf(args.column);
return new Set(rows.map((r) => r[i])).size;`,
  expect: (a) => new Set(columnValues(a)).size,
  asks: [
    {
      say: "count how many different values the city column of data/customers.csv holds",
      args: { path: "data/customers.csv", column: "city" },
      files: {
        "data/customers.csv": csv("id,name,city", [
          [1, "Ana", "Lisbon"],
          [2, "Bo", "Oslo"],
          [3, "Chen", "Lisbon"],
          [4, "Dara", "Nairobi"],
          [5, "Eli", "Oslo"],
          [6, "Fatou", "Dakar"],
        ]),
      },
    },
    {
      say: "cardinality of status in exports/orders.csv",
      args: { path: "exports/orders.csv", column: "status" },
      files: {
        "exports/orders.csv": csv("order_id,status,total", [
          [5001, "paid", 42.5],
          [5002, "refunded", 13],
          [5003, "paid", 99.99],
          [5004, "pending", 7.25],
          [5005, "paid", 18],
          [5006, "pending", 64],
          [5007, "cancelled", 5],
        ]),
      },
    },
    {
      say: "quick one: in reports/signups.txt (comma separated, header on top), how many distinct tiers show up under plan?",
      args: { path: "reports/signups.txt", column: "plan" },
      files: {
        "reports/signups.txt": csv("email,plan,country", [
          ["a@x.io", "free", "PT"],
          ["b@x.io", "pro", "NO"],
          ["c@x.io", "free", "KE"],
          ["d@x.io", "team", "SN"],
          ["e@x.io", "free", "PT"],
        ]),
      },
    },
  ],
};

const LIST_DISTINCT: ReuseTask = {
  name: "csv:list_column_uniques",
  intent: "list the unique values of a CSV column in sorted order",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.trim().split("\n").map((l) => l.split(","));
const i = head.indexOf(args.column);
return [...new Set(rows.map((r) => r[i]))].sort();`,
  expect: (a) => [...new Set(columnValues(a))].sort(),
  asks: [
    {
      say: "list the unique values of the country column in data/visits.csv, sorted",
      args: { path: "data/visits.csv", column: "country" },
      files: {
        "data/visits.csv": csv("day,country,visits", [
          ["2026-12-01", "FR", 120],
          ["2026-12-01", "DE", 98],
          ["2026-12-02", "FR", 131],
          ["2026-12-02", "BR", 40],
          ["2026-12-03", "DE", 87],
        ]),
      },
    },
    {
      say: "wich browsers apear in stats/sessions.txt under browser? alfabetical, no dupes",
      args: { path: "stats/sessions.txt", column: "browser" },
      files: {
        "stats/sessions.txt": csv("session,browser,seconds", [
          ["s1", "Safari", 310],
          ["s2", "Firefox", 45],
          ["s3", "Chrome", 620],
          ["s4", "Safari", 12],
          ["s5", "Edge", 230],
          ["s6", "Chrome", 75],
        ]),
      },
    },
    {
      say: "give me please every value of column team in hr/staff.csv, each one only once, sorted",
      args: { path: "hr/staff.csv", column: "team" },
      files: {
        "hr/staff.csv": csv("name,team,start", [
          ["Ines", "platform", "2023-04-01"],
          ["Jon", "growth", "2022-09-15"],
          ["Kai", "platform", "2024-01-08"],
          ["Lea", "design", "2021-06-30"],
          ["Max", "growth", "2025-02-03"],
        ]),
      },
    },
  ],
};

const shiftDate = (date: unknown, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

const DAYS_AFTER: ReuseTask = {
  name: "date:add_days_to",
  intent: "the calendar date a number of days after a given date",
  code: String.raw`const d = new Date(args.date + "T00:00:00Z");
d.setUTCDate(d.getUTCDate() + Number(args.days));
return d.toISOString().slice(0, 10);`,
  expect: (a) => shiftDate(a.args.date, Number(a.args.days)),
  asks: [
    { say: "what calendar date is 45 days after 2026-12-20?", args: { date: "2026-12-20", days: 45 } },
    { say: "2027-01-31 + 30d", args: { date: "2027-01-31", days: 30 } },
    { say: "my invoice is dated 2028-02-10 and payment terms are net 20 days, what's the due date?", args: { date: "2028-02-10", days: 20 } },
  ],
};

const DAYS_BEFORE: ReuseTask = {
  name: "date:subtract_days_from",
  intent: "the calendar date a number of days before a given date",
  code: String.raw`const d = new Date(args.date + "T00:00:00Z");
d.setUTCDate(d.getUTCDate() - Number(args.days));
return d.toISOString().slice(0, 10);`,
  expect: (a) => shiftDate(a.args.date, -Number(a.args.days)),
  asks: [
    { say: "what calendar date is 10 days before 2027-03-05?", args: { date: "2027-03-05", days: 10 } },
    { say: "T-minus 14 days from launch on 2026-12-07: which date do we freeze code?", args: { date: "2026-12-07", days: 14 } },
    { say: "the contrat ends 2028-03-01 and notice is 60 dys earlier, by when?", args: { date: "2028-03-01", days: 60 } },
  ],
};

const PERCENT_ENCODE: ReuseTask = {
  name: "uri:percent_encode_string",
  intent: "percent-encode a string so it is safe inside a URL",
  code: "return encodeURIComponent(String(args.text));",
  expect: (a) => encodeURIComponent(String(a.args.text)),
  asks: [
    { say: "percent-encode this so I can put it in a URL: rock & roll / 50% off?", args: { text: "rock & roll / 50% off?" } },
    { say: "escape name=Zoë Ortiz&role=admin/ops so it survives as one query param", args: { text: "name=Zoë Ortiz&role=admin/ops" } },
    { say: "need this url-safe: hello world #1 (final)", args: { text: "hello world #1 (final)" } },
  ],
};

const PERCENT_DECODE: ReuseTask = {
  name: "uri:percent_decode_string",
  intent: "decode a percent-encoded URL string back to plain text",
  code: "return decodeURIComponent(String(args.text));",
  expect: (a) => decodeURIComponent(String(a.args.text)),
  asks: [
    { say: "decode this percent-encoded URL string: caf%C3%A9%20au%20lait%3F", args: { text: "caf%C3%A9%20au%20lait%3F" } },
    { say: "a user pasted summer%20sale%2050%25%20off from their address bar, what did they actually type?", args: { text: "summer%20sale%2050%25%20off" } },
    { say: "unescape %2Fhome%2Fana%2Fnotes%20v2.md to plain text", args: { text: "%2Fhome%2Fana%2Fnotes%20v2.md" } },
  ],
};

const checkboxes = (a: Ask, box: RegExp) =>
  input(a)
    .split("\n")
    .map((l) => box.exec(l)?.[1]?.trim())
    .filter((t) => t !== undefined);

const OPEN_BOXES: ReuseTask = {
  name: "md:list_open_checkboxes",
  intent: "list the unchecked checkbox items of a markdown checklist",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const l of t.split("\n")) {
  const m = l.match(/^\s*[-*+] \[ \] (.*)$/);
  if (m) out.push(m[1].trim());
}
return out;`,
  expect: (a) => checkboxes(a, /^\s*[-*+] \[ \] (.*)$/),
  asks: [
    {
      say: "list the unchecked checkbox items in docs/release.md",
      args: { path: "docs/release.md" },
      files: {
        "docs/release.md": lines(
          "# Release 3.2",
          "",
          "- [x] freeze main",
          "- [ ] bump version in package.json",
          "- [ ] write the changelog",
          "  - [x] collect merged PRs",
          "  - [ ] group them by area",
          "- [x] tag the release candidate",
        ),
      },
    },
    {
      say: "notes/TODO.md: what's left?",
      args: { path: "notes/TODO.md" },
      files: {
        "notes/TODO.md": lines(
          "## This week",
          "* [ ] renew the TLS cert",
          "* [X] answer Lea about the offsite",
          "* [ ] fix flaky login test",
          "",
          "Done is better than perfect.",
          "* [x] order a new keyboard",
        ),
      },
    },
    {
      say: "from sprint/board.md, which items are not yet done? give me them",
      args: { path: "sprint/board.md" },
      files: {
        "sprint/board.md": lines(
          "# Sprint 48",
          "- [x] API: pagination for /orders",
          "- [x] UI: empty state for search",
          "- [ ] Infra: move cron jobs to the queue",
          "- [x] Docs: webhook retries",
          "- [ ] QA: regression pass on checkout",
        ),
      },
    },
  ],
};

const DONE_BOXES: ReuseTask = {
  name: "md:list_ticked_checkboxes",
  intent: "list the ticked checkbox items of a markdown checklist",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const l of t.split("\n")) {
  const m = l.match(/^\s*[-*+] \[[xX]\] (.*)$/);
  if (m) out.push(m[1].trim());
}
return out;`,
  expect: (a) => checkboxes(a, /^\s*[-*+] \[[xX]\] (.*)$/),
  asks: [
    {
      say: "list the ticked checkbox items of docs/migration.md",
      args: { path: "docs/migration.md" },
      files: {
        "docs/migration.md": lines(
          "# Postgres 16 migration",
          "- [x] snapshot the primary",
          "- [x] restore into the new cluster",
          "- [ ] switch the read replicas",
          "- [ ] point the app at the new DSN",
          "- [X] dry run on staging",
        ),
      },
    },
    {
      say: "for the standup I want to brag a bit, what have we checked off in the checklist at team/q4-goals.md?",
      args: { path: "team/q4-goals.md" },
      files: {
        "team/q4-goals.md": lines(
          "## Q4 goals",
          "- [ ] p95 latency under 200 ms",
          "- [x] SSO for enterprise plans",
          "- [x] cut the CI time in half",
          "  - [x] cache node_modules",
          "  - [ ] split the e2e suite",
          "- [ ] public status page",
        ),
      },
    },
    {
      say: "finshed stuff in plans/launch.md?",
      args: { path: "plans/launch.md" },
      files: {
        "plans/launch.md": lines("# Launch", "+ [ ] press kit", "+ [x] pricing page", "+ [ ] launch tweet thread", "+ [x] onboarding emails", "+ [ ] webinar"),
      },
    },
  ],
};

const flagsWhere = (a: Ask, on: boolean) => {
  const flags = JSON.parse(input(a)) as Record<string, unknown>;
  return Object.keys(flags)
    .filter((k) => flags[k] === on)
    .sort();
};

const FLAGS_ON: ReuseTask = {
  name: "flags:list_enabled",
  intent: "names of the feature flags that are turned on in a flags file, sorted",
  code: String.raw`const flags = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return Object.keys(flags).filter((k) => flags[k] === true).sort();`,
  expect: (a) => flagsWhere(a, true),
  asks: [
    {
      say: "names of the feature flags that are turned on in config/flags.json, sorted",
      args: { path: "config/flags.json" },
      files: { "config/flags.json": json({ newCheckout: true, darkMode: false, betaSearch: true, legacyExport: false, aiSummary: true }) },
    },
    {
      say: "which toggles are live per deploy/prod-toggles.json?",
      args: { path: "deploy/prod-toggles.json" },
      files: { "deploy/prod-toggles.json": json({ rateLimitV2: true, sampleRate: 0.25, shadowTraffic: false, gzipResponses: true, maintenanceBanner: false }) },
    },
    {
      say: "wich feature flgs are enabled in web/features.json",
      args: { path: "web/features.json" },
      files: { "web/features.json": json({ stickyHeader: false, infiniteScroll: true, chatWidget: false, pwaInstall: true }) },
    },
  ],
};

const FLAGS_OFF: ReuseTask = {
  name: "flags:list_disabled",
  intent: "names of the feature flags that are turned off in a flags file, sorted",
  code: String.raw`const flags = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));
return Object.keys(flags).filter((k) => flags[k] === false).sort();`,
  expect: (a) => flagsWhere(a, false),
  asks: [
    {
      say: "names of the feature flags that are turned off in config/flags-staging.json, sorted",
      args: { path: "config/flags-staging.json" },
      files: { "config/flags-staging.json": json({ newCheckout: true, darkMode: false, betaSearch: false, legacyExport: true, aiSummary: false }) },
    },
    {
      say: "i want know which flags is false in mobile/flags.json, in order please",
      args: { path: "mobile/flags.json" },
      files: { "mobile/flags.json": json({ biometricLogin: true, offlineMode: false, pushPrompt: false, tabletLayout: true, hapticFeedback: false }) },
    },
    {
      say: "we're cleaning up dead toggles, can you tell me what's disabled in svc/search/toggles.json?",
      args: { path: "svc/search/toggles.json" },
      files: { "svc/search/toggles.json": json({ typoTolerance: true, synonyms: false, vectorRerank: false, maxHits: 50, facetCounts: true }) },
    },
  ],
};

const semver = (v: unknown) => String(v).replace(/^v/, "").split(".").map(Number) as [number, number, number];

const BUMP_MINOR: ReuseTask = {
  name: "version:next_minor_release",
  intent: "bump the minor part of a semantic version and reset the patch",
  code: String.raw`const [major, minor] = String(args.version).replace(/^v/, "").split(".").map(Number);
return major + "." + (minor + 1) + ".0";`,
  expect: (a) => {
    const [major, minor] = semver(a.args.version);
    return `${major}.${minor + 1}.0`;
  },
  asks: [
    { say: "bump the minor part of version 2.7.13", args: { version: "2.7.13" } },
    { say: "next minor after v0.9.4?", args: { version: "v0.9.4" } },
    { say: "we're shipping a new backwards-compatible feature on top of 3.1.8, what should the release be tagged?", args: { version: "3.1.8" } },
  ],
};

const BUMP_PATCH: ReuseTask = {
  name: "version:next_patch_release",
  intent: "bump the patch part of a semantic version",
  code: String.raw`const [major, minor, patch] = String(args.version).replace(/^v/, "").split(".").map(Number);
return major + "." + minor + "." + (patch + 1);`,
  expect: (a) => {
    const [major, minor, patch] = semver(a.args.version);
    return `${major}.${minor}.${patch + 1}`;
  },
  asks: [
    { say: "bump the patch part of version 1.4.9", args: { version: "1.4.9" } },
    { say: "only a bugfix on 5.0.0, which number comes next?", args: { version: "5.0.0" } },
    { say: "hotfix verison for v12.3.0? just the patch", args: { version: "v12.3.0" } },
  ],
};

const settingValue = (a: Ask) => {
  for (const raw of input(a).split("\n")) {
    const l = raw.trim();
    if (l === "" || l.startsWith("#") || l.startsWith("!")) continue;
    const i = l.indexOf("=");
    if (i < 0 || l.slice(0, i).trim() !== a.args.key) continue;
    const v = l.slice(i + 1).trim();
    const q = v[0];
    return v.length >= 2 && (q === '"' || q === "'") && v.endsWith(q) ? v.slice(1, -1) : v;
  }
  return null;
};

const SETTING_VALUE: ReuseTask = {
  name: "config:read_properties_value",
  intent: "read one setting's value from a KEY=VALUE config file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
for (const raw of t.split("\n")) {
  const l = raw.trim();
  if (l === "" || l.startsWith("#") || l.startsWith("!")) continue;
  const i = l.indexOf("=");
  if (i < 0 || l.slice(0, i).trim() !== args.key) continue;
  const v = l.slice(i + 1).trim();
  const q = v[0];
  return v.length >= 2 && (q === '"' || q === "'") && v.endsWith(q) ? v.slice(1, -1) : v;
}
return null;`,
  expect: settingValue,
  asks: [
    {
      say: "read the value of db.url from config/app.properties",
      args: { path: "config/app.properties", key: "db.url" },
      files: {
        "config/app.properties": lines(
          "# local only",
          "app.env=development",
          'db.url="jdbc:postgresql://localhost:5432/api"',
          "cache.url=redis://localhost:6379",
          "# db.url=jdbc:postgresql://old:5432/api",
        ),
      },
    },
    {
      say: "server.port in web/application.properties?",
      args: { path: "web/application.properties", key: "server.port" },
      files: { "web/application.properties": lines("! generated by the starter", "server.port = 8081", "server.servlet.context-path=/shop", "sentry.dsn=") },
    },
    {
      say: "I keep getting 401s from Stripe locally, what value does stripe.key have in billing/billing.properties?",
      args: { path: "billing/billing.properties", key: "stripe.key" },
      files: { "billing/billing.properties": lines("stripe.webhook.secret=whsec_9f8e7d", "stripe.key = 'sk_test_51Habc123'", "currency=eur") },
    },
  ],
};

const URL_HOST = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^:/?#]+)/i;

const HOST_OF: ReuseTask = {
  name: "url:extract_host",
  intent: "extract the host name from a URL",
  code: String.raw`const m = String(args.url).match(/^[a-z][a-z0-9+.-]*:\/\/(?:[^@\/?#]*@)?([^:\/?#]+)/i);
return m ? m[1].toLowerCase() : null;`,
  expect: (a) => URL_HOST.exec(String(a.args.url))?.[1]?.toLowerCase() ?? null,
  asks: [
    { say: "extract the host name from https://Docs.Example.com:8443/guide?x=1", args: { url: "https://Docs.Example.com:8443/guide?x=1" } },
    { say: "what server does postgres://app:s3cret@db.internal.acme.io:5432/main point at?", args: { url: "postgres://app:s3cret@db.internal.acme.io:5432/main" } },
    { say: "from this url i need only the host please: http://shop.example.co.uk/cart#top", args: { url: "http://shop.example.co.uk/cart#top" } },
  ],
};

const UNIT_SECONDS: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1 };

const DURATION_SECONDS: ReuseTask = {
  name: "time:parse_duration_secs",
  intent: "convert a duration like 1h30m into seconds",
  code: String.raw`const unit = { d: 86400, h: 3600, m: 60, s: 1 };
const re = /(\d+)\s*([dhms])/g;
let total = 0;
let m;
while ((m = re.exec(String(args.duration))) !== null) total += Number(m[1]) * unit[m[2]];
return total;`,
  expect: (a) => [...String(a.args.duration).matchAll(/(\d+)\s*([dhms])/g)].reduce((n, m) => n + Number(m[1]) * UNIT_SECONDS[m[2]!]!, 0),
  asks: [
    { say: "convert the duration 1h30m15s into seconds", args: { duration: "1h30m15s" } },
    { say: "2d4h in secs", args: { duration: "2d4h" } },
    { say: "the CI job timeout is set as 45m30s in the YAML, how many seconds is that for the API field?", args: { duration: "45m30s" } },
  ],
};

const baseImages = (a: Ask) => {
  const stages: string[] = [];
  const out: string[] = [];
  for (const l of input(a).split("\n")) {
    const m = /^FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(l.trim());
    if (!m) continue;
    if (!stages.includes(m[1]!.toLowerCase()) && !out.includes(m[1]!)) out.push(m[1]!);
    if (m[2]) stages.push(m[2].toLowerCase());
  }
  return out;
};

const BASE_IMAGES: ReuseTask = {
  name: "docker:list_base_images",
  intent: "list the base images a Dockerfile builds from",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const stages = [];
const out = [];
for (const l of t.split("\n")) {
  const m = l.trim().match(/^FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i);
  if (!m) continue;
  if (!stages.includes(m[1].toLowerCase()) && !out.includes(m[1])) out.push(m[1]);
  if (m[2]) stages.push(m[2].toLowerCase());
}
return out;`,
  expect: baseImages,
  asks: [
    {
      say: "list the base images that build/Dockerfile builds from",
      args: { path: "build/Dockerfile" },
      files: {
        "build/Dockerfile": lines(
          "FROM --platform=$BUILDPLATFORM golang:1.22-alpine AS build",
          "WORKDIR /src",
          "COPY . .",
          "RUN go build -o /out/app ./cmd/app",
          "",
          "FROM gcr.io/distroless/static-debian12",
          "COPY --from=build /out/app /app",
          'ENTRYPOINT ["/app"]',
        ),
      },
    },
    {
      say: "which imgaes does the Dockerfile in services/api use as base?",
      args: { path: "services/api/Dockerfile" },
      files: {
        "services/api/Dockerfile": lines(
          "# syntax=docker/dockerfile:1",
          "FROM node:20-bookworm-slim AS deps",
          "COPY package.json package-lock.json ./",
          "RUN npm ci --omit=dev",
          "FROM deps AS test",
          "RUN npm test",
          "FROM node:20-bookworm-slim",
          "COPY --from=deps /node_modules ./node_modules",
          'CMD ["node", "server.js"]',
        ),
      },
    },
    {
      say: "FROM lines of ops/worker.Containerfile, only the names after FROM",
      args: { path: "ops/worker.Containerfile" },
      files: {
        "ops/worker.Containerfile": lines(
          "from python:3.12-slim as base",
          "RUN pip install --no-cache-dir uv",
          "from base as runtime",
          "COPY worker.py /srv/",
          "from docker.io/library/redis:7.2 as sidecar",
        ),
      },
    },
  ],
};

export const BLIND_14_TASKS: readonly ReuseTask[] = [
  RUNTIME_DEPS,
  DEV_DEPS,
  FIRST_ERROR,
  LAST_ERROR,
  COUNT_DISTINCT,
  LIST_DISTINCT,
  DAYS_AFTER,
  DAYS_BEFORE,
  PERCENT_ENCODE,
  PERCENT_DECODE,
  OPEN_BOXES,
  DONE_BOXES,
  FLAGS_ON,
  FLAGS_OFF,
  BUMP_MINOR,
  BUMP_PATCH,
  SETTING_VALUE,
  HOST_OF,
  DURATION_SECONDS,
  BASE_IMAGES,
];
