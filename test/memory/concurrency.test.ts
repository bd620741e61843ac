// Two pml processes (two Claude Code windows) writing the same memory.db at the same time: every
// capability, every usage count and every tool_usage row arrives; nothing is lost or doubled.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { memoryFixture, until, type MemoryFixture } from "./helpers.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
});
afterAll(() => fx.cleanup());

test("two processes, 60 concurrent runs each, one database", async () => {
  const a = await fx.connect();
  const b = await fx.connect();
  const N = 30;
  const shared = "const e = await mcp.filesystem.list_directory({}); return typeof e;";
  const runs = (c: typeof a, who: string) =>
    Array.from({ length: N }, (_, i) => [
      c.client.callTool({ name: "execute", arguments: { code: `return "${who}-${i}"`, name: `util:${who}_item_${i}` } }),
      c.client.callTool({ name: "execute", arguments: { code: shared } }),
    ]).flat();
  const results: any[] = await Promise.all([...runs(a, "left"), ...runs(b, "right")]);
  for (const r of results) expect(r.isError).toBeFalsy();
  const warned = results.flatMap((r) => r.structuredContent?.warnings ?? []);
  expect(warned).toEqual([]);

  const db = fx.db();
  expect((db.query("SELECT COUNT(*) AS n FROM capabilities WHERE named = 1").get() as any).n).toBe(2 * N);
  const sharedRows = db.query("SELECT usage_count FROM capabilities WHERE named = 0").all() as any[];
  expect(sharedRows).toEqual([{ usage_count: 2 * N }]);
  expect((db.query("SELECT COUNT(*) AS n FROM capability_versions").get() as any).n).toBe(2 * N + 1);
  const seqs = db.query("SELECT seq FROM capabilities").all() as any[];
  expect(new Set(seqs.map((s) => s.seq)).size).toBe(seqs.length);

  await a.client.close();
  await b.client.close();
  await until(() => (db.query("SELECT COALESCE(SUM(calls), 0) AS n FROM tool_usage WHERE tool_id = 'filesystem:list_directory'").get() as any).n === 2 * N);
  // Each process lists what the other saved (all of them: more than the default bound of 20).
  const c = await fx.connect({ permissions: { allow: ["filesystem"] }, memory: { list_tools: "all" } });
  const names = (await c.client.listTools()).tools.map((t) => t.name);
  expect(names.filter((n) => n.startsWith("cap__util__"))).toHaveLength(2 * N);
}, 120_000);
