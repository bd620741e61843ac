// Resolution order against real registry servers: private_mcps > registries (in order) > cloud.url
// > built-ins, plus the messages when nothing matches or the network is gone.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createResolver, privateDescriptor } from "../../src/registry/resolve.ts";
import { ModuleCache } from "../../src/registry/module-cache.ts";
import { startRegistryServer, type RunningRegistryServer } from "../../src/registry-server/serve.ts";
import type { Descriptor } from "../../src/registry/descriptor.ts";
import { deadUrl, GREET_TS, hangingServer, MEMORY_JSON, removeDirs, tempDir, writeEntries } from "./fixtures.ts";
import { rejection as errorOf } from "../helpers/pml.ts";

let dataA: string;
let dataB: string;
let regA: RunningRegistryServer;
let regB: RunningRegistryServer;
const dirs: string[] = [];

const BUILTINS: Record<string, Descriptor> = {
  memory: { type: "stdio", command: "builtin-memory", env_required: [] },
  fetchy: { type: "stdio", command: "builtin-fetchy", env_required: [], description: "built-in" },
};

function cache(): ModuleCache {
  const d = tempDir("rcache");
  dirs.push(d);
  return new ModuleCache(d);
}

beforeAll(() => {
  dataA = tempDir("regA");
  dataB = tempDir("regB");
  writeEntries(dataA, { "greet.ts": GREET_TS, "shared.json": { type: "cloud", description: "from A" } });
  writeEntries(dataB, {
    "shared.json": { type: "cloud", description: "from B" },
    "onlyb.json": { type: "http", url: "https://b.example.com/mcp" },
    "memory.json": MEMORY_JSON,
  });
  regA = startRegistryServer({ dataDir: dataA, port: 0 });
  regB = startRegistryServer({ dataDir: dataB, port: 0 });
});

afterAll(async () => {
  await regA.stop();
  await regB.stop();
  removeDirs(dataA, dataB, ...dirs);
});

