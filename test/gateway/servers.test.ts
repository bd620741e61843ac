// Issue 3 end to end: the compiled pml, the SDK's real Client, real stdio MCP servers, and the
// human-in-the-loop flows (elicitation and the tool-result fallback).
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { fixturePackages, startRegistry, type FakeRegistry } from "../loader/npm-registry.ts";
import { fixtureServer, isAlive, waitFor } from "../pool/helpers.ts";
import { BUN, entries, RawPeer, ROOT, sdkClient, SERVE_AUTH, spawnServe, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace } from "../helpers/trust.ts";
import { CONFIG_RECHECK_MS } from "../../src/policy/project.ts";
import { clockPassed } from "../helpers/wait.ts";
import { parseDiscover } from "../helpers/discover.ts";

const MEMORY_JS = join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");
const text = (r: any) => r.content.map((c: any) => c.text).join("\n");

let ws: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
const open: Array<{ close(): Promise<void> }> = [];

/** Writes .pml.json as the user would, and trusts it (`pml trust`) in the PML_HOME pml runs with. */
async function writeConfig(cfg: Record<string, unknown>, pmlHome = home.path) {
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify(cfg, null, 2));
  await trustWorkspace(ws.path, pmlHome);
}
/** An edit while pml runs: it applies to calls made CONFIG_RECHECK_MS after it (read on the clock, not a timer).
 * An edit that only restricts applies as it is; one that adds a grant applies once trusted again
 * (`trustIn`: the PML_HOME pml runs with). */
async function editConfig(cfg: Record<string, unknown>, trustIn?: string) {
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify(cfg, null, 2));
  if (trustIn) await trustWorkspace(ws.path, trustIn);
  await clockPassed(CONFIG_RECHECK_MS, performance.now());
}
const mem = () => ({ command: BUN, args: [MEMORY_JS], env: { MEMORY_FILE_PATH: join(home.path, "memory.jsonl") } });
const fixture = (...flags: string[]) => ({ command: BUN, args: [fixtureServer, ...flags] });

async function connect(opts: { elicit?: (params: any) => any; env?: Record<string, string> } = {}) {
  const c = await sdkClient(entries.binary, {
    cwd: ws.path,
    env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, ...opts.env }),
    capabilities: opts.elicit ? { elicitation: { form: {} } } : {},
  });
  if (opts.elicit) c.client.setRequestHandler(ElicitRequestSchema, async (req) => opts.elicit!(req.params));
  open.push({ close: () => c.transport.close() });
  return c;
}

beforeAll(() => {
  ws = tempDir();
  home = tempDir();
});
afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => {});
});
afterAll(() => {
  ws.cleanup();
  home.cleanup();
});

describe("tool surface", () => {
  test("allowed catalog servers are listed at start with real schemas; others via call; built-ins always", async () => {
    await writeConfig({ permissions: { allow: ["memory"] } });
    const { client } = await connect();
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("memory__create_entities")?.inputSchema.properties).toHaveProperty("entities");
    expect(byName.has("filesystem__read_file")).toBe(true);
    expect(byName.has("shell__exec")).toBe(true);
    expect(byName.has("everything__echo")).toBe(false);
    for (const t of tools) expect(`mcp__pml__${t.name}`.length).toBeLessThanOrEqual(64);
  });

  test("discover lists namespaces and one namespace's schemas", async () => {
    await writeConfig({});
    const { client } = await connect();
    const all: any = JSON.parse(text(await client.callTool({ name: "discover", arguments: {} })));
    const names = all.namespaces.map((n: any) => n.namespace);
    expect(names).toEqual(expect.arrayContaining(["memory", "everything", "filesystem", "shell"]));
    const one: any = JSON.parse(text(await client.callTool({ name: "discover", arguments: { namespace: "memory" } })));
    expect(one.tools.find((t: any) => t.id === "memory:read_graph")).toBeDefined();
    const q: any = parseDiscover(text(await client.callTool({ name: "discover", arguments: { query: "echo back a message" } })));
    expect(q.results.map((r: any) => r.id)).toContain("everything:echo");
  });
});

