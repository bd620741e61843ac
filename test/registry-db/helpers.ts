// Shared by the registry-db tests: API keys for a small team, a replica of `pml registry serve`
// (the compiled binary) on a database, and HTTP helpers that speak the registry's wire format.
import { afterAll, beforeAll } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { entries, spawnListening, tempDir, testEnv } from "../helpers/pml.ts";
import { postgresUnavailable, startPostgres, type TestPostgres } from "../helpers/postgres.ts";

export const KEYS = {
  alice: "k_alice_0123456789", // acme
  bob: "k_bob_0123456789", // acme
  eve: "k_eve_0123456789", // evil corp
  anonymousKey: "k_no_identity_0123", // accepted, but no org/user
} as const;

export function writeKeysFile(dir: string): string {
  const file = join(dir, "keys.json");
  writeFileSync(
    file,
    JSON.stringify({
      keys: [
        { key: KEYS.alice, org: "acme", user: "alice" },
        { key: KEYS.bob, org: "acme", user: "bob" },
        { key: KEYS.eve, org: "evil", user: "eve" },
      ],
    }),
  );
  return file;
}

export type Replica = Awaited<ReturnType<typeof spawnListening>>;

/** One replica: the compiled binary serving `database` on a free port. */
export function startReplica(database: string, keysFile: string, extra: string[] = []): Promise<Replica> {
  return spawnListening([...entries.binary, "registry", "serve", "--database", database, "--port", "0", "--api-keys-file", keysFile, "--api-key", KEYS.anonymousKey, ...extra], {
    env: testEnv(),
  });
}

export const auth = (key?: string): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});

export async function publish(url: string, key: string | undefined, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/mcp/capabilities`, { method: "POST", headers: { ...auth(key), "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

export async function fetchEntry(url: string, fqdn: string, key?: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(`${url}/mcp/${fqdn}`, { headers: auth(key) });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

export async function listAll(url: string, key?: string, query = ""): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const res: Response = await fetch(`${url}/mcp?limit=100${query}${cursor ? `&cursor=${cursor}` : ""}`, { headers: auth(key) });
    if (res.status !== 200) throw new Error(`GET /mcp: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { items: any[]; next_cursor: string | null };
    out.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

export const capability = (name: string, code: string, extra: Record<string, unknown> = {}): Record<string, any> => ({
  name,
  project: "web",
  code,
  description: `${name} for tests`,
  visibility: "org",
  ...extra,
});

/**
 * For a test file over both databases (call at its top level): a temp dir holding the team's keys
 * file and, when PostgreSQL can run here, a server of the file's own, stopped after it. Each
 * dialect's `fresh(name)` makes an empty database (names must differ within the file).
 */
export interface BothDatabases {
  dir: string;
  keysFile: string;
  pg: TestPostgres | undefined;
  dialects: { name: "SQLite" | "PostgreSQL"; skip: boolean; fresh(name: string): Promise<string> }[];
}

export function bothDatabases(prefix: string): BothDatabases {
  const f: BothDatabases = {
    dir: "",
    keysFile: "",
    pg: undefined,
    dialects: [
      { name: "SQLite", skip: false, fresh: async (name: string) => `sqlite:${join(f.dir, `${name}.sqlite`)}` },
      { name: "PostgreSQL", skip: !!postgresUnavailable, fresh: (name: string) => f.pg!.createDatabase(name) },
    ],
  };
  let tmp: ReturnType<typeof tempDir> | undefined;
  beforeAll(async () => {
    tmp = tempDir(prefix);
    f.dir = tmp.path;
    f.keysFile = writeKeysFile(f.dir);
    if (!postgresUnavailable) f.pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await f.pg?.stop();
    tmp?.cleanup();
  });
  return f;
}
