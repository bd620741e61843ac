// Blind stream 5: written blind on 2026-12-06 by a helper that saw the rules of the streams
// (bench/reuse-tasks.ts's types and one example task) but not pml's ranking, its other streams'
// requests, or the changes being judged. Nothing is tuned on it; bench/reuse.ts never prints its
// requests. Near-twins share their inputs' names and kinds so that a careless reuse runs and gives a
// wrong answer: first vs last lines, a JSON file's keys vs its values, ascending vs descending,
// words vs characters, Caesar encode vs decode, a CSV column's total vs its maximum, lines reversed
// vs sorted, files vs folders of a directory, camelCase vs snake_case, lines kept vs dropped.

import { type Ask, csv, csvColumn, input, lines, type ReuseTask } from "./reuse-tasks.ts";

const textLines = (t: string) => {
  const ls = t.split("\n");
  if (ls[ls.length - 1] === "") ls.pop();
  return ls;
};
const shift = (t: string, k: number) =>
  t.replace(/[a-z]/gi, (c) => {
    const base = c <= "Z" ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + (((k % 26) + 26) % 26)) % 26) + base);
  });
/** The direct children of `dir` among the ask's files: files, and folders that hold some. */
const children = (ask: Ask) => {
  const prefix = `${ask.args.dir as string}/`;
  const files = new Set<string>();
  const dirs = new Set<string>();
  for (const p of Object.keys(ask.files ?? {}))
    if (p.startsWith(prefix)) {
      const rest = p.slice(prefix.length);
      if (rest.includes("/")) dirs.add(rest.split("/")[0]!);
      else files.add(rest);
    }
  return { files, dirs };
};
const READ = "const t = await mcp.filesystem.read_file({ path: args.path });\n";
const READ_LINES = `${READ}const ls = t.split("\\n");\nif (ls[ls.length - 1] === "") ls.pop();\n`;

const PEEK_HEAD: ReuseTask = {
  name: "text:peek_head_lines",
  intent: "return the first N lines of a text file",
  code: `${READ_LINES}return ls.slice(0, args.n);`,
  expect: (a) => textLines(input(a)).slice(0, a.args.n as number),
  asks: [
    {
      say: "show me the first 3 lines of notes/standup.md",
      args: { path: "notes/standup.md", n: 3 },
      files: { "notes/standup.md": lines("# Standup 12/04", "- Ana: auth refactor", "- Bo: flaky e2e", "- Chen: on call", "- Dara: out") },
    },
    {
      say: "what are the opening 2 lines of poems/ozymandias.txt?",
      args: { path: "poems/ozymandias.txt", n: 2 },
      files: {
        "poems/ozymandias.txt": lines(
          "I met a traveller from an antique land,",
          "Who said - Two vast and trunkless legs of stone",
          "Stand in the desert. . . . Near them, on the sand,",
        ),
      },
    },
    {
      say: "peek at the top 4 rows of logs/boot.log",
      args: { path: "logs/boot.log", n: 4 },
      files: { "logs/boot.log": lines("[0.00] kernel up", "[0.12] mount /", "[0.40] net eth0", "[0.91] sshd", "[1.30] nginx", "[1.88] ready") },
    },
    {
      say: "print just the beginning of data/queue.txt, 1 line is enough",
      args: { path: "data/queue.txt", n: 1 },
      files: { "data/queue.txt": lines("job-118 resize", "job-119 email", "job-120 export") },
    },
  ],
};

const PEEK_TAIL: ReuseTask = {
  name: "text:peek_tail_lines",
  intent: "return the last N lines of a text file",
  code: `${READ_LINES}return ls.slice(-args.n);`,
  expect: (a) => textLines(input(a)).slice(-(a.args.n as number)),
  asks: [
    {
      say: "show me the last 3 lines of logs/worker.log",
      args: { path: "logs/worker.log", n: 3 },
      files: { "logs/worker.log": lines("start", "poll 1", "poll 2", "job 7 ok", "job 8 failed", "shutdown") },
    },
    {
      say: "what were the final 2 entries appended to journal/2026-11.txt",
      args: { path: "journal/2026-11.txt", n: 2 },
      files: { "journal/2026-11.txt": lines("11-02 ran 5k", "11-09 dentist", "11-17 moved desks", "11-28 cabin trip") },
    },
    {
      say: "tail -n 4 of logs/nginx-error.log please",
      args: { path: "logs/nginx-error.log", n: 4 },
      files: {
        "logs/nginx-error.log": lines("e1 upstream timed out", "e2 no live upstreams", "e3 client closed", "e4 open() failed", "e5 upstream timed out", "e6 SSL handshake"),
      },
    },
    { say: "the bottom line of scores/round7.txt, just one", args: { path: "scores/round7.txt", n: 1 }, files: { "scores/round7.txt": lines("Ana 41", "Bo 38", "Chen 44") } },
  ],
};