describe("createResolver", () => {
  test("two registries in order: first match wins, later ones fill in", async () => {
    const r = createResolver({ config: { registries: [regA.url, regB.url] }, builtins: BUILTINS, cache: cache() });
    expect(await r.resolve("shared")).toEqual({ descriptor: expect.objectContaining({ description: "from A" }), source: regA.url });
    expect((await r.resolve("onlyb")).source).toBe(regB.url);
    const g = await r.resolve("greet");
    expect(g.descriptor.type).toBe("module");
    const swapped = createResolver({ config: { registries: [regB.url, regA.url] }, cache: cache() });
    expect((await swapped.resolve("shared")).descriptor.description).toBe("from B");
  });

  test("cloud.url is the default registry, after the listed ones; registries beat built-ins", async () => {
    const r = createResolver({ config: { registries: [regA.url], cloud: { url: regB.url + "/" } }, builtins: BUILTINS, cache: null });
    expect(r.registries).toEqual([regA.url, regB.url]);
    expect((await r.resolve("onlyb")).source).toBe(regB.url);
    expect((await r.resolve("memory")).source).toBe(regB.url);
    // Catalog servers run confined, whatever their descriptor says.
    expect(await r.resolve("fetchy")).toEqual({ descriptor: { ...BUILTINS.fetchy!, confine: true } as any, source: "builtin" });
  });

  test("private_mcps win over registries and built-ins; {command} without type is stdio", async () => {
    const r = createResolver({
      config: {
        registries: [regA.url],
        private_mcps: {
          greet: { command: "node", args: ["greet-server.js"], env: { A: "1" } },
          memory: { type: "http", url: "https://internal.example.com/mcp" },
        },
      },
      builtins: BUILTINS,
      cache: cache(),
    });
    expect(await r.resolve("greet")).toEqual({
      // The user's own commands run unconfined unless their entry says "confine": true.
      descriptor: { type: "stdio", command: "node", args: ["greet-server.js"], env: { A: "1" }, env_required: [], confine: false },
      source: ".pml.json",
      origin: "user",
    });
    expect((await r.resolve("memory")).descriptor).toMatchObject({ type: "http", url: "https://internal.example.com/mcp" });
  });

  test("confinement: forced on for registries and the catalog, the user's choice for private_mcps", async () => {
    const r = createResolver({
      config: { private_mcps: { mine: { command: "node", confine: true }, plain: { command: "node" } } },
      builtins: { cat: { type: "stdio", command: "x", confine: false, env_required: [] } as Descriptor },
      cache: null,
    });
    expect((await r.resolve("cat")).descriptor).toMatchObject({ confine: true });
    expect((await r.resolve("mine")).descriptor).toMatchObject({ confine: true });
    expect((await r.resolve("plain")).descriptor).toMatchObject({ confine: false });
  });

  test("a private MCP override is noted on stderr at debug level", async () => {
    const home = tempDir("rhome");
    dirs.push(home);
    const script = join(home, "r.ts");
    writeFileSync(
      script,
      `import { createResolver } from ${JSON.stringify(join(import.meta.dir, "../../src/registry/resolve.ts"))};
const url = process.argv[2]!;
const a = createResolver({ config: { registries: [url] } });
await a.resolve("greet");
const b = createResolver({ config: { registries: [url], private_mcps: { greet: { command: "node" } } } });
process.stdout.write((await b.resolve("greet")).source);
`,
    );
    const p = Bun.spawn([process.execPath, script, regA.url], { env: { ...process.env, PML_HOME: home, PML_LOG: "debug" }, stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect(out).toBe(".pml.json");
    expect(err).toContain(`'greet': .pml.json private_mcps overrides ${regA.url}`);
  });

  test("malformed private_mcps entries name the field", async () => {
    const r = createResolver({ config: { private_mcps: { bad: { type: "http", url: "not a url" }, empty: {} } }, workspace: "/proj", cache: null });
    expect((await errorOf(r.resolve("bad"))).message).toContain("/proj/.pml.json: private_mcps.bad.url");
    expect((await errorOf(r.resolve("empty"))).message).toContain('private_mcps.empty needs "command"');
    expect(() => privateDescriptor("x", { command: "" })).toThrow("private_mcps.x.command");
  });

  test("not found anywhere lists where it looked", async () => {
    const r = createResolver({ config: { registries: [regA.url, regB.url] }, builtins: BUILTINS, workspace: { root: "/proj" }, cache: null });
    const e = await errorOf(r.resolve("nope"));
    expect(e.message).toContain("MCP 'nope' not found");
    expect(e.message).toContain("/proj/.pml.json private_mcps");
    expect(e.message).toContain(`registry ${regA.url} (not found)`);
    expect(e.message).toContain(`registry ${regB.url} (not found)`);
    expect(e.message).toContain("the built-in catalog");
    const none = createResolver({ config: {}, cache: null });
    expect((await errorOf(none.resolve("nope"))).message).toContain("no registries configured");
  });

  test("offline: unreachable + not cached -> says so and what to do; built-ins still resolve", async () => {
    const dead = deadUrl();
    const r = createResolver({ config: { registries: [dead] }, builtins: BUILTINS, cache: cache() });
    const e = await errorOf(r.resolve("greet"));
    expect(e.message).toContain("MCP 'greet' is not cached");
    expect(e.message).toContain(`registry ${dead} (connection refused) is unreachable`);
    expect(e.message).toContain("Reconnect");
    expect(e.message).toContain("private_mcps");
    expect((await r.resolve("memory")).source).toBe("builtin");
  });

  test("offline: a registry fetched earlier is served from the cache", async () => {
    const c = cache();
    const local = tempDir("regC");
    dirs.push(local);
    writeEntries(local, { "greet.ts": GREET_TS });
    const own = startRegistryServer({ dataDir: local, port: 0, maxAgeS: 0 });
    const first = await createResolver({ config: { registries: [own.url] }, cache: c }).resolve("greet");
    await own.stop();
    const again = await createResolver({ config: { registries: [own.url] }, cache: c }).resolve("greet");
    expect(again).toEqual(first);
  });

  test("a hanging registry times out and the next one answers", async () => {
    const hang = hangingServer();
    try {
      const r = createResolver({ config: { registries: [hang.url, regB.url] }, cache: null, timeoutMs: 200 });
      expect((await r.resolve("onlyb")).source).toBe(regB.url);
    } finally {
      hang.stop();
    }
  });

  test("resolutions are remembered per process; failures are not", async () => {
    const local = tempDir("regD");
    dirs.push(local);
    const own = startRegistryServer({ dataDir: local, port: 0 });
    try {
      const r = createResolver({ config: { registries: [own.url] }, cache: null });
      await errorOf(r.resolve("late"));
      writeEntries(local, { "late.json": { type: "cloud" } });
      const a = await r.resolve("late");
      writeEntries(local, { "late.json": { type: "http", url: "https://x.example.com" } });
      expect(await r.resolve("late")).toBe(a);
    } finally {
      await own.stop();
    }
  });

  test("list() merges private MCPs, registry catalogs and built-ins, first source wins", async () => {
    const r = createResolver({
      config: { registries: [regA.url, regB.url], private_mcps: { greet: { command: "node" } } },
      builtins: BUILTINS,
      cache: null,
    });
    const items = await r.list();
    const by = Object.fromEntries(items.map((i) => [i.ns, i.source]));
    expect(by).toEqual({ greet: ".pml.json", shared: regA.url, memory: regB.url, onlyb: regB.url, fetchy: "builtin" });
  });
});
