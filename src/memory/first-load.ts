// discover's first load reads every record a workspace can find (10k: a few hundred ms) and makes
// several times in garbage what the index keeps; these keep the process's resident memory near
// what it keeps (bench/memory-vectors.ts measures each).
import { edenGC } from "bun:jsc";

/** A first load collects its garbage (each row read, its text and words: several times what the
 * index keeps) every this many records, so the heap never holds more than a slice of it. A young
 * collection is enough (the garbage is a few records old) and costs far less than a full one, so it
 * runs often: at 10k records the first discover's RSS grows ~4 MB less than with a full one every
 * 1,000, ~30 less than with none. A later refresh reads a few records. */
const COLLECT_EVERY = 250;
/** The first load runs its per-record code 10k times and never that hot again; compiled by the
 * JIT's optimizing tiers, it would leave their compiler's memory resident. While it loads, tiering
 * up is this many times more reluctant (Bun.unsafe.setJITPolicy): at 10k records the first
 * discover's RSS grows ~3 MB less and it takes ~60 ms longer (bench/memory-vectors.ts). */
const FIRST_LOAD_JIT_POLICY = 30;
/** After a first load of at least this many records, once the discover has answered, the process
 * gives back what only the load needed (Bun.shrink, JavaScriptCore's footprint shrink: a full
 * collection, the compiled code, the allocator's free pages); the next requests recompile what they
 * use. 10k records, old and new binaries alternately, 5 processes each: RSS growth right after the
 * first discover 29.8 -> 27.9 MiB (median), a second later 22.6 -> 17.4; the next 40 discovers
 * ~50 ms slower in all while they recompile (bench/memory-vectors.ts gives the first two figures). */
const SHRINK_AFTER = 1000;

/** One more record read by a load (the `read`-th). */
export function readOne(read: number): void {
  if (read % COLLECT_EVERY === 0) edenGC();
}

/** Runs a first load, which says how many records it read. */
export async function firstLoad(load: () => Promise<number>): Promise<void> {
  // Process-wide: a call answered meanwhile tiers up as slowly.
  Bun.unsafe.setJITPolicy(FIRST_LOAD_JIT_POLICY);
  let read = 0;
  try {
    read = await load();
  } finally {
    Bun.unsafe.setJITPolicy(1);
  }
  // Bun marks shrink deprecated (it still works): a Bun without it only keeps more memory.
  if (read >= SHRINK_AFTER) setTimeout(() => Bun.shrink?.(), 0);
}