describe("calls through the pool", () => {
  test("an allowed private server runs; state persists across calls; concurrent calls never cross", async () => {
    await writeConfig({ permissions: { allow: ["mem", "fx"] }, private_mcps: { mem: mem(), fx: fixture() } });
    const { client } = await connect();
    const created: any = await client.callTool({
      name: "mem__create_entities",
      arguments: { entities: [{ name: "pml", entityType: "project", observations: ["one server"] }] },
    });
    expect(created.isError).toBeFalsy();
    const graph: any = await client.callTool({ name: "call", arguments: { tool: "mem:read_graph", arguments: {} } });
    expect(JSON.stringify(graph)).toContain("one server");
    const n = 200;
    const results = await Promise.all(Array.from({ length: n }, (_, i) => client.callTool({ name: "fx__echo", arguments: { text: `m${i}` } })));
    results.forEach((r: any, i) => expect(text(r)).toBe(`m${i}`));
  });

  test("an allowed tool's checks, kept between calls, never outlive an edit of .pml.json: deny, ask and a variable apply to the next call", async () => {
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fixture() } });
    const { client } = await connect();
    const echo = () => client.callTool({ name: "fx__echo", arguments: { text: "hi" } }) as Promise<any>;
    for (let i = 0; i < 3; i++) expect(text(await echo())).toBe("hi"); // the later ones take the kept outcome
    await editConfig({ permissions: { allow: ["fx"], deny: ["fx:echo"] }, private_mcps: { fx: fixture() } });
    const denied = await echo();
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain("denied");
    await editConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fixture() } });
    expect(text(await echo())).toBe("hi");
    await editConfig({ permissions: {}, private_mcps: { fx: fixture() } });
    expect(JSON.stringify(await echo())).toContain("approval_required");
    await editConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: { ...fixture(), env_required: ["PML_TEST_NEVER_SET"] } } }, home.path);
    const missing = await echo();
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("PML_TEST_NEVER_SET");
  });

  test("a server's progress reaches a client that asked for it, in order", async () => {
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fixture() } });
    const { client } = await connect();
    const seen: Array<{ progress: number; message?: string }> = [];
    const r: any = await client.callTool({ name: "fx__slow", arguments: { ms: 50, steps: 3 } }, undefined, { onprogress: (p) => void seen.push(p) });
    expect(r.isError).toBeFalsy();
    expect(seen.map((p) => p.message)).toEqual(["starting fx", "step 1", "step 2", "step 3"]);
    expect(seen.map((p) => p.progress)).toEqual([...seen.map((p) => p.progress)].sort((a, b) => a - b));
    const quiet: any = await client.callTool({ name: "fx__slow", arguments: { ms: 10, steps: 3 } });
    expect(quiet.isError).toBeFalsy();
  });

  test("a crash mid-call is a tool error naming the server, exit code and stderr; the next call works", async () => {
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fixture() } });
    const { client } = await connect();
    const r: any = await client.callTool({ name: "fx__crash", arguments: { code: 3, lines: ["boom line"] } });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("fx");
    expect(text(r)).toMatch(/exit(ed)?( with)?( code)? 3|code 3/);
    const again: any = await client.callTool({ name: "fx__echo", arguments: { text: "back" } });
    expect(text(again)).toBe("back");
  });

  test("a server that never answers hits the call timeout", async () => {
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fixture() }, pool: { call_timeout_s: 1 } });
    const { client } = await connect();
    const r: any = await client.callTool({ name: "fx__hang", arguments: {} });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/fx[\s\S]*(timed out|timeout|did not answer)/i);
  });

  test("a client's notifications/cancelled stops the pooled call at once and reaches the server, under both revisions", async () => {
    const cancelLog = join(ws.path, "cancelled.log");
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: { ...fixture(), env: { FIXTURE_CANCEL_LOG: cancelLog } } } });
    const peer = new RawPeer(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
    open.push({ close: async () => void peer.proc.kill() });
    await peer.initialize();
    const modernMeta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "raw-test", version: "0" },
    };
    // The server reports a step as soon as it has the call (a progress token asks for it): the
    // cancellation is sent once the call has reached the server, however long starting it took.
    const calls = [
      { id: 11, params: { name: "fx__slow", arguments: { ms: 30_000, steps: 1 }, _meta: { progressToken: "p11" } } },
      { id: 12, params: { name: "fx__slow", arguments: { ms: 30_000, steps: 1 }, _meta: { ...modernMeta, progressToken: "p12" } } },
    ];
    for (const c of calls) {
      const started = Date.now();
      peer.send({ jsonrpc: "2.0", id: c.id, method: "tools/call", params: c.params });
      await peer.next((m) => m.method === "notifications/progress" && m.params.progressToken === c.params._meta.progressToken && m.params.message === "step 1");
      peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: c.id, reason: "user pressed Esc" } });
      const r = await peer.next((m) => m.id === c.id, 10_000);
      expect(Date.now() - started).toBeLessThan(20_000); // not the server's 30 s
      expect(r.result.isError).toBe(true);
      expect(r.result.content[0].text).toContain("cancelled");
    }
    await waitFor(() => existsSync(cancelLog) && readFileSync(cancelLog, "utf8").trim().split("\n").length === 2);
    expect(readFileSync(cancelLog, "utf8")).toMatch(/^cancelled \d+\ncancelled \d+\n$/);
  });

  test("a missing required env var is named before anything starts", async () => {
    const mark = join(ws.path, "started.txt");
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: { type: "stdio", command: BUN, args: [fixtureServer, "--mark", mark], env_required: ["FX_TOKEN"] } } });
    const { client } = await connect();
    const r: any = await client.callTool({ name: "fx__echo", arguments: { text: "x" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("FX_TOKEN");
    expect(text(r)).toContain(".env");
    expect(existsSync(mark)).toBe(false);
    writeFileSync(join(ws.path, ".env"), "FX_TOKEN=abc\n");
    const ok: any = await client.callTool({ name: "fx__echo", arguments: { text: "x" } });
    expect(text(ok)).toBe("x");
  });

  test("pml killed with SIGKILL leaves no child server behind", async () => {
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fixture() } });
    const peer = new RawPeer(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
    await peer.initialize();
    const r = await peer.request(1, "tools/call", { name: "fx__pid", arguments: {} });
    const pid = Number(r.result.content[0].text);
    expect(isAlive(pid)).toBe(true);
    peer.kill();
    await waitFor(() => !isAlive(pid), 10000, "child to exit");
  });
});

