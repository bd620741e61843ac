// dns:query's store side (issue 13): every way the query is answered (tag rows driving it,
// creators merged in name order, the general sort) gives the same page as a plain sort of all
// matches, and the tag rows follow their capability through renames and forks (migration 5).
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { codeHash } from "../../src/memory/code-hash.ts";
import { SqliteCapabilityStore } from "../../src/memory/sqlite-store.ts";
import type { CapabilityQuery } from "../../src/memory/store.ts";
import { tempDir } from "../helpers/pml.ts";

const dir = tempDir("pml-query-");
const store = new SqliteCapabilityStore(join(dir.path, "memory.db"));
afterAll(() => {
  store.close();
  dir.cleanup();
});
const scope = { org: "local", project: "q", owner: "/test/q" };
const CREATORS = ["alice", "alina", "al", "bob", "albert", "zed"];
const NS = ["fs", "git", "api"];
const TAGS = ["red", "green", "blue"];

// A deterministic spread: creators, namespaces and tags not aligned with one another.
let seed = 7;
const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
const all: Array<{ name: string; ns: string; by: string; tags: string[]; visibility: string; intent: string }> = [];
for (let i = 0; i < 400; i++) {
  const ns = NS[rand(3)]!;
  const by = CREATORS[rand(CREATORS.length)]!;
  const tags = TAGS.filter(() => rand(3) === 0);
  const visibility = rand(2) ? "project" : "private";
  const code = `return ${i};`;
  const intent = i % 3 ? `Count the LINES of report ${i}` : "";
  const out = await store.capture({
    scope,
    name: { namespace: ns, action: `t${String(rand(1000)).padStart(3, "0")}_${i}` },
    code,
    code_hash: codeHash(code),
    tags,
    visibility: visibility as any,
    intent,
    parameters_schema: { type: "object" },
    default_args: {},
    tools_used: [],
    routing: "local",
    routing_explicit: false,
    by,
    latency_ms: 1,
  });
  if (out.kind !== "created") throw new Error(out.kind);
  all.push({ name: out.capability.display_name, ns, by, tags, visibility, intent });
}

