// dns:query at scale (issue 13): by tags, by creator glob, both, and by text, at 20k and 100k
// capabilities, against a baseline measured in the same run on the same file (the plain SQL: one
// query filtering every record and sorting every match, then an exact count). Tags are written through
// store.tag(), one transaction per call as dns:tag does, and that cost is reported too.
// Run: bun bench/memory-query.ts [--counts 20000,100000]   (also part of bun bench/memory.ts)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { codeHash } from "../src/memory/code-hash.ts";
import { SqliteCapabilityStore } from "../src/memory/sqlite-store.ts";
import type { CapabilityQuery } from "../src/memory/store.ts";
import { printTable, summarize, type Summary } from "./stats.ts";

const scope = { org: "local", project: "bench", owner: "/bench/workspace" };
const CREATORS = ["alice", "alina", "bob", "carol", "dave", "erin", "frank", "grace"];
// As dns:query asks: a page of 20, matches counted up to 1000 (then total_at_least).
const DNS = { limit: 20, count_limit: 1000 };

export async function queryBench(counts: readonly number[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pml-bench-query-"));
  const store = new SqliteCapabilityStore(join(dir, "memory.db"));
  let stored = 0;
  const tagTimes: number[] = [];
  try {
    for (const count of counts) {
      const t0 = performance.now();
      const first = stored;
      store.db.transaction(() => {
        for (; stored < count; stored++) {
          const i = stored;
          const code = `return ${i};`;
          void store.capture({
            scope,
            name: { namespace: ["fs", "git", "api", "util"][i % 4]!, action: `task_${i}` },
            code,
            code_hash: codeHash(code),
            intent: `task number ${i}`,
            description: `task number ${i}`,
            parameters_schema: { type: "object", properties: {} },
            default_args: {},
            tools_used: [],
            routing: "local",
            routing_explicit: false,
            by: CREATORS[i % CREATORS.length]!,
            latency_ms: 1,
          });
        }
      })();
      // Tags on 2% of them: "team-a" on every 50th, "release" also on every 100th.
      const ids = store.db.query("SELECT id FROM capabilities ORDER BY rowid LIMIT -1 OFFSET ?").all(first) as { id: string }[];
      for (let j = 0; j < ids.length; j++) {
        const i = first + j;
        if (i % 50) continue;
        const a = performance.now();
        await store.tag(ids[j]!.id, i % 100 === 0 ? ["team-a", "release"] : ["team-a"], [], "bench");
        tagTimes.push(performance.now() - a);
      }
      console.error(`stored ${count} capabilities (${Math.round(performance.now() - t0)} ms to insert and tag)`);

      const rows: Record<string, Summary> = {};
      const ratios: string[] = [];
      const run = async (label: string, q: Omit<CapabilityQuery, "scope">, n: number) => {
        const query = { scope, ...q, ...DNS };
        const mine = await time(() => store.query(query), n);
        const base = await time(async () => baseline(store, query), Math.max(10, n / 5));
        const r = await store.query(query);
        rows[`${label} (${r.total_at_least ? ">= " : ""}${r.total} match)`] = mine;
        rows[`  baseline, ${label}`] = base;
        ratios.push(`${label}: ${(base.p95 / mine.p95).toFixed(1)}x`);
      };
      await run("tags team-a+release", { tags: ["team-a", "release"] }, 300);
      await run("created_by ali*", { created_by: "ali*" }, 300);
      await run("ali* + tag team-a", { created_by: "ali*", tags: ["team-a"] }, 300);
      await run('text "number 123"', { text: "number 123" }, 30);
      printTable(`dns:query at ${count / 1000}k capabilities (store.query, page of 20, counted up to 1000), ms`, rows);
      console.log(`baseline p95 / store.query p95: ${ratios.join("; ")}\ntarget (tags, creator glob): p95 <= 5 ms`);
    }
    printTable(`store.tag() (dns:tag: one IMMEDIATE transaction per call), ${tagTimes.length} calls while filling up to ${stored / 1000}k, ms`, {
      "store.tag": summarize(tagTimes),
    });
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function time(fn: () => unknown, n: number): Promise<Summary> {
  for (let i = 0; i < Math.min(20, n); i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = performance.now();
    await fn();
    samples.push(performance.now() - a);
  }
  return summarize(samples);
}

/** The plain plan: every match sorted by name, the page's records read, every match counted. */
function baseline(store: SqliteCapabilityStore, q: CapabilityQuery): number {
  const where = ["c.org = ?", "c.project = ?", "c.record_type = 'capability'"];
  const params: Array<string | number> = [q.scope.org, q.scope.project];
  if (q.created_by) {
    where.push("c.created_by GLOB ?");
    params.push(q.created_by);
  }
  for (const tag of q.tags ?? []) {
    where.push("EXISTS (SELECT 1 FROM capability_tags t WHERE t.capability_id = c.id AND t.tag = ?)");
    params.push(tag);
  }
  for (const word of (q.text ?? "").split(/\s+/).filter(Boolean)) {
    where.push("(lower(c.namespace || ':' || c.action) LIKE ? OR lower(c.description) LIKE ? OR lower(c.intent) LIKE ?)");
    params.push(`%${word}%`, `%${word}%`, `%${word}%`);
  }
  const cond = where.join(" AND ");
  const page = store.db
    .query(
      `SELECT c.*, (SELECT json_group_array(tag) FROM capability_tags t WHERE t.capability_id = c.id) AS tags FROM capabilities c WHERE ${cond} ORDER BY c.namespace, c.action LIMIT 20`,
    )
    .all(...params);
  const n = (store.db.query(`SELECT COUNT(*) AS n FROM capabilities c WHERE ${cond}`).get(...params) as { n: number }).n;
  return page.length + n;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { counts: { type: "string", default: "20000,100000" } } });
  await queryBench(values.counts.split(",").map(Number));
}
