// Replicas answer fetches from memory (`pml registry serve --database …`, cache on by default), yet
// never serve a capability past a change to it: two real replicas (the compiled binary) on one
// PostgreSQL database and on one SQLite file. Each case first makes replica B hold the old answer
// in its cache, then changes it through replica A, then asks B at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parsePublish } from "../../src/registry-server/capability-record.ts";
import { DatabaseStore } from "../../src/registry-server/database-store.ts";
import { postgresUnavailable } from "../helpers/postgres.ts";
import { waitFor } from "../helpers/wait.ts";
import { bothDatabases, capability, fetchEntry, KEYS, publish, startReplica, type Replica } from "./helpers.ts";

if (postgresUnavailable) console.warn(`skipped: the PostgreSQL half of test/registry-db/cache.test.ts (${postgresUnavailable})`);

const db = bothDatabases("pml-regcache-");

/** B's answer, asked twice: the second comes from its cache when the first filled it. */
async function twice(url: string, fqdn: string, key?: string): Promise<{ status: number; text: string }> {
  const first = await fetchEntry(url, fqdn, key);
  const second = await fetchEntry(url, fqdn, key);
  expect(second.status).toBe(first.status);
  expect(second.text).toBe(first.text);
  return second;
}

for (const d of db.dialects) {
  describe.skipIf(d.skip)(`replica caches on ${d.name}`, () => {
    let url: string;
    let a: Replica;
    let b: Replica;

    beforeAll(async () => {
      url = await d.fresh("cache");
      [a, b] = await Promise.all([startReplica(url, db.keysFile), startReplica(url, db.keysFile)]);
    }, 30_000);

    afterAll(async () => {
      for (const r of [a, b]) await r?.stop().catch(() => {});
    });

    test("a name B answered 404 for is served by B as soon as A's publish returns", async () => {
      const fqdn = "acme.web.notes.release_notes";
      expect((await twice(b.url, fqdn, KEYS.bob)).status).toBe(404);
      expect((await twice(b.url, `${fqdn}?format=record`, KEYS.bob)).status).toBe(404);
      expect((await publish(a.url, KEYS.alice, capability("notes:release_notes", "return 'v1';"))).status).toBe(201);
      const got = await fetchEntry(b.url, fqdn, KEYS.bob);
      expect(got.status).toBe(200);
      expect(got.text).toContain("return 'v1';");
      expect(JSON.parse((await fetchEntry(b.url, `${fqdn}?format=record`, KEYS.bob)).text).code).toBe("return 'v1';");
    });

    test("the same code published again on A with update and a narrower visibility: B stops serving it to outsiders at once", async () => {
      const fqdn = "acme.web.notes.shared_digest";
      const code = "return 'digest';";
      expect((await publish(a.url, KEYS.alice, capability("notes:shared_digest", code, { visibility: "public" }))).status).toBe(201);
      expect((await twice(b.url, fqdn)).status).toBe(200); // anonymous: public
      expect((await twice(b.url, fqdn, KEYS.eve)).status).toBe(200);
      // Without update the same code is "unchanged" and nothing moves.
      expect((await publish(a.url, KEYS.alice, capability("notes:shared_digest", code, { visibility: "org" }))).body).toMatchObject({ status: "unchanged", visibility: "public" });
      const narrowed = await publish(a.url, KEYS.bob, capability("notes:shared_digest", code, { visibility: "org", update: true, base_version: "1.0.0" }));
      expect(narrowed.status).toBe(200);
      expect(narrowed.body).toMatchObject({ status: "visibility", visibility: "org", version: "1.0.0" });
      expect((await fetchEntry(b.url, fqdn)).status).toBe(404);
      expect((await fetchEntry(b.url, fqdn, KEYS.eve)).status).toBe(404);
      expect((await fetchEntry(b.url, fqdn, KEYS.bob)).status).toBe(200);
      // A stale base version is refused, as for code.
      expect((await publish(a.url, KEYS.alice, capability("notes:shared_digest", code, { visibility: "public", update: true, base_version: "0.9.0" }))).status).toBe(409);
    });

    test("a new version published on A replaces what B held, in both formats and under the old version's name", async () => {
      const fqdn = "acme.web.notes.summarize";
      const first = await publish(a.url, KEYS.alice, capability("notes:summarize", "return 'one';"));
      expect((await twice(b.url, fqdn, KEYS.bob)).text).toContain("return 'one';");
      expect(JSON.parse((await twice(b.url, `${fqdn}?format=record`, KEYS.bob)).text).version).toBe("1.0.0");
      expect((await twice(b.url, first.body.version_fqdn, KEYS.bob)).text).toContain("return 'one';");
      const next = await publish(a.url, KEYS.alice, capability("notes:summarize", "return 'two';", { update: true, base_version: "1.0.0" }));
      expect(next.body).toMatchObject({ status: "version", version: "1.1.0" });
      expect((await fetchEntry(b.url, fqdn, KEYS.bob)).text).toContain("return 'two';");
      expect(JSON.parse((await fetchEntry(b.url, `${fqdn}?format=record`, KEYS.bob)).text)).toMatchObject({ version: "1.1.0", code: "return 'two';" });
      // The old version stays fetchable by its own name (re-read: its visibility is the capability's).
      expect((await fetchEntry(b.url, first.body.version_fqdn, KEYS.bob)).text).toContain("return 'one';");
      expect((await fetchEntry(b.url, next.body.version_fqdn, KEYS.bob)).text).toContain("return 'two';");
    });

    test("visibility narrowed on A (public to org): B stops serving it to anonymous callers and other orgs at once (404)", async () => {
      const fqdn = "acme.web.notes.digest";
      await publish(a.url, KEYS.alice, capability("notes:digest", "return 'open';", { visibility: "public" }));
      for (const key of [undefined, KEYS.eve, KEYS.bob]) expect((await twice(b.url, fqdn, key)).status).toBe(200);
      expect((await twice(b.url, `${fqdn}?format=record`, KEYS.eve)).status).toBe(200);
      const narrowed = await publish(a.url, KEYS.alice, capability("notes:digest", "return 'team only';", { visibility: "org", update: true, base_version: "1.0.0" }));
      expect(narrowed.body).toMatchObject({ status: "version", visibility: "org" });
      for (const key of [undefined, KEYS.eve]) {
        const got = await fetchEntry(b.url, fqdn, key);
        expect(got.status).toBe(404);
        expect(got.text).toBe(JSON.stringify({ error: "not_found", message: `MCP '${fqdn}' is not in this registry` }));
      }
      expect((await fetchEntry(b.url, `${fqdn}?format=record`, KEYS.eve)).status).toBe(404);
      expect((await fetchEntry(b.url, fqdn, KEYS.bob)).status).toBe(200);
    });

    test("a private capability of the same name shows to its creator only, from the same cached name", async () => {
      const fqdn = "acme.web.notes.weekly";
      expect((await publish(a.url, KEYS.alice, capability("notes:weekly", "return 'mine';", { visibility: "private" }))).status).toBe(201);
      expect((await twice(b.url, fqdn, KEYS.alice)).text).toContain("return 'mine';");
      // Bob shares the name (he cannot know alice holds it); a private one over a shared one is name_taken (publish-visibility.test.ts).
      expect((await publish(a.url, KEYS.bob, capability("notes:weekly", "return 'team';"))).status).toBe(201);
      expect((await twice(b.url, fqdn, KEYS.bob)).text).toContain("return 'team';");
      expect((await fetchEntry(b.url, fqdn, KEYS.alice)).text).toContain("return 'mine';");
      expect((await fetchEntry(b.url, fqdn, KEYS.bob)).text).toContain("return 'team';");
      expect((await fetchEntry(b.url, fqdn, KEYS.eve)).status).toBe(404);
    });

    test("a replica paused past its lease does not hold publishes up, and resumed it serves the new version at once", async () => {
      const fqdn = "acme.web.notes.paused";
      await publish(a.url, KEYS.alice, capability("notes:paused", "return 'before';", { visibility: "public" }));
      expect((await twice(b.url, fqdn)).text).toContain("return 'before';");
      b.proc.kill("SIGSTOP");
      try {
        const next = await publish(a.url, KEYS.alice, capability("notes:paused", "return 'after';", { visibility: "public", update: true, base_version: "1.0.0" }));
        expect(next.body.status).toBe("version");
      } finally {
        b.proc.kill("SIGCONT");
      }
      expect((await fetchEntry(b.url, fqdn)).text).toContain("return 'after';");
      expect((await fetchEntry(b.url, `${fqdn}?format=record`)).text).toContain("return 'after';");
    }, 20_000);

    test("a change made with SQL behind pml's back reaches B's cache too", async () => {
      const fqdn = "acme.web.notes.by_hand";
      await publish(a.url, KEYS.alice, capability("notes:by_hand", "return 1;", { visibility: "public" }));
      expect((await twice(b.url, fqdn)).status).toBe(200);
      const store = await DatabaseStore.open(url);
      try {
        await store.db.query(`UPDATE capabilities SET visibility = 'org' WHERE fqdn = $1`, [fqdn]);
      } finally {
        await store.close();
      }
      // No publisher waited for the replicas here, so B hears of it on its next read of the log.
      let status = 200;
      await waitFor(async () => (status = (await fetchEntry(b.url, fqdn)).status) !== 200, { timeoutMs: 10_000, intervalMs: 50 }).catch(() => {});
      expect(status).toBe(404);
    }, 20_000);
  });
}

