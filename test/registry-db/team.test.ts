// Issue 14 point 4, the local side, with the real binary on both ends: teammate A names a
// capability and (with "memory": {"publish": "org"}) it goes to the team registry (`pml registry
// serve --database sqlite:…` at cloud.url); teammate B, with another PML_HOME and workspace, finds
// it with discover and runs it as a capability tool on B's machine, under B's permissions. No
// secret of A's leaves A's machine; another org never sees it; offline, B runs it from the cache.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { KEYS, startReplica, writeKeysFile, type Replica } from "./helpers.ts";
import { CONFIG_RECHECK_MS } from "../../src/policy/project.ts";
import { clockPassed } from "../helpers/wait.ts";
import { parseDiscover } from "../helpers/discover.ts";

const SECRET = "ghp_team_test_secret_value_42";
const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
const dirs: Array<{ path: string; cleanup(): void }> = [];
const closers: Array<() => Promise<void>> = [];
let registry: Replica;
let regDir: string;

beforeAll(async () => {
  const d = tempDir("pml-team-reg-");
  dirs.push(d);
  regDir = d.path;
  registry = await startReplica(`sqlite:${join(regDir, "registry.db")}`, writeKeysFile(regDir));
}, 30_000);
afterAll(async () => {
  for (const c of closers) await c().catch(() => {});
  await registry?.stop();
  for (const d of dirs) d.cleanup();
});

/** A teammate: own workspace (with a.txt) and PML_HOME, a key, a .pml.json. */
async function teammate(key: string, config: Record<string, unknown>, file = "hello from the workspace", env: Record<string, string> = {}) {
  const ws = tempDir("pml-team-ws-");
  const home = tempDir("pml-team-home-");
  dirs.push(ws, home);
  writeFileSync(join(ws.path, "a.txt"), file);
  // The teammate trusts the .pml.json they write, and each edit of theirs (these add grants).
  const put = (cfg: Record<string, unknown>) => writeTrustedConfig(ws.path, { cloud: { url: registry.url }, ...cfg }, home.path);
  await put(config);
  /** An edit while pml runs: it applies to calls made CONFIG_RECHECK_MS after it (read on the clock, not a timer). */
  const write = async (cfg: Record<string, unknown>) => {
    await put(cfg);
    await clockPassed(CONFIG_RECHECK_MS, performance.now());
  };
  const c = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, PML_API_KEY: key, ...env }) });
  closers.push(() => c.client.close());
  return { ...c, ws: ws.path, home: home.path, write };
}

