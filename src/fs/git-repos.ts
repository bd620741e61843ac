// The git repositories whose settings apply inside a workspace, for ./git-executables.ts: the
// one the workspace is in (at its root or above), and every one below it (nested clones,
// submodules and worktrees, whose `.git` is a file naming the real folder), each with its own
// config files. Found the way git finds them: a `.git` entry in a folder.
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { walkDirs } from "./walk-dirs.ts";

export interface GitRepo {
  /** The folder holding `.git`: where git runs hooks, aliases and filters from. */
  workTree: string;
  /** The repository's own config files (those of the folder it shares, for a worktree), existing or not. */
  configFiles: string[];
}

/** A full scan of the workspace for repositories is reused this long; the folders above a path are looked at on every check. */
const SCAN_MS = 5_000;
/** A scan stops after this many folders (as findProtectedPaths does), so a huge tree cannot stall a call. */
const SCAN_LIMIT = 20_000;

/** The repository whose work tree is `dir`, if `dir` has a `.git` folder or a `.git` file naming one. */
export function repoAt(dir: string): GitRepo | undefined {
  const dotGit = join(dir, ".git");
  let gitDir = dotGit;
  try {
    if (statSync(dotGit).isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
      if (!m) return undefined;
      gitDir = resolve(dir, m[1]!);
    }
  } catch {
    return undefined;
  }
  // A worktree's git folder says where the shared one is (its config, its hooks).
  let common = gitDir;
  try {
    common = resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
  } catch {}
  const files = [join(common, "config"), join(common, "config.worktree"), join(gitDir, "config.worktree")];
  return { workTree: dir, configFiles: [...new Set(files)] };
}

/** The repository git uses for `root`: the first `.git` in `root` or a folder above it. */
export function enclosingRepo(root: string): GitRepo | undefined {
  for (let d = root; ; d = dirname(d)) {
    const repo = repoAt(d);
    if (repo || d === dirname(d)) return repo;
  }
}

/** The repositories in the folders from `abs` up to (not including) `root`: exact, whatever a scan saw. */
export function reposAbove(root: string, abs: string): GitRepo[] {
  const out: GitRepo[] = [];
  for (let d = abs; d.startsWith(root + sep); d = dirname(d)) {
    const repo = repoAt(d);
    if (repo) out.push(repo);
  }
  return out;
}

const scans = new Map<string, { at: number; repos: GitRepo[] }>();

/**
 * Every repository below `root`, at any depth, from a scan at most SCAN_MS old. The scan skips
 * `node_modules` (reposAbove finds one there for a path inside it) and does not follow symlinks.
 */
export function nestedRepos(root: string, now = Date.now()): GitRepo[] {
  const hit = scans.get(root);
  if (hit && now - hit.at < SCAN_MS) return hit.repos;
  const repos: GitRepo[] = [];
  walkDirs(root, SCAN_LIMIT, (dir, e) => {
    const name = e.name.toLowerCase();
    if (name !== ".git") return e.isDirectory() && name !== "node_modules";
    const repo = dir === root ? undefined : repoAt(dir);
    if (repo) repos.push(repo);
    return false;
  });
  scans.set(root, { at: now, repos });
  return repos;
}

/**
 * The folder (from `abs`'s up to `root`) that is, or that writing `abs` would make, a repository
 * of its own: git takes a folder with `HEAD`, `objects/` and `refs/` for a bare repository and
 * reads its `config` (a `core.pager`, an alias, `core.fsmonitor` with a work tree: programs it
 * runs) when the user runs git in it. Writing inside one is writing a `.git/`; so is adding the
 * last of the three. Undefined when there is none.
 */
export function gitDirAround(root: string, abs: string): string | undefined {
  for (let d = dirname(abs); d === root || d.startsWith(root + sep); d = dirname(d)) {
    const part = (name: string, dir: boolean) => {
      const p = join(d, name);
      // The path written is that part, or lies in it (case-blind: HEAD is head on macOS).
      const own = abs.toLowerCase() === p.toLowerCase() || abs.toLowerCase().startsWith(p.toLowerCase() + sep);
      return own || (dir ? isDir(p) : isHeadFile(p));
    };
    if (part("HEAD", false) && part("objects", true) && part("refs", true)) return d;
    if (d === root) break;
  }
  return undefined;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** A `HEAD` git accepts: a symbolic ref into refs/, or an object id. */
function isHeadFile(p: string): boolean {
  let fd: number | undefined;
  try {
    if (!statSync(p).isFile() || basename(p) !== "HEAD") return false;
    fd = openSync(p, "r");
    const buf = Buffer.alloc(80);
    const head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString("latin1");
    return /^ref:\s*refs\//.test(head) || /^[0-9a-f]{40}/.test(head);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
