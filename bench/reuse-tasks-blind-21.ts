// The 21st blind reuse stream (`--tasks blind21`), written blind on 2026-12-08 by someone who saw
// only the format (bench/reuse-tasks.ts's types, shared functions and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60
// requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names
// and kinds (chords transposed up vs down, first vs last usable address of a subnet, count vs list
// of failed tests, litres per 100 km vs miles per gallon, invoice total before vs with tax, JSON
// Lines vs a JSON array, Host aliases vs HostName targets, on-screen seconds summed vs first-to-last
// span of subtitles) and 4 single tasks. The repeats are worded as different users on different
// days would ask (terse, chatty, a file name, jargon, typos, a non-native speaker); one repeat of
// each task shares a content word with its intent, the other shares none.
import { type Ask, csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const rows = (a: Ask) => {
  const [head, ...body] = input(a)
    .trim()
    .split("\n")
    .map((l) => l.split(","));
  return body.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i]!]))) as Record<string, string>[];
};

// ---- chords transposed up vs down ----

const SCALE = "C C# D D# E F F# G G# A A# B".split(" ");
const transpose = (a: Ask, sign: 1 | -1) =>
  input(a)
    .trim()
    .split(/\s+/)
    .map((ch) => {
      const root = ch[1] === "#" ? ch.slice(0, 2) : ch.slice(0, 1);
      return SCALE[(SCALE.indexOf(root) + sign * Number(a.args.semitones) + 120) % 12] + ch.slice(root.length);
    });
const transposeCode = (op: "+" | "-") => String.raw`const notes = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"];
const t = await mcp.filesystem.read_file({ path: args.path });
const n = Number(args.semitones);
return t.split(/\s+/).filter(Boolean).map((c) => {
  const m = c.match(/^([A-G]#?)(.*)$/);
  return notes[(((notes.indexOf(m[1]) ${op} n) % 12) + 12) % 12] + m[2];
});`;

const CHORDS_UP: ReuseTask = {
  name: "chords:transpose_up",
  intent: "transpose the chords of a song sheet up by a number of semitones",
  code: transposeCode("+"),
  expect: (a) => transpose(a, 1),
  asks: [
    {
      say: "transpose the chords of songs/wonderwall.txt up by 2 semitones",
      args: { path: "songs/wonderwall.txt", semitones: 2 },
      files: { "songs/wonderwall.txt": lines("Em7 G D A7sus4", "Em7 G D A7sus4", "C D Em7") },
    },
    {
      say: "the capo hurts my hand, coud you raise the chords in gig/setlist-3.txt by 3 half steps?",
      args: { path: "gig/setlist-3.txt", semitones: 3 },
      files: { "gig/setlist-3.txt": lines("G Em C D", "G Em Am7 D7", "C D G") },
    },
    {
      say: "band/intro.txt: make it 5 half-steps higher, our singer can't reach those low notes",
      args: { path: "band/intro.txt", semitones: 5 },
      files: { "band/intro.txt": lines("Am F C G", "Am F G E7") },
    },
  ],
};

const CHORDS_DOWN: ReuseTask = {
  name: "chords:transpose_down",
  intent: "transpose the chords of a song sheet down by a number of semitones",
  code: transposeCode("-"),
  expect: (a) => transpose(a, -1),
  asks: [
    {
      say: "transpose the chords of songs/hallelujah.txt down by 3 semitones",
      args: { path: "songs/hallelujah.txt", semitones: 3 },
      files: { "songs/hallelujah.txt": lines("C Am C Am", "F G C G", "C F G Am F") },
    },
    {
      say: "choir/anthem.txt sits too high for us, drop it 2 semitones",
      args: { path: "choir/anthem.txt", semitones: 2 },
      files: { "choir/anthem.txt": lines("D A Bm G", "D A G A7", "Bm G D") },
    },
    {
      say: "lower charts/ballad.txt by four half steps pls, vocalist is a baritone",
      args: { path: "charts/ballad.txt", semitones: 4 },
      files: { "charts/ballad.txt": lines("E B C#m A", "E B A B7", "F#m7 B7 E") },
    },
  ],
};

// ---- first vs last usable address of a subnet ----