const TOP_KEYS: ReuseTask = {
  name: "json:enumerate_top_keys",
  intent: "list the top-level keys of a JSON file, sorted",
  code: `${READ}return Object.keys(JSON.parse(t)).sort();`,
  expect: (a) => Object.keys(JSON.parse(input(a))).sort(),
  asks: [
    {
      say: "list the top-level keys of config/app.json, sorted",
      args: { path: "config/app.json" },
      files: { "config/app.json": JSON.stringify({ port: 8080, host: "0.0.0.0", debug: false, cors: { origins: ["*"] } }) },
    },
    {
      say: "which setting names appear in prefs/editor.json? alphabetical",
      args: { path: "prefs/editor.json" },
      files: { "prefs/editor.json": JSON.stringify({ tabSize: 2, wordWrap: "on", fontFamily: "Fira Code", minimap: false }, null, 2) },
    },
    {
      say: "what fields does fixtures/user-42.json have at the root level (sorted)",
      args: { path: "fixtures/user-42.json" },
      files: { "fixtures/user-42.json": JSON.stringify({ id: 42, name: "Zoe", roles: ["admin"], email: "zoe@acme.io", active: true }) },
    },
    {
      say: "give me the property names of meta/manifest.json in a-z order",
      args: { path: "meta/manifest.json" },
      files: { "meta/manifest.json": JSON.stringify({ version: "1.4.0", name: "lumen", icons: 3, author: "kai" }) },
    },
  ],
};

const TOP_VALUES: ReuseTask = {
  name: "json:collect_top_values",
  intent: "list the values of a JSON file's top-level fields, in file order",
  code: `${READ}return Object.values(JSON.parse(t));`,
  expect: (a) => Object.values(JSON.parse(input(a))),
  asks: [
    {
      say: "list the values of the top-level fields in config/limits.json, in the order they appear",
      args: { path: "config/limits.json" },
      files: { "config/limits.json": JSON.stringify({ maxUsers: 500, maxUploadMb: 25, rateLimit: 120 }) },
    },
    {
      say: "what are the actual settings in prefs/colors.json? just the values, not the names, in order",
      args: { path: "prefs/colors.json" },
      files: { "prefs/colors.json": JSON.stringify({ background: "#101010", accent: "#ff6a00", text: "#eaeaea" }, null, 2) },
    },
    {
      say: "pull out the values (not the keys) of i18n/fr-greetings.json, top to bottom",
      args: { path: "i18n/fr-greetings.json" },
      files: { "i18n/fr-greetings.json": JSON.stringify({ hello: "bonjour", bye: "au revoir", thanks: "merci", night: "bonne nuit" }) },
    },
  ],
};

const NUMS = `${READ}const xs = t.split("\\n").filter((l) => l.trim() !== "").map(Number);\n`;
const numbers = (a: Ask) =>
  input(a)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map(Number);

const RANK_UP: ReuseTask = {
  name: "nums:rank_ascending",
  intent: "sort the numbers of a file (one per line) from smallest to largest",
  code: `${NUMS}return xs.sort((a, b) => a - b);`,
  expect: (a) => numbers(a).sort((x, y) => x - y),
  asks: [
    {
      say: "sort the numbers in stats/latency.txt from smallest to largest",
      args: { path: "stats/latency.txt" },
      files: { "stats/latency.txt": lines("120", "85", "301", "97", "85.5") },
    },
    { say: "order the prices in shop/prices.txt cheapest first", args: { path: "shop/prices.txt" }, files: { "shop/prices.txt": lines("19.99", "4.5", "120", "9.99", "", "35") } },
    { say: "lap times in race/laps.txt, fastest (lowest) first please", args: { path: "race/laps.txt" }, files: { "race/laps.txt": lines("62.4", "61.9", "63.2", "61.7") } },
    {
      say: "put the heights in class/heights-cm.txt in increasing order",
      args: { path: "class/heights-cm.txt" },
      files: { "class/heights-cm.txt": lines("151", "162", "148", "170", "159", "155") },
    },
  ],
};

