// A capability the request's data contradicts steps back (kind-fit.ts): the direction of a
// conversion read from the unit a number is in, and a file format read from a file's extension;
// a request's wanted answer and effect, and whether it names a file at all.
import { expect, test } from "bun:test";
import { changesThings } from "../../src/memory/search-docs.ts";
import { CapabilityWords } from "../../src/memory/capability-words.ts";
import { answerMisfits, type CapabilityFacts, capabilityKinds, misfits, requestKinds } from "../../src/memory/kind-fit.ts";
import { namedPaths } from "../../src/memory/named-paths.ts";

const CAPS: Array<[string, string]> = [
  ["util:celsius_to_fahrenheit", "convert a temperature from celsius to fahrenheit"],
  ["util:fahrenheit_to_celsius", "convert a temperature from fahrenheit to celsius"],
  ["util:convert_meters_to_feet", "convert a length in meters to feet"],
  ["util:feet_to_meters", "convert feet to meters"],
  ["transform:camel_to_snake", "convert a camelCase identifier to snake_case"],
  ["transform:snake_to_camel", "turn a snake_case name into camelCase"],
  ["fs:count_csv_rows", "count the data rows of a CSV file, without the header"],
  ["fs:count_lines", "count the non-empty lines in a text file"],
  ["fs:read_json_field", "read one field from a JSON file"],
  ["fs:csv_to_json", "convert a CSV file to JSON"],
  ["fs:lines_of_csv_or_text", "count lines of a csv or text file"],
  ["transform:wrap_text", "wrap text into lines of at most a given width"],
];

const facts = (name: string, text: string, returns: CapabilityFacts["returns"], changes = false): CapabilityFacts => ({ name, text, returns, changes });

/** The capabilities (of `among`, all by default) the request contradicts. */
const misfitsOf = (request: string, among: readonly string[] = CAPS.map(([n]) => n)) => {
  const kinds = requestKinds(request);
  return CAPS.filter(([name, intent]) => among.includes(name) && misfits(kinds, capabilityKinds(name, intent))).map(([name]) => name);
};
const TEMPERATURE = ["util:celsius_to_fahrenheit", "util:fahrenheit_to_celsius"];
const LENGTH = ["util:convert_meters_to_feet", "util:feet_to_meters"];
const CASE = ["transform:camel_to_snake", "transform:snake_to_camel"];
const FILES = CAPS.map(([n]) => n).filter((n) => !TEMPERATURE.includes(n) && !LENGTH.includes(n) && !CASE.includes(n));

test("a conversion that would start from the kind a request wants, or end at the kind its data is, misfits", () => {
  expect(misfitsOf("the forecast says 68 degrees F; how warm is that for a European?", TEMPERATURE)).toEqual(["util:celsius_to_fahrenheit"]);
  expect(misfitsOf("98.6 F in C", TEMPERATURE)).toEqual(["util:celsius_to_fahrenheit"]);
  expect(misfitsOf("what is -4 °C in fahrenheit", TEMPERATURE)).toEqual(["util:fahrenheit_to_celsius"]);
  expect(misfitsOf("how many feet is 3 meters", LENGTH)).toEqual(["util:feet_to_meters"]);
  expect(misfitsOf("a 6 ft door, in meters please", LENGTH)).toEqual(["util:convert_meters_to_feet"]);
  expect(misfitsOf("what would max_retry_count look like in camelCase?", CASE)).toEqual(["transform:camel_to_snake"]);
  expect(misfitsOf("turn getUserName into snake_case", CASE)).toEqual(["transform:snake_to_camel"]);
});

test("a conversion between other kinds altogether misfits a request that names kinds", () => {
  expect(misfitsOf("convert 42 kilometers to miles", [...TEMPERATURE, ...LENGTH, ...CASE])).toEqual([...TEMPERATURE, ...LENGTH, ...CASE]);
  // The other direction misfits too (the rule above).
  expect(misfitsOf("convert 212 fahrenheit to celsius")).toEqual(["util:celsius_to_fahrenheit", ...LENGTH, ...CASE, "fs:csv_to_json"]);
  expect(misfitsOf("what does config/app.json say the port is?", [...TEMPERATURE, ...CASE])).toEqual([...TEMPERATURE, ...CASE]);
  // Plain text names no kind worth converting: "notes.txt" alone turns no conversion away.
  expect(misfitsOf("tidy notes.txt", [...TEMPERATURE, ...LENGTH, ...CASE])).toEqual([]);
});

