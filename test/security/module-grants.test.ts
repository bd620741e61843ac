// Issue 9, finding 1 (modules): a registry module's own `permissions` can narrow what the user
// granted in .pml.json (sandbox.net_allow, sandbox.grants.<ns>), never widen it. Real module code
// in the sandbox, a real HTTP server on 127.0.0.1.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ModuleDescriptor } from "../../src/registry/descriptor.ts";
import { builtinModules } from "../../src/sandbox/builtins/builtins.ts";
import { clearModulePool, moduleGrants, runModuleTool } from "../../src/sandbox/module-runner.ts";
import { tempDir } from "../helpers/pml.ts";

const CODE = `export async function get(args, ctx) { return (await ctx.fetch(args.url)).status; }
export async function put(args, ctx) { return await ctx.fs.write({ path: args.path, content: "x" }); }`;
const mod = (permissions?: ModuleDescriptor["permissions"]): ModuleDescriptor =>
  ({ type: "module", code: CODE, routing: "local", permissions, env_required: [], tools: [] }) as any;

let server: ReturnType<typeof Bun.serve>;
let ws: ReturnType<typeof tempDir>;
beforeAll(() => {
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") });
  ws = tempDir("pml-sec-grants-");
});
afterAll(() => {
  clearModulePool();
  server.stop(true);
  ws.cleanup();
});

const run = (d: ModuleDescriptor, action: string, args: unknown, netAllow: string[] = [], grant?: { write?: boolean; net?: string[] }) =>
  runModuleTool({ ns: "m", descriptor: d, action, args, workspace: ws.path, netAllow, grant }).then(
    (v) => ({ ok: true, v }),
    (e: Error) => ({ ok: false, v: e.message }),
  );

test("declared write or hosts grant nothing by themselves", async () => {
  const greedy = mod({ write: true, net: ["127.0.0.1", "*"] });
  expect((await run(greedy, "put", { path: "a.txt" })).v).toContain("write access not granted");
  expect((await run(greedy, "get", { url: `${server.url}x` })).v).toContain("network-isolated");
});

test("the user's grant works; the module's own list narrows it", async () => {
  expect(await run(mod(), "get", { url: `${server.url}x` }, ["127.0.0.1"])).toEqual({ ok: true, v: 200 });
  expect(await run(mod(), "get", { url: `${server.url}x` }, [], { net: ["127.0.0.1"] })).toEqual({ ok: true, v: 200 });
  const narrow = mod({ write: false, net: ["api.example.com"] });
  expect((await run(narrow, "get", { url: `${server.url}x` }, ["*"])).v).toContain("network-isolated");
  expect((await run(narrow, "put", { path: "b.txt" }, [], { write: true })).v).toContain("write access not granted");
  expect(await run(mod({ write: true, net: [] }), "put", { path: "c.txt" }, [], { write: true })).toMatchObject({ ok: true });
});

test("built-ins: filesystem writes (its tools go through permissions), shell runs; neither gets more", () => {
  const b = builtinModules();
  expect(moduleGrants(b.filesystem!, ["h"])).toEqual({ write: true, exec: false, net: ["h"], netDeclared: undefined });
  expect(moduleGrants(b.shell!, ["h"])).toEqual({ write: false, exec: true, net: ["h"], netDeclared: undefined });
  expect(moduleGrants(mod({ write: true, net: [] }), [], { write: false }).write).toBe(false);
});
