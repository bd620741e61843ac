// How search.ts (and the word vectors) cut a text into words: the words read past (stop words) and
// the short forms read as the words they stand for. Kept apart from the index, with no imports:
// the build scripts read WordNet's glosses with it.

export const STOP: ReadonlySet<string> = new Set(
  (
    "a an the and or of to in on for from with by at as is are be it its this that these those into onto my your our their " +
    "i me we you he she they them some any each every all can could should would will shall do does did done please want need " +
    "let lets get got make sure so then than there here what which who whom how when where why just also very about over under " +
    "up down out off again once before after while via per using use used thing things stuff something one two"
  ).split(" "),
);

/** Short forms seen in names and tool ids, read as the words they stand for (a Map: a word such as
 * "constructor" must not find an object's own properties). */
export const ABBREVIATIONS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    fs: "file filesystem",
    db: "database",
    cfg: "config",
    conf: "config",
    env: "environment",
    dir: "directory",
    dirs: "directories",
    repo: "repository",
    msg: "message",
    tmp: "temporary",
    pkg: "package",
    deps: "dependencies",
    dep: "dependency",
    ai: "llm model",
    api: "http request",
    url: "url link",
    md: "markdown",
    yml: "yaml",
    csv: "csv table",
    ts: "typescript",
    js: "javascript",
    cmd: "command",
    exec: "execute run",
    img: "image",
    doc: "document",
    docs: "documents",
    info: "information",
    stats: "statistics",
    util: "utility",
    num: "number",
    str: "string",
    len: "length",
    txt: "text",
    pr: "pull request",
    prs: "pull requests",
  }),
);

/** Text with no character past U+007F (NFD and the accent strip leave it as it is). */
const ASCII = /^[^\u0080-\uffff]*$/;
/** Lower case, camelCase apart, accents folded ("résumé" -> resume, "café" -> cafe: split at
 * them, a word would become pieces). */
const folded = (text: string) =>
  // ASCII has nothing to fold (NFD leaves it as it is): most texts skip the normalising, a tenth of tokenizing.
  (ASCII.test(text) ? text : text.normalize("NFD").replace(/[\u0300-\u036f]/g, "")).replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();

/** Lower-case words of any text: splits snake_case, camelCase, dots and colons; drops stop words. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const chunk of folded(text).split(/[^a-z0-9-]+/)) {
    // Most chunks hold no hyphen: read as the one part they are, without splitting (a candidate's
    // words are read on its first discover, ~200 of them).
    if (!chunk.includes("-")) {
      if (chunk) wordOf(chunk, out);
      continue;
    }
    const parts = chunk.split("-").filter(Boolean);
    for (const raw of parts) wordOf(raw, out);
    // "to-do", "how-to": apart, the parts are stop words and the word would vanish.
    if (parts.length > 1 && parts.every((p) => p.length === 1 || STOP.has(p))) out.push(parts.join(""));
  }
  return out;
}

function wordOf(raw: string, out: string[]): void {
  if (STOP.has(raw)) return;
  const long = ABBREVIATIONS.get(raw);
  if (long) for (const l of long.split(" ")) out.push(l);
  out.push(raw);
}

/** Every word of a text in its order, stop words too ("add", "up"): what two-word phrases are read from. */
export const wordsInOrder = (text: string): string[] =>
  folded(text)
    .split(/[^a-z]+/)
    .filter(Boolean);

/** "in this email", "from a chat log", "in these names": a preposition of place, a determiner, a noun
 * phrase. Determiners as whole words only: "in A-Z order" names no place. */
const PLACE_PREPOSITIONS = new Set("in from inside within throughout".split(" "));
const DETERMINERS = new Set("this these that those a an the my our your some each every all".split(" "));
/** A place's phrase ends at another preposition ("from the remote without losing work"), at
 * punctuation, or after this many words. */
const PHRASE_ENDS = new Set(
  "with without within inside between across through throughout against around along among except like until since toward towards beside besides".split(" "),
);
const PHRASE_MAX = 3;
/** Data formats: in "from a json config" the format decides what can read it. */
const FORMATS = new Set("json csv tsv yaml yml markdown md xml html toml sql ini python typescript javascript".split(" "));

const bare = (token: string | undefined) => (token ?? "").replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, "");
const endsClause = (token: string) => /[,;:.?!)]$/.test(token);
const isDeterminer = (token: string | undefined) => token !== undefined && /^[a-z]+$/.test(token) && DETERMINERS.has(token);

/**
 * The words of a request that only say where its data lies ("find every link in this email":
 * email): the task is the link, not the email, and a record about emails is not what was asked
 * for. Formats and words the request also says elsewhere are not among them.
 */
export function placeWords(text: string): Set<string> {
  const tokens = folded(text).split(/\s+/);
  const place: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!PLACE_PREPOSITIONS.has(bare(tokens[i])) || endsClause(tokens[i]!) || !isDeterminer(tokens[i + 1])) continue;
    let j = i + 1;
    while (isDeterminer(tokens[j])) j++;
    for (const end = j + PHRASE_MAX; j < end && j < tokens.length && !STOP.has(bare(tokens[j])) && !PHRASE_ENDS.has(bare(tokens[j])); j++) {
      place.push(...wordsInOrder(tokens[j]!));
      if (endsClause(tokens[j]!)) break;
    }
    i = j - 1;
  }
  const counts = (ws: string[]) => ws.reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>());
  const all = counts(wordsInOrder(text));
  return new Set([...counts(place)].filter(([w, n]) => all.get(w) === n && !FORMATS.has(w) && !STOP.has(w)).map(([w]) => w));
}