describe("the cache's bound", () => {
  test("it holds at most about --cache-mb, dropping the least recently used, and answers the same as without it", async () => {
    const url = `sqlite:${join(db.dir, "bound.sqlite")}`;
    const cached = await DatabaseStore.open(url, { cacheBytes: 40_000 });
    const plain = await DatabaseStore.open(url);
    try {
      const viewer = { org: "acme", user: "alice" };
      for (let i = 0; i < 60; i++)
        await cached.publish!(viewer, parsePublish({ name: `bulk:item_${i}`, project: "web", code: `return ${i};`, visibility: i % 3 ? "org" : "private" }));
      for (let i = 0; i < 60; i++) {
        for (const who of [viewer, { org: "acme", user: "bob" }, null]) {
          const fqdn = `acme.web.bulk.item_${i}`;
          const [x, y] = [await cached.get(fqdn, who), await plain.get(fqdn, who)];
          expect(x?.etag).toBe(y?.etag);
        }
      }
      const stats = cached.cacheStats()!;
      expect(stats.bytes).toBeLessThanOrEqual(40_000);
      expect(stats.entries).toBeGreaterThan(5);
      expect(stats.entries).toBeLessThan(60);
      expect(plain.cacheStats()).toBeNull();
    } finally {
      await cached.close();
      await plain.close();
    }
  });
});