const RANK_DOWN: ReuseTask = {
  name: "nums:rank_descending",
  intent: "sort the numbers of a file (one per line) from largest to smallest",
  code: `${NUMS}return xs.sort((a, b) => b - a);`,
  expect: (a) => numbers(a).sort((x, y) => y - x),
  asks: [
    {
      say: "sort the numbers in stats/downloads.txt from largest to smallest",
      args: { path: "stats/downloads.txt" },
      files: { "stats/downloads.txt": lines("1200", "560", "8800", "43") },
    },
    {
      say: "rank the high scores in arcade/scores.txt, best (highest) first",
      args: { path: "arcade/scores.txt" },
      files: { "arcade/scores.txt": lines("15200", "98000", "40100", "", "72500") },
    },
    {
      say: "biggest to smallest: the invoice totals in billing/totals.txt",
      args: { path: "billing/totals.txt" },
      files: { "billing/totals.txt": lines("310.5", "1299", "45.25", "870") },
    },
    {
      say: "order the populations in geo/cities-pop.txt descending",
      args: { path: "geo/cities-pop.txt" },
      files: { "geo/cities-pop.txt": lines("2148000", "8982000", "3645000", "1352000") },
    },
  ],
};

const TALLY_WORDS: ReuseTask = {
  name: "prose:tally_words",
  intent: "count the words in a text file",
  code: String.raw`${READ}return t.split(/\s+/).filter((w) => w !== "").length;`,
  expect: (a) =>
    input(a)
      .split(/\s+/)
      .filter((w) => w !== "").length,
  asks: [
    {
      say: "count the words in essays/intro.txt",
      args: { path: "essays/intro.txt" },
      files: { "essays/intro.txt": lines("Cities grow in rings,", "like trees, each ring a decade.") },
    },
    {
      say: "how many words long is drafts/cover-letter.txt? the limit is 300",
      args: { path: "drafts/cover-letter.txt" },
      files: { "drafts/cover-letter.txt": lines("Dear hiring team,", "", "I build small, fast tools and I would love to build yours.", "Best, Ines") },
    },
    {
      say: "word count for speeches/toast.txt",
      args: { path: "speeches/toast.txt" },
      files: { "speeches/toast.txt": lines("To Sam and Alex:", "may your wifi be strong and your arguments short.") },
    },
    {
      say: "how many words does blog/post-17.md have? needs to stay under 50",
      args: { path: "blog/post-17.md" },
      files: { "blog/post-17.md": lines("# Why we pin versions", "", "Because Tuesday happened.") },
    },
  ],
};

const TALLY_CHARS: ReuseTask = {
  name: "prose:tally_chars",
  intent: "count the characters in a text file, line breaks not counted",
  code: String.raw`${READ}return t.replace(/\n/g, "").length;`,
  expect: (a) => input(a).replace(/\n/g, "").length,
  asks: [
    {
      say: "count the characters in tweets/draft.txt, line breaks not counted",
      args: { path: "tweets/draft.txt" },
      files: { "tweets/draft.txt": lines("shipping v2 today.", "no, really.") },
    },
    {
      say: "how many characters (spaces included, newlines not) is sms/reminder.txt?",
      args: { path: "sms/reminder.txt" },
      files: { "sms/reminder.txt": lines("Dentist Thu 3pm, bring the form") },
    },
    {
      say: "length of bio/short.txt in characters, ignore the line breaks",
      args: { path: "bio/short.txt" },
      files: { "bio/short.txt": lines("Backend dev in Porto.", "Likes queues, dislikes meetings.") },
    },
    { say: "char count of ads/headline.txt without the newlines", args: { path: "ads/headline.txt" }, files: { "ads/headline.txt": lines("Half the price,", "twice the coffee") } },
  ],
};