test("a measure converted from another unit misfits, times too; a unit only named, or an ordinal, converts nothing", () => {
  const caps: Array<[string, string]> = [
    ["util:hours_to_minutes", "convert a number of hours to minutes"],
    ["util:seconds_to_minutes", "convert seconds to minutes"],
    ["util:minutes_to_hours", "convert minutes to hours"],
  ];
  const misfitting = (request: string) => caps.filter(([n, t]) => misfits(requestKinds(request), capabilityKinds(n, t))).map(([n]) => n);
  expect(misfitting("how many minutes is 5400 seconds?")).toEqual(["util:hours_to_minutes", "util:minutes_to_hours"]);
  expect(misfitting("2.5 hrs in minutes")).toEqual(["util:seconds_to_minutes", "util:minutes_to_hours"]);
  expect(misfitting("convert 1 second to minutes")).toEqual(["util:hours_to_minutes", "util:minutes_to_hours"]);
  expect(requestKinds("convert 90 mins to hours").answer).toBe("number");
  // No number before the unit, or an ordinal: no measure to convert.
  expect(misfitting("show the second line of notes.txt")).toEqual([]);
  expect(misfitting("what is the min of 3, 5 and 1")).toEqual([]);
});

test("a capability about one file format misfits a request whose files are all of another", () => {
  expect(misfitsOf("guests.txt has a person on each row, how many people is that?")).toEqual(["fs:count_csv_rows", "fs:read_json_field", "fs:csv_to_json"]);
  expect(misfitsOf("what does config/app.json say the port is?", FILES)).toEqual(["fs:count_csv_rows", "fs:csv_to_json", "fs:lines_of_csv_or_text"]);
  expect(misfitsOf("turn data/people.csv into JSON", FILES)).toEqual(["fs:read_json_field"]);
  // "key=value" names a format (.ini, .properties): not a JSON file's, nor a log's.
  const keyValue = capabilityKinds("fs:read_config_value", "read a setting from a key=value config file");
  expect(
    ["read the name field from data/pet.json", "show me where ERROR shows up in logs/api.log", "read the setting timeout from conf/app.conf", "what is in settings.ini?"].map((r) =>
      misfits(requestKinds(r), keyValue),
    ),
  ).toEqual([true, true, false, false]);
});

test("what a request does not say contradicts nothing: no unit, no file, a letter that is no unit", () => {
  for (const request of ["reflow a paragraph so nothing runs past 80 characters", "a 10k run is how far for a Brit?", "count the lines"]) expect(misfitsOf(request)).toEqual([]);
  expect(requestKinds("grade: B, 5 m runs")).toMatchObject({ from: new Set(["meter"]), to: new Set() });
  expect(misfitsOf("how many rows in sales/q3.csv and notes.txt", FILES)).toEqual(["fs:read_json_field"]);
  // "in" a format says where, not what into: a CSV to JSON converter is not turned around by it.
  expect(misfitsOf("how many rows in CSV form does data.csv have", FILES)).toEqual(["fs:read_json_field"]);
  expect(requestKinds("is 10 km more than 6 miles?")).toMatchObject({ from: new Set(["km", "mile"]), to: new Set() });
  // A capability with no kinds, or no conversion, is never a misfit.
  expect(capabilityKinds("transform:wrap_text", "wrap text into lines of at most a given width")).toEqual({ all: new Set(["text"]) });
  expect(capabilityKinds("fs:copy_file", "copy a file to a new path")).toEqual({ all: new Set() });
});

