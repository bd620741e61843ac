// The sixth blind reuse stream (bench/reuse.ts --tasks blind6): written blind on 2026-12-07 by a
// helper that saw only the format of bench/reuse-tasks.ts (its types, helpers and one task), not
// pml, its ranking or the other streams. Nothing is tuned on it; its requests are never printed.
// 20 tasks, 16 of them in 8 near-twin pairs whose inputs have the same names and kinds, so that a
// careless reuse runs and answers wrongly: the first vs the last ERROR line of a log, the dearest vs
// the cheapest item of a price list, the keys vs the values of a key=value file, a Caesar shift
// forward vs back, a file's lines sorted vs reversed, hex to decimal vs decimal to hex, the open vs
// the ticked items of a markdown checklist, a package.json's dependencies vs its devDependencies.
// Everything runs offline on pml's built-in filesystem tools.

import { type Ask, input, lines, type ReuseTask } from "./reuse-tasks.ts";

const text = (a: Ask) => input(a).split("\n");
const errors = (a: Ask) => text(a).filter((l) => l.includes("ERROR"));

const FIRST_ERROR: ReuseTask = {
  name: "log:first_error_line",
  intent: "return the first line of a log file that contains ERROR",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").find((l) => l.includes("ERROR")) ?? null;',
  expect: (a) => errors(a)[0] ?? null,
  asks: [
    {
      say: "return the first line of logs/api.log that contains ERROR",
      args: { path: "logs/api.log" },
      files: {
        "logs/api.log": lines(
          "2026-11-30T08:00:01Z INFO api listening on :8080",
          "2026-11-30T08:02:13Z ERROR db pool exhausted (max=20)",
          "2026-11-30T08:02:14Z WARN retrying query in 200ms",
          "2026-11-30T08:05:40Z ERROR upstream auth timed out after 5s",
        ),
      },
    },
    {
      say: "what went wrong first in worker/out.log? I want the earliest failure, not the latest",
      args: { path: "worker/out.log" },
      files: {
        "worker/out.log": lines(
          "12:00:00 INFO picked job 81",
          "12:00:03 ERROR job 81: image too large (14MB)",
          "12:00:04 INFO picked job 82",
          "12:01:10 ERROR job 82: S3 PutObject AccessDenied",
          "12:01:11 ERROR job 82: giving up after 3 tries",
        ),
      },
    },
    {
      say: "the cron run blew up overnight, show me where it started going bad in var/cron-nightly.log",
      args: { path: "var/cron-nightly.log" },
      files: {
        "var/cron-nightly.log": lines(
          "[02:00] INFO backup started",
          "[02:14] WARN slow disk on /mnt/b",
          "[02:31] ERROR tar: /mnt/b/photos: Cannot stat",
          "[02:32] ERROR backup aborted",
          "[02:33] INFO mail sent to ops",
        ),
      },
    },
  ],
};

const LAST_ERROR: ReuseTask = {
  name: "log:last_error_line",
  intent: "return the last line of a log file that contains ERROR",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nconst hits = t.split("\\n").filter((l) => l.includes("ERROR"));\nreturn hits.length ? hits[hits.length - 1] : null;',
  expect: (a) => errors(a).at(-1) ?? null,
  asks: [
    {
      say: "return the last line of logs/web.log that contains ERROR",
      args: { path: "logs/web.log" },
      files: {
        "logs/web.log": lines(
          "2026-12-01T10:00:00Z INFO web ready",
          "2026-12-01T10:03:12Z ERROR GET /cart 500 (template missing)",
          "2026-12-01T10:04:00Z INFO deploy 77 rolled out",
          "2026-12-01T10:09:45Z ERROR GET /checkout 502 (payments down)",
          "2026-12-01T10:10:00Z INFO health ok",
        ),
      },
    },
    {
      say: "is payments still failing? give me the most recent failure from svc/payments.log",
      args: { path: "svc/payments.log" },
      files: {
        "svc/payments.log": lines(
          "09:10 ERROR stripe: card_declined for order 5521",
          "09:12 INFO order 5522 paid",
          "09:20 ERROR stripe: rate limited (429)",
          "09:21 INFO order 5523 paid",
        ),
      },
    },
    {
      say: "scroll to the bottom of build/ci.log for me - what's the newest ERROR in there",
      args: { path: "build/ci.log" },
      files: {
        "build/ci.log": lines("step 1/4 install ok", "step 2/4 ERROR lint: 3 problems", "step 3/4 ERROR tests: 2 failed", "step 4/4 skipped"),
      },
    },
  ],
};