const CAESAR = (sign: string) =>
  String.raw`const k = ((${sign}args.k % 26) + 26) % 26;
return args.text.replace(/[a-z]/gi, (c) => {
  const base = c <= "Z" ? 65 : 97;
  return String.fromCharCode(((c.charCodeAt(0) - base + k) % 26) + base);
});`;

const SHIFT_FORWARD: ReuseTask = {
  name: "cipher:shift_letters_forward",
  intent: "Caesar-encode a text: shift each letter forward by k places, keeping case",
  code: CAESAR(""),
  expect: (a) => shift(a.args.text as string, a.args.k as number),
  asks: [
    { say: "caesar-encode 'Meet me at noon' shifting each letter forward by 3", args: { text: "Meet me at noon", k: 3 } },
    { say: "scramble 'Hello World' by moving every letter 5 places on in the alphabet", args: { text: "Hello World", k: 5 } },
    { say: "rot-7 the string 'Zebra crossing' (forwards)", args: { text: "Zebra crossing", k: 7 } },
    { say: "encrypt 'pizza party friday' with a caesar key of 11", args: { text: "pizza party friday", k: 11 } },
  ],
};

const SHIFT_BACK: ReuseTask = {
  name: "cipher:shift_letters_back",
  intent: "decode a Caesar text: shift each letter back by k places, keeping case",
  code: CAESAR("-"),
  expect: (a) => shift(a.args.text as string, -(a.args.k as number)),
  asks: [
    { say: "decode the caesar text 'Wlmt xli vipiewi sr Qsrhec' by shifting each letter back by 4", args: { text: "Wlmt xli vipiewi sr Qsrhec", k: 4 } },
    { say: "my friend texted 'Lxoonn rb xw vn' and says the key is 9, what does it say?", args: { text: "Lxoonn rb xw vn", k: 9 } },
    { say: "undo a shift of 17 on 'Kyv bvpj riv leuvi kyv drk'", args: { text: "Kyv bvpj riv leuvi kyv drk", k: 17 } },
    { say: "decrypt 'Xwygql xabkna ukq zalhku', it was rotated by 22", args: { text: "Xwygql xabkna ukq zalhku", k: 22 } },
  ],
};

const COLUMN = `${READ}const [head, ...rows] = t.trim().split("\\n").map((l) => l.split(","));\nconst xs = rows.map((r) => Number(r[head.indexOf(args.column)]));\n`;

const TOTAL_COLUMN: ReuseTask = {
  name: "ledger:total_column",
  intent: "sum a numeric column of a CSV file",
  code: `${COLUMN}return xs.reduce((s, x) => s + x, 0);`,
  expect: (a) => csvColumn(a).reduce((s, x) => s + x, 0),
  asks: [
    {
      say: "sum the amount column of finance/nov-expenses.csv",
      args: { path: "finance/nov-expenses.csv", column: "amount" },
      files: {
        "finance/nov-expenses.csv": csv("date,what,amount", [
          ["11-03", "train", 42.5],
          ["11-09", "hotel", 310],
          ["11-10", "lunch", 18.2],
        ]),
      },
    },
    {
      say: "what's the total of 'qty' in warehouse/stock.csv",
      args: { path: "warehouse/stock.csv", column: "qty" },
      files: {
        "warehouse/stock.csv": csv("sku,qty,bin", [
          ["A-1", 40, "B2"],
          ["A-2", 0, "B2"],
          ["C-9", 125, "D1"],
          ["D-4", 7, "A3"],
        ]),
      },
    },
    {
      say: "add up all the minutes in timesheets/week49.csv",
      args: { path: "timesheets/week49.csv", column: "minutes" },
      files: {
        "timesheets/week49.csv": csv("day,project,minutes", [
          ["mon", "pml", 240],
          ["tue", "pml", 300],
          ["wed", "ops", 90],
        ]),
      },
    },
    {
      say: "how many km did I run altogether? running/log.csv, column km",
      args: { path: "running/log.csv", column: "km" },
      files: {
        "running/log.csv": csv("date,km,pace", [
          ["12-01", 5.2, "5:40"],
          ["12-03", 10, "5:55"],
          ["12-05", 7.4, "5:30"],
        ]),
      },
    },
  ],
};