test("a request for an amount misfits a capability whose every answer was something else, unless its words say it gives one", () => {
  const textOnly = facts("fs:last_line", "get the last non-empty line of a file", ["string"]);
  const listOnly = facts("fs:markdown_headings", "list the headings of a markdown document", ["array", "null"]);
  for (const request of [
    "count the non-empty lines in notes/todo.txt",
    "how many people are on guests.txt?",
    "the number of rows",
    "average of the temp column",
    // A number asked in other words, or a measure converted to another unit.
    "what's the mean grade in grades/class-b.csv?",
    "what is the length of sms/reply.txt measured in symbols?",
    "find the largest value in the price column of shop/items.csv",
    "how often does WARN show up in logs/batch.log?",
    "convert 25 celsius to fahrenheit",
    "my suitcase is 23 kg; what does that come to in lbs?",
  ]) {
    expect(requestKinds(request).answer).toBe("number");
    expect(answerMisfits(requestKinds(request), textOnly)).toBe(true);
    expect(answerMisfits(requestKinds(request), listOnly)).toBe(true);
  }
  const asked = requestKinds("how long is notes.txt, in lines?");
  // A number or an object (several amounts) fits; nothing returned yet contradicts nothing.
  expect(answerMisfits(asked, facts("fs:dedupe_lines", "remove duplicate lines from a file", ["number"]))).toBe(false);
  expect(answerMisfits(asked, facts("fs:file_stats", "lines and bytes of a file", ["object", "string"]))).toBe(false);
  expect(answerMisfits(asked, facts("fs:last_line", "get the last non-empty line of a file", []))).toBe(false);
  // Its words say it counts: a count given as text ("12 lines") is taken at its word.
  expect(answerMisfits(asked, facts("text:line_count", "count the lines of a text", ["string"]))).toBe(false);
  // Requests that ask for no amount, "sum up" among them, contradict no answer.
  // Nor does a change that names a length, nor a unit with no measure to convert.
  for (const request of [
    "sum up this article in two lines",
    "what does the changelog say about fixes?",
    "truncate descriptions to a length of 200 characters",
    "list the largest files under dist/ and delete them",
    "convert the recipe to metric",
  ]) {
    expect(requestKinds(request).answer).toBeUndefined();
    expect(answerMisfits(requestKinds(request), textOnly)).toBe(false);
  }
  // A lookup of lines, words or sentences themselves wants them, not their count.
  const counter = facts("fs:count_lines", "count the non-empty lines in a text file", ["number"]);
  for (const request of ["get the last non-empty line of logs/cron.log", "which lines of app.log mention ERROR?", "show the longest sentence of README.md"]) {
    expect(requestKinds(request).answer).toBe("string");
    expect([textOnly, counter].map((c) => answerMisfits(requestKinds(request), c))).toEqual([false, true]);
  }
  // Not a size in bytes, nor a change ("make every row of hosts.txt unique" may say how many went).
  expect(["how big is notes.txt in bytes?", "make every row of hosts.txt unique"].map((r) => requestKinds(r).answer)).toEqual(["number", undefined]);
});

test("a question or a lookup misfits a capability that changes things; a request for a change, or with a destination, does not", () => {
  const writes = facts("fs:dedupe_lines", "remove duplicate lines from a file", ["number"], true);
  const reads = facts("fs:read_text", "read a text file", []);
  for (const request of ["how many people are on guests.txt?", "get the last line of notes.txt", "which lines of app.log mention ERROR", "count the rows of a.csv"]) {
    expect(requestKinds(request).asksOnly).toBe(true);
    expect(answerMisfits(requestKinds(request), writes)).toBe(true);
    expect(answerMisfits(requestKinds(request), reads)).toBe(false);
  }
  for (const request of [
    "remove duplicate lines from tags.txt",
    "can you sort names.txt?",
    "emails.txt has repeats; clean them out and tell me how many went away",
    "make every row of hosts.txt unique",
  ]) {
    expect(requestKinds(request).asksOnly).toBeUndefined();
    expect(answerMisfits(requestKinds(request), writes)).toBe(false);
  }
  // A destination is no question either (the lines of a file do not fill vendor/: a folder rule).
  expect(requestKinds("fetch https://example.com/data.zip into vendor/").asksOnly).toBeUndefined();
  // A change word in the data or naming what is looked for asks for nothing; outside them it does.
  for (const request of [
    "pull out every entry of CHANGELOG.txt that talks about fix",
    "how many terms does 'please find attached the signed copy' have?",
    "which lines of src/remove-old.ts mention TODO",
    "list the lines mentioning delete in app.log",
  ])
    expect(requestKinds(request).asksOnly).toBe(true);
  for (const request of ["replace 'foo' with 'bar' in x.txt", "remove the lines that mention delete from a.txt", "can you sort names.txt?"])
    expect(requestKinds(request).asksOnly).toBeUndefined();
  // What a tool's annotations say: an open-world tool (a shell) may do anything, so it says nothing.
  expect(changesThings({ destructiveHint: true })).toBe(true);
  expect(changesThings({ readOnlyHint: false })).toBe(true);
  expect(changesThings({ readOnlyHint: true })).toBe(false);
  expect(changesThings(undefined)).toBe(false);
  expect(changesThings({ destructiveHint: true, openWorldHint: true })).toBe(false);
});

