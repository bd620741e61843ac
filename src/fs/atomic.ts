// Atomic file writes and a read-modify-write lock. A reader (Claude Code, an editor, another pml)
// sees the old file or the new one, never half of one; two pml processes updating the same file
// (two "always" approvals racing) both land.
import { closeSync, fsyncSync, openSync, writeSync, type Stats } from "node:fs";
import * as fs from "node:fs";
import { open, readdir, readFile, rename, stat, unlink, lstat, realpath, link } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import { assertNoSymlinkBelow } from "./no-follow.ts";

export interface WriteOptions {
  /** File mode; default: the existing file's mode, else 0o644 minus the umask. */
  mode?: number;
  /**
   * A workspace the file lies in: no component below it may be a symlink (the file itself
   * included), else SymlinkRefusedError. Without it a symlinked file is written through
   * (dotfiles in ~/.pml), which a cloned repository must not be able to arrange.
   */
  within?: string;
}

function tempPathFor(target: string): string {
  const rand = Math.random().toString(36).slice(2, 10);
  return join(dirname(target), `.${basename(target)}.${process.pid}.${rand}.tmp`);
}

/**
 * Removes the temp files (tempPathFor) of the files in `dir` that `isTarget` names, left by
 * processes that are gone: a process killed between its write and its rename leaves one, and a
 * cache written in the background by short-lived processes would pile them up (7 MB each for the
 * word vectors). A live process's temp file is left alone: it is being written.
 */
export async function removeOrphanTemps(dir: string, isTarget: (name: string) => boolean): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = /^\.(.+)\.(\d+)\.[a-z0-9]+\.tmp$/.exec(name);
    if (m && isTarget(m[1]!) && !alive(Number(m[2]))) await unlink(join(dir, name)).catch(() => {});
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // another user's: alive
  }
}

/** A symlinked file (dotfiles repos) is written through, not replaced by a regular file. */
async function writeTarget(path: string): Promise<{ target: string; existing?: Stats }> {
  const abs = resolve(path);
  try {
    const l = await lstat(abs);
    if (l.isSymbolicLink()) {
      const target = await realpath(abs);
      return { target, existing: await stat(target) };
    }
    return { target: abs, existing: l };
  } catch (e: any) {
    if (e?.code === "ENOENT") return { target: abs };
    throw e;
  }
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, opts: WriteOptions = {}): Promise<void> {
  if (opts.within !== undefined) await assertNoSymlinkBelow(opts.within, path);
  const { target, existing } = await writeTarget(path);
  const mode = opts.mode ?? (existing ? existing.mode & 0o7777 : undefined);
  const tmp = tempPathFor(target);
  let handle: fs.promises.FileHandle | undefined;
  try {
    // 'wx': never follow or reuse something already at the temp name.
    handle = await open(tmp, "wx", mode ?? 0o644);
    // open()'s mode is filtered by the umask; an explicit or inherited mode must be exact (0600 for .env).
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(tmp, target);
  } catch (e) {
    await handle?.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw e;
  }
  await syncDir(dirname(target));
}

/** Synchronous twin, for the few callers that cannot await (exit handlers). */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, opts: WriteOptions = {}): void {
  let target = resolve(path);
  let existing: Stats | undefined;
  try {
    const l = fs.lstatSync(target);
    if (l.isSymbolicLink()) target = fs.realpathSync(target);
    existing = fs.statSync(target);
  } catch (e: any) {
    if (e?.code !== "ENOENT") throw e;
  }
  const mode = opts.mode ?? (existing ? existing.mode & 0o7777 : undefined);
  const tmp = tempPathFor(target);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, "wx", mode ?? 0o644);
    if (mode !== undefined) fs.fchmodSync(fd, mode);
    const buf = typeof data === "string" ? Buffer.from(data) : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, target);
  } catch (e) {
    if (fd !== undefined)
      try {
        closeSync(fd);
      } catch {}
    try {
      fs.unlinkSync(tmp);
    } catch {}
    throw e;
  }
}

