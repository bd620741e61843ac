// The 24th blind reuse stream (`--tasks blind24`), written blind on 2026-12-08 by someone who saw
// only the format (bench/reuse-tasks.ts's types, shared functions and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60
// requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names
// and kinds (a grid's row vs column sums, colon vs dotted MAC form, weekend vs weekday dates, count
// vs list of merge-conflict blocks, an nginx config's server names vs its listen ports, units on hand
// vs stock value, running pace per km vs per mile, first departure after vs last before a time) and
// 4 single tasks. The repeats are worded as different users on different days would ask (terse,
// chatty, a file name, jargon, typos, a non-native speaker); one repeat of each task shares a
// content word with its intent, the other shares none.
import { type Ask, csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const nonBlank = (a: Ask) =>
  input(a)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");

// --- a grid's row sums vs its column sums ---
const grid = (a: Ask) => nonBlank(a).map((l) => l.split(/\s+/).map(Number));
const add = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

const GRID_ROWS: ReuseTask = {
  name: "numgrid:total_each_row",
  intent: "sum the numbers on each row of a whitespace-separated number grid",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").map((l) => l.trim().split(/\s+/).reduce((s, x) => s + Number(x), 0));`,
  expect: (a) => grid(a).map(add),
  asks: [
    { say: "sum the numbers on each row of data/scores.grid", args: { path: "data/scores.grid" }, files: { "data/scores.grid": lines("3 7 2 9", "10 0 4 1", "5 5 5 5") } },
    { say: "row totals for q3/matrix.txt", args: { path: "q3/matrix.txt" }, files: { "q3/matrix.txt": lines("12 8 -3", "4 4 4", "0 15 2", "7 1 9") } },
    {
      say: "hey, in tables/sheet.dat every line is a bunch of figures split by spaces; what does every line add up to, top to bottom?",
      args: { path: "tables/sheet.dat" },
      files: { "tables/sheet.dat": lines("100  250 75", "30 30 30", "  8 12 400") },
    },
  ],
};

const GRID_COLUMNS: ReuseTask = {
  name: "numgrid:total_each_column",
  intent: "sum the numbers in each column of a whitespace-separated number grid",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.split("\n").filter((l) => l.trim() !== "").map((l) => l.trim().split(/\s+/).map(Number));
return rows[0].map((_, j) => rows.reduce((s, r) => s + r[j], 0));`,
  expect: (a) => {
    const g = grid(a);
    const out: number[] = [];
    for (let j = 0; j < g[0]!.length; j++) out.push(add(g.map((r) => r[j]!)));
    return out;
  },
  asks: [
    { say: "sum the numbers in each column of data/budget.grid", args: { path: "data/budget.grid" }, files: { "data/budget.grid": lines("40 15 60", "25 35 10") } },
    {
      say: "column totalz of lab/readings.txt pls",
      args: { path: "lab/readings.txt" },
      files: { "lab/readings.txt": lines("1 2 3 4 5", "6 7 8 9 10", "11 12 13 14 15") },
    },
    {
      say: "I am needing the vertical totals of stats/tbl.dat, adding from top to bottom, one result per position, left to right",
      args: { path: "stats/tbl.dat" },
      files: { "stats/tbl.dat": lines("9 -4", "3 8", "-2 6", "10 0") },
    },
  ],
};

// --- MAC addresses: colon pairs vs Cisco dotted groups ---
const hexOf = (l: string) => l.replace(/[^0-9a-fA-F]/g, "").toLowerCase();
const chunks = (s: string, n: number) => {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
};

const MAC_COLON: ReuseTask = {
  name: "mac:normalize_colon_form",
  intent: "rewrite the MAC addresses in a file as lowercase colon-separated pairs (aa:bb:cc:dd:ee:ff)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").map((l) => l.replace(/[^0-9a-fA-F]/g, "").toLowerCase().match(/../g).join(":"));`,
  expect: (a) => nonBlank(a).map((l) => chunks(hexOf(l), 2).join(":")),
  asks: [
    {
      say: "rewrite the MAC addresses in inventory/macs.txt as lowercase colon-separated pairs",
      args: { path: "inventory/macs.txt" },
      files: { "inventory/macs.txt": lines("00-1A-2B-3C-4D-5E", "AABB.CCDD.EEFF", "3c22fb01a9d0") },
    },
    {
      say: "mac list in lab/switch1.txt -> xx:xx:xx:xx:xx:xx form",
      args: { path: "lab/switch1.txt" },
      files: { "lab/switch1.txt": lines("F0:9F:C2:11:22:33", "f09f.c211.2244", "", "F0-9F-C2-11-22-55") },
    },
    {
      say: "net/leases.txt: the NIC hardware ids in there are a mess, make them look like 3c:22:fb:01:a9:d0",
      args: { path: "net/leases.txt" },
      files: { "net/leases.txt": lines("B8-27-EB-45-67-89", "dca6.32ab.cdef", "7C:2E:0D:AA:BB:01", "001122334455") },
    },
  ],
};

const MAC_DOTTED: ReuseTask = {
  name: "mac:normalize_dotted_form",
  intent: "rewrite the MAC addresses in a file in Cisco dotted form (aabb.ccdd.eeff), lowercase",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.trim() !== "").map((l) => l.replace(/[^0-9a-fA-F]/g, "").toLowerCase().match(/..../g).join("."));`,
  expect: (a) => nonBlank(a).map((l) => chunks(hexOf(l), 4).join(".")),
  asks: [
    {
      say: "rewrite the MAC addresses in wiring/ap-list.txt in Cisco dotted form, lowercase",
      args: { path: "wiring/ap-list.txt" },
      files: { "wiring/ap-list.txt": lines("A4:83:E7:12:34:56", "a4-83-e7-65-43-21") },
    },
    {
      say: "cisco format for the macs in dc/rack7.txt",
      args: { path: "dc/rack7.txt" },
      files: { "dc/rack7.txt": lines("00:50:56:C0:00:08", "0050.56c0.0001", "00-50-56-C0-00-02") },
    },
    {
      say: "switch config wants the ethernet hw ids from inv/ports.txt as xxxx.xxxx.xxxx, can u convert",
      args: { path: "inv/ports.txt" },
      files: { "inv/ports.txt": lines("ac:de:48:00:11:22", "ACDE48001133") },
    },
  ],
};

// --- dates on a weekend vs on a weekday ---
/** Day of the week, 0 = Sunday (Sakamoto's method, apart from the canned code's Date). */
const dow = (iso: string) => {
  let [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const t = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
  if (m < 3) y -= 1;
  return (y + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400) + t[m - 1]! + d) % 7;
};
const weekend = (iso: string) => dow(iso) === 0 || dow(iso) === 6;

const WEEKEND_DATES: ReuseTask = {
  name: "dates:list_weekend_dates",
  intent: "list the dates in a file that fall on a Saturday or Sunday",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.trim()).filter((l) => l !== "").filter((s) => {
  const [y, m, d] = s.split("-").map(Number);
  const w = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return w === 0 || w === 6;
});`,
  expect: (a) => nonBlank(a).filter(weekend),
  asks: [
    {
      say: "list the dates in plans/trips.txt that fall on a Saturday or Sunday",
      args: { path: "plans/trips.txt" },
      files: { "plans/trips.txt": lines("2027-01-02", "2027-01-04", "2027-01-09", "2027-01-13", "2027-01-17") },
    },
    {
      say: "weekend dates in cal/2027.txt?",
      args: { path: "cal/2027.txt" },
      files: { "cal/2027.txt": lines("2027-02-05", "2027-02-06", "2027-03-01", "2027-03-14", "2027-03-19", "2027-04-10") },
    },
    {
      say: "rota/oncall.txt - which of those days are on the weekend? asking for the overtime sheet",
      args: { path: "rota/oncall.txt" },
      files: { "rota/oncall.txt": lines("2027-05-03", "2027-05-08", "2027-05-30", "2027-06-01", "2027-06-05", "2027-06-11") },
    },
  ],
};

