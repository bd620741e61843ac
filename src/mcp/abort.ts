// Waiting on something that cannot itself be cancelled (a shared server start, a backoff sleep)
// without holding up a caller whose signal fired.

/** `p`, or `error()` as soon as `signal` aborts; the listener is removed either way. */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal | undefined, error: () => Error): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(error());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(error());
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (err) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

/** What the JSON-RPC peer needs of a caller's cancellation: an AbortSignal, or a Cancellation.
 * Listeners may be functions or objects with `handleEvent` (the peer's requests are). */
export type CancelSignal = Pick<AbortSignal, "aborted" | "reason" | "addEventListener" | "removeEventListener">;

/**
 * A client request's cancellation, as cheap as a plain object until someone needs a real
 * AbortSignal (fetch, a worker, a child's install). An AbortController per proxied call, with
 * its listener added and removed, was about a tenth of pml's own CPU time per call; the pooled
 * stdio path only ever listens, so it never makes one.
 */
export class Cancellation implements CancelSignal {
  aborted = false;
  reason: unknown;
  /** The listeners, in order: the first in a field of its own, since a pooled call adds just
   * one (an array per call was an allocation on the hot path). */
  private first: Listener | undefined;
  private rest: Listener[] | undefined;
  private controller: AbortController | undefined;

  /** A real AbortSignal that aborts with this cancellation (made on first use). */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown = new Error("cancelled")): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const first = this.first;
    const rest = this.rest;
    this.first = this.rest = undefined;
    if (first !== undefined) notify(first);
    if (rest) for (const fn of rest) notify(fn);
    this.controller?.abort(reason);
  }

  /** Only "abort" listeners exist; each runs once (as with `{ once: true }`). */
  addEventListener(_type: "abort", fn: Listener): void {
    if (this.aborted) return;
    if (this.first === undefined) this.first = fn;
    else (this.rest ??= []).push(fn);
  }

  removeEventListener(_type: "abort", fn: Listener): void {
    if (this.first === fn) {
      this.first = this.rest?.shift();
      return;
    }
    const i = this.rest?.indexOf(fn) ?? -1;
    if (i !== -1) this.rest!.splice(i, 1);
  }
}

type Listener = (() => void) | { handleEvent(): void };

function notify(l: Listener): void {
  if (typeof l === "function") l();
  else l.handleEvent();
}
