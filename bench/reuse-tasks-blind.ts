// A third task stream for bench/reuse.ts (`--tasks blind`), written blind on 2026-11-27 by a helper
// that saw the rules of the streams (bench/reuse-tasks.ts's types and one example task) but not
// pml's ranking, its other streams' requests, or the changes being judged. Nothing is tuned on it:
// bench/reuse.ts never prints its requests (no misses, no --records, no --verbose).
import { csvColumn, input, lines, type ReuseTask, round2 } from "./reuse-tasks.ts";

const js = (...ls: string[]) => ls.join("\n");
const READ = "const t = await mcp.filesystem.read_file({ path: args.path });";
const READ_COLUMN = js(READ, "const [h, ...rows] = t.trim().split('\\n').map((l) => l.split(','));", "const xs = rows.map((r) => Number(r[h.indexOf(args.column)]));");
/** Rows of a text, without the empty piece after a final newline. */
const rowsOf = (t: string) => {
  const ls = t.split("\n");
  if (t.endsWith("\n")) ls.pop();
  return ls;
};

const RESULTS = lines("name,score", "Ana,71", "Bo,58", "Chen,93", "Dara,64");
const APP_LOG = lines("10:00 INFO boot", "10:02 ERROR db timeout", "10:05 INFO retry", "10:07 ERROR disk full");
const MEETINGS = lines("Jan 5: hiring plan", "Jan 12: budget draft", "Feb 2: budget approved", "Feb 9: offsite");

const MIN_CSV: ReuseTask = {
  name: "fs:min_csv_column",
  intent: "find the smallest value in a column of a CSV file",
  code: js(READ_COLUMN, "return Math.min(...xs);"),
  expect: (a) => Math.min(...csvColumn(a)),
  asks: [
    {
      say: "find the smallest value in the price column of shop/prices.csv",
      args: { path: "shop/prices.csv", column: "price" },
      files: { "shop/prices.csv": lines("item,price,qty", "pen,1.5,10", "mug,6,2", "tape,0.9,4", "book,12,1") },
    },
    {
      say: "what was the coldest reading in weather/march.csv? it's the temp column",
      args: { path: "weather/march.csv", column: "temp" },
      files: { "weather/march.csv": lines("day,temp,rain", "1,4.5,0", "2,-1.5,3", "3,2,1", "4,-0.5,0") },
    },
    { say: "lowest score in class/results.csv please (column: score)", args: { path: "class/results.csv", column: "score" }, files: { "class/results.csv": RESULTS } },
    {
      say: "We're hunting for a cheap trip. Which fare is the cheapest one in travel/fares.csv? Look at the fare column.",
      args: { path: "travel/fares.csv", column: "fare" },
      files: { "travel/fares.csv": lines("route,fare,stops", "LIS-MAD,89,0", "LIS-PAR,120,1", "LIS-ROM,76,1", "LIS-BER,140,0") },
    },
  ],
};

const CSV_RANGE: ReuseTask = {
  name: "fs:csv_column_range",
  intent: "compute the range (largest minus smallest value) of a column in a CSV file",
  code: js(READ_COLUMN, "return Math.max(...xs) - Math.min(...xs);"),
  expect: (a) => Math.max(...csvColumn(a)) - Math.min(...csvColumn(a)),
  asks: [
    {
      say: "compute the range, largest minus smallest, of the temp column in weather/april.csv",
      args: { path: "weather/april.csv", column: "temp" },
      files: { "weather/april.csv": lines("day,temp", "1,12", "2,17.5", "3,9", "4,14") },
    },
    { say: "how far apart are the best and the worst score in class/results.csv?", args: { path: "class/results.csv", column: "score" }, files: { "class/results.csv": RESULTS } },
    {
      say: "what's the spread between the cheapest and the priciest thing in shop/stock.csv, going by price?",
      args: { path: "shop/stock.csv", column: "price" },
      files: { "shop/stock.csv": lines("item,price", "cable,8", "lamp,35", "bulb,3.25", "fan,49") },
    },
    {
      say: "gap between my busiest and laziest day in health/steps.csv (steps column)?",
      args: { path: "health/steps.csv", column: "steps" },
      files: { "health/steps.csv": lines("day,steps", "mon,8200", "tue,4300", "wed,11050", "thu,6000") },
    },
  ],
};