const subnet = (a: Ask) => {
  const [ip, bits] = String(a.args.cidr).split("/");
  const n = ip!.split(".").reduce((acc, o) => ((acc << 8) | Number(o)) >>> 0, 0);
  const mask = (0xffffffff << (32 - Number(bits))) >>> 0;
  const network = (n & mask) >>> 0;
  const broadcast = (network | ~mask) >>> 0;
  return { network, broadcast };
};
const dotted = (v: number) => [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join(".");
const usableCode = (last: boolean) => String.raw`const [ip, bits] = String(args.cidr).split("/");
const n = ip.split(".").reduce((acc, o) => acc * 256 + Number(o), 0);
const size = Math.pow(2, 32 - Number(bits));
const net = Math.floor(n / size) * size;
const v = ${last ? "net + size - 2" : "net + 1"};
return [Math.floor(v / 16777216) % 256, Math.floor(v / 65536) % 256, Math.floor(v / 256) % 256, v % 256].join(".");`;

const FIRST_USABLE: ReuseTask = {
  name: "net:first_usable_address",
  intent: "find the first usable host address of an IPv4 subnet in CIDR notation",
  code: usableCode(false),
  expect: (a) => dotted(subnet(a).network + 1),
  asks: [
    { say: "find the first usable host address of 192.168.10.0/24", args: { cidr: "192.168.10.0/24" } },
    { say: "what's the lowest address I can give a machine on 10.20.30.77/26?", args: { cidr: "10.20.30.77/26" } },
    { say: "10.8.0.0/22, the gateway goes on the bottom-most assignable one, which is it?", args: { cidr: "10.8.0.0/22" } },
  ],
};

const LAST_USABLE: ReuseTask = {
  name: "net:last_usable_address",
  intent: "find the last usable host address of an IPv4 subnet in CIDR notation",
  code: usableCode(true),
  expect: (a) => dotted(subnet(a).broadcast - 1),
  asks: [
    { say: "find the last usable host address of 172.16.4.0/23", args: { cidr: "172.16.4.0/23" } },
    { say: "top usable one in 192.168.77.130/25?", args: { cidr: "192.168.77.130/25" } },
    { say: "broadcast minus one for 10.1.64.0/19, i.e. the highest box we can assign", args: { cidr: "10.1.64.0/19" } },
  ],
};

// ---- count vs list of failed tests ----

const pytestLog = (results: [string, "PASSED" | "FAILED" | "SKIPPED"][]) => {
  const n = results.length;
  const count = (st: string) => results.filter(([, s]) => s === st).length;
  return lines(
    "============================= test session starts ==============================",
    "platform linux -- Python 3.12.4, pytest-8.2.2, pluggy-1.5.0",
    `collected ${n} items`,
    "",
    ...results.map(([id, st], i) => `${`${id} ${st}`.padEnd(72)} [${String(Math.round(((i + 1) / n) * 100)).padStart(3)}%]`),
    "",
    "=========================== short test summary info ============================",
    ...results.filter(([, st]) => st === "FAILED").map(([id]) => `FAILED ${id} - AssertionError`),
    `==================== ${count("FAILED")} failed, ${count("PASSED")} passed, ${count("SKIPPED")} skipped in 0.84s ====================`,
  );
};
const failedIds = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((p) => p[0]!.includes("::") && p[1] === "FAILED")
    .map((p) => p[0]!);

const COUNT_FAILED: ReuseTask = {
  name: "pytest:count_failed_tests",
  intent: "count the failed tests in a pytest run's output",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => /^\S+::\S+ FAILED\b/.test(l)).length;`,
  expect: (a) => failedIds(a).length,
  asks: [
    {
      say: "count the failed tests in ci/pytest-output.txt",
      args: { path: "ci/pytest-output.txt" },
      files: {
        "ci/pytest-output.txt": pytestLog([
          ["tests/test_auth.py::test_login", "PASSED"],
          ["tests/test_auth.py::test_logout", "FAILED"],
          ["tests/test_cart.py::test_add_item", "PASSED"],
          ["tests/test_cart.py::test_remove_item", "SKIPPED"],
          ["tests/test_cart.py::test_total", "FAILED"],
          ["tests/test_cart.py::test_coupon", "PASSED"],
        ]),
      },
    },
    {
      say: "how many tests whent red in build-417.log?",
      args: { path: "build-417.log" },
      files: {
        "build-417.log": pytestLog([
          ["tests/unit/test_parser.py::test_empty", "PASSED"],
          ["tests/unit/test_parser.py::test_nested[2]", "FAILED"],
          ["tests/unit/test_parser.py::test_nested[5]", "FAILED"],
          ["tests/unit/test_lexer.py::test_unicode", "FAILED"],
          ["tests/unit/test_lexer.py::test_tabs", "PASSED"],
        ]),
      },
    },
    {
      say: "how many cases broke in nightly/ci-console.txt?",
      args: { path: "nightly/ci-console.txt" },
      files: {
        "nightly/ci-console.txt": pytestLog([
          ["tests/e2e/test_checkout.py::test_guest", "FAILED"],
          ["tests/e2e/test_checkout.py::test_member", "PASSED"],
          ["tests/e2e/test_search.py::test_typo", "PASSED"],
          ["tests/e2e/test_search.py::test_filters", "PASSED"],
          ["tests/e2e/test_search.py::test_paging", "SKIPPED"],
          ["tests/e2e/test_profile.py::test_avatar", "PASSED"],
          ["tests/e2e/test_profile.py::test_delete", "PASSED"],
        ]),
      },
    },
  ],
};

const LIST_FAILED: ReuseTask = {
  name: "pytest:list_failed_tests",
  intent: "list the ids of the failed tests in a pytest run's output",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => /^\S+::\S+ FAILED\b/.test(l)).map((l) => l.split(" ")[0]);`,
  expect: (a) => failedIds(a),
  asks: [
    {
      say: "list the ids of the failed tests in ci/pytest-run.txt",
      args: { path: "ci/pytest-run.txt" },
      files: {
        "ci/pytest-run.txt": pytestLog([
          ["tests/test_api.py::test_health", "PASSED"],
          ["tests/test_api.py::test_create_user", "FAILED"],
          ["tests/test_api.py::test_delete_user", "PASSED"],
          ["tests/test_db.py::test_migrate", "FAILED"],
          ["tests/test_db.py::test_rollback", "SKIPPED"],
        ]),
      },
    },
    {
      say: "which ones failed in logs/pr-88.txt? need the node ids to rerun them",
      args: { path: "logs/pr-88.txt" },
      files: {
        "logs/pr-88.txt": pytestLog([
          ["tests/test_money.py::test_round_half_even", "FAILED"],
          ["tests/test_money.py::test_currency_symbol", "PASSED"],
          ["tests/test_money.py::test_split[3]", "PASSED"],
          ["tests/test_money.py::test_split[7]", "FAILED"],
        ]),
      },
    },
    {
      say: "gimme the broken cases from jenkins/console-2211.txt, full nodeid each",
      args: { path: "jenkins/console-2211.txt" },
      files: {
        "jenkins/console-2211.txt": pytestLog([
          ["tests/integration/test_s3.py::test_upload", "PASSED"],
          ["tests/integration/test_s3.py::test_presign", "FAILED"],
          ["tests/integration/test_queue.py::test_retry", "PASSED"],
          ["tests/integration/test_queue.py::test_dead_letter", "PASSED"],
          ["tests/integration/test_mail.py::test_bounce", "FAILED"],
          ["tests/integration/test_mail.py::test_unsubscribe", "FAILED"],
        ]),
      },
    },
  ],
};

