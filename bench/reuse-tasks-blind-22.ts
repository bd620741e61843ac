// The 22nd blind reuse stream (`--tasks blind22`), written blind on 2026-12-08 by someone who saw
// only the format (bench/reuse-tasks.ts's types, shared functions and one task), never pml's
// ranking or its labels; of the bench's output only the canned-code check (the memory-less agents'
// wrong answers). Nothing is tuned on it; its requests are never printed. 20 tasks, 60 requests
// (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names and
// kinds (little vs big endian, newest vs oldest commits, px to rem vs pt, test files vs the rest,
// degrees-minutes-seconds vs decimal minutes, an ssh host's address vs its user, VAT added vs taken
// out, paths made relative vs absolute) and 4 single tasks. The repeats are worded as different
// users on different days would ask (terse, chatty, a file name, jargon, typos, a non-native
// speaker); one repeat of each task shares a content word with its intent, the other shares none.
import { type Ask, csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const rows = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "");
const hexBytes = (l: string) => l.trim().split(/\s+/);

const LITTLE_ENDIAN: ReuseTask = {
  name: "bytes:decode_little_endian_words",
  intent: "decode each line of hex bytes in a file as an unsigned little-endian integer",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").map((l) => {
  const bs = l.trim().split(/\s+/).map((h) => parseInt(h, 16));
  let n = 0;
  for (let i = bs.length - 1; i >= 0; i--) n = n * 256 + bs[i];
  return n;
});`,
  expect: (a) => rows(a).map((l) => Number.parseInt(hexBytes(l).reverse().join(""), 16)),
  asks: [
    {
      say: "decode each line of hex bytes in dumps/header.hex as an unsigned little-endian integer",
      args: { path: "dumps/header.hex" },
      files: { "dumps/header.hex": lines("e8 03 00 00", "10 27", "01 02 03 04", "ff 00") },
    },
    {
      say: "little endian numbers in captures/frames.txt? one hex byte sequence per line",
      args: { path: "captures/frames.txt" },
      files: { "captures/frames.txt": lines("40 00", "00 01", "2c 01 00 00", "0a 0b 0c") },
    },
    {
      say: "what values are these in intel order? regs/dump.txt, one register per row",
      args: { path: "regs/dump.txt" },
      files: { "regs/dump.txt": lines("78 56 34 12", "00 80", "ef be ad de", "05 00 00 00") },
    },
  ],
};

const BIG_ENDIAN: ReuseTask = {
  name: "bytes:decode_big_endian_words",
  intent: "decode each line of hex bytes in a file as an unsigned big-endian integer",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").map((l) => {
  const bs = l.trim().split(/\s+/).map((h) => parseInt(h, 16));
  let n = 0;
  for (const b of bs) n = n * 256 + b;
  return n;
});`,
  expect: (a) => rows(a).map((l) => Number.parseInt(hexBytes(l).join(""), 16)),
  asks: [
    {
      say: "decode each line of hex bytes in packets/lengths.hex as an unsigned big-endian integer",
      args: { path: "packets/lengths.hex" },
      files: { "packets/lengths.hex": lines("00 00 01 f4", "03 e8", "0a 0b 0c", "7f ff") },
    },
    {
      say: "big endian ints out of net/ports.txt, hex per line",
      args: { path: "net/ports.txt" },
      files: { "net/ports.txt": lines("00 50", "01 bb", "1f 90", "00 16") },
    },
    {
      say: "network order values for wire/fields.txt, one field per row",
      args: { path: "wire/fields.txt" },
      files: { "wire/fields.txt": lines("c0 a8 00 01", "00 00 00 2a", "12 34", "de ad be ef") },
    },
  ],
};

const subject = (l: string) => l.replace(/^\S+\s+/, "");

const NEWEST_COMMITS: ReuseTask = {
  name: "git:list_newest_commit_subjects",
  intent: "list the subjects of the n newest commits in a one-line git log file, newest first",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "");
