// Procedural memory through the compiled pml and its real memory.db: what `execute` keeps, names,
// collisions, calling a capability by name and as a tool, rename + aliases, list_changed, capture off.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { memoryFixture, text, until, type MemoryFixture } from "./helpers.ts";

let fx: MemoryFixture;
const READ_JSON = "return JSON.parse(await mcp.filesystem.read_file({ path: args.path }));";

beforeAll(() => {
  fx = memoryFixture();
  writeFileSync(join(fx.ws, "a.json"), JSON.stringify({ which: "a" }));
  writeFileSync(join(fx.ws, "b.json"), JSON.stringify({ which: "b" }));
});
afterAll(() => fx.cleanup());

const count = (sql: string, ...params: any[]) =>
  (
    fx
      .db()
      .query(sql)
      .get(...params) as any
  ).n as number;

describe("capture, names, tools", () => {
  test("a named run is saved, listed as cap__fs__read_json (list_changed) and callable by tool and by name", async () => {
    const { client, listChanged } = await fx.connect();
    const before = (await client.listTools()).tools.map((t) => t.name);
    expect(before.some((n) => n.startsWith("cap__"))).toBe(false);

    const r: any = await client.callTool({
      name: "execute",
      arguments: { code: READ_JSON, args: { path: "a.json" }, intent: "read a json file and parse it", name: "fs:read_json" },
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.result).toEqual({ which: "a" });
    expect(r.structuredContent.capabilityName).toBe("fs:read_json");
    expect(r.structuredContent.capabilityFqdn).toMatch(/^local\.pml-mem-ws-[a-z0-9]+\.fs\.read_json\.[0-9a-f]{4}$/);
    await until(() => listChanged() >= 1);

    const tools = (await client.listTools()).tools;
    const cap = tools.find((t) => t.name === "cap__fs__read_json")!;
    expect(cap.description).toContain("read a json file and parse it");
    expect(cap.description).toContain("filesystem:read_file");
    // Issue 23: the first run's argument is a required parameter with its value as an example (it
    // was a default, silently filled in).
    expect(cap.inputSchema).toEqual({ type: "object", properties: { path: { type: "string", examples: ["a.json"] } }, required: ["path"] });

    const byTool: any = await client.callTool({ name: "cap__fs__read_json", arguments: { path: "b.json" } });
    expect(byTool.structuredContent).toEqual({ result: { which: "b" } });
    const noDefaults: any = await client.callTool({ name: "cap__fs__read_json", arguments: {} });
    expect(noDefaults.isError).toBe(true);
    expect(text(noDefaults)).toContain('"path" is required (e.g. "a.json"');
    const byName: any = await client.callTool({ name: "execute", arguments: { capability: "fs:read_json", args: { path: "b.json" } } });
    expect(byName.structuredContent.result).toEqual({ which: "b" });
    const byCall: any = await client.callTool({ name: "call", arguments: { tool: "cap:fs:read_json", arguments: { path: "b.json" } } });
    expect(byCall.structuredContent.result).toEqual({ which: "b" });

    const row: any = fx.db().query("SELECT * FROM capabilities WHERE namespace = 'fs' AND action = 'read_json'").get();
    expect(row).toMatchObject({ usage_count: 4, success_count: 4, routing: "local", named: 1, record_type: "capability", visibility: "private" });
    expect(JSON.parse(row.tools_used)).toEqual(["filesystem:read_file"]);
    expect(row.total_latency_ms).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) AS n FROM capability_versions WHERE capability_id = ?", row.id)).toBe(1);

    const missing: any = await client.callTool({ name: "execute", arguments: { capability: "fs:unknown", args: {} } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("Capability not found: fs:unknown");
  });

  test("the same code (other spacing, comments) is one capability; its usage goes up", async () => {
    const { client } = await fx.connect();
    const code1 = "const x = args.n * 2; // double it\nreturn x;";
    const code2 = "/* twice */ const x=args.n*2;\n\n   return x ;";
    const a: any = await client.callTool({ name: "execute", arguments: { code: code1, args: { n: 2 } } });
    const b: any = await client.callTool({ name: "execute", arguments: { code: code2, args: { n: 5 } } });
    expect(b.structuredContent.result).toBe(10);
    expect(a.structuredContent.capabilityName).toMatch(/^unnamed_[0-9a-f]{8}$/);
    expect(b.structuredContent.capabilityName).toBe(a.structuredContent.capabilityName);
    const row: any = fx.db().query("SELECT usage_count, named, routing FROM capabilities WHERE action = ?").get(a.structuredContent.capabilityName);
    expect(row).toEqual({ usage_count: 2, named: 0, routing: "cloud" });
    // Unnamed capabilities are not tools, but can be called by their name.
    expect((await client.listTools()).tools.some((t) => t.name.includes("unnamed"))).toBe(false);
    const again: any = await client.callTool({ name: "execute", arguments: { capability: a.structuredContent.capabilityName, args: { n: 21 } } });
    expect(again.structuredContent.result).toBe(42);
    // Naming it later names the same record.
    const named: any = await client.callTool({ name: "execute", arguments: { code: code1, args: { n: 1 }, name: "util:double_number" } });
    expect(named.structuredContent.capabilityName).toBe("util:double_number");
    expect(count("SELECT COUNT(*) AS n FROM capabilities WHERE code_hash = (SELECT code_hash FROM capabilities WHERE action = 'double_number')")).toBe(1);
  });

  test("only runs that finished with every tool call succeeding are kept", async () => {
    const { client } = await fx.connect();
    const n = () => count("SELECT COUNT(*) AS n FROM capabilities");
    const before = n();
    const thrown: any = await client.callTool({ name: "execute", arguments: { code: "throw new Error('no')", name: "util:throw_error" } });
    expect(thrown.isError).toBe(true);
    const swallowed: any = await client.callTool({
      name: "execute",
      arguments: { code: "try { await mcp.filesystem.read_file({ path: 'missing.json' }) } catch { return 'caught' }", name: "fs:read_missing" },
    });
    expect(swallowed.structuredContent.result).toBe("caught");
    expect(swallowed.structuredContent.capabilityName).toBeUndefined();
    expect(swallowed.structuredContent.warnings.join(" ")).toContain("a tool call in it failed");
    expect(n()).toBe(before);
  });

  test("naming errors, non-standard namespaces, collisions before the code runs", async () => {
    const { client } = await fx.connect();
    const bad: any = await client.callTool({ name: "execute", arguments: { code: "return 1", name: "invalid name!" } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain("Invalid capability name format. Expected: namespace:action_target");
    for (const name of ["Fs:Read", "fs:read", "fs:", "dns:lookup_name", "fs:read-json"]) {
      const r: any = await client.callTool({ name: "execute", arguments: { code: "return 1", name } });
      expect(r.isError).toBe(true);
    }
    const odd: any = await client.callTool({ name: "execute", arguments: { code: "return 'odd'", name: "myteam:make_thing" } });
    expect(odd.structuredContent.capabilityName).toBe("myteam:make_thing");
    expect(odd.structuredContent.warnings.join(" ")).toContain('"myteam" is not a standard namespace');

    // A taken name with other code: refused before the code runs (it would create a file).
    const other = "await mcp.filesystem.write_file({ path: 'side-effect.txt', content: 'x' }); return 1;";
    const taken: any = await client.callTool({ name: "execute", arguments: { code: other, name: "fs:read_json" } });
    expect(taken.isError).toBe(true);
    expect(text(taken)).toContain("Capability name 'fs:read_json' already exists");
    expect(existsSync(join(fx.ws, "side-effect.txt"))).toBe(false);
    // The same name with the same code is the same capability.
    const same: any = await client.callTool({ name: "execute", arguments: { code: READ_JSON, args: { path: "b.json" }, name: "fs:read_json" } });
    expect(same.isError).toBeFalsy();
    expect(same.structuredContent.capabilityName).toBe("fs:read_json");

    const strict = await fx.connect({ permissions: { allow: ["filesystem"] }, memory: { strict_namespaces: true } });
    const refused: any = await strict.client.callTool({ name: "execute", arguments: { code: "return 'strict'", name: "myteam:other_thing" } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("strict_namespaces");
  });

  test("rename: old names become aliases (no chains), tools/list shows current names, list_changed goes out", async () => {
    const { client, listChanged } = await fx.connect();
    await client.listTools();
    const r1: any = await client.callTool({ name: "call", arguments: { tool: "dns:rename", arguments: { name: "fs:read_json", newName: "fs:load_json" } } });
    expect(r1.structuredContent).toMatchObject({ renamed: "fs:read_json", to: "fs:load_json", tool: "cap__fs__load_json" });
    await until(() => listChanged() >= 1);
    const fromCode: any = await client.callTool({
      name: "execute",
      arguments: { code: "return await mcp.dns.rename({ name: 'fs:load_json', newName: 'transform:read_json_file' })" },
    });
    expect(fromCode.structuredContent.result).toMatchObject({ to: "transform:read_json_file" });

    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("cap__transform__read_json_file");
    expect(names).not.toContain("cap__fs__read_json");
    expect(names).not.toContain("cap__fs__load_json");

    for (const old of ["fs:read_json", "fs:load_json"]) {
      const r: any = await client.callTool({ name: "execute", arguments: { capability: old, args: { path: "b.json" } } });
      expect(r.structuredContent.result).toEqual({ which: "b" });
      expect(r.structuredContent.capabilityName).toBe("transform:read_json_file");
      expect(r.structuredContent.deprecation).toContain("renamed to transform:read_json_file");
    }
    // The old wire name still answers too.
    const wire: any = await client.callTool({ name: "cap__fs__read_json", arguments: { path: "a.json" } });
    expect(wire.structuredContent.deprecation).toContain("transform:read_json_file");

    const aliases = fx.db().query("SELECT namespace || ':' || action AS name, capability_id FROM capability_aliases ORDER BY name").all() as any[];
    const id = (fx.db().query("SELECT id FROM capabilities WHERE action = 'read_json_file'").get() as any).id;
    expect(aliases).toEqual([
      { name: "fs:load_json", capability_id: id },
      { name: "fs:read_json", capability_id: id },
    ]);
    // A name held as an alias is taken; renaming onto another capability's name is refused.
    const onAlias: any = await client.callTool({ name: "call", arguments: { tool: "dns:rename", arguments: { name: "util:double_number", newName: "fs:read_json" } } });
    expect(text(onAlias)).toContain("Capability name 'fs:read_json' already exists");
    const unknown: any = await client.callTool({ name: "call", arguments: { tool: "dns:rename", arguments: { name: "fs:nothing_here", newName: "fs:something_else" } } });
    expect(text(unknown)).toContain("Capability not found: fs:nothing_here");
    // Renaming back to an old name takes the alias away.
    await client.callTool({ name: "call", arguments: { tool: "dns:rename", arguments: { name: "transform:read_json_file", newName: "fs:read_json" } } });
    const back: any = await client.callTool({ name: "cap__fs__read_json", arguments: { path: "a.json" } });
    expect(back.structuredContent.deprecation).toBeUndefined();
  });

  test("every tool call, real or capability, is in tool_usage", async () => {
    const { client } = await fx.connect();
    await client.callTool({ name: "filesystem__read_file", arguments: { path: "a.json" } });
    await client.callTool({ name: "cap__fs__read_json", arguments: { path: "a.json" } });
    await client.callTool({ name: "filesystem__read_file", arguments: { path: "no-such-file.json" } });
    await client.callTool({ name: "call", arguments: { tool: "dns:rename", arguments: { name: "fs:nothing_here", newName: "fs:something_else" } } });
    await client.close();
    // Usage rows are written in batches (and by other tests' processes), so each is waited for.
    await until(() => count("SELECT COALESCE(SUM(calls), 0) AS n FROM tool_usage WHERE server_id = 'pml-capabilities' AND tool_id = 'cap:fs:read_json'") > 0);
    await until(() => count("SELECT COALESCE(SUM(successes), 0) AS n FROM tool_usage WHERE tool_id = 'filesystem:read_file' AND server_id = 'filesystem'") > 1);
    await until(() => count("SELECT COALESCE(SUM(calls - successes), 0) AS n FROM tool_usage WHERE tool_id = 'filesystem:read_file'") > 0);
    await until(() => count("SELECT COALESCE(SUM(calls), 0) AS n FROM tool_usage WHERE tool_id = 'dns:rename'") > 0);
  });

  test("arguments a capability's parameters schema rejects never reach its code, on every path", async () => {
    const { client } = await fx.connect();
    const saved: any = await client.callTool({
      name: "call",
      arguments: {
        tool: "learn:save",
        arguments: {
          name: "util:repeat_text",
          intent: "repeat a text n times",
          // The code would write a marker if it ever ran with bad arguments.
          code: "await mcp.filesystem.write_file({path: 'ran.txt', content: String(args.times)}); return args.text.repeat(args.times);",
          parameters: { type: "object", properties: { text: { type: "string" }, times: { type: "integer", minimum: 1 } }, required: ["text", "times"] },
        },
      },
    });
    expect(saved.isError).toBeFalsy();
    const bad = [
      await client.callTool({ name: "cap__util__repeat_text", arguments: { text: "a", times: "3" } }),
      await client.callTool({ name: "execute", arguments: { capability: "util:repeat_text", args: { text: "a" } } }),
      await client.callTool({ name: "call", arguments: { tool: "cap:util:repeat_text", arguments: { text: "a", times: 0 } } }),
      await client.callTool({ name: "execute", arguments: { code: "return await mcp.cap.util__repeat_text({times: 2})" } }),
    ];
    expect(text(bad[0])).toContain('Invalid arguments for cap:util:repeat_text: "times" must be integer');
    expect(text(bad[1])).toContain('"times" is required');
    expect(text(bad[2])).toContain('"times" must be >= 1');
    expect(text(bad[3])).toContain('"text" is required');
    for (const r of bad) expect((r as any).isError).toBe(true);
    expect(existsSync(join(fx.ws, "ran.txt"))).toBe(false);
    const ok: any = await client.callTool({ name: "cap__util__repeat_text", arguments: { text: "ab", times: 2 } });
    expect(ok.structuredContent.result).toBe("abab");
  });

  test("routing: inherited from the tools used; explicit routing wins", async () => {
    const { client } = await fx.connect();
    const local: any = await client.callTool({ name: "execute", arguments: { code: "return (await mcp.filesystem.list_directory({})).length > 0", name: "fs:has_entries" } });
    const explicit: any = await client.callTool({ name: "execute", arguments: { code: "return 'pure'", name: "util:pure_value", routing: "local" } });
    expect(local.isError || explicit.isError).toBeFalsy();
    const routing = (a: string) => (fx.db().query("SELECT routing FROM capabilities WHERE action = ?").get(a) as any).routing;
    expect(routing("has_entries")).toBe("local");
    expect(routing("pure_value")).toBe("local");
    expect(routing("double_number")).toBe("cloud"); // no tools: nothing ties it to this machine
  });

  test("a deny pattern on cap applies to capability calls (audited)", async () => {
    const { client } = await fx.connect({ permissions: { allow: ["filesystem"], deny: ["cap"] } });
    const r: any = await client.callTool({ name: "cap__fs__read_json", arguments: {} });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("denied");
    const viaExecute: any = await client.callTool({ name: "execute", arguments: { capability: "fs:read_json" } });
    expect(text(viaExecute)).toContain("denied");
  });

  test('"memory": {"capture": false} keeps nothing', async () => {
    const { client } = await fx.connect({ permissions: { allow: ["filesystem"] }, memory: { capture: false } });
    const n = count("SELECT COUNT(*) AS n FROM capabilities");
    const r: any = await client.callTool({ name: "execute", arguments: { code: "return 'not kept'", name: "util:not_kept" } });
    expect(r.structuredContent.result).toBe("not kept");
    expect(r.structuredContent.capabilityName).toBeUndefined();
    expect(r.structuredContent.warnings.join(" ")).toContain("memory.capture is false");
    expect(count("SELECT COUNT(*) AS n FROM capabilities")).toBe(n);
  });
});