const globRe = (g: string) =>
  new RegExp(
    `^${g
      .replace(/[.+^${}()|\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
  );
function expected(q: Omit<CapabilityQuery, "scope">): string[] {
  return all
    .filter(
      (c) =>
        (!q.created_by || globRe(q.created_by).test(c.by)) &&
        (!q.namespace || c.ns === q.namespace) &&
        (q.tags ?? []).every((t) => c.tags.includes(t)) &&
        (!q.visibility || c.visibility === q.visibility) &&
        (q.text ?? "")
          .toLowerCase()
          .split(/\s+/)
          .filter(Boolean)
          .every((w) => `${c.name}\n${c.intent}`.toLowerCase().includes(w)),
    )
    .map((c) => c.name)
    .sort();
}

test("each query plan gives the page and total a plain sort gives", async () => {
  const cases: Array<Omit<CapabilityQuery, "scope">> = [
    { created_by: "al*" },
    { created_by: "ali*" },
    { created_by: "al" },
    { created_by: "*e*" },
    { created_by: "nobody*" },
    { created_by: "al*", namespace: "git" },
    { tags: ["red"] },
    { tags: ["red", "green"] },
    { tags: ["red", "green", "blue"] },
    { tags: ["green"], created_by: "ali*" },
    { tags: ["blue"], namespace: "fs" },
    { tags: ["red"], visibility: "private" as any },
    { created_by: "al*", visibility: "project" as any },
    { namespace: "api" },
    {},
    // Text: trigram index then LIKE (3+ characters), LIKE alone (shorter), both, with other filters.
    { text: "lines" },
    { text: "REPORT 1" },
    { text: "t1" },
    { text: "fs:t0" },
    { text: "report 12 lines" },
    { text: "lines", tags: ["red"] },
    { text: "count", created_by: "ali*" },
    { text: "nothing-like-this" },
    { text: '_1"' },
    { text: "%" },
  ];
  for (const c of cases)
    for (const [limit, offset] of [
      [20, 0],
      [7, 13],
      [50, 100],
    ] as const) {
      const want = expected(c);
      const got = await store.query({ scope, ...c, limit, offset });
      expect({ c, limit, offset, names: got.items.map((x) => x.display_name), total: got.total }).toEqual({
        c,
        limit,
        offset,
        names: want.slice(offset, offset + limit),
        total: want.length,
      });
    }
});

test("count_limit: the total stops there and says it is a floor", async () => {
  const want = expected({ created_by: "al*" });
  expect(want.length).toBeGreaterThan(30);
  const got = await store.query({ scope, created_by: "al*", limit: 5, count_limit: 30 });
  expect(got).toMatchObject({ total: 30, total_at_least: true });
  expect(got.items.map((x) => x.display_name)).toEqual(want.slice(0, 5));
  const small = await store.query({ scope, created_by: "zed", limit: 5, count_limit: 1000 });
  expect(small.total_at_least).toBeUndefined();
  expect(small.total).toBe(expected({ created_by: "zed" }).length);
});

test("the text index follows renames and new intents", async () => {
  const one = all.find((c) => !c.intent && !c.tags.includes("red"))!;
  const [ns, action] = one.name.split(":") as [string, string];
  await store.rename(scope, { namespace: ns, action }, { namespace: "textual", action: "zebra_crossing" }, one.by);
  expect((await store.query({ scope, text: "zebra_cross", limit: 5 })).items.map((c) => c.display_name)).toEqual(["textual:zebra_crossing"]);
  expect((await store.query({ scope, text: action, limit: 5 })).total).toBe(0);
  const code = "return 'x';";
  await store.capture({
    scope,
    code,
    code_hash: codeHash(code),
    parameters_schema: { type: "object" },
    default_args: {},
    tools_used: [],
    routing: "local",
    routing_explicit: false,
    by: "al",
    latency_ms: 1,
  });
  await store.capture({
    scope,
    code,
    code_hash: codeHash(code),
    intent: "Quokka census",
    parameters_schema: { type: "object" },
    default_args: {},
    tools_used: [],
    routing: "local",
    routing_explicit: false,
    by: "al",
    latency_ms: 1,
  });
  expect((await store.query({ scope, text: "quokka", limit: 5 })).items.map((c) => c.intent)).toEqual(["Quokka census"]);
});

test("tag rows follow renames and forks", async () => {
  const red = all.find((c) => c.tags.includes("red") && c.by !== "zed")!;
  const [ns, action] = red.name.split(":") as [string, string];
  await store.rename(scope, { namespace: ns, action }, { namespace: "renamed", action: "moved_one" }, red.by);
  const byTag = await store.query({ scope, tags: ["red"], namespace: "renamed", limit: 10 });
  expect(byTag.items.map((c) => c.display_name)).toEqual(["renamed:moved_one"]);
  const src = byTag.items[0]!;
  await store.fork(scope, src.id, { namespace: "renamed", action: "forked_one" }, "zed");
  const both = await store.query({ scope, tags: ["red"], namespace: "renamed", limit: 10 });
  expect(both.items.map((c) => [c.display_name, c.created_by])).toEqual([
    ["renamed:forked_one", "zed"],
    ["renamed:moved_one", red.by],
  ]);
  expect((await store.query({ scope, tags: ["red"], created_by: "zed", namespace: "renamed", limit: 10 })).total).toBe(1);
});

test("without the trigram index (a SQLite lacking FTS5 trigram, e.g. an old macOS) text queries scan and answer the same", async () => {
  const cases = [{ text: "lines" }, { text: "REPORT 1" }, { text: "t1" }, { text: "count", created_by: "ali*" }, { text: "lines", tags: ["red"] }, { text: "zebra_cross" }];
  const indexed = [];
  for (const c of cases) indexed.push(await store.query({ scope, ...c, limit: 30 }));
  store.db.run("DROP TRIGGER capability_text_insert; DROP TRIGGER capability_text_update; DROP TRIGGER capability_text_delete; DROP TABLE capability_text;");
  const plain = new SqliteCapabilityStore(join(dir.path, "memory.db"));
  try {
    for (const [i, c] of cases.entries()) {
      const got = await plain.query({ scope, ...c, limit: 30 });
      expect({ c, names: got.items.map((x) => x.display_name), total: got.total }).toEqual({ c, names: indexed[i]!.items.map((x) => x.display_name), total: indexed[i]!.total });
    }
    expect(indexed[0]!.total).toBeGreaterThan(0);
  } finally {
    plain.close();
  }
});