describe("sharing capabilities through the team registry", () => {
  let a: Awaited<ReturnType<typeof teammate>>;

  beforeAll(async () => {
    a = await teammate(KEYS.alice, { memory: { publish: "org", project: "web" }, permissions: { allow: ["filesystem"] } }, "alice's file", { GITHUB_TOKEN: SECRET });
  });

  test("A's named capability is published (org) after it is saved; a run of unchanged code publishes nothing", async () => {
    const r: any = await a.client.callTool({
      name: "execute",
      arguments: {
        code: "return (await mcp.filesystem.read_file({path: args.path})).toUpperCase()",
        args: { path: "a.txt" },
        name: "fs:shout_file",
        intent: "read a file and shout it",
      },
    });
    expect(r.structuredContent.result).toBe("ALICE'S FILE");
    expect(r.structuredContent.published).toMatchObject({ visibility: "org" });
    const again: any = await a.client.callTool({
      name: "execute",
      arguments: { code: "return (await mcp.filesystem.read_file({path: args.path})).toUpperCase()", args: { path: "a.txt" }, name: "fs:shout_file" },
    });
    expect(again.structuredContent.published).toBeUndefined();
  });

  test("a new version saved by A is published as the registry's next version of the same name", async () => {
    const r: any = await a.client.callTool({
      name: "execute",
      arguments: { code: "return (await mcp.filesystem.read_file({path: args.path})).toUpperCase() + '!'", args: { path: "a.txt" }, name: "fs:shout_file", update: true },
    });
    expect(r.structuredContent.version.tag).toBe("1.1.0");
    expect(r.structuredContent.published).toMatchObject({ version: "1.1.0", visibility: "org" });
  });

  test("code holding the value of one of A's secrets is saved locally and not published, with a reason", async () => {
    const r: any = await a.client.callTool({
      name: "execute",
      arguments: { code: `return "${SECRET}".length`, name: "util:count_token", intent: "count the token" },
    });
    expect(r.structuredContent.capabilityName).toBe("util:count_token");
    expect(r.structuredContent.published).toBeUndefined();
    expect(JSON.stringify(r.structuredContent)).toContain("contains the value of GITHUB_TOKEN");
    // Nothing of it, nor A's keys, reached the registry's database.
    const stored = readFileSync(join(regDir, "registry.db")).toString("latin1");
    expect(stored).not.toContain(SECRET);
    expect(stored).not.toContain(KEYS.alice);
    expect(stored).not.toContain("count_token");
  });

  test("B finds it with discover and runs it on B's machine, on B's files", async () => {
    const b = await teammate(KEYS.bob, { permissions: { allow: ["filesystem"] } }, "bob's file");
    const found = parseDiscover(text(await b.client.callTool({ name: "discover", arguments: { query: "shout a file" } })));
    const hit = found.results.find((x: any) => x.id === "fs:shout_file");
    expect(hit).toMatchObject({ kind: "team capability", tool: "cap__fs__shout_file" });
    // Ranked with the local tools in one list, not appended after them: it matches best.
    expect(found.results[0].id).toBe("fs:shout_file");
    const r: any = await b.client.callTool({ name: "cap__fs__shout_file", arguments: { path: "a.txt" } });
    expect(r.structuredContent.result).toBe("BOB'S FILE!");
    expect(r.structuredContent.from).toMatchObject({ registry: registry.url, by: "alice" });
    // B's permissions apply to what the shared code calls.
    await b.write({ permissions: { allow: ["cap"], deny: ["filesystem:read_file"] } });
    const denied: any = await b.client.callTool({ name: "cap__fs__shout_file", arguments: { path: "a.txt" } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain("filesystem:read_file is denied");
    // Its parameters are checked before its code runs, as for local capabilities.
    await b.write({ permissions: { allow: ["filesystem"] } });
    const bad: any = await b.client.callTool({ name: "cap__fs__shout_file", arguments: { path: 42 } });
    expect(text(bad)).toContain("Invalid arguments for cap:fs:shout_file");
  });

  test("a name held in B's own workspace wins over the team's: one entry, B's, in the one ranking", async () => {
    const b = await teammate(KEYS.bob, { permissions: { allow: ["filesystem"] } });
    const saved: any = await b.client.callTool({
      name: "execute",
      arguments: { code: "return 'quiet ' + args.path", args: { path: "a.txt" }, name: "fs:shout_file", intent: "read a file and shout it" },
    });
    expect(saved.isError).toBeFalsy();
    const found = parseDiscover(text(await b.client.callTool({ name: "discover", arguments: { query: "shout a file" } })));
    const named = found.results.filter((x: any) => x.id === "fs:shout_file");
    expect(named).toHaveLength(1);
    expect(named[0].kind).toBe("capability");
  });

  test("another org never sees it: the name is simply not found", async () => {
    const e = await teammate(KEYS.eve, { permissions: { allow: ["filesystem"] } });
    const r: any = await e.client.callTool({ name: "cap__fs__shout_file", arguments: { path: "a.txt" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("Capability not found: fs:shout_file");
    const found = parseDiscover(text(await e.client.callTool({ name: "discover", arguments: { query: "shout a file" } })));
    expect(found.results.some((x: any) => x.id === "fs:shout_file")).toBe(false);
  });

  test("registry down: a capability run before comes from the cache; one never fetched says what is wrong", async () => {
    const b = await teammate(KEYS.bob, { permissions: { allow: ["filesystem"] } }, "bob again");
    const first: any = await b.client.callTool({ name: "cap__fs__shout_file", arguments: { path: "a.txt" } });
    expect(first.structuredContent.result).toBe("BOB AGAIN!");
    await registry.stop();
    try {
      await b.write({ permissions: { allow: ["filesystem"] }, memory: {} }); // a new config generation: nothing kept in memory helps
      const cached: any = await b.client.callTool({ name: "cap__fs__shout_file", arguments: { path: "a.txt" } });
      expect(cached.structuredContent?.result).toBe("BOB AGAIN!");
      const never: any = await b.client.callTool({ name: "cap__fs__never_shared", arguments: {} });
      expect(never.isError).toBe(true);
      expect(text(never)).toContain("is not saved here and the team registry");
      expect(text(never)).toContain("unreachable");
    } finally {
      registry = await startReplica(`sqlite:${join(regDir, "registry.db")}`, join(regDir, "keys.json"));
    }
  });
});
