// Issue 11 point 6: the seed's module form (tools as colon strings, schemas from an exported
// `schemas` object) loads and runs; a cloud tool in local mode says "Cloud mode requires
// PML_API_KEY" before any other check.
import { afterAll, expect, test } from "bun:test";
import { compileModule } from "../../src/registry/module-code.ts";
import { runModuleTool } from "../../src/sandbox/module-runner.ts";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const dirs: { cleanup(): void }[] = [];
afterAll(() => dirs.forEach((d) => d.cleanup()));
const origin = { registryUrl: "http://127.0.0.1:1", fqdn: "greet" };

test("tools as colon strings, each an exported function; schemas from `schemas` or any object", async () => {
  const d = compileModule(
    `export const __meta__ = { tools: ["greet:hello", "greet:bye"] };
export const schemas = { hello: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } };
export async function hello(args: { name: string }) { return "hello " + args.name; }
export async function bye() { return "bye"; }`,
    origin,
  );
  expect(d.tools.map((t) => t.name)).toEqual(["hello", "bye"]);
  expect(d.tools[0]!.inputSchema).toEqual({ type: "object", properties: { name: { type: "string" } }, required: ["name"] });
  expect(d.tools[1]!.inputSchema).toEqual({ type: "object" });
  const ws = tempDir();
  dirs.push(ws);
  expect(await runModuleTool({ ns: "greet", descriptor: d, action: "hello", args: { name: "seed" }, workspace: ws.path })).toBe("hello seed");
});

test("a colon string naming no exported function is refused, naming the exports", () => {
  expect(() => compileModule(`export const __meta__ = { tools: ["greet:nope"] };\nexport async function hello() { return 1; }`, origin)).toThrow(
    "__meta__ declares tool 'nope' but the module exports no function 'nope' (exports: __meta__, hello)",
  );
});

test("in local mode a cloud tool says 'Cloud mode requires PML_API_KEY' first, before any approval", async () => {
  const ws = tempDir();
  const home = tempDir();
  dirs.push(ws, home);
  await writeTrustedConfig(ws.path, { permissions: { ask: ["search"] }, private_mcps: { search: { type: "cloud", env_required: ["SEARCH_KEY"] } } }, home.path);
  const { client } = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, PML_API_KEY: undefined }) });
  try {
    const r: any = await client.callTool({ name: "call", arguments: { tool: "search:web", arguments: { q: "x" } } });
    expect(r.isError).toBe(true);
    expect(r.approval_required).toBeUndefined();
    expect(r.content[0].text).toStartWith("Cloud mode requires PML_API_KEY: search:web runs in the pml cloud.");
  } finally {
    await client.close();
  }
}, 60_000);
