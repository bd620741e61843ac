// ctx.fs.glob on the host side: a pattern matched inside the workspace, never outside it, through
// no symlink, and never into a `.env*` folder.
import { lstat, realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, relative } from "node:path";
import { PathError } from "../fs/path-guard.ts";
import { protectedKind } from "../fs/protected.ts";
import { type HostChecks, str, under } from "./host-checks.ts";

const MAX_GLOB_RESULTS = 1000;

interface GlobResult {
  matches: string[];
  truncated: boolean;
}

/** A pattern split at its first magic segment: the literal folders before it, and the rest. */
function splitPattern(pattern: string): { literal: string[]; rest: string; magic: boolean } {
  const parts = pattern.split("/");
  const firstMagic = parts.findIndex((seg) => /[*?[\]{}()!+@]/.test(seg));
  const literal = (firstMagic < 0 ? parts : parts.slice(0, firstMagic)).filter((x) => x && x !== ".");
  const rest = firstMagic < 0 ? "" : parts.slice(firstMagic).join("/");
  return { literal, rest, magic: firstMagic >= 0 };
}

export async function globFiles(c: HostChecks, a: any): Promise<GlobResult> {
  const pattern = str(a?.pattern, "pattern");
  if (isAbsolute(pattern) || pattern.startsWith("/") || pattern.split(/[\\/]/).includes("..")) {
    c.refuse(`glob ${pattern}`, "glob patterns are relative to the search directory and may not contain ..");
  }
  if (pattern.includes("\\")) c.refuse(`glob ${pattern}`, "backslashes are not allowed in search patterns; use / between folders and [*] for a literal *");
  // Bun.Glob follows symlinks named literally at the start of a pattern (`r/etc/pass*` with
  // r -> /) even with followSymlinks off. So the literal folders are resolved through the path
  // guard first and only the rest of the pattern is walked, from the real folder they lead to.
  const { literal, rest, magic } = splitPattern(pattern);
  const givenBase = a?.path ?? ".";
  const base = await c.guard("glob", givenBase, { mustExist: true });
  const r = await c.root();
  const lexicalStart = join(relative(r, base) || ".", ...literal);
  const startReal = await c.guard("glob", lexicalStart, { mustExist: magic }).catch((e) => {
    if (e instanceof PathError && e.reason === "missing") return undefined;
    throw e;
  });
  if (startReal === undefined) return { matches: [], truncated: false };
  if (!magic) {
    const exists = await lstat(join(r, lexicalStart)).then(
      () => true,
      () => false,
    );
    return { matches: exists ? [lexicalStart] : [], truncated: false };
  }
  return walk(rest, startReal, lexicalStart, r);
}

/** Matches `rest` from `startReal`, keeping only entries whose folder really lies in `root`. */
async function walk(rest: string, startReal: string, lexicalStart: string, root: string): Promise<GlobResult> {
  const realDirs = new Map<string, boolean>();
  const parentInside = async (full: string) => {
    const dir = dirname(full);
    let ok = realDirs.get(dir);
    if (ok === undefined) {
      ok = under(await realpath(dir).catch(() => ""), root);
      realDirs.set(dir, ok);
    }
    return ok;
  };
  const matches: string[] = [];
  let truncated = false;
  for await (const m of new Bun.Glob(rest).scan({ cwd: startReal, dot: true, onlyFiles: false, followSymlinks: false })) {
    const full = join(startReal, m);
    if (!under(full, root) || !(await parentInside(full))) continue;
    const shown = join(lexicalStart, m);
    // Names of .env* entries are shown; what is inside a .env* folder is not.
    if (protectedKind(dirname(shown)) === "env") continue;
    if (matches.length >= MAX_GLOB_RESULTS) {
      truncated = true;
      break;
    }
    matches.push(shown);
  }
  return { matches: matches.sort(), truncated };
}