const COUNT_SENTENCES: ReuseTask = {
  name: "fs:count_sentences",
  intent: "count the sentences in a text file",
  code: js(READ, "return t.split(/[.!?]+/).filter((s) => s.trim() !== '').length;"),
  expect: (a) =>
    input(a)
      .split(/[.!?]+/)
      .filter((s) => s.trim() !== "").length,
  asks: [
    {
      say: "count the sentences in docs/intro.txt",
      args: { path: "docs/intro.txt" },
      files: { "docs/intro.txt": lines("Welcome to the project. It parses logs!", "Does it scale? Yes.") },
    },
    {
      say: "my teacher caps the summary at 5 sentences, did I stay under? how many are in school/summary.txt",
      args: { path: "school/summary.txt" },
      files: {
        "school/summary.txt": lines(
          "The river floods in spring. Farmers plant after the water goes down.",
          "Rice grows well there. Fish are caught too! Is this still true today?",
        ),
      },
    },
    {
      say: "split reviews/cafe.txt into statements ending in . ! or ? and tell me how many there are",
      args: { path: "reviews/cafe.txt" },
      files: { "reviews/cafe.txt": lines("Great coffee! The cake was dry.", "Staff were kind. Would I come back? Maybe.") },
    },
    {
      say: "how many separate statements make up the paragraph in story/opening.txt?",
      args: { path: "story/opening.txt" },
      files: { "story/opening.txt": lines("It was late. The rain kept falling and nobody came.") },
    },
  ],
};

const FIRST_MATCH: ReuseTask = {
  name: "fs:first_matching_line",
  intent: "return the first line of a text file that contains a given word",
  code: js(READ, "return t.split('\\n').find((l) => l.includes(args.word)) ?? null;"),
  expect: (a) =>
    input(a)
      .split("\n")
      .find((l) => l.includes(a.args.word as string)) ?? null,
  asks: [
    { say: "return the first line of logs/app.log that contains ERROR", args: { path: "logs/app.log", word: "ERROR" }, files: { "logs/app.log": APP_LOG } },
    {
      say: "when did the server start complaining? show me the earliest WARN entry in logs/server.log",
      args: { path: "logs/server.log", word: "WARN" },
      files: { "logs/server.log": lines("08:00 INFO up", "08:15 WARN slow query", "09:40 WARN high memory", "10:00 INFO ok") },
    },
    { say: "in notes/meetings.txt, which is the top-most row mentioning budget?", args: { path: "notes/meetings.txt", word: "budget" }, files: { "notes/meetings.txt": MEETINGS } },
    {
      say: "grab me the oldest deploy entry from ops/history.txt",
      args: { path: "ops/history.txt", word: "deploy" },
      files: { "ops/history.txt": lines("mon: deploy v1.2", "tue: rollback", "wed: deploy v1.3", "thu: quiet") },
    },
  ],
};

const LAST_MATCH: ReuseTask = {
  name: "fs:last_matching_line",
  intent: "return the last line of a text file that contains a given word",
  code: js(READ, "const m = t.split('\\n').filter((l) => l.includes(args.word));", "return m.length ? m[m.length - 1] : null;"),
  expect: (a) =>
    input(a)
      .split("\n")
      .filter((l) => l.includes(a.args.word as string))
      .at(-1) ?? null,
  asks: [
    { say: "return the last line of logs/app.log that contains INFO", args: { path: "logs/app.log", word: "INFO" }, files: { "logs/app.log": APP_LOG } },
    {
      say: "what's the most recent ERROR in logs/worker.log?",
      args: { path: "logs/worker.log", word: "ERROR" },
      files: { "logs/worker.log": lines("07:00 ERROR queue full", "07:30 INFO drained", "08:10 ERROR bad payload", "08:20 INFO idle") },
    },
    {
      say: "scroll to the bottom of notes/meetings.txt for me: which entry talks about budget most recently?",
      args: { path: "notes/meetings.txt", word: "budget" },
      files: { "notes/meetings.txt": MEETINGS },
    },
    {
      say: "latest ticket that mentions a refund in support/tickets.txt?",
      args: { path: "support/tickets.txt", word: "refund" },
      files: { "support/tickets.txt": lines("#101 refund asked", "#102 login issue", "#103 refund sent", "#104 thanks") },
    },
  ],
};

