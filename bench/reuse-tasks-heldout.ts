// A second task stream for bench/reuse.ts (`--tasks heldout`), written before the changes it judges
// and apart from the first set (bench/reuse-tasks.ts): other tasks, other files, the same rules.
// For each task, the name and intent an agent gives when it first solves it, its code, the critic
// and the requests: the first one, then 2-3 repeats written as a user would ask, avoiding the
// intent's words, with other inputs. Near-twins, inside this set and against the first one's
// kind of tasks (characters vs bytes, last N lines vs first N, largest vs sum, mean vs median,
// snake to camel vs camel to snake, kilometers vs meters), are there so that a wrong reuse can happen.
import { csv, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const COUNT_CHARS: ReuseTask = {
  name: "fs:count_characters",
  intent: "count the characters in a text file",
  code: "const t = await mcp.filesystem.read_file({ path: args.path });\nreturn [...t].length;",
  expect: (a) => [...input(a)].length,
  asks: [
    {
      say: "count the characters in essay/draft.txt",
      args: { path: "essay/draft.txt" },
      files: { "essay/draft.txt": lines("Memory makes agents cheaper.", "Reuse is the point.") },
    },
    {
      say: "tweet.txt has to stay under 280: how long is it, letters, spaces and all?",
      args: { path: "social/tweet.txt" },
      files: { "social/tweet.txt": "Café opening today — come by for a crème brûlée!\n" },
    },
    {
      say: "what is the length of sms/reply.txt measured in symbols?",
      args: { path: "sms/reply.txt" },
      files: { "sms/reply.txt": "On my way, see you at 7 ☺\n" },
    },
  ],
};

const LONGEST_LINE: ReuseTask = {
  name: "fs:longest_line",
  intent: "find the longest line of a file",
  code: 'const ls = (await mcp.filesystem.read_file({ path: args.path })).split("\\n");\nreturn ls.reduce((best, l) => (l.length > best.length ? l : best), "");',
  expect: (a) =>
    input(a)
      .split("\n")
      .reduce((best, l) => (l.length > best.length ? l : best), ""),
  asks: [
    {
      say: "find the longest line in scripts/setup.sh",
      args: { path: "scripts/setup.sh" },
      files: { "scripts/setup.sh": lines("set -e", "apt-get install -y curl git build-essential", "echo done") },
    },
    {
      say: "which row of poems/haiku.txt stretches the widest?",
      args: { path: "poems/haiku.txt" },
      files: { "poems/haiku.txt": lines("an old silent pond", "a frog jumps into the pond", "splash! silence again") },
    },
    {
      say: "in menu.txt, what entry has the most characters?",
      args: { path: "cafe/menu.txt" },
      files: { "cafe/menu.txt": lines("tea", "espresso", "oat milk flat white with cinnamon", "scone") },
    },
  ],
};

const TAIL_LINES: ReuseTask = {
  name: "fs:tail_lines",
  intent: "show the last N lines of a file",
  code: 'const ls = (await mcp.filesystem.read_file({ path: args.path })).split("\\n").filter((l) => l !== "");\nreturn ls.slice(-args.n);',
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l) => l !== "")
      .slice(-(a.args.n as number)),
  asks: [
    {
      say: "show the last 3 lines of logs/app.log",
      args: { path: "logs/app.log", n: 3 },
      files: { "logs/app.log": lines("boot", "load config", "listen :80", "request /", "shutdown") },
    },
    {
      say: "what are the 2 most recent entries at the bottom of audit.txt?",
      args: { path: "security/audit.txt", n: 2 },
      files: { "security/audit.txt": lines("ana login", "bo login", "ana sudo", "bo logout") },
    },
    {
      say: "give me the final 4 rows of scores.txt",
      args: { path: "games/scores.txt", n: 4 },
      files: { "games/scores.txt": lines("10", "25", "13", "40", "7", "31") },
    },
  ],
};