const prices = (a: Ask) => JSON.parse(input(a)) as { name: string; price: number }[];
const priceList = (items: [string, number][]) => JSON.stringify(items.map(([name, price]) => ({ name, price })));

const DEAREST: ReuseTask = {
  name: "json:priciest_item",
  intent: "name the most expensive item of a JSON price list",
  code: "const items = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nlet best = items[0];\nfor (const it of items) if (it.price > best.price) best = it;\nreturn best.name;",
  expect: (a) => prices(a).reduce((m, x) => (x.price > m.price ? x : m)).name,
  asks: [
    {
      say: "name the most expensive item of the JSON price list shop/menu.json",
      args: { path: "shop/menu.json" },
      files: {
        "shop/menu.json": priceList([
          ["espresso", 2.2],
          ["flat white", 3.6],
          ["cold brew", 4.1],
          ["croissant", 2.9],
        ]),
      },
    },
    {
      say: "which of the laptops in quotes/laptops.json would blow the budget the most?",
      args: { path: "quotes/laptops.json" },
      files: {
        "quotes/laptops.json": priceList([
          ["ThinkPad X1", 1899],
          ["MacBook Air", 1299],
          ["MacBook Pro 16", 2799],
          ["Framework 13", 1349],
        ]),
      },
    },
    {
      say: "top-shelf pick from data/wines.json? the one with the biggest price tag",
      args: { path: "data/wines.json" },
      files: {
        "data/wines.json": priceList([
          ["Rioja 2019", 14.5],
          ["Barolo 2016", 62],
          ["Vinho Verde", 8.9],
        ]),
      },
    },
  ],
};

const CHEAPEST: ReuseTask = {
  name: "json:cheapest_item",
  intent: "name the least expensive item of a JSON price list",
  code: "const items = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nlet best = items[0];\nfor (const it of items) if (it.price < best.price) best = it;\nreturn best.name;",
  expect: (a) => prices(a).reduce((m, x) => (x.price < m.price ? x : m)).name,
  asks: [
    {
      say: "name the least expensive item of the JSON price list shop/parts.json",
      args: { path: "shop/parts.json" },
      files: {
        "shop/parts.json": priceList([
          ["M3 screw pack", 4.5],
          ["stepper motor", 18],
          ["hotend", 32],
          ["PTFE tube", 3.75],
        ]),
      },
    },
    {
      say: "flights in travel/lis-ber.json - which one costs me the least?",
      args: { path: "travel/lis-ber.json" },
      files: {
        "travel/lis-ber.json": priceList([
          ["TP 538 07:05", 189],
          ["FR 1823 13:40", 64],
          ["U2 7621 18:15", 97],
        ]),
      },
    },
    {
      say: "budget option from hosting/plans.json please, lowest monthly",
      args: { path: "hosting/plans.json" },
      files: {
        "hosting/plans.json": priceList([
          ["pro", 25],
          ["hobby", 5],
          ["team", 99],
          ["starter", 12],
        ]),
      },
    },
  ],
};

/** The key=value lines of a file, comments and blank lines left out, split at the first "=". */
const pairs = (a: Ask) =>
  text(a)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#") && l.includes("="))
    .map((l) => [l.slice(0, l.indexOf("=")).trim(), l.slice(l.indexOf("=") + 1).trim()] as const);

