// The team registry on PostgreSQL at scale: N stored capabilities (default 100k), then
//   - GET /mcp/{fqdn} (random names, a key of the org) at concurrency 32 against one replica and
//     against two (requests alternate), p50/p95/p99 and throughput, with each replica's cache as
//     pml ships it (after one pass over every name, which is also reported: the first fetch of a
//     name is a cache miss) and with the cache off (`--cache-mb 0`: every fetch reads PostgreSQL);
//   - the same at concurrency 1 (the stack's latency without queueing for the CPU);
//   - GET /mcp?text= (two words from the descriptions) at concurrency 1 and 32 (never cached);
// next to two baselines measured in the same run: the replica's own lookup query sent straight to
// PostgreSQL from this process (database + driver), and a bare Bun.serve answering a module of the
// same size (HTTP + client). CPU time per request of the client, the replicas and PostgreSQL (from
// /proc) says where the time goes on this machine.
// The replicas' resident memory is printed with the cache rows.
//   bun bench/registry-db.ts [--count 100000] [--requests 20000] [--bin dist/pml]
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DatabaseStore } from "../src/registry-server/database-store.ts";
import { startPostgres } from "../test/helpers/postgres.ts";
import { summarize, type Summary } from "./stats.ts";

const { values } = parseArgs({
  options: { count: { type: "string", default: "100000" }, requests: { type: "string", default: "20000" }, bin: { type: "string", default: "dist/pml" } },
});
const COUNT = Number(values.count);
const REQUESTS = Number(values.requests);
const CONCURRENCY = 32;
const BIN = resolve(values.bin!);
const KEY = "k_bench_alice_0123456789";

const WORDS = [
  "read",
  "write",
  "json",
  "yaml",
  "config",
  "report",
  "git",
  "release",
  "notes",
  "commit",
  "branch",
  "deploy",
  "backup",
  "file",
  "table",
  "export",
  "import",
  "csv",
  "invoice",
  "email",
  "summary",
  "search",
  "index",
  "image",
  "resize",
  "thumbnail",
  "log",
  "parse",
  "metrics",
  "alert",
  "ticket",
  "issue",
  "merge",
  "review",
  "test",
  "coverage",
  "lint",
  "format",
  "schema",
  "migrate",
  "database",
  "query",
  "cache",
  "token",
  "calendar",
  "meeting",
  "slack",
  "weather",
];

const TICK = 100; // USER_HZ on Linux

/** CPU seconds (user + system) of a process and, optionally, all of its children (PostgreSQL backends). */
function procCpu(pid: number, withChildren = false): number {
  const one = (p: number) => {
    try {
      const f = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
      return (Number(f[11]) + Number(f[12])) / TICK; // utime, stime (fields 14, 15)
    } catch {
      return 0;
    }
  };
  let total = one(pid);
  if (withChildren) {
    for (const d of readdirSync("/proc")) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const f = readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1]!.split(" ");
        if (Number(f[1]) === pid) total += one(Number(d)); // ppid
      } catch {}
    }
  }
  return total;
}

const selfCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** Resident memory of a process in MB. */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : 0;
}

