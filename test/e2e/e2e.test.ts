// The whole product, as a user gets it: `pml init --yes` in a fresh project, `pml registry serve`
// as the registry and cloud, then `pml stdio` and `pml serve` driven by the SDK's real client:
// a built-in local tool, a stdio server, a registry module, a cloud tool with a BYOK key, the
// cloud going offline, and the permission boundary recorded in the audit log.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BIN, BUN, entries, ROOT, sdkClient, SERVE_AUTH, spawnListening, spawnServe, tempDir, testEnv } from "../helpers/pml.ts";
import { waitFor } from "../pool/helpers.ts";

const API_KEY = "pml_test_key_7f3a9c";
const SEARCH_KEY = "byok-secret-5d1e0b77";
const MEMORY_JS = join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");
const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");

const GREET = `// __meta__: {"type": "deno", "tools": [{"name": "hello", "description": "Greets someone", "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}]}
export async function hello(args: { name: string }): Promise<string> {
  return "Hello, " + args.name + "!";
}
`;
const SEARCH = `// __meta__: {"type": "deno", "routing": "cloud", "env_required": ["SEARCH_KEY"], "tools": [{"name": "query", "description": "Searches", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]}
export async function query(args: { q: string }, ctx: { env: Record<string, string> }) {
  return { q: args.q, results: ["first hit for " + args.q], key_seen: ctx.env.SEARCH_KEY.length };
}
`;

let project: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
let data: ReturnType<typeof tempDir>;
let outside: ReturnType<typeof tempDir>;
let registry: Awaited<ReturnType<typeof spawnListening>> | undefined;

function env(extra: Record<string, string> = {}) {
  return testEnv({ PML_HOME: home.path, CLAUDE_PROJECT_DIR: project.path, PML_API_KEY: API_KEY, SEARCH_KEY, ...extra });
}

beforeAll(async () => {
  project = tempDir("pml-e2e-project-");
  home = tempDir("pml-e2e-home-");
  data = tempDir("pml-e2e-registry-");
  outside = tempDir("pml-e2e-outside-");
  writeFileSync(join(data.path, "greet.ts"), GREET);
  writeFileSync(join(data.path, "search.ts"), SEARCH);
  writeFileSync(join(outside.path, "secret.txt"), "outside the workspace");
  registry = await spawnListening([BIN, "registry", "serve", "--data", data.path, "--port", "0", "--api-key", API_KEY], {});

  const init = Bun.spawnSync([BIN, "init", "--yes"], { cwd: project.path, env: testEnv({ PML_HOME: home.path }), stdin: "ignore" });
  expect(init.exitCode).toBe(0);
  const mcp = JSON.parse(readFileSync(join(project.path, ".mcp.json"), "utf8"));
  expect(mcp.mcpServers.pml).toMatchObject({ type: "stdio", command: BIN, args: ["stdio"] });

  // The user's edits to the .pml.json init wrote: their cloud, their servers, their rules.
  const cfg = JSON.parse(readFileSync(join(project.path, ".pml.json"), "utf8"));
  cfg.cloud = { url: registry.url, timeout_s: 5 };
  cfg.private_mcps = { memory: { command: BUN, args: [MEMORY_JS], env: { MEMORY_FILE_PATH: join(home.path, "memory.jsonl") } } };
  cfg.permissions = { allow: ["filesystem:read_file", "filesystem:list_directory", "memory", "greet", "search"], deny: ["shell"] };
  // The registry's search module declares SEARCH_KEY; only the user's grant lets it go (to cloud.url).
  cfg.env_grants = { search: ["SEARCH_KEY"] };
  writeFileSync(join(project.path, ".pml.json"), JSON.stringify(cfg, null, 2));
  // init trusted what it wrote; the grants added by hand apply once the user trusts them.
  const trust = Bun.spawnSync([BIN, "trust", "--yes"], { cwd: project.path, env: testEnv({ PML_HOME: home.path }), stdin: "ignore" });
  expect(trust.exitCode, trust.stderr.toString()).toBe(0);
  writeFileSync(join(project.path, "notes.md"), "# notes\nhello from the workspace\n");
  symlinkSync(join(outside.path, "secret.txt"), join(project.path, "sneaky.txt"));
});

afterAll(() => {
  void registry?.stop();
  for (const d of [project, home, data, outside]) d?.cleanup();
});