const CONF_KEYS: ReuseTask = {
  name: "conf:list_keys",
  intent: "list the keys of a key=value settings file, comments skipped",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#") && l.includes("=")).map((l) => l.slice(0, l.indexOf("=")).trim());',
  expect: (a) => pairs(a).map(([k]) => k),
  asks: [
    {
      say: "list the keys of the key=value settings file config/db.properties, comments skipped",
      args: { path: "config/db.properties" },
      files: { "config/db.properties": lines("# primary", "db.host=pg-1.internal", "db.port = 5432", "", "db.user=app", "db.pool.max=20") },
    },
    {
      say: "which settings names does deploy/prod.env define? just the names on the left",
      args: { path: "deploy/prod.env" },
      files: { "deploy/prod.env": lines("NODE_ENV=production", "# rotate monthly", "SESSION_SECRET=s3cr3t==", "PORT=8080") },
    },
    {
      say: "what options can be tuned in gradle.properties? names only, ignore the # lines",
      args: { path: "android/gradle.properties" },
      files: { "android/gradle.properties": lines("# build", "org.gradle.jvmargs=-Xmx2048m", "android.useAndroidX=true", "kotlin.code.style=official") },
    },
  ],
};

const CONF_VALUES: ReuseTask = {
  name: "conf:list_values",
  intent: "list the values of a key=value settings file, comments skipped",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#") && l.includes("=")).map((l) => l.slice(l.indexOf("=") + 1).trim());',
  expect: (a) => pairs(a).map(([, v]) => v),
  asks: [
    {
      say: "list the values of the key=value settings file config/cache.properties, comments skipped",
      args: { path: "config/cache.properties" },
      files: { "config/cache.properties": lines("# redis", "cache.host=redis-2.internal", "cache.ttl=300", "cache.prefix = shop:") },
    },
    {
      say: "what is everything in local/dev.env actually set to? the right-hand sides, in order",
      args: { path: "local/dev.env" },
      files: { "local/dev.env": lines("API_URL=http://localhost:4000/v1?debug=1", "LOG_LEVEL=debug", "", "# FEATURE_X=on", "FEATURE_Y=off") },
    },
    {
      say: "read off the configured settings from ops/limits.conf, I only care what they're set to, not their names",
      args: { path: "ops/limits.conf" },
      files: { "ops/limits.conf": lines("max_conn=512", "timeout_s=30", "# burst is per second", "burst=64") },
    },
  ],
};

const shift = (s: string, by: number) => {
  const k = ((by % 26) + 26) % 26;
  return s.replace(/[a-z]/gi, (c) => {
    const base = c === c.toUpperCase() ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + k) % 26) + base);
  });
};
const caesarCode = (sign: string) =>
  `const k = ((${sign}args.shift % 26) + 26) % 26;\nreturn args.text.replace(/[a-z]/gi, (c) => {\n  const base = c <= "Z" ? 65 : 97;\n  return String.fromCharCode(((c.charCodeAt(0) - base + k) % 26) + base);\n});`;

const CAESAR_ENCODE: ReuseTask = {
  name: "cipher:caesar_encode",
  intent: "encrypt text with a Caesar cipher, shifting letters forward by a given amount",
  code: caesarCode(""),
  expect: (a) => shift(a.args.text as string, a.args.shift as number),
  asks: [
    { say: "encrypt 'Meet me at noon' with a Caesar cipher, shifting letters forward by 3", args: { text: "Meet me at noon", shift: 3 } },
    { say: "scramble 'Attack at Dawn!' for the escape-room clue, every letter moves 7 places on", args: { text: "Attack at Dawn!", shift: 7 } },
    { say: "geocache hint 'North of the bridge' needs hiding: offset every letter by 10", args: { text: "North of the bridge", shift: 10 } },
    { say: "hide 'treasure under the oak' in the kids' puzzle, push each letter 5 down the alphabet", args: { text: "treasure under the oak", shift: 5 } },
  ],
};

const CAESAR_DECODE: ReuseTask = {
  name: "cipher:caesar_decode",
  intent: "decrypt a Caesar cipher, shifting letters back by a given amount",
  code: caesarCode("-"),
  expect: (a) => shift(a.args.text as string, -(a.args.shift as number)),
  asks: [
    { say: "decrypt the Caesar cipher 'Phhw ph dw qrrq', shifting letters back by 3", args: { text: "Phhw ph dw qrrq", shift: 3 } },
    { say: "the clue says 'Qttp ns ymj Hwduy' and the key is 5 - what does it really say?", args: { text: "Qttp ns ymj Hwduy", shift: 5 } },
    { say: "undo the shift-of-11 on 'Xzgp Yzces' so I can read it", args: { text: "Xzgp Yzces", shift: 11 } },
  ],
};

