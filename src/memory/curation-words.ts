// The words curation reads intents and code with: verbs mapped to a small canonical set, the
// objects and formats that say little or much, and how a word is split, inflected and singular.
// Reading an intent is intent-reading.ts; reading code is code-evidence.ts.
/** Synonyms -> canonical verb. A verb missing here is not recognised as an action. */
const VERBS: Record<string, string> = {};
const canon = (to: string, words: string) => words.split(" ").forEach((w) => (VERBS[w] = to));
canon("read", "read load cat");
// "open" a file, an issue, a browser: the code says which.
canon("open", "open");
canon("write", "write save store persist dump");
canon("get", "get obtain");
canon("fetch", "fetch retrieve request call");
canon("download", "download");
canon("upload", "upload");
canon("list", "list enumerate ls");
canon("find", "find locate");
canon("search", "search grep");
canon("query", "query");
canon("count", "count tally");
canon("create", "create make add insert");
canon("update", "update edit modify patch");
canon("delete", "delete remove erase drop rm purge prune");
canon("clean", "clean clear");
canon("convert", "convert transform turn");
canon("parse", "parse decode deserialize deserialise");
canon("format", "format prettify");
canon("render", "render");
canon("summarize", "summarize summarise condense");
canon("translate", "translate");
canon("classify", "classify categorize categorise label");
canon("extract", "extract");
canon("explain", "explain describe");
canon("draft", "draft compose");
canon("compute", "compute calculate");
canon("measure", "measure");
canon("generate", "generate scaffold");
canon("copy", "copy duplicate cp");
canon("clone", "clone");
canon("move", "move mv");
canon("rename", "rename");
canon("backup", "backup");
canon("archive", "archive");
canon("restore", "restore");
canon("check", "check verify");
canon("validate", "validate");
canon("test", "test");
canon("lint", "lint");
canon("build", "build compile");
canon("install", "install");
canon("run", "run execute exec launch invoke");
canon("start", "start");
canon("stop", "stop");
canon("kill", "kill");
canon("restart", "restart");
canon("deploy", "deploy");
canon("publish", "publish release");
canon("send", "send");
canon("notify", "notify");
canon("post", "post");
canon("push", "push");
canon("pull", "pull");
canon("commit", "commit");
canon("stash", "stash");
canon("merge", "merge combine");
canon("rebase", "rebase");
canon("checkout", "checkout");
canon("blame", "blame");
canon("diff", "diff");
canon("compare", "compare");
canon("tag", "tag");
canon("sort", "sort order");
canon("filter", "filter");
canon("group", "group");
canon("dedupe", "dedupe deduplicate");
canon("flatten", "flatten");
canon("split", "split");
canon("join", "join concatenate");
canon("hash", "hash");
canon("encode", "encode serialize serialise");
canon("encrypt", "encrypt");
canon("decrypt", "decrypt");
canon("compress", "compress zip");
canon("import", "import");
canon("export", "export");
canon("sync", "sync synchronize synchronise");
canon("watch", "watch monitor");
canon("slugify", "slugify");
canon("normalize", "normalize normalise");
canon("resize", "resize");
canon("analyze", "analyze analyse inspect");
canon("review", "review");
canon("ping", "ping");
canon("schedule", "schedule");
canon("bump", "bump");
// Common verbs of code and text that have no closer synonym above.
for (const v of "replace append prepend strip trim pad capitalize truncate wrap escape sanitize undo revert reset wait retry close select set assign resolve chunk paginate map sum average round tokenize embed highlight annotate comment reply approve zip unzip".split(
  " ",
))
  VERBS[v] ??= v;
canon("wait", "wait sleep");
canon("undo", "undo revert");

/** Verbs that say little about what is done ("check" may mean look or validate). */
const WEAK_VERBS = new Set(["open", "set", "select", "check", "get", "run", "make", "call", "request", "turn", "clear", "order", "combine", "label", "inspect", "watch", "tag"]);
/** Objects that say little on their own ("write an object to X": X is what matters). */
export const GENERIC_OBJECTS = new Set([
  "project",
  "workspace",
  "entries",
  "items",
  "file",
  "files",
  "data",
  "content",
  "contents",
  "thing",
  "things",
  "value",
  "values",
  "text",
  "result",
  "results",
  "output",
  "info",
  "stuff",
  "object",
  "message",
  "payload",
  "request",
  "response",
  "body",
  "string",
  "input",
  "entry",
  "it",
  "something",
]);
/** Data formats: "<format> file" names the file by its format, and a format in the code backs a target. */
export const FORMATS = new Set(["json", "yaml", "csv", "tsv", "xml", "toml", "ini", "markdown", "html", "pdf", "env", "config"]);

export function words(text: string): string[] {
  return (
    text
      .split(/[^A-Za-z0-9.]+/)
      // lowerCamel identifiers split (camelCase -> camel case, readFile -> read file); names like
      // GitHub or TypeScript stay one word.
      .map((t) => (/^[a-z]/.test(t) ? t.replace(/([a-z0-9])([A-Z])/g, "$1 $2") : t))
      .join(" ")
      .toLowerCase()
      .replace(/\.([a-z]{2,5})\b/g, " $1")
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
  );
}

export function canonicalVerb(w: string): string | undefined {
  return Object.hasOwn(VERBS, w) ? VERBS[w] : undefined;
}

/** The verb of an inflected form too: "reads", "listed", "sorting", "copies" (descriptions often say "Reads a file"). */
export function verbOf(w: string): string | undefined {
  const direct = canonicalVerb(w);
  if (direct || w.length < 4) return direct;
  const tries = [
    w.replace(/ies$/, "y"),
    w.replace(/es$/, ""),
    w.replace(/s$/, ""),
    w.replace(/ied$/, "y"),
    w.replace(/ed$/, ""),
    w.replace(/d$/, ""),
    w.replace(/ing$/, ""),
    w.replace(/ing$/, "e"),
  ];
  // Doubled consonants: "stopped", "running".
  tries.push(w.replace(/([bdglmnprt])\1(ed|ing)$/, "$1"));
  for (const t of tries) if (t !== w && canonicalVerb(t)) return canonicalVerb(t);
  return undefined;
}

export function isWeakVerb(v: string): boolean {
  return WEAK_VERBS.has(v);
}

export function singular(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ches|shes|xes|sses)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}