const WEEKDAY_DATES: ReuseTask = {
  name: "dates:list_weekday_dates",
  intent: "list the dates in a file that fall on a weekday (Monday to Friday)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").map((l) => l.trim()).filter((l) => l !== "").filter((s) => {
  const [y, m, d] = s.split("-").map(Number);
  const w = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return w >= 1 && w <= 5;
});`,
  expect: (a) => nonBlank(a).filter((d) => !weekend(d)),
  asks: [
    {
      say: "list the dates in visits/may.txt that fall on a weekday",
      args: { path: "visits/may.txt" },
      files: { "visits/may.txt": lines("2027-06-20", "2027-07-04", "2027-07-07", "2027-08-14", "2027-08-16") },
    },
    {
      say: "weekday ones only from shifts/june.txt",
      args: { path: "shifts/june.txt" },
      files: { "shifts/june.txt": lines("2027-09-26", "2027-10-01", "2027-10-09", "2027-11-11", "2027-11-13") },
    },
    {
      say: "Mon–Fri ones out of clinic/slots.txt please, the working days",
      args: { path: "clinic/slots.txt" },
      files: { "clinic/slots.txt": lines("2027-12-25", "2027-12-27", "2028-02-29", "2028-03-04", "2027-01-13") },
    },
  ],
};

// --- merge-conflict blocks: how many vs where they start ---
const conflict = (...ours: string[]) => ["<<<<<<< HEAD", ...ours, "=======", "theirs();", ">>>>>>> feature"];
const startLines = (a: Ask) =>
  input(a)
    .split("\n")
    .flatMap((l, i) => (/^<{7}/.test(l) ? [i + 1] : []));

const COUNT_CONFLICTS: ReuseTask = {
  name: "merge:count_conflict_blocks",
  intent: "count the merge conflict blocks (<<<<<<< markers) in a file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
return t.split("\n").filter((l) => l.startsWith("<<<<<<<")).length;`,
  expect: (a) => startLines(a).length,
  asks: [
    {
      say: "count the merge conflict blocks in web/app.js",
      args: { path: "web/app.js" },
      files: { "web/app.js": lines("import x from './x.js';", ...conflict("ours();"), "run();", ...conflict("a();", "b();"), "done();") },
    },
    {
      say: "how many conflict markers are left in api/db.go",
      args: { path: "api/db.go" },
      files: { "api/db.go": lines("package db", "", ...conflict("var pool = 4"), "func Open() {}", ...conflict("// v2"), ...conflict("var x = 1"), "") },
    },
    {
      say: "after my rebase, how many unresolved hunks are still sitting in lib/util.py?",
      args: { path: "lib/util.py" },
      files: { "lib/util.py": lines("def f():", ...conflict("    return 1"), "", "def g():", "    return 2") },
    },
  ],
};