const copyCode = (how: string) => js(READ, `await mcp.filesystem.write_file({ path: args.dest, content: t.${how}() });`, "return args.dest;");

const UPPERCASE_FILE: ReuseTask = {
  name: "fs:uppercase_file",
  intent: "write an upper-case copy of a text file to another path",
  code: copyCode("toUpperCase"),
  expect: (a) => a.args.dest,
  leaves: (a) => ({ [a.args.dest as string]: input(a).toUpperCase() }),
  asks: [
    {
      say: "write an upper-case copy of notes/shout.txt to notes/shout_upper.txt",
      args: { path: "notes/shout.txt", dest: "notes/shout_upper.txt" },
      files: { "notes/shout.txt": lines("stop the build", "call me") },
    },
    {
      say: "make the sign in signs/door.txt all caps and save it as signs/door_caps.txt",
      args: { path: "signs/door.txt", dest: "signs/door_caps.txt" },
      files: { "signs/door.txt": lines("closed on sundays", "back at 9") },
    },
    {
      say: "I need labels/boxes.txt in capital letters for printing; put the result in labels/boxes_print.txt",
      args: { path: "labels/boxes.txt", dest: "labels/boxes_print.txt" },
      files: { "labels/boxes.txt": lines("kitchen - fragile", "books", "winter clothes") },
    },
    {
      say: "turn headers/title.txt into SHOUTING text -> headers/title_loud.txt",
      args: { path: "headers/title.txt", dest: "headers/title_loud.txt" },
      files: { "headers/title.txt": lines("annual report 2024") },
    },
  ],
};

const LOWERCASE_FILE: ReuseTask = {
  name: "fs:lowercase_file",
  intent: "write a lower-case copy of a text file to another path",
  code: copyCode("toLowerCase"),
  expect: (a) => a.args.dest,
  leaves: (a) => ({ [a.args.dest as string]: input(a).toLowerCase() }),
  asks: [
    {
      say: "write a lower-case copy of data/codes.txt to data/codes_lower.txt",
      args: { path: "data/codes.txt", dest: "data/codes_lower.txt" },
      files: { "data/codes.txt": lines("AB-12", "Cd-34", "EF-56") },
    },
    {
      say: "emails/list.txt has random caps in it; save a version without any capitals at emails/list_clean.txt",
      args: { path: "emails/list.txt", dest: "emails/list_clean.txt" },
      files: { "emails/list.txt": lines("Ana@Mail.com", "BO@EXAMPLE.ORG", "chen@site.io") },
    },
    {
      say: "signs/warning.txt is yelling at people. tone it down to small letters and write it to signs/warning_soft.txt",
      args: { path: "signs/warning.txt", dest: "signs/warning_soft.txt" },
      files: { "signs/warning.txt": lines("DO NOT ENTER", "WET FLOOR") },
    },
    {
      say: "normalise the casing of tags/raw.txt (no uppercase at all) into tags/normal.txt",
      args: { path: "tags/raw.txt", dest: "tags/normal.txt" },
      files: { "tags/raw.txt": lines("TypeScript", "NodeJS", "BUN") },
    },
  ],
};

const COUNT_BLANK: ReuseTask = {
  name: "fs:count_blank_lines",
  intent: "count the blank lines in a text file",
  code: js(READ, "const ls = t.split('\\n');", "if (t.endsWith('\\n')) ls.pop();", "return ls.filter((l) => l.trim() === '').length;"),
  expect: (a) => rowsOf(input(a)).filter((l) => l.trim() === "").length,
  asks: [
    { say: "count the blank lines in drafts/poem.txt", args: { path: "drafts/poem.txt" }, files: { "drafts/poem.txt": lines("roses", "", "violets", "", "", "sugar") } },
    { say: "how many empty rows are there in data/export.txt?", args: { path: "data/export.txt" }, files: { "data/export.txt": lines("a", "b", "", "c", "", "d") } },
    {
      say: "tell me how many rows in letters/cover.txt have nothing on them (or only spaces)",
      args: { path: "letters/cover.txt" },
      files: { "letters/cover.txt": lines("Dear team,", "", "I am applying.", "  ", "Best,", "Ana") },
    },
    {
      say: "readme/notes.md: how many spacer rows sit between the paragraphs?",
      args: { path: "readme/notes.md" },
      files: { "readme/notes.md": lines("# Notes", "", "First.", "", "Second.", "", "Third.") },
    },
  ],
};

