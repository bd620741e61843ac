// The registry client and module cache against a real registry server on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fetchEntry, listEntries, loadEntry, RegistryNotFoundError, RegistryUnreachableError } from "../../src/registry/client.ts";
import { ModuleCache } from "../../src/registry/module-cache.ts";
import { startRegistryServer, type RunningRegistryServer } from "../../src/registry-server/serve.ts";
import { GREET_TS, hangingServer, MEMORY_JSON, removeDirs, SERVER_JSON, tempDir, writeEntries } from "./fixtures.ts";
import { rejection as errorOf } from "../helpers/pml.ts";
import { waitFor } from "../helpers/wait.ts";

const repo = resolve(import.meta.dir, "../..");
let data: string;
let server: RunningRegistryServer;
const dirs: string[] = [];

function newCache(): ModuleCache {
  const d = tempDir("cache");
  dirs.push(d);
  return new ModuleCache(d);
}

beforeAll(() => {
  data = tempDir("regdata");
  writeEntries(data, {
    "greet.ts": GREET_TS,
    "memory.json": MEMORY_JSON,
    "weather.json": SERVER_JSON,
    "wrapped.json": { server: { ...SERVER_JSON, name: "io.github.example/wrapped" }, _meta: { "io.modelcontextprotocol.registry/official": { status: "active" } } },
    "remote.json": {
      name: "x/remote",
      description: "Remote",
      remotes: [{ type: "streamable-http", url: "https://mcp.example.com/mcp", headers: [{ name: "X-Team", value: "core" }] }],
    },
    "commented.ts": `// __meta__: {"type":"deno","tools":[{"name":"add"}]}\nexport async function add(a: {x: number, y: number}) { return a.x + a.y }\n`,
    "plainjs.js": `export const __meta__ = { tools: [{ name: "ping" }] };\nexport async function ping() { return "pong" }\n`,
    "importer.ts": `import { readFileSync } from "node:fs";\nexport const __meta__ = { tools: [{ name: "r" }] };\nexport async function r() { return readFileSync("/etc/passwd", "utf8") }\n`,
    "dynimport.ts": `export const __meta__ = { tools: [{ name: "r" }] };\nexport async function r() { return (await import("node:fs")).readFileSync("/etc/passwd") }\n`,
    "nometa.ts": `export async function x() { return 1 }\n`,
    "missingfn.ts": `export const __meta__ = { tools: [{ name: "absent" }] };\nexport async function present() { return 1 }\n`,
    "computedmeta.ts": `const tools = [{ name: "a" }];\nexport const __meta__ = { tools };\nexport async function a() { return 1 }\n`,
    "badtools.ts": `export const __meta__ = { type: "deno", tools: [{ name: 42 }] };\nexport async function a() { return 1 }\n`,
    "badfield.json": { type: "stdio", install: "@modelcontextprotocol/server-memory@2026.8.31", env_required: ["OK", "not valid!"] },
    "badtype.json": { type: "ftp", url: "x" },
    "badinstall.json": { type: "stdio", install: "memory" },
    "notjson.json": "{ this is not json",
    "pypionly.json": { name: "x/y", packages: [{ registryType: "pypi", identifier: "y", version: "1.0.0", transport: { type: "stdio" } }] },
  });
  server = startRegistryServer({ dataDir: data, port: 0, maxAgeS: 60 });
});

afterAll(async () => {
  await server.stop();
  removeDirs(data, ...dirs);
});

