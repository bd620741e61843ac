// The files that decide what runs or what is trusted. Nothing pml runs on the
// agent's behalf (built-in tools, modules, `execute` code, capabilities, confined processes) may
// create, change, rename, delete or symlink them, at any depth; `.env*` may not even be read.
// One list, used by the path guard (sandbox file access) and by the OS confinement (read-only binds),
// plus the files inside the workspace that git reads as configuration or runs (./git-executables.ts).
import { existsSync } from "node:fs";
import { gitExecutablePaths } from "./git-executables.ts";
import { walkDirs } from "./walk-dirs.ts";
import { basename, dirname, sep } from "node:path";

/** Names protected wherever they appear in a path: a file of that name or a folder and everything in it. */
export const PROTECTED_NAMES: readonly string[] = [".pml.json", ".pml", ".mcp.json", ".claude", ".git"];
/** `.env`, `.env.local`, `.env.production`, ...: protected and unreadable. */
const ENV_PREFIX = ".env";

// Characters that render as nothing (zero-width, joiners, BOM, variation selectors, soft hyphen):
// `.pml\u200b.json` must not slip past a check that a case-insensitive or normalising file
// system (macOS APFS/HFS+, Windows NTFS) would map to the protected name.
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each invisible code point is listed on its own on purpose.
const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/gu;

/**
 * The form two names share when some file system could treat them as the same entry: Unicode
 * compatibility-normalised (fullwidth `．ｇｉｔ` -> `.git`), case-folded (`.gıt` -> `.git`), invisible characters
 * dropped, and trailing dots and spaces removed (Windows ignores them: `.pml.json.` is `.pml.json`).
 */
export function canonicalName(name: string): string {
  // Upper then lower: NTFS and APFS fold `ı` (dotless i) to I and `ſ` (long s) to S, which a
  // plain toLowerCase keeps apart (`.gıt`, `.pml.jſon`).
  return name
    .normalize("NFKC")
    .replace(INVISIBLE, "")
    .toUpperCase()
    .toLowerCase()
    .replace(/[. ]+$/u, "");
}

function isEnvName(canonical: string): boolean {
  return canonical === ENV_PREFIX || canonical.startsWith(ENV_PREFIX + ".");
}

export type ProtectedKind = "policy" | "env";

/**
 * Why a workspace-relative path is protected, or undefined. "env" marks `.env*` files (not
 * readable either); "policy" marks the rest (readable, never changed).
 */
export function protectedKind(relPath: string): ProtectedKind | undefined {
  let kind: ProtectedKind | undefined;
  for (const part of relPath.split(/[\\/]+/u)) {
    if (!part || part === ".") continue;
    const c = canonicalName(part);
    if (isEnvName(c)) return "env";
    if (PROTECTED_NAMES.includes(c)) kind ??= "policy";
  }
  return kind;
}

/** The protected component of `relPath` as written by the caller, for error messages. */
export function protectedComponent(relPath: string): string | undefined {
  for (const part of relPath.split(/[\\/]+/u)) {
    if (!part || part === ".") continue;
    const c = canonicalName(part);
    if (isEnvName(c) || PROTECTED_NAMES.includes(c)) return part;
  }
  return undefined;
}

/**
 * Absolute paths of the protected entries that exist under `root`, for read-only binds of an OS
 * sandbox. Does not descend into protected folders (they are bound whole), `node_modules`, or
 * symlinks; stops after `limit` directories so a huge tree cannot stall a launch.
 */
export function findProtectedPaths(root: string, limit = 20_000): string[] {
  const found: string[] = [];
  walkDirs(root, limit, (_dir, e, full) => {
    const c = canonicalName(e.name);
    const protectedEntry = PROTECTED_NAMES.includes(c) || isEnvName(c);
    if (protectedEntry) found.push(full);
    return !protectedEntry && e.isDirectory() && e.name !== "node_modules";
  });
  // What git reads or runs from inside the workspace (an included config file, a hooks folder, a
  // filter's script) is protected like .git itself: the existing ones, not already inside a
  // protected entry, for every repository the walk found.
  const workTrees = found.filter((f) => canonicalName(basename(f)) === ".git").map(dirname);
  for (const p of gitExecutablePaths(root, { workTrees })) if (existsSync(p) && !found.some((f) => p === f || p.startsWith(f + sep))) found.push(p);
  return found;
}

/**
 * The first protected entry inside the directory `dir` (a path under it), for refusing to move or
 * replace a folder that holds one (`sub/` with `sub/.git`). "too-many" when the tree has more than
 * `limit` directories: the caller cannot tell, so it refuses. Symlinks are not followed: a link is
 * moved as a link.
 */
export function firstProtectedUnder(dir: string, limit = 20_000): string | "too-many" | undefined {
  let hit: string | undefined;
  const end = walkDirs(dir, limit, (_d, e, full) => {
    const c = canonicalName(e.name);
    if (!PROTECTED_NAMES.includes(c) && !isEnvName(c)) return e.isDirectory();
    hit = full;
    return "stop";
  });
  return hit ?? (end === "limit" ? "too-many" : undefined);
}
