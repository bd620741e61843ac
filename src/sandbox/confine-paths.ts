// Host paths as a confined process sees them: the folders it must not see, and the PATH folders
// inside them it still needs.
import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, resolve, sep } from "node:path";
import { pmlHome } from "../config/paths.ts";

/** The directories a confined process must not see: the user's home and pml's own state. */
export function hiddenDirs(): string[] {
  const out = new Set<string>();
  for (const h of [process.env.HOME?.trim(), homedir(), pmlHome()]) {
    if (!h) continue;
    const abs = resolve(h);
    if (abs === "/" || !existsSync(abs)) continue;
    out.add(realOr(abs));
  }
  return [...out];
}

export function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

export function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** PATH directories inside a hidden directory (~/.local/bin, ~/.bun/bin): programs the user runs
 * every day, kept visible (read-only) so confined commands still find them. */
export function pathDirsUnder(hidden: string[]): string[] {
  const out: string[] = [];
  for (const d of (process.env.PATH ?? "").split(delimiter)) {
    if (!d?.startsWith("/")) continue;
    const real = realOr(d);
    // Strictly below: a PATH holding $HOME itself must not re-expose the whole home.
    if (hidden.some((h) => real !== h && isUnder(real, h)) && existsSync(real)) out.push(real);
  }
  return out;
}