const PEAK_COLUMN: ReuseTask = {
  name: "ledger:peak_column",
  intent: "find the largest value of a numeric column in a CSV file",
  code: `${COLUMN}return Math.max(...xs);`,
  expect: (a) => Math.max(...csvColumn(a)),
  asks: [
    {
      say: "find the largest value of the amount column in finance/oct-expenses.csv",
      args: { path: "finance/oct-expenses.csv", column: "amount" },
      files: {
        "finance/oct-expenses.csv": csv("date,what,amount", [
          ["10-02", "taxi", 23],
          ["10-14", "flight", 289.9],
          ["10-15", "dinner", 64],
        ]),
      },
    },
    {
      say: "what was the highest temp recorded in weather/station-b.csv",
      args: { path: "weather/station-b.csv", column: "temp" },
      files: {
        "weather/station-b.csv": csv("hour,temp,wind", [
          ["06", 11.2, 3],
          ["12", 19.8, 5],
          ["18", 16.4, 4],
        ]),
      },
    },
    {
      say: "biggest single order in sales/q3.csv, going by total",
      args: { path: "sales/q3.csv", column: "total" },
      files: {
        "sales/q3.csv": csv("order,customer,total", [
          [1001, "Ana", 120],
          [1002, "Bo", 980],
          [1003, "Chen", 455],
          [1004, "Dara", 61],
        ]),
      },
    },
    {
      say: "max of the ms column in perf/runs.csv",
      args: { path: "perf/runs.csv", column: "ms" },
      files: {
        "perf/runs.csv": csv("run,ms,ok", [
          [1, 812, "y"],
          [2, 1290, "y"],
          [3, 944, "n"],
        ]),
      },
    },
  ],
};

const SPLICE_PAIR: ReuseTask = {
  name: "files:splice_pair_into",
  intent: "write file first followed by file second into the file out",
  code: `const a = await mcp.filesystem.read_file({ path: args.first });
const b = await mcp.filesystem.read_file({ path: args.second });
await mcp.filesystem.write_file({ path: args.out, content: a + b });
return (a + b).length;`,
  expect: (a) => (input(a, "first") + input(a, "second")).length,
  leaves: (a) => ({ [a.args.out as string]: input(a, "first") + input(a, "second") }),
  asks: [
    {
      say: "join notes/part1.txt and notes/part2.txt, in that order, into notes/full.txt",
      args: { first: "notes/part1.txt", second: "notes/part2.txt", out: "notes/full.txt" },
      files: { "notes/part1.txt": lines("Part one: the plan."), "notes/part2.txt": lines("Part two: what happened.") },
    },
    {
      say: "glue chapters/ch1.md then chapters/ch2.md together as book/draft.md",
      args: { first: "chapters/ch1.md", second: "chapters/ch2.md", out: "book/draft.md" },
      files: { "chapters/ch1.md": lines("# One", "It rained."), "chapters/ch2.md": lines("# Two", "It stopped.") },
    },
    {
      say: "concatenate templates/header.html and templates/body.html (that order) into site/index.html",
      args: { first: "templates/header.html", second: "templates/body.html", out: "site/index.html" },
      files: { "templates/header.html": lines("<header>Acme</header>"), "templates/body.html": lines("<main>Hi</main>") },
    },
    {
      say: "put sql/schema.sql followed by sql/seed.sql into sql/init.sql",
      args: { first: "sql/schema.sql", second: "sql/seed.sql", out: "sql/init.sql" },
      files: { "sql/schema.sql": lines("CREATE TABLE t (id INT);"), "sql/seed.sql": lines("INSERT INTO t VALUES (1);", "INSERT INTO t VALUES (2);") },
    },
  ],
};

const REWRITE = (how: string) =>
  `${READ_LINES}const out = ls.${how}();\nawait mcp.filesystem.write_file({ path: args.out, content: out.join("\\n") + "\\n" });\nreturn out.length;`;
const rewritten = (a: Ask, how: (ls: string[]) => string[]) => ({ [a.args.out as string]: `${how(textLines(input(a))).join("\n")}\n` });

