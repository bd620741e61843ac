// The words kind-fit.ts reads requests and capabilities by: the kinds of data and units they name,
// the formats files come in, the units text is counted in, aggregates, case styles, and the words
// that ask a question, a change or an amount. Vocabulary only; what contradicts what is kind-fit.ts.
/** Word -> the value it names, for words in `groups` (value -> the words that name it). */
const wordMap = (groups: Readonly<Record<string, string>>) => new Map(Object.entries(groups).flatMap(([value, ws]) => ws.split(" ").map((w) => [w, value] as const)));
/** The values of `words` named in `text`. */
export const namedIn = (words: ReadonlyMap<string, string>, text: string) =>
  new Set(
    text
      .toLowerCase()
      .split(/[^a-z]+/)
      .flatMap((w) => words.get(w) ?? []),
  );
/** A kind's canonical name -> the words that name it (a capability's name and intent use these). */
const KIND_WORDS: Readonly<Record<string, string>> = {
  celsius: "celsius centigrade",
  fahrenheit: "fahrenheit",
  kelvin: "kelvin",
  km: "km kilometer kilometers kilometre kilometres",
  mile: "mile miles mi",
  meter: "meter meters metre metres",
  foot: "foot feet ft",
  kg: "kg kilo kilos kilogram kilograms",
  lb: "lb lbs pound pounds",
  // Not "second" (the second line) nor "min" (the min of a column): said alone they are not units.
  second: "seconds secs sec",
  minute: "minute minutes mins",
  hour: "hour hours hr hrs",
  day: "day days",
  camel: "camel camelcase",
  snake: "snake snakecase",
  roman: "roman",
  json: "json",
  csv: "csv",
  yaml: "yaml yml",
  toml: "toml",
  xml: "xml",
  html: "html",
  markdown: "markdown md",
  ini: "ini",
  sql: "sql",
  text: "text txt log plain",
};
export const KIND_OF = wordMap(KIND_WORDS);

/** Kinds of files: a capability naming one of them is about that format (plain text excepted:
 * every format is text too, so "text" never contradicts). */
export const FORMATS = new Set(["json", "csv", "yaml", "toml", "xml", "html", "markdown", "ini", "sql"]);

export const EXTENSION_KIND: Readonly<Record<string, string>> = {
  json: "json",
  csv: "csv",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  xml: "xml",
  html: "html",
  md: "markdown",
  ini: "ini",
  sql: "sql",
  txt: "text",
  log: "text",
};