const NESTED_JSON: ReuseTask = {
  name: "fs:read_nested_json_field",
  intent: "read a nested value from a JSON file by a dotted path such as a.b.c",
  code: js(READ, "let v = JSON.parse(t);", "for (const k of args.field.split('.')) v = v?.[k];", "return v ?? null;"),
  expect: (a) => (a.args.field as string).split(".").reduce((v: any, k) => v?.[k], JSON.parse(input(a))) ?? null,
  asks: [
    {
      say: "read the nested value db.port from config/app.json",
      args: { path: "config/app.json", field: "db.port" },
      files: { "config/app.json": '{"db":{"host":"localhost","port":5432},"debug":false}\n' },
    },
    {
      say: "which host does config/prod.json point the database at? (it's under db.host)",
      args: { path: "config/prod.json", field: "db.host" },
      files: { "config/prod.json": '{"db":{"host":"db.internal","port":6432},"cache":{"ttl":300}}\n' },
    },
    {
      say: "in settings/ui.json, what is theme.colors.primary set to?",
      args: { path: "settings/ui.json", field: "theme.colors.primary" },
      files: { "settings/ui.json": '{"theme":{"colors":{"primary":"#0055ff","accent":"#ff9900"},"font":"Inter"}}\n' },
    },
    {
      say: "what retry limit did we configure in services/api.json? should be http.retry.max",
      args: { path: "services/api.json", field: "http.retry.max" },
      files: { "services/api.json": '{"http":{"timeout":30,"retry":{"max":4,"delay":250}}}\n' },
    },
  ],
};

const SHORTEST_LINE: ReuseTask = {
  name: "fs:shortest_line",
  intent: "return the shortest non-empty line of a text file",
  code: js(READ, "const ls = t.split('\\n').filter((l) => l.trim() !== '');", "return ls.reduce((a, b) => (b.length < a.length ? b : a));"),
  expect: (a) => {
    const ls = input(a)
      .split("\n")
      .filter((l) => l.trim() !== "");
    return ls.reduce((x, y) => (y.length < x.length ? y : x));
  },
  asks: [
    { say: "return the shortest non-empty line of words/list.txt", args: { path: "words/list.txt" }, files: { "words/list.txt": lines("banana", "fig", "cherry", "", "apple") } },
    { say: "which entry in team/names.txt is the briefest?", args: { path: "team/names.txt" }, files: { "team/names.txt": lines("Alexandra", "Bo", "Christopher", "Dana") } },
    {
      say: "find the tiniest row in quotes/lines.txt",
      args: { path: "quotes/lines.txt" },
      files: { "quotes/lines.txt": lines("Less is more.", "Be kind.", "Stay hungry, stay foolish.") },
    },
    {
      say: "of the commit messages in git/messages.txt, which one has the fewest characters?",
      args: { path: "git/messages.txt" },
      files: { "git/messages.txt": lines("fix typo in readme", "add tests", "refactor the parser module") },
    },
  ],
};

const SECONDS_TO_MINUTES: ReuseTask = {
  name: "util:seconds_to_minutes",
  intent: "convert a number of seconds to minutes",
  code: "return args.seconds / 60;",
  expect: (a) => (a.args.seconds as number) / 60,
  asks: [
    { say: "convert 150 seconds to minutes", args: { seconds: 150 } },
    { say: "my run took 1290 s, what's that in min?", args: { seconds: 1290 } },
    { say: "the clip lasts 45 s; what fraction of a minute is that?", args: { seconds: 45 } },
    { say: "timer says 3600 sec. how long is that on the clock's minute hand?", args: { seconds: 3600 } },
  ],
};

