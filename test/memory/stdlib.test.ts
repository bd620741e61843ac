// pml's standard library through the compiled pml: dns (lookup, query, whois, tag, fork, MCP
// server records), meta (tools, servers, stats), learn (save, feedback) and list_capabilities;
// reachable with `call` and from code, and found by discover; kept out of tools/list.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { memoryFixture, text, type MemoryFixture } from "./helpers.ts";
import { parseDiscover } from "../helpers/discover.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
  writeFileSync(join(fx.ws, "a.json"), '{"x": 1}');
});
afterAll(() => fx.cleanup());

const call = async (client: any, tool: string, args: Record<string, unknown>) => (await client.callTool({ name: "call", arguments: { tool, arguments: args } })) as any;

test("learn:save keeps code without running it; bad code and names are refused", async () => {
  const { client } = await fx.connect();
  const saved = await call(client, "learn:save", {
    name: "fs:read_json",
    code: "return JSON.parse(await mcp.filesystem.read_file({ path: args.path }));",
    intent: "read and parse a JSON file",
    args: { path: "a.json" },
  });
  expect(saved.structuredContent).toMatchObject({ name: "fs:read_json", version: "1.0.0", saved: "new", usage_count: 0 });
  // Issue 23: `args` are examples, not defaults (the call passes its path).
  const run: any = await client.callTool({ name: "cap__fs__read_json", arguments: { path: "a.json" } });
  expect(run.structuredContent.result).toEqual({ x: 1 });
  const row: any = fx.db().query("SELECT tools_used, usage_count FROM capabilities WHERE action = 'read_json'").get();
  expect(JSON.parse(row.tools_used)).toEqual(["filesystem:read_file"]);
  expect(row.usage_count).toBe(1);

  const bad = await call(client, "learn:save", { name: "fs:broken_code", code: "return (" });
  expect(bad.isError).toBe(true);
  expect(text(bad)).toContain("does not parse");
  const badName = await call(client, "learn:save", { name: "Broken Name", code: "return 1" });
  expect(text(badName)).toContain("Invalid capability name format");
  const taken = await call(client, "learn:save", { name: "fs:read_json", code: "return 2" });
  expect(text(taken)).toContain("already exists");
  expect(text(taken)).toContain("Nothing was saved");
});

test("an unknown capability name gets a did-you-mean, as a tool's does", async () => {
  const { client } = await fx.connect();
  const byCall = await call(client, "cap:fs:read_jsn", {});
  expect(byCall.isError).toBe(true);
  expect(text(byCall)).toContain("Capability not found: fs:read_jsn. Did you mean fs:read_json?");
  const byName: any = await client.callTool({ name: "cap__fs__read_jsn", arguments: {} });
  expect(text(byName)).toContain("Did you mean fs:read_json?");
  const far = await call(client, "cap:zz:nothing_alike", {});
  expect(text(far)).toContain("Capability not found: zz:nothing_alike.");
  expect(text(far)).not.toContain("Did you mean");
});

test("learn:feedback counts a run pml did not see", async () => {
  const { client } = await fx.connect();
  const r = await call(client, "learn:feedback", { name: "fs:read_json", success: false, latency_ms: 12 });
  expect(r.structuredContent).toMatchObject({ usage_count: 2, success_rate: 0.5 });
  expect(text(await call(client, "learn:feedback", { name: "fs:read_json" }))).toContain('"success" is required');
  expect(text(await call(client, "learn:feedback", { name: "fs:read_json", success: "yes" }))).toContain("success");
  expect(text(await call(client, "learn:feedback", { name: "fs:nope_nope", success: true }))).toContain("Capability not found: fs:nope_nope");
});