// ---- litres per 100 km vs miles per US gallon ----

const tripTotals = (a: Ask) => rows(a).reduce((t, r) => ({ km: t.km + Number(r.km), litres: t.litres + Number(r.litres) }), { km: 0, litres: 0 });
const fuelCode = (result: string) => String.raw`const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\n").map((l) => l.split(","));
const k = head.indexOf("km");
const l = head.indexOf("litres");
let km = 0;
let litres = 0;
for (const r of rows) {
  km += Number(r[k]);
  litres += Number(r[l]);
}
return Math.round(${result} * 100) / 100;`;

const LITRES_PER_100KM: ReuseTask = {
  name: "fuel:compute_litres_per_hundred_km",
  intent: "compute average fuel consumption in litres per hundred kilometres from a trip log",
  code: fuelCode("(litres / km) * 100"),
  expect: (a) => {
    const t = tripTotals(a);
    return round2((t.litres / t.km) * 100);
  },
  asks: [
    {
      say: "compute the average fuel consumption of car/trips.csv in litres per hundred kilometres",
      args: { path: "car/trips.csv" },
      files: {
        "car/trips.csv": csv("date,km,litres", [
          ["2026-11-02", 312.4, 21.9],
          ["2026-11-09", 128, 9.6],
          ["2026-11-16", 455.7, 30.2],
        ]),
      },
    },
    {
      say: "what's the van's fuel use in l/100km? log is fleet/van-2.csv",
      args: { path: "fleet/van-2.csv" },
      files: {
        "fleet/van-2.csv": csv("date,km,litres", [
          ["2026-10-01", 88.5, 9.1],
          ["2026-10-03", 240, 23.7],
          ["2026-10-08", 61.2, 7.4],
          ["2026-10-12", 190.8, 18.9],
        ]),
      },
    },
    {
      say: "how thirsty is the Golf, L/100km? numbers are in garage/golf-2026.csv",
      args: { path: "garage/golf-2026.csv" },
      files: {
        "garage/golf-2026.csv": csv("date,km,litres", [
          ["2026-09-05", 540.3, 33.8],
          ["2026-09-19", 97.6, 7.2],
        ]),
      },
    },
  ],
};

const MILES_PER_GALLON: ReuseTask = {
  name: "fuel:compute_miles_per_gallon",
  intent: "compute average fuel economy in miles per US gallon from a trip log",
  code: fuelCode("(km / 1.609344) / (litres / 3.785411784)"),
  expect: (a) => {
    const t = tripTotals(a);
    return round2(t.km / 1.609344 / (t.litres / 3.785411784));
  },
  asks: [
    {
      say: "compute the average fuel economy of car/log.csv in miles per US gallon",
      args: { path: "car/log.csv" },
      files: {
        "car/log.csv": csv("date,km,litres", [
          ["2026-08-03", 402.5, 28.4],
          ["2026-08-10", 215.3, 15.9],
          ["2026-08-24", 77.8, 6.1],
        ]),
      },
    },
    {
      say: "mpg for rental/roadtrip.csv? us gallons and miles please",
      args: { path: "rental/roadtrip.csv" },
      files: {
        "rental/roadtrip.csv": csv("date,km,litres", [
          ["2026-07-14", 612.9, 41.3],
          ["2026-07-15", 388.1, 27],
          ["2026-07-17", 701.4, 49.8],
        ]),
      },
    },
    {
      say: "american buddy wants the MPG figure for bikes/moto.csv",
      args: { path: "bikes/moto.csv" },
      files: {
        "bikes/moto.csv": csv("date,km,litres", [
          ["2026-06-01", 180.2, 7.9],
          ["2026-06-08", 233.6, 10.4],
          ["2026-06-22", 95, 4.6],
        ]),
      },
    },
  ],
};

