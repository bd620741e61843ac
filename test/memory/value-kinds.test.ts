// The values a request carries, read as the kind of data they are (memory/value-kinds.ts): each
// shape recognised, and the look-alikes that are not one (an issue number is no colour nor a channel, a package
// version no address, a TypeScript generic no markup, an acronym no roman numeral, a dotted date
// no version, a date format's MM no numeral).
import { expect, test } from "bun:test";
import { valueKinds, withValueKinds } from "../../src/memory/value-kinds.ts";

const cases: Array<[string, string[]]> = [
  ["when does 0 5 * * 1 go off", ["cron schedule expression"]],
  ["how often does */15 * * * * trigger?", ["cron schedule expression"]],
  ["is '0 4 * * 0' weekly?", ["cron schedule expression"]],
  ["what number is MCMXCIV", ["roman numeral"]],
  ["split #336699 into red green blue", ["hex color code"]],
  ["is #abc a colour", ["hex color code"]],
  ["does user@@example look like a real inbox", ["email address"]],
  ["grab every link like https://x.dev/a in the log", ["url link web address"]],
  ["drop the <p> and <div> bits", ["html tags markup"]],
  ["make café plain", ["accents diacritics letters"]],
  ["which weekday was 1969-07-20", ["date"]],
  ["normalise 03/04/2025", ["date"]],
  ["3pm Berlin in California", ["time"]],
  ["bake at 350 F", ["temperature celsius fahrenheit"]],
  ["it's 31 °C here", ["temperature celsius fahrenheit"]],
  ["180 degrees C in F", ["temperature celsius fahrenheit"]],
  ["10 inches to centimeters", ["length distance units"]],
  ["23 kg in lb", ["weight mass units"]],
  ["convert 250 USD", ["currency amount"]],
  ["anything in logs/ above 2GB?", ["size"]],
  ["cap uploads at 512 KiB", ["size"]],
  ["grew by 12%", ["percent"]],
  ["post to #releases that the build is out", ["chat channel"]],
  ["ping #on-call about the outage", ["chat channel"]],
  ["the median of 120, 80, 300, 95", ["list of numbers"]],
  ["bump 1.4.2 to the next minor", ["version number"]],
  ["reflow so nothing runs past 80 characters", ["column width maximum length"]],
  ["7pm EST in CET", ["time", "time zone"]],
  ["what time is it in Europe/Berlin", ["time zone"]],
  ["free port 3000", ["tcp port"]],
  ["curl localhost:8080", ["tcp port"]],
  ["ping 10.0.0.1", ["ip address"]],
  ["verify 3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b", ["sha256 hash checksum"]],
  ["show commit 9fceb02d0ae598e95dc970b74767f19372d61af8", ["git commit sha"]],
  ["release v2.0.0-rc.1", ["version number"]],
  ["break lines to fit 72 columns", ["column width maximum length"]],
  ["cut the title to 20 chars", ["column width maximum length"]],
  ['turn {"a": 1} into yaml', ["json object"]],
  ["squash {user:{name:1}} into one level", ["json object"]],
  ["print { retries: 3 } as yaml", ["json object"]],
  ["count the rows of sales/q3.csv", ["csv file"]],
  ["turn into objects:\nid,city\n7,Oslo\n9,Rome", ["csv text"]],
  ["what is DB_HOST pointing at in conf/service.properties?", ["config file"]],
  ["which port does settings.ini set", ["config file"]],
  ["read config/app.json", ["json file"]],
  ["checksum of build/site.tgz", ["file"]],
  ["unpack vendor/libs.tar.xz here", ["file"]],
  ["swap the header in every docs/**/*.txt", ["glob pattern files"]],
  ["empty tmp/cache/*", ["glob pattern files"]],
  // Look-alikes that are not values of these kinds.
  ["close issue #123", []],
  ["install lodash@4.17.21", ["version number"]],
  ["an Array<string> in TypeScript", []],
  ["what does function f() { return 1 } return", []],
  ["is 6 * 7 really 42", []],
  ["first, read it\nthen write, in short, a summary", []],
  ["the CLI for MCP servers on CI", []],
  ["count the lines of a file", []],
  ["rename a capability", []],
  // An identifier is data (a field to group by, a name to replace), not a request to change its case.
  ["bucket these rows by customerId", []],
  // A dotted date with the year first is a date, not a version; a date format's MM is no numeral.
  ["normalise 2023.11.05 like the others", ["date"]],
  ["write every timestamp as YYYY-MM-DDTHH:mm:ss", []],
  ["bump 2020.1.0 to the next calendar release", ["version number"]],
];

test.each(cases)("%p reads as %p", (query, kinds) => {
  expect(valueKinds(query).sort()).toEqual([...kinds].sort());
});

test("the kinds' words follow the request, which is otherwise kept as it is", () => {
  expect(withValueKinds("XIV in digits")).toBe("XIV in digits roman numeral");
  expect(withValueKinds("count the lines of a file")).toBe("count the lines of a file");
});

const searched = (q: string) => withValueKinds(q).split(/\s+/).filter(Boolean).join(" ");

test("the data a request carries is not searched for, its kind is: quoted text, paths and file names", () => {
  // "sales" and "quarterly" are the text to change, not what to do with it.
  expect(searched("make 'quarterly SALES review' look like a headline")).toBe("make look like a headline text");
  expect(searched('shorten "a very long product title" to 20 chars')).toBe("shorten to 20 chars text column width maximum length");
  // Directories and a file's name are where the data is; the file's kind stays.
  expect(searched("how much room does fonts/inter.txt take on disk?")).toBe("how much room does take on disk? file");
  expect(searched("how many rows in sales/q3.csv")).toBe("how many rows in csv file");
  expect(searched("open package.json and give me the object")).toBe("open and give me the object json file");
  // Numbers stay: "200ms" and "-40" say what they measure.
  expect(searched("by what fraction did latency improve from 200ms to 150ms")).toBe("by what fraction did latency improve from 200ms to 150ms");
  // Code in backquotes is no text to work on: its kind says what it is.
  expect(searched("when does `0 */6 * * 1-5` actually run?")).toBe("when does actually run? cron schedule expression");
  // An apostrophe is no quote.
  expect(searched("what's in last year's report")).toBe("what's in last year's report");
});

test("a request that is almost all data is searched as it is", () => {
  expect(searched("'hello world' to kebab")).toBe("'hello world' to kebab");
  expect(searched("src/app.ts?")).toBe("src/app.ts? typescript file");
});

test("reading a request's data costs time in proportion to its length, not its square", () => {
  // One long word (no space to stop at): a pattern over the whole text would try every start.
  for (const long of ["a".repeat(100_000), "a.".repeat(50_000), "a/".repeat(50_000)]) expect(withValueKinds(long).length).toBeGreaterThan(0);
});

test("only the start of a long request is read for values (shapes that cost the square of the length)", () => {
  expect(valueKinds(`${"a.".repeat(50_000)} #ff8800`)).toEqual([]);
  expect(valueKinds(`#ff8800 ${"a.".repeat(50_000)}`)).toEqual(["hex color code"]);
});
