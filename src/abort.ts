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
