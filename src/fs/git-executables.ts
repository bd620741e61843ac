// Files inside the workspace that git reads as its configuration or runs: git settings can name
// programs outside `.git/` (husky's `core.hooksPath=.husky`, a filter's `clean` script, an
// `alias.x = !./tools/x.sh`), and a config file can include another (`include.path =
// ../team.gitconfig`), itself able to set any of these. A tool that rewrote one would have its code
// run, unconfined, by the user's next `git status` or `git commit`. They are protected like
// `.git/` itself. Read for every repository that applies in the workspace (./git-repos.ts), from
// its own config and the user's, following includes (./git-config.ts).
import { realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { readGitConfig } from "./git-config.ts";
import { enclosingRepo, type GitRepo, gitDirAround, nestedRepos, repoAt, reposAbove } from "./git-repos.ts";
import { type ShellWord, shellWords } from "./shell-words.ts";

type Env = Record<string, string | undefined>;

/** Settings whose value is a path git runs or takes hooks from (protected even before it exists). */
const PATH_KEYS = new Set(["core.hookspath", "core.fsmonitor"]);
/** Settings whose value is a command line git runs (core.fsmonitor too: git runs it through the shell). */
const COMMAND_KEYS = new Set([
  "core.fsmonitor",
  "core.sshcommand",
  "core.editor",
  "core.pager",
  "core.askpass",
  "core.gitproxy",
  "core.alternaterefscommand",
  "diff.external",
  "sequence.editor",
  "uploadpack.packobjectshook",
  "interactive.difffilter",
]);
/** The last part of a key that names a command in any section: filter.<d>.clean, diff.<d>.textconv,
 * merge.<d>.driver, credential.helper, gpg.ssh.program, hook.<n>.command, mergetool.<t>.cmd, ... */
const COMMAND_NAMES = new Set([
  "clean",
  "smudge",
  "process",
  "textconv",
  "command",
  "cmd",
  "driver",
  "helper",
  "program",
  "sshcommand",
  "uploadpack",
  "receivepack",
  "sendmailcmd",
  "tocmd",
  "cccmd",
  "headercmd",
  "defaultkeycommand",
]);
/** Sections whose `<section>.<tool>.path` is a program. */
const TOOL_PATH_SECTIONS = new Set(["difftool", "mergetool", "man", "browser"]);
const BOOLEAN = /^(true|false|yes|no|on|off|1|0)$/i;

export interface GitPathOptions {
  env?: Env;
  /** Folders holding a `.git`, found by a walk the caller just made: used instead of this module's scan. */
  workTrees?: string[];
}

/**
 * Absolute paths inside `root` that git reads as configuration (included files) or runs (hook
 * folders, programs), for the repository `root` is in and every repository below it. Cached
 * until one of the files read, or the existence of a file that decided, changes.
 */
export function gitExecutablePaths(root: string, opts: GitPathOptions = {}): string[] {
  const below = opts.workTrees ? opts.workTrees.map(repoAt) : nestedRepos(root);
  return collect(root, [enclosingRepo(root), ...below], opts.env ?? process.env);
}

/** The one of those paths that `abs` is or lies in; the repositories in the folders above `abs` are
 * looked for at each call. A folder that is, or that writing `abs` would make, a bare repository
 * counts as one (its config is read like `.git/config`). */
export function gitExecutableAt(root: string, abs: string, env: Env = process.env): string | undefined {
  const repos = [enclosingRepo(root), ...nestedRepos(root), ...reposAbove(root, abs)];
  return collect(root, repos, env).find((p) => abs === p || abs.startsWith(p + sep)) ?? gitDirAround(root, abs);
}

/** The first of those paths inside the folder `dir` (moving the folder would carry it away). */
export function gitExecutableWithin(root: string, dir: string, env: Env = process.env): string | undefined {
  const repos = [enclosingRepo(root), ...nestedRepos(root), ...reposAbove(root, dir)];
  return collect(root, repos, env).find((p) => p === dir || p.startsWith(dir + sep));
}

function collect(root: string, repos: Array<GitRepo | undefined>, env: Env): string[] {
  const home = env.HOME || homedir();
  const user = userConfigFiles(env, home);
  const done = new Set<string>();
  const out = new Set<string>();
  for (const repo of repos) {
    if (!repo || done.has(repo.workTree)) continue;
    done.add(repo.workTree);
    for (const p of repoPaths(root, repo, user, home)) out.add(p);
  }
  return [...out];
}

function userConfigFiles(env: Env, home: string): string[] {
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
  const files = [join(home, ".gitconfig"), join(xdg, "git", "config"), "/etc/gitconfig"];
  for (const f of [env.GIT_CONFIG_GLOBAL, env.GIT_CONFIG_SYSTEM]) if (f) files.push(resolve(f));
  return files;
}

interface Cached {
  /** Each file or path the answer depends on, and its state when it was looked at. */
  watched: Array<[string, string]>;
  paths: string[];
}
const cache = new Map<string, Cached>();

function repoPaths(root: string, repo: GitRepo, user: string[], home: string): string[] {
  const files = [...repo.configFiles, ...user];
  const key = [root, repo.workTree, ...files].join("\0");
  const hit = cache.get(key);
  if (hit?.watched.every(([p, s]) => state(p) === s)) return hit.paths;
  // States are taken before reading, so a change while reading shows at the next call.
  const watched = new Map<string, string>();
  const look = (p: string) => {
    const s = state(p);
    if (!watched.has(p)) watched.set(p, s);
    return s;
  };
  const config = readGitConfig(files, home, look);
  const found = new Set(config.includes);
  for (const [k, v] of config.settings) for (const p of namedPaths(repo.workTree, k, v, home, look)) found.add(p);
  const paths = insideWithReal(root, found);
  cache.set(key, { watched: [...watched], paths });
  return paths;
}

/** A path's state for the cache: missing, or kind, size, inode and times. */
function state(p: string): string {
  try {
    const st = statSync(p);
    return `${st.isDirectory() ? "d" : "f"}:${st.size}:${st.ino}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return "-";
  }
}

/** Those of `paths` inside `root`, and where the existing ones really are (a symlinked config's target). */
function insideWithReal(root: string, paths: Iterable<string>): string[] {
  const out = new Set<string>();
  const inside = (p: string) => {
    const rel = relative(root, p);
    return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  };
  for (const p of paths) {
    if (!inside(p)) continue;
    out.add(p);
    try {
      const real = realpathSync(p);
      if (inside(real)) out.add(real);
    } catch {}
  }
  return [...out];
}

function runsCommand(key: string): boolean {
  if (COMMAND_KEYS.has(key)) return true;
  const section = key.slice(0, key.indexOf("."));
  const name = key.slice(key.lastIndexOf(".") + 1);
  // An alias runs a shell (`!...`) or git with its words, where `-c` can set any setting here.
  if (section === "alias" || section === "pager") return true;
  if (section === "include" || section === "includeif" || section === "submodule") return false;
  return name === "path" ? TOOL_PATH_SECTIONS.has(section) : COMMAND_NAMES.has(name);
}

type Look = (path: string) => string;

/** The paths a setting names: a hook folder, the files a command line mentions, and what a `-c key=value` in it names. */
function namedPaths(workTree: string, key: string, value: string, home: string, look: Look): string[] {
  if (!value || BOOLEAN.test(value)) return [];
  const out: string[] = [];
  if (PATH_KEYS.has(key)) out.push(resolve(workTree, expandHome(value, home)));
  if (!runsCommand(key)) return out;
  const words = shellWords(value.replace(/^!/, ""));
  words.forEach((w, i) => {
    const set = w.text === "-c" ? words[i + 1]?.text : w.text.startsWith("-c") ? w.text.slice(2) : undefined;
    const eq = set?.indexOf("=") ?? -1;
    if (set && eq > 0) out.push(...namedPaths(workTree, set.slice(0, eq).toLowerCase(), set.slice(eq + 1), home, look));
    const p = wordPath(workTree, w, home, look);
    if (p) out.push(p);
  });
  return out;
}

/**
 * The file a command line's word may name. A word with a `/` counts even before it exists (it
 * could be created, then run), unless it is a folder; a bare word only when a file of that name
 * is there and the word is not the command (`sh` looks a bare command up in PATH, not here).
 * `--opt=x` and `X=x` are looked at for `x`.
 */
function wordPath(workTree: string, w: ShellWord, home: string, look: Look): string | undefined {
  const eq = w.text.indexOf("=");
  const text = eq >= 0 ? w.text.slice(eq + 1) : w.text;
  // Options, and words the shell would expand first (`$X`, `*`, a filter's `%f`), name nothing we can see.
  if (!text || text.startsWith("-") || /[$`*?%]/.test(text)) return undefined;
  const abs = resolve(workTree, expandHome(text, home));
  const kind = look(abs)[0];
  if (text.includes("/")) return kind === "d" ? undefined : abs;
  return !w.command && kind === "f" ? abs : undefined;
}

function expandHome(p: string, home: string): string {
  return p === "~" ? home : p.startsWith("~/") ? join(home, p.slice(2)) : p;
}
