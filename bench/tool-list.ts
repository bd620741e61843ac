// What tools/list costs a client as capabilities pile up: bytes of the answer at 2,040 and 10,000
// capabilities, the bounded list (.pml.json memory.list_tools, default 20) against every capability
// listed ("all": what pml sent before the bound, then in one page; now paged), through the real
// binary; and the bytes of a `discover {query}` answer among them (target: tools/list <= 64 KB at
// 10,000, discover < 4 KB).
// Run: bun build.ts && bun bench/tool-list.ts
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { codeHash } from "../src/memory/code-hash.ts";
import { SqliteCapabilityStore } from "../src/memory/sqlite-store.ts";
import type { CaptureInput, Scope } from "../src/memory/store.ts";
import { RawPeer } from "../test/helpers/pml.ts";
import { trustWorkspace } from "../test/helpers/trust.ts";

const root = resolve(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "pml-bench-toolist-"));

let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
const VERBS = ["read", "write", "convert", "parse", "format", "merge", "split", "sort", "filter", "count", "fetch", "render", "check", "extract", "summarize"];
const OBJECTS = ["json file", "csv rows", "markdown table", "git log", "release notes", "image size", "url list", "config keys", "test report", "log lines"];
const QUALS = ["by date", "for a folder", "with a header row", "into a summary", "from the workspace", "keeping the order", "and report errors", "as plain text"];
const PARAMS = ["path", "name", "id", "items", "text", "url", "limit", "format", "since", "pattern"];
const NS = ["fs", "json", "git", "text", "data", "web", "util", "report"];

function synthetic(scope: Scope, i: number): CaptureInput {
  const verb = pick(VERBS);
  const obj = pick(OBJECTS);
  const intent = `${verb} the ${obj} ${pick(QUALS)}`;
  const description = `${intent[0]!.toUpperCase()}${intent.slice(1)}. Returns what it found, and says which input was wrong when it cannot.`;
  const params = [...new Set([pick(PARAMS), pick(PARAMS), pick(PARAMS)].slice(0, 1 + Math.floor(rnd() * 3)))];
  const code = `// ${intent}\nreturn ${JSON.stringify(intent)} + ${i};`;
  return {
    scope,
    name: { namespace: pick(NS), action: `${verb}_${obj.replace(/ /g, "_")}_n${i}` },
    code,
    code_hash: codeHash(code),
    intent,
    description,
    parameters_schema: {
      type: "object",
      properties: Object.fromEntries(params.map((p) => [p, { type: p === "limit" ? "integer" : "string", description: `the ${p}` }])),
      required: params.slice(0, 1),
    },
    default_args: {},
    tools_used: [`filesystem:${pick(["read_text_file", "write_file", "list_directory"])}`],
    routing: "local",
    routing_explicit: false,
    by: "bench",
    latency_ms: 1,
  };
}

async function measure(n: number, listTools?: number | "all"): Promise<{ firstPage: number; allPages: number; pages: number; tools: number; discover: number; ms: number }> {
  const ws = join(dir, `ws-${n}-${listTools ?? "default"}`);
  const home = join(dir, `home-${n}`);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, ".pml.json"), JSON.stringify({ permissions: {}, ...(listTools === undefined ? {} : { memory: { list_tools: listTools } }) }));
  await trustWorkspace(ws, home);
  const store = new SqliteCapabilityStore(join(home, "memory.db"));
  const scope: Scope = { org: "local", project: "bench", owner: ws };
  store.db.transaction(() => {
    for (let i = 0; i < n; i++) void store.capture(synthetic(scope, i));
  })();
  store.close();
  const peer = new RawPeer([join(root, "dist/pml")], { cwd: ws, env: { ...process.env, PML_WORKSPACE: ws, PML_HOME: home } as Record<string, string> });
  try {
    await peer.initialize();
    let id = 1;
    let cursor: string | undefined;
    let firstPage = 0;
    let allPages = 0;
    let pages = 0;
    let tools = 0;
    const t0 = performance.now();
    do {
      const res = await peer.request(id++, "tools/list", cursor ? { cursor } : undefined);
      const bytes = Buffer.byteLength(JSON.stringify(res));
      if (!pages) firstPage = bytes;
      allPages += bytes;
      pages++;
      tools += res.result.tools.length;
      cursor = res.result.nextCursor;
    } while (cursor);
    const ms = performance.now() - t0;
    const d = await peer.request(id++, "tools/call", { name: "discover", arguments: { query: "turn the csv rows into a summary" } });
    return { firstPage, allPages, pages, tools, discover: Buffer.byteLength(d.result.content[0].text), ms };
  } finally {
    peer.kill();
  }
}

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`.padStart(10);
console.log("tools/list through dist/pml (stdio, 2025-11-25), bytes of the JSON-RPC answer");
console.log(
  `${"capabilities".padEnd(14)}${"list_tools".padEnd(12)}${"1st page".padStart(10)}${"all pages".padStart(11)}${"pages".padStart(7)}${"tools".padStart(7)}${"ms".padStart(8)}${"discover".padStart(11)}`,
);
for (const n of [2040, 10_000]) {
  const rows: Array<[string, Awaited<ReturnType<typeof measure>>]> = [
    ['"all" (before)', await measure(n, "all")],
    ["default (20)", await measure(n)],
  ];
  for (const [label, r] of rows)
    console.log(
      `${String(n).padEnd(14)}${label.padEnd(12)}${kb(r.firstPage)}${kb(r.allPages).padStart(11)}${String(r.pages).padStart(7)}${String(r.tools).padStart(7)}${r.ms.toFixed(0).padStart(8)}${kb(r.discover).padStart(11)}`,
    );
  const [all, bounded] = [rows[0]![1], rows[1]![1]];
  console.log(
    `${"".padEnd(14)}bounded / all pages: ${((100 * bounded.firstPage) / all.allPages).toFixed(1)}%  (target: <= 64 KB at 10,000: ${bounded.firstPage <= 64 * 1024 ? "met" : "NOT met"})`,
  );
}
rmSync(dir, { recursive: true, force: true });