// ---- invoice total before vs with tax ----

const invoiceCode = (line: string) => String.raw`const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\n").map((l) => l.split(","));
const q = head.indexOf("qty");
const p = head.indexOf("unit_price");
const v = head.indexOf("vat_pct");
let total = 0;
for (const r of rows) total += ${line};
return Math.round(total * 100) / 100;`;
const invoiceTotal = (a: Ask, withTax: boolean) => round2(rows(a).reduce((s, r) => s + Number(r.qty) * Number(r.unit_price) * (withTax ? 1 + Number(r.vat_pct) / 100 : 1), 0));

const TOTAL_BEFORE_TAX: ReuseTask = {
  name: "invoice:total_before_tax",
  intent: "total an invoice's lines before tax: quantity times unit price, VAT left out",
  code: invoiceCode("Number(r[q]) * Number(r[p])"),
  expect: (a) => invoiceTotal(a, false),
  asks: [
    {
      say: "total the lines of invoices/inv-1042.csv before tax",
      args: { path: "invoices/inv-1042.csv" },
      files: {
        "invoices/inv-1042.csv": csv("item,qty,unit_price,vat_pct", [
          ["desk lamp", 2, 34.9, 20],
          ["paper A4 box", 5, 21.5, 20],
          ["coffee beans 1kg", 3, 18.4, 5.5],
        ]),
      },
    },
    {
      say: "sum qty x price over billing/march.csv, no VAT please",
      args: { path: "billing/march.csv" },
      files: {
        "billing/march.csv": csv("item,qty,unit_price,vat_pct", [
          ["consulting hour", 12, 95, 20],
          ["travel flat fee", 1, 140, 20],
          ["printed manual", 4, 12.75, 5.5],
        ]),
      },
    },
    {
      say: "netto sum for orders/po-77.csv ? without the government's cut",
      args: { path: "orders/po-77.csv" },
      files: {
        "orders/po-77.csv": csv("item,qty,unit_price,vat_pct", [
          ["hdmi cable", 10, 6.3, 19],
          ["usb hub", 4, 22.9, 19],
          ["cookbook", 2, 29.5, 7],
          ["monitor arm", 1, 89, 19],
        ]),
      },
    },
  ],
};

const TOTAL_WITH_TAX: ReuseTask = {
  name: "invoice:total_with_tax",
  intent: "total an invoice's lines with tax: quantity times unit price plus each line's VAT rate",
  code: invoiceCode("Number(r[q]) * Number(r[p]) * (1 + Number(r[v]) / 100)"),
  expect: (a) => invoiceTotal(a, true),
  asks: [
    {
      say: "total the lines of invoices/inv-2087.csv with tax",
      args: { path: "invoices/inv-2087.csv" },
      files: {
        "invoices/inv-2087.csv": csv("item,qty,unit_price,vat_pct", [
          ["office chair", 2, 149, 20],
          ["whiteboard markers", 6, 3.2, 20],
          ["tea sampler", 1, 24, 5.5],
        ]),
      },
    },
    {
      say: "grand total incl. VAT for bills/shop-may.csv",
      args: { path: "bills/shop-may.csv" },
      files: {
        "bills/shop-may.csv": csv("item,qty,unit_price,vat_pct", [
          ["running shoes", 1, 120, 21],
          ["socks 3-pack", 2, 12.5, 21],
          ["energy gels", 8, 2.1, 9],
        ]),
      },
    },
    {
      say: "how much does the customer actually pay for quotes/q-19.csv, levies included?",
      args: { path: "quotes/q-19.csv" },
      files: {
        "quotes/q-19.csv": csv("item,qty,unit_price,vat_pct", [
          ["garden hose 25m", 1, 39.9, 10],
          ["seed packets", 12, 1.8, 10],
          ["compost 40l", 3, 8.6, 10],
        ]),
      },
    },
  ],
};

// ---- JSON Lines vs a pretty JSON array ----

const jsonLines = (a: Ask) =>
  rows(a)
    .map((r) => `${JSON.stringify(r)}\n`)
    .join("");
const jsonArray = (a: Ask) => `${JSON.stringify(rows(a), null, 2)}\n`;
const tableCode = (content: string) => String.raw`const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\n").map((l) => l.split(","));
const objs = rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
const content = ${content};
await mcp.filesystem.write_file({ path: args.out, content });
return content;`;