const FLIP_LINES: ReuseTask = {
  name: "files:flip_lines_into",
  intent: "write the lines of a file in reverse order to another file",
  code: REWRITE("reverse"),
  expect: (a) => textLines(input(a)).length,
  leaves: (a) => rewritten(a, (ls) => ls.reverse()),
  asks: [
    {
      say: "write the lines of history/events.txt in reverse order to history/events-rev.txt",
      args: { path: "history/events.txt", out: "history/events-rev.txt" },
      files: { "history/events.txt": lines("1969 moon", "1989 wall", "2007 phone") },
    },
    {
      say: "I want queue/jobs.txt upside down (last line first) saved as queue/jobs-lifo.txt",
      args: { path: "queue/jobs.txt", out: "queue/jobs-lifo.txt" },
      files: { "queue/jobs.txt": lines("build", "test", "package", "upload") },
    },
    {
      say: "newest first please: copy changelog/entries.txt with its line order flipped into changelog/newest-first.txt",
      args: { path: "changelog/entries.txt", out: "changelog/newest-first.txt" },
      files: { "changelog/entries.txt": lines("0.1 first cut", "0.2 config file", "0.3 plugins") },
    },
    {
      say: "reverse the order of the rows in playlists/road.txt and save that to playlists/road-backwards.txt",
      args: { path: "playlists/road.txt", out: "playlists/road-backwards.txt" },
      files: { "playlists/road.txt": lines("Roadrunner", "Drive", "Highway Star", "Born to Run", "Kids") },
    },
  ],
};

const SORT_LINES: ReuseTask = {
  name: "files:sort_lines_into",
  intent: "write the lines of a file sorted alphabetically to another file",
  code: REWRITE("sort"),
  expect: (a) => textLines(input(a)).length,
  leaves: (a) => rewritten(a, (ls) => ls.sort()),
  asks: [
    {
      say: "write the lines of team/names.txt sorted alphabetically to team/names-sorted.txt",
      args: { path: "team/names.txt", out: "team/names-sorted.txt" },
      files: { "team/names.txt": lines("Mara", "Eli", "Tomas", "Aiko") },
    },
    {
      say: "alphabetize deps/list.txt into deps/list.sorted.txt",
      args: { path: "deps/list.txt", out: "deps/list.sorted.txt" },
      files: { "deps/list.txt": lines("zod", "react", "esbuild", "lodash", "biome") },
    },
    {
      say: "put the words in vocab/week3.txt in dictionary order, saved as vocab/week3-az.txt",
      args: { path: "vocab/week3.txt", out: "vocab/week3-az.txt" },
      files: { "vocab/week3.txt": lines("ubiquitous", "candid", "meander", "austere") },
    },
    {
      say: "A to Z: sort the cities in travel/visited.txt and write them into travel/visited-az.txt",
      args: { path: "travel/visited.txt", out: "travel/visited-az.txt" },
      files: { "travel/visited.txt": lines("Porto", "Kyoto", "Lima", "Oslo", "Cairo") },
    },
  ],
};

const LIST = 'const t = await mcp.filesystem.list_directory({ path: args.dir });\nconst entries = t.split("\\n");\n';

const TALLY_FILES: ReuseTask = {
  name: "dir:tally_plain_files",
  intent: "count the files (not folders) directly inside a directory",
  code: `${LIST}return entries.filter((l) => l.startsWith("[FILE] ")).length;`,
  expect: (a) => children(a).files.size,
  asks: [
    {
      say: "count the files (not folders) directly inside assets/icons",
      args: { dir: "assets/icons" },
      files: { "assets/icons/home.svg": "<svg/>", "assets/icons/user.svg": "<svg/>", "assets/icons/gear.svg": "<svg/>", "assets/icons/legacy/old.png": "png" },
    },
    {
      say: "how many files sit at the top of uploads/2026-12? subfolders don't count",
      args: { dir: "uploads/2026-12" },
      files: {
        "uploads/2026-12/a.pdf": "a",
        "uploads/2026-12/b.pdf": "b",
        "uploads/2026-12/thumbs/a.jpg": "ta",
        "uploads/2026-12/thumbs/b.jpg": "tb",
        "uploads/2026-12/raw/c.tif": "c",
      },
    },
    {
      say: "number of plain files in fixtures/images (ignore the directories in there)",
      args: { dir: "fixtures/images" },
      files: {
        "fixtures/images/cat.jpg": "c",
        "fixtures/images/dog.jpg": "d",
        "fixtures/images/big/cat@2x.jpg": "c2",
        "fixtures/images/small/cat@05x.jpg": "c5",
        "fixtures/images/notes.txt": "n",
      },
    },
    {
      say: "how many docs are loose in inbox/scans? don't count folders",
      args: { dir: "inbox/scans" },
      files: { "inbox/scans/tax-2025.pdf": "t", "inbox/scans/done/lease.pdf": "l", "inbox/scans/done/id.pdf": "i" },
    },
  ],
};

