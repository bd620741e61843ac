// At most one signal per window: the first change is told at once, the changes that follow within
// the window are told once when it ends. A burst of saves or renames (curation names dozens at a
// time) makes one or two notifications/tools/list_changed, not one per record: each makes every
// client fetch the whole list again.
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export class Coalesced {
  private timer: unknown;
  private pending = false;

  constructor(
    private readonly windowMs: number,
    private readonly fire: () => void,
    private readonly timers: Timers = { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as Timer) },
  ) {}

  poke(): void {
    if (this.timer !== undefined) {
      this.pending = true;
      return;
    }
    this.fire();
    this.open();
  }

  private open(): void {
    const timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      if (!this.pending) return;
      this.pending = false;
      this.fire();
      this.open();
    }, this.windowMs);
    (timer as { unref?: () => void }).unref?.(); // never what keeps the process alive
    this.timer = timer;
  }

  stop(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = false;
  }
}