async function spawnReplica(db: string, keys: string, extra: string[] = []): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const proc = Bun.spawn([BIN, "registry", "serve", "--database", db, "--port", "0", "--api-keys-file", keys, ...extra], {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
    env: { ...process.env, PML_LOG: "info" },
  });
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let seen = "";
  while (!/listening on (\S+)/.test(seen)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`replica exited:\n${seen}`);
    seen += new TextDecoder().decode(value);
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return {
    url: seen.match(/listening on (\S+)/)![1]!,
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

interface Run {
  latency: Summary;
  perSecond: number;
  errors: number;
  seconds: number;
}

/** `total` requests from `concurrency` workers; `next(i)` makes request i. */
async function load(total: number, concurrency: number, next: (i: number) => Promise<boolean>): Promise<Run> {
  const samples: number[] = [];
  let issued = 0;
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < total) {
        const i = issued++;
        const s = performance.now();
        const ok = await next(i);
        samples.push(performance.now() - s);
        if (!ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { latency: summarize(samples), perSecond: total / seconds, errors, seconds };
}

const rnd = (n: number) => Math.floor(Math.random() * n);
const fqdnOf = (i: number) => `acme.web.ns${i % 8}.act_${i}`;

function row(name: string, r: Run, cpu?: Record<string, number>, requests = REQUESTS): void {
  const f = (x: number) => x.toFixed(2).padStart(8);
  const cpuText = cpu
    ? "  cpu µs/req: " +
      Object.entries(cpu)
        .map(([k, v]) => `${k} ${((v * 1e6) / requests).toFixed(0)}`)
        .join(", ")
    : "";
  console.log(
    `${name.padEnd(44)}${f(r.latency.median)}${f(r.latency.p95)}${f(r.latency.p99)}  ms ${r.perSecond.toFixed(0).padStart(7)}/s${r.errors ? `  ERRORS ${r.errors}` : ""}${cpuText}`,
  );
}

const dir = mkdtempSync(join(tmpdir(), "pml-bench-regdb-"));
const pg = await startPostgres();
try {
  const dbUrl = await pg.createDatabase("bench");
  const keys = join(dir, "keys.json");
  writeFileSync(keys, JSON.stringify({ keys: [{ key: KEY, org: "acme", user: "alice" }] }));

  // ---- seed ----------------------------------------------------------------------------------
  const t = performance.now();
  const store = await DatabaseStore.open(dbUrl);
  const words = `ARRAY[${WORDS.map((w) => `'${w}'`).join(",")}]`;
  await store.db.query(`INSERT INTO capabilities (id, fqdn, org, project, namespace, action, owner, visibility, latest_seq, created_by, created_at, updated_by, updated_at, search_text)
    SELECT 'id' || g, 'acme.web.ns' || (g % 8) || '.act_' || g, 'acme', 'web', 'ns' || (g % 8), 'act_' || g,
      CASE WHEN g % 10 = 0 THEN 'alice' ELSE '' END, CASE WHEN g % 10 = 0 THEN 'private' WHEN g % 5 = 1 THEN 'public' ELSE 'org' END,
      1, 'alice', 1763800000000, 'alice', 1763800000000,
      'ns' || (g % 8) || ' act ' || g || ' ' || (${words})[1 + g % 48] || ' ' || (${words})[1 + (g / 48) % 48] || ' ' || (${words})[1 + (g / 2304) % 48]
    FROM generate_series(0, ${COUNT - 1}) g`);
  await store.db.query(`INSERT INTO capability_versions (capability_id, seq, version_tag, code, code_hash, description, intent, parameters_schema, default_args, tools_used, routing, tags, created_by, created_at)
    SELECT 'id' || g, 1, '1.0.0', 'const r = await mcp.fs.read_file({path: args.path});' || chr(10) || 'return { n: ' || g || ', text: r };', md5(g::text) || md5((g + 1)::text),
      'Capability ' || g || ': ' || (${words})[1 + g % 48] || ' ' || (${words})[1 + (g / 48) % 48] || ' ' || (${words})[1 + (g / 2304) % 48],
      'do ' || (${words})[1 + g % 48] || ' things', '{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}', '{"path":"a.txt"}', '["fs:read_file"]', 'local', '["bench"]',
      'alice', 1763800000000
    FROM generate_series(0, ${COUNT - 1}) g`);
  await store.db.query(`VACUUM ANALYZE`); // what autovacuum does to a long-lived database (it also flushes the GIN pending list)
  console.log(
    `seeded ${COUNT} capabilities in ${((performance.now() - t) / 1000).toFixed(1)} s (PostgreSQL ${(await store.db.query("SHOW server_version"))[0].server_version}, ${pg.url("bench").replace(/\/\/.*@/, "//…@")})`,
  );
  if (process.env.BENCH_EXPLAIN) {
    for (const q of [
      [
        `EXPLAIN ANALYZE SELECT c.id FROM capabilities c JOIN capability_versions v ON v.capability_id = c.id AND v.seq = c.latest_seq WHERE (c.visibility = 'public' OR (c.org = 'acme' AND (c.visibility <> 'private' OR c.owner = 'alice'))) AND c.search_tsv @@ to_tsquery('simple', 'read:* & json:*') ORDER BY ts_rank(c.search_tsv, to_tsquery('simple', 'read:* & json:*')) DESC, c.fqdn COLLATE "C" LIMIT 20`,
      ],
    ])
      console.log((await store.db.query(q[0]!)).map((r: any) => r["QUERY PLAN"]).join("\n"));
    process.exit(0);
  }
  console.log(`machine: ${navigator.hardwareConcurrency} cores, shared; client, replicas and PostgreSQL all run on it`);
  console.log(`\n${"".padEnd(44)}${"p50".padStart(8)}${"p95".padStart(8)}${"p99".padStart(8)}     throughput`);

  // ---- baseline 1: the replica's lookup straight to PostgreSQL -----------------------------------
  const direct = await DatabaseStore.open(dbUrl, { poolSize: 10 });
  const viewer = { org: "acme", user: "alice" };
  const pgCpu0 = procCpu(pg.pid(), true);
  let c0 = selfCpu();
  const dbRun = await load(REQUESTS, CONCURRENCY, async () => (await direct.get(fqdnOf(rnd(COUNT)), viewer)) !== null);
  row("baseline: lookup to PostgreSQL", dbRun, { client: selfCpu() - c0, postgres: procCpu(pg.pid(), true) - pgCpu0 });
  await direct.close();

  // ---- baseline 2: HTTP floor, a bare Bun.serve answering a module of the same size ----------------
  const bodyBytes = 1300;
  const floor = Bun.spawn(
    [
      process.execPath,
      "-e",
      `const b = "x".repeat(${bodyBytes}); const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(b, { headers: { "content-type": "application/typescript" } }) }); console.error("listening on http://127.0.0.1:" + s.port);`,
    ],
    {
      stdout: "ignore",
      stderr: "pipe",
    },
  );
  const fr = (floor.stderr as ReadableStream<Uint8Array>).getReader();
  let fs = "";
  while (!/listening on (\S+)/.test(fs)) fs += new TextDecoder().decode((await fr.read()).value);
  const floorUrl = fs.match(/listening on (\S+)/)![1]!;
  c0 = selfCpu();
  const s0 = procCpu(floor.pid);
  const floorRun = await load(REQUESTS, CONCURRENCY, async (i) => {
    const r = await fetch(`${floorUrl}/mcp/${fqdnOf(i)}`);
    await r.arrayBuffer();
    return r.ok;
  });
  row("baseline: bare Bun.serve (HTTP)", floorRun, { client: selfCpu() - c0, server: procCpu(floor.pid) - s0 });
  floor.kill();

  // ---- the registry: one replica, then two; with the cache pml ships, then without ------------------
  const get = async (base: string, fqdn: string) => {
    const r = await fetch(`${base}/mcp/${fqdn}`, { headers: { authorization: `Bearer ${KEY}` } });
    await r.arrayBuffer();
    return r.status === 200;
  };
  const results: Record<string, Run> = {};
  let sizes = 0;
  let s1: Run | undefined;
  let s32: Run | undefined;
  for (const mode of ["cache", "no cache"] as const) {
    const [r1, r2] = await Promise.all([0, 1].map(() => spawnReplica(dbUrl, keys, mode === "cache" ? [] : ["--cache-mb", "0"])));
    const cpuOf = () => ({ client: selfCpu(), replicas: procCpu(r1!.pid) + procCpu(r2!.pid), postgres: procCpu(pg.pid(), true) });
    const since = (before: Record<string, number>) => Object.fromEntries(Object.entries(cpuOf()).map(([k, v]) => [k, v - before[k]!]));
    // Warm both (connection pools, JIT) without counting it.
    await load(2000, CONCURRENCY, (i) => get(i % 2 ? r1!.url : r2!.url, fqdnOf(rnd(COUNT))));
    if (mode === "cache") {
      // Every name once on each replica: what a long-running replica holds. These are all misses.
      const order = Array.from({ length: COUNT }, (_, i) => i).sort(() => Math.random() - 0.5);
      for (const [n, r] of [
        [1, r1!],
        [2, r2!],
      ] as const) {
        const before = cpuOf();
        const warm = await load(COUNT, CONCURRENCY, (i) => get(r.url, fqdnOf(order[i]!)));
        if (n === 1) row("first fetch of each name (miss), 1 replica", warm, since(before), COUNT);
      }
    }
    sizes = (await (await fetch(`${r1!.url}/mcp/${fqdnOf(1)}`, { headers: { authorization: `Bearer ${KEY}` } })).arrayBuffer()).byteLength;
    for (const [name, pick] of [
      [`GET /mcp/{fqdn}, 1 replica, ${mode}`, () => r1!.url],
      [`GET /mcp/{fqdn}, 2 replicas, ${mode}`, (i: number) => (i % 2 ? r1!.url : r2!.url)],
    ] as const) {
      const before = cpuOf();
      const run = await load(REQUESTS, CONCURRENCY, (i) => get(pick(i), fqdnOf(rnd(COUNT))));
      results[name] = run;
      row(name, run, since(before));
    }
    // One request at a time: the stack's own latency, without queueing for the 2 cores.
    row(`GET /mcp/{fqdn}, 1 replica, ${mode}, c=1`, await load(2000, 1, () => get(r1!.url, fqdnOf(rnd(COUNT)))));
    if (mode === "cache") {
      console.log(`${"".padEnd(44)}replica memory: ${rssMb(r1!.pid).toFixed(0)} MB and ${rssMb(r2!.pid).toFixed(0)} MB resident, ${COUNT} names cached each`);
      // ---- text search (always the database) --------------------------------------------------------
      const search = async () => {
        const q = `${WORDS[rnd(48)]} ${WORDS[rnd(48)]}`;
        const r = await fetch(`${r1!.url}/mcp?text=${encodeURIComponent(q)}&limit=20`, { headers: { authorization: `Bearer ${KEY}` } });
        await r.arrayBuffer();
        return r.status === 200;
      };
      s1 = await load(500, 1, search);
      row("GET /mcp?text= (2 words), c=1", s1);
      s32 = await load(2000, CONCURRENCY, search);
      row("GET /mcp?text= (2 words), c=32", s32);
    }
    await Promise.all([r1!.stop(), r2!.stop()]);
  }

  const one = results["GET /mcp/{fqdn}, 1 replica, cache"]!;
  const two = results["GET /mcp/{fqdn}, 2 replicas, cache"]!;
  const oneOff = results["GET /mcp/{fqdn}, 1 replica, no cache"]!;
  const twoOff = results["GET /mcp/{fqdn}, 2 replicas, no cache"]!;
  console.log(`\nmodule size ${sizes} bytes; ${REQUESTS} requests per row at concurrency ${CONCURRENCY}`);
  console.log(
    `fetch p95 ${one.latency.p95.toFixed(2)} ms with 1 replica, ${two.latency.p95.toFixed(2)} ms with 2 (target <= 5 ms): ${one.latency.p95 <= 5 && two.latency.p95 <= 5 ? "met" : "NOT met"}`,
  );
  console.log(
    `without the cache: ${oneOff.latency.p95.toFixed(2)} ms and ${twoOff.latency.p95.toFixed(2)} ms; cache / no cache throughput: ${(one.perSecond / oneOff.perSecond).toFixed(2)}x (1 replica), ${(two.perSecond / twoOff.perSecond).toFixed(2)}x (2)`,
  );
  console.log(
    `throughput 2 replicas / 1 replica: ${(two.perSecond / one.perSecond).toFixed(2)}x; 1 replica vs bare HTTP: ${(one.perSecond / floorRun.perSecond).toFixed(2)}x; vs lookup alone: ${(one.perSecond / dbRun.perSecond).toFixed(2)}x`,
  );
  console.log(`text search p95: ${s1!.latency.p95.toFixed(2)} ms at c=1, ${s32!.latency.p95.toFixed(2)} ms at c=32`);
  await store.close();
} finally {
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