test("a file is named by its extension, a folder by a trailing slash or a path of words after in/under/of; units, fractions and URLs are neither", () => {
  const files: Array<[string, number, number]> = [
    ["count the words in drafts/intro.md", 1, 0],
    ["which python scripts live somewhere in tools/?", 0, 1],
    ["how much unfinished work is flagged in the code of app/auth?", 0, 1],
    ["how many things sit right at the top of photos/2024?", 0, 1],
    ["append the line 'call dentist' to todo/work.txt", 1, 0],
    ["read package.json.", 1, 0],
    ["the (config.yaml) file", 1, 0],
    ["copy notes.txt into backup/", 1, 1],
    ["what is DB_HOST pointing at in conf/service.properties?", 1, 0],
  ];
  for (const [request, file, folder] of files) expect(namedPaths(request)).toEqual({ files: file, folders: folder });
  for (const request of [
    "convert 60 km/h to m/s",
    "either and/or",
    "to simplify 27/63, what factor do they share",
    "tally the a/e/i/o/u letters",
    "fetch https://example.com/a/b.json",
    '{"a": {"b": {"c": 1}}} to a.b.c keys',
    "what is 3.14 rounded, e.g. to 3",
    "notes for v1.2.3",
    "the input/output of this",
  ])
    expect(namedPaths(request)).toEqual({ files: 0, folders: 0 });
});

test("a request naming a file misfits a capability that calls no tool, unless its words are about files or the file's format; files and folders misfit each other's capabilities", () => {
  const noTool = (name: string, text: string): CapabilityFacts => ({ ...facts(name, text, []), callsNoTool: true });
  const counter = noTool("text:word_count", "count the words of a text");
  expect(answerMisfits(requestKinds("count the words in drafts/intro.md"), counter)).toBe(true);
  expect(answerMisfits(requestKinds("count the words in 'to be or not to be'"), counter)).toBe(false);
  // A folder named by a word, not a path, is no more within reach of code that calls no tool.
  expect(answerMisfits(requestKinds("count the entries in the folder inbox"), counter)).toBe(true);
  expect(answerMisfits(requestKinds("count the words in drafts/intro.md"), facts("fs:count_words", "count the words of a file", ["number"]))).toBe(false);
  expect(answerMisfits(requestKinds("what is the extension of report.final.pdf"), noTool("util:extension", "the extension of a file name"))).toBe(false);
  const csvToJson = noTool("transform:csv_to_json", "convert csv text to json records");
  expect(answerMisfits(requestKinds("turn people.csv into json records"), csvToJson)).toBe(false);
  expect(answerMisfits(requestKinds("turn people.txt into json records"), csvToJson)).toBe(true);
  const entries = facts("fs:count_directory_entries", "count the entries directly inside a folder", ["number"]);
  expect(answerMisfits(requestKinds("guests.txt has a person on each row, how many people is that?"), entries)).toBe(true);
  for (const request of ["how many things sit right at the top of photos/2024?", "how many entries does the folder with notes.txt hold?", "count what is in uploads/"])
    expect(answerMisfits(requestKinds(request), entries)).toBe(false);
  // For a folder and no file, one about a single file steps back; "each file" names files.
  const lines = facts("fs:count_lines", "count the non-empty lines in a text file", ["number"]);
  for (const request of ["how many things sit right at the top of photos/2024?", "count TODO comments in the TypeScript of lib/", "count the entries in the folder inbox"])
    expect(answerMisfits(requestKinds(request), lines)).toBe(true);
  for (const request of [
    "sha256 of every file in dist/",
    "show me notes.txt",
    "fetch https://example.com/data.zip into vendor/",
    "move the report to archive/",
    "what is DB_HOST pointing at in conf/service.properties?",
  ])
    expect(answerMisfits(requestKinds(request), facts("fs:read_config_value", "read a value from a config file", ["string"]))).toBe(false);
  // Data in the request itself, and no place to read it from: a capability that reads files steps back.
  const fileWords = facts("fs:count_words", "count the words of a file", ["number"]);
  for (const request of ["count the words in: the cat sat on the mat", "tally the a/e/i/o/u letters in 'procedural memory layer'", "web-safe version of 'Q3 Results: Up 12%'"]) {
    expect(requestKinds(request).inlineOnly).toBe(true);
    expect(answerMisfits(requestKinds(request), fileWords)).toBe(true);
    expect(answerMisfits(requestKinds(request), noTool("text:stats", "count what a text holds"))).toBe(false);
  }
  for (const request of ["find 'TODO' in the code", "grep 'ERROR' in the logs", "replace 'foo' with 'bar' in x.txt", "put 'done' at the end of every file under notes/"])
    expect(requestKinds(request).inlineOnly).toBeUndefined();
  expect(answerMisfits(requestKinds("the lines of guests.txt"), facts("fs:find_by_extension", "list the files with a given extension under a folder", ["array"]))).toBe(false);
});

