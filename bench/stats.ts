// Small statistics shared by the bench scripts.
export interface Summary {
  n: number;
  median: number;
  p95: number;
  p99: number;
  mean: number;
  min: number;
}

export function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { n: s.length, median: at(0.5), p95: at(0.95), p99: at(0.99), mean: s.reduce((a, b) => a + b, 0) / s.length, min: s[0]! };
}

export function printTable(title: string, rows: Record<string, Summary>, unit = "ms"): void {
  console.log(`\n${title}`);
  console.log(`${"".padEnd(24)}${["median", "p95", "p99", "mean", "min"].map((h) => h.padStart(10)).join("")}`);
  for (const [name, r] of Object.entries(rows)) {
    const f = (x: number) => (x < 1 ? x.toFixed(3) : x.toFixed(2)).padStart(10);
    console.log(`${name.padEnd(24)}${f(r.median)}${f(r.p95)}${f(r.p99)}${f(r.mean)}${f(r.min)}  ${unit}`);
  }
}