const nonBlank = (a: Ask) => text(a).filter((l) => l.trim() !== "");

const SORT_LINES: ReuseTask = {
  name: "lines:sort_alpha",
  intent: "return the non-empty lines of a file sorted alphabetically",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").filter((l) => l.trim() !== "").sort();',
  expect: (a) => nonBlank(a).sort(),
  asks: [
    {
      say: "return the non-empty lines of team/members.txt sorted alphabetically",
      args: { path: "team/members.txt" },
      files: { "team/members.txt": lines("maria", "jon", "", "abdul", "lena", "chris") },
    },
    {
      say: "put words/stopwords.txt in a-z order for me",
      args: { path: "words/stopwords.txt" },
      files: { "words/stopwords.txt": lines("the", "and", "of", "a", "to", "in") },
    },
    {
      say: "dictionary order for the hosts in infra/hosts.txt, blank rows dropped",
      args: { path: "infra/hosts.txt" },
      files: { "infra/hosts.txt": lines("web-3", "db-1", "", "cache-2", "web-1", "bastion") },
    },
  ],
};

const REVERSE_LINES: ReuseTask = {
  name: "lines:reverse_order",
  intent: "return the non-empty lines of a file in reverse order, last line first",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").filter((l) => l.trim() !== "").reverse();',
  expect: (a) => nonBlank(a).reverse(),
  asks: [
    {
      say: "return the non-empty lines of notes/steps.txt in reverse order, last line first",
      args: { path: "notes/steps.txt" },
      files: { "notes/steps.txt": lines("unplug", "open case", "", "swap ram", "close case", "boot") },
    },
    {
      say: "flip journal/entries.txt upside down so the newest entry is on top",
      args: { path: "journal/entries.txt" },
      files: { "journal/entries.txt": lines("mon: started the parser", "tue: parser handles quotes", "wed: fuzzed it, 2 crashes", "thu: fixed both") },
    },
    {
      say: "I need the undo sequence for migrate/applied.txt - bottom row first, up to the top",
      args: { path: "migrate/applied.txt" },
      files: { "migrate/applied.txt": lines("001_users", "002_orders", "003_add_index", "", "004_drop_legacy") },
    },
  ],
};

const HEX_TO_DEC: ReuseTask = {
  name: "num:hex_to_decimal",
  intent: "convert a hexadecimal string to a decimal number",
  code: 'return parseInt(String(args.value).replace(/^0x/i, ""), 16);',
  expect: (a) => Number.parseInt((a.args.value as string).replace(/^0x/i, ""), 16),
  asks: [
    { say: "convert the hexadecimal string 0x1F4 to a decimal number", args: { value: "0x1F4" } },
    { say: "what's ff in base 10?", args: { value: "ff" } },
    { say: "the register dump says C0FFEE - how much is that as a normal number", args: { value: "C0FFEE" } },
    { say: "port in the packet header is 0x1F90, which port is that?", args: { value: "0x1F90" } },
  ],
};

const DEC_TO_HEX: ReuseTask = {
  name: "num:decimal_to_hex",
  intent: "convert a decimal number given as a string to lowercase hexadecimal",
  code: "return Number(args.value).toString(16);",
  expect: (a) => Number(a.args.value).toString(16),
  asks: [
    { say: "convert the decimal number 4096 to lowercase hexadecimal", args: { value: "4096" } },
    { say: "what's 48879 in hex?", args: { value: "48879" } },
    { say: "base-16 form of 65535 for the mask, please", args: { value: "65535" } },
  ],
};

const checklist = (a: Ask, mark: RegExp) =>
  text(a)
    .map((l) => /^\s*[-*] \[(.)\] (.*)$/.exec(l))
    .filter((m) => m !== null && mark.test(m[1]!))
    .map((m) => m![2]!.trim());

