// SQLite skips its busy handler for some steps (switching a new file to WAL, a write that finds its
// read snapshot stale), so two processes opening one new database together get SQLITE_BUSY at once.
// Those steps are retried here, with the same bound as the busy timeout.

export const BUSY_TIMEOUT_MS = 10_000;

export function whileBusy<T>(step: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      return step();
    } catch (e) {
      if (!isBusy(e) || Date.now() > deadline) throw e;
      Bun.sleepSync(wait);
    }
  }
}

export function isBusy(e: unknown): boolean {
  return /SQLITE_BUSY|database is locked/.test(`${(e as { code?: string }).code ?? ""} ${(e as Error).message}`);
}
