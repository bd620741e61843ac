// `pml registry serve --database sqlite:PATH`: read-write on one host. Concurrent publishes to one
// process, and two processes on the same file, keep the version rules.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { tempDir } from "../helpers/pml.ts";
import { capability, fetchEntry, KEYS, listAll, publish, startReplica, writeKeysFile, type Replica } from "./helpers.ts";

let dir: ReturnType<typeof tempDir>;
let file: string;
let one: Replica;
let two: Replica;

beforeAll(async () => {
  dir = tempDir("pml-regsqlite-");
  file = join(dir.path, "registry.db");
  const keys = writeKeysFile(dir.path);
  [one, two] = await Promise.all([startReplica(`sqlite:${file}`, keys), startReplica(`sqlite:${file}`, keys)]);
}, 30_000);

afterAll(async () => {
  await one?.stop();
  await two?.stop();
  dir?.cleanup();
});

describe("registry on SQLite", () => {
  test("publish through one process, read through the other", async () => {
    const pub = await publish(one.url, KEYS.alice, capability("transform:csv_to_json", "return args.csv.split('\\n');", { visibility: "public" }));
    expect(pub.status).toBe(201);
    const got = await fetchEntry(two.url, "acme.web.transform.csv_to_json");
    expect(got.status).toBe(200);
    expect(got.headers.get("cache-control")).toBe("max-age=60");
    expect(got.text).toContain("export async function csv_to_json(args, ctx)");
    expect((await listAll(two.url, undefined, "&text=csv")).map((i) => i.name)).toEqual(["transform:csv_to_json"]);
    expect(one.stderr()).toContain(`database: sqlite:${file}`);
  });

  test("concurrent updates through both processes: one winner, versions contiguous", async () => {
    await publish(one.url, KEYS.alice, capability("util:count_words", "return 1;"));
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        publish(i % 2 ? one.url : two.url, KEYS.bob, capability("util:count_words", `return ${i + 2};`, { update: true, base_version: "1.0.0" })),
      ),
    );
    expect(results.filter((r) => r.status === 201).length).toBe(1);
    expect(results.filter((r) => r.status === 409 && r.body.error === "stale_base_version").length).toBe(9);
    const db = new Database(file, { readonly: true });
    const seqs = db
      .query(`SELECT v.seq FROM capability_versions v JOIN capabilities c ON c.id = v.capability_id WHERE c.fqdn = 'acme.web.util.count_words' ORDER BY v.seq`)
      .all()
      .map((r: any) => r.seq);
    db.close();
    expect(seqs).toEqual([1, 2]);
  });

  test("an incompatible parameters change is a major version, a description change a patch", async () => {
    const schema = { type: "object", properties: { path: { type: "string" } } };
    await publish(one.url, KEYS.alice, capability("fs:read_yaml", "return 1;", { parameters_schema: schema }));
    const patch = await publish(
      one.url,
      KEYS.alice,
      capability("fs:read_yaml", "return 1;", { parameters_schema: schema, description: "Read YAML", update: true, base_version: "1.0.0" }),
    );
    expect(patch.body.version).toBe("1.0.1");
    const minor = await publish(
      two.url,
      KEYS.alice,
      capability("fs:read_yaml", "return 2;", { parameters_schema: schema, description: "Read YAML", update: true, base_version: "1.0.1" }),
    );
    expect(minor.body.version).toBe("1.1.0");
    const major = await publish(
      one.url,
      KEYS.alice,
      capability("fs:read_yaml", "return 2;", { parameters_schema: { ...schema, required: ["path"] }, description: "Read YAML", update: true, base_version: "1.1.0" }),
    );
    expect(major.body.version).toBe("2.0.0");
    const explicit = await publish(one.url, KEYS.alice, capability("fs:read_yaml", "return 3;", { update: true, base_version: "2.0.0", version_tag: "1.9.0" }));
    expect(explicit).toMatchObject({ status: 409, body: { error: "version_not_greater" } });
  });
});