describe("registry client: documents", () => {
  test("module code becomes a transpiled, self-contained ModuleDescriptor", async () => {
    const d = await fetchEntry(server.url, "greet");
    expect(d.type).toBe("module");
    if (d.type !== "module") return;
    expect(d.tools.map((t) => t.name)).toEqual(["hello"]);
    expect(d.description).toBe("Says hello");
    expect(d.source).toBe(server.url);
    expect(d.code).toContain("export async function hello(args)");
    expect(d.code).not.toContain("interface Args");
    // The transpiled code really is a working ES module.
    const file = join(newCache().root, "greet.mjs");
    writeFileSync(file, d.code);
    const mod = await import(file);
    expect(await mod.hello({ name: "pml" })).toBe("hello pml");
  });

  test("the fetched module runs in the sandbox", async () => {
    const d = await fetchEntry(server.url, "greet");
    if (d.type !== "module") throw new Error("expected a module");
    const { runModuleFunction } = await import("../../src/sandbox/module-runner.ts");
    expect(await runModuleFunction({ code: d.code, fn: "hello", args: { name: "sandbox" }, reuse: false })).toBe("hello sandbox");
  });

  test("leading // __meta__ comment and plain JavaScript are accepted", async () => {
    const a = await fetchEntry(server.url, "commented");
    expect(a.type === "module" && a.tools[0]!.name).toBe("add");
    const b = await fetchEntry(server.url, "plainjs");
    expect(b.type === "module" && b.tools[0]!.name).toBe("ping");
  });

  test("a module that imports anything is refused with a clear message", async () => {
    const e = await errorOf(fetchEntry(server.url, "importer"));
    expect(e.message).toContain("modules must be self-contained: found import of 'node:fs' in importer");
    const d = await errorOf(fetchEntry(server.url, "dynimport"));
    expect(d.message).toContain("found import of 'node:fs' in dynimport");
  });

  test("module metadata problems name the registry, the fqdn and the field", async () => {
    const none = await errorOf(fetchEntry(server.url, "nometa"));
    expect(none.message).toContain("'nometa' from registry " + server.url);
    expect(none.message).toContain("__meta__");
    const missing = await errorOf(fetchEntry(server.url, "missingfn"));
    expect(missing.message).toContain("declares tool 'absent' but the module exports no function 'absent'");
    const computed = await errorOf(fetchEntry(server.url, "computedmeta"));
    expect(computed.message).toContain('shorthand property "tools"');
    const bad = await errorOf(fetchEntry(server.url, "badtools"));
    expect(bad.message).toContain("'tools.0.name'");
  });

  test("JSON descriptors: install shorthand -> package", async () => {
    const d = await fetchEntry(server.url, "memory");
    expect(d).toMatchObject({
      type: "stdio",
      package: { registryType: "npm", identifier: "@modelcontextprotocol/server-memory", version: "2026.8.31" },
      integrity: "sha512-AAAA",
    });
  });

  test("server.json (bare and as the official API wraps it) maps to a stdio descriptor", async () => {
    for (const name of ["weather", "wrapped"]) {
      const d = await fetchEntry(server.url, name);
      expect(d).toMatchObject({
        type: "stdio",
        package: { registryType: "npm", identifier: "@example/weather-mcp", version: "1.0.2", args: ["--units", "metric"] },
        env_required: ["WEATHER_API_KEY"],
        description: "Weather forecasts",
      });
    }
    const r = await fetchEntry(server.url, "remote");
    expect(r).toEqual({ type: "http", url: "https://mcp.example.com/mcp", headers: { "X-Team": "core" }, env_required: [], description: "Remote" });
    const p = await errorOf(fetchEntry(server.url, "pypionly"));
    expect(p.message).toContain("found: pypi/stdio");
  });

  test("malformed JSON documents name the registry, the fqdn and the field", async () => {
    const cases: [string, string][] = [
      ["badfield", "'env_required.1'"],
      ["badtype", "'type'"],
      ["badinstall", "'install'"],
      ["notjson", "not valid JSON"],
    ];
    for (const [name, field] of cases) {
      const e = await errorOf(fetchEntry(server.url, name));
      expect(e.message).toContain(`registry ${server.url}`);
      expect(e.message).toContain(`'${name}'`);
      expect(e.message).toContain(field);
    }
  });

  test("404 -> MCP 'x' not in registry <url>", async () => {
    const e = await errorOf(fetchEntry(server.url, "nothing"));
    expect(e).toBeInstanceOf(RegistryNotFoundError);
    expect(e.message).toBe(`MCP 'nothing' not in registry ${server.url}`);
  });

  test("a registry that never answers times out", async () => {
    const hang = hangingServer();
    try {
      const e = await errorOf(fetchEntry(hang.url, "greet", { timeoutMs: 200 }));
      expect(e).toBeInstanceOf(RegistryUnreachableError);
      expect(e.message).toContain("no answer within 200 ms");
      expect(e.message).toContain("not cached");
      const l = await errorOf(listEntries(hang.url, { timeoutMs: 200 }));
      expect(l.message).toContain("unreachable");
    } finally {
      hang.stop();
    }
  });

  test("the caller's AbortSignal stops a request", async () => {
    const hang = hangingServer();
    try {
      const ac = new AbortController();
      const p = errorOf(fetchEntry(hang.url, "greet", { signal: ac.signal, timeoutMs: 60_000 }));
      await waitFor(() => hang.requests() > 0, { what: "the request to reach the server" });
      ac.abort(new Error("cancelled by client"));
      expect((await p).message).toBe("cancelled by client");
    } finally {
      hang.stop();
    }
  });

  test("listEntries returns a page and a cursor", async () => {
    const page = await listEntries(server.url, { limit: 2 });
    expect(page.items.length).toBe(2);
    expect(page.next_cursor).toBeString();
    const next = await listEntries(server.url, { limit: 2, cursor: page.next_cursor });
    expect(next.items[0]!.fqdn > page.items[1]!.fqdn).toBe(true);
  });
});