const NAME_SUBFOLDERS: ReuseTask = {
  name: "dir:name_subfolders",
  intent: "list the names of the subfolders of a directory, sorted",
  code: `${LIST}return entries.filter((l) => l.startsWith("[DIR] ")).map((l) => l.slice(6)).sort();`,
  expect: (a) => [...children(a).dirs].sort(),
  asks: [
    {
      say: "list the names of the subfolders of services, sorted",
      args: { dir: "services" },
      files: { "services/billing/main.go": "package main", "services/auth/main.go": "package main", "services/README.md": "# services", "services/search/index.ts": "export {};" },
    },
    {
      say: "which folders are inside apps? alphabetical",
      args: { dir: "apps" },
      files: { "apps/web/package.json": "{}", "apps/mobile/package.json": "{}", "apps/admin/package.json": "{}", "apps/.nvmrc": "20" },
    },
    {
      say: "what sub-directories does themes have, a-z, no files",
      args: { dir: "themes" },
      files: { "themes/solarized/theme.css": "a{}", "themes/dracula/theme.css": "b{}", "themes/index.json": "[]" },
    },
    {
      say: "name the directories right under clients/archive, sorted",
      args: { dir: "clients/archive" },
      files: {
        "clients/archive/2024/acme.txt": "acme",
        "clients/archive/2023/globex.txt": "globex",
        "clients/archive/2025/initech.txt": "initech",
        "clients/archive/index.txt": "3 years",
      },
    },
  ],
};

const README_STUB: ReuseTask = {
  name: "scaffold:plant_readme_stub",
  intent: "create a folder and put a README.md in it whose first line is '# <title>'",
  code: `await mcp.filesystem.create_directory({ path: args.dir });
const path = args.dir + "/README.md";
await mcp.filesystem.write_file({ path, content: "# " + args.title + "\\n" });
return path;`,
  expect: (a) => `${a.args.dir as string}/README.md`,
  leaves: (a) => ({ [`${a.args.dir as string}/README.md`]: `# ${a.args.title as string}\n` }),
  asks: [
    { say: "create a folder tools/linter and put a README.md in it titled 'Linter'", args: { dir: "tools/linter", title: "Linter" } },
    { say: "start a new docs/adr dir with a readme headed 'Architecture decisions'", args: { dir: "docs/adr", title: "Architecture decisions" } },
    { say: "make packages/ui-kit with a README whose heading is 'UI kit'", args: { dir: "packages/ui-kit", title: "UI kit" } },
    { say: "new folder examples/hello-world, readme title 'Hello world'", args: { dir: "examples/hello-world", title: "Hello world" } },
  ],
};

const SNAKE: ReuseTask = {
  name: "text:snake_from_camel",
  intent: "turn a camelCase identifier into snake_case",
  code: String.raw`return args.name.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());`,
  expect: (a) => (a.args.name as string).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
  asks: [
    { say: "turn userAccountId into snake_case", args: { name: "userAccountId" } },
    { say: "what's createdAt as a python-style name", args: { name: "createdAt" } },
    { say: "db column name for maxRetryCount please (lowercase with underscores)", args: { name: "maxRetryCount" } },
    { say: "convert isEmailVerified to snake", args: { name: "isEmailVerified" } },
  ],
};