test("dns: lookup, tag, query by tags / creator glob / text, whois, fork", async () => {
  const { client } = await fx.connect();
  const look = await call(client, "dns:lookup", { name: "fs:read_json" });
  expect(look.structuredContent).toMatchObject({ record_type: "capability", display_name: "fs:read_json", usage_count: 2, success_rate: 0.5, version: "1.0.0" });
  expect(look.structuredContent.fqdn).toMatch(/\.fs\.read_json\.[0-9a-f]{4}$/);

  await call(client, "learn:save", { name: "util:word_count", code: "return args.text.split(/\\s+/).length", intent: "count words", args: { text: "a b" } });
  expect((await call(client, "dns:tag", { name: "fs:read_json", add: ["json", "files"] })).structuredContent.tags.sort()).toEqual(["files", "json"]);
  await call(client, "dns:tag", { name: "util:word_count", add: ["text", "json"] });
  const byTags = await call(client, "dns:query", { tags: ["json", "files"] });
  expect(byTags.structuredContent.items.map((i: any) => i.name)).toEqual(["fs:read_json"]);
  const oneTag = await call(client, "dns:query", { tags: ["json"] });
  expect(oneTag.structuredContent.total).toBe(2);
  const me = fx.db().query("SELECT created_by FROM capabilities LIMIT 1").get() as any;
  const glob = await call(client, "dns:query", { created_by: `${me.created_by.slice(0, 1)}*` });
  expect(glob.structuredContent.total).toBe(2);
  expect((await call(client, "dns:query", { created_by: "nobody-*" })).structuredContent.total).toBe(0);
  expect((await call(client, "dns:query", { text: "words", namespace: "util" })).structuredContent.items.map((i: any) => i.name)).toEqual(["util:word_count"]);
  expect(text(await call(client, "dns:query", { visibility: "secret" }))).toContain('"visibility" must be one of');

  const who = await call(client, "dns:whois", { fqdn: look.structuredContent.fqdn });
  expect(who.structuredContent).toMatchObject({ display_name: "fs:read_json", tools_used: ["filesystem:read_file"], record_type: "capability", visibility: "private" });
  expect(who.structuredContent.code).toContain("JSON.parse");
  expect(who.structuredContent.versions).toHaveLength(1);

  const fork = await call(client, "dns:fork", { name: "fs:read_json", newName: "fs:read_json_copy" });
  expect(fork.structuredContent).toMatchObject({ name: "fs:read_json_copy", forked_from: look.structuredContent.fqdn, usage_count: 0 });
  const forkRow: any = fx.db().query("SELECT forked_from FROM capabilities WHERE action = 'read_json_copy'").get();
  expect(forkRow.forked_from).toBe((fx.db().query("SELECT id FROM capabilities WHERE action = 'read_json'").get() as any).id);
  expect(text(await call(client, "dns:fork", { name: "fs:read_json", newName: "util:word_count" }))).toContain("already exists");
  // From code, like any tool.
  const fromCode: any = await client.callTool({ name: "execute", arguments: { code: "return (await mcp.dns.lookup({ name: 'fs:read_json_copy' })).display_name" } });
  expect(fromCode.structuredContent.result).toBe("fs:read_json_copy");
});

test("dns:lookup of an MCP server gives its record, with version specifiers", async () => {
  const { client } = await fx.connect();
  const mem = await call(client, "dns:lookup", { name: "mcp:memory" });
  expect(mem.structuredContent).toMatchObject({
    record_type: "mcp-server",
    name: "mcp:memory",
    type: "stdio",
    version: "2026.8.31",
    package: "@modelcontextprotocol/server-memory@2026.8.31",
  });
  expect((await call(client, "dns:lookup", { name: "mcp:memory@v2026.8.31" })).structuredContent.version).toBe("2026.8.31");
  expect((await call(client, "dns:lookup", { name: "mcp:memory@v2026" })).structuredContent.version).toBe("2026.8.31");
  expect(text(await call(client, "dns:lookup", { name: "mcp:memory@v2025.1.1" }))).toContain("Version v2025.1.1 not found for mcp:memory");
  expect(text(await call(client, "dns:lookup", { name: "mcp:filesystem" }))).toContain('"mcp-server"');
});

