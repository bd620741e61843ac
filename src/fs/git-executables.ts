// Files inside the workspace that git runs: git settings can name programs outside `.git/`
// (husky's `core.hooksPath=.husky`, a filter's `clean` script, an `alias.x = !./tools/x.sh`), and a
// tool that rewrote one would have its code run, unconfined, by the user's next `git commit`.
// They are protected like `.git/` itself. Read from the repository's own config (what `git`
// reads for the workspace; a cloned repository cannot ship one) and the user's global ones.
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

/** Settings whose value is a path git runs or takes hooks from. */
const PATH_KEYS = new Set(["core.hookspath", "core.fsmonitor"]);
/** Settings whose value is a command line git runs. */
const COMMAND_KEYS = new Set(["core.sshcommand", "core.editor", "core.pager", "core.askpass", "diff.external", "sequence.editor", "gpg.program"]);
const COMMAND_SUFFIXES = [".clean", ".smudge", ".process", ".textconv", ".command", ".cmd", ".tool"];

interface Cached {
  stamp: string;
  paths: string[];
}
const cache = new Map<string, Cached>();

/** Absolute paths inside `root` that git settings name as programs or hook folders (cached until a config file changes). */
export function gitExecutablePaths(root: string, env: Record<string, string | undefined> = process.env): string[] {
  const files = configFiles(root, env);
  const stamp = files.map((f) => `${f}:${mtime(f)}`).join("|");
  const hit = cache.get(root);
  if (hit?.stamp === stamp) return hit.paths;
  const paths = new Set<string>();
  for (const file of files) for (const [key, value] of settings(file)) for (const p of namedPaths(root, key, value)) paths.add(p);
  const out = [...paths];
  cache.set(root, { stamp, paths: out });
  return out;
}

/** Whether `abs` is one of those paths or inside one. */
export function isGitExecutable(root: string, abs: string): boolean {
  return gitExecutablePaths(root).some((p) => abs === p || abs.startsWith(p + sep));
}

function configFiles(root: string, env: Record<string, string | undefined>): string[] {
  const home = env.HOME || homedir();
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
  return [join(gitDir(root), "config"), join(home, ".gitconfig"), join(xdg, "git", "config")];
}

/** `.git` is a folder, or (worktrees, submodules) a file saying where the folder is. */
function gitDir(root: string): string {
  const dotGit = join(root, ".git");
  try {
    const text = readFileSync(dotGit, "utf8");
    const m = /^gitdir:\s*(.+)$/m.exec(text);
    if (m) return resolve(root, m[1]!.trim());
  } catch {}
  return dotGit;
}

function mtime(file: string): string {
  try {
    return String(statSync(file).mtimeMs);
  } catch {
    return "-";
  }
}

/** `section.sub.key = value` pairs of a git config file (keys lower-cased but the subsection). */
function settings(file: string): Array<[string, string]> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const out: Array<[string, string]> = [];
  let section = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(.*)")?\s*\]/.exec(line);
    if (head) {
      section = head[1]!.toLowerCase() + (head[2] !== undefined ? `.${head[2]}` : "");
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (kv && section) out.push([`${section}.${kv[1]!.toLowerCase()}`, unquote(kv[2] ?? "")]);
  }
  return out;
}

function unquote(v: string): string {
  const t = v.replace(/\s+[#;].*$/, "").trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
}

function runsCommand(key: string, value: string): boolean {
  if (COMMAND_KEYS.has(key)) return true;
  if (key.startsWith("alias.")) return value.startsWith("!");
  return (key.startsWith("filter.") || key.startsWith("diff.") || key.startsWith("merge.") || key.startsWith("credential.")) && COMMAND_SUFFIXES.some((s) => key.endsWith(s));
}

/** The paths inside `root` a setting names: a hook folder, or the files a command line mentions. */
function namedPaths(root: string, key: string, value: string): string[] {
  if (!value || /^(true|false|yes|no|on|off|1|0)$/i.test(value)) return [];
  const candidates = PATH_KEYS.has(key) ? [value] : runsCommand(key, value) ? value.replace(/^!/, "").split(/\s+/) : [];
  const out: string[] = [];
  for (const c of candidates) {
    const token = c.replace(/^["']|["']$/g, "").replace(/^~(?=\/)/, homedir());
    if (!token || token.startsWith("-")) continue;
    const abs = isAbsolute(token) ? resolve(token) : resolve(root, token);
    const rel = relative(root, abs);
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) continue;
    // A hook folder counts even before it exists; a command's word only when it is a file there.
    if (PATH_KEYS.has(key) || exists(abs)) out.push(abs);
  }
  return out;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