const CAMEL: ReuseTask = {
  name: "text:camel_from_snake",
  intent: "turn a snake_case identifier into camelCase",
  code: String.raw`return args.name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());`,
  expect: (a) => (a.args.name as string).replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
  asks: [
    { say: "turn order_total_cents into camelCase", args: { name: "order_total_cents" } },
    { say: "what's last_login_at as a JS property name", args: { name: "last_login_at" } },
    { say: "make http_status_code lowerCamel for the TS type", args: { name: "http_status_code" } },
    { say: "is_feature_enabled, but the way a java getter field would be spelled", args: { name: "is_feature_enabled" } },
  ],
};

const KEEP_LINES: ReuseTask = {
  name: "logs:keep_lines_with",
  intent: "return the lines of a file that contain a given text",
  code: `${READ}return t.split("\\n").filter((l) => l.includes(args.needle));`,
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l) => l.includes(a.args.needle as string)),
  asks: [
    {
      say: "return the lines of logs/api.log that contain ERROR",
      args: { path: "logs/api.log", needle: "ERROR" },
      files: { "logs/api.log": lines("INFO boot", "ERROR db refused", "INFO retry", "ERROR db refused again", "INFO up") },
    },
    {
      say: "grep 'timeout' in logs/gateway.log",
      args: { path: "logs/gateway.log", needle: "timeout" },
      files: { "logs/gateway.log": lines("GET /a 200", "GET /b 504 upstream timeout", "GET /c 200", "POST /d 504 read timeout") },
    },
    {
      say: "which lines in deploy/output.txt mention WARN?",
      args: { path: "deploy/output.txt", needle: "WARN" },
      files: { "deploy/output.txt": lines("step 1 ok", "WARN disk 85%", "step 2 ok", "", "WARN cert expires in 9 days") },
    },
    {
      say: "show only the rows of crm/contacts.txt that have @acme.io in them",
      args: { path: "crm/contacts.txt", needle: "@acme.io" },
      files: { "crm/contacts.txt": lines("Ana ana@acme.io", "Bo bo@globex.com", "Chen chen@acme.io", "Dara dara@initech.net") },
    },
  ],
};

const DROP_LINES: ReuseTask = {
  name: "logs:drop_lines_with",
  intent: "return the non-empty lines of a file that do not contain a given text",
  code: `${READ}return t.split("\\n").filter((l) => l.trim() !== "" && !l.includes(args.needle));`,
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.includes(a.args.needle as string)),
  asks: [
    {
      say: "return the non-empty lines of logs/app.log that do not contain DEBUG",
      args: { path: "logs/app.log", needle: "DEBUG" },
      files: { "logs/app.log": lines("DEBUG cfg loaded", "INFO listening :80", "DEBUG tick", "", "WARN slow request") },
    },
    {
      say: "filter out every line with healthcheck from logs/access.log and show me the rest",
      args: { path: "logs/access.log", needle: "healthcheck" },
      files: { "logs/access.log": lines("GET /healthcheck 200", "GET /login 200", "GET /healthcheck 200", "POST /cart 201") },
    },
    {
      say: "grep -v INFO on logs/batch.log, blank lines skipped",
      args: { path: "logs/batch.log", needle: "INFO" },
      files: { "logs/batch.log": lines("INFO start", "ERROR row 17 bad date", "INFO row 18", "", "ERROR row 40 missing id", "INFO end") },
    },
    {
      say: "hide the lines of todo/list.txt that say done, what's left?",
      args: { path: "todo/list.txt", needle: "done" },
      files: { "todo/list.txt": lines("buy milk - done", "call bank", "fix bike - done", "book flights") },
    },
  ],
};

export const BLIND_5_TASKS: readonly ReuseTask[] = [
  PEEK_HEAD,
  PEEK_TAIL,
  TOP_KEYS,
  TOP_VALUES,
  RANK_UP,
  RANK_DOWN,
  TALLY_WORDS,
  TALLY_CHARS,
  SHIFT_FORWARD,
  SHIFT_BACK,
  TOTAL_COLUMN,
  PEAK_COLUMN,
  SPLICE_PAIR,
  FLIP_LINES,
  SORT_LINES,
  TALLY_FILES,
  NAME_SUBFOLDERS,
  README_STUB,
  SNAKE,
  CAMEL,
  KEEP_LINES,
  DROP_LINES,
];