describe("install on first use", () => {
  let reg: FakeRegistry;
  let pkgs: ReturnType<typeof fixturePackages>;
  beforeAll(() => {
    pkgs = fixturePackages(ws.path + "/.pkgs", fixtureServer);
    reg = startRegistry([pkgs.dep, pkgs.server]);
  });
  afterAll(() => reg.stop());
  const desc = (integrity: string) => ({
    type: "stdio",
    package: { registryType: "npm", identifier: "@pml-test/fixture-server", version: "1.2.3" },
    integrity,
  });

  test("a denied server is never installed; a tampered tarball never runs", async () => {
    const h = tempDir();
    try {
      await writeConfig({ permissions: { deny: ["fx"] }, private_mcps: { fx: desc(pkgs.server.integrity) } }, h.path);
      const env = { PML_NPM_REGISTRY: reg.url, PML_HOME: h.path };
      const { client } = await connect({ env });
      const denied: any = await client.callTool({ name: "fx__echo", arguments: { text: "x" } });
      expect(text(denied)).toContain("denied");
      expect(reg.hits.length).toBe(0);
      expect(existsSync(join(h.path, "deps"))).toBe(false);

      await editConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: desc(pkgs.evil.integrity.replace(/^sha512-./, "sha512-A")) } }, h.path);
      const bad: any = await client.callTool({ name: "fx__echo", arguments: { text: "x" } });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toStartWith("Integrity check failed for @pml-test/fixture-server@1.2.3: expected sha512-A");
    } finally {
      h.cleanup();
    }
  });

  test("an approved first call installs (with progress), verifies, starts, and answers in the same call", async () => {
    const h = tempDir();
    try {
      await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: desc(pkgs.server.integrity) } }, h.path);
      const { client } = await connect({ env: { PML_NPM_REGISTRY: reg.url, PML_HOME: h.path } });
      const progress: string[] = [];
      const r: any = await client.callTool({ name: "fx__echo", arguments: { text: "installed" } }, undefined, {
        onprogress: (p) => progress.push(p.message ?? ""),
        timeout: 120000,
      });
      expect(text(r)).toBe("installed");
      expect(progress.join("|")).toMatch(/install/i);
      expect(JSON.parse(readFileSync(join(h.path, "deps.json"), "utf8"))).toBeDefined();
    } finally {
      h.cleanup();
    }
  });
});

