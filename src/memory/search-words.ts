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

/** Lower case, camelCase apart, accents folded ("résumé" -> resume, "café" -> cafe: split at
 * them, a word would become pieces). */
const folded = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();

/** Lower-case words of any text: splits snake_case, camelCase, dots and colons; drops stop words. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const chunk of folded(text).split(/[^a-z0-9-]+/)) {
    const parts = chunk.split("-").filter(Boolean);
    for (const raw of parts) {
      if (STOP.has(raw)) continue;
      const long = ABBREVIATIONS.get(raw);
      if (long) for (const l of long.split(" ")) out.push(l);
      out.push(raw);
    }
    // "to-do", "how-to": apart, the parts are stop words and the word would vanish.
    if (parts.length > 1 && parts.every((p) => p.length === 1 || STOP.has(p))) out.push(parts.join(""));
  }
  return out;
}

/** Every word of a text in its order, stop words too ("add", "up"): what two-word phrases are read from. */
export const wordsInOrder = (text: string): string[] =>
  folded(text)
    .split(/[^a-z]+/)
    .filter(Boolean);
