// Issue 23 (finding 3): saving code pml already keeps (same normalised code = same capability) with
// a name, intent, description or parameters updates that record: a new version carrying the change
// summary, said in the answer; the same code and the same metadata stay "unchanged".
import { afterAll, beforeAll, expect, test } from "bun:test";
import { memoryFixture, type MemoryFixture } from "./helpers.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
});
afterAll(() => fx.cleanup());

const call = async (client: any, tool: string, args: Record<string, unknown>) => (await client.callTool({ name: "call", arguments: { tool, arguments: args } })) as any;
const CODE = "const [head, ...rows] = args.csv.split('\\n'); const keys = head.split(','); return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [keys[i], v])));";
const PARAMS = { properties: { csv: { type: "string", description: "CSV text, first line the header" } }, required: ["csv"] };

test("learn:save of an unnamed run's code with a name, intent and parameters names it and makes a patch version", async () => {
  const { client } = await fx.connect();
  const ran: any = await client.callTool({ name: "execute", arguments: { code: CODE, args: { csv: "a,b\n1,2" }, intent: "csv rows" } });
  expect(ran.structuredContent.result).toEqual([{ a: "1", b: "2" }]);
  const unnamed = ran.structuredContent.capabilityName;

  const args = { name: "transform:csv_to_json", code: CODE, intent: "turn CSV text into JSON objects", parameters: PARAMS };
  const saved = await call(client, "learn:save", args);
  expect(saved.structuredContent).toMatchObject({ name: "transform:csv_to_json", saved: "updated", version: "1.0.1" });
  expect(saved.structuredContent.changes).toEqual(["named transform:csv_to_json", "intent changed", "parameters changed"]);
  expect(saved.structuredContent.change_summary).toBe("intent, parameters changed");

  const who = await call(client, "dns:whois", { fqdn: "transform:csv_to_json" });
  expect(who.structuredContent).toMatchObject({ display_name: "transform:csv_to_json", intent: "turn CSV text into JSON objects", version_tag: "1.0.1" });
  expect(who.structuredContent.parameters_schema).toEqual({ type: "object", ...PARAMS });
  expect(who.structuredContent.versions.map((v: any) => [v.version, v.change_summary])).toEqual([
    ["1.0.1", "intent, parameters changed"],
    ["1.0.0", "first version"],
  ]);
  expect(unnamed).not.toBe("transform:csv_to_json");

  // The same code and the same metadata: nothing changes.
  const again = await call(client, "learn:save", args);
  expect(again.structuredContent).toMatchObject({ saved: "unchanged", version: "1.0.1" });
  expect(again.structuredContent.changes).toBeUndefined();
});

test("execute with a name and a new intent on kept code updates it too; another name is kept and said", async () => {
  const { client } = await fx.connect();
  const r: any = await client.callTool({
    name: "execute",
    arguments: { code: CODE, args: { csv: "x\n1" }, name: "transform:csv_to_json", intent: "CSV to a list of JSON objects", parameters: PARAMS },
  });
  expect(r.structuredContent).toMatchObject({ capabilityName: "transform:csv_to_json", version: { tag: "1.0.2", change_summary: "intent changed" }, updated: ["intent changed"] });
  const who = await call(client, "dns:whois", { fqdn: "transform:csv_to_json" });
  expect(who.structuredContent.intent).toBe("CSV to a list of JSON objects");

  const other = await call(client, "learn:save", { name: "transform:other_name", code: CODE, intent: "CSV to a list of JSON objects", parameters: PARAMS });
  expect(other.structuredContent).toMatchObject({ name: "transform:csv_to_json", saved: "unchanged" });
  expect(other.structuredContent.warnings.join("\n")).toContain("already saved as transform:csv_to_json (kept that name)");
});

test("a parameters change that breaks callers makes a major version, as for new code", async () => {
  const { client } = await fx.connect();
  const params = { properties: { ...PARAMS.properties, delimiter: { type: "string" } }, required: ["csv", "delimiter"] };
  const saved = await call(client, "learn:save", { name: "transform:csv_to_json", code: CODE, parameters: params });
  expect(saved.structuredContent).toMatchObject({ saved: "updated", version: "2.0.0", changes: ["parameters changed"] });
  expect(saved.structuredContent.change_summary).toBe('parameters changed (parameter "delimiter" is now required)');
});