describe("human in the loop", () => {
  test("no elicitation: approval_required, continue runs it, a replayed id is refused", async () => {
    await writeConfig({ private_mcps: { fx: fixture() } });
    const { client } = await connect();
    const r: any = await client.callTool({ name: "fx__echo", arguments: { text: "hello" } });
    expect(r.approval_required).toBe(true);
    expect(r.approval_context).toMatchObject({ type: "tool_permission", tool: "fx__echo", dependency: "fx:echo" });
    const id = r.approval_context.workflow_id;
    expect(text(r)).toContain(id);
    expect(text(r)).toContain("continue_workflow");
    const ok: any = await client.callTool({ name: "fx__echo", arguments: { continue_workflow: { workflow_id: id, approved: true } } });
    expect(text(ok)).toBe("hello");
    const replay: any = await client.callTool({ name: "fx__echo", arguments: { continue_workflow: { workflow_id: id, approved: true } } });
    expect(replay.isError).toBe(true);
    expect(text(replay)).toContain("Workflow expired or not found");
    // Approved once = approved for this session.
    const again: any = await client.callTool({ name: "fx__echo", arguments: { text: "again" } });
    expect(text(again)).toBe("again");
  });

  test("a workflow id is bound to its tool; declining never runs; a forged id is refused", async () => {
    const mark = join(ws.path, "declined-mark.txt");
    await writeConfig({ private_mcps: { fx: fixture("--mark", mark) } });
    const { client } = await connect();
    const r: any = await client.callTool({ name: "call", arguments: { tool: "fx:echo", arguments: { text: "x" } } });
    const id = r.approval_context.workflow_id;
    const other: any = await client.callTool({ name: "fx__pid", arguments: { continue_workflow: { workflow_id: id, approved: true } } });
    expect(text(other)).toContain("This approval was issued for call; call call with it");
    const no: any = await client.callTool({ name: "call", arguments: { tool: "fx:echo", continue_workflow: { workflow_id: id, approved: false } } });
    expect(text(no)).toContain("declined");
    const forged: any = await client.callTool({ name: "call", arguments: { tool: "fx:echo", continue_workflow: { workflow_id: crypto.randomUUID(), approved: true } } });
    expect(text(forged)).toContain("Workflow expired or not found");
    expect(existsSync(mark)).toBe(false);
  });

  test("Always persists the exact tool id to .pml.json allow, keeping the user's other keys", async () => {
    await writeConfig({ private_mcps: { fx: fixture() }, custom_key: { keep: true } });
    const { client } = await connect();
    const r: any = await client.callTool({ name: "fx__echo", arguments: { text: "a" } });
    await client.callTool({ name: "fx__echo", arguments: { continue_workflow: { workflow_id: r.approval_context.workflow_id, approved: true, always: true } } });
    const cfg = JSON.parse(readFileSync(join(ws.path, ".pml.json"), "utf8"));
    expect(cfg.permissions.allow).toEqual(["fx:echo"]);
    expect(cfg.custom_key).toEqual({ keep: true });
  });

  test("elicitation: accept runs, Always persists, decline aborts, cancel falls back to the tool-result flow", async () => {
    const mark = join(ws.path, "elicit-mark.txt");
    await writeConfig({ private_mcps: { fx: fixture("--mark", mark) } });
    let answer: any = { action: "accept", content: { decision: "continue" } };
    const asked: any[] = [];
    const { client } = await connect({ elicit: (p) => (asked.push(p), answer) });

    answer = { action: "decline" };
    const declined: any = await client.callTool({ name: "fx__echo", arguments: { text: "no" } });
    expect(text(declined)).toContain("declined");
    expect(existsSync(mark)).toBe(false);

    answer = { action: "cancel" };
    const fallback: any = await client.callTool({ name: "fx__echo", arguments: { text: "later" } });
    expect(fallback.approval_required).toBe(true);

    answer = { action: "accept", content: { decision: "continue" } };
    const ok: any = await client.callTool({ name: "fx__echo", arguments: { text: "yes" } });
    expect(text(ok)).toBe("yes");
    expect(asked[0].message).toContain("fx:echo");
    expect(asked[0].requestedSchema.properties.decision.enum).toEqual(["continue", "always", "abort"]);

    answer = { action: "accept", content: { decision: "always" } };
    await client.callTool({ name: "fx__pid", arguments: {} });
    expect(JSON.parse(readFileSync(join(ws.path, ".pml.json"), "utf8")).permissions.allow).toEqual(["fx:pid"]);

    answer = { action: "accept", content: { decision: "abort" } };
    const aborted: any = await client.callTool({ name: "fx__roots", arguments: {} });
    expect(text(aborted)).toContain("You chose Abort: nothing ran");
  });

  test("first use of a namespace via call adds it to the surface and sends list_changed", async () => {
    await writeConfig({ permissions: { allow: ["everything"] }, private_mcps: {} });
    const { client } = await connect({ env: {} });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fixture() } });
    await client.callTool({ name: "call", arguments: { tool: "fx:echo", arguments: { text: "x" } } });
    await waitFor(() => changed > 0, 5000, "list_changed");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("fx__echo");
  });
});