const CONFLICT_STARTS: ReuseTask = {
  name: "merge:list_conflict_start_lines",
  intent: "list the line numbers where merge conflict blocks start (<<<<<<< markers) in a file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
t.split("\n").forEach((l, i) => { if (l.startsWith("<<<<<<<")) out.push(i + 1); });
return out;`,
  expect: (a) => startLines(a),
  asks: [
    {
      say: "list the line numbers where merge conflict blocks start in core/cfg.rb",
      args: { path: "core/cfg.rb" },
      files: { "core/cfg.rb": lines("module Cfg", ...conflict("  A = 1"), "  B = 2", ...conflict("  C = 3"), "end") },
    },
    {
      say: "where do the conflicts begin in docs/guide.md? line nos",
      args: { path: "docs/guide.md" },
      files: { "docs/guide.md": lines("# Guide", "", "Intro text.", "", ...conflict("Install with npm."), "", "## Usage", ...conflict("Run it.")) },
    },
    {
      say: "at what row positions do the <<<<<<< appear in pkg/server.ts?",
      args: { path: "pkg/server.ts" },
      files: { "pkg/server.ts": lines(...conflict("const port = 80;"), "export {};", "", "", ...conflict("listen();"), ...conflict("close();")) },
    },
  ],
};

// --- an nginx config: its server names vs its listen ports ---
const serverNames = (a: Ask) =>
  nonBlank(a)
    .filter((l) => /^server_name\s/.test(l))
    .flatMap((l) =>
      l
        .replace(/^server_name\s+/, "")
        .replace(/;.*$/, "")
        .trim()
        .split(/\s+/),
    );
const listenPorts = (a: Ask) => {
  const ports = [...input(a).matchAll(/^\s*listen\s+(?:\S*:)?(\d+)/gm)].map((m) => Number(m[1]));
  return [...new Set(ports)].sort((x, y) => x - y);
};
const block = (names: string, ...listens: string[]) => ["server {", ...listens.map((l) => `    listen ${l};`), `    server_name ${names};`, "    root /srv/www;", "}"];

const SERVER_NAMES: ReuseTask = {
  name: "nginx:list_server_names",
  intent: "list the server_name hosts declared in an nginx config, in file order",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const raw of t.split("\n")) {
  const l = raw.trim();
  if (/^server_name\s/.test(l)) out.push(...l.replace(/^server_name\s+/, "").replace(/;.*$/, "").trim().split(/\s+/));
}
return out;`,
  expect: serverNames,
  asks: [
    {
      say: "list the server_name hosts declared in sites/shop.conf, in file order",
      args: { path: "sites/shop.conf" },
      files: { "sites/shop.conf": lines(...block("shop.example.com www.shop.example.com", "80", "[::]:80"), ...block("admin.shop.example.com", "443 ssl")) },
    },
    {
      say: "nginx vhosts in etc/default.conf?",
      args: { path: "etc/default.conf" },
      files: { "etc/default.conf": lines("# default", ...block("_", "80 default_server"), ...block("status.local", "127.0.0.1:8080")) },
    },
    {
      say: "what domains does proxy/edge.conf answer for? all of them, as written",
      args: { path: "proxy/edge.conf" },
      files: {
        "proxy/edge.conf": lines("upstream app { server 10.0.0.5:3000; }", ...block("api.acme.io", "443 ssl http2"), ...block("cdn.acme.io static.acme.io", "443 ssl", "8443 ssl")),
      },
    },
  ],
};