return ls.slice(0, Number(args.n)).map((l) => l.replace(/^\S+\s+/, ""));`,
  expect: (a) =>
    rows(a)
      .slice(0, a.args.n as number)
      .map(subject),
  asks: [
    {
      say: "list the subjects of the 3 newest commits in logs/web.log, a one-line git log, newest first",
      args: { path: "logs/web.log", n: 3 },
      files: {
        "logs/web.log": lines(
          "9f1c2ab fix: header overlaps on mobile",
          "4be77d0 feat: dark mode toggle",
          "c03a9e1 chore: bump vite",
          "1d2e3f4 docs: readme badges",
          "77aa001 feat: landing page",
          "0b1c2d3 init",
        ),
      },
    },
    {
      say: "last 2 commits on history/api.txt? just the messages",
      args: { path: "history/api.txt", n: 2 },
      files: {
        "history/api.txt": lines(
          "e4f5a6b perf: cache token lookups",
          "a9b8c7d fix: 500 on empty body",
          "5566778 feat: rate limits per key",
          "1122334 test: contract tests for /users",
          "0f0e0d0 first cut of the api",
        ),
      },
    },
    {
      say: "what landed most recently? show me 4 from changes/recent.txt (short hash + title per row), titles only",
      args: { path: "changes/recent.txt", n: 4 },
      files: {
        "changes/recent.txt": lines(
          "aa11bb2 Merge pull request #88 from ana/i18n",
          "cc33dd4 i18n: Portuguese strings",
          "ee55ff6 i18n: extract strings",
          "0a1b2c3 fix typo in footer",
          "4d5e6f7 build: node 22",
          "8a9b0c1 add CONTRIBUTING",
          "2d3e4f5 initial import",
        ),
      },
    },
  ],
};

const OLDEST_COMMITS: ReuseTask = {
  name: "git:list_oldest_commit_subjects",
  intent: "list the subjects of the n oldest commits in a one-line git log file, oldest first",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "");
return ls.slice(-Number(args.n)).reverse().map((l) => l.replace(/^\S+\s+/, ""));`,
  expect: (a) => {
    const ls = rows(a);
    const n = a.args.n as number;
    const out: string[] = [];
    for (let i = ls.length - 1; i >= ls.length - n; i--) out.push(subject(ls[i]!));
    return out;
  },
  asks: [
    {
      say: "list the subjects of the 2 oldest commits in logs/cli.log, a one-line git log, oldest first",
      args: { path: "logs/cli.log", n: 2 },
      files: {
        "logs/cli.log": lines(
          "b7c8d9e feat: --json output",
          "a1a2a3a fix: exit code on usage error",
          "9e8d7c6 refactor: split commands",
          "6b5a4f3 add --help",
          "3c2b1a0 hello world cli",
        ),
      },
    },
    {
      say: "the 3 oldest commit msgs in repo/history.txt pls, from the start",
      args: { path: "repo/history.txt", n: 3 },
      files: {
        "repo/history.txt": lines(
          "f00dbab release 1.4.0",
          "beadfee fix: null check in parser",
          "cafe123 feat: streaming parser",
          "dead456 ci: add lint job",
          "c0ffee7 tokenizer",
          "abcdef0 empty repo with license",
        ),
      },
    },
    {
      say: "how did the project begin? the earliest 2 changes recorded in notes/genesis.txt, in the order they happened (hash and title per row, most recent at the top)",
      args: { path: "notes/genesis.txt", n: 2 },
      files: {
        "notes/genesis.txt": lines("7777777 docs: roadmap", "6666666 feat: plugin loader", "5555555 feat: config file", "4444444 skeleton app", "3333333 gitignore"),
      },
    },
  ],
};

const scalePx = (t: string, k: number, unit: string) => t.replace(/(-?\d*\.?\d+)px\b/g, (_, v: string) => `${Math.round(Number(v) * k * 10000) / 10000}${unit}`);

const PX_TO_REM: ReuseTask = {
  name: "css:convert_px_to_rem",
  intent: "convert every px length in a stylesheet to rem, 16px being 1rem",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.replace(/(-?\d*\.?\d+)px\b/g, (_, v) => Number((Number(v) / 16).toFixed(4)) + "rem");`,
  expect: (a) => scalePx(input(a), 1 / 16, "rem"),
  asks: [
    {
      say: "convert every px length in styles/main.css to rem, 16px being 1rem",
      args: { path: "styles/main.css" },
      files: { "styles/main.css": lines(".card {", "  padding: 24px 16px;", "  margin: 0 auto 8px;", "  border-radius: 4px;", "}") },
    },
    {
      say: "px→rem for ui/button.css",
      args: { path: "ui/button.css" },
      files: { "ui/button.css": lines(".btn {", "  font-size: 14px;", "  padding: 6px 12px;", "  gap: 2px;", "  border: 1px solid #ccc;", "}") },
    },
    {
      say: "make theme/typo.css scale with the root font size instead of fixed pixels",
      args: { path: "theme/typo.css" },
      files: { "theme/typo.css": lines("h1 { font-size: 40px; line-height: 48px; }", "h2 { font-size: 32px; margin-top: -8px; }", "p { font-size: 18px; }") },
    },
  ],
};

const PX_TO_PT: ReuseTask = {
  name: "css:convert_px_to_pt",
  intent: "convert every px length in a stylesheet to pt, 1px being 0.75pt",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.replace(/(-?\d*\.?\d+)px\b/g, (_, v) => Number((Number(v) * 0.75).toFixed(4)) + "pt");`,
  expect: (a) => scalePx(input(a), 0.75, "pt"),
  asks: [
    {
      say: "convert every px length in print/report.css to pt, 1px being 0.75pt",
      args: { path: "print/report.css" },
      files: { "print/report.css": lines("body { font-size: 16px; margin: 48px; }", "table { border-spacing: 4px; }") },
    },
    {
      say: "this stylesheet is for print, pt please not px: print/invoice.css",
      args: { path: "print/invoice.css" },
      files: { "print/invoice.css": lines(".total {", "  font-size: 20px;", "  padding-top: 12px;", "  border-top: 2px solid black;", "}") },
    },
    {
      say: "my pdf renderer only understands points, fix sizes in export/letter.css",
      args: { path: "export/letter.css" },
      files: { "export/letter.css": lines("@page { margin: 96px 72px; }", "h1 { font-size: 28px; }", "small { font-size: 10px; letter-spacing: 0.5px; }") },
    },
  ],
};

