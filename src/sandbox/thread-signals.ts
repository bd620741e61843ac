// What pml's main thread tells the sandbox worker's thread while guest code runs: stop (a flag in
// shared memory, read by the engine's interrupt handler) and, the other way, that a run hogs the CPU.
let cancelFlag: Int32Array | undefined;

/** Shared memory the main thread writes to cancel the run in progress on this thread. */
export function setCancelFlag(flag: Int32Array): void {
  cancelFlag = flag;
}

/** Guest computation after which a run counts as a CPU hog (see onCpuHog). */
const HOG_MS = 50;
let cpuHog: (() => void) | undefined;

/** Called once, the first time a run on this thread computes for more than HOG_MS. */
export function onCpuHog(f: () => void): void {
  cpuHog = f;
}

/** True while pml's main thread asks the run on this thread to stop. */
export function cancelRequested(): boolean {
  return cancelFlag !== undefined && Atomics.load(cancelFlag, 0) !== 0;
}

/** Calls the onCpuHog callback, once per thread, when a run has computed for over HOG_MS. */
export function noteCpuUse(usedMs: number): void {
  if (usedMs > HOG_MS && cpuHog) {
    const f = cpuHog;
    cpuHog = undefined;
    f();
  }
}
