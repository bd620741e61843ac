// What the ranking reads of a capability the first time it is a candidate (its words' sides and
// kinds, its words' vector ranks) is read ahead, in idle time, for every capability the state
// holds: agents rarely repeat a wording, and a new wording brings candidates no request has read
// yet. At 10k records that reading was a third of a new request's time (bench/discover-e2e.ts,
// "new wordings"); ahead, it costs about 0.3 s of otherwise idle CPU after the first discover.

/** How long one slice of reading may hold the event loop: a request arriving meanwhile waits at most this. */
const SLICE_MS = 1;

export class ReadAhead {
  #queue: string[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #held = 0;
  #idle: Array<() => void> = [];
  #read = 0;

  constructor(
    private readonly read: (key: string) => void,
    /** Called when a run of reading ends with every key read, with how many it read. */
    private readonly done: (read: number) => void = () => {},
  ) {}

  /** Keys to read (again, for a record read anew); read after every hold is released. */
  add(key: string): void {
    this.#queue.push(key);
    this.#schedule();
  }

  /** No reading while a discover runs (it would only delay it); released by the function returned. */
  hold(): () => void {
    this.#held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held--;
      this.#schedule();
    };
  }

  /** Nothing more is read (the state was given up). */
  stop(): void {
    this.#queue = [];
    this.#read = 0;
    this.#settle();
  }

  /** Resolves once every key added so far is read (tests, benches). */
  idle(): Promise<void> {
    if (!this.#queue.length) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #schedule(): void {
    if (this.#timer || this.#held || !this.#queue.length) return;
    // Unref'd: reading ahead never keeps a process alive (a one-shot `pml` command exits).
    this.#timer = setTimeout(() => this.#slice(), 0);
    this.#timer.unref?.();
  }

  #slice(): void {
    this.#timer = undefined;
    if (this.#held) return;
    const end = performance.now() + SLICE_MS;
    while (this.#queue.length && performance.now() < end) {
      try {
        this.#read++;
        this.read(this.#queue.pop()!);
      } catch {
        // Left to be read when a request needs it, where a failure is answered.
      }
    }
    if (this.#queue.length) return this.#schedule();
    this.done(this.#read);
    this.#read = 0;
    this.#settle();
  }

  #settle(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}