async function syncDir(dir: string): Promise<void> {
  // Makes the rename itself durable; not every platform/filesystem allows opening a directory.
  try {
    const h = await open(dir, "r");
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {}
}

// ---------------------------------------------------------------------------------------------
// Locking

export interface LockOptions {
  /** A lock file older than this whose owner cannot be proven alive is taken over. Default 5 s. */
  staleMs?: number;
  /** Give up after this long. Default 15 s. */
  timeoutMs?: number;
}

const inProcess = new Map<string, Promise<unknown>>();
const host = hostname();

/**
 * Runs `fn` while holding `${path}.lock`: serialised with other calls in this process (a promise
 * chain) and with other processes (an O_EXCL lock file). A lock left by a dead process, or older
 * than `staleMs`, is recovered.
 */
export async function withFileLock<T>(path: string, fn: () => T | Promise<T>, opts: LockOptions = {}): Promise<T> {
  const key = resolve(path);
  const before = inProcess.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  const chained = before.then(() => mine);
  inProcess.set(key, chained);
  try {
    await before.catch(() => {});
    const token = await acquire(`${key}.lock`, opts);
    try {
      return await fn();
    } finally {
      await releaseLock(`${key}.lock`, token);
    }
  } finally {
    release();
    if (inProcess.get(key) === chained) inProcess.delete(key);
  }
}

async function acquire(lockPath: string, opts: LockOptions): Promise<string> {
  const staleMs = opts.staleMs ?? 5000;
  const deadline = Date.now() + (opts.timeoutMs ?? 15000);
  const token = `${process.pid} ${host} ${Math.random().toString(36).slice(2)}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      const h = await open(lockPath, "wx", 0o644);
      try {
        await h.writeFile(token);
      } finally {
        await h.close();
      }
      return token;
    } catch (e: any) {
      if (e?.code !== "EEXIST") throw e;
    }
    const seen = await readLock(lockPath);
    if (seen !== undefined && isStale(seen, staleMs)) {
      await breakLock(lockPath, seen.content);
      continue;
    }
    if (Date.now() > deadline) {
      const who = seen ? ` (held by process ${seen.content.split(" ")[0]})` : "";
      throw new ConfigError(`could not lock ${lockPath}${who}: another pml is updating this file. If no pml is running, delete ${lockPath} and retry.`, lockPath);
    }
    await Bun.sleep(Math.min(5 + attempt * 5, 50) + Math.random() * 10);
  }
}

interface SeenLock {
  content: string;
  mtimeMs: number;
}

async function readLock(lockPath: string): Promise<SeenLock | undefined> {
  try {
    const [content, st] = await Promise.all([readFile(lockPath, "utf8"), stat(lockPath)]);
    return { content, mtimeMs: st.mtimeMs };
  } catch {
    return undefined; // released between our open and our read: just retry
  }
}

const LIVE_HOLDER_STALE_MS = 10 * 60_000;

function isStale(seen: SeenLock, staleMs: number): boolean {
  const [pidText, lockHost] = seen.content.trim().split(" ");
  const pid = Number(pidText);
  if (lockHost === host && Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 0);
    } catch (e: any) {
      if (e?.code === "ESRCH") return true; // its owner is gone
    }
    // Its owner is alive: a slow edit (a big file, a loaded machine) keeps its lock; only one held
    // far longer than any edit takes is taken as left behind by a stuck process.
    return Date.now() - seen.mtimeMs > LIVE_HOLDER_STALE_MS;
  }
  // An empty lock file is a holder between open and write: give it the grace period too.
  return Date.now() - seen.mtimeMs > staleMs;
}

/** Takes a stale lock away without removing a fresh one another process just created:
 * move it aside, check it is the one we judged stale, put it back if not. */
async function breakLock(lockPath: string, staleContent: string): Promise<void> {
  const aside = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}.stale`;
  try {
    await rename(lockPath, aside);
  } catch {
    return;
  }
  try {
    const content = await readFile(aside, "utf8").catch(() => "");
    if (content !== staleContent) await link(aside, lockPath).catch(() => {});
  } finally {
    await unlink(aside).catch(() => {});
  }
}

async function releaseLock(lockPath: string, token: string): Promise<void> {
  const content = await readFile(lockPath, "utf8").catch(() => undefined);
  // Our lock was judged stale and taken over (fn ran very long): the file is someone else's now.
  if (content === token) await unlink(lockPath).catch(() => {});
}