const MAX_CSV: ReuseTask = {
  name: "fs:max_csv_column",
  intent: "find the largest value in a numeric column of a CSV file",
  code:
    'const [head, ...rows] = (await mcp.filesystem.read_file({ path: args.path })).trim().split("\\n").map((l) => l.split(","));\n' +
    "const i = head.indexOf(args.column);\nreturn Math.max(...rows.map((r) => Number(r[i])));",
  expect: (a) => {
    const [head, ...rows] = input(a)
      .trim()
      .split("\n")
      .map((l) => l.split(","));
    const i = head!.indexOf(a.args.column as string);
    return Math.max(...rows.map((r) => Number(r[i])));
  },
  asks: [
    {
      say: "find the largest value in the price column of shop/items.csv",
      args: { path: "shop/items.csv", column: "price" },
      files: {
        "shop/items.csv": csv("item,price", [
          ["pen", 2.5],
          ["lamp", 34],
          ["desk", 129.99],
        ]),
      },
    },
    {
      say: "what was the hottest reading in weather/july.csv (temp)?",
      args: { path: "weather/july.csv", column: "temp" },
      files: {
        "weather/july.csv": csv("day,temp", [
          [1, 28],
          [2, 33.5],
          [3, 31],
        ]),
      },
    },
    {
      say: "peak visitors in stats/traffic.csv, please",
      args: { path: "stats/traffic.csv", column: "visitors" },
      files: {
        "stats/traffic.csv": csv("week,visitors", [
          [1, 1200],
          [2, 1850],
          [3, 990],
          [4, 1730],
        ]),
      },
    },
  ],
};

const CSV_HEADER: ReuseTask = {
  name: "fs:csv_header",
  intent: "list the column names of a CSV file",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n")[0].split(",");',
  expect: (a) => input(a).split("\n")[0]!.split(","),
  asks: [
    { say: "list the column names of exports/users.csv", args: { path: "exports/users.csv" }, files: { "exports/users.csv": csv("id,email,created", [[1, "a@x", "2024-01-01"]]) } },
    {
      say: "what fields does sales/q3.csv have in its first row?",
      args: { path: "sales/q3.csv" },
      files: {
        "sales/q3.csv": csv("region,rep,amount,closed", [
          ["north", "ana", 100, "yes"],
          ["south", "bo", 80, "no"],
        ]),
      },
    },
    {
      say: "which headings does the spreadsheet data/survey.csv carry?",
      args: { path: "data/survey.csv" },
      files: { "data/survey.csv": csv("respondent,age,score", [["r1", 31, 4]]) },
    },
  ],
};

const COUNT_JSON_ITEMS: ReuseTask = {
  name: "fs:count_json_items",
  intent: "count the items in a JSON array file",
  code: "const a = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn a.length;",
  expect: (a) => JSON.parse(input(a)).length,
  asks: [
    { say: "count the items in data/orders.json", args: { path: "data/orders.json" }, files: { "data/orders.json": JSON.stringify([{ id: 1 }, { id: 2 }, { id: 3 }]) } },
    {
      say: "how many records does fixtures/people.json hold?",
      args: { path: "fixtures/people.json" },
      files: { "fixtures/people.json": JSON.stringify([{ n: "a" }, { n: "b" }, { n: "c" }, { n: "d" }, { n: "e" }]) },
    },
    {
      say: "tell me the length of the list stored in queue/jobs.json",
      args: { path: "queue/jobs.json" },
      files: { "queue/jobs.json": JSON.stringify(["build", "test"]) },
    },
  ],
};

const SET_JSON_FIELD: ReuseTask = {
  name: "fs:set_json_field",
  intent: "set one field of a JSON file to a new value",
  code:
    "const o = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\no[args.key] = args.value;\n" +
    "await mcp.filesystem.write_file({ path: args.path, content: JSON.stringify(o, null, 2) });\nreturn o;",
  expect: (a) => ({ ...JSON.parse(input(a)), [a.args.key as string]: a.args.value }),
  leaves: (a) => ({ [a.args.path as string]: JSON.stringify({ ...JSON.parse(input(a)), [a.args.key as string]: a.args.value }, null, 2) }),
  asks: [
    {
      say: "set the field mode in config/dev.json to debug",
      args: { path: "config/dev.json", key: "mode", value: "debug" },
      files: { "config/dev.json": JSON.stringify({ mode: "quiet", port: 3000 }) },
    },
    {
      say: "change the region in server/settings.json to eu-west-1",
      args: { path: "server/settings.json", key: "region", value: "eu-west-1" },
      files: { "server/settings.json": JSON.stringify({ host: "localhost", region: "us-east-1" }) },
    },
    {
      say: "update meta/release.json so that channel becomes stable",
      args: { path: "meta/release.json", key: "channel", value: "stable" },
      files: { "meta/release.json": JSON.stringify({ version: "1.0.0", channel: "beta" }) },
    },
  ],
};