describe.each([["stdio"], ["serve"]] as const)("end to end over pml %s", (transport) => {
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    if (transport === "stdio") {
      const c = await sdkClient(entries.binary, { cwd: project.path, env: env() });
      client = c.client;
      close = () => c.transport.close();
    } else {
      const server = await spawnServe([BIN, "serve", "--port", "0"], { cwd: project.path, env: env() });
      client = new Client({ name: "e2e", version: "0" });
      const t = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: SERVE_AUTH } });
      await client.connect(t);
      close = async () => {
        await t.terminateSession().catch(() => {});
        await client.close();
        await server.stop();
      };
    }
  });
  afterAll(async () => close?.());

  test("a built-in local tool reads a workspace file", async () => {
    const r: any = await client.callTool({ name: "filesystem__read_file", arguments: { path: "notes.md" } });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toContain("hello from the workspace");
  });

  test("a stdio server from .pml.json private_mcps", async () => {
    const r: any = await client.callTool({ name: "memory__create_entities", arguments: { entities: [{ name: `e2e-${transport}`, entityType: "test", observations: ["ok"] }] } });
    expect(r.isError).toBeFalsy();
    const g: any = await client.callTool({ name: "memory__read_graph", arguments: {} });
    expect(text(g)).toContain(`e2e-${transport}`);
  });

  test("a registry module, called by wire name without being listed", async () => {
    const r: any = await client.callTool({ name: "greet__hello", arguments: { name: "pml" } });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toBe("Hello, pml!");
  });

  test("a cloud tool gets the user's BYOK key through the cloud", async () => {
    const r: any = await client.callTool({ name: "search__query", arguments: { q: "mcp" } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ q: "mcp", results: ["first hit for mcp"], key_seen: SEARCH_KEY.length });
  });

  test("execute runs code that calls a built-in module and a stdio server in one go", async () => {
    const code = `
      const notes = await mcp.filesystem.read_file({ path: "notes.md" });
      const graph = await mcp.memory.read_graph({});
      return { firstLine: String(notes).split("\\n")[0], entities: graph.entities.length };
    `;
    const r: any = await client.callTool({ name: "execute", arguments: { code, intent: "summarize" } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.result.firstLine).toBe("# notes");
    expect(r.structuredContent.result.entities).toBeGreaterThan(0);
    expect(r.structuredContent.tools_used).toEqual(["filesystem:read_file", "memory:read_graph"]);
  });

  test("the permission boundary: a denied tool, a path outside, a symlink out; all audited", async () => {
    const denied: any = await client.callTool({ name: "shell__exec", arguments: { command: "cat /etc/passwd" } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain("denied");
    const out: any = await client.callTool({ name: "filesystem__read_file", arguments: { path: `../${outside.path.split("/").pop()}/secret.txt` } });
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("outside the workspace");
    const link: any = await client.callTool({ name: "filesystem__read_file", arguments: { path: "sneaky.txt" } });
    expect(link.isError).toBe(true);
    expect(text(link)).not.toContain("outside the workspace\n");
    // Audit lines are appended in the background; give the last one a moment to land.
    const readAudit = () =>
      readFileSync(join(project.path, ".pml/audit.log"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
    await waitFor(() => readAudit().some((e) => String(e.attempted).includes("sneaky.txt")), 5000, "audit line");
    const audit = readAudit();
    expect(audit.some((e) => e.tool === "shell:exec")).toBe(true);
    expect(audit.some((e) => e.tool === "filesystem:read_file" && String(e.attempted).includes("secret.txt"))).toBe(true);
    expect(audit.some((e) => e.tool === "filesystem:read_file" && String(e.attempted).includes("sneaky.txt"))).toBe(true);
  });
});

test("offline: with the cloud stopped, local tools and cached modules work; cloud tools fail fast and say why", async () => {
  const c = await sdkClient(entries.binary, { cwd: project.path, env: env() });
  try {
    const warm: any = await c.client.callTool({ name: "greet__hello", arguments: { name: "cache" } });
    expect(text(warm)).toBe("Hello, cache!");
    await registry!.stop();
    const local: any = await c.client.callTool({ name: "filesystem__read_file", arguments: { path: "notes.md" } });
    expect(text(local)).toContain("hello");
    const t0 = performance.now();
    const cloud: any = await c.client.callTool({ name: "search__query", arguments: { q: "x" } });
    expect(cloud.isError).toBe(true);
    expect(text(cloud)).toContain("cloud unreachable");
    expect(performance.now() - t0).toBeLessThan(5000); // fails fast, not at the 5 s timeout
  } finally {
    await c.transport.close();
  }
  // A new process, registry still down: the module comes from the cache.
  const c2 = await sdkClient(entries.binary, { cwd: project.path, env: env() });
  try {
    const cached: any = await c2.client.callTool({ name: "greet__hello", arguments: { name: "offline" } });
    expect(text(cached)).toBe("Hello, offline!");
    const unknown: any = await c2.client.callTool({ name: "neverseen__x", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/unreachable[\s\S]*private_mcps/);
  } finally {
    await c2.transport.close();
  }
});

test("no key is ever written to disk: grep every file pml wrote", () => {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p, { throwIfNoEntry: false });
      if (!s) continue;
      if (s.isDirectory()) {
        if (name !== "node_modules" && name !== ".cache") walk(p);
      } else if (s.size < 5_000_000) files.push(p);
    }
  };
  walk(home.path);
  walk(project.path);
  expect(files.length).toBeGreaterThan(3);
  for (const f of files) {
    const body = readFileSync(f, "latin1");
    expect({ f, leaked: body.includes(SEARCH_KEY) || body.includes(API_KEY) }).toEqual({ f, leaked: false });
  }
});