const isTestPath = (p: string) =>
  p
    .split("/")
    .slice(0, -1)
    .some((d) => d === "test" || d === "tests" || d === "__tests__") || /\.(test|spec)\.[^./]+$/.test(p);

const TEST_FILES: ReuseTask = {
  name: "repo:list_test_files",
  intent: "list the test files (*.test.*, *.spec.*, or under a test/tests/__tests__ folder) in a file listing",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const isTest = (p) => /(^|\/)(test|tests|__tests__)\//.test(p) || /\.(test|spec)\.[^./]+$/.test(p);
return t.split("\n").map((l) => l.trim()).filter((l) => l !== "" && isTest(l));`,
  expect: (a) =>
    rows(a)
      .map((l) => l.trim())
      .filter(isTestPath),
  asks: [
    {
      say: "list the test files in manifest/files.txt (*.test.*, *.spec.*, or under a test/tests/__tests__ folder)",
      args: { path: "manifest/files.txt" },
      files: {
        "manifest/files.txt": lines("src/index.ts", "src/parse.ts", "src/parse.test.ts", "test/e2e/login.ts", "README.md", "src/util/__tests__/dates.ts", "package.json"),
      },
    },
    {
      say: "which ones are specs or tests? tree/web.txt",
      args: { path: "tree/web.txt" },
      files: { "tree/web.txt": lines("app/page.tsx", "app/page.spec.tsx", "lib/api.ts", "tests/api.ts", "lib/contest.ts", "tailwind.config.js") },
    },
    {
      say: "what in ls/app.txt does jest pick up? paths only",
      args: { path: "ls/app.txt" },
      files: { "ls/app.txt": lines("server.js", "routes/users.js", "routes/users.test.js", "__tests__/server.js", "latest/notes.js", "models/user.spec.js", "models/user.js") },
    },
  ],
};

const NON_TEST_FILES: ReuseTask = {
  name: "repo:list_non_test_files",
  intent: "list the files that are not tests (*.test.*, *.spec.*, or under a test/tests/__tests__ folder) in a file listing",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const isTest = (p) => /(^|\/)(test|tests|__tests__)\//.test(p) || /\.(test|spec)\.[^./]+$/.test(p);
return t.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !isTest(l));`,
  expect: (a) =>
    rows(a)
      .map((l) => l.trim())
      .filter((p) => !isTestPath(p)),
  asks: [
    {
      say: "list the files that are not tests in manifest/all.txt (tests: *.test.*, *.spec.*, or under a test/tests/__tests__ folder)",
      args: { path: "manifest/all.txt" },
      files: { "manifest/all.txt": lines("cmd/main.go", "internal/db.go", "internal/db.test.go", "tests/fixtures/seed.sql", "go.mod", "docs/arch.md") },
    },
    {
      say: "non-test files of tree/server.txt",
      args: { path: "tree/server.txt" },
      files: { "tree/server.txt": lines("src/app.py", "src/test/test_app.py", "src/models.py", "src/models.spec.py", "setup.cfg") },
    },
    {
      say: "for the release bundle: from dump/paths.txt keep only production code, drop anything jest would run",
      args: { path: "dump/paths.txt" },
      files: {
        "dump/paths.txt": lines("src/cart.ts", "src/cart.test.ts", "src/__tests__/checkout.ts", "src/checkout.ts", "src/testimonials.ts", "src/price.spec.ts"),
      },
    },
  ],
};

const coords = (a: Ask) => rows(a).map((l) => l.split(",").map((x) => Number(x.trim())) as [number, number]);
const dms = (v: number, pos: string, neg: string) => {
  const secs = Math.round(Math.abs(v) * 3600);
  return `${Math.floor(secs / 3600)}°${Math.floor(secs / 60) % 60}'${secs % 60}"${v < 0 ? neg : pos}`;
};
const ddm = (v: number, pos: string, neg: string) => {
  const thousandths = Math.round(Math.abs(v) * 60000);
  return `${Math.floor(thousandths / 60000)}°${((thousandths % 60000) / 1000).toFixed(3)}'${v < 0 ? neg : pos}`;
};

