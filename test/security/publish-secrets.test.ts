// Issue 22 finding 6, against the compiled pml and a real `pml registry serve`: with
// `memory.publish: "org"` a capability's first-run arguments went out as its default_args, and the
// filter matched variable *names* only, so a `postgres://app:pass@…` URL and a `ghp_…` token passed
// as arguments were published and read back by a teammate. Now default arguments are published only
// with `memory.publish_defaults: true`, and then every value is screened (the environment's and the
// workspace .env's values, URLs with a password, token shapes): a screened one is withheld with a
// warning naming the argument, and its value never reaches the registry.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { auth, KEYS, startReplica, writeKeysFile, type Replica } from "../registry-db/helpers.ts";
import { trustWorkspace } from "../helpers/trust.ts";

const TOKEN = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
const DB_URL = "postgres://app:S3cr3tPassw0rd@db.internal:5432/app";
const ENV_VALUE = "tenant-7d1c0f9e-internal"; // a plain variable, no secret-sounding name
const DOTENV_VALUE = "dotenv-only-value-91";
const dirs: Array<{ cleanup(): void }> = [];
const closers: Array<() => Promise<void>> = [];
let registry: Replica;
let regDir: string;

beforeAll(async () => {
  const d = tempDir("pml-sec-publish-reg-");
  dirs.push(d);
  regDir = d.path;
  registry = await startReplica(`sqlite:${join(regDir, "registry.db")}`, writeKeysFile(regDir));
}, 30_000);
afterAll(async () => {
  for (const c of closers) await c().catch(() => {});
  await registry?.stop();
  for (const d of dirs) d.cleanup();
});

async function alice(memory: Record<string, unknown>) {
  const ws = tempDir("pml-sec-publish-ws-");
  const home = tempDir("pml-sec-publish-home-");
  dirs.push(ws, home);
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ cloud: { url: registry.url }, memory: { project: "web", ...memory } }));
  await trustWorkspace(ws.path, home.path);
  writeFileSync(join(ws.path, ".env"), `REPORT_LABEL=${DOTENV_VALUE}\n`);
  const c = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, PML_API_KEY: KEYS.alice, TENANT: ENV_VALUE }) });
  closers.push(() => c.client.close());
  return c;
}

/** The capability as a teammate reads it back from the registry. */
async function readBack(name: string): Promise<any> {
  const res = await fetch(`${registry.url}/mcp/acme.web.${name.replace(":", ".")}?format=record`, { headers: auth(KEYS.bob) });
  expect(res.status).toBe(200);
  return res.json();
}

const ARGS = { db: DB_URL, token: TOKEN, tenant: ENV_VALUE, label: DOTENV_VALUE, region: "eu-west-1" };
const CODE = "return Object.keys(args).length";

describe("no secret leaves in an argument", () => {
  test("by default no default argument is published, not even in the parameters schema", async () => {
    const a = await alice({ publish: "org" });
    const r: any = await a.client.callTool({ name: "execute", arguments: { code: CODE, args: ARGS, name: "util:count_args", intent: "count the arguments" } });
    expect(r.structuredContent.published).toMatchObject({ visibility: "org" });
    const record = await readBack("util:count_args");
    expect(record.default_args ?? {}).toEqual({});
    const sent = JSON.stringify(record);
    for (const v of Object.values(ARGS)) expect(sent).not.toContain(v);
    expect(Object.keys(record.parameters_schema.properties)).toEqual(Object.keys(ARGS)); // the parameters still go
  });

  test("with publish_defaults, screened values are withheld by name with a warning, the others go", async () => {
    const a = await alice({ publish: "org", publish_defaults: true });
    const r: any = await a.client.callTool({
      name: "execute",
      arguments: { code: `${CODE} + 1`, args: ARGS, name: "util:count_args_plus", intent: "count the arguments, plus one" },
    });
    expect(r.structuredContent.published).toMatchObject({ visibility: "org" });
    const warning = r.structuredContent.warnings.join("\n");
    for (const name of ["db (a URL with a password)", "token (a GitHub token)", "tenant (the value of TENANT)", "label (the value of REPORT_LABEL)"])
      expect(warning).toContain(name);
    for (const v of [DB_URL, TOKEN, ENV_VALUE, DOTENV_VALUE]) expect(warning).not.toContain(v);
    const record = await readBack("util:count_args_plus");
    // Issue 23: no default arguments are published (a call gets only declared defaults); the first
    // run's values go as the schema's examples, screened the same way.
    expect(record.default_args ?? {}).toEqual({});
    const sent = JSON.stringify(record);
    for (const v of [DB_URL, TOKEN, ENV_VALUE, DOTENV_VALUE]) expect(sent).not.toContain(v);
    expect(record.parameters_schema.properties.region.examples).toEqual(["eu-west-1"]);
    expect(record.parameters_schema.properties.db.examples).toBeUndefined();
  });

  test("code holding a token shape is kept here and not published, with the reason", async () => {
    const a = await alice({ publish: "org", publish_defaults: true });
    const r: any = await a.client.callTool({ name: "execute", arguments: { code: `return "${TOKEN}".length`, name: "util:token_length", intent: "measure a token" } });
    expect(r.structuredContent.capabilityName).toBe("util:token_length");
    expect(r.structuredContent.published).toBeUndefined();
    expect(r.structuredContent.warnings.join("\n")).toContain("its code contains a GitHub token");
  });

  test("none of the values reached the registry's database", () => {
    const stored = ["registry.db", "registry.db-wal"]
      .filter((f) => existsSync(join(regDir, f)))
      .map((f) => readFileSync(join(regDir, f)).toString("latin1"))
      .join("\n");
    const found = [DB_URL, TOKEN, ENV_VALUE, DOTENV_VALUE, "S3cr3tPassw0rd"].filter((v) => stored.includes(v));
    expect(found).toEqual([]);
    expect(stored.includes("eu-west-1")).toBe(true); // what may go did go
  });
});
