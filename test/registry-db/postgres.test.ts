// Two `pml registry serve --database postgres://…` replicas (the compiled binary) on one real
// PostgreSQL started by this test: they migrate once, any replica answers any request, one can
// die mid-run, concurrent publishes of one name give one winner, and what a key may not see
// looks exactly like what does not exist.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { compileModule } from "../../src/registry/module-code.ts";
import { tempDir } from "../helpers/pml.ts";
import { postgresUnavailable, startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { waitFor } from "../helpers/wait.ts";
import { capability, fetchEntry, KEYS, listAll, publish, startReplica, writeKeysFile, type Replica } from "./helpers.ts";

if (postgresUnavailable) console.warn(`skipped: test/registry-db/postgres.test.ts (${postgresUnavailable})`);

describe.skipIf(!!postgresUnavailable)("registry replicas on PostgreSQL", () => {
  let pg: TestPostgres;
  let dbUrl: string;
  let dir: ReturnType<typeof tempDir>;
  let keysFile: string;
  let a: Replica;
  let b: Replica;
  const extra: Replica[] = [];
  let sql: InstanceType<typeof Bun.SQL>;

  beforeAll(async () => {
    pg = await startPostgres();
    dbUrl = await pg.createDatabase("replicas");
    dir = tempDir("pml-regdb-");
    keysFile = writeKeysFile(dir.path);
    // Started together: both run migrations at once, under the advisory lock.
    [a, b] = await Promise.all([startReplica(dbUrl, keysFile), startReplica(dbUrl, keysFile)]);
    sql = new Bun.SQL(dbUrl);
  }, 60_000);

  afterAll(async () => {
    await sql?.close();
    for (const r of [a, b, ...extra]) await r?.stop().catch(() => {});
    await pg?.stop();
    dir?.cleanup();
  });

  test("two replicas starting together migrate once", async () => {
    const rows = await sql`SELECT version FROM schema_migrations ORDER BY version`;
    expect(rows.map((r: any) => r.version)).toEqual([1, 2, 3]);
    for (const r of [a, b]) expect((await fetch(`${r.url}/mcp`)).status).toBe(200);
    expect(a.stderr()).toContain("database: postgres://pml@127.0.0.1");
  });

  test("publish on one replica, fetch it from the other as a module with __meta__", async () => {
    const body = capability("git:release_notes", "return { notes: `changes since ${args.since}` };", {
      description: "Write release notes from the git log",
      intent: "summarize commits into a changelog",
      parameters_schema: { type: "object", properties: { since: { type: "string" } }, required: ["since"] },
      default_args: { since: "v1.0.0" },
      tools_used: ["git:log"],
      tags: ["git", "release"],
    });
    const pub = await publish(a.url, KEYS.alice, body);
    expect(pub.status).toBe(201);
    expect(pub.body).toMatchObject({ status: "created", name: "git:release_notes", fqdn: "acme.web.git.release_notes", version: "1.0.0", visibility: "org" });
    expect(pub.body.version_fqdn).toMatch(/^acme\.web\.git\.release_notes\.[0-9a-f]{4}$/);

    const got = await fetchEntry(b.url, "acme.web.git.release_notes", KEYS.bob);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toStartWith("application/typescript");
    expect(got.headers.get("cache-control")).toStartWith("private");
    const mod = compileModule(got.text, { registryUrl: b.url, fqdn: "acme.web.git.release_notes" });
    expect(mod.tools.map((t) => t.name)).toEqual(["release_notes"]);
    expect(mod.tools[0]!.inputSchema).toEqual(body.parameters_schema);
    const meta = JSON.parse(/^\/\/ __meta__: (.*)$/m.exec(got.text)![1]!);
    expect(meta.capability).toMatchObject({ name: "git:release_notes", version: "1.0.0", created_by: "alice", tools_used: ["git:log"], default_args: { since: "v1.0.0" } });

    // The same bytes from either replica (same ETag), and 304 across replicas.
    const fromA = await fetchEntry(a.url, "acme.web.git.release_notes", KEYS.bob);
    expect(fromA.headers.get("etag")).toBe(got.headers.get("etag")!);
    const again = await fetch(`${a.url}/mcp/acme.web.git.release_notes`, { headers: { authorization: `Bearer ${KEYS.bob}`, "if-none-match": got.headers.get("etag")! } });
    expect(again.status).toBe(304);

    // Listed and found by words from its description, intent and tags.
    const listed = await listAll(b.url, KEYS.bob);
    expect(listed.find((i) => i.fqdn === "acme.web.git.release_notes")).toMatchObject({ type: "capability", name: "git:release_notes", version: "1.0.0" });
    for (const q of ["changelog", "release notes", "GIT", "summarize commit"]) {
      const hits = await listAll(b.url, KEYS.bob, `&text=${encodeURIComponent(q)}`);
      expect({ q, hits: hits.map((h) => h.fqdn) }).toEqual({ q, hits: ["acme.web.git.release_notes"] });
    }
    expect(await listAll(b.url, KEYS.bob, "&text=kubernetes")).toEqual([]);
  });

  test("concurrent creates of one name across replicas: one winner, the rest a clear conflict", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => publish(i % 2 ? a.url : b.url, i % 3 ? KEYS.alice : KEYS.bob, capability("fs:read_config", `return ${i};`))),
    );
    const created = results.filter((r) => r.status === 201);
    const conflicts = results.filter((r) => r.status === 409);
    expect(created.length).toBe(1);
    expect(conflicts.length).toBe(7);
    for (const c of conflicts) {
      expect(c.body.error).toBe("name_taken");
      expect(c.body.message).toContain("Capability name 'fs:read_config' already exists");
      expect(c.body.message).toContain('"base_version": "1.0.0"');
    }
    const rows = await sql`SELECT count(*)::int AS n FROM capabilities WHERE fqdn = 'acme.web.fs.read_config'`;
    expect(rows[0].n).toBe(1);
  });

  test("concurrent updates from one base version: one new version, the others told to merge; nothing lost", async () => {
    const first = await publish(a.url, KEYS.alice, capability("fs:write_report", "return 'v1';"));
    expect(first.status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        publish(i % 2 ? a.url : b.url, i % 2 ? KEYS.alice : KEYS.bob, capability("fs:write_report", `return 'edit ${i}';`, { update: true, base_version: "1.0.0" })),
      ),
    );
    const winners = results.filter((r) => r.status === 201);
    const losers = results.filter((r) => r.status === 409);
    expect(winners.length).toBe(1);
    expect(losers.length).toBe(7);
    expect(winners[0]!.body).toMatchObject({ status: "version", version: "1.1.0" });
    for (const l of losers) {
      expect(l.body.error).toBe("stale_base_version");
      expect(l.body.message).toContain("changed since v1.0.0: the latest is v1.1.0");
      expect(l.body.message).toContain('"base_version": "1.1.0"');
    }
    // A loser merges and publishes on the new base: appended as 1.2.0.
    const retry = await publish(b.url, KEYS.bob, capability("fs:write_report", "return 'merged';", { update: true, base_version: "1.1.0" }));
    expect(retry.body).toMatchObject({ status: "version", version: "1.2.0" });

    const versions = await sql`SELECT v.seq, v.version_tag, v.code FROM capability_versions v JOIN capabilities c ON c.id = v.capability_id
      WHERE c.fqdn = 'acme.web.fs.write_report' ORDER BY v.seq`;
    expect(versions.map((v: any) => [v.seq, v.version_tag])).toEqual([
      [1, "1.0.0"],
      [2, "1.1.0"],
      [3, "1.2.0"],
    ]);
    // Every version stays reachable by its own FQDN; the plain name serves the latest.
    for (const fqdn of [first.body.version_fqdn, winners[0]!.body.version_fqdn, retry.body.version_fqdn]) expect((await fetchEntry(a.url, fqdn, KEYS.bob)).status).toBe(200);
    expect((await fetchEntry(b.url, "acme.web.fs.write_report", KEYS.alice)).text).toContain("return 'merged';");
    expect((await fetchEntry(b.url, first.body.version_fqdn, KEYS.alice)).text).toContain("return 'v1';");

    // An update must name its base; the same code again is not a new version.
    const noBase = await publish(a.url, KEYS.alice, capability("fs:write_report", "return 'x';", { update: true }));
    expect(noBase).toMatchObject({ status: 409, body: { error: "base_version_required" } });
    const same = await publish(a.url, KEYS.alice, capability("fs:write_report", "return 'merged';"));
    expect(same).toMatchObject({ status: 200, body: { status: "unchanged", version: "1.2.0" } });
  });

  test("versions are append-only in the database itself", async () => {
    await expect(sql`UPDATE capability_versions SET code = 'return 0;'`.then(() => "changed")).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM capability_versions`.then(() => "deleted")).rejects.toThrow(/append-only/);
  });

  test("kill one replica mid-run: the other keeps serving and nothing is half-written", async () => {
    const c = await startReplica(dbUrl, keysFile);
    extra.push(c);
    const done: string[] = [];
    const failovers: string[] = [];
    // A client behind a load balancer: try the replica, fall back to the other on a connection error.
    const withFailover = async <T>(fn: (url: string) => Promise<T>, primary: string): Promise<T> => {
      try {
        return await fn(primary);
      } catch {
        failovers.push(primary);
        return fn(b.url);
      }
    };
    const work = (async () => {
      for (let i = 0; i < 30; i++) {
        const name = `util:step_${i}`;
        const pub = await withFailover((u) => publish(u, KEYS.alice, capability(name, `return ${i};`)), c.url);
        expect([200, 201]).toContain(pub.status);
        const got = await withFailover((u) => fetchEntry(u, `acme.web.util.step_${i}`, KEYS.bob), c.url);
        expect(got.status).toBe(200);
        done.push(name);
      }
    })();
    await waitFor(() => done.length >= 10, { timeoutMs: 60_000, intervalMs: 5, what: "ten publishes" });
    c.proc.kill("SIGKILL");
    await work;
    expect(done.length).toBe(30);
    expect(failovers.length).toBeGreaterThan(0);
    // Every capability has its latest version row: none was left half-written by the killed replica.
    const broken = await sql`SELECT c.fqdn FROM capabilities c LEFT JOIN capability_versions v ON v.capability_id = c.id AND v.seq = c.latest_seq WHERE v.seq IS NULL`;
    expect(broken.length).toBe(0);
    const listed = (await listAll(a.url, KEYS.bob, "&text=step")).map((i) => i.name);
    expect(listed.length).toBe(30);
  });

  test("who sees what: private, project, org, public; 404 (never 403) for the rest", async () => {
    for (const vis of ["private", "project", "org", "public"])
      expect((await publish(a.url, KEYS.alice, capability(`vis:only_${vis}`, `return '${vis}';`, { visibility: vis }))).status).toBe(201);
    const viewers: Record<string, string | undefined> = { alice: KEYS.alice, bob: KEYS.bob, eve: KEYS.eve, anonymous: undefined, keyWithoutIdentity: KEYS.anonymousKey };
    const expected: Record<string, string[]> = {
      alice: ["private", "project", "org", "public"],
      bob: ["project", "org", "public"],
      eve: ["public"],
      anonymous: ["public"],
      keyWithoutIdentity: ["public"],
    };
    const missing = await fetchEntry(b.url, "acme.web.vis.only_nothing", KEYS.eve);
    for (const [who, key] of Object.entries(viewers)) {
      const seen: string[] = [];
      for (const vis of ["private", "project", "org", "public"]) {
        const got = await fetchEntry(b.url, `acme.web.vis.only_${vis}`, key);
        if (got.status === 200) seen.push(vis);
        else {
          // Indistinguishable from a name that does not exist.
          expect(got.status).toBe(404);
          expect(got.text.replace(`only_${vis}`, "only_nothing")).toBe(missing.text);
        }
      }
      expect({ who, seen }).toEqual({ who, seen: expected[who]! });
      const listed = (await listAll(a.url, key, "&text=vis")).map((i) => i.name.replace("vis:only_", ""));
      expect({ who, listed: listed.sort() }).toEqual({ who, listed: [...expected[who]!].sort() });
      // A short name is looked up in the caller's own org only: eve sees acme's public one by FQDN, not by name.
      const named = (await listAll(a.url, key, "&name=vis:only_public")).map((i) => i.fqdn);
      expect({ who, named }).toEqual({ who, named: who === "alice" || who === "bob" ? ["acme.web.vis.only_public"] : [] });
    }

    // Bob may take the name Alice holds privately, without learning that it exists; each sees their own.
    const bobs = await publish(b.url, KEYS.bob, capability("vis:only_private", "return 'bob';", { visibility: "private" }));
    expect(bobs.status).toBe(201);
    expect((await fetchEntry(a.url, "acme.web.vis.only_private", KEYS.bob)).text).toContain("return 'bob';");
    expect((await fetchEntry(a.url, "acme.web.vis.only_private", KEYS.alice)).text).toContain("return 'private';");

    // Eve cannot publish into acme, and a key this registry does not know is refused, not downgraded.
    expect(await publish(a.url, KEYS.eve, capability("vis:sneak", "return 1;", { org: "acme" }))).toMatchObject({ status: 400, body: { error: "wrong_org" } });
    const typo = await fetchEntry(a.url, "acme.web.vis.only_public", "k_not_a_key_0000");
    expect(typo.status).toBe(401);
    expect(typo.text).toContain("does not accept that key");
  });

  test("bad publishes get a clear error and change nothing", async () => {
    const before = await sql`SELECT count(*)::int AS n FROM capability_versions`;
    const cases: [string | undefined, unknown, number, RegExp][] = [
      [undefined, capability("fs:x_y", "return 1;"), 401, /Bearer/],
      [KEYS.anonymousKey, capability("fs:x_y", "return 1;"), 403, /no org and user/],
      [KEYS.alice, capability("invalid name!", "return 1;"), 400, /Invalid capability name format\. Expected: namespace:action_target/],
      [KEYS.alice, { ...capability("fs:x_y", "return 1;"), project: undefined }, 400, /'project'/],
      [KEYS.alice, capability("fs:x_y", "return 1;", { visibility: "everyone" }), 400, /visibility must be one of private, project, org, public/],
      [KEYS.alice, capability("fs:x_y", "import fs from 'node:fs'; return 1;"), 400, /capability code/],
      [KEYS.alice, capability("fs:x_y", "return 1; }); } export async function other() { return (async () => {"), 400, /body of one async function/],
      [KEYS.alice, capability("fs:x_y", "return ("), 400, /capability code/],
      [KEYS.alice, capability("fs:x_y", "return 1;", { version_tag: "one" }), 400, /version like 1\.2\.0/],
    ];
    for (const [key, body, status, message] of cases) {
      const r = await publish(a.url, key, body);
      expect({ body, status: r.status }).toEqual({ body, status });
      expect(r.body.message).toMatch(message);
    }
    const notJson = await fetch(`${a.url}/mcp/capabilities`, { method: "POST", headers: { authorization: `Bearer ${KEYS.alice}` }, body: "{nope" });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as any).message).toContain("not JSON");
    const huge = await fetch(`${a.url}/mcp/capabilities`, { method: "POST", headers: { authorization: `Bearer ${KEYS.alice}` }, body: "x".repeat(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    const after = await sql`SELECT count(*)::int AS n FROM capability_versions`;
    expect(after[0].n).toBe(before[0].n);
    // The replicas are still serving.
    for (const r of [a, b]) expect((await fetch(`${r.url}/mcp`)).status).toBe(200);
  });
});