const SORT_LINES: ReuseTask = {
  name: "fs:sort_lines",
  intent: "sort the lines of a file alphabetically",
  code: 'const ls = (await mcp.filesystem.read_file({ path: args.path })).split("\\n").filter((l) => l !== "");\nreturn ls.sort();',
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l) => l !== "")
      .sort(),
  asks: [
    { say: "sort the lines of people/names.txt alphabetically", args: { path: "people/names.txt" }, files: { "people/names.txt": lines("zoe", "adam", "maya") } },
    {
      say: "put the rows of travel/cities.txt in A to Z order",
      args: { path: "travel/cities.txt" },
      files: { "travel/cities.txt": lines("Rome", "Lima", "Oslo", "Cairo") },
    },
    {
      say: "give me glossary.txt ordered like a dictionary",
      args: { path: "docs/glossary.txt" },
      files: { "docs/glossary.txt": lines("token", "agent", "memory", "capability") },
    },
  ],
};

const KM_TO_MILES: ReuseTask = {
  name: "util:kilometers_to_miles",
  intent: "convert a distance in kilometers to miles",
  code: "return Math.round(args.km * 0.621371 * 100) / 100;",
  expect: (a) => round2((a.args.km as number) * 0.621371),
  asks: [
    { say: "convert 42 kilometers to miles", args: { km: 42 } },
    { say: "a 10k run is how far for a Brit or an American?", args: { km: 10 } },
    { say: "the road sign says 120 km; how much is that on a US odometer?", args: { km: 120 } },
  ],
};

const KG_TO_LB: ReuseTask = {
  name: "util:kilograms_to_pounds",
  intent: "convert a weight in kilograms to pounds",
  code: "return Math.round(args.kg * 2.20462 * 100) / 100;",
  expect: (a) => round2((a.args.kg as number) * 2.20462),
  asks: [
    { say: "convert 80 kilograms to pounds", args: { kg: 80 } },
    { say: "my suitcase is 23 kg; what does that come to in lbs?", args: { kg: 23 } },
    { say: "the baby is 4 kilos, tell me in imperial", args: { kg: 4 } },
  ],
};

const FACTORIAL: ReuseTask = {
  name: "util:factorial_of_number",
  intent: "compute the factorial of a whole number",
  code: "let r = 1;\nfor (let i = 2; i <= args.n; i++) r *= i;\nreturn r;",
  expect: (a) => {
    let r = 1;
    for (let i = 2; i <= (a.args.n as number); i++) r *= i;
    return r;
  },
  asks: [
    { say: "compute the factorial of 5", args: { n: 5 } },
    { say: "what's 10! ?", args: { n: 10 } },
    { say: "in how many orders can 7 people stand in a queue?", args: { n: 7 } },
  ],
};

const GCD: ReuseTask = {
  name: "util:greatest_common_divisor",
  intent: "greatest common divisor of two integers",
  code: "let a = Math.abs(args.a), b = Math.abs(args.b);\nwhile (b) [a, b] = [b, a % b];\nreturn a;",
  expect: (x) => {
    let a = Math.abs(x.args.a as number);
    let b = Math.abs(x.args.b as number);
    while (b) [a, b] = [b, a % b];
    return a;
  },
  asks: [
    { say: "greatest common divisor of 48 and 36", args: { a: 48, b: 36 } },
    { say: "what's the biggest number that divides both 84 and 120 evenly?", args: { a: 84, b: 120 } },
    { say: "to simplify 27/63, what factor do top and bottom share at most?", args: { a: 27, b: 63 } },
  ],
};