const COORDS_DMS: ReuseTask = {
  name: "geo:format_coordinates_dms",
  intent: "convert decimal-degree coordinates (lat,lon per line) in a file to degrees-minutes-seconds, like 40°26'46\"N 79°58'56\"W",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const f = (v, p, n) => {
  const s = Math.round(Math.abs(v) * 3600);
  return Math.floor(s / 3600) + "°" + (Math.floor(s / 60) % 60) + "'" + (s % 60) + '"' + (v < 0 ? n : p);
};
return t.split("\n").filter((l) => l.trim() !== "").map((l) => {
  const [lat, lon] = l.split(",").map((x) => Number(x.trim()));
  return f(lat, "N", "S") + " " + f(lon, "E", "W");
});`,
  expect: (a) => coords(a).map(([lat, lon]) => `${dms(lat, "N", "S")} ${dms(lon, "E", "W")}`),
  asks: [
    {
      say: "convert the decimal-degree coordinates in gps/stops.csv (lat,lon per line) to degrees-minutes-seconds like 40°26'46\"N 79°58'56\"W",
      args: { path: "gps/stops.csv" },
      files: { "gps/stops.csv": lines("40.4461,-79.9822", "48.8584,2.2945", "-33.8568,151.2153") },
    },
    {
      say: "please you can give me coordinates of trips/day2.csv in D M S?",
      args: { path: "trips/day2.csv" },
      files: { "trips/day2.csv": lines("51.5007,-0.1246", "41.8902,12.4922") },
    },
    {
      say: "sailing club wants the waypoints in marks/buoys.csv written the old way with arcseconds",
      args: { path: "marks/buoys.csv" },
      files: { "marks/buoys.csv": lines("50.1234,-5.0571", "50.2010,-4.9876", "49.9577,-5.2049") },
    },
  ],
};

const COORDS_DDM: ReuseTask = {
  name: "geo:format_coordinates_ddm",
  intent: "convert decimal-degree coordinates (lat,lon per line) in a file to degrees and decimal minutes, like 40°26.767'N 79°58.933'W",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const f = (v, p, n) => {
  const k = Math.round(Math.abs(v) * 60000);
  return Math.floor(k / 60000) + "°" + ((k % 60000) / 1000).toFixed(3) + "'" + (v < 0 ? n : p);
};
return t.split("\n").filter((l) => l.trim() !== "").map((l) => {
  const [lat, lon] = l.split(",").map((x) => Number(x.trim()));
  return f(lat, "N", "S") + " " + f(lon, "E", "W");
});`,
  expect: (a) => coords(a).map(([lat, lon]) => `${ddm(lat, "N", "S")} ${ddm(lon, "E", "W")}`),
  asks: [
    {
      say: "convert the decimal-degree coordinates in gps/cafes.csv (lat,lon per line) to degrees and decimal minutes like 40°26.767'N 79°58.933'W",
      args: { path: "gps/cafes.csv" },
      files: { "gps/cafes.csv": lines("38.7139,-9.1394", "52.3702,4.8952", "-22.9519,-43.2105") },
    },
    {
      say: "DDM for survey/pins.csv — degrees + decimal minutes",
      args: { path: "survey/pins.csv" },
      files: { "survey/pins.csv": lines("47.3769,8.5417", "46.2044,6.1432") },
    },
    {
      say: "my chartplotter wants ddd°mm.mmm — can you redo nav/route.csv ?",
      args: { path: "nav/route.csv" },
      files: { "nav/route.csv": lines("43.2951,5.3690", "42.6976,9.4509", "41.3851,2.1734") },
    },
  ],
};

const sshField = (a: Ask, field: string) => {
  const out: Record<string, string> = {};
  let host: string | undefined;
  for (const l of rows(a)) {
    const [k, v] = l.trim().split(/\s+/, 2) as [string, string | undefined];
    if (k.toLowerCase() === "host") host = v;
    else if (host !== undefined && k.toLowerCase() === field && v !== undefined) out[host] = v;
  }
  return out;
};

