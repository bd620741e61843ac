// Reads one API endpoint into a view, again every `pollMs` when given (live views).
import { useEffect, useState } from "preact/hooks";
import { getJson } from "./api.ts";

export interface Loaded<T> {
  data?: T;
  error?: string;
  reload(): void;
}

export function useApi<T>(path: string, params: Record<string, string | undefined> = {}, pollMs?: number): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  const key = `${path}?${JSON.stringify(params)}`;
  useEffect(() => {
    let live = true;
    const load = () =>
      getJson<T>(path, params).then(
        (d) => live && (setData(d), setError(undefined)),
        (e: Error) => live && setError(e.message),
      );
    void load();
    const timer = pollMs ? setInterval(load, pollMs) : undefined;
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [key, tick]);
  return { data, error, reload: () => setTick((t) => t + 1) };
}
