// What the values in a request are. Requests carry the data they are about ("give me the r g b of
// #ff8800", "when does 0 5 * * 1 fire", "XIV in digits"), while a capability's intent names the
// kind of data it takes ("convert a hex color code", "a cron expression", "roman numerals"): the
// value shares no word with the intent, its kind does. Each value recognised adds the words of its
// kind to what discover searches for (both sides: words and meaning); the request itself is kept
// as it is for everything else (what is learned, what the answer says).

/** A value's shape, and the words its kind goes by. Shapes are strict: a kind said wrongly pulls
 * unrelated capabilities up. */
const KINDS: ReadonlyArray<readonly [RegExp, string]> = [
  // Five fields of digits, *, /, commas and ranges: a crontab line, bare or quoted ('0 4 * * 0').
  [/(?:^|[\s'"])(?:[\d*][\d*/,-]*\s+){4}[\d*][\d*/,-]*(?=[\s'"]|$|[?.!,])/, "cron schedule expression"],
  // Six hex digits, or three with a letter among them (#123 is an issue more likely than a colour).
  [/(?:^|\s)#(?:[0-9a-f]{6}|(?=\d*[a-f])[0-9a-f]{3})\b/i, "hex color code"],
  // A chat channel: # and a name with a letter no hex digit spells (#deploys; #abc is a colour, #123
  // an issue). "let #deploys know" says no other word of "send a message to a Slack channel"
  // (bench/memory.ts at 10k, retired sets: top-5 708 -> 715 of 844, gains on 7 sets, none fell).
  [/(?:^|[\s(])#(?=[\w-]*[g-z_])[a-z][\w-]{1,79}\b/i, "chat channel"],
  // The domain starts with a letter: lodash@4.17.21 is a package's version, not an address.
  [/[\w.+-]+@@?[a-z][\w-]*(?:\.[\w-]+)*/i, "email address"],
  [/\bhttps?:\/\/\S+|\bwww\.[\w-]+\.\S+/i, "url link web address"],
  // Tags HTML has (Array<string> is a type, not markup).
  [
    /<\/?(?:p|div|span|a|b|i|u|em|strong|br|hr|img|ul|ol|li|h[1-6]|table|tr|td|th|html|head|body|script|style|section|article|nav|header|footer|form|input|button|label|pre|code)(?:\s[^<>]*)?\/?>/i,
    "html tags markup",
  ],
  [/[À-ÖØ-öø-ÿĀ-ſ]/, "accents diacritics letters"],
  // A file name pattern: a * in a path or before an extension (*.md, src/**/*.ts, logs/*). Paths are
  // not searched for (taskWords), so "rename fooBar in all src/**/*.ts" said nothing of files
  // (retired sets' top-5/20 720/766 -> 723/771 of 844, none fell).
  [/(?:^|[\s'"(])[\w./-]*(?:\*\.[a-z0-9]{1,10}\b|\*\*\/|\/\*(?=[\s'")]|$))/i, "glob pattern files"],
  // 2024.03.06 too: year first, a month and a day are a date (read as a version, it pulled roman
  // numerals up for "make these dates standard": bench/memory.ts top-5 703 -> 708 of 844, none fell).
  [/\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b(?:19|20)\d{2}([./])(?:0?[1-9]|1[0-2])\1(?:0?[1-9]|[12]\d|3[01])\b/, "date"],
  [/\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b/i, "time"],
  [/\b(?:UTC|GMT|EST|EDT|CST|CDT|MST|MDT|PST|PDT|CET|CEST|BST|JST|AEST)\b|\b(?:Europe|America|Asia|Africa|Australia|Pacific)\/[A-Z][A-Za-z_]+/, "time zone"],
  [/\bport\s?\d{2,5}\b|\blocalhost:\d{2,5}\b|(?:^|\s):\d{4,5}\b/i, "tcp port"],
  [/\b\d{1,3}(?:\.\d{1,3}){3}\b/, "ip address"],
  [/\b[0-9a-f]{64}\b/i, "sha256 hash checksum"],
  [/\b[0-9a-f]{40}\b/i, "git commit sha"],
  [/-?\b\d+(?:\.\d+)?\s?(?:°\s?|degrees?\s)?[CF]\b(?![\w'’])|\b\d+(?:\.\d+)?\s?°/, "temperature celsius fahrenheit"],
  [/\b\d+(?:\.\d+)?\s?(?:km|cm|mm|miles?|feet|foot|ft|inch(?:es)?|yards?|meters?|metres?)\b/i, "length distance units"],
  [/\b\d+(?:\.\d+)?\s?(?:kg|kilos?|grams?|lbs?|pounds?|ounces?|oz)\b/i, "weight mass units"],
  // An amount of bytes: what a size limit or a byte count is given in ("over 50MB" shares no other
  // word with "files bigger than a size limit"; retired sets' top-5 725 -> 728, none fell).
  [/\b\d+(?:\.\d+)?\s?(?:[kmgt]i?b|bytes?)\b/i, "size"],
  [/[$€£¥]\s?\d|\b\d+(?:\.\d+)?\s?(?:usd|eur|gbp|jpy|chf|cad|aud)\b/i, "currency amount"],
  [/\d\s?%|(?:^|\s)%(?:\s|$|[?.!,])/, "percent"],
  // A count of characters or columns: a width or a length limit.
  [/\b\d+\s?(?:-\s?)?(?:characters?|chars?|columns?|cols)\b/i, "column width maximum length"],
  [/\b\d+(?:\.\d+)?(?:\s?,\s?\d+(?:\.\d+)?){2,}\b/, "list of numbers"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/i, "uuid"],
  // Three parts, not four (10.0.0.1 is an address); not a dotted date (above).
  [/(?<![\d.])(?!(?:19|20)\d{2}\.(?:0?[1-9]|1[0-2])\.(?:0?[1-9]|[12]\d|3[01])\b)v?\d+\.\d+\.\d+(?:-[\w.]+)?\b(?!\.\d)/, "version number"],
  // JSON, or a JavaScript object literal ({a:{b:1}}, { retries: 3 }: "flatten nested objects" shares
  // no other word with "collapse {a:{b:1}}"; retired sets' top-5 715 -> 718, none fell).
  [/[{[]\s*"[^"]*"\s*:|\{\s*[a-z_$][\w$]*\s*:\s*[\w{'"[]/i, "json object"],
];

/** Roman numerals in capitals (XIV, MCMXCIV), not the acronyms that happen to spell one, nor a
 * part of a hyphenated token (the MM of YYYY-MM-DD). */
const ROMAN = /(?<![\w-])(?=[MDCLXVI]{2,}(?![\w-]))M{0,4}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})(?![\w-])/g;
const NOT_ROMAN = new Set(["CLI", "CD", "DC", "MD", "CV", "DIV", "MIX", "DI", "LI", "MI", "CI", "MDX"]);

/** A file's kind from its extension: the words an intent uses for it (ini, cfg, conf, properties,
 * env: configuration, however it is written). A .txt file is only a file:
 * "text" would pull what takes a piece of text (or replaces text in a file) for any request about one. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  json: "json file",
  csv: "csv file",
  yaml: "yaml file",
  yml: "yaml file",
  md: "markdown file",
  txt: "file",
  log: "log file",
  py: "python file",
  ts: "typescript file",
  js: "javascript file",
  html: "html file",
  toml: "toml file",
  xml: "xml file",
  sql: "sql file",
  ini: "config file",
  cfg: "config file",
  conf: "config file",
  properties: "config file",
  env: "config file",
  // An archive is a file to hash, fetch or unpack; "archive" would pull what archives things
  // (retired sets' top-1/5/20 556/723/771 -> 560/725/772 of 844 with "file", none fell).
  zip: "file",
  gz: "file",
  tgz: "file",
  xz: "file",
  tar: "file",
};

/** Two lines in a row with the same number of commas, at least one: CSV rows pasted into a request
 * ("sku,qty,price" then "A1,3,9.99"; retired sets: two requests from outside the top 20 and 9th to first). */
function holdsCsvRows(query: string): boolean {
  let before = 0;
  for (const line of query.split("\n")) {
    const commas = line.split(",").length - 1;
    if (commas > 0 && commas === before) return true;
    before = commas;
  }
  return false;
}

/** Values are looked for this far into a request: a few shapes cost time growing with the square
 * of the length (about 3 ms at 1,000 characters of an adversarial string, 0.9 s at 20,000). */
const READ_CHARS = 600;

/** The words of the kinds of the values in `query` (empty when it holds none it knows). */
export function valueKinds(whole: string): string[] {
  // Backquotes only delimit (`0 5 * * 1`): the shapes are looked for inside them.
  const query = whole.slice(0, READ_CHARS).replaceAll("`", " ");
  const kinds = new Set<string>();
  for (const [shape, words] of KINDS) if (shape.test(query)) kinds.add(words);
  for (const m of query.matchAll(ROMAN)) if (m[0] && !NOT_ROMAN.has(m[0])) kinds.add("roman numeral");
  if (holdsCsvRows(query)) kinds.add("csv text");
  for (const m of query.matchAll(/\w\.([a-z]{2,10})\b(?!\.\w)/gi)) {
    const kind = EXTENSIONS[m[1]!.toLowerCase()];
    if (kind) kinds.add(kind);
  }
  return [...kinds];
}

/** Text in quotes or backquotes: the data a request is about. */
const QUOTED = /(^|\s)(['"`])[^'"`]*\2/;
/** Words in quotes, not code in backquotes: text to work on. */
export const QUOTED_WORDS = /(^|\s)(['"])[^'"`]*\2/;

/**
 * A request's words without its inputs: quoted text, file paths and names, and (`numbers`) numbers
 * and dates. "count the lines of notes/todo.txt" and "make every row of hosts-list.txt unique"
 * share a file type, not a task; "make 'quarterly SALES review' look like a headline" is about a
 * headline, not sales. The request is kept and shown as it was said; this is only what is compared.
 */
export function taskWords(text: string, numbers = true): string {
  // Word by word: a pattern over the whole text backtracks quadratically on a long word (3 ms at 1,000 characters).
  const t = text.replace(new RegExp(QUOTED, "g"), " ").replace(/\S+/g, (w) => (/[/\\]|\S\.[a-z][a-z0-9]{0,4}\b/i.test(w) ? " " : w));
  return numbers ? t.replace(/[-+]?\d[\d.,:-]*/g, " ") : t;
}

/**
 * What discover searches for: the request without its inputs (numbers kept: "200ms", "-40" say
 * what they measure), "text" when it quoted words (code in backquotes is a value of the kinds read
 * below), and the words of its values' kinds. A request that is almost all input ("'hello
 * world'?") is searched as it is.
 */
export function withValueKinds(query: string): string {
  const task = taskWords(query, false);
  const kept = task.split(/\s+/).filter((w) => w.length > 2).length >= 2 ? `${task}${QUOTED_WORDS.test(query) ? " text" : ""}` : query;
  const kinds = valueKinds(query);
  return kinds.length ? `${kept} ${kinds.join(" ")}` : kept;
}