const LISTEN_PORTS: ReuseTask = {
  name: "nginx:list_listen_ports",
  intent: "list the distinct ports an nginx config listens on, ascending",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ports = new Set();
for (const raw of t.split("\n")) {
  const m = raw.trim().match(/^listen\s+(\S+)/);
  if (!m) continue;
  const p = m[1].replace(/;$/, "").match(/(\d+)$/);
  if (p) ports.add(Number(p[1]));
}
return [...ports].sort((a, b) => a - b);`,
  expect: listenPorts,
  asks: [
    {
      say: "list the distinct ports the nginx config deploy/nginx.conf listens on, ascending",
      args: { path: "deploy/nginx.conf" },
      files: { "deploy/nginx.conf": lines(...block("deploy.example.org", "443 ssl", "80"), ...block("hooks.example.org", "9000", "[::]:80")) },
    },
    {
      say: "ports in srv/api.conf",
      args: { path: "srv/api.conf" },
      files: { "srv/api.conf": lines(...block("api.internal", "127.0.0.1:8081", "8080 default_server"), ...block("metrics.internal", "9100")) },
    },
    {
      say: "on which socket numbers is gateway/main.conf waiting for connections? smallest first, no repeats",
      args: { path: "gateway/main.conf" },
      files: { "gateway/main.conf": lines(...block("gw.corp.net", "8443 ssl", "[::]:8443 ssl"), ...block("legacy.corp.net", "8000"), ...block("old.corp.net", "8000")) },
    },
  ],
};

// --- an inventory: units on hand vs what they are worth ---
const stockRows = (a: Ask) => {
  const [head, ...rows] = nonBlank(a).map((l) => l.split(","));
  const q = head!.indexOf("qty");
  const p = head!.indexOf("unit_price");
  return rows.map((r) => ({ qty: Number(r[q]), price: Number(r[p]) }));
};
const STOCK_HEAD = "sku,item,qty,unit_price";

const UNITS_ON_HAND: ReuseTask = {
  name: "stock:sum_units_on_hand",
  intent: "add up the quantity column of an inventory CSV (units on hand)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.trim().split("\n").map((l) => l.split(","));
const q = head.indexOf("qty");
return rows.reduce((s, r) => s + Number(r[q]), 0);`,
  expect: (a) => add(stockRows(a).map((r) => r.qty)),
  asks: [
    {
      say: "add up the quantity column of stock/jan.csv",
      args: { path: "stock/jan.csv" },
      files: {
        "stock/jan.csv": csv(STOCK_HEAD, [
          ["A-1", "bolts", 120, 0.15],
          ["A-2", "nuts", 300, 0.05],
          ["B-7", "hinges", 14, 3.2],
        ]),
      },
    },
    {
      say: "total units in depot/north.csv",
      args: { path: "depot/north.csv" },
      files: {
        "depot/north.csv": csv(STOCK_HEAD, [
          ["N-10", "pallet wrap", 6, 18.5],
          ["N-11", "tape", 48, 2.25],
        ]),
      },
    },
    {
      say: "warehouse/feb-export.txt — how many pieces are sitting on the shelves altogether?",
      args: { path: "warehouse/feb-export.txt" },
      files: {
        "warehouse/feb-export.txt": csv(STOCK_HEAD, [
          ["W-1", "mugs", 40, 4.5],
          ["W-2", "plates", 25, 6],
          ["W-3", "bowls", 0, 5.5],
          ["W-4", "jugs", 7, 12],
        ]),
      },
    },
  ],
};

