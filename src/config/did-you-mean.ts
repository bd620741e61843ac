// "Did you mean": the known word closest to a typo, for flags, commands and .pml.json keys.

/** Edit distance with transpositions (optimal string alignment), for "did you mean". */
export function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      // Two letters swapped ("prot" for "port") is one slip, not two.
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/** The closest of `known` to `word`, if it is close enough to be a typo. */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const [a, b] = [word.toLowerCase(), k.toLowerCase()];
    // "timeout" for "timeout_ms", "registry" for "registries": a stem counts as close.
    let common = 0;
    while (common < a.length && a[common] === b[common]) common++;
    const stem = common >= 4 && common >= Math.min(a.length, b.length) - 3;
    const dd = stem ? 1 : distance(a, b);
    if (dd < bestD) [best, bestD] = [k, dd];
  }
  return best !== undefined && bestD <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}