const sshCode = (field: string) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = {};
let host = null;
for (const raw of t.split("\n")) {
  const l = raw.trim();
  if (l === "" || l.startsWith("#")) continue;
  const m = l.match(/^(\S+)\s+(.*)$/);
  if (!m) continue;
  const key = m[1].toLowerCase();
  if (key === "host") host = m[2].trim();
  else if (host !== null && key === "${field}") out[host] = m[2].trim();
}
return out;`;

const SSH_ADDRESSES: ReuseTask = {
  name: "ssh:map_host_addresses",
  intent: "map each Host alias in an ssh config file to its HostName",
  code: sshCode("hostname"),
  expect: (a) => sshField(a, "hostname"),
  asks: [
    {
      say: "map each Host alias in ssh/config to its HostName",
      args: { path: "ssh/config" },
      files: {
        "ssh/config": lines("Host web", "  HostName 10.0.0.5", "  User deploy", "", "Host db", "  HostName db.internal", "  User postgres", "  Port 5433"),
      },
    },
    {
      say: "which machine does every host in dotfiles/ssh_config point at?",
      args: { path: "dotfiles/ssh_config" },
      files: {
        "dotfiles/ssh_config": lines(
          "Host gh",
          "    HostName github.com",
          "    User git",
          "    IdentityFile ~/.ssh/id_ed25519",
          "Host pi",
          "    User pi",
          "    HostName 192.168.1.40",
        ),
      },
    },
    {
      say: "I forget the real IPs/dns names behind my shortcuts in home/ops/jump.conf, list them per shortcut",
      args: { path: "home/ops/jump.conf" },
      files: {
        "home/ops/jump.conf": lines(
          "Host bastion",
          "  HostName 203.0.113.10",
          "  User ops",
          "",
          "Host app1",
          "  HostName 10.20.0.11",
          "  User ubuntu",
          "  ProxyJump bastion",
          "",
          "Host app2",
          "  HostName 10.20.0.12",
          "  User ubuntu",
          "  ProxyJump bastion",
        ),
      },
    },
  ],
};

const SSH_USERS: ReuseTask = {
  name: "ssh:map_host_users",
  intent: "map each Host alias in an ssh config file to its User",
  code: sshCode("user"),
  expect: (a) => sshField(a, "user"),
  asks: [
    {
      say: "map each Host alias in ssh/hosts.conf to its User",
      args: { path: "ssh/hosts.conf" },
      files: { "ssh/hosts.conf": lines("Host build", "  HostName ci.example.org", "  User jenkins", "", "Host nas", "  HostName 192.168.0.2", "  User admin") },
    },
    {
      say: "logn user per host, from infra/ssh.cfg",
      args: { path: "infra/ssh.cfg" },
      files: {
        "infra/ssh.cfg": lines("Host mail", "  User postfix", "  HostName mx1.example.net", "Host backup", "  HostName 10.1.1.9", "  User borg", "  Port 2222"),
      },
    },
    {
      say: "who do I log in as on every box? keys/cfg.txt",
      args: { path: "keys/cfg.txt" },
      files: {
        "keys/cfg.txt": lines(
          "Host edge",
          "  HostName 198.51.100.7",
          "  User root",
          "",
          "Host lab",
          "  HostName lab.local",
          "  User maria",
          "",
          "Host gpu",
          "  HostName 10.9.9.9",
          "  User ml",
        ),
      },
    },
  ],
};

const priceRows = (a: Ask) =>
  input(a)
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(","));

const ADD_VAT: ReuseTask = {
  name: "vat:add_vat_to_prices",
  intent: "add VAT at a given rate (percent) to each net price in a CSV (item,price), rounded to cents",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = {};
for (const l of t.trim().split("\n").slice(1)) {
  const [item, price] = l.split(",");
  out[item] = Math.round(Number(price) * (1 + Number(args.rate) / 100) * 100) / 100;
}
return out;`,
  expect: (a) => Object.fromEntries(priceRows(a).map(([item, p]) => [item, round2(Number(p) * (1 + (a.args.rate as number) / 100))])),
  asks: [
    {
      say: "add VAT at 20 percent to each net price in shop/prices.csv (item,price), rounded to cents",
      args: { path: "shop/prices.csv", rate: 20 },
      files: {
        "shop/prices.csv": csv("item,price", [
          ["mug", 8.5],
          ["poster", 15],
          ["tote bag", 12.4],
        ]),
      },
    },
    {
      say: "VAT-inclusive prcies for menu/net.csv, rate 10",
      args: { path: "menu/net.csv", rate: 10 },
      files: {
        "menu/net.csv": csv("item,price", [
          ["espresso", 2.2],
          ["croissant", 3.1],
          ["brunch", 18.9],
        ]),
      },
    },
    {
      say: "what will customers pay at the till for stock/shelf.txt? Swiss 8.1% tax on top",
      args: { path: "stock/shelf.txt", rate: 8.1 },
      files: {
        "stock/shelf.txt": csv("item,price", [
          ["chocolate", 4.6],
          ["cheese", 11.25],
          ["watch strap", 39],
        ]),
      },
    },
  ],
};