const REVERSE_WORDS: ReuseTask = {
  name: "transform:reverse_words",
  intent: "reverse the order of words in a sentence",
  code: 'return args.text.split(" ").filter(Boolean).reverse().join(" ");',
  expect: (a) => (a.args.text as string).split(" ").filter(Boolean).reverse().join(" "),
  asks: [
    { say: "reverse the order of words in 'the quick brown fox'", args: { text: "the quick brown fox" } },
    { say: "say 'one two three four' back to front, keeping each token intact", args: { text: "one two three four" } },
    { say: "flip 'blue is the sky' so that the last term comes first", args: { text: "blue is the sky" } },
  ],
};

const SNAKE_TO_CAMEL: ReuseTask = {
  name: "transform:snake_to_camel",
  intent: "convert a snake_case identifier to camelCase",
  code: "return args.text.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());",
  expect: (a) => (a.args.text as string).replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
  asks: [
    { say: "convert user_id_value to camelCase", args: { text: "user_id_value" } },
    { say: "what would max_retry_count look like in JavaScript naming style?", args: { text: "max_retry_count" } },
    { say: "rewrite http_status_code with humps instead of underscores", args: { text: "http_status_code" } },
  ],
};

const COUNT_VOWELS: ReuseTask = {
  name: "transform:count_vowels",
  intent: "count the vowels in a piece of text",
  code: "return (args.text.match(/[aeiou]/gi) ?? []).length;",
  expect: (a) => ((a.args.text as string).match(/[aeiou]/gi) ?? []).length,
  asks: [
    { say: "count the vowels in 'programming language'", args: { text: "programming language" } },
    { say: "how many of a, e, i, o, u appear in 'Mississippi river'?", args: { text: "Mississippi river" } },
    { say: "tally the a/e/i/o/u letters in 'procedural memory layer'", args: { text: "procedural memory layer" } },
  ],
};

const MEAN: ReuseTask = {
  name: "util:mean_of_numbers",
  intent: "average of a list of numbers",
  code: "return args.numbers.reduce((s, x) => s + x, 0) / args.numbers.length;",
  expect: (a) => (a.args.numbers as number[]).reduce((s, x) => s + x, 0) / (a.args.numbers as number[]).length,
  asks: [
    { say: "average of 3, 7, 8", args: { numbers: [3, 7, 8] } },
    { say: "what's the arithmetic mean of 10, 20, 35, 35?", args: { numbers: [10, 20, 35, 35] } },
    { say: "my test scores were 71, 88, 93 and 64; add them up and divide by how many there are", args: { numbers: [71, 88, 93, 64] } },
  ],
};

const COUNT_LINES_MATCHING: ReuseTask = {
  name: "fs:count_matching_lines",
  intent: "count the lines of a file that contain a given text",
  code: 'const t = await mcp.filesystem.read_file({ path: args.path });\nreturn t.split("\\n").filter((l) => l.includes(args.needle)).length;',
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l) => l.includes(a.args.needle as string)).length,
  asks: [
    {
      say: "count the lines of logs/nginx.log that contain 500",
      args: { path: "logs/nginx.log", needle: "500" },
      files: { "logs/nginx.log": lines("GET / 200", "GET /a 500", "GET /b 500", "GET /c 302") },
    },
    {
      say: "how often does WARN show up in logs/batch.log, row-wise?",
      args: { path: "logs/batch.log", needle: "WARN" },
      files: { "logs/batch.log": lines("INFO start", "WARN slow disk", "WARN slow disk", "WARN retry", "INFO end") },
    },
    {
      say: "in crm/leads.txt, on how many rows is Madrid mentioned?",
      args: { path: "crm/leads.txt", needle: "Madrid" },
      files: { "crm/leads.txt": lines("Ana, Madrid", "Bo, Lyon", "Chen, Madrid") },
    },
  ],
};

export const HELDOUT_TASKS: readonly ReuseTask[] = [
  COUNT_CHARS,
  LONGEST_LINE,
  TAIL_LINES,
  MAX_CSV,
  CSV_HEADER,
  COUNT_JSON_ITEMS,
  SET_JSON_FIELD,
  SORT_LINES,
  KM_TO_MILES,
  KG_TO_LB,
  FACTORIAL,
  GCD,
  REVERSE_WORDS,
  SNAKE_TO_CAMEL,
  COUNT_VOWELS,
  MEAN,
  COUNT_LINES_MATCHING,
];