const WRITE_JSON_LINES: ReuseTask = {
  name: "table:write_csv_as_json_lines",
  intent: "convert a comma-separated table to JSON Lines, one object per row, and write it to another file",
  code: tableCode('objs.map((o) => JSON.stringify(o)).join("\\n") + "\\n"'),
  expect: (a) => jsonLines(a),
  leaves: (a) => ({ [a.args.out as string]: jsonLines(a) }),
  asks: [
    {
      say: "convert exports/users.csv to JSON Lines, one object per row, and write it to exports/users.jsonl",
      args: { path: "exports/users.csv", out: "exports/users.jsonl" },
      files: {
        "exports/users.csv": csv("id,name,role", [
          [1, "Ana", "admin"],
          [2, "Bo", "editor"],
          [3, "Chen", "viewer"],
        ]),
      },
    },
    {
      say: "ndjson of data/orders.csv into data/orders.ndjson please, a json per line",
      args: { path: "data/orders.csv", out: "data/orders.ndjson" },
      files: {
        "data/orders.csv": csv("order,sku,qty", [
          ["A-100", "TEA-01", 2],
          ["A-101", "MUG-07", 1],
        ]),
      },
    },
    {
      say: "crm/leads.csv to crm/leads.ndjson please, the ingest job wants ndjson",
      args: { path: "crm/leads.csv", out: "crm/leads.ndjson" },
      files: {
        "crm/leads.csv": csv("email,source,score", [
          ["kim@example.org", "webinar", 72],
          ["raj@example.net", "ads", 41],
          ["lea@example.com", "referral", 88],
          ["tom@example.io", "ads", 15],
        ]),
      },
    },
  ],
};

const WRITE_JSON_ARRAY: ReuseTask = {
  name: "table:write_csv_as_json_array",
  intent: "convert a comma-separated table to a pretty-printed JSON array of row objects and write it to another file",
  code: tableCode('JSON.stringify(objs, null, 2) + "\\n"'),
  expect: (a) => jsonArray(a),
  leaves: (a) => ({ [a.args.out as string]: jsonArray(a) }),
  asks: [
    {
      say: "convert hr/staff.csv to a pretty-printed JSON array of row objects and write it to hr/staff.json",
      args: { path: "hr/staff.csv", out: "hr/staff.json" },
      files: {
        "hr/staff.csv": csv("name,team,start", [
          ["Ivy", "ops", "2024-03-01"],
          ["Max", "design", "2025-01-15"],
        ]),
      },
    },
    {
      say: "turn stock/items.csv into an indented array, saved as stock/items.json",
      args: { path: "stock/items.csv", out: "stock/items.json" },
      files: {
        "stock/items.csv": csv("sku,label,qty", [
          ["P-1", "pen", 120],
          ["N-4", "notebook", 35],
          ["S-9", "stapler", 8],
        ]),
      },
    },
    {
      say: "seed for the mock server: fixtures/cities.csv into mock/cities.seed, as [ {...}, {...} ] with 2-space indent",
      args: { path: "fixtures/cities.csv", out: "mock/cities.seed" },
      files: {
        "fixtures/cities.csv": csv("city,country,population", [
          ["Lyon", "FR", 522000],
          ["Porto", "PT", 232000],
          ["Graz", "AT", 295000],
        ]),
      },
    },
  ],
};

// ---- Host aliases vs HostName targets ----

const sshEntries = (a: Ask, key: string) =>
  input(a)
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((p) => p[0]!.toLowerCase() === key)
    .flatMap((p) => p.slice(1))
    .filter((v) => !v.includes("*") && !v.includes("?"));

const HOST_ALIASES: ReuseTask = {
  name: "ssh:list_host_aliases",
  intent: "list the Host aliases an SSH client config defines",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const line of t.split("\n")) {
  const m = line.trim().match(/^Host\s+(.+)$/i);
  if (m) for (const a of m[1].trim().split(/\s+/)) if (!/[*?]/.test(a)) out.push(a);
}
return out;`,
  expect: (a) => sshEntries(a, "host"),
  asks: [
    {
      say: "list the Host aliases that dotfiles/ssh_config defines",
      args: { path: "dotfiles/ssh_config" },
      files: {
        "dotfiles/ssh_config": lines(
          "Host web1",
          "  HostName 10.0.0.5",
          "  User deploy",
          "",
          "Host bastion jump",
          "  HostName bastion.example.com",
          "  Port 2222",
          "",
          "Host *",
          "  ServerAliveInterval 30",
        ),
      },
    },
    {
      say: "what aliases can i ssh into from infra/ssh.conf?",
      args: { path: "infra/ssh.conf" },
      files: {
        "infra/ssh.conf": lines(
          "Host db-primary",
          "  HostName db1.internal.acme.io",
          "  User postgres",
          "Host db-replica",
          "  HostName db2.internal.acme.io",
          "  User postgres",
          "Host *.internal.acme.io",
          "  ProxyJump bastion",
        ),
      },
    },
    {
      say: "nicknames I can type at the prompt from laptop/remotes.txt? skip the wildcard patterns",
      args: { path: "laptop/remotes.txt" },
      files: {
        "laptop/remotes.txt": lines(
          "Host pi",
          "    HostName 192.168.1.40",
          "    User pi",
          "Host nas storage",
          "    HostName 192.168.1.12",
          "Host gh",
          "    HostName github.com",
          "    User git",
          "Host 192.168.1.*",
          "    StrictHostKeyChecking no",
        ),
      },
    },
  ],
};

const HOSTNAME_TARGETS: ReuseTask = {
  name: "ssh:list_hostname_targets",
  intent: "list the HostName targets an SSH client config connects to",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const line of t.split("\n")) {
  const m = line.trim().match(/^HostName\s+(\S+)/i);
  if (m) out.push(m[1]);
}
return out;`,
  expect: (a) => sshEntries(a, "hostname"),
  asks: [
    {
      say: "list the HostName targets that ops/ssh_config connects to",
      args: { path: "ops/ssh_config" },
      files: {
        "ops/ssh_config": lines(
          "Host build",
          "  HostName ci.example.net",
          "  User runner",
          "",
          "Host staging stg",
          "  HostName 203.0.113.17",
          "",
          "Host *",
          "  IdentitiesOnly yes",
        ),
      },
    },
    {
      say: "real hostnames behind the entires of team/ssh-config.txt?",
      args: { path: "team/ssh-config.txt" },
      files: {
        "team/ssh-config.txt": lines(
          "Host grafana",
          "  HostName metrics.corp.example",
          "  LocalForward 3000 localhost:3000",
          "Host kafka1",
          "  HostName 10.42.0.11",
          "Host kafka2",
          "  HostName 10.42.0.12",
        ),
      },
    },
    {
      say: "in admin/jump.txt, which actual machines (IPs or DNS names) do the entries point at?",
      args: { path: "admin/jump.txt" },
      files: {
        "admin/jump.txt": lines("Host edge", "    HostName edge-01.example.org", "    Port 2200", "Host vault", "    HostName 172.20.3.9", "    ProxyJump edge"),
      },
    },
  ],
};