/** A number and the unit it is in ("68 degrees F", "23kg", "-4 °C"): the kind a conversion starts from. */
export const MEASURE =
  /(?:^|[^\w.])-?\d+(?:\.\d+)?\s?(?:°\s?|degrees?\s)?(C|F|K|celsius|centigrade|fahrenheit|kelvin|km|kilomet(?:er|re)s?|miles?|mi|met(?:er|re)s?|m|feet|foot|ft|kg|kilos?|kilograms?|lbs?|pounds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?)(?![\w'’])/gi;
/** Where a request says the kind it wants ("in C", "to miles", "into snake_case"); the kind is looked
 * at, not taken, so that "come to in lbs" still finds "in lbs". */
export const WANTED = /\b(in|to|into|as)\s+(?:°\s?)?(?=([a-z_]+)\b)/gi;

/** "a key=value file" names the format of .ini, .properties and .env files. */
const KEY_VALUE = /\bkey\s?=\s?value\b/i;
/** Kinds named in `text`'s words. */
export const kindsOf = (text: string) => {
  const kinds = namedIn(KIND_OF, text);
  if (KEY_VALUE.test(text)) kinds.add("ini");
  return kinds;
};

/** A unit as written after a number ("F", "kilos") -> its kind; a one-letter C/F/K only in capitals. */
export function unitKind(unit: string): string | undefined {
  if (unit.length === 1) return unit === "C" ? "celsius" : unit === "F" ? "fahrenheit" : unit === "K" ? "kelvin" : unit === "m" ? "meter" : undefined;
  const u = unit.toLowerCase();
  return KIND_OF.get(u) ?? KIND_OF.get(u.replace(/s$/, "")) ?? KIND_OF.get(`${u}s`);
}
/** A question or a lookup: how it starts, a question mark, or an amount asked for. */
export const ASKS =
  /^(?:how|what|what's|which|where|when|who|whose|why|is|are|does|do|did|can|could|will|would|has|have|get|show|list|find|tell|read|print|display|look|count|give|pull|grab|fetch|check)\b|\?\s*$/i;
/** Words that ask for a change: with one of these a question may still want something done ("can you
 * sort…?"), and a destination ("fetch the zip into vendor/") is somewhere to write to. */
export const CHANGE =
  /\b(?:into|onto|download|upload|install|write|save|append|add|remove|delete|drop|rename|move|replace|change|update|edit|create|make|set|insert|put|strip|fix|clean|dedupe|dedup|sort|copy|merge|prepend|overwrite|rewrite|erase|clear|reset|truncate|reformat|restore|keep|store|get rid|turn|swap|undo|tidy|squash|collapse|shorten|lowercase|uppercase|capitali[sz]e)\b/i;

/** Words that ask for a number when no change is asked ("the length of", "the median", "how often";
 * not "truncate to a length of 80"). */
export const ASKS_VALUE = /\b(?:length of|size (?:of|in)|mean|median|percent(?:age)?|tally|how often|maximum|minimum|largest|smallest|highest|lowest|peak|factorial|divisor)\b/i;
/** Kinds that are units of measure: a value in one converted to another is a number. */
export const MEASURE_UNITS: ReadonlySet<string> = new Set(["celsius", "fahrenheit", "kelvin", "km", "mile", "meter", "foot", "kg", "lb", "second", "minute", "hour", "day"]);
/** Words that ask for an amount: the answer is a number. ("sum up" summarises; "count on" is rare.) */
export const ASKS_AMOUNT = /\b(?:how (?:many|much|long|big|large|far|old)|count|number of|total|average|sum (?:of|the))\b/i;
/** Units a text is counted in: a counter of one is not a counter of another ("count the words" is
 * not answered by `count_lines`, nor "the size in bytes" by a row counter). */
export const TEXT_UNITS = wordMap({
  word: "word words term terms",
  line: "line lines row rows",
  character: "character characters char chars letter letters",
  byte: "byte bytes kb kilobytes kib mb megabytes mib disk",
  sentence: "sentence sentences",
  paragraph: "paragraph paragraphs",
  item: "item items element elements",
});
/** What is computed over many values: a capability that sums does not average. */
export const AGGREGATES = wordMap({
  sum: "sum sums total totals altogether",
  average: "average averages mean avg",
  median: "median",
  max: "max maximum largest biggest highest",
  min: "min minimum smallest lowest",
  range: "range spread",
});
/** Which end of a text or a list: a capability for the first match is not one for the last. */
export const POSITIONS = wordMap({
  first: "first earliest opening initial",
  last: "last latest final closing",
});
/** What a capability does to its data, by the first word of its name (`count_vowels`, `sort_lines`),
 * and what a request asks done: a counter does not reverse, a sorter does not list columns. */
export const OPERATIONS = wordMap({
  count: "count counts counted counting tally",
  sort: "sort sorts sorted sorting ordered alphabetize alphabetise alphabetical alphabetically",
  reverse: "reverse reversed reversing backwards backward",
  wrap: "wrap wrapped wrapping reflow",
  replace: "replace replaced replacing substitute",
  append: "append appended appending prepend",
  remove: "remove removed removing delete deleted deleting erase rid",
  dedupe: "dedupe deduped dedup deduplicate duplicate duplicates unique distinct",
  merge: "merge merged merging combine combined concatenate",
  split: "split splitting",
});
/** Verbs that ask for something to be looked up: a request starting with one, as with an operation,
 * says what it asks done. */
export const LOOKUPS = new Set("find list show get extract search grep locate give tell print display fetch pull grab".split(" "));
/** Words before the verb of a request ("please", "can you", "I need to"). */
export const BEFORE_VERB =
  /^(?:\s*(?:please|pls|kindly|now|then|just|hey|ok|okay|so|can you|could you|would you|will you|i need to|i want to|i'd like to|help me|let's|let me|go and),?)+\s*/i;
/** Words of a capability that counts or measures (beside ASKS_AMOUNT's): its answer is an amount of the units it names. */
const MEASURES = /\b(?:counts|size|length|tally)\b/i;
export const measures = (words: string) => ASKS_AMOUNT.test(words) || MEASURES.test(words);

/** Words that say a capability or request is about files or paths themselves (a file name's extension), or about folders. */
export const FILE_WORDS = /\b(?:files?|file ?names?|paths?|extensions?)\b/i;
export const FOLDER_WORDS = /\b(?:folders?|subfolders?|director(?:y|ies)|dirs?)\b/i;
/** A file named otherwise than by its path: in a URL, or going into a folder ("fetch https://…/data.zip into vendor/"). */
export const FILE_ELSEWHERE = /:\/\/|\b(?:into|to|onto)\s+\S+\/(?:\s|$)/i;
/** Data given after a colon ("count the words in: the cat sat on the mat"). */
export const INLINE_DATA = /\b(?:in|of|from|for):\s+\S/i;
/** Places a request may read quoted words from ("find 'TODO' in the code"). */
export const PLACES = /\b(?:code|codebase|repo|repository|project|workspace|logs?|sources?)\b/i;
/** Words of a capability about one file ("the lines of a text file"), not several. */
export const ONE_FILE = /\bfile\b/i;
