// Schema migrations on both databases: from an empty database, from a database left at the first
// schema version (with data written in that shape), and a database newer than this pml.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DatabaseStore } from "../../src/registry-server/database-store.ts";
import { postgresUnavailable } from "../helpers/postgres.ts";
import { bothDatabases, capability, fetchEntry, KEYS, listAll, publish, startReplica } from "./helpers.ts";

if (postgresUnavailable) console.warn(`skipped: the PostgreSQL half of test/registry-db/migrations.test.ts (${postgresUnavailable})`);

const db = bothDatabases("pml-regmig-");
let n = 0;

for (const d of db.dialects) {
  describe.skipIf(d.skip)(`migrations on ${d.name}`, () => {
    test("an empty database gets every step once, and a second start changes nothing", async () => {
      const url = await d.fresh(`mig${++n}`);
      const first = await DatabaseStore.open(url);
      const rows = await first.db.query(`SELECT version FROM schema_migrations ORDER BY version`);
      expect(rows.map((r) => Number(r.version))).toEqual([1, 2, 3]);
      await first.close();
      const second = await DatabaseStore.open(url);
      expect((await second.db.query(`SELECT count(*) AS n FROM schema_migrations`))[0].n).toEqual(d.name === "SQLite" ? 3 : "3");
      await second.close();
    });

    test("a database at schema 1 with data upgrades in place when a replica starts, and loses nothing", async () => {
      const url = await d.fresh(`mig${++n}`);
      const old = await DatabaseStore.open(url, { migrateTo: 1 });
      // Rows exactly as the first schema stored them (no search text, no record type).
      await old.db.query(
        `INSERT INTO capabilities (id, fqdn, org, project, namespace, action, owner, visibility, latest_seq, created_by, created_at, updated_by, updated_at)
         VALUES ('c1', 'acme.web.db.export_rows', 'acme', 'web', 'db', 'export_rows', '', 'org', 2, 'alice', 1700000000000, 'bob', 1700000100000)`,
      );
      for (const [seq, tag, code, desc] of [
        [1, "1.0.0", "return 'one';", "Export table rows"],
        [2, "1.1.0", "return 'two';", "Export table rows to a spreadsheet"],
      ] as const)
        await old.db.query(
          `INSERT INTO capability_versions (capability_id, seq, version_tag, code, code_hash, description, tools_used, tags, created_by, created_at)
           VALUES ('c1', $1, $2, $3, $4, $5, '["db:query"]', '["export"]', 'alice', 1700000000000)`,
          [seq, tag, code, `${seq}`.repeat(64), desc],
        );
      expect((await old.db.query(`SELECT max(version) AS v FROM schema_migrations`))[0].v).toBe(1);
      await old.close();

      const replica = await startReplica(url, db.keysFile);
      try {
        const hits = await listAll(replica.url, KEYS.bob, "&text=spreadsheet");
        expect(hits.map((h) => [h.fqdn, h.version])).toEqual([["acme.web.db.export_rows", "1.1.0"]]);
        expect((await fetchEntry(replica.url, "acme.web.db.export_rows", KEYS.bob)).text).toContain("return 'two';");
        expect((await fetchEntry(replica.url, "acme.web.db.export_rows.1111", KEYS.bob)).text).toContain("return 'one';");
        // Publishing on the upgraded database appends after the old versions.
        const next = await publish(replica.url, KEYS.alice, capability("db:export_rows", "return 'three';", { update: true, base_version: "1.1.0" }));
        expect(next.body).toMatchObject({ status: "version", version: "1.2.0" });
      } finally {
        await replica.stop();
      }
      const store = await DatabaseStore.open(url);
      expect((await store.db.query(`SELECT version FROM schema_migrations ORDER BY version`)).map((r) => Number(r.version))).toEqual([1, 2, 3]);
      expect((await store.db.query(`SELECT seq FROM capability_versions ORDER BY seq`)).map((r) => Number(r.seq))).toEqual([1, 2, 3]);
      await store.close();
    }, 30_000);

    test("a database from a newer pml is refused with what to do", async () => {
      const url = await d.fresh(`mig${++n}`);
      const store = await DatabaseStore.open(url);
      await store.db.query(`INSERT INTO schema_migrations (version, applied_at) VALUES (99, 0)`);
      await store.close();
      await expect(DatabaseStore.open(url)).rejects.toThrow(/schema version 99, newer than this pml knows \(3\): upgrade pml/);
    });
  });
}

describe("a bad --database", () => {
  test("an unknown scheme and an unreachable server say what to fix", async () => {
    await expect(DatabaseStore.open("mysql://x@y/z")).rejects.toThrow(/expected postgres:\/\/user@host:5432\/dbname or sqlite:PATH/);
    const err = await DatabaseStore.open("postgres://pml:hunter2@127.0.0.1:1/nope").catch((e: Error) => e);
    expect((err as Error).message).toContain("--database postgres://pml@127.0.0.1:1/nope: cannot connect to PostgreSQL");
    expect((err as Error).message).not.toContain("hunter2");
    await expect(DatabaseStore.open(`sqlite:${join(db.dir, "no/such/dir/db.sqlite")}`)).rejects.toThrow(/cannot open the SQLite file/);
  });
});
