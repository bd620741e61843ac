// Waiting in tests: for a state (poll it), or for the clock to pass a bound (read the clock).
// A fixed sleep is neither: too short on a loaded machine, wasted time on an idle one.

export interface WaitOptions {
  /** Give up after this long (default 15 s: generous, this is never a timing assertion). */
  timeoutMs?: number;
  /** How often to look (default 20 ms). */
  intervalMs?: number;
  /** What is awaited, for the error message. */
  what?: string;
}

/** Resolves once `predicate` holds (it may be async); rejects, naming `what`, after `timeoutMs`. */
export async function waitFor(predicate: () => boolean | Promise<boolean>, opts: WaitOptions = {}): Promise<void> {
  const { timeoutMs = 15_000, intervalMs = 20, what = "condition" } = opts;
  const end = performance.now() + timeoutMs;
  while (!(await predicate())) {
    if (performance.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(intervalMs);
  }
}

/**
 * Resolves once `ms` have passed since `since` (a performance.now() reading) on the monotonic
 * clock. For a bound the code under test keeps with its own clock (an edit of .pml.json applies to
 * calls made CONFIG_RECHECK_MS after it): a timer may fire a little early, the clock is read until
 * the time has really passed, and every process on the machine reads the same monotonic clock.
 */
export async function clockPassed(ms: number, since: number): Promise<void> {
  for (let left = since + ms - performance.now(); left > 0; left = since + ms - performance.now()) await Bun.sleep(Math.max(1, Math.ceil(left)));
}

/** Resolves once Date.now() has moved past `after` (default: now): the wall clock has ticked. */
export async function wallClockPassed(after = Date.now()): Promise<void> {
  while (Date.now() <= after) await Bun.sleep(Math.max(1, after - Date.now() + 1));
}
