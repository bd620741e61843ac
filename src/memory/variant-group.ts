// Variants of one capability: the names an agent makes when a name is taken (`fs:read_json`,
// `fs:read_json_v2`, `_2`), which discover's results show as one entry (search-diversity.ts).

/** Names that differ only by a trailing number (`fs:read_json`, `fs:read_json_v2`, `_2`): the
 * variants an agent makes when a name is taken, one entry in a result list. */
export function variantGroup(name: string): string | undefined {
  const ws = name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  while (ws.length > 1 && /^(v\d+|\d{1,3})$/.test(ws[ws.length - 1]!)) ws.pop();
  return ws.length ? ws.join(" ") : undefined;
}

/** A variant group as a number: its words' 52-bit hash, 0 for none. A string per record cost ~1
 * MiB at 10k; two groups sharing a hash (odds ~1e-12 among a search's candidates) would take one
 * place in the results. */
export function groupHash(name: string): number {
  const g = variantGroup(name);
  return g === undefined ? 0 : Number(BigInt.asUintN(52, BigInt(Bun.hash(g)))) || 1;
}