const HOURS_TO_MINUTES: ReuseTask = {
  name: "util:hours_to_minutes",
  intent: "convert a number of hours to minutes",
  code: "return args.hours * 60;",
  expect: (a) => (a.args.hours as number) * 60,
  asks: [
    { say: "convert 2.5 hours to minutes", args: { hours: 2.5 } },
    { say: "the flight is 7.25 h long, how many min is that?", args: { hours: 7.25 } },
    { say: "a 1.75 hr workshop runs for how many mins?", args: { hours: 1.75 } },
    { say: "we billed 0.4 hrs on the ticket; express that in minutes", args: { hours: 0.4 } },
  ],
};

const SIMPLE_INTEREST: ReuseTask = {
  name: "util:simple_interest",
  intent: "compute the simple interest earned on a principal at a yearly percent rate over a number of years",
  code: "return Math.round(args.principal * args.rate * args.years) / 100;",
  expect: (a) => round2(((a.args.principal as number) * (a.args.rate as number) * (a.args.years as number)) / 100),
  asks: [
    { say: "compute the simple interest on 1000 at 5% a year for 3 years", args: { principal: 1000, rate: 5, years: 3 } },
    { say: "I lend my brother 2500 at 4 percent per year, no compounding, for 2 years. How much does he owe me on top?", args: { principal: 2500, rate: 4, years: 2 } },
    { say: "flat-rate loan: 12000 borrowed, 3.5% annually, 5 yrs. what's the total charge beyond what was borrowed?", args: { principal: 12000, rate: 3.5, years: 5 } },
    { say: "a non-compounding deposit of 800 at 2.25% for 18 months (1.5 years): what does it earn?", args: { principal: 800, rate: 2.25, years: 1.5 } },
  ],
};

const LCM: ReuseTask = {
  name: "util:least_common_multiple",
  intent: "compute the least common multiple of two integers",
  code: "const g = (x, y) => (y ? g(y, x % y) : x);\nreturn (args.a / g(args.a, args.b)) * args.b;",
  expect: (a) => {
    const [x, y] = [a.args.a as number, a.args.b as number];
    let m = Math.max(x, y);
    while (m % x !== 0 || m % y !== 0) m++;
    return m;
  },
  asks: [
    { say: "compute the least common multiple of 4 and 6", args: { a: 4, b: 6 } },
    { say: "two buses leave every 12 and 18 minutes; after how many minutes do they leave together again?", args: { a: 12, b: 18 } },
    { say: "what's the smallest number that both 21 and 6 divide into evenly?", args: { a: 21, b: 6 } },
    { say: "lcm(8, 15)?", args: { a: 8, b: 15 } },
  ],
};

const COUNT_CONSONANTS: ReuseTask = {
  name: "transform:count_consonants",
  intent: "count the consonants in a piece of text",
  code: "return (args.text.match(/[a-z]/gi) || []).filter((c) => !'aeiou'.includes(c.toLowerCase())).length;",
  expect: (a) => [...(a.args.text as string).toLowerCase()].filter((c) => c >= "a" && c <= "z" && !"aeiou".includes(c)).length,
  asks: [
    { say: "count the consonants in 'hello world'", args: { text: "hello world" } },
    { say: "how many letters that aren't vowels are in 'Strength'?", args: { text: "Strength" } },
    { say: "non-vowel letters in 'Open Source Software', how many?", args: { text: "Open Source Software" } },
    { say: "for a tongue twister game: how many of the letters in 'big black bug' are not a/e/i/o/u?", args: { text: "big black bug" } },
  ],
};

export const BLIND_TASKS: readonly ReuseTask[] = [
  MIN_CSV,
  CSV_RANGE,
  COUNT_SENTENCES,
  FIRST_MATCH,
  LAST_MATCH,
  UPPERCASE_FILE,
  LOWERCASE_FILE,
  COUNT_BLANK,
  NESTED_JSON,
  SHORTEST_LINE,
  SECONDS_TO_MINUTES,
  HOURS_TO_MINUTES,
  SIMPLE_INTEREST,
  LCM,
  COUNT_CONSONANTS,
];