test("an MCP server's record lists the versions pml knows, and specifiers pick among them", async () => {
  // An earlier pml installed an older pin of the memory server under this PML_HOME.
  const depsPath = join(fx.home, "deps.json");
  const before = existsSync(depsPath) ? readFileSync(depsPath, "utf8") : undefined;
  const state = before ? JSON.parse(before) : { version: 1, packages: {} };
  state.packages["@modelcontextprotocol/server-memory@2025.4.25"] = {
    name: "@modelcontextprotocol/server-memory",
    version: "2025.4.25",
    integrity: "sha512-AAAA",
    bin: "dist/index.js",
    installedAt: "2026-03-01T10:00:00.000Z",
    dir: join(fx.home, "deps", "old-memory"),
  };
  writeFileSync(depsPath, JSON.stringify(state));
  const { client } = await fx.connect();
  const mem = (await call(client, "dns:lookup", { name: "mcp:memory" })).structuredContent;
  expect(mem).toMatchObject({ version: "2026.8.31", source: "builtin" });
  expect(mem.note).toBeUndefined();
  expect(mem.versions).toEqual([
    { version: "2026.8.31", known_from: ["builtin"], runs: true },
    { version: "2025.4.25", known_from: ["installed"], runs: false, installed_at: "2026-03-01T10:00:00.000Z" },
  ]);
  const old = (await call(client, "dns:lookup", { name: "mcp:memory@v2025" })).structuredContent;
  expect(old).toMatchObject({ version: "2025.4.25", package: "@modelcontextprotocol/server-memory@2025.4.25" });
  expect(old.note).toContain("pml runs 2026.8.31");
  expect((await call(client, "dns:lookup", { name: "mcp:memory@v2025.4.25" })).structuredContent.version).toBe("2025.4.25");
  expect((await call(client, "dns:lookup", { name: "mcp:memory@latest" })).structuredContent.version).toBe("2026.8.31");
  const missing = await call(client, "dns:lookup", { name: "mcp:memory@v2024" });
  expect(missing.isError).toBe(true);
  expect(text(missing)).toContain("Version v2024 not found for mcp:memory. pml knows 2026.8.31 (builtin, runs); 2025.4.25 (installed).");
  expect(text(await call(client, "dns:lookup", { name: "mcp:memory@2026-01-01" }))).toContain('Unknown version specifier "@2026-01-01" for an MCP server');

  // A project entry pinning another version runs instead; the catalog's pin stays known.
  const { client: pinned } = await fx.connect({
    permissions: { allow: ["filesystem"] },
    private_mcps: {
      memory: { type: "stdio", package: { registryType: "npm", identifier: "@modelcontextprotocol/server-memory", version: "2025.9.25" }, integrity: "sha512-BBBB" },
    },
  });
  const own = (await call(pinned, "dns:lookup", { name: "mcp:memory" })).structuredContent;
  expect(own).toMatchObject({ version: "2025.9.25", source: ".pml.json" });
  expect(own.versions.map((v: any) => [v.version, v.known_from, v.runs])).toEqual([
    ["2026.8.31", ["builtin"], false],
    ["2025.9.25", [".pml.json"], true],
    ["2025.4.25", ["installed"], false],
  ]);
  expect((await call(pinned, "dns:lookup", { name: "mcp:memory@v2026" })).structuredContent.note).toContain("pml runs 2025.9.25 (pinned by .pml.json)");
  if (before === undefined) rmSync(depsPath);
  else writeFileSync(depsPath, before);
});

test("meta: tools, servers, stats from tool_usage", async () => {
  const { client } = await fx.connect();
  const tools = await call(client, "meta:tools", {});
  expect(tools.structuredContent.namespaces.filesystem).toContain("read_file");
  expect(tools.structuredContent.namespaces.dns).toEqual(expect.arrayContaining(["lookup", "query", "whois", "history", "rename", "tag", "fork"]));
  expect((await call(client, "meta:servers", {})).structuredContent).toHaveProperty("servers");
  await client.callTool({ name: "cap__fs__read_json", arguments: { path: "a.json" } }); // this process's own call: meta:stats flushes it first
  const stats = await call(client, "meta:stats", {});
  const capRow = stats.structuredContent.tools.find((t: any) => t.tool_id === "cap:fs:read_json");
  expect(capRow).toMatchObject({ server_id: "pml-capabilities", success_rate: 1 });
  expect(capRow.calls).toBeGreaterThanOrEqual(1);
  expect(stats.structuredContent.tools.find((t: any) => t.tool_id === "filesystem:read_file")).toBeDefined();
  expect((await call(client, "meta:stats", { since: "2999-01-01" })).structuredContent.tools).toEqual([]);
  expect(text(await call(client, "meta:stats", { since: "yesterday-ish" }))).toContain('"since" must be an ISO date');
});

test("list_capabilities: named_only, namespace, sort, paging; the stdlib stays out of tools/list but discover finds it", async () => {
  const { client } = await fx.connect();
  await client.callTool({ name: "execute", arguments: { code: "return 40 + 2" } });
  const list = async (args: Record<string, unknown>) => JSON.parse(text(await client.callTool({ name: "list_capabilities", arguments: args })));
  const all = await list({});
  expect(all.total).toBe(5); // 3 named + the two unnamed runs (one from the dns test's code)
  expect((await list({ named_only: true })).items.map((i: any) => i.name)).toEqual(["fs:read_json", "fs:read_json_copy", "util:word_count"]);
  expect((await list({ namespace: "util" })).items.map((i: any) => i.name)).toEqual(["util:word_count"]);
  expect((await list({ sort: "usage", limit: 1 })).items[0].name).toBe("fs:read_json");
  expect((await list({ sort: "created", limit: 1, offset: 0 })).items[0].name).toMatch(/^unnamed_/);
  expect((await list({ limit: 2, offset: 2 })).items).toHaveLength(2);
  expect(text(await client.callTool({ name: "list_capabilities", arguments: { sort: "size" } }))).toContain('"sort" must be');

  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toContain("list_capabilities");
  expect(names.some((n) => /^(dns|meta|learn)__/.test(n))).toBe(false);
  const found = parseDiscover(text(await client.callTool({ name: "discover", arguments: { query: "show the version history of a capability" } })));
  expect(found.results[0].id).toBe("dns:history");
});