// ---- on-screen seconds summed vs first-to-last span of subtitles ----

const srt = (cues: [string, string, string][]) => cues.map(([from, to, text], i) => lines(String(i + 1), `00:${from} --> 00:${to}`, text, "")).join("");
const cueTimes = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.includes(" --> "))
    .map((l) =>
      l.split(" --> ").map((s) => {
        const [h, m, sec, ms] = s.trim().split(/[:,]/).map(Number);
        return ((h! * 60 + m!) * 60 + sec!) * 1000 + ms!;
      }),
    ) as [number, number][];
const subsCode = (result: string) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const sec = (s) => {
  const [h, m, rest] = s.trim().split(":");
  const [x, ms] = rest.split(",");
  return Number(h) * 3600 + Number(m) * 60 + Number(x) + Number(ms) / 1000;
};
const cues = t.split("\n").filter((l) => l.includes("-->")).map((l) => l.split("-->").map(sec));
return Math.round((${result}) * 1000) / 1000;`;

const SUM_CUE_SECONDS: ReuseTask = {
  name: "subs:sum_cue_seconds",
  intent: "add up how long each subtitle cue of an SRT file stays on screen, in seconds",
  code: subsCode("cues.reduce((s, c) => s + c[1] - c[0], 0)"),
  expect: (a) => cueTimes(a).reduce((s, [from, to]) => s + to - from, 0) / 1000,
  asks: [
    {
      say: "add up how long each subtitle cue of movies/heist.srt stays on screen, in seconds",
      args: { path: "movies/heist.srt" },
      files: {
        "movies/heist.srt": srt([
          ["00:01,000", "00:03,500", "Where's the money?"],
          ["00:04,200", "00:06,000", "Safe. For now."],
          ["00:10,750", "00:13,250", "Then we move tonight."],
        ]),
      },
    },
    {
      say: "total subtitle display time for tv/ep01.en.srt?",
      args: { path: "tv/ep01.en.srt" },
      files: {
        "tv/ep01.en.srt": srt([
          ["00:02,000", "00:05,000", "Previously..."],
          ["00:20,500", "00:22,000", "Who's there?"],
          ["00:22,400", "00:25,900", "Open the door, it's me."],
          ["01:02,000", "01:04,250", "[door creaks]"],
        ]),
      },
    },
    {
      say: "captions/talk_en.txt: total time text is visible, gaps not counted",
      args: { path: "captions/talk_en.txt" },
      files: {
        "captions/talk_en.txt": srt([
          ["00:00,500", "00:04,000", "Good morning, everyone."],
          ["00:06,000", "00:09,750", "Today: three ideas about caching."],
          ["00:15,000", "00:18,000", "First, measure."],
        ]),
      },
    },
  ],
};

const CUE_SPAN_SECONDS: ReuseTask = {
  name: "subs:measure_cue_span_seconds",
  intent: "measure the seconds from the first subtitle cue's start to the last cue's end in an SRT file",
  code: subsCode("cues[cues.length - 1][1] - cues[0][0]"),
  expect: (a) => {
    const c = cueTimes(a);
    return (c[c.length - 1]![1] - c[0]![0]) / 1000;
  },
  asks: [
    {
      say: "measure the seconds from the first subtitle cue's start to the last cue's end in movies/docu.srt",
      args: { path: "movies/docu.srt" },
      files: {
        "movies/docu.srt": srt([
          ["00:03,000", "00:07,500", "The river begins in the mountains."],
          ["00:09,000", "00:12,000", "Every spring, the snow melts."],
          ["00:20,250", "00:24,750", "And the valley floods."],
        ]),
      },
    },
    {
      say: "how long from the first line appearing to the last one vanishing in clips/trailer.srt, seconds?",
      args: { path: "clips/trailer.srt" },
      files: {
        "clips/trailer.srt": srt([
          ["00:01,500", "00:03,000", "This summer..."],
          ["00:08,000", "00:10,500", "one man..."],
          ["00:14,000", "00:15,250", "...has a plan."],
        ]),
      },
    },
    {
      say: "opening caption in, closing caption out: elapsed time? captions/keynote_fr.txt",
      args: { path: "captions/keynote_fr.txt" },
      files: {
        "captions/keynote_fr.txt": srt([
          ["00:05,000", "00:08,000", "Bonjour à tous."],
          ["00:30,000", "00:33,500", "Merci d'être venus."],
          ["00:40,000", "00:41,000", "Commençons."],
          ["01:10,000", "01:12,500", "Questions ?"],
        ]),
      },
    },
  ],
};

// ---- single tasks ----

const DISALLOWED_PATHS: ReuseTask = {
  name: "robots:list_disallowed_paths",
  intent: "list the paths a site's crawler rules forbid for all user agents (the * group)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let agents = [];
let inRules = false;
const out = [];
for (const raw of t.split("\n")) {
  const line = raw.replace(/#.*/, "").trim();
  if (!line) continue;
  const i = line.indexOf(":");
  const key = line.slice(0, i).trim().toLowerCase();
  const val = line.slice(i + 1).trim();
  if (key === "user-agent") {
    if (inRules) {
      agents = [];
      inRules = false;
    }
    agents.push(val);
  } else {
    inRules = true;
    if (key === "disallow" && val && agents.includes("*")) out.push(val);
  }
}
return out;`,
  expect: (a) => {
    const groups: { agents: string[]; disallow: string[] }[] = [];
    let open = false;
    for (const l of input(a).split("\n")) {
      const m = /^\s*([A-Za-z-]+)\s*:\s*([^#]*)/.exec(l);
      if (!m) continue;
      const [key, val] = [m[1]!.toLowerCase(), m[2]!.trim()];
      if (key === "user-agent") {
        if (!open) groups.push({ agents: [], disallow: [] });
        open = true;
        groups.at(-1)!.agents.push(val);
      } else {
        open = false;
        if (key === "disallow" && val !== "" && groups.length > 0) groups.at(-1)!.disallow.push(val);
      }
    }
    return groups.filter((g) => g.agents.includes("*")).flatMap((g) => g.disallow);
  },
  asks: [
    {
      say: "list the paths that public/robots.txt forbids for all user agents",
      args: { path: "public/robots.txt" },
      files: {
        "public/robots.txt": lines(
          "# crawl rules",
          "User-agent: Googlebot",
          "Disallow: /search",
          "",
          "User-agent: *",
          "Disallow: /admin/",
          "Disallow: /cart",
          "Allow: /cart/help",
          "",
          "Sitemap: https://example.com/sitemap.xml",
        ),
      },
    },
    {
      say: "blocked paths for * in blog/robots.txt?",
      args: { path: "blog/robots.txt" },
      files: {
        "blog/robots.txt": lines("User-agent: *", "Disallow: /drafts/", "Disallow: /wp-admin/ # backend", "", "User-agent: GPTBot", "User-agent: CCBot", "Disallow: /"),
      },
    },
    {
      say: "which urls are off-limits to any bot according to shop/robots.txt",
      args: { path: "shop/robots.txt" },
      files: {
        "shop/robots.txt": lines(
          "User-agent: Bingbot",
          "User-agent: *",
          "Disallow: /checkout",
          "Disallow: /account/",
          "Disallow:",
          "",
          "User-agent: AhrefsBot",
          "Disallow: /",
          "",
          "User-agent: *",
          "Disallow: /tmp/",
        ),
      },
    },
  ],
};

const IBAN_CHECK: ReuseTask = {
  name: "iban:validate_iban_checksum",
  intent: "check whether an IBAN's mod-97 check digits are valid",
  code: String.raw`const s = String(args.iban).replace(/\s+/g, "").toUpperCase();
const moved = s.slice(4) + s.slice(0, 4);
let rem = 0;
for (const ch of moved) {
  const d = ch >= "A" && ch <= "Z" ? String(ch.charCodeAt(0) - 55) : ch;
  for (const x of d) rem = (rem * 10 + Number(x)) % 97;
}
return /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(s) && rem === 1;`,
  expect: (a) => {
    const s = String(a.args.iban).replace(/ /g, "").toUpperCase();
    const digits = (s.slice(4) + s.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
    return BigInt(digits) % 97n === 1n;
  },
  asks: [
    { say: "check whether the IBAN GB82 WEST 1234 5698 7654 32 has valid check digits", args: { iban: "GB82 WEST 1234 5698 7654 32" } },
    { say: "is DE89 3704 0044 0532 0130 01 a real iban or did they make a typo?", args: { iban: "DE89 3704 0044 0532 0130 01" } },
    { say: "client sent NL91ABNA0417164300 for the wire, is that account number legit?", args: { iban: "NL91ABNA0417164300" } },
  ],
};

const MAKE_TARGETS: ReuseTask = {
  name: "make:list_target_names",
  intent: "list the target names declared in a Makefile",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const line of t.split("\n")) {
  const m = line.match(/^([A-Za-z0-9_][A-Za-z0-9_./-]*)\s*:(?!=)/);
  if (m && !out.includes(m[1])) out.push(m[1]);
}
return out;`,
  expect: (a) => {
    const names: string[] = [];
    for (const l of input(a).split("\n")) {
      if (l.startsWith("\t") || l.startsWith("#") || l.startsWith(".")) continue;
      const i = l.indexOf(":");
      if (i <= 0 || l[i + 1] === "=" || l.slice(0, i).includes("=")) continue;
      const name = l.slice(0, i).trim();
      if (!names.includes(name)) names.push(name);
    }
    return names;
  },
  asks: [
    {
      say: "list the target names declared in api/Makefile",
      args: { path: "api/Makefile" },
      files: {
        "api/Makefile": lines(
          "GO ?= go",
          "BIN := bin/api",
          "",
          ".PHONY: build test lint",
          "",
          "build:",
          "\t$(GO) build -o $(BIN) ./cmd/api",
          "",
          "test: build",
          "\t$(GO) test ./...",
          "",
          "lint:",
          "\tgolangci-lint run",
        ),
      },
    },
    {
      say: "what targets can I run with make in web/Makefile?",
      args: { path: "web/Makefile" },
      files: {
        "web/Makefile": lines(
          "NODE_ENV := production",
          ".PHONY: all dev dist clean",
          "all: dist",
          "dev:",
          "\tnpx vite",
          "dist: node_modules",
          "\tnpx vite build",
          "node_modules: package.json",
          "\tnpm ci",
          "clean:",
          "\trm -rf dist node_modules",
        ),
      },
    },
    {
      say: "which goals does tools/GNUmakefile offer? skip .PHONY and the variables",
      args: { path: "tools/GNUmakefile" },
      files: {
        "tools/GNUmakefile": lines(
          "# dev scripts",
          "PREFIX = /usr/local",
          "CFLAGS += -O2",
          "install: fmt",
          "\tinstall -m 755 tool $(PREFIX)/bin/tool",
          ".PHONY: install fmt",
          "fmt:",
          "\tclang-format -i *.c",
          "tool: tool.c",
          "\t$(CC) $(CFLAGS) -o tool tool.c",
        ),
      },
    },
  ],
};

const scaled = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => {
      const m = /^[0-9.]+/.exec(l);
      return m ? String(round2(Number(m[0]) * Number(a.args.factor))) + l.slice(m[0].length) : l;
    })
    .join("\n");

const SCALE_RECIPE: ReuseTask = {
  name: "recipe:write_scaled_copy",
  intent: "scale the ingredient amounts of a recipe by a factor and write the result to another file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const f = Number(args.factor);
const content = t.split("\n").map((l) => l.replace(/^(\d+(?:\.\d+)?)/, (n) => String(Math.round(Number(n) * f * 100) / 100))).join("\n");
await mcp.filesystem.write_file({ path: args.out, content });
return content;`,
  expect: (a) => scaled(a),
  leaves: (a) => ({ [a.args.out as string]: scaled(a) }),
  asks: [
    {
      say: "scale the ingredient amounts of recipes/pancakes.txt by 2 and write it to recipes/pancakes-x2.txt",
      args: { path: "recipes/pancakes.txt", factor: 2, out: "recipes/pancakes-x2.txt" },
      files: { "recipes/pancakes.txt": lines("250 g flour", "2 eggs", "500 ml milk", "0.5 tsp salt", "butter for the pan") },
    },
    {
      say: "halve the recipe in kitchen/bread.txt, put it in kitchen/bread-half.txt",
      args: { path: "kitchen/bread.txt", factor: 0.5, out: "kitchen/bread-half.txt" },
      files: { "kitchen/bread.txt": lines("1000 g bread flour", "700 ml water", "20 g salt", "3 g dry yeast", "a handful of seeds") },
    },
    {
      say: "cooking for 9 instead of 6: multiply everything in meals/chili.md by 1.5, save as meals/chili-9.md",
      args: { path: "meals/chili.md", factor: 1.5, out: "meals/chili-9.md" },
      files: { "meals/chili.md": lines("500 g minced beef", "2 onions", "1 can kidney beans", "1.5 tsp cumin", "chili flakes to taste") },
    },
  ],
};

export const BLIND_21_TASKS: ReuseTask[] = [
  CHORDS_UP,
  CHORDS_DOWN,
  FIRST_USABLE,
  LAST_USABLE,
  COUNT_FAILED,
  LIST_FAILED,
  LITRES_PER_100KM,
  MILES_PER_GALLON,
  TOTAL_BEFORE_TAX,
  TOTAL_WITH_TAX,
  WRITE_JSON_LINES,
  WRITE_JSON_ARRAY,
  HOST_ALIASES,
  HOSTNAME_TARGETS,
  SUM_CUE_SECONDS,
  CUE_SPAN_SECONDS,
  DISALLOWED_PATHS,
  IBAN_CHECK,
  MAKE_TARGETS,
  SCALE_RECIPE,
];
