// Issue 23 finding 4, on both databases: a publish without `visibility` is `org` (the key's org),
// a private publish under a name the org shares is 409 `name_taken` naming who holds it (it used to
// make a second record with the same fqdn that shadowed the team's for its publisher), and no
// viewer ever lists two records for one fqdn.
import { describe, expect, test } from "bun:test";
import { bothDatabases, fetchEntry, KEYS, listAll, publish, startReplica } from "./helpers.ts";

const f = bothDatabases("pml-pubvis-");
const body = (name: string, code: string, extra: Record<string, unknown> = {}) => ({ name, project: "web", code, ...extra });
const fqdnsOf = async (url: string, key: string) => (await listAll(url, key)).map((i) => i.fqdn as string);

for (const d of f.dialects) {
  describe.skipIf(d.skip)(`publish visibility on ${d.name}`, () => {
    test("bob's publish without visibility after alice's org one: 409 name_taken naming alice; one record", async () => {
      const r = await startReplica(await d.fresh("taken"), f.keysFile);
      try {
        const fqdn = "acme.web.git.release_notes";
        expect(await publish(r.url, KEYS.alice, body("git:release_notes", "return 'alice';", { visibility: "org" }))).toMatchObject({ status: 201, body: { status: "created" } });
        const bob = await publish(r.url, KEYS.bob, body("git:release_notes", "return 1"));
        expect(bob).toMatchObject({ status: 409, body: { error: "name_taken" } });
        expect(bob.body.message).toContain("by alice");
        // Nor privately: that would shadow the team's capability for bob.
        const priv = await publish(r.url, KEYS.bob, body("git:release_notes", "return 1", { visibility: "private" }));
        expect(priv).toMatchObject({ status: 409, body: { error: "name_taken" } });
        expect(priv.body.message).toContain("by alice");
        for (const key of [KEYS.alice, KEYS.bob]) {
          expect((await fetchEntry(r.url, fqdn, key)).text).toContain("return 'alice';");
          expect((await fqdnsOf(r.url, key)).filter((x) => x === fqdn)).toEqual([fqdn]);
        }
      } finally {
        await r.stop();
      }
    }, 30_000);

    test("a publish without visibility by a key with an org is org: teammates see it", async () => {
      const r = await startReplica(await d.fresh("default"), f.keysFile);
      try {
        const got = await publish(r.url, KEYS.alice, body("notes:weekly", "return 'team';"));
        expect(got).toMatchObject({ status: 201, body: { status: "created", visibility: "org", fqdn: "acme.web.notes.weekly" } });
        expect((await fetchEntry(r.url, "acme.web.notes.weekly", KEYS.bob)).status).toBe(200);
        expect((await fetchEntry(r.url, "acme.web.notes.weekly", KEYS.eve)).status).toBe(404);
        // A new version without "visibility" keeps what the capability had: neither widened nor narrowed.
        expect((await publish(r.url, KEYS.alice, body("notes:scoped", "return 1;", { visibility: "project" }))).status).toBe(201);
        const next = await publish(r.url, KEYS.bob, body("notes:scoped", "return 2;", { update: true, base_version: "1.0.0" }));
        expect(next).toMatchObject({ status: 201, body: { status: "version", visibility: "project" } });
      } finally {
        await r.stop();
      }
    }, 30_000);

    test("sharing a name held privately moves that record; another's private one is never listed twice", async () => {
      const r = await startReplica(await d.fresh("moves"), f.keysFile);
      try {
        // Alice shares what she kept to herself: the same record, now org, not a second one.
        expect((await publish(r.url, KEYS.alice, body("fs:tidy", "return 'a';", { visibility: "private" }))).status).toBe(201);
        expect(await publish(r.url, KEYS.alice, body("fs:tidy", "return 'a';", { visibility: "org" }))).toMatchObject({
          status: 200,
          body: { status: "visibility", visibility: "org" },
        });
        expect((await fetchEntry(r.url, "acme.web.fs.tidy", KEYS.bob)).text).toContain("return 'a';");
        expect((await fqdnsOf(r.url, KEYS.alice)).filter((x) => x === "acme.web.fs.tidy")).toHaveLength(1);
        // Bob shares a name alice holds privately (he cannot know): each sees one record, alice her own.
        expect((await publish(r.url, KEYS.alice, body("fs:mine", "return 'alice';", { visibility: "private" }))).status).toBe(201);
        expect((await publish(r.url, KEYS.bob, body("fs:mine", "return 'bob';"))).status).toBe(201);
        for (const key of [KEYS.alice, KEYS.bob]) expect((await fqdnsOf(r.url, key)).filter((x) => x === "acme.web.fs.mine")).toHaveLength(1);
        expect((await fetchEntry(r.url, "acme.web.fs.mine", KEYS.alice)).text).toContain("return 'alice';");
        expect((await fetchEntry(r.url, "acme.web.fs.mine", KEYS.bob)).text).toContain("return 'bob';");
      } finally {
        await r.stop();
      }
    }, 30_000);
  });
}
