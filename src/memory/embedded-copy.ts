// Data files embedded in the binary (word vectors, WordNet's synonyms) read the way a plain file is:
// the first process of a binary reads the embedded file and leaves a copy under $PML_HOME/cache;
// later processes open that copy and read only what they need (pread). Reading an embedded file
// brings all of it into the process twice, as a copy on the heap and as the binary's pages it was
// read from; neither is given back while pml runs. An embedded file cannot be opened by other
// processes, which is why the copy exists; its name carries the content hash Bun gives embedded
// files, so a new binary's copy never meets an old one's. The copy is made by a child `pml`, so
// that the bytes read from the binary are held by that short-lived process, not by this one for as
// long as it serves.
import { closeSync, fstatSync, openSync, readFileSync, statSync } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { log } from "../log.ts";
import { removeOrphanTemps, writeFileAtomic } from "../fs/atomic.ts";

/** A file inside the binary (`/$bunfs/root/…`, `B:\\~BUN\\root\\…` on Windows). */
export const isEmbedded = (path: string) => path.startsWith("/$bunfs/") || /[\\/]~BUN[\\/]/.test(path);

export interface OpenedFile {
  fd: number;
  size: number;
}

/**
 * The file open for reading: the cache's copy of an embedded one, or the file itself (a source
 * checkout). Undefined when there is no copy yet, or one of another size than the embedded file (cut
 * short): read it then with `readAndKeep`. Never on Windows, where an open file cannot be replaced.
 */
export function openCopy(path: string, cache: string): OpenedFile | undefined {
  if (process.platform === "win32") return undefined;
  let fd: number;
  try {
    fd = openSync(isEmbedded(path) ? join(cache, basename(path)) : path, "r");
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    if (isEmbedded(path) && size !== statSync(path).size) throw new Error("cut short");
    return { fd, size };
  } catch {
    closeSync(fd);
    return undefined;
  }
}

/** The argument that makes `pml` the child that copies one of its embedded files (main.ts). */
export const KEEP_EMBEDDED = "__keep-embedded";

/**
 * `open` of the file's copy (or of the file itself, in a source checkout); when there is no copy
 * yet, a child `pml` makes it first. Undefined when neither gives one (Windows, the child failed,
 * `open` refused it): the caller then reads the file with `readAndKeep`.
 */
export function openKept<T>(path: string, cache: string, open: (file: OpenedFile) => T | undefined): T | undefined {
  const file = openCopy(path, cache);
  if (file) return open(file);
  if (!isEmbedded(path) || process.platform === "win32") return undefined;
  // stdin ignored: this process's stdin is the client's JSON-RPC; stdout ignored: only JSON-RPC goes there.
  const child = Bun.spawnSync([process.execPath, KEEP_EMBEDDED, path, cache], { stdin: "ignore", stdout: "ignore", stderr: "inherit", timeout: 10_000 });
  if (!child.success) {
    log.debug(`${basename(path)} not copied to ${cache} (exit ${child.exitCode})`);
    return undefined;
  }
  const made = openCopy(path, cache);
  return made && open(made);
}

/** The child's work: `path`, a file of this binary, copied into `cache`. */
export async function keepEmbedded(path: string, cache: string): Promise<void> {
  if (!isEmbedded(path)) throw new Error(`${path} is not a file of this binary`);
  await keepCopy(readFileSync(path), cache, basename(path)).catch((e: Error) => {
    throw new Error(`${basename(path)} not copied to ${cache} (${e.message}); discover reads it from the binary instead`);
  });
}

/** The file's bytes; for an embedded one, a copy is left in `cache` for the next process to open. */
export function readAndKeep(path: string, cache: string): Uint8Array {
  const bytes = readFileSync(path);
  if (isEmbedded(path) && process.platform !== "win32")
    void keepCopy(bytes, cache, basename(path)).catch((e: Error) => log.debug(`${basename(path)} not kept in ${cache}: ${e.message}`));
  return bytes;
}

/** Copies of the same file by other binaries: `word-vectors-h6ay614d.bin` -> `word-vectors-*.bin`. */
function familyOf(name: string): RegExp {
  const m = /^(.*)-\w+(\.\w+)?$/.exec(name);
  const literal = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return m ? new RegExp(`^${literal(m[1]!)}-[\\w-]+${literal(m[2] ?? "")}$`) : new RegExp(`^${literal(name)}$`);
}

/** An older binary's copy is removed (a process reading it keeps its open file: unlinking does
 * not close it), and so are the half-written copies of processes that exited before their copy was done. */
async function keepCopy(bytes: Uint8Array, cache: string, name: string): Promise<void> {
  const family = familyOf(name);
  await mkdir(cache, { recursive: true, mode: 0o700 });
  await removeOrphanTemps(cache, (target) => family.test(target));
  await writeFileAtomic(join(cache, name), bytes, { mode: 0o600 });
  for (const other of await readdir(cache)) if (other !== name && family.test(other)) await rm(join(cache, other), { force: true });
}