const OPEN_ITEMS: ReuseTask = {
  name: "md:open_checklist_items",
  intent: "list the unchecked items of a markdown checklist",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").map((l) => /^\\s*[-*] \\[ \\] (.*)$/.exec(l)).filter(Boolean).map((m) => m[1].trim());',
  expect: (a) => checklist(a, /^ $/),
  asks: [
    {
      say: "list the unchecked items of the markdown checklist docs/launch.md",
      args: { path: "docs/launch.md" },
      files: { "docs/launch.md": lines("# Launch", "", "- [x] buy the domain", "- [ ] write the press kit", "- [X] set up DNS", "- [ ] load test checkout") },
    },
    {
      say: "what's still left to do in moving.md?",
      args: { path: "home/moving.md" },
      files: { "home/moving.md": lines("## Before", "* [ ] book the van", "* [x] cancel gym", "## After", "* [ ] change address at the bank", "* [ ] unpack kitchen") },
    },
    {
      say: "anything not ticked off yet in .github/PULL_REQUEST_TEMPLATE.md for my PR?",
      args: { path: ".github/PULL_REQUEST_TEMPLATE.md" },
      files: { ".github/PULL_REQUEST_TEMPLATE.md": lines("Checklist:", "- [x] tests added", "- [ ] docs updated", "- [x] changelog entry") },
    },
  ],
};

const DONE_ITEMS: ReuseTask = {
  name: "md:done_checklist_items",
  intent: "list the checked items of a markdown checklist",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").map((l) => /^\\s*[-*] \\[[xX]\\] (.*)$/.exec(l)).filter(Boolean).map((m) => m[1].trim());',
  expect: (a) => checklist(a, /^[xX]$/),
  asks: [
    {
      say: "list the checked items of the markdown checklist docs/release-4.md",
      args: { path: "docs/release-4.md" },
      files: { "docs/release-4.md": lines("# 4.0", "- [x] freeze the API", "- [ ] migration guide", "- [x] bump major", "- [ ] announce") },
    },
    {
      say: "for the weekly update: which boxes have we ticked in sprint/42.md",
      args: { path: "sprint/42.md" },
      files: { "sprint/42.md": lines("## Sprint 42", "- [X] SSO login", "- [x] invoice PDF", "- [ ] dark mode", "  - [x] pick palette") },
    },
    {
      say: "what did we actually finish from roadmap/q1.md?",
      args: { path: "roadmap/q1.md" },
      files: { "roadmap/q1.md": lines("* [ ] mobile app", "* [x] public API", "* [ ] SOC 2", "* [x] usage billing") },
    },
  ],
};

const manifest = (deps: Record<string, string>, dev: Record<string, string>) =>
  `${JSON.stringify({ name: "app", version: "0.1.0", dependencies: deps, devDependencies: dev }, null, 2)}\n`;
const depNames = (a: Ask, field: string) => Object.keys(JSON.parse(input(a))[field] ?? {});

const DEPS: ReuseTask = {
  name: "npm:dependency_names",
  intent: "list the runtime dependency names of a package.json (not the dev ones)",
  code: "const pkg = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn Object.keys(pkg.dependencies ?? {});",
  expect: (a) => depNames(a, "dependencies"),
  asks: [
    {
      say: "list the runtime dependency names of apps/api/package.json (not the dev ones)",
      args: { path: "apps/api/package.json" },
      files: { "apps/api/package.json": manifest({ fastify: "^4.28.0", pg: "^8.12.0", zod: "^3.23.0" }, { vitest: "^2.0.0", typescript: "^5.5.0" }) },
    },
    {
      say: "what does apps/web/package.json ship to prod? the packages it needs at run time",
      args: { path: "apps/web/package.json" },
      files: { "apps/web/package.json": manifest({ react: "^18.3.1", "react-dom": "^18.3.1" }, { vite: "^5.4.0", eslint: "^9.9.0", "@types/react": "^18.3.3" }) },
    },
    {
      say: "for the license audit: what libs does tools/cli/package.json pull in for users, ignoring the build/test tooling",
      args: { path: "tools/cli/package.json" },
      files: { "tools/cli/package.json": manifest({ commander: "^12.1.0", chalk: "^5.3.0", ora: "^8.0.1" }, { tsup: "^8.2.0" }) },
    },
  ],
};

