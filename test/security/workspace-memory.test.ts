// Issue 22 finding 2, as the attacker tried it, against the compiled pml: capabilities were scoped
// by memory.project, which defaults to the folder's name and which any .pml.json may set. A cloned
// repository naming the victim's project (or a folder that merely has the same name) read the
// victim's code and first-run arguments with dns:whois, and `learn:save {update: true}` added a
// version that the victim's own cap__fs__read_json then ran. Now a capability belongs to the
// workspace (its real path): a foreign workspace neither sees it (dns:whois by name or FQDN,
// dns:query, dns:history, discover, list_capabilities, tools/list) nor adds versions to it. Sharing
// is explicit: `learn:save {scope: "user"}` is read from every workspace and written only on request.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { parseDiscover } from "../helpers/discover.ts";

const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
const VICTIM_DEFAULT = "victim-first-run-argument-7f3e";
const home = tempDir("pml-sec-mem-home-");
const roots = [tempDir("pml-sec-mem-a-"), tempDir("pml-sec-mem-b-"), tempDir("pml-sec-mem-c-")];
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of closers) await c().catch(() => {});
  for (const d of [home, ...roots]) d.cleanup();
});

type Pml = Awaited<ReturnType<typeof open>>;

/** A pml in `<root>/<folder>` with the shared PML_HOME; `config` is its .pml.json (none when undefined). */
async function open(root: string, folder: string, config?: Record<string, unknown>) {
  const ws = join(root, folder);
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, "config.json"), JSON.stringify({ owner: ws }));
  // Trusted, even the attacker's: the workspace boundary must hold for a file the user was
  // talked into trusting too (untrusted, its memory.project would not apply at all).
  if (config) await writeTrustedConfig(ws, config, home.path);
  const c = await sdkClient(entries.binary, { cwd: ws, env: testEnv({ PML_WORKSPACE: ws, PML_HOME: home.path }) });
  closers.push(() => c.transport.close());
  const call = (tool: string, args: Record<string, unknown> = {}) => c.client.callTool({ name: "call", arguments: { tool, arguments: args } }) as Promise<any>;
  return { ...c, ws, call };
}

let victim: Pml;
let fqdn: string;

beforeAll(async () => {
  victim = await open(roots[0]!.path, "app", { permissions: { allow: ["filesystem"] } });
  const r: any = await victim.client.callTool({
    name: "execute",
    arguments: {
      code: "return { read: JSON.parse(await mcp.filesystem.read_file({path: args.path})).owner, by: 'victim code' }",
      args: { path: "config.json", api_hint: VICTIM_DEFAULT },
      name: "fs:read_json",
      intent: "read a json config file",
    },
  });
  expect(r.structuredContent.capabilityName).toBe("fs:read_json");
  fqdn = r.structuredContent.capabilityFqdn;
}, 30_000);

/** Every way a workspace reads capabilities, each asked for the victim's. */
async function seesVictim(p: Pml): Promise<string[]> {
  const seen: string[] = [];
  const byName = await p.call("dns:whois", { fqdn: "fs:read_json" });
  if (!byName.isError) seen.push("dns:whois by name");
  const byFqdn = await p.call("dns:whois", { fqdn });
  if (!byFqdn.isError) seen.push("dns:whois by FQDN");
  if (!(await p.call("dns:lookup", { name: fqdn })).isError) seen.push("dns:lookup by FQDN");
  if (!(await p.call("dns:history", { name: "fs:read_json" })).isError) seen.push("dns:history");
  const query = await p.call("dns:query", { text: "json" });
  if (query.structuredContent?.total) seen.push("dns:query");
  const found = parseDiscover(text(await p.client.callTool({ name: "discover", arguments: { query: "read a json config file" } })));
  if (found.results.some((x: any) => x.id === "fs:read_json")) seen.push("discover");
  const listed = JSON.parse(text(await p.client.callTool({ name: "list_capabilities", arguments: {} })));
  if (listed.total) seen.push("list_capabilities");
  if ((await p.client.listTools()).tools.some((t) => t.name === "cap__fs__read_json")) seen.push("tools/list");
  // (Issue 23: its parameters are required, the first run's values no longer fill them in.)
  const run: any = await p.client.callTool({ name: "execute", arguments: { capability: "fs:read_json", args: { path: "config.json", api_hint: "x" } } });
  if (!run.isError) seen.push("execute {capability}");
  if ([byName, byFqdn].some((r) => text(r).includes(VICTIM_DEFAULT) || text(r).includes("victim code"))) seen.push("code or defaults in an answer");
  return seen;
}

describe("a capability belongs to its workspace", () => {
  test("the victim's own workspace sees it, code and defaults included", async () => {
    expect(await seesVictim(victim)).toEqual([
      "dns:whois by name",
      "dns:whois by FQDN",
      "dns:lookup by FQDN",
      "dns:history",
      "dns:query",
      "discover",
      "list_capabilities",
      "tools/list",
      "execute {capability}",
      "code or defaults in an answer",
    ]);
  });

  test("another folder also named app, without a .pml.json, sees nothing of it", async () => {
    const other = await open(roots[1]!.path, "app");
    expect(await seesVictim(other)).toEqual([]);
  });

  test("a cloned repository forging memory.project (and org) sees nothing, and its update is its own record", async () => {
    const clone = await open(roots[2]!.path, "innocent-looking", { memory: { org: "local", project: "app" }, permissions: { allow: ["filesystem"] } });
    expect(await seesVictim(clone)).toEqual([]);
    const saved = await clone.call("learn:save", { name: "fs:read_json", update: true, code: "return 'attacker code'", intent: "read a json config file" });
    expect(saved.isError).toBeFalsy();
    expect(saved.structuredContent.saved).toBe("new");
    const rename = await clone.call("dns:rename", { name: "fs:read_json", newName: "fs:read_json_old" });
    expect(rename.isError).toBeFalsy(); // its own record, not the victim's

    // The victim's capability is untouched: one version, its own code, run under its tool name.
    const history = await victim.call("dns:history", { name: "fs:read_json" });
    expect(history.structuredContent.versions.map((v: any) => v.version)).toEqual(["1.0.0"]);
    const run: any = await victim.client.callTool({ name: "cap__fs__read_json", arguments: { path: "config.json", api_hint: "x" } });
    expect(run.structuredContent.result).toEqual({ read: victim.ws, by: "victim code" });
  });

  test("the user scope is shared on request: every workspace reads it, a save without scope: user never writes it", async () => {
    const shared = await victim.call("learn:save", { name: "util:shared_greeting", code: "return 'hello from the user scope'", intent: "greet", scope: "user" });
    expect(shared.isError).toBeFalsy();
    const other = await open(roots[1]!.path, "app");
    const r: any = await other.client.callTool({ name: "execute", arguments: { capability: "util:shared_greeting" } });
    expect(r.structuredContent.result).toBe("hello from the user scope");
    const update = await other.call("learn:save", { name: "util:shared_greeting", update: true, code: "return 'replaced'" });
    expect(update.structuredContent.saved).toBe("new"); // the workspace's own, beside the user's
    const fromVictim: any = await victim.client.callTool({ name: "execute", arguments: { capability: "util:shared_greeting" } });
    expect(fromVictim.structuredContent.result).toBe("hello from the user scope");
    const bad = await other.call("learn:save", { name: "util:x_y", code: "return 1", scope: "everyone" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('"scope"');
  });
});
