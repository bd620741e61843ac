// Git config files as git reads them, for ./git-executables.ts: values unquoted and unescaped as
// git does (a `;` outside quotes starts a comment, `\` joins lines), and `include.path` /
// `includeIf.<condition>.path` followed to the files they name.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** Git stops with "exceeded maximum include depth" past this: nothing deeper configures anything. */
const MAX_INCLUDE_DEPTH = 10;

export interface GitConfigRead {
  /** `section.subsection.key` (all lower-cased) and value pairs, includes left out. */
  settings: Array<[string, string]>;
  /** Absolute paths of the files included, at any depth, existing or not. */
  includes: string[];
}

/**
 * The settings of `files` and of every file they include, relative to the including file, `~`
 * being `home`. A condition (`gitdir:`, `onbranch:`, `hasconfig:`) counts as true: git may take it.
 * `look` is called with each file (missing ones too) just before it is read: what a cache must watch.
 */
export function readGitConfig(files: string[], home: string, look: (file: string) => void = () => {}): GitConfigRead {
  const out: GitConfigRead = { settings: [], includes: [] };
  const depthSeen = new Map<string, number>();
  const visit = (file: string, depth: number) => {
    // Once per file, unless reached again less deep (its own includes then reach further).
    const seen = depthSeen.get(file);
    if (seen !== undefined && seen <= depth) return;
    depthSeen.set(file, depth);
    look(file);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return;
    }
    for (const [key, value] of parseGitConfig(text)) {
      if (!isInclude(key)) out.settings.push([key, value]);
      else if (value && depth < MAX_INCLUDE_DEPTH) {
        const included = includedPath(file, value, home);
        if (!out.includes.includes(included)) out.includes.push(included);
        visit(included, depth + 1);
      }
    }
  };
  for (const f of files) visit(f, 0);
  return out;
}

function isInclude(key: string): boolean {
  return key === "include.path" || (key.startsWith("includeif.") && key.endsWith(".path"));
}

function includedPath(from: string, value: string, home: string): string {
  if (value === "~") return home;
  if (value.startsWith("~/")) return join(home, value.slice(2));
  return isAbsolute(value) ? resolve(value) : resolve(dirname(from), value);
}

const HEADER = /\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\\n]|\\.)*)")?\s*\]/y;
const NAME = /[A-Za-z][A-Za-z0-9-]*/y;

/** The `key = value` pairs of a config file's text, in order; a key without `=` has the value "". */
export function parseGitConfig(source: string): Array<[string, string]> {
  const s = source.replace(/\r\n/g, "\n");
  const out: Array<[string, string]> = [];
  let section = "";
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "\n" || c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "[") {
      HEADER.lastIndex = i;
      const m = HEADER.exec(s);
      // A bad header makes git refuse the whole file: what follows configures nothing.
      if (!m) return out;
      section = (m[2] === undefined ? m[1]! : `${m[1]}.${m[2].replace(/\\(.)/g, "$1")}`).toLowerCase();
      i = HEADER.lastIndex;
      continue;
    }
    NAME.lastIndex = i;
    const name = c === "#" || c === ";" ? null : NAME.exec(s);
    if (!name) {
      i = lineEnd(s, i);
      continue;
    }
    i = NAME.lastIndex;
    while (s[i] === " " || s[i] === "\t") i++;
    let value = "";
    if (s[i] === "=") ({ value, next: i } = parseValue(s, i + 1));
    else i = lineEnd(s, i);
    if (section) out.push([`${section}.${name[0].toLowerCase()}`, value]);
  }
  return out;
}

function lineEnd(s: string, i: number): number {
  const j = s.indexOf("\n", i);
  return j < 0 ? s.length : j + 1;
}

/** One value from `i` to its line's end, as git's parse_value reads it. */
function parseValue(s: string, i: number): { value: string; next: number } {
  let value = "";
  let spaces = 0;
  let quoted = false;
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\n") return { value, next: i + 1 };
    if (!quoted && (c === " " || c === "\t")) {
      if (value) spaces++;
      continue;
    }
    if (!quoted && (c === "#" || c === ";")) return { value, next: lineEnd(s, i) };
    value += " ".repeat(spaces);
    spaces = 0;
    if (c === "\\") {
      const n = s[++i];
      if (n === "\n") continue;
      value += n === "t" ? "\t" : n === "n" ? "\n" : n === "b" ? "\b" : (n ?? "");
    } else if (c === '"') quoted = !quoted;
    else value += c;
  }
  return { value, next: i };
}
