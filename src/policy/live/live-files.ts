// The files through which running pml sessions and a `pml ui` page talk, under $PML_HOME/live/:
//   session-<id>.json     what a session does now (servers, pending approvals); its mtime is the heartbeat
//   session-<id>.inbox/   answers from the page, one file per approval, consumed once by the session
//   page-<id>.json        a page open for a workspace (its mtime is the heartbeat)
// Whoever can write in this folder can answer approvals, so it must be the user's own: owned by
// them, a real directory (no link), and writable by nobody else. It is created 0700 and checked
// before anything in it is trusted; a folder that fails the check is refused, never repaired.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, type Stats } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../../errors.ts";

/** How often a session or page refreshes its heartbeat. */
export const HEARTBEAT_MS = 2_000;
/** A heartbeat older than this is a session or page that stopped (hung, or killed on another host). */
export const STALE_MS = 15_000;
/** The largest file pml reads here (an answer is a few dozen bytes; a session a few KB). */
const MAX_FILE_BYTES = 1 << 20;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// Windows has no POSIX modes or uids: the folder in the user's profile is the user's by its ACL.
const POSIX = process.platform !== "win32";
export const HOST = hostname();

/** Session, approval and page ids: what pml generates, so nothing else can name a path. */
export const ID_RE = /^[A-Za-z0-9_-]{8,64}$/;

export const liveDir = (home: string) => join(home, "live");
export const sessionFile = (home: string, id: string) => join(liveDir(home), `session-${id}.json`);
export const inboxDir = (home: string, id: string) => join(liveDir(home), `session-${id}.inbox`);
export const pageFile = (home: string, id: string) => join(liveDir(home), `page-${id}.json`);

export function newId(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

/**
 * The live folder (or a folder inside it), created 0700 when missing, and checked: a directory,
 * not a link, the user's own, writable by nobody else. Throws a ConfigError saying what to do.
 */
export function ensureOwnDir(path: string): string {
  let st = lstatOrUndefined(path);
  if (!st) {
    try {
      mkdirSync(path, { recursive: true, mode: 0o700 });
    } catch (e: any) {
      if (e?.code !== "EEXIST") throw e;
    }
    st = lstatSync(path);
  }
  checkOwnDir(path, st);
  return path;
}

/** Checks an existing folder as ensureOwnDir does; false when it does not exist. */
export function ownDirExists(path: string): boolean {
  const st = lstatOrUndefined(path);
  if (!st) return false;
  checkOwnDir(path, st);
  return true;
}

function checkOwnDir(path: string, st: Stats): void {
  if (st.isSymbolicLink())
    throw new ConfigError(`${path} is a symbolic link; pml keeps its live session files in a folder of its own. Remove the link (rm "${path}") and retry.`, path);
  if (!st.isDirectory()) throw new ConfigError(`${path} is not a directory; move it away and retry.`, path);
  if (!POSIX) return;
  if (st.uid !== process.getuid?.())
    throw new ConfigError(`${path} belongs to another user (uid ${st.uid}); pml takes approvals only from a folder of your own. Remove it and retry.`, path);
  if ((st.mode & 0o022) !== 0)
    throw new ConfigError(
      `${path} is writable by other users (mode ${(st.mode & 0o777).toString(8)}), so anyone could answer pml's approvals through it; run \`chmod 700 ${path}\` and retry.`,
      path,
    );
}

/**
 * A file's text, read without following a link and only when it is a regular file of the
 * user's own (not writable by others); undefined when it is missing or fails a check.
 */
export function readOwnFile(path: string): { text: string; mtimeMs: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_FILE_BYTES) return undefined;
    if (POSIX && (st.uid !== process.getuid?.() || (st.mode & 0o022) !== 0)) return undefined;
    return { text: readFileSync(fd, "utf8"), mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Whether the process that wrote a file may still run: on this host, its pid exists; on another
 * host (a shared PML_HOME), only the heartbeat can tell. */
export function mayBeAlive(pid: unknown, host: unknown): boolean {
  if (host !== HOST) return true;
  if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e?.code === "EPERM"; // alive, another user's (a reused pid): the heartbeat decides
  }
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch (e: any) {
    if (e?.code === "ENOENT") return undefined;
    throw e;
  }
}
