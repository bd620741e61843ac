// The accepted name a misspelled one most likely meant, for messages about unknown arguments.

/** Same letters ignoring case, _ and -, else at most two edits away (one for short names). */
export function closest(name: string, accepted: readonly string[]): string | undefined {
  const plain = (s: string) => s.toLowerCase().replace(/[_-]/g, "");
  const same = accepted.find((a) => plain(a) === plain(name));
  if (same) return same;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const a of accepted) {
    const d = editDistance(plain(name), plain(a));
    if (d < bestDistance) [best, bestDistance] = [a, d];
  }
  return bestDistance <= (name.length <= 4 ? 1 : 2) ? best : undefined;
}

/** " (did you mean "name"?)", else " (it takes "a", "b")"; empty when nothing is known. */
export function unknownKeyHint(name: string, accepted: readonly string[]): string {
  if (!accepted.length) return "";
  const near = closest(name, accepted);
  return near ? ` (did you mean "${near}"?)` : ` (it takes ${accepted.map((a) => `"${a}"`).join(", ")})`;
}

/** Edits (insert, delete, replace, swap two neighbours) that turn a into b. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