test("a counter of one unit misfits a request that names others; an aggregate misfits a request for another", () => {
  const counter = (name: string, text: string) => facts(name, text, ["number"]);
  const lines = counter("fs:count_lines", "count the non-empty lines in a text file");
  const words = counter("fs:count_words", "count the words of a file");
  const bytes = counter("fs:file_size_bytes", "get the size of a file in bytes");
  const rows = counter("fs:count_csv_rows", "count the data rows of a CSV file, without the header");
  const fits = (request: string, cap: CapabilityFacts) => !answerMisfits(requestKinds(request), cap);
  expect([lines, words].map((c) => fits("count the words in drafts/intro.md", c))).toEqual([false, true]);
  expect([rows, bytes].map((c) => fits("get the size in bytes of assets/logo.svg", c))).toEqual([false, true]);
  // Room on disk is counted in bytes.
  expect([lines, bytes].map((c) => fits("how much room does fonts/inter.txt take on disk?", c))).toEqual([false, true]);
  // Units are read outside the request's data: not in a path (letters/), not in quotes.
  expect([bytes, words].map((c) => fits("what's the length of letters/cover.txt measured in terms, not characters?", c))).toEqual([false, true]);
  const inText = ["word", "line"].map((u) => counter(`text:${u}_count`, `count the ${u}s of a text`));
  expect(inText.map((c) => fits("count the lines in 'one word here'", c))).toEqual([false, true]);
  // The items of a list are not its characters.
  const items = counter("fs:count_json_items", "count the items of a JSON array file");
  const chars = counter("fs:count_characters", "count the characters of a text file");
  expect([items, chars].map((c) => fits("count the items in data/orders.json", c))).toEqual([true, false]);
  // Rows are lines; a counter of several units fits a request for any of them.
  expect(fits("how many rows does guests.txt have?", lines)).toBe(true);
  expect(fits("how many bytes is notes.txt?", counter("fs:file_stats", "count the lines and bytes of a file"))).toBe(true);
  // A capability that does not count is not judged by the units it names; a request naming none contradicts none.
  expect(fits("reflow a paragraph so nothing runs past 80 characters", facts("transform:wrap_text", "wrap text into lines of at most a given width", ["string"]))).toBe(true);
  expect([lines, words, bytes].every((c) => fits("how big is backup/dump.sql?", c))).toBe(true);
  const sum = counter("fs:sum_csv_column", "sum a numeric column of a CSV file");
  const average = counter("fs:average_csv_column", "average of a numeric column in a CSV file");
  const stats = counter("fs:column_stats", "the sum, average and maximum of a column");
  expect([sum, average, stats].map((c) => fits("average of the temp column in weather/june.csv", c))).toEqual([false, true, true]);
  expect([sum, average, stats].map((c) => fits("what's the total amount in finance/march.csv?", c))).toEqual([true, false, true]);
  expect([sum, average].every((c) => fits("the numbers in column B of a.csv", c))).toBe(true);
  expect([sum, average].map((c) => fits("how many units did we sell altogether, going by sales/q3.csv?", c))).toEqual([true, false]);
  // Every aggregate asked must be given: a minimum is not the range from the lowest to the highest.
  const min = counter("fs:min_csv_column", "the smallest value of a CSV column");
  const range = counter("fs:csv_column_range", "the range of a CSV column: its largest value minus its smallest");
  expect([min, range, stats].map((c) => fits("how far apart are the lowest and highest price in shop/items.csv?", c))).toEqual([false, true, false]);
  expect([min, range].map((c) => fits("the spread of the price column in shop/items.csv", c))).toEqual([false, true]);
  expect([min, range].map((c) => fits("the lowest price in shop/items.csv", c))).toEqual([true, true]);
});