const DEV_DEPS: ReuseTask = {
  name: "npm:dev_dependency_names",
  intent: "list the devDependencies names of a package.json",
  code: "const pkg = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn Object.keys(pkg.devDependencies ?? {});",
  expect: (a) => depNames(a, "devDependencies"),
  asks: [
    {
      say: "list the devDependencies names of packages/ui/package.json",
      args: { path: "packages/ui/package.json" },
      files: { "packages/ui/package.json": manifest({ clsx: "^2.1.1" }, { storybook: "^8.2.0", "@testing-library/react": "^16.0.0", jsdom: "^24.1.0" }) },
    },
    {
      say: "which build and test tools does services/mailer/package.json use? only the dev-time stuff",
      args: { path: "services/mailer/package.json" },
      files: { "services/mailer/package.json": manifest({ nodemailer: "^6.9.14", mjml: "^4.15.3" }, { jest: "^29.7.0", "ts-node": "^10.9.2" }) },
    },
    {
      say: "what would npm install --omit=dev skip for libs/sdk/package.json?",
      args: { path: "libs/sdk/package.json" },
      files: { "libs/sdk/package.json": manifest({ "cross-fetch": "^4.0.0" }, { rollup: "^4.21.0", prettier: "^3.3.3", "@types/node": "^22.5.0" }) },
    },
  ],
};

const LEVELS = /\b(DEBUG|INFO|WARN|ERROR)\b/;
const LEVEL_COUNTS: ReuseTask = {
  name: "log:count_by_level",
  intent: "count the lines of a log file per level (DEBUG, INFO, WARN, ERROR)",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nconst out = {};\nfor (const l of t.split("\\n")) {\n  const m = /\\b(DEBUG|INFO|WARN|ERROR)\\b/.exec(l);\n  if (m) out[m[1]] = (out[m[1]] ?? 0) + 1;\n}\nreturn out;',
  expect: (a) => {
    const out: Record<string, number> = {};
    for (const l of text(a)) {
      const m = LEVELS.exec(l);
      if (m) out[m[1]!] = (out[m[1]!] ?? 0) + 1;
    }
    return out;
  },
  asks: [
    {
      say: "count the lines of logs/gateway.log per level (DEBUG, INFO, WARN, ERROR)",
      args: { path: "logs/gateway.log" },
      files: {
        "logs/gateway.log": lines(
          "t=1 INFO boot",
          "t=2 DEBUG config loaded from /etc/gw.yml",
          "t=3 WARN cert expires in 9 days",
          "t=4 INFO route /v1 mounted",
          "t=5 ERROR redis: connection refused",
          "t=6 INFO ready",
        ),
      },
    },
    {
      say: "how noisy was last night's run? tally of warnings vs errors vs info in var/etl.log",
      args: { path: "var/etl.log" },
      files: { "var/etl.log": lines("INFO extract 10k rows", "WARN 12 rows missing zip", "WARN 3 rows bad date", "INFO load done", "ERROR vacuum failed") },
    },
    {
      say: "breakdown by severity of logs/mobile-sync.log, a number for each kind",
      args: { path: "logs/mobile-sync.log" },
      files: { "logs/mobile-sync.log": lines("DEBUG delta=14", "DEBUG delta=3", "INFO synced 17 items", "ERROR conflict on note 88", "DEBUG delta=0") },
    },
  ],
};

