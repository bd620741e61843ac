// Versions through the compiled pml: update: true appends an immutable version with a semver tag
// chosen from what changed; specifiers pick one wherever a capability is named; the listed tool
// always runs the latest; dns:history shows each change with a unified diff.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { pickVersion } from "../../src/memory/versions.ts";
import { memoryFixture, text, type MemoryFixture } from "./helpers.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
});
afterAll(() => fx.cleanup());

const V1 = "return 'v1:' + args.who;";
const V1_1 = "return 'v1.1:' + args.who;";
const V2 = "return 'v2:' + args.who + args.times;";

test("update appends versions: minor for code, major for an incompatible schema, patch for metadata", async () => {
  const { client } = await fx.connect();
  const run = (args: Record<string, unknown>) => client.callTool({ name: "execute", arguments: args }) as Promise<any>;
  expect((await run({ code: V1, args: { who: "a" }, name: "util:greet_person" })).structuredContent.capabilityName).toBe("util:greet_person");

  const refused = await run({ code: V1_1, args: { who: "a" }, name: "util:greet_person" });
  expect(text(refused)).toContain("Capability name 'util:greet_person' already exists");
  expect(text(refused)).toContain('"update": true');

  const minor = await run({ code: V1_1, args: { who: "a" }, name: "util:greet_person", update: true, change_summary: "new prefix" });
  expect(minor.structuredContent.version).toEqual({ tag: "1.1.0", change_summary: "new prefix" });

  const major = await run({
    code: V2,
    args: { who: "a", times: 2 },
    name: "util:greet_person",
    update: true,
    parameters: { type: "object", properties: { who: { type: "string" }, times: { type: "integer" } }, required: ["who", "times"] },
  });
  expect(major.structuredContent.version.tag).toBe("2.0.0");
  expect(major.structuredContent.version.change_summary).toContain("required");

  const patch = await run({ code: V2, args: { who: "a", times: 2 }, name: "util:greet_person", update: true, description: "Greets someone, several times" });
  expect(patch.structuredContent.version.tag).toBe("2.0.1");

  const same = await run({ code: V2, args: { who: "a", times: 2 }, name: "util:greet_person", update: true, description: "Greets someone, several times" });
  expect(same.structuredContent.version).toBeUndefined(); // nothing changed: no version

  const lower = await run({ code: "return 0", name: "util:greet_person", update: true, version_tag: "1.5.0" });
  expect(text(lower)).toContain("not greater than");
  const explicit = await run({ code: "return 'v3:' + args.who", args: { who: "x" }, name: "util:greet_person", update: true, version_tag: "3.1.4" });
  expect(explicit.structuredContent.version.tag).toBe("3.1.4");
});

test("specifiers: @v1, @v1.0.0, @date, @latest; the listed tool runs the latest", async () => {
  const { client } = await fx.connect();
  const byName = async (capability: string, args: Record<string, unknown> = { who: "z", times: 1 }) =>
    (await client.callTool({ name: "execute", arguments: { capability, args } })) as any;
  // Issue 23: v1 takes no "times" (an unknown argument is refused).
  expect(text(await byName("util:greet_person@v1"))).toContain('"times" is not a parameter');
  expect((await byName("util:greet_person@v1", { who: "z" })).structuredContent).toMatchObject({ result: "v1.1:z", version: "1.1.0" });
  expect((await byName("util:greet_person@v1.0.0", { who: "z" })).structuredContent.result).toBe("v1:z");
  expect((await byName("util:greet_person@v2")).structuredContent).toMatchObject({ result: "v2:z1", version: "2.0.1" });
  expect((await byName("util:greet_person@latest")).structuredContent.result).toBe("v3:z");
  const today = new Date().toISOString().slice(0, 10);
  expect((await byName(`util:greet_person@${today}`)).structuredContent.result).toBe("v3:z");
  expect(text(await byName("util:greet_person@2001-01-01"))).toContain("Version 2001-01-01 not found for util:greet_person");
  expect(text(await byName("util:greet_person@v5"))).toContain("Version v5 not found for util:greet_person");
  expect(text(await byName("util:greet_person@banana"))).toContain("Unknown version specifier");
  const viaCall: any = await client.callTool({ name: "call", arguments: { tool: "cap:util:greet_person@v1.0.0", arguments: { who: "c" } } });
  expect(viaCall.structuredContent.result).toBe("v1:c");
  const fromCode: any = await client.callTool({ name: "execute", arguments: { code: "return await mcp.cap['util:greet_person@v2']({ who: 'q', times: 3 })" } });
  expect(fromCode.structuredContent.result).toBe("v2:q3"); // issue 23: code gets the value, not the envelope
  const tool: any = await client.callTool({ name: "cap__util__greet_person", arguments: { who: "t" } });
  expect(tool.structuredContent.result).toBe("v3:t");
});

test("versions are immutable in the database itself", () => {
  const db = new Database(join(fx.home, "memory.db"));
  try {
    expect(() => db.run("UPDATE capability_versions SET code = 'evil'")).toThrow("immutable");
    expect(() => db.run("DELETE FROM capability_versions")).toThrow("immutable");
  } finally {
    db.close();
  }
});

test("dns:history lists versions newest first with diffs against the previous one", async () => {
  const { client } = await fx.connect();
  const r: any = await client.callTool({ name: "call", arguments: { tool: "dns:history", arguments: { name: "util:greet_person" } } });
  const versions = r.structuredContent.versions;
  expect(versions.map((v: any) => v.version)).toEqual(["3.1.4", "2.0.1", "2.0.0", "1.1.0", "1.0.0"]);
  expect(versions[3].change_summary).toBe("new prefix");
  expect(versions[3].diff).toContain("-return 'v1:' + args.who;");
  expect(versions[3].diff).toContain("+return 'v1.1:' + args.who;");
  expect(versions[3].diff).toContain("util:greet_person@1.0.0");
  expect(versions[4].diff).toBeNull();
});

test("pickVersion: the newest of a major, exact tags, the version current at the end of a day", () => {
  const vs = [
    { version_tag: "1.0.0", created_at: "2026-11-01T10:00:00.000Z" },
    { version_tag: "1.1.0", created_at: "2026-11-03T23:59:59.000Z" },
    { version_tag: "2.0.0", created_at: "2026-11-04T00:00:00.000Z" },
  ];
  expect(pickVersion(vs, "v1")?.version_tag).toBe("1.1.0");
  expect(pickVersion(vs, "v1.0.0")?.version_tag).toBe("1.0.0");
  expect(pickVersion(vs, "2026-11-03")?.version_tag).toBe("1.1.0");
  expect(pickVersion(vs, "2026-11-04")?.version_tag).toBe("2.0.0");
  expect(pickVersion(vs, "2026-10-31")).toBeUndefined();
  expect(pickVersion(vs, undefined)?.version_tag).toBe("2.0.0");
  expect(pickVersion(vs, "v3")).toBeUndefined();
});
