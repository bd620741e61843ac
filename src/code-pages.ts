// Most of an idle pml's resident memory is not its data but pages of its own executable: the
// runtime's machine code and read-only data that start-up, a sandbox run (the WebAssembly
// compiler, a worker's VM), SQLite or a full collection touched once (bench/rss.ts: ~49 of 61 MB
// were the binary's pages, ~10 MB anonymous). The kernel drops such clean file pages only under
// memory pressure, so until then they count as pml's memory. Once pml has gone idle they are
// handed back (madvise MADV_DONTNEED); the page cache keeps them, and what the next call runs
// comes back as minor page faults (a few ms, once).
import { readFileSync } from "node:fs";

const MADV_DONTNEED = 4;

type Madvise = (addr: number, length: number, advice: number) => number;
let madvise: Madvise | null | undefined;

/** libc's madvise through bun:ffi (Linux with glibc); null where it cannot be had. */
async function loadMadvise(): Promise<Madvise | null> {
  if (process.platform !== "linux") return null;
  try {
    const { dlopen, FFIType } = await import("bun:ffi");
    const lib = dlopen("libc.so.6", { madvise: { args: [FFIType.u64, FFIType.u64, FFIType.i32], returns: FFIType.i32 } });
    return lib.symbols.madvise as Madvise;
  } catch {
    return null; // another libc (musl), or no FFI: the pages stay until the kernel wants them
  }
}

/**
 * The mappings of the executable that may be dropped: not writable and holding no page of their
 * own (`Anonymous: 0`). A read-only mapping that was written before being protected (the
 * runtime's configuration block) holds private copies; dropping those would lose them.
 */
export function droppableMappings(smaps: string, executable: string): [start: number, end: number][] {
  const out: [number, number][] = [];
  let current: [number, number] | undefined;
  for (const line of smaps.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = head[3]![1] === "-" && head[3]![3] === "p" && head[4] === executable ? [parseInt(head[1]!, 16), parseInt(head[2]!, 16)] : undefined;
      continue;
    }
    const anon = current && /^Anonymous:\s+(\d+) kB/.exec(line);
    if (!anon) continue;
    if (anon[1] === "0") out.push(current!);
    current = undefined;
  }
  return out;
}

/** Hands the executable's clean pages back to the kernel (Linux; elsewhere nothing happens). */
export async function releaseCodePages(): Promise<void> {
  if (madvise === undefined) madvise = await loadMadvise();
  if (!madvise) return;
  let smaps: string;
  try {
    smaps = readFileSync("/proc/self/smaps", "utf8");
  } catch {
    return;
  }
  for (const [start, end] of droppableMappings(smaps, process.execPath)) madvise(start, end - start, MADV_DONTNEED);
}
