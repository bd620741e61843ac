// Data files embedded in the binary (word vectors, WordNet's synonyms) read the way a plain file is:
// the first process of a binary reads the embedded file and leaves a copy under $PML_HOME/cache;
// later processes open that copy and read only what they need (pread). Reading an embedded file
// brings all of it into the process twice, as a copy on the heap and as the binary's pages it was
// read from; neither is given back while pml runs. An embedded file cannot be opened by other
// processes, which is why the copy exists; its name carries the content hash Bun gives embedded
// files, so a new binary's copy never meets an old one's.
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

/** The file's bytes; for an embedded one, a copy is left in `cache` for the next process to open,
 * and copies of older binaries (names that `family` matches) are removed. */
export function readAndKeep(path: string, cache: string, family: RegExp): Uint8Array {
  const bytes = readFileSync(path);
  if (isEmbedded(path) && process.platform !== "win32")
    void keepCopy(bytes, cache, basename(path), family).catch((e: Error) => log.debug(`${basename(path)} not kept in ${cache}: ${e.message}`));
  return bytes;
}

/** An older binary's copy is removed (a process reading it keeps its open file: unlinking does
 * not close it), and so are the half-written copies of processes that exited before their copy was done. */
async function keepCopy(bytes: Uint8Array, cache: string, name: string, family: RegExp): Promise<void> {
  await mkdir(cache, { recursive: true, mode: 0o700 });
  await removeOrphanTemps(cache, (target) => family.test(target));
  await writeFileAtomic(join(cache, name), bytes, { mode: 0o600 });
  for (const other of await readdir(cache)) if (other !== name && family.test(other)) await rm(join(cache, other), { force: true });
}
