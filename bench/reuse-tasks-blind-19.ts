// The 19th blind reuse stream (`--tasks blind19`), written blind on 2026-12-08 by someone who saw
// only the format (bench/reuse-tasks.ts's types, helpers and one task), never pml's ranking or its
// labels; of the bench's output only the canned-code check (the memory-less agents' wrong answers).
// Nothing is tuned on it; its requests are never printed. 20 tasks, 60
// requests (the first and two repeats each), in 8 near-twin pairs whose inputs have the same names
// and kinds (largest rise vs largest fall, km/h vs m/s, words in vs missing from a glossary, busiest
// client vs busiest path, decimal comma vs decimal point, tabs to spaces vs spaces to tabs, common
// prefix vs suffix, first vs last row kept per key) and 4 single tasks. The repeats are worded as
// different users on different days would ask (terse, chatty, a file name, jargon, typos, a
// non-native speaker); one repeat of each task shares a content word with its intent, the other
// shares none.
import { type Ask, csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const nonEmpty = (t: string) => t.split("\n").filter((l) => l.trim() !== "");

// Consecutive differences of a column of a comma-separated table.
const steps = (a: Ask) => {
  const [head, ...rows] = nonEmpty(input(a)).map((l) => l.split(","));
  const i = head!.indexOf(a.args.column as string);
  const vs = rows.map((r) => Number(r[i]));
  return vs.slice(1).map((v, j) => v - vs[j]!);
};

const LARGEST_RISE: ReuseTask = {
  name: "sensor:find_largest_rise",
  intent: "find the largest increase between consecutive values of a table column",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.split("\n").filter((l) => l.trim() !== "").map((l) => l.split(","));
const i = rows[0].indexOf(args.column);
let best = -Infinity;
for (let j = 2; j < rows.length; j++) {
  const d = Number(rows[j][i]) - Number(rows[j - 1][i]);
  if (d > best) best = d;
}
return Math.round(best * 100) / 100;`,
  expect: (a) => round2(Math.max(...steps(a))),
  asks: [
    {
      say: "find the largest increase between consecutive values of the temp column in readings/greenhouse.csv",
      args: { path: "readings/greenhouse.csv", column: "temp" },
      files: {
        "readings/greenhouse.csv": csv("time,temp,humidity", [
          ["06:00", 14.2, 80],
          ["07:00", 15.1, 78],
          ["08:00", 18.6, 70],
          ["09:00", 17.9, 66],
          ["10:00", 21.0, 60],
          ["11:00", 20.2, 58],
        ]),
      },
    },
    {
      say: "biggest jump from one row to the next in the pressure column of lab/run7.csv?",
      args: { path: "lab/run7.csv", column: "pressure" },
      files: {
        "lab/run7.csv": csv("t,pressure", [
          [0, 101.2],
          [1, 100.4],
          [2, 101.0],
          [3, 97.5],
          [4, 98.9],
          [5, 99.3],
        ]),
      },
    },
    {
      say: "stocks/acme.csv, close: best day-over-day gain?",
      args: { path: "stocks/acme.csv", column: "close" },
      files: {
        "stocks/acme.csv": csv("date,open,close", [
          ["2026-11-02", 9.8, 10.0],
          ["2026-11-03", 10.1, 10.4],
          ["2026-11-04", 10.3, 9.1],
          ["2026-11-05", 9.2, 9.9],
          ["2026-11-06", 10.0, 11.7],
          ["2026-11-09", 11.6, 11.2],
        ]),
      },
    },
  ],
};

const LARGEST_FALL: ReuseTask = {
  name: "sensor:find_largest_fall",
  intent: "find the largest decrease between consecutive values of a table column",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const rows = t.split("\n").filter((l) => l.trim() !== "").map((l) => l.split(","));
const i = rows[0].indexOf(args.column);
let best = -Infinity;
for (let j = 2; j < rows.length; j++) {
  const d = Number(rows[j - 1][i]) - Number(rows[j][i]);
  if (d > best) best = d;
}
return Math.round(best * 100) / 100;`,
  expect: (a) => round2(-Math.min(...steps(a))),
  asks: [
    {
      say: "find the largest decrease between consecutive values of the level column in tank/week12.csv",
      args: { path: "tank/week12.csv", column: "level" },
      files: {
        "tank/week12.csv": csv("day,level", [
          ["mon", 80],
          ["tue", 76],
          ["wed", 77],
          ["thu", 69],
          ["fri", 70],
          ["sat", 66],
        ]),
      },
    },
    {
      say: "largest fall from one reading to the next, battery column, devices/phone-log.csv",
      args: { path: "devices/phone-log.csv", column: "battery" },
      files: {
        "devices/phone-log.csv": csv("hour,battery,screen", [
          [8, 100, "on"],
          [9, 96, "off"],
          [10, 97, "off"],
          [11, 85, "on"],
          [12, 83, "on"],
          [13, 90, "off"],
        ]),
      },
    },
    {
      say: "rivers/elbe.csv gauge cm — steepest plunge row to row?",
      args: { path: "rivers/elbe.csv", column: "gauge_cm" },
      files: {
        "rivers/elbe.csv": csv("date,gauge_cm", [
          ["2026-10-01", 310],
          ["2026-10-02", 322],
          ["2026-10-03", 305],
          ["2026-10-04", 298],
          ["2026-10-05", 330],
          ["2026-10-06", 301],
        ]),
      },
    },
  ],
};

// A trip log: one leg a line, "km minutes".
const legs = (a: Ask) =>
  nonEmpty(input(a)).reduce(
    (s, l) => {
      const [km, min] = l.trim().split(/\s+/).map(Number);
      return { km: s.km + km!, min: s.min + min! };
    },
    { km: 0, min: 0 },
  );

const SPEED_KMH: ReuseTask = {
  name: "trip:compute_speed_kmh",
  intent: "compute the average speed over a trip log in kilometres per hour",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let km = 0, min = 0;
for (const l of t.split("\n")) {
  if (l.trim() === "") continue;
  const [a, b] = l.trim().split(/\s+/);
  km += Number(a);
  min += Number(b);
}
return Math.round((km / (min / 60)) * 100) / 100;`,
  expect: (a) => {
    const { km, min } = legs(a);
    return round2((km * 60) / min);
  },
  asks: [
    {
      say: "compute the average speed over trips/commute.txt in kilometres per hour (each line: km minutes)",
      args: { path: "trips/commute.txt" },
      files: { "trips/commute.txt": lines("12.4 25", "8.1 19", "15.0 31") },
    },
    {
      say: "km/h speed for rides/saturday.log pls",
      args: { path: "rides/saturday.log" },
      files: { "rides/saturday.log": lines("20 48", "17.5 40", "9 22") },
    },
    {
      say: "how fast did I go overall on runs/march.txt, in kph",
      args: { path: "runs/march.txt" },
      files: { "runs/march.txt": lines("5.2 27", "10 55", "7.5 40") },
    },
  ],
};

const SPEED_MPS: ReuseTask = {
  name: "trip:compute_speed_mps",
  intent: "compute the average speed over a trip log in metres per second",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let km = 0, min = 0;
for (const l of t.split("\n")) {
  if (l.trim() === "") continue;
  const [a, b] = l.trim().split(/\s+/);
  km += Number(a);
  min += Number(b);
}
return Math.round(((km * 1000) / (min * 60)) * 100) / 100;`,
  expect: (a) => {
    const { km, min } = legs(a);
    return round2((km * 1000) / (min * 60));
  },
  asks: [
    {
      say: "compute the average speed over trips/drone.txt in metres per second (each line: km minutes)",
      args: { path: "trips/drone.txt" },
      files: { "trips/drone.txt": lines("3.6 6", "1.8 4", "2.4 5") },
    },
    {
      say: "avg speed of rides/ebike.log in meters per sec",
      args: { path: "rides/ebike.log" },
      files: { "rides/ebike.log": lines("14 32", "6.5 18") },
    },
    {
      say: "m/s for sprints/tuesday.txt, mean for the whole thing",
      args: { path: "sprints/tuesday.txt" },
      files: { "sprints/tuesday.txt": lines("0.4 1.5", "0.2 0.75", "0.3 1.25") },
    },
  ],
};

// The distinct lowercase words of a text, in order of first use, and a glossary's terms.
const wordsOf = (a: Ask) => [
  ...new Set(
    input(a)
      .toLowerCase()
      .match(/[a-z]+/g) ?? [],
  ),
];
const termsOf = (a: Ask) => new Set(nonEmpty(input(a, "glossary")).map((l) => l.trim().toLowerCase()));

const GLOSSARY_HITS: ReuseTask = {
  name: "lex:list_glossary_hits",
  intent: "list the distinct words of a text file that appear in a glossary file",
  code: String.raw`const text = await mcp.filesystem.read_file({ path: args.path });
const g = await mcp.filesystem.read_file({ path: args.glossary });
const terms = new Set(g.split("\n").map((l) => l.trim().toLowerCase()).filter(Boolean));
const out = [];
for (const w of text.toLowerCase().match(/[a-z]+/g) || []) if (terms.has(w) && !out.includes(w)) out.push(w);
return out;`,
  expect: (a) => {
    const t = termsOf(a);
    return wordsOf(a).filter((w) => t.has(w));
  },
  asks: [
    {
      say: "list the distinct words of docs/intro.md that appear in the glossary file docs/terms.txt",
      args: { path: "docs/intro.md", glossary: "docs/terms.txt" },
      files: {
        "docs/intro.md": lines("The cache stores each token.", "A token expires when the cache is full."),
        "docs/terms.txt": lines("cache", "token", "shard", "replica"),
      },
    },
    {
      say: "glossary check: wich of our terms show up in blog/post-3.txt? the list is blog/terms.txt",
      args: { path: "blog/post-3.txt", glossary: "blog/terms.txt" },
      files: {
        "blog/post-3.txt": lines("Sharding splits a table; each shard has a replica.", "Replica lag matters."),
        "blog/terms.txt": lines("shard", "replica", "quorum", "lag"),
      },
    },
    {
      say: "which of the vocab/jargon.txt entries occur in notes/meeting.txt?",
      args: { path: "notes/meeting.txt", glossary: "vocab/jargon.txt" },
      files: {
        "notes/meeting.txt": lines("We agreed the backlog is too long.", "Sprint goals: shrink backlog, fix flaky tests."),
        "vocab/jargon.txt": lines("backlog", "sprint", "velocity", "flaky"),
      },
    },
  ],
};

const GLOSSARY_MISSES: ReuseTask = {
  name: "lex:list_glossary_misses",
  intent: "list the distinct words of a text file that are missing from a glossary file",
  code: String.raw`const text = await mcp.filesystem.read_file({ path: args.path });
const g = await mcp.filesystem.read_file({ path: args.glossary });
const terms = new Set(g.split("\n").map((l) => l.trim().toLowerCase()).filter(Boolean));
const out = [];
for (const w of text.toLowerCase().match(/[a-z]+/g) || []) if (!terms.has(w) && !out.includes(w)) out.push(w);
return out;`,
  expect: (a) => {
    const t = termsOf(a);
    return wordsOf(a).filter((w) => !t.has(w));
  },
  asks: [
    {
      say: "list the distinct words of essays/draft.txt that are missing from the glossary file essays/known.txt",
      args: { path: "essays/draft.txt", glossary: "essays/known.txt" },
      files: {
        "essays/draft.txt": lines("Cats chase mice and dogs chase cats."),
        "essays/known.txt": lines("cats", "chase", "and"),
      },
    },
    {
      say: "spellcheck-ish: words in letters/to-ana.txt not in my dictionary dict/mine.txt",
      args: { path: "letters/to-ana.txt", glossary: "dict/mine.txt" },
      files: {
        "letters/to-ana.txt": lines("Dear Ana,", "the garden is lovely; the tomatos are red."),
        "dict/mine.txt": lines("dear", "ana", "the", "garden", "is", "are", "red"),
      },
    },
    {
      say: "what in captions/ep4.txt isnt covered by wl/allowed.txt? unique ones only",
      args: { path: "captions/ep4.txt", glossary: "wl/allowed.txt" },
      files: {
        "captions/ep4.txt": lines("Hello there.", "Run, run now!", "Hello again."),
        "wl/allowed.txt": lines("hello", "there", "now"),
      },
    },
  ],
};

// An access log in the common log format.
const hit = (ip: string, path: string, i: number) => `${ip} - - [08/Dec/2026:10:${String(i).padStart(2, "0")}:00 +0000] "GET ${path} HTTP/1.1" 200 ${300 + i * 7}`;
const accessLog = (...hits: [string, string][]) => lines(...hits.map(([ip, p], i) => hit(ip, p, i)));
const mostOf = (xs: string[]) => {
  const n = new Map<string, number>();
  for (const x of xs) n.set(x, (n.get(x) ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1])[0]![0];
};
const logField = (a: Ask, f: "ip" | "path") => nonEmpty(input(a)).map((l) => (f === "ip" ? l.split(" ")[0]! : l.split('"')[1]!.split(" ")[1]!));

const TOP_CLIENT: ReuseTask = {
  name: "weblog:find_top_client",
  intent: "find the client address that made the most requests in an access log",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const n = {};
let best = null;
for (const l of t.split("\n")) {
  const m = l.match(/^(\S+) /);
  if (!m) continue;
  n[m[1]] = (n[m[1]] || 0) + 1;
  if (best === null || n[m[1]] > n[best]) best = m[1];
}
return best;`,
  expect: (a) => mostOf(logField(a, "ip")),
  asks: [
    {
      say: "find the client address that made the most requests in logs/access.log",
      args: { path: "logs/access.log" },
      files: {
        "logs/access.log": accessLog(
          ["203.0.113.7", "/index.html"],
          ["198.51.100.2", "/about"],
          ["203.0.113.7", "/about"],
          ["192.0.2.44", "/about"],
          ["203.0.113.7", "/contact"],
          ["198.51.100.2", "/about"],
        ),
      },
    },
    {
      say: "top client in srv/api.log by number of requests",
      args: { path: "srv/api.log" },
      files: {
        "srv/api.log": accessLog(
          ["10.0.0.5", "/v1/users"],
          ["10.0.0.9", "/v1/orders"],
          ["10.0.0.9", "/v1/users"],
          ["10.0.0.5", "/v1/users"],
          ["10.0.0.9", "/v1/health"],
          ["10.0.0.12", "/v1/users"],
          ["10.0.0.9", "/v1/users"],
        ),
      },
    },
    {
      say: "which ip hammers us hardest? nginx/shop.txt",
      args: { path: "nginx/shop.txt" },
      files: {
        "nginx/shop.txt": accessLog(
          ["172.16.4.1", "/cart"],
          ["172.16.4.1", "/checkout"],
          ["172.16.9.3", "/cart"],
          ["172.16.4.1", "/cart"],
          ["172.16.9.3", "/cart"],
          ["172.16.4.1", "/search?q=mug"],
        ),
      },
    },
  ],
};

const TOP_PATH: ReuseTask = {
  name: "weblog:find_top_path",
  intent: "find the request path asked for most often in an access log",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const n = {};
let best = null;
for (const l of t.split("\n")) {
  const m = l.match(/"[A-Z]+ (\S+) [^"]*"/);
  if (!m) continue;
  n[m[1]] = (n[m[1]] || 0) + 1;
  if (best === null || n[m[1]] > n[best]) best = m[1];
}
return best;`,
  expect: (a) => mostOf(logField(a, "path")),
  asks: [
    {
      say: "find the request path asked for most often in logs/web.log",
      args: { path: "logs/web.log" },
      files: {
        "logs/web.log": accessLog(["203.0.113.7", "/pricing"], ["203.0.113.7", "/index.html"], ["198.51.100.2", "/pricing"], ["203.0.113.7", "/docs"], ["192.0.2.44", "/pricing"]),
      },
    },
    {
      say: "most popular url in srv/blog.log?",
      args: { path: "srv/blog.log" },
      files: {
        "srv/blog.log": accessLog(
          ["10.1.1.1", "/posts/rust-tips"],
          ["10.1.1.1", "/feed.xml"],
          ["10.1.1.1", "/posts/rust-tips"],
          ["10.1.1.2", "/feed.xml"],
          ["10.1.1.1", "/about"],
          ["10.1.1.3", "/feed.xml"],
          ["10.1.1.4", "/feed.xml"],
        ),
      },
    },
    {
      say: "nginx/docs.txt — which page gets hit hardest?",
      args: { path: "nginx/docs.txt" },
      files: {
        "nginx/docs.txt": accessLog(
          ["172.16.4.1", "/guide/install"],
          ["172.16.4.1", "/guide/config"],
          ["172.16.9.3", "/guide/install"],
          ["172.16.4.1", "/api"],
          ["172.16.4.1", "/guide/install"],
        ),
      },
    },
  ],
};

// Amounts one a line: "1.234,56" (decimal comma) or "1,234.56" (decimal point).
const sumAmounts = (a: Ask, decimal: "," | ".") =>
  round2(
    nonEmpty(input(a)).reduce((s, l) => {
      const [int, frac = ""] = l.trim().split(decimal);
      const digits = int!.split("").filter((c) => c >= "0" && c <= "9");
      return s + Number(`${digits.join("")}.${frac || "0"}`);
    }, 0),
  );

const SUM_COMMA_DECIMALS: ReuseTask = {
  name: "money:sum_comma_decimals",
  intent: "add up amounts written with a decimal comma and dot thousands separators, one per line",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let s = 0;
for (const l of t.split("\n")) if (l.trim() !== "") s += Number(l.trim().replace(/\./g, "").replace(",", "."));
return Math.round(s * 100) / 100;`,
  expect: (a) => sumAmounts(a, ","),
  asks: [
    {
      say: "add up the amounts in invoices/fr.txt, written with a decimal comma and dots for thousands",
      args: { path: "invoices/fr.txt" },
      files: { "invoices/fr.txt": lines("1.250,50", "89,90", "12.000,00", "3,5") },
    },
    {
      say: "sum these German-style amounts: kasse/tag3.txt",
      args: { path: "kasse/tag3.txt" },
      files: { "kasse/tag3.txt": lines("2.499,99", "15,00", "0,99", "1.000") },
    },
    {
      say: "totaal van bonnen/mei.txt graag (wij schrijven 1.000,00)",
      args: { path: "bonnen/mei.txt" },
      files: { "bonnen/mei.txt": lines("1.000,00", "250,25", "7,5") },
    },
  ],
};

const SUM_POINT_DECIMALS: ReuseTask = {
  name: "money:sum_point_decimals",
  intent: "add up amounts written with a decimal point and comma thousands separators, one per line",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let s = 0;
for (const l of t.split("\n")) if (l.trim() !== "") s += Number(l.trim().replace(/,/g, ""));
return Math.round(s * 100) / 100;`,
  expect: (a) => sumAmounts(a, "."),
  asks: [
    {
      say: "add up the amounts in invoices/us.txt, written with a decimal point and commas for thousands",
      args: { path: "invoices/us.txt" },
      files: { "invoices/us.txt": lines("1,250.50", "89.90", "12,000.00", "3.5") },
    },
    {
      say: "total of receipts/nyc.txt, decimal point style",
      args: { path: "receipts/nyc.txt" },
      files: { "receipts/nyc.txt": lines("1,020.00", "45.50", "3.25") },
    },
    {
      say: "grand total for ledger/q1.txt? numbers look like 12,345.67",
      args: { path: "ledger/q1.txt" },
      files: { "ledger/q1.txt": lines("12,345.67", "980.10", "1,000") },
    },
  ],
};

// Leading indentation rewritten: each tab to four spaces, or each run of four spaces to a tab.
const reindent = (t: string, to: "spaces" | "tabs") => {
  let changed = 0;
  const out = t.split("\n").map((l) => {
    let k = 0;
    if (to === "spaces") {
      while (l[k] === "\t") k++;
      if (k === 0) return l;
      changed++;
      return " ".repeat(4 * k) + l.slice(k);
    }
    while (l.slice(k, k + 4) === "    ") k += 4;
    if (k === 0) return l;
    changed++;
    return "\t".repeat(k / 4) + l.slice(k);
  });
  return { changed, text: out.join("\n") };
};

const EXPAND_TABS: ReuseTask = {
  name: "indent:expand_leading_tabs",
  intent: "rewrite a file with each leading tab replaced by four spaces, into another file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let changed = 0;
const out = t.split("\n").map((l) => {
  const m = l.match(/^\t+/);
  if (!m) return l;
  changed++;
  return "    ".repeat(m[0].length) + l.slice(m[0].length);
}).join("\n");
await mcp.filesystem.write_file({ path: args.out, content: out });
return changed;`,
  expect: (a) => reindent(input(a), "spaces").changed,
  leaves: (a) => ({ [a.args.out as string]: reindent(input(a), "spaces").text }),
  asks: [
    {
      say: "rewrite src/build.py with each leading tab replaced by four spaces, into src/build.spaces.py",
      args: { path: "src/build.py", out: "src/build.spaces.py" },
      files: { "src/build.py": lines("def main():", "\tx = 1", "    # keep going", "\tif x:", "\t\treturn x") },
    },
    {
      say: "untabify scripts/deploy.sh -> scripts/deploy.fixed.sh, 4 spaces per tab",
      args: { path: "scripts/deploy.sh", out: "scripts/deploy.fixed.sh" },
      files: { "scripts/deploy.sh": lines("deploy() {", "\tset -e", "        echo start", "\tfor h in a b; do", "\t\tssh $h true", "\tdone", "}") },
    },
    {
      say: "py/legacy.py mixes indentation, make it all blanks (4 wide) as py/clean.py",
      args: { path: "py/legacy.py", out: "py/clean.py" },
      files: { "py/legacy.py": lines("class A:", "    def f(self):", "\t\treturn 1", "    def g(self):", "\t\tx = 2", "\t\treturn x") },
    },
  ],
};

const COLLAPSE_SPACES: ReuseTask = {
  name: "indent:collapse_leading_spaces",
  intent: "rewrite a file with each leading run of four spaces replaced by a tab, into another file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
let changed = 0;
const out = t.split("\n").map((l) => {
  const m = l.match(/^(?: {4})+/);
  if (!m) return l;
  changed++;
  return "\t".repeat(m[0].length / 4) + l.slice(m[0].length);
}).join("\n");
await mcp.filesystem.write_file({ path: args.out, content: out });
return changed;`,
  expect: (a) => reindent(input(a), "tabs").changed,
  leaves: (a) => ({ [a.args.out as string]: reindent(input(a), "tabs").text }),
  asks: [
    {
      say: "rewrite mk/Makefile.in with each leading run of four spaces replaced by a tab, into mk/Makefile",
      args: { path: "mk/Makefile.in", out: "mk/Makefile" },
      files: { "mk/Makefile.in": lines("all: app", "app: main.o", "    cc -o app main.o", "\t@echo linked", "clean:", "    rm -f app *.o") },
    },
    {
      say: "tabify go/main.go into go/main.tabbed.go (4 spaces = 1 tab)",
      args: { path: "go/main.go", out: "go/main.tabbed.go" },
      files: { "go/main.go": lines("package main", "", "func main() {", "    if true {", "        println(1)", "\t}", "}") },
    },
    {
      say: "go/util.go: swap the indentation blanks for hard indents, save go/util.out.go",
      args: { path: "go/util.go", out: "go/util.out.go" },
      files: { "go/util.go": lines("package util", "", "func Add(a, b int) int {", "\tsum := a + b", "    sum++", "    return sum", "}") },
    },
  ],
};

// The longest common start or end of a file's non-empty lines.
const common = (a: Ask, end: "start" | "end") => {
  const ls = nonEmpty(input(a)).map((l) => (end === "start" ? l : [...l].reverse().join("")));
  let n = 0;
  while (ls.every((l) => n < l.length && l[n] === ls[0]![n])) n++;
  const s = ls[0]!.slice(0, n);
  return end === "start" ? s : [...s].reverse().join("");
};

const SHARED_PREFIX: ReuseTask = {
  name: "strings:find_shared_prefix",
  intent: "find the longest common prefix of the lines in a file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "");
let p = ls[0];
for (const l of ls) while (!l.startsWith(p)) p = p.slice(0, -1);
return p;`,
  expect: (a) => common(a, "start"),
  asks: [
    {
      say: "find the longest common prefix of the lines in build/outputs.txt",
      args: { path: "build/outputs.txt" },
      files: { "build/outputs.txt": lines("dist/app/main.js", "dist/app/vendor.js", "dist/app/chunk-3.js") },
    },
    {
      say: "shared prefix of everything in keys/redis.txt?",
      args: { path: "keys/redis.txt" },
      files: { "keys/redis.txt": lines("user:1042:session", "user:1042:cart", "user:1042:prefs") },
    },
    {
      say: "what do all entries of hosts/fleet.txt start with",
      args: { path: "hosts/fleet.txt" },
      files: { "hosts/fleet.txt": lines("web-eu-01.acme.net", "web-eu-02.acme.net", "web-eu-17.acme.net") },
    },
  ],
};

const SHARED_SUFFIX: ReuseTask = {
  name: "strings:find_shared_suffix",
  intent: "find the longest common suffix of the lines in a file",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const ls = t.split("\n").filter((l) => l.trim() !== "");
let s = ls[0];
for (const l of ls) while (!l.endsWith(s)) s = s.slice(1);
return s;`,
  expect: (a) => common(a, "end"),
  asks: [
    {
      say: "find the longest common suffix of the lines in mail/addresses.txt",
      args: { path: "mail/addresses.txt" },
      files: { "mail/addresses.txt": lines("ana@corp.example.com", "bo@corp.example.com", "li@sales.corp.example.com") },
    },
    {
      say: "what ending is common to all names in media/shots.txt",
      args: { path: "media/shots.txt" },
      files: { "media/shots.txt": lines("IMG_2041_edit.jpg", "IMG_2042_edit.jpg", "DSC_0007_edit.jpg") },
    },
    {
      say: "tails shared by every row of tickets/ids.txt?",
      args: { path: "tickets/ids.txt" },
      files: { "tickets/ids.txt": lines("OPS-1123-EU", "DEV-77-EU", "QA-5-EU") },
    },
  ],
};

// A comma-separated table's data rows, with the value of the key column of each.
const keyed = (a: Ask) => {
  const [head, ...rows] = nonEmpty(input(a));
  const i = head!.split(",").indexOf(a.args.column as string);
  return rows.map((r) => ({ r, k: r.split(",")[i] }));
};

const KEEP_FIRST: ReuseTask = {
  name: "rows:dedupe_keep_first",
  intent: "remove duplicate rows of a table by a key column, keeping the first row of each key",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.split("\n").filter((l) => l.trim() !== "");
const i = head.split(",").indexOf(args.column);
const seen = new Set();
const out = [];
for (const r of rows) {
  const k = r.split(",")[i];
  if (seen.has(k)) continue;
  seen.add(k);
  out.push(r);
}
return out;`,
  expect: (a) => {
    const ks = keyed(a);
    return ks.filter((x, j) => ks.findIndex((y) => y.k === x.k) === j).map((x) => x.r);
  },
  asks: [
    {
      say: "remove duplicate rows of crm/contacts.csv by the email column, keeping the first row of each email",
      args: { path: "crm/contacts.csv", column: "email" },
      files: {
        "crm/contacts.csv": csv("name,email,city", [
          ["Ana", "ana@x.io", "Lisbon"],
          ["Bo", "bo@x.io", "Oslo"],
          ["Ana L.", "ana@x.io", "Porto"],
          ["Chen", "chen@x.io", "Taipei"],
          ["Bo K.", "bo@x.io", "Bergen"],
        ]),
      },
    },
    {
      say: "drop dupes in hr/staff.csv by the id column, keep the first one",
      args: { path: "hr/staff.csv", column: "id" },
      files: {
        "hr/staff.csv": csv("id,name,team", [
          [7, "Dara", "ops"],
          [3, "Eli", "web"],
          [7, "Dara", "sre"],
          [9, "Fatou", "data"],
          [3, "Eli", "mobile"],
        ]),
      },
    },
    {
      say: "dedupe inventory/stock.csv on sku, earliest entry wins",
      args: { path: "inventory/stock.csv", column: "sku" },
      files: {
        "inventory/stock.csv": csv("sku,qty,shelf", [
          ["A-100", 4, "s1"],
          ["B-200", 0, "s2"],
          ["A-100", 9, "s3"],
          ["A-100", 2, "s4"],
          ["C-300", 5, "s1"],
        ]),
      },
    },
  ],
};

const KEEP_LAST: ReuseTask = {
  name: "rows:dedupe_keep_last",
  intent: "remove duplicate rows of a table by a key column, keeping the last row of each key",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const [head, ...rows] = t.split("\n").filter((l) => l.trim() !== "");
const i = head.split(",").indexOf(args.column);
const last = new Map();
rows.forEach((r, j) => last.set(r.split(",")[i], j));
return rows.filter((r, j) => last.get(r.split(",")[i]) === j);`,
  expect: (a) => {
    const ks = keyed(a);
    return ks.filter((x, j) => !ks.slice(j + 1).some((y) => y.k === x.k)).map((x) => x.r);
  },
  asks: [
    {
      say: "remove duplicate rows of prices/feed.csv by the sku column, keeping the last row of each sku",
      args: { path: "prices/feed.csv", column: "sku" },
      files: {
        "prices/feed.csv": csv("sku,price,at", [
          ["K-1", 9.99, "08:00"],
          ["K-2", 4.5, "08:00"],
          ["K-1", 8.99, "09:00"],
          ["K-3", 12.0, "09:00"],
          ["K-2", 4.25, "10:00"],
        ]),
      },
    },
    {
      say: "dedup sensors/latest.csv by device, keep last",
      args: { path: "sensors/latest.csv", column: "device" },
      files: {
        "sensors/latest.csv": csv("device,temp,ts", [
          ["d1", 20.1, 1],
          ["d2", 19.4, 1],
          ["d1", 20.8, 2],
          ["d3", 22.0, 2],
          ["d2", 19.9, 3],
          ["d1", 21.3, 3],
        ]),
      },
    },
    {
      say: "users/export.csv has the same login many times — only newest line per login (they are chronological) please",
      args: { path: "users/export.csv", column: "login" },
      files: {
        "users/export.csv": csv("login,plan,seen", [
          ["mia", "free", "2026-01-02"],
          ["raj", "pro", "2026-01-05"],
          ["mia", "pro", "2026-02-11"],
          ["sol", "free", "2026-03-01"],
          ["raj", "team", "2026-03-09"],
        ]),
      },
    },
  ],
};

const HASHTAGS: ReuseTask = {
  name: "social:list_hashtags",
  intent: "list the hashtags used in a text file, lowercased, each once, in order of first use",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const m of t.match(/#[A-Za-z][A-Za-z0-9_]*/g) || []) {
  const h = m.toLowerCase();
  if (!out.includes(h)) out.push(h);
}
return out;`,
  expect: (a) => [...new Set((input(a).match(/#[A-Za-z]\w*/g) ?? []).map((h) => h.toLowerCase()))],
  asks: [
    {
      say: "list the hashtags used in social/post1.txt, lowercased, each once, in order of first use",
      args: { path: "social/post1.txt" },
      files: { "social/post1.txt": lines("Launch day! #Rust #rust #OpenSource", "Thanks all #launch #OpenSource") },
    },
    {
      say: "hashtags in tweets/march.txt?",
      args: { path: "tweets/march.txt" },
      files: { "tweets/march.txt": lines("Spring is here #Spring #garden", "Tulips! #GARDEN #tulips #spring2026", "Item #4 sold") },
    },
    {
      say: "which #tags does insta/caption.txt carry (no repeats, small letters)",
      args: { path: "insta/caption.txt" },
      files: { "insta/caption.txt": lines("Sunset in Porto #travel #Portugal #SunSet", "#travel #foodie") },
    },
  ],
};

const bracketsBalanced = (t: string) => {
  const closer: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
  const stack: string[] = [];
  for (const c of t) {
    if (c in closer) stack.push(closer[c]!);
    else if (c === ")" || c === "]" || c === "}") {
      if (stack.pop() !== c) return false;
    }
  }
  return stack.length === 0;
};

const BRACKET_BALANCE: ReuseTask = {
  name: "code:check_bracket_balance",
  intent: "check whether the brackets in a source file are balanced and properly nested",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const st = [];
for (const c of t) {
  if (c === "(" || c === "[" || c === "{") st.push(c);
  else if (c === ")" || c === "]" || c === "}") {
    const o = st.pop();
    if (o !== { ")": "(", "]": "[", "}": "{" }[c]) return false;
  }
}
return st.length === 0;`,
  expect: (a) => bracketsBalanced(input(a)),
  asks: [
    {
      say: "check whether the brackets in src/calc.js are balanced and properly nested",
      args: { path: "src/calc.js" },
      files: { "src/calc.js": lines("function f(a) {", "  return [a, (a + 1)];", "}") },
    },
    {
      say: "are the brackets ok in lib/parse.ts?",
      args: { path: "lib/parse.ts" },
      files: { "lib/parse.ts": lines("export function p(x: number[]) {", "  if (x[0) { return x; }", "}") },
    },
    {
      say: "does cfg/rules.json open and close every ( [ { right",
      args: { path: "cfg/rules.json" },
      files: { "cfg/rules.json": lines("{", '  "allow": ["a", "b"],', '  "deny": [{ "x": 1 }]', "}") },
    },
  ],
};

const luhn = (s: string) => {
  const ds = s.replace(/\D/g, "").split("").map(Number).reverse();
  if (ds.length < 2) return false;
  const sum = ds.reduce((acc, d, i) => acc + (i % 2 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
  return sum % 10 === 0;
};

const LUHN_VALID: ReuseTask = {
  name: "card:list_luhn_valid",
  intent: "list the numbers in a file that pass the Luhn checksum, one number per line",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
const out = [];
for (const l of t.split("\n")) {
  const n = l.trim();
  const d = n.replace(/[^0-9]/g, "");
  if (d.length < 2) continue;
  let s = 0;
  for (let i = 0; i < d.length; i++) {
    let x = Number(d[d.length - 1 - i]);
    if (i % 2 === 1) { x *= 2; if (x > 9) x -= 9; }
    s += x;
  }
  if (s % 10 === 0) out.push(n);
}
return out;`,
  expect: (a) =>
    nonEmpty(input(a))
      .map((l) => l.trim())
      .filter(luhn),
  asks: [
    {
      say: "list the numbers in cards/batch.txt that pass the Luhn checksum",
      args: { path: "cards/batch.txt" },
      files: { "cards/batch.txt": lines("4539 1488 0343 6467", "1234 5678 9012 3456", "4111 1111 1111 1111", "5500 0000 0000 0005") },
    },
    {
      say: "luhn-valid ones from payments/ids.txt pls",
      args: { path: "payments/ids.txt" },
      files: { "payments/ids.txt": lines("79927398713", "79927398710", "6011-0009-9013-9424", "3782 822463 10005") },
    },
    {
      say: "which of imei/phones.txt are genuine per the mod 10 test?",
      args: { path: "imei/phones.txt" },
      files: { "imei/phones.txt": lines("490154203237518", "490154203237517", "356938035643809", "352099001761481") },
    },
  ],
};

const toTsv = (t: string) => t.replace(/,/g, "\t");

const WRITE_TSV: ReuseTask = {
  name: "convert:write_tsv_copy",
  intent: "write a tab-separated copy of a comma-separated file to another path",
  code: String.raw`const t = await mcp.filesystem.read_file({ path: args.path });
await mcp.filesystem.write_file({ path: args.out, content: t.split(",").join("\t") });
return t.split("\n").filter((l) => l.trim() !== "").length - 1;`,
  expect: (a) => nonEmpty(input(a)).length - 1,
  leaves: (a) => ({ [a.args.out as string]: toTsv(input(a)) }),
  asks: [
    {
      say: "write a tab-separated copy of data/people.csv to data/people.tsv",
      args: { path: "data/people.csv", out: "data/people.tsv" },
      files: {
        "data/people.csv": csv("name,age,city", [
          ["Ana", 31, "Lisbon"],
          ["Bo", 27, "Oslo"],
        ]),
      },
    },
    {
      say: "make me a TSV copy of exports/q3.csv at exports/q3.tsv",
      args: { path: "exports/q3.csv", out: "exports/q3.tsv" },
      files: {
        "exports/q3.csv": csv("region,revenue,units", [
          ["north", 1200, 30],
          ["south", 980, 22],
          ["west", 1530, 41],
        ]),
      },
    },
    {
      say: "exports/sales.csv → sheets/sales.tsv for Excel paste plz",
      args: { path: "exports/sales.csv", out: "sheets/sales.tsv" },
      files: {
        "exports/sales.csv": csv("day,item,qty,price", [
          ["mon", "mug", 3, 7.5],
          ["tue", "cap", 1, 12],
          ["wed", "mug", 5, 7.5],
          ["thu", "pen", 10, 1.2],
        ]),
      },
    },
  ],
};

export const BLIND_19_TASKS: ReuseTask[] = [
  LARGEST_RISE,
  LARGEST_FALL,
  SPEED_KMH,
  SPEED_MPS,
  GLOSSARY_HITS,
  GLOSSARY_MISSES,
  TOP_CLIENT,
  TOP_PATH,
  SUM_COMMA_DECIMALS,
  SUM_POINT_DECIMALS,
  EXPAND_TABS,
  COLLAPSE_SPACES,
  SHARED_PREFIX,
  SHARED_SUFFIX,
  KEEP_FIRST,
  KEEP_LAST,
  HASHTAGS,
  BRACKET_BALANCE,
  LUHN_VALID,
  WRITE_TSV,
];
