// A time plot of calls and errors (uPlot), in counts per bucket of the span shown.
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";

export interface Point {
  /** ISO time. */
  time: string;
  calls: number;
  errors: number;
}

/** Buckets points into about `n` intervals (10 s at least) from the first to the last, with an
 * empty one on each side: a lone bucket would make uPlot spread its axis over years. */
export function series(points: Point[], n = 60): [number[], number[], number[]] {
  if (!points.length) return [[], [], []];
  const ts = points.map((p) => Date.parse(p.time.length === 19 ? `${p.time}Z` : p.time) / 1000);
  const step = Math.max(10, Math.ceil((Math.max(...ts) - Math.min(...ts) + 1) / n));
  const lo = Math.min(...ts) - step;
  const hi = Math.max(...ts) + step;
  const count = Math.floor((hi - lo) / step) + 1;
  const x = Array.from({ length: count }, (_, i) => lo + i * step);
  const calls = new Array<number>(count).fill(0);
  const errors = new Array<number>(count).fill(0);
  points.forEach((p, i) => {
    const b = Math.floor((ts[i]! - lo) / step);
    calls[b]! += p.calls;
    errors[b]! += p.errors;
  });
  return [x, calls, errors];
}

export function CallsPlot({ points, title }: { points: Point[]; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const data = series(points);
    const plot = new uPlot(
      {
        title,
        width: Math.max(320, box.current.clientWidth || 640),
        height: 180,
        series: [{}, { label: "calls", stroke: "#2b6cb0", width: 2 }, { label: "errors", stroke: "#c53030", width: 2 }],
        axes: [{}, { label: "count" }],
      },
      data,
      box.current,
    );
    return () => plot.destroy();
  }, [points, title]);
  return <div class="plot" ref={box} data-testid="plot" />;
}
