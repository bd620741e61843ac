// A memory.db made by the first schema version upgrades in place when a newer pml opens it, and
// nothing in it is lost: its capabilities, aliases, versions, tags and usage all still work. Its
// records (from before workspaces owned them) become the first workspace's of their old scope name.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/memory/migrations.ts";
import { tempDir } from "../helpers/pml.ts";
import { memoryFixture, type MemoryFixture } from "./helpers.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
  const db = new Database(join(fx.home, "memory.db"), { create: true });
  db.run(readFileSync(join(import.meta.dir, "fixtures/memory-v1.sql"), "utf8"));
  db.close();
  writeFileSync(join(fx.ws, "notes.txt"), "one\ntwo\nthree");
});
afterAll(() => fx.cleanup());

test("a version-1 database is migrated to the newest schema and keeps every record", async () => {
  const { client } = await fx.connect({ permissions: { allow: ["filesystem"] }, memory: { project: "oldproj" } });
  const tools = (await client.listTools()).tools.map((t) => t.name);
  expect(tools).toContain("cap__fs__count_lines");

  // Issue 23: its first-run defaults are no longer filled in; the refusal names them with the example.
  const bare: any = await client.callTool({ name: "cap__fs__count_lines", arguments: {} });
  expect(bare.isError).toBe(true);
  expect(bare.content[0].text).toContain('"path" is required (e.g. "notes.txt"');
  const r: any = await client.callTool({ name: "cap__fs__count_lines", arguments: { path: "notes.txt" } });
  expect(r.structuredContent).toEqual({ result: 3 });
  const alias: any = await client.callTool({ name: "execute", arguments: { capability: "fs:line_count", args: { path: "notes.txt" } } });
  expect(alias.structuredContent.deprecation).toContain("fs:count_lines");
  const half: any = await client.callTool({ name: "execute", arguments: { capability: "unnamed_cd34cd34", args: { b: 40 } } });
  expect(half.content[0].text).toContain('"a" is required (e.g. 1');
  const unnamed: any = await client.callTool({ name: "execute", arguments: { capability: "unnamed_cd34cd34", args: { a: 1, b: 40 } } });
  expect(unnamed.structuredContent.result).toBe(41);

  // Indexes added by later steps hold the old records: tags (5) and the text index (6).
  const byTag: any = await client.callTool({ name: "call", arguments: { tool: "dns:query", arguments: { tags: ["text"] } } });
  expect(byTag.structuredContent.items.map((c: any) => c.name)).toEqual(["fs:count_lines"]);
  const byText: any = await client.callTool({ name: "call", arguments: { tool: "dns:query", arguments: { text: "COUNT_LIN" } } });
  expect(byText.structuredContent).toMatchObject({ total: 1, items: [{ name: "fs:count_lines" }] });

  const db = fx.db();
  expect((db.query("SELECT MAX(version) AS v FROM schema_migrations").get() as any).v).toBe(MIGRATIONS.length);
  const row: any = db.query("SELECT * FROM capabilities WHERE id = '11111111-1111-4111-8111-111111111111'").get();
  expect(row).toMatchObject({ usage_count: 9, success_count: 8, visibility: "project", created_by: "alice", fqdn: "local.oldproj.fs.count_lines.ab12", forked_from: null });
  expect(row.last_used_at).toBeString();
  expect(db.query("SELECT tag FROM capability_tags").all()).toEqual([{ tag: "text" }]);
  expect((db.query("SELECT COUNT(*) AS n FROM capability_versions").get() as any).n).toBe(2);
  // Step 7 folded the per-call rows into counts per tool and second.
  expect(db.query("SELECT tool_id, server_id, second, calls, successes, latency_ms_total, last_at FROM tool_usage WHERE second = '2026-11-01T10:00:00'").all()).toEqual([
    { tool_id: "filesystem:read_file", server_id: "filesystem", second: "2026-11-01T10:00:00", calls: 1, successes: 1, latency_ms_total: 1.5, last_at: "2026-11-01T10:00:00.000Z" },
  ]);
  // Versions stay immutable after the upgrade.
  const rw = new Database(join(fx.home, "memory.db"));
  expect(() => rw.run("UPDATE capability_versions SET code = 'x'")).toThrow("immutable");
  expect(() => rw.run("DELETE FROM capability_versions")).toThrow("immutable");
  rw.close();
});

test("the old records are the first workspace's of their old scope name: another one of that name does not see them", async () => {
  const db = fx.db();
  const owners = db.query("SELECT DISTINCT owner FROM capabilities").all() as Array<{ owner: string }>;
  expect(owners).toEqual([{ owner: fx.ws }]);
  expect((db.query("SELECT owner FROM capability_aliases").get() as any).owner).toBe(fx.ws);
  expect((db.query("SELECT owner FROM capability_tags").get() as any).owner).toBe(fx.ws);
  const elsewhere = tempDir("pml-mem-migrated-elsewhere-");
  try {
    const { client } = await fx.connect({ permissions: { allow: ["filesystem"] }, memory: { project: "oldproj" } }, elsewhere.path);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("cap__fs__count_lines");
    const r: any = await client.callTool({ name: "execute", arguments: { capability: "fs:count_lines" } });
    expect(r.isError).toBe(true);
  } finally {
    elsewhere.cleanup();
  }
});

test("a database from a newer pml is refused with what to do", async () => {
  const db = new Database(join(fx.home, "memory.db"));
  db.run("INSERT INTO schema_migrations VALUES (99, 'x')");
  db.close();
  const { client } = await fx.connect({ permissions: { allow: ["filesystem"] }, memory: { project: "oldproj" } });
  const r: any = await client.callTool({ name: "execute", arguments: { capability: "fs:count_lines" } });
  expect(r.isError).toBe(true);
  expect(r.content[0].text).toContain("newer than this pml understands");
  // Plain execute still works (not saved).
  const plain: any = await client.callTool({ name: "execute", arguments: { code: "return 5" } });
  expect(plain.structuredContent.result).toBe(5);
  expect(plain.structuredContent.warnings.join(" ")).toMatch(/not saved/i);
});
