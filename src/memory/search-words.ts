// The words search.ts reads past (stop words) and the short forms it reads as the words they stand
// for: kept apart from the index, they are lists, not logic.

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