const REMOVE_VAT: ReuseTask = {
  name: "vat:remove_vat_from_prices",
  intent: "take VAT at a given rate (percent) out of each gross price in a CSV (item,price), rounded to cents",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = {};
for (const l of t.trim().split("\n").slice(1)) {
  const [item, price] = l.split(",");
  out[item] = Math.round((Number(price) / (1 + Number(args.rate) / 100)) * 100) / 100;
}
return out;`,
  expect: (a) => Object.fromEntries(priceRows(a).map(([item, p]) => [item, round2(Number(p) / (1 + (a.args.rate as number) / 100))])),
  asks: [
    {
      say: "take VAT at 20 percent out of each gross price in receipts/may.csv (item,price), rounded to cents",
      args: { path: "receipts/may.csv", rate: 20 },
      files: {
        "receipts/may.csv": csv("item,price", [
          ["train ticket", 54],
          ["hotel", 129.6],
          ["taxi", 23.5],
        ]),
      },
    },
    {
      say: "net of 19% mwst pls: receipts/berlin.csv has gross amounts",
      args: { path: "receipts/berlin.csv", rate: 19 },
      files: {
        "receipts/berlin.csv": csv("item,price", [
          ["coworking day", 29.75],
          ["lunch", 14.9],
          ["charger", 35.7],
        ]),
      },
    },
    {
      say: "these till totals in expenses/lisbon.txt include Portugal's 23% IVA, what were they before tax?",
      args: { path: "expenses/lisbon.txt", rate: 23 },
      files: {
        "expenses/lisbon.txt": csv("item,price", [
          ["dinner", 61.5],
          ["museum", 18.45],
          ["tram pass", 7.38],
        ]),
      },
    },
  ],
};

const segments = (p: string) => {
  const out: string[] = [];
  for (const s of p.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") out.pop();
    else out.push(s);
  }
  return out;
};

const RELATIVE_PATHS: ReuseTask = {
  name: "path:make_paths_relative",
  intent: "rewrite each absolute path listed in a file relative to a base directory",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const norm = (p) => {
  const out = [];
  for (const s of p.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") out.pop(); else out.push(s);
  }
  return out;
};
const base = norm(args.base);
return t.split("\n").map((l) => l.trim()).filter((l) => l !== "").map((l) => {
  const p = norm(l);
  let i = 0;
  while (i < base.length && i < p.length && base[i] === p[i]) i++;
  const parts = [];
  for (let j = i; j < base.length; j++) parts.push("..");
  return parts.concat(p.slice(i)).join("/") || ".";
});`,
  expect: (a) => {
    const base = segments(a.args.base as string);
    return rows(a).map((l) => {
      const p = segments(l.trim());
      let i = 0;
      while (i < base.length && base[i] === p[i]) i++;
      return [...base.slice(i).map(() => ".."), ...p.slice(i)].join("/") || ".";
    });
  },
  asks: [
    {
      say: "rewrite each absolute path listed in build/abs.txt relative to the base directory /home/ana/proj",
      args: { path: "build/abs.txt", base: "/home/ana/proj" },
      files: { "build/abs.txt": lines("/home/ana/proj/src/main.c", "/home/ana/proj/include/util.h", "/home/ana/notes.md", "/usr/include/stdio.h") },
    },
    {
      say: "relative paths please, from /srv/site, for the list in deploy/files.txt",
      args: { path: "deploy/files.txt", base: "/srv/site" },
      files: { "deploy/files.txt": lines("/srv/site/index.html", "/srv/site/assets/app.js", "/srv/shared/fonts/inter.woff2") },
    },
    {
      say: "strip the /opt/tool prefix the portable way (with ../ where needed) from every line of logs/open.txt",
      args: { path: "logs/open.txt", base: "/opt/tool" },
      files: { "logs/open.txt": lines("/opt/tool/bin/run", "/opt/tool/lib/core.so", "/opt/other/cfg.ini", "/etc/hosts") },
    },
  ],
};

const ABSOLUTE_PATHS: ReuseTask = {
  name: "path:resolve_paths_absolute",
  intent: "resolve each relative path listed in a file against a base directory to an absolute path",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const norm = (p) => {
  const out = [];
  for (const s of p.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") out.pop(); else out.push(s);
  }
  return out;
};
return t.split("\n").map((l) => l.trim()).filter((l) => l !== "").map((l) =>
  "/" + norm(l.startsWith("/") ? l : args.base + "/" + l).join("/"));`,
  expect: (a) => rows(a).map((l) => `/${segments(l.trim().startsWith("/") ? l.trim() : `${a.args.base}/${l.trim()}`).join("/")}`),
  asks: [
    {
      say: "resolve each relative path listed in build/rel.txt against the base directory /home/bo/site to an absolute path",
      args: { path: "build/rel.txt", base: "/home/bo/site" },
      files: { "build/rel.txt": lines("src/index.js", "./public/logo.svg", "../shared/theme.css", "../../ana/readme.txt") },
    },
    {
      say: "make these absolute, cwd /var/www: links/local.txt",
      args: { path: "links/local.txt", base: "/var/www" },
      files: { "links/local.txt": lines("html/index.php", "../log/nginx/access.log", "./cgi-bin/run.sh") },
    },
    {
      say: "expand the ./ and ../ entries of scripts/inputs.txt to full names, we were in /data/jobs when they were written",
      args: { path: "scripts/inputs.txt", base: "/data/jobs" },
      files: { "scripts/inputs.txt": lines("./2026-12/batch.csv", "../raw/events.ndjson", "../../tmp/lock", "queue/next.json") },
    },
  ],
};

const srtTime = (ms: number) => {
  const t = Math.max(0, ms);
  const p = (n: number, w: number) => String(n).padStart(w, "0");
  return `${p(Math.floor(t / 3600000), 2)}:${p(Math.floor(t / 60000) % 60, 2)}:${p(Math.floor(t / 1000) % 60, 2)},${p(t % 1000, 3)}`;
};
const shiftSrt = (a: Ask) =>
  input(a).replace(/(\d{2}):(\d{2}):(\d{2}),(\d{3})/g, (_, h: string, m: string, s: string, f: string) =>
    srtTime(Number(h) * 3600000 + Number(m) * 60000 + Number(s) * 1000 + Number(f) + (a.args.ms as number)),
  );
const srt = (...cues: [string, string, string][]) => lines(...cues.flatMap(([from, to, text], i) => [String(i + 1), `${from} --> ${to}`, text, ""]));

const SHIFT_SUBTITLES: ReuseTask = {
  name: "srt:shift_subtitle_times",
  intent: "shift every timestamp in an SRT subtitle file by a number of milliseconds and write the result to another file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const pad = (n, w) => String(n).padStart(w, "0");
const fmt = (ms) => {
  ms = Math.max(0, ms);
  return pad(Math.floor(ms / 3600000), 2) + ":" + pad(Math.floor(ms / 60000) % 60, 2) + ":" + pad(Math.floor(ms / 1000) % 60, 2) + "," + pad(ms % 1000, 3);
};
const out = t.replace(/(\d{2}):(\d{2}):(\d{2}),(\d{3})/g, (_, h, m, s, f) => fmt(((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(f) + Number(args.ms)));
await mcp.filesystem.write_file({ path: args.out, content: out });
return t.split("\n").filter((l) => l.includes("-->")).length;`,
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l) => l.includes("-->")).length,
  leaves: (a) => ({ [a.args.out as string]: shiftSrt(a) }),
  asks: [
    {
      say: "shift every timestamp in subs/ep1.srt by 1500 milliseconds and write the result to subs/ep1.fixed.srt",
      args: { path: "subs/ep1.srt", ms: 1500, out: "subs/ep1.fixed.srt" },
      files: {
        "subs/ep1.srt": srt(["00:00:01,000", "00:00:03,200", "Previously..."], ["00:00:04,100", "00:00:06,900", "We need to talk."], ["00:00:59,000", "00:01:01,250", "Not now."]),
      },
    },
    {
      say: "subtitles of film/movie.srt run 2.25s early — delay them by 2250 ms into film/movie.synced.srt",
      args: { path: "film/movie.srt", ms: 2250, out: "film/movie.synced.srt" },
      files: {
        "film/movie.srt": srt(["00:12:58,900", "00:13:01,000", "Open the door!"], ["00:59:59,500", "01:00:02,000", "It's midnight."]),
      },
    },
    {
      say: "captions in talks/keynote_captions.txt lag by 0.8s, pull them forward 800ms and save as talks/keynote_captions.fixed.txt",
      args: { path: "talks/keynote_captions.txt", ms: -800, out: "talks/keynote_captions.fixed.txt" },
      files: {
        "talks/keynote_captions.txt": srt(
          ["00:00:00,500", "00:00:02,000", "Good morning."],
          ["00:00:02,700", "00:00:05,000", "Let's begin."],
          ["00:10:00,100", "00:10:03,000", "Thank you!"],
          ["00:10:04,000", "00:10:06,000", "Questions?"],
        ),
      },
    },
  ],
};

