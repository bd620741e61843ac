// Confinement on macOS: a Seatbelt profile run by sandbox-exec.
import { gitExecutablePaths } from "../fs/git-executables.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { PROTECTED_NAMES } from "../fs/protected.ts";
import { hiddenDirs, pathDirsUnder, realOr } from "./confine-paths.ts";
import type { ConfinedCommand, ConfinePolicy } from "./confined-command.ts";

function sbString(s: string): string {
  return `"${s.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

function reEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\"]/g, "\\$&");
}

/** Letters as [xX] classes: APFS is case-insensitive, so `.GIT` is `.git`. */
function caseless(s: string): string {
  return reEscape(s).replace(/[a-z]/g, (ch) => `[${ch}${ch.toUpperCase()}]`);
}

/** The Seatbelt profile for `policy` (exported for tests: the regexes are checked on any OS). */
export function seatbeltProfile(policy: ConfinePolicy, tmp: string, hidden: string[]): string {
  const ws = realOr(resolve(policy.workspace));
  const env = `${caseless(".env")}(\\.[^/]*)?`;
  const names = [...PROTECTED_NAMES.map(caseless), env].join("|");
  const protectedRe = `^${reEscape(ws)}(/.*)?/(${names})(/.*)?$`;
  const envRe = `^${reEscape(ws)}(/.*)?/${env}(/.*)?$`;
  const lines = [
    "(version 1)",
    "(allow default)",
    // Writes: only the workspace, this run's temp dir, and the terminal devices (last match wins).
    "(deny file-write*)",
    `(allow file-write* (subpath ${sbString(ws)}) (subpath ${sbString(tmp)}) ${(policy.writable ?? []).map((w) => `(subpath ${sbString(realOr(w))})`).join(" ")} (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))`,
    // Protected names anywhere under the workspace: not created, changed, renamed or deleted.
    `(deny file-write* (regex #"${protectedRe}"))`,
    // What git runs from inside the workspace (hooks folder, filter scripts): like .git.
    ...gitExecutablePaths(ws).map((p) => `(deny file-write* (subpath ${sbString(p)}))`),
    // Reads: not the home directory or pml's state, except the workspace and what the policy names.
    ...hidden.map((h) => `(deny file-read* (subpath ${sbString(h)}))`),
    `(allow file-read* (subpath ${sbString(ws)}) (subpath ${sbString(tmp)}) ${[...pathDirsUnder(hidden), ...(policy.readOnly ?? []).map(realOr), ...(policy.writable ?? []).map(realOr)].map((p) => `(subpath ${sbString(p)})`).join(" ")})`,
    // The parents of the workspace must be listable for path resolution (getcwd, realpath).
    ...ancestors(ws).map((d) => `(allow file-read-metadata (literal ${sbString(d)}))`),
    `(deny file-read-data (regex #"${envRe}"))`,
  ];
  if (!policy.network) lines.push("(deny network*)");
  return lines.join("\n");
}

export function confineWithSeatbelt(argv: string[], policy: ConfinePolicy): ConfinedCommand {
  const tmp = realOr(mkdtempSync(join(tmpdir(), "pml-confined-")));
  // sandbox-exec has no --chdir: the caller starts the process in policy.cwd.
  return {
    argv: ["/usr/bin/sandbox-exec", "-p", seatbeltProfile(policy, tmp, hiddenDirs()), ...argv],
    env: { TMPDIR: tmp },
    release: () => rmSync(tmp, { recursive: true, force: true }),
    // Seatbelt rules are about paths and names, not mounts: a replaced file is covered as it
    // was, and a protected name cannot be created anywhere.
    guard: () => () => {},
    sweep: () => [],
  };
}

function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let d = dirname(p); ; d = dirname(d)) {
    out.push(d);
    if (d === dirname(d)) break;
  }
  return out;
}