const STOCK_VALUE: ReuseTask = {
  name: "stock:compute_inventory_value",
  intent: "total value of an inventory CSV: the sum of quantity times unit price",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.trim().split("\n").map((l) => l.split(","));
const q = head.indexOf("qty");
const p = head.indexOf("unit_price");
return Math.round(rows.reduce((s, r) => s + Number(r[q]) * Number(r[p]), 0) * 100) / 100;`,
  expect: (a) => round2(add(stockRows(a).map((r) => r.qty * r.price))),
  asks: [
    {
      say: "total value of the inventory in stock/q1.csv: sum of quantity times unit price",
      args: { path: "stock/q1.csv" },
      files: {
        "stock/q1.csv": csv(STOCK_HEAD, [
          ["C-1", "cables", 30, 4.99],
          ["C-2", "plugs", 12, 1.5],
        ]),
      },
    },
    {
      say: "stock value of depot/south.csv?",
      args: { path: "depot/south.csv" },
      files: {
        "depot/south.csv": csv(STOCK_HEAD, [
          ["S-1", "gloves", 200, 0.8],
          ["S-2", "masks", 150, 0.35],
          ["S-3", "boots", 9, 42],
        ]),
      },
    },
    {
      say: "what's everything in shop/march-export.txt worth, in euros?",
      args: { path: "shop/march-export.txt" },
      files: {
        "shop/march-export.txt": csv(STOCK_HEAD, [
          ["M-1", "notebooks", 64, 2.75],
          ["M-2", "pens", 500, 0.4],
          ["M-3", "folders", 33, 1.1],
        ]),
      },
    },
  ],
};

// --- a runs log: pace per kilometre vs per mile ---
const MILE_KM = 1.609344;
const runTotals = (a: Ask) => {
  const [head, ...rows] = nonBlank(a).map((l) => l.split(","));
  const k = head!.indexOf("km");
  const s = head!.indexOf("seconds");
  return { km: add(rows.map((r) => Number(r[k]))), secs: add(rows.map((r) => Number(r[s]))) };
};
const clock = (secs: number) => {
  const r = Math.round(secs);
  return `${Math.floor(r / 60)}:${r % 60 < 10 ? "0" : ""}${r % 60}`;
};
const RUN_HEAD = "date,km,seconds";
const paceCode = (perKm: string) => String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.trim().split("\n").map((l) => l.split(","));
const k = head.indexOf("km");
const s = head.indexOf("seconds");
let km = 0;
let secs = 0;
for (const r of rows) { km += Number(r[k]); secs += Number(r[s]); }
const p = Math.round(secs / ${perKm});
return Math.floor(p / 60) + ":" + String(p % 60).padStart(2, "0");`;

const PACE_KM: ReuseTask = {
  name: "run:compute_pace_per_km",
  intent: "average running pace in minutes per kilometre from a runs log (date,km,seconds)",
  code: paceCode("km"),
  expect: (a) => {
    const t = runTotals(a);
    return clock(t.secs / t.km);
  },
  asks: [
    {
      say: "average running pace in minutes per kilometre from runs/march.csv",
      args: { path: "runs/march.csv" },
      files: {
        "runs/march.csv": csv(RUN_HEAD, [
          ["2027-03-02", 5, 1620],
          ["2027-03-05", 8.2, 2710],
          ["2027-03-09", 10, 3380],
        ]),
      },
    },
    {
      say: "pace per km for logs/week12.csv?",
      args: { path: "logs/week12.csv" },
      files: {
        "logs/week12.csv": csv(RUN_HEAD, [
          ["2027-03-22", 6.5, 2100],
          ["2027-03-24", 12, 4020],
        ]),
      },
    },
    {
      say: "how quick was I overall in strava/jan.txt? min:ss for every 1000 m please",
      args: { path: "strava/jan.txt" },
      files: {
        "strava/jan.txt": csv(RUN_HEAD, [
          ["2027-01-03", 4, 1300],
          ["2027-01-10", 21.1, 7400],
          ["2027-01-17", 7, 2300],
        ]),
      },
    },
  ],
};

const PACE_MILE: ReuseTask = {
  name: "run:compute_pace_per_mile",
  intent: "average running pace in minutes per mile from a runs log (date,km,seconds)",
  code: paceCode("(km / 1.609344)"),
  expect: (a) => {
    const t = runTotals(a);
    return clock((t.secs * MILE_KM) / t.km);
  },
  asks: [
    {
      say: "average running pace in minutes per mile from runs/april.csv",
      args: { path: "runs/april.csv" },
      files: {
        "runs/april.csv": csv(RUN_HEAD, [
          ["2027-04-01", 5, 1500],
          ["2027-04-04", 15, 5100],
        ]),
      },
    },
    {
      say: "whats my mile split in training/may.csv",
      args: { path: "training/may.csv" },
      files: {
        "training/may.csv": csv(RUN_HEAD, [
          ["2027-05-02", 3.2, 1010],
          ["2027-05-06", 9.6, 3240],
          ["2027-05-11", 6, 1900],
        ]),
      },
    },
    {
      say: "US friend wants my tempo across garmin/june.txt for each statute mi, mm:ss",
      args: { path: "garmin/june.txt" },
      files: {
        "garmin/june.txt": csv(RUN_HEAD, [
          ["2027-06-01", 10, 2950],
          ["2027-06-08", 10, 3050],
        ]),
      },
    },
  ],
};

// --- a timetable: first departure after a time vs last one before it ---
const mins = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const departures = (a: Ask) =>
  nonBlank(a)
    .map((l) => l.split(/\s+/)[0]!)
    .filter((x) => /^\d\d:\d\d$/.test(x));
const after = (a: Ask) => {
  const at = mins(a.args.time as string);
  const later = departures(a).filter((x) => mins(x) > at);
  return later.length ? later.reduce((b, x) => (mins(x) < mins(b) ? x : b)) : null;
};
const before = (a: Ask) => {
  const at = mins(a.args.time as string);
  const earlier = departures(a).filter((x) => mins(x) < at);
  return earlier.length ? earlier.reduce((b, x) => (mins(x) > mins(b) ? x : b)) : null;
};

const FIRST_AFTER: ReuseTask = {
  name: "timetable:find_next_departure_after",
  intent: "find the first departure in a timetable file after a given time (HH:MM)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const times = t.split("\n").map((l) => l.trim().split(/\s+/)[0]).filter((x) => /^\d\d:\d\d$/.test(x)).sort();
return times.find((x) => x > args.time) ?? null;`,
  expect: after,
  asks: [
    {
      say: "find the first departure in bus/line4.txt after 08:15",
      args: { path: "bus/line4.txt", time: "08:15" },
      files: { "bus/line4.txt": lines("08:40 Central", "07:55 Central", "08:05 Airport", "09:10 Central", "08:25 Airport") },
    },
    {
      say: "next departure after 13:50 from ferry/harbour.txt?",
      args: { path: "ferry/harbour.txt", time: "13:50" },
      files: { "ferry/harbour.txt": lines("12:00 Isle", "13:30 Isle", "15:00 Isle", "14:15 Point", "16:45 Isle") },
    },
    {
      say: "I'm at the stop at 17:05, when does the next one leave according to tram/route9.txt?",
      args: { path: "tram/route9.txt", time: "17:05" },
      files: { "tram/route9.txt": lines("16:50 Depot", "17:20 Depot", "17:00 Depot", "17:12 Beach", "18:00 Depot") },
    },
  ],
};

const LAST_BEFORE: ReuseTask = {
  name: "timetable:find_last_departure_before",
  intent: "find the last departure in a timetable file before a given time (HH:MM)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const times = t.split("\n").map((l) => l.trim().split(/\s+/)[0]).filter((x) => /^\d\d:\d\d$/.test(x)).sort().reverse();
return times.find((x) => x < args.time) ?? null;`,
  expect: before,
  asks: [
    {
      say: "find the last departure in trains/york.txt before 18:30",
      args: { path: "trains/york.txt", time: "18:30" },
      files: { "trains/york.txt": lines("18:45 Leeds", "17:50 Leeds", "18:10 Hull", "19:05 Leeds", "16:30 Hull") },
    },
    {
      say: "last bus before 23:00 in night/n12.txt",
      args: { path: "night/n12.txt", time: "23:00" },
      files: { "night/n12.txt": lines("22:40 Town", "23:20 Town", "21:55 Town", "00:10 Town", "23:40 Docks") },
    },
    {
      say: "which was the most recent train to pull out prior to 09:40 — rail/leeds.txt",
      args: { path: "rail/leeds.txt", time: "09:40" },
      files: { "rail/leeds.txt": lines("09:15 York", "09:52 York", "08:58 Selby", "09:33 Selby", "10:20 York") },
    },
  ],
};

// --- single tasks ---
const RESULT = /^(.+?)\s+(\d+)\s*-\s*(\d+)\s+(.+)$/;
const TEAM_POINTS: ReuseTask = {
  name: "league:compute_team_points",
  intent: "compute a team's league points from a results file (3 for a win, 1 for a draw)",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let pts = 0;
for (const l of t.split("\n")) {
  const m = l.trim().match(/^(.+?)\s+(\d+)\s*-\s*(\d+)\s+(.+)$/);
  if (!m) continue;
  const [, home, hg, ag, away] = m;
  const h = Number(hg), g = Number(ag);
  if (home === args.team) pts += h > g ? 3 : h === g ? 1 : 0;
  if (away === args.team) pts += g > h ? 3 : h === g ? 1 : 0;
}
return pts;`,
  expect: (a) => {
    let pts = 0;
    for (const l of nonBlank(a)) {
      const m = RESULT.exec(l);
      if (!m) continue;
      const [home, away] = [m[1], m[4]];
      const diff = Number(m[2]) - Number(m[3]);
      const mine = home === a.args.team ? diff : away === a.args.team ? -diff : undefined;
      if (mine === undefined) continue;
      pts += mine > 0 ? 3 : mine === 0 ? 1 : 0;
    }
    return pts;
  },
  asks: [
    {
      say: "compute the league points of Lions from season/results.txt (3 for a win, 1 for a draw)",
      args: { path: "season/results.txt", team: "Lions" },
      files: { "season/results.txt": lines("Lions 2-1 Tigers", "Bears 0-0 Lions", "Lions 1-3 Wolves", "Tigers 1-2 Lions", "Wolves 2-2 Bears") },
    },
    {
      say: "points tally for Rovers in cup/2026.txt",
      args: { path: "cup/2026.txt", team: "Rovers" },
      files: { "cup/2026.txt": lines("Rovers 0-1 United", "City 1-1 Rovers", "Rovers 4-0 Athletic", "United 3-3 City", "Athletic 0-2 Rovers") },
    },
    {
      say: "football q: how many pts did Harbour FC collect in spring/fixtures.txt? standard scoring",
      args: { path: "spring/fixtures.txt", team: "Harbour FC" },
      files: { "spring/fixtures.txt": lines("Harbour FC 1-1 Mill Town", "Mill Town 0-3 Harbour FC", "Harbour FC 0-2 Port Vale", "Port Vale 1-1 Harbour FC") },
    },
  ],
};

const DRY_STREAK: ReuseTask = {
  name: "rain:find_longest_dry_streak",
  intent: "find the longest run of consecutive dry days (0 mm) in a daily rainfall CSV",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.trim().split("\n").map((l) => l.split(","));
const i = head.indexOf("mm");
let best = 0, cur = 0;
for (const r of rows) { cur = Number(r[i]) === 0 ? cur + 1 : 0; if (cur > best) best = cur; }
return best;`,
  expect: (a) => {
    const [head, ...rows] = nonBlank(a).map((l) => l.split(","));
    const flags = rows.map((r) => (Number(r[head!.indexOf("mm")]) === 0 ? "d" : "w")).join("");
    return Math.max(0, ...(flags.match(/d+/g) ?? []).map((s) => s.length));
  },
  asks: [
    {
      say: "find the longest run of consecutive dry days in weather/july.csv",
      args: { path: "weather/july.csv" },
      files: {
        "weather/july.csv": csv("date,mm", [
          ["2027-07-01", 0],
          ["2027-07-02", 0],
          ["2027-07-03", 4.2],
          ["2027-07-04", 0],
          ["2027-07-05", 0],
          ["2027-07-06", 0],
          ["2027-07-07", 1.1],
        ]),
      },
    },
    {
      say: "longest dry spell in station/aug.csv?",
      args: { path: "station/aug.csv" },
      files: {
        "station/aug.csv": csv("date,mm", [
          ["2027-08-01", 2],
          ["2027-08-02", 0],
          ["2027-08-03", 0],
          ["2027-08-04", 0],
          ["2027-08-05", 0],
          ["2027-08-06", 0.4],
          ["2027-08-07", 0],
        ]),
      },
    },
    {
      say: "garden/precip.txt — biggest streak w/o any precipitation, how many in a row?",
      args: { path: "garden/precip.txt" },
      files: {
        "garden/precip.txt": csv("date,mm", [
          ["2027-09-01", 0],
          ["2027-09-02", 12.5],
          ["2027-09-03", 0],
          ["2027-09-04", 0],
          ["2027-09-05", 3],
          ["2027-09-06", 7],
        ]),
      },
    },
  ],
};

const droppedCsv = (a: Ask) => {
  const rows = input(a)
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.split(","));
  const i = rows[0]!.indexOf(a.args.column as string);
  return lines(...rows.map((r) => [...r.slice(0, i), ...r.slice(i + 1)].join(",")));
};
const DROP_COLUMN: ReuseTask = {
  name: "csv:write_copy_without_column",
  intent: "write a copy of a CSV file with one named column removed",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.split("\n").filter((l) => l !== "").map((l) => l.split(","));
const i = rows[0].indexOf(args.column);
const kept = rows.map((r) => r.filter((_, j) => j !== i).join(","));
await mcp.filesystem.write_file({ path: args.out, content: kept.join("\n") + "\n" });
return kept.length - 1;`,
  expect: (a) => nonBlank(a).length - 1,
  leaves: (a) => ({ [a.args.out as string]: droppedCsv(a) }),
  asks: [
    {
      say: "write a copy of people/staff.csv to people/staff-public.csv with the salary column removed",
      args: { path: "people/staff.csv", column: "salary", out: "people/staff-public.csv" },
      files: {
        "people/staff.csv": csv("id,name,salary,team", [
          [1, "Ana", 52000, "ops"],
          [2, "Bo", 61000, "web"],
          [3, "Cy", 47000, "ops"],
        ]),
      },
    },
    {
      say: "drop the email column from crm/leads.csv, save it as crm/leads-clean.csv",
      args: { path: "crm/leads.csv", column: "email", out: "crm/leads-clean.csv" },
      files: {
        "crm/leads.csv": csv("lead,email,stage", [
          ["L-1", "a@x.io", "new"],
          ["L-2", "b@y.io", "won"],
        ]),
      },
    },
    {
      say: "share/export.txt → share/export-anon.txt but strip the ssn field out",
      args: { path: "share/export.txt", column: "ssn", out: "share/export-anon.txt" },
      files: {
        "share/export.txt": csv("ssn,first,last,city", [
          ["123-45-6789", "Dee", "Moss", "Austin"],
          ["987-65-4321", "Eli", "Stone", "Reno"],
          ["555-12-3456", "Fay", "Ito", "Boise"],
          ["111-22-3333", "Gus", "Hale", "Omaha"],
        ]),
      },
    },
  ],
};

const SPDX = /SPDX-License-Identifier:\s*(.*)$/m;
const SPDX_LICENSE: ReuseTask = {
  name: "spdx:read_license_identifier",
  intent: "read the SPDX-License-Identifier from a source file's header comment",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const line = t.split("\n").find((l) => l.includes("SPDX-License-Identifier:"));
if (!line) return null;
return line.slice(line.indexOf("SPDX-License-Identifier:") + 24).replace(/\*\/\s*$/, "").replace(/-->\s*$/, "").trim();`,
  expect: (a) => {
    const m = SPDX.exec(input(a));
    return m ? m[1]!.replace(/(\*\/|-->)\s*$/, "").trim() : null;
  },
  asks: [
    {
      say: "read the SPDX-License-Identifier from the header comment of src/main.c",
      args: { path: "src/main.c" },
      files: { "src/main.c": lines("/* SPDX-License-Identifier: GPL-2.0-or-later */", "#include <stdio.h>", "int main(void) { return 0; }") },
    },
    {
      say: "which license does lib/parse.rs declare at the top?",
      args: { path: "lib/parse.rs" },
      files: { "lib/parse.rs": lines("// Copyright 2026 The Parse Authors", "// SPDX-License-Identifier: MIT OR Apache-2.0", "", "pub fn parse() {}") },
    },
    {
      say: "legal wants to know what terms tools/build.py ships under, per the tag in its first lines",
      args: { path: "tools/build.py" },
      files: { "tools/build.py": lines("#!/usr/bin/env python3", "# SPDX-License-Identifier: BSD-3-Clause", '"""Build script."""', "print('ok')") },
    },
  ],
};

export const BLIND_24_TASKS: readonly ReuseTask[] = [
  GRID_ROWS,
  GRID_COLUMNS,
  MAC_COLON,
  MAC_DOTTED,
  WEEKEND_DATES,
  WEEKDAY_DATES,
  COUNT_CONFLICTS,
  CONFLICT_STARTS,
  SERVER_NAMES,
  LISTEN_PORTS,
  UNITS_ON_HAND,
  STOCK_VALUE,
  PACE_KM,
  PACE_MILE,
  FIRST_AFTER,
  LAST_BEFORE,
  TEAM_POINTS,
  DRY_STREAK,
  DROP_COLUMN,
  SPDX_LICENSE,
];
