// Procedural memory part 2 (issue 13): version resolution by date among 100 versions, and
// heuristic curation on sets of snippets named the way a careful person would
// (bench/curation-quality.ts, which also runs alone). dns:query at scale: bench/memory-query.ts.
// Run: bun bench/memory-curation.ts [--misses]
import { parseArgs } from "node:util";
import { pickVersion } from "../src/memory/versions.ts";
import { CURATION_SETS, curationReport } from "./curation-quality.ts";
import { printTable, summarize } from "./stats.ts";

const { values } = parseArgs({ options: { misses: { type: "boolean", default: false } } });

// --- version resolution by date among 100 versions ------------------------------------------------
const versions = Array.from({ length: 100 }, (_, i) => ({
  version_tag: `${1 + Math.floor(i / 20)}.${i % 20}.0`,
  created_at: new Date(Date.UTC(2026, 0, 1) + i * 3 * 86_400_000).toISOString(),
}));
const dates = Array.from({ length: 1000 }, (_, i) => new Date(Date.UTC(2026, 0, 1) + (i % 300) * 86_400_000).toISOString().slice(0, 10));
const vs: number[] = [];
for (const d of dates) {
  const a = performance.now();
  pickVersion(versions, d);
  vs.push(performance.now() - a);
}
printTable("version resolution by date (@YYYY-MM-DD) among 100 versions, ms", { pickVersion: summarize(vs) });
console.log(`target: p95 <= 0.1 ms\n`);

// --- heuristic curation (bench/curation-quality.ts) ------------------------------------------------
for (const [label, set] of CURATION_SETS) curationReport(label, set, values.misses);