const ROUTE_KM: ReuseTask = {
  name: "geo:sum_route_length_km",
  intent: "total length in km of a route given as lat,lon points (one per line) in a file, by the haversine formula, rounded to 2 decimals",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const pts = t.split("\n").filter((l) => l.trim() !== "").map((l) => l.split(",").map(Number));
const rad = (d) => (d * Math.PI) / 180;
let km = 0;
for (let i = 1; i < pts.length; i++) {
  const [la1, lo1] = pts[i - 1], [la2, lo2] = pts[i];
  const h = Math.sin(rad(la2 - la1) / 2) ** 2 + Math.cos(rad(la1)) * Math.cos(rad(la2)) * Math.sin(rad(lo2 - lo1) / 2) ** 2;
  km += 2 * 6371 * Math.asin(Math.sqrt(h));
}
return Math.round(km * 100) / 100;`,
  expect: (a) => {
    const pts = coords(a);
    const r = Math.PI / 180;
    let total = 0;
    pts.slice(1).forEach(([lat, lon], i) => {
      const [plat, plon] = pts[i]!;
      const s1 = Math.sin(((lat - plat) * r) / 2);
      const s2 = Math.sin(((lon - plon) * r) / 2);
      total +=
        2 * 6371 * Math.atan2(Math.sqrt(s1 * s1 + Math.cos(plat * r) * Math.cos(lat * r) * s2 * s2), Math.sqrt(1 - s1 * s1 - Math.cos(plat * r) * Math.cos(lat * r) * s2 * s2));
    });
    return round2(total);
  },
  asks: [
    {
      say: "total length in km of the route in rides/sunday.csv (lat,lon per line), haversine, rounded to 2 decimals",
      args: { path: "rides/sunday.csv" },
      files: { "rides/sunday.csv": lines("45.7640,4.8357", "45.7772,4.8559", "45.8020,4.8710", "45.8337,4.8792") },
    },
    {
      say: "how long was my route? tracks/run.csv, km",
      args: { path: "tracks/run.csv" },
      files: { "tracks/run.csv": lines("52.5163,13.3777", "52.5200,13.3880", "52.5219,13.4132", "52.5096,13.4236", "52.5163,13.3777") },
    },
    {
      say: "distance covered along walk/hike.txt? it's a list of gps fixes",
      args: { path: "walk/hike.txt" },
      files: { "walk/hike.txt": lines("46.5580,7.8350", "46.5650,7.8500", "46.5772,7.8710") },
    },
  ],
};

const CONTAINER_IMAGES: ReuseTask = {
  name: "k8s:list_container_images",
  intent: "list the container images (image: fields) in a Kubernetes YAML manifest, in order, duplicates removed",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const l of t.split("\n")) {
  const m = l.match(/^\s*(?:-\s*)?image:\s*["']?([^"'\s#]+)/);
  if (m && !out.includes(m[1])) out.push(m[1]);
}
return out;`,
  expect: (a) => [
    ...new Set(
      input(a)
        .split("\n")
        .map((l) => l.trim().replace(/^-\s*/, ""))
        .filter((l) => l.startsWith("image:"))
        .map((l) => l.slice("image:".length).trim().replace(/["']/g, "").split(/\s+/)[0]!),
    ),
  ],
  asks: [
    {
      say: "list the container images in deploy/app.yaml (its image: fields), in order, no duplicates",
      args: { path: "deploy/app.yaml" },
      files: {
        "deploy/app.yaml": lines(
          "apiVersion: apps/v1",
          "kind: Deployment",
          "metadata:",
          "  name: shop",
          "spec:",
          "  template:",
          "    spec:",
          "      initContainers:",
          "        - name: migrate",
          "          image: ghcr.io/acme/shop:1.8.2",
          "      containers:",
          "        - name: web",
          "          image: ghcr.io/acme/shop:1.8.2",
          "        - name: proxy",
          '          image: "envoyproxy/envoy:v1.30.1"',
        ),
      },
    },
    {
      say: "images used by k8s/cron.yaml?",
      args: { path: "k8s/cron.yaml" },
      files: {
        "k8s/cron.yaml": lines(
          "apiVersion: batch/v1",
          "kind: CronJob",
          "spec:",
          "  jobTemplate:",
          "    spec:",
          "      template:",
          "        spec:",
          "          containers:",
          "            - image: postgres:16-alpine",
          "              name: dump",
          "            - name: upload",
          "              image: amazon/aws-cli:2.15.0 # pinned",
        ),
      },
    },
    {
      say: "what do I need to pull before applying charts/rendered.yml? registry refs only",
      args: { path: "charts/rendered.yml" },
      files: {
        "charts/rendered.yml": lines(
          "---",
          "kind: StatefulSet",
          "spec:",
          "  template:",
          "    spec:",
          "      containers:",
          "        - name: redis",
          "          image: redis:7.2",
          "        - name: exporter",
          "          image: oliver006/redis_exporter:v1.58.0",
          "---",
          "kind: Deployment",
          "spec:",
          "  template:",
          "    spec:",
          "      containers:",
          "        - name: api",
          "          image: registry.example.com/team/api@sha256:abc123",
          "        - name: sidecar",
          "          image: redis:7.2",
        ),
      },
    },
  ],
};

const octal = (s: string) => {
  const p = s.length === 10 ? s.slice(1) : s;
  return [0, 3, 6].map((i) => (p[i] === "r" ? 4 : 0) + (p[i + 1] === "w" ? 2 : 0) + (p[i + 2] === "x" ? 1 : 0)).join("");
};

const SYMBOLIC_TO_OCTAL: ReuseTask = {
  name: "perm:convert_symbolic_to_octal",
  intent: "convert each symbolic permission string (like rwxr-xr--) in a file to its octal mode (like 754)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.trim()).filter((l) => l !== "").map((l) => {
  const s = l.length === 10 ? l.slice(1) : l;
  let out = "";
  for (let i = 0; i < 9; i += 3) {
    let d = 0;
    if (s[i] === "r") d += 4;
    if (s[i + 1] === "w") d += 2;
    if (s[i + 2] === "x") d += 1;
    out += d;
  }
  return out;
});`,
  expect: (a) => rows(a).map((l) => octal(l.trim())),
  asks: [
    {
      say: "convert each symbolic permission string in perms/list.txt (like rwxr-xr--) to its octal mode (like 754)",
      args: { path: "perms/list.txt" },
      files: { "perms/list.txt": lines("rwxr-xr--", "rw-r--r--", "rwx------", "r--r-----") },
    },
    {
      say: "octal for the modes in audit/ls.txt pls",
      args: { path: "audit/ls.txt" },
      files: { "audit/ls.txt": lines("-rw-rw-r--", "drwxr-xr-x", "-rwx--x--x", "lrwxrwxrwx") },
    },
    {
      say: "chmod numbers for the entries of sec/rights.txt?",
      args: { path: "sec/rights.txt" },
      files: { "sec/rights.txt": lines("rw-------", "-r-xr-xr-x", "rwxrwx---") },
    },
  ],
};

export const BLIND_22_TASKS: readonly ReuseTask[] = [
  LITTLE_ENDIAN,
  BIG_ENDIAN,
  NEWEST_COMMITS,
  OLDEST_COMMITS,
  PX_TO_REM,
  PX_TO_PT,
  TEST_FILES,
  NON_TEST_FILES,
  COORDS_DMS,
  COORDS_DDM,
  SSH_ADDRESSES,
  SSH_USERS,
  ADD_VAT,
  REMOVE_VAT,
  RELATIVE_PATHS,
  ABSOLUTE_PATHS,
  SHIFT_SUBTITLES,
  ROUTE_KM,
  CONTAINER_IMAGES,
  SYMBOLIC_TO_OCTAL,
];