describe("remote MCP servers (type http)", () => {
  test("a private http server is called through pml: another pml serving over Streamable HTTP", async () => {
    const other = tempDir();
    const server = await spawnServe([...entries.binary, "serve", "--port", "0"], {
      cwd: other.path,
      env: testEnv({ PML_WORKSPACE: other.path, PML_HOME: home.path }),
    });
    try {
      const url = server.url;
      await writeConfig({ permissions: { allow: ["remote"] }, private_mcps: { remote: { type: "http", url, headers: SERVE_AUTH } } });
      const { client } = await connect();
      const r: any = await client.callTool({ name: "remote__status", arguments: {} });
      expect(r.isError).toBeFalsy();
      expect(JSON.parse(text(r)).workspace.root).toBe(other.path);
      await editConfig({ permissions: { allow: ["remote"] }, private_mcps: { remote: { type: "http", url: "http://example.com/mcp" } } }, home.path);
      const refused: any = await client.callTool({ name: "remote__status", arguments: {} });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/https/);
    } finally {
      await server.stop();
      other.cleanup();
    }
  });
});

describe("stdio servers started on demand", () => {
  test("calls that arrive together before any server runs start it once, not once per call", async () => {
    const mark = join(ws.path, "together-mark.txt");
    await writeConfig({ permissions: { allow: ["fx"] }, private_mcps: { fx: fixture("--mark", mark) } });
    const peer = new RawPeer(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
    open.push({ close: async () => peer.kill() });
    await peer.initialize();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => peer.request(100 + i, "tools/call", { name: "fx__echo", arguments: { text: `t${i}` } })));
    expect(answers.map((a) => a.result?.content?.[0]?.text)).toEqual(Array.from({ length: 8 }, (_, i) => `t${i}`));
    expect(readFileSync(mark, "utf8").trim().split("\n")).toHaveLength(1);
  });
});