test("a capability for the first of something misfits a request for the last, and the other way; one naming neither end is left alone", () => {
  const cap = (name: string, text: string) => facts(name, text, ["string"]);
  const firstMatch = cap("fs:first_matching_line", "the first line of a file that contains a word");
  const lastMatch = cap("fs:last_matching_line", "the last line of a file that contains a word");
  const grep = cap("fs:grep_lines", "the lines of a file that contain a word");
  const fits = (request: string) => [firstMatch, lastMatch, grep].map((c) => !answerMisfits(requestKinds(request), c));
  expect(fits("the latest line of logs/api.log that mentions timeout")).toEqual([false, true, true]);
  expect(fits("show the earliest ERROR line in logs/api.log")).toEqual([true, false, true]);
  expect(fits("which lines of logs/api.log mention ERROR?")).toEqual([true, true, true]);
  // Named only in the data: no end asked.
  expect(fits("lines of notes.txt that mention 'last call'")).toEqual([true, true, true]);
});

test("a request that says what it asks done misfits a capability named for another operation; one that does not say, or a capability not named by one, is left alone", () => {
  const cap = (name: string, text: string) => facts(name, text, []);
  const countVowels = cap("transform:count_vowels", "count the vowels in a text");
  const sortLines = cap("fs:sort_lines", "sort the lines of a file alphabetically");
  const countMatching = cap("fs:count_matching_lines", "count the lines of a file that contain a word");
  const dedupe = cap("fs:dedupe_lines", "remove duplicate lines from a file");
  const deleteEmpty = cap("fs:delete_empty_dirs", "delete the empty folders under a folder");
  const longest = cap("fs:longest_line", "the longest line of a file");
  const fits = (request: string, c: CapabilityFacts) => !answerMisfits(requestKinds(request), c);
  expect(fits("reverse the order of words in 'the quick brown fox'", countVowels)).toBe(false);
  expect([sortLines, longest].map((c) => fits("find the longest line in scripts/setup.sh", c))).toEqual([false, true]);
  expect(fits("list the column names of exports/users.csv", sortLines)).toBe(false);
  // "the largest value" is an aggregate, not a count; "how many", "the length of" are counts.
  expect(fits("find the largest value in the price column of shop/items.csv", countMatching)).toBe(false);
  expect(fits("find how many lines of app.log mention ERROR", countMatching)).toBe(true);
  expect(fits("please, can you tell me the length of the list in queue/jobs.json?", cap("fs:count_json_items", "count the items of a JSON array"))).toBe(true);
  // The operation may come later in the request, in another form of the word.
  expect(fits("give me glossary.txt ordered like a dictionary", sortLines)).toBe(true);
  expect(fits("show the lines of names.txt sorted", sortLines)).toBe(true);
  expect(fits("get rid of folders with nothing in them", deleteEmpty)).toBe(true);
  expect(fits("remove the duplicate lines of hosts.txt", dedupe)).toBe(true);
  expect(fits("get the distinct lines of hosts.txt", dedupe)).toBe(true);
  // No operation or lookup first: nothing is said ("how long…", "convert…" may be any change).
  expect(requestKinds("my abstract has a 250 limit: how long is it so far?").operations).toBeUndefined();
  expect(fits("convert user_id_value to camelCase", cap("transform:reverse_words", "reverse the order of the words"))).toBe(true);
  // A capability whose name starts with no operation is not judged by this.
  expect(fits("sort the lines of people/names.txt alphabetically", longest)).toBe(true);
});

