// Read-only placeholders that stand, during a confined run, where a protected name is absent at
// the workspace root, and the empty sources bound over `.env*` files.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pmlHome } from "../config/paths.ts";
import { PROTECTED_NAMES } from "../fs/protected.ts";

/** Absent protected names at the workspace root get a read-only placeholder, so a confined process
 * cannot create them (a `.pml.json` allowing everything, a `.git` with hooks, a `.env`). */
const ROOT_PLACEHOLDERS: ReadonlyArray<{ name: string; dir: boolean }> = [
  ...PROTECTED_NAMES.map((name) => ({ name, dir: !name.endsWith(".json") })),
  { name: ".env", dir: false },
  { name: ".env.local", dir: false },
];

// Placeholders are mount points bubblewrap creates on the host (an empty file or directory). They
// are removed when no process needs them any more: counted per path in this process, and listed
// in `$PML_HOME/confine/placeholders/<pid>.json` so that another pml process does not remove one
// still in use, and leftovers of a pml that was killed are swept by the next one.
const placeholderUsers = new Map<string, number>();
let swept = false;
let exitHook = false;

function recordsDir(): string {
  return join(pmlHome(), "confine", "placeholders");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e?.code === "EPERM";
  }
}

/** Placeholders listed by live pml processes other than this one. */
export function othersInUse(): Set<string> {
  const inUse = new Set<string>();
  let files: string[] = [];
  try {
    files = readdirSync(recordsDir());
  } catch {}
  for (const f of files) {
    const pid = Number.parseInt(f, 10);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const path = join(recordsDir(), f);
    let list: unknown;
    try {
      list = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      continue;
    }
    if (!Array.isArray(list)) continue;
    if (alive(pid)) for (const p of list) inUse.add(String(p));
    else if (!swept) {
      // A pml that died without cleaning up (SIGKILL, a crash): its placeholders go now.
      for (const p of list) removeIfEmpty(String(p));
      rmSync(path, { force: true });
    }
  }
  swept = true;
  return inUse;
}

function writeRecord(): void {
  const path = join(recordsDir(), `${process.pid}.json`);
  try {
    if (placeholderUsers.size === 0) rmSync(path, { force: true });
    else {
      mkdirSync(recordsDir(), { recursive: true, mode: 0o700 });
      writeFileSync(path, JSON.stringify([...placeholderUsers.keys()]));
    }
  } catch {}
}

function takePlaceholder(p: string): void {
  placeholderUsers.set(p, (placeholderUsers.get(p) ?? 0) + 1);
  if (!exitHook) {
    exitHook = true;
    // pml exiting while confined processes run: they are being ended; their placeholders go.
    process.once("exit", () => {
      const others = othersInUse();
      for (const q of placeholderUsers.keys()) if (!others.has(q)) removeIfEmpty(q);
      placeholderUsers.clear();
      writeRecord();
    });
  }
}

export function dropPlaceholders(paths: string[]): void {
  let others: Set<string> | undefined;
  for (const p of paths) {
    const n = (placeholderUsers.get(p) ?? 1) - 1;
    if (n > 0) {
      placeholderUsers.set(p, n);
      continue;
    }
    placeholderUsers.delete(p);
    others ??= othersInUse();
    if (!others.has(p)) removeIfEmpty(p);
  }
  writeRecord();
}

/** An empty read-only file and folder under PML_HOME, bound over `.env*` entries and as placeholders. */
export function emptySources(): { file: string; dir: string } {
  const base = join(pmlHome(), "confine");
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const file = join(base, "empty");
  const dir = join(base, "empty.d");
  // Re-checked each time: the sources must stay empty and ours (a bind source is resolved on the host).
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.size !== 0) rmSync(file, { recursive: true, force: true });
  } catch {}
  if (!existsSync(file)) writeFileSync(file, "", { mode: 0o444 });
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory() || readdirSync(dir).length > 0) rmSync(dir, { recursive: true, force: true });
  } catch {}
  if (!existsSync(dir)) mkdirSync(dir, { mode: 0o555 });
  chmodSync(dir, 0o555);
  return { file, dir };
}

function lstatExists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Removes a placeholder mount point left on the host, only if it is still the empty thing. */
function removeIfEmpty(p: string): void {
  try {
    const st = lstatSync(p);
    if (st.isFile() && st.size === 0) unlinkSync(p);
    else if (st.isDirectory() && readdirSync(p).length === 0) rmdirSync(p);
  } catch {}
}

/** Binds a read-only placeholder over each protected name absent at the workspace root (or one
 * another pml process made and still uses, which this one then shares); returns their paths. */
export function bindRootPlaceholders(args: string[], ws: string, others: Set<string>, empty: { file: string; dir: string }): string[] {
  const made: string[] = [];
  for (const { name, dir: isDir } of ROOT_PLACEHOLDERS) {
    const p = join(ws, name);
    if (lstatExists(p) && !others.has(p) && !placeholderUsers.has(p)) continue;
    args.push("--ro-bind", isDir ? empty.dir : empty.file, p);
    made.push(p);
    takePlaceholder(p);
  }
  writeRecord();
  return made;
}

/** Placeholders this process or another live pml process holds. */
export function placeholdersInUse(): Set<string> {
  return new Set([...othersInUse(), ...placeholderUsers.keys()]);
}