describe("module cache", () => {
  const reg = () => server.url;

  test("first load fetches and caches; a fresh entry needs no request", async () => {
    const cache = newCache();
    const first = await loadEntry(reg(), "greet", { cache });
    expect(first.via).toBe("network");
    expect(first.record?.etag).toMatch(/^"[0-9a-f]+"$/);
    expect(first.record?.maxAgeS).toBe(60);
    const again = await loadEntry(reg(), "greet", { cache });
    expect(again.via).toBe("cache");
    expect(again.descriptor).toEqual(first.descriptor);
  });

  test("a stale entry is revalidated with If-None-Match (304 -> reused)", async () => {
    const cache = newCache();
    const t0 = Date.now();
    await loadEntry(reg(), "greet", { cache, now: () => t0 });
    const later = await loadEntry(reg(), "greet", { cache, now: () => t0 + 61_000 });
    expect(later.via).toBe("revalidated");
    expect(later.record?.fetchedAt).toBe(t0 + 61_000);
    // Changed upstream -> 200 and the new code replaces the old.
    writeFileSync(join(data, "greet.ts"), GREET_TS.replace("hello ${", "hi ${"));
    try {
      const changed = await loadEntry(reg(), "greet", { cache, now: () => t0 + 200_000 });
      expect(changed.via).toBe("network");
      expect(changed.descriptor.type === "module" && changed.descriptor.code).toContain("hi ${");
    } finally {
      writeFileSync(join(data, "greet.ts"), GREET_TS);
    }
  });

  test("a cache entry whose content does not match its hash is discarded and refetched", async () => {
    const cache = newCache();
    const first = await loadEntry(reg(), "greet", { cache });
    const blob = join(cache.root, "blobs", `${first.record!.blob}.json`);
    writeFileSync(blob, readFileSync(blob, "utf8").replace("hello", "pwned"));
    expect(cache.get(reg(), "greet")).toBeNull();
    const again = await loadEntry(reg(), "greet", { cache });
    expect(again.via).toBe("network");
    expect(again.descriptor).toEqual(first.descriptor);
    expect(cache.get(reg(), "greet")?.descriptor).toEqual(first.descriptor);
  });

  test("a garbage index entry is discarded too", async () => {
    const cache = newCache();
    await loadEntry(reg(), "memory", { cache });
    const index = join(cache.root, "index");
    for (const f of readdirSync(index)) writeFileSync(join(index, f), "{not json");
    expect((await loadEntry(reg(), "memory", { cache })).via).toBe("network");
  });

  test("offline: a stale cached entry is used; not cached -> actionable error", async () => {
    const cache = newCache();
    const local = tempDir("regdata3");
    dirs.push(local);
    writeEntries(local, { "greet.ts": GREET_TS });
    const own = startRegistryServer({ dataDir: local, port: 0, maxAgeS: 60 });
    const t0 = Date.now();
    const first = await loadEntry(own.url, "greet", { cache, now: () => t0 });
    await own.stop();
    const offline = await loadEntry(own.url, "greet", { cache, now: () => t0 + 3_600_000 });
    expect(offline.via).toBe("offline");
    expect(offline.descriptor).toEqual(first.descriptor);
    const e = await errorOf(loadEntry(own.url, "memory", { cache }));
    expect(e).toBeInstanceOf(RegistryUnreachableError);
    expect(e.message).toContain(`registry ${own.url} is unreachable (`);
    expect(e.message).toContain("MCP 'memory' is not cached");
    expect(e.message).toContain("private_mcps");
  });

  test("a second process loads from the cache with the registry stopped", async () => {
    const home = tempDir("home");
    dirs.push(home);
    const local = tempDir("regdata2");
    dirs.push(local);
    writeEntries(local, { "greet.ts": GREET_TS });
    // max-age 0: the second process must revalidate, find the registry gone, and fall back.
    const reg2 = startRegistryServer({ dataDir: local, port: 0, maxAgeS: 0 });
    const script = join(home, "load.ts");
    writeFileSync(
      script,
      `import { loadEntry } from ${JSON.stringify(join(repo, "src/registry/client.ts"))};
import { ModuleCache } from ${JSON.stringify(join(repo, "src/registry/module-cache.ts"))};
const r = await loadEntry(process.argv[2]!, "greet", { cache: new ModuleCache(), timeoutMs: 2000 });
const d = r.descriptor as any;
const file = process.env.PML_HOME + "/greet-" + process.pid + ".mjs";
await Bun.write(file, d.code);
const mod = await import(file);
process.stdout.write(JSON.stringify({ via: r.via, out: await mod.hello({ name: "cache" }) }));
`,
    );
    const run = async () => {
      const p = Bun.spawn([process.execPath, script, reg2.url], { env: { ...process.env, PML_HOME: home, PML_LOG: "warn" }, stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
      return { out: out ? JSON.parse(out) : null, err, code };
    };
    const first = await run();
    expect(first.out).toEqual({ via: "network", out: "hello cache" });
    await reg2.stop();
    const second = await run();
    expect(second.code).toBe(0);
    expect(second.out).toEqual({ via: "offline", out: "hello cache" });
    expect(second.err.match(/unreachable/g)?.length).toBe(1);
    expect(readdirSync(join(home, "cache", "registry", "blobs")).length).toBe(1);
  });
});