test("a change of the words a request quotes misfits a capability whose every answer was a number; an amount asked, or a file named, does not", () => {
  const counter = facts("util:count_words_in_text", "count the words in a text", ["number"]);
  for (const request of ["make 'quarterly SALES review' look like a headline", "capitalize every word of 'the lord of the rings'", "make a URL slug from 'Hello World Again'"]) {
    expect(requestKinds(request).answer).toBe("string");
    expect(answerMisfits(requestKinds(request), counter)).toBe(true);
    // Text, or nothing returned yet, contradicts nothing.
    expect(answerMisfits(requestKinds(request), facts("transform:reverse_words", "reverse the order of the words", ["string"]))).toBe(false);
    expect(answerMisfits(requestKinds(request), facts("transform:reverse_words", "reverse the order of the words", []))).toBe(false);
  }
  // A question about quoted words, a change that also asks an amount, a change of a file: not this rule.
  expect(requestKinds("how many words does 'to be or not to be' have?").answer).toBe("number");
  expect(requestKinds("remove the duplicates from 'a b a' and say how many there were").answer).toBe("number");
  expect(requestKinds("replace 'foo' with 'bar' in x.txt").answer).toBeUndefined();
  expect(requestKinds("is 'racecar' a palindrome?").answer).toBeUndefined();
});

test("a request that is one long run of dots, slashes or quotes names no file or folder and still reads (bounded, no throw)", () => {
  for (const request of ["a.".repeat(5000), "a/".repeat(5000), "'".repeat(5000), `${"x".repeat(3000)}.txt`, `in ${"ab/".repeat(2000)}`]) {
    const kinds = requestKinds(request);
    expect(kinds.onlyFiles).toBeUndefined();
    expect(kinds.asksOnly).toBeUndefined();
  }
  // Past the 600 characters read, a file name is not seen.
  expect(requestKinds(`${"word ".repeat(130)} notes.txt`).namesFile).toBeUndefined();
  expect(requestKinds("count the words of notes.txt").namesFile).toBe(true);
  // Units and aggregates too are read from the first 600 characters only.
  expect(requestKinds(`${"word ".repeat(130)} in bytes, the average`)).toMatchObject({ textUnits: new Set(["word"]), aggregates: new Set() });
});

test("what a capability's words say, kept from earlier requests (as discover keeps it), gives every request the verdict it gets read afresh", () => {
  const caps: CapabilityFacts[] = [
    ...CAPS.map(([name, text]) => facts(name, text, ["string"])),
    facts("fs:count_words", "count the words of a file", ["number"]),
    facts("fs:list_folder", "list the entries of a folder", ["object"]),
    facts("util:max_value", "the largest value of a list of numbers", ["number"]),
    facts("text:first_match", "the first line that matches a pattern", ["string"]),
    facts("text:reverse_words", "reverse the words of a sentence", ["string"]),
    { ...facts("text:strip_blank", "remove blank lines from the text 'given'", ["string"]), callsNoTool: true },
  ];
  const requests = [
    "how many lines does guests.txt have?",
    "count the words in: the cat sat on the mat",
    "list the files in photos/2024/",
    "the highest and lowest value in prices.csv",
    "get the last line of cron.log",
    "reverse the words of 'hello big world'",
    "convert 68 F to celsius",
    "read the name field of package.json",
    "sort the lines of notes.md",
  ];
  const kept = caps.map((c) => ({ ...c, said: new CapabilityWords(c.name, c.text) }));
  for (const request of requests) {
    const asked = requestKinds(request);
    expect(kept.map((c) => answerMisfits(asked, c))).toEqual(caps.map((c) => answerMisfits(asked, c)));
  }
  // And some of them are misfits: the rules were asked, not skipped.
  expect(requests.some((r) => kept.some((c) => answerMisfits(requestKinds(r), c)))).toBe(true);
});
