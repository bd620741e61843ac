// SHA256SUMS in the format `sha256sum -c` reads: `<hex>  <file>`, sorted by file name.

export function sha256Hex(data: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}

export function formatSums(sums: Record<string, string>): string {
  return Object.keys(sums)
    .sort()
    .map((f) => `${sums[f]}  ${f}\n`)
    .join("");
}

/** Parses SHA256SUMS; lines in another format are an error naming the line. */
export function parseSums(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [i, line] of text.split("\n").entries()) {
    if (!line.trim()) continue;
    const m = /^([0-9a-f]{64}) [ *](\S+)$/.exec(line);
    if (!m) throw new Error(`SHA256SUMS line ${i + 1} is not "<sha256>  <file>": ${JSON.stringify(line)}`);
    out[m[2]!] = m[1]!;
  }
  return out;
}