const bumped = (a: Ask) => {
  const pkg = JSON.parse(input(a));
  const [maj, min, patch] = (pkg.version as string).split(".").map(Number);
  pkg.version = `${maj}.${min}.${patch! + 1}`;
  return pkg;
};
const BUMP_PATCH: ReuseTask = {
  name: "npm:bump_patch_version",
  intent: "raise the patch number of the version in a package.json, save it, return the new version",
  code: 'const pkg = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nconst [maj, min, patch] = pkg.version.split(".").map(Number);\npkg.version = `${maj}.${min}.${patch + 1}`;\nawait mcp.filesystem.write_file({ path: args.path, content: JSON.stringify(pkg, null, 2) + "\\n" });\nreturn pkg.version;',
  expect: (a) => bumped(a).version,
  leaves: (a) => ({ [a.args.path as string]: `${JSON.stringify(bumped(a), null, 2)}\n` }),
  asks: [
    {
      say: "raise the patch number of the version in plugins/seo/package.json, save it, return the new version",
      args: { path: "plugins/seo/package.json" },
      files: { "plugins/seo/package.json": `${JSON.stringify({ name: "seo-plugin", version: "1.4.9", main: "index.js" }, null, 2)}\n` },
    },
    {
      say: "hotfix release for packages/date-utils/package.json: x.y.z -> x.y.(z+1) and write it back",
      args: { path: "packages/date-utils/package.json" },
      files: { "packages/date-utils/package.json": `${JSON.stringify({ name: "@acme/date-utils", version: "0.9.0", private: false }, null, 2)}\n` },
    },
    {
      say: "bugfix bump on sdk/js/package.json please, not minor, not major",
      args: { path: "sdk/js/package.json" },
      files: { "sdk/js/package.json": `${JSON.stringify({ name: "acme-js", version: "3.12.41", license: "MIT" }, null, 2)}\n` },
    },
  ],
};

const QUERY_PARAMS: ReuseTask = {
  name: "url:query_params",
  intent: "parse the query string of a URL into an object of decoded parameters",
  code: 'const q = args.url.includes("?") ? args.url.slice(args.url.indexOf("?") + 1).split("#")[0] : "";\nconst out = {};\nfor (const part of q.split("&")) {\n  if (!part) continue;\n  const i = part.indexOf("=");\n  const dec = (s) => decodeURIComponent(s.replace(/\\+/g, " "));\n  out[dec(i < 0 ? part : part.slice(0, i))] = i < 0 ? "" : dec(part.slice(i + 1));\n}\nreturn out;',
  expect: (a) => Object.fromEntries(new URL(a.args.url as string).searchParams),
  asks: [
    {
      say: "parse the query string of https://shop.example.com/search?q=red+shoes&size=42&sort=price_asc into an object of decoded parameters",
      args: { url: "https://shop.example.com/search?q=red+shoes&size=42&sort=price_asc" },
    },
    {
      say: "what utm tags are on this link? https://acme.io/pricing?utm_source=newsletter&utm_medium=email&utm_campaign=black%20friday#plans",
      args: { url: "https://acme.io/pricing?utm_source=newsletter&utm_medium=email&utm_campaign=black%20friday#plans" },
    },
    {
      say: "break down the callback https://app.local/oauth/cb?code=4%2F0AX9&state=xyz123&scope=email%20profile for me, name -> value",
      args: { url: "https://app.local/oauth/cb?code=4%2F0AX9&state=xyz123&scope=email%20profile" },
    },
  ],
};

const INITIALS: ReuseTask = {
  name: "text:name_initials",
  intent: "make the uppercase initials of a person's full name",
  code: 'return args.name.trim().split(/\\s+/).map((w) => w[0].toUpperCase()).join("");',
  expect: (a) =>
    (a.args.name as string)
      .trim()
      .split(/\s+/)
      .map((w) => w[0]!.toUpperCase())
      .join(""),
  asks: [
    { say: "make the uppercase initials of the full name 'Ada King Lovelace'", args: { name: "Ada King Lovelace" } },
    { say: "avatar placeholder for 'grace brewster hopper' - just the letters, capitalised", args: { name: "grace brewster hopper" } },
    { say: "monogram for the towel order: Mae Carol Jemison", args: { name: "Mae Carol Jemison" } },
  ],
};

export const BLIND_6_TASKS: readonly ReuseTask[] = [
  FIRST_ERROR,
  DEAREST,
  CONF_KEYS,
  CAESAR_ENCODE,
  SORT_LINES,
  HEX_TO_DEC,
  OPEN_ITEMS,
  DEPS,
  LEVEL_COUNTS,
  QUERY_PARAMS,
  LAST_ERROR,
  CHEAPEST,
  CONF_VALUES,
  CAESAR_DECODE,
  REVERSE_LINES,
  DEC_TO_HEX,
  DONE_ITEMS,
  DEV_DEPS,
  BUMP_PATCH,
  INITIALS,
];
