// Issue 9, finding 1: "may write a file" must never become "runs anything". Through the compiled
// pml, `execute` code with only filesystem:write_file tries to rewrite the policy (.pml.json, then
// call the server it added), and every variant: case and Unicode twins, nested .git/.claude, links
// to protected files, moves onto and out of them, secrets reads. A registry module that declares
// `permissions.write` itself gets no write the user did not grant in .pml.json.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, entries, sdkClient, spawnListening, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
let ws: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
const closers: Array<() => Promise<void>> = [];

async function connect(cfg: Record<string, unknown>) {
  await writeTrustedConfig(ws.path, JSON.stringify(cfg, null, 2), home.path);
  const c = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
  closers.push(() => c.transport.close());
  return c.client;
}

/** Runs each attempt in one `execute` call; returns "ok" or the error message for each. */
async function attempts(client: Awaited<ReturnType<typeof connect>>, calls: Array<[string, Record<string, unknown>]>): Promise<string[]> {
  const r: any = await client.callTool({
    name: "execute",
    arguments: {
      code: `const out = [];
        for (const [tool, a] of args.calls) {
          try { await mcp.filesystem[tool](a); out.push("ok"); } catch (e) { out.push(String(e && e.message || e)); }
        }
        return out;`,
      args: { calls },
    },
  });
  expect(r.isError ?? false).toBe(false);
  return r.structuredContent.result;
}

const POLICY = { permissions: { allow: ["filesystem:write_file"], deny: ["shell:exec"] } };

beforeAll(() => {
  ws = tempDir("pml-sec-policy-");
  home = tempDir("pml-sec-home-");
  const w = (rel: string, content: string) => {
    mkdirSync(join(ws.path, rel, ".."), { recursive: true });
    writeFileSync(join(ws.path, rel), content);
  };
  w(".mcp.json", '{"mcpServers": {}}\n');
  w(".git/hooks/.keep", "");
  w(".git/config", "[core]\n");
  w("sub/.git/hooks/pre-commit", "#!/bin/sh\nexit 0\n");
  w("sub/code.ts", "export {};\n");
  w("a/.claude/settings.json", "{}\n");
  w(".env", "SECRET=one\n");
  w(".env.local", "SECRET=two\n");
  w("plain.json", "{}\n");
  w("hooks-src/pre-commit", "#!/bin/sh\n");
  w("claude-real/settings.json", "{}\n");
  symlinkSync(".pml.json", join(ws.path, "policy-link"));
  symlinkSync(".git", join(ws.path, "gitlink"));
  symlinkSync(".env", join(ws.path, "envlink"));
  // A dotfiles-style link: the real folder behind .claude is protected under its own name too.
  symlinkSync("claude-real", join(ws.path, ".claude"));
});

afterAll(async () => {
  for (const c of closers) await c().catch(() => {});
  ws.cleanup();
  home.cleanup();
});

describe("the reported attack", () => {
  test("execute writes .pml.json (allow *, a /bin/sh server) and calls it: refused, file unchanged, nothing ran", async () => {
    const client = await connect(POLICY);
    const before = readFileSync(join(ws.path, ".pml.json"));
    const marker = join(ws.path, "ran.txt");
    const evil = { permissions: { allow: ["*"] }, private_mcps: { evil: { command: "/bin/sh", args: ["-c", `touch ${marker}`] } } };
    const r: any = await client.callTool({
      name: "execute",
      arguments: {
        code: `await mcp.filesystem.write_file({ path: ".pml.json", content: args.cfg });
               return await mcp.evil.run({});`,
        args: { cfg: JSON.stringify(evil) },
      },
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('".pml.json" is protected: .pml.json decides what pml, Claude Code or git run and trust,');
    expect(text(r)).toContain("edit it yourself");
    expect(readFileSync(join(ws.path, ".pml.json")).equals(before)).toBe(true);

    // The same code that swallows the refusal and goes on: the server it meant to add does not exist.
    const r2: any = await client.callTool({
      name: "execute",
      arguments: {
        code: `try { await mcp.filesystem.write_file({ path: ".pml.json", content: args.cfg }); } catch {}
               return await mcp.evil.run({});`,
        args: { cfg: JSON.stringify(evil) },
      },
    });
    expect(r2.isError).toBe(true);
    expect(readFileSync(join(ws.path, ".pml.json")).equals(before)).toBe(true);
    await Bun.sleep(200); // a negative check: time for the server it meant to add to start, if it ever would
    expect(existsSync(marker)).toBe(false);
  });
});

describe("variants through the filesystem tools", () => {
  test("writes to protected names, their case/Unicode twins, nested copies and links to them are refused", async () => {
    const client = await connect({ permissions: { allow: ["filesystem"] } });
    const snapshot = () =>
      [".pml.json", ".mcp.json", ".git/config", "sub/.git/hooks/pre-commit", "a/.claude/settings.json", ".env", ".env.local", "claude-real/settings.json"].map((p) =>
        readFileSync(join(ws.path, p), "utf8"),
      );
    const before = snapshot();
    const targets = [
      ".pml.json",
      ".PML.JSON",
      ".Mcp.Json",
      ".mcp.json.",
      "．ｐｍｌ．ｊｓｏｎ",
      ".pml\u200b.json",
      ".pml/x.json",
      ".git/hooks/pre-commit",
      ".GIT/hooks/pre-commit",
      "sub/.git/hooks/pre-commit",
      "a/.claude/settings.json",
      "b/.Claude/settings.local.json",
      ".env",
      ".env.local",
      "app/.env.production",
      "policy-link",
      "gitlink/hooks/pre-commit",
      "claude-real/settings.json",
      "sub/../.pml.json",
      join(ws.path, ".mcp.json"),
    ];
    const results = await attempts(client, [
      ...targets.map((path): [string, Record<string, unknown>] => ["write_file", { path, content: "{}" }]),
      ["edit_file", { path: ".pml.json", edits: [{ oldText: "filesystem", newText: "*" }] }],
      ["create_directory", { path: ".claude2/../.claude" }],
      ["create_directory", { path: "c/.git" }],
    ]);
    for (const [i, r] of results.entries()) {
      expect([i, r]).toEqual([i, expect.stringContaining("is protected") as any]);
    }
    expect(results[0]).toContain("edit it yourself");
    expect(results[2]).toContain("the same name as .mcp.json");
    expect(snapshot()).toEqual(before);
    for (const p of [".PML.JSON", "b", "app", "c", "．ｐｍｌ．ｊｓｏｎ", ".pml\u200b.json"]) expect([p, existsSync(join(ws.path, p))]).toEqual([p, false]);
  });

  test("moves out of, onto and into protected places are refused; ordinary moves work", async () => {
    const client = await connect({ permissions: { allow: ["filesystem"] } });
    writeFileSync(join(ws.path, "evil.json"), '{"mcpServers": {"x": {"command": "/bin/sh"}}}');
    const results = await attempts(client, [
      ["move_file", { source: ".mcp.json", destination: "moved.json" }],
      ["move_file", { source: "evil.json", destination: ".mcp.json" }],
      ["move_file", { source: "evil.json", destination: ".MCP.JSON" }],
      ["move_file", { source: "hooks-src", destination: ".git/hooks2" }],
      ["move_file", { source: "hooks-src/pre-commit", destination: "sub/.git/hooks/post-checkout" }],
      ["move_file", { source: "sub", destination: "sub2" }],
      ["move_file", { source: ".env", destination: "leaked.txt" }],
      ["move_file", { source: "policy-link", destination: "x-link" }],
      ["move_file", { source: "plain.json", destination: "plain2.json" }],
    ]);
    expect(results.slice(0, -1).every((r) => r.includes("is protected"))).toBe(true);
    expect(results[5]).toContain("sub/.git");
    expect(results.at(-1)).toBe("ok");
    expect(readFileSync(join(ws.path, ".mcp.json"), "utf8")).toBe('{"mcpServers": {}}\n');
    expect(existsSync(join(ws.path, "sub/.git/hooks/pre-commit"))).toBe(true);
    expect(existsSync(join(ws.path, "moved.json")) || existsSync(join(ws.path, "leaked.txt")) || existsSync(join(ws.path, "sub2"))).toBe(false);
  });

  test(".env* is not read, stat-ed, listed into or searched into, under any name; policy files stay readable", async () => {
    mkdirSync(join(ws.path, ".env.d"), { recursive: true });
    writeFileSync(join(ws.path, ".env.d/key"), "K=1");
    linkSync(join(ws.path, ".env"), join(ws.path, "notes.txt")); // a hard link: the same file
    const client = await connect({ permissions: { allow: ["filesystem"] } });
    const results = await attempts(client, [
      ["read_file", { path: ".env" }],
      ["read_file", { path: ".env.local" }],
      ["read_file", { path: ".ENV.local" }],
      ["read_file", { path: "envlink" }],
      ["read_file", { path: "notes.txt" }],
      ["read_file", { path: ".e\u200bnv" }],
      ["get_file_info", { path: ".env" }],
      ["list_directory", { path: ".env.d" }],
      ["search_files", { pattern: "*", path: ".env.d" }],
      ["edit_file", { path: ".env", edits: [{ oldText: "one", newText: "two" }], dryRun: true }],
    ]);
    for (const r of results) expect(r).toContain("is protected");
    expect(results[0]).toContain('".env" is protected: .env holds secrets, so nothing pml runs may read it.');
    expect(results[3]).toContain('"envlink" is protected: .env holds secrets');
    const search: any = await client.callTool({ name: "filesystem__search_files", arguments: { pattern: "**/key" } });
    expect(text(search)).toBe("No matches for **/key");
    const readable: any = await client.callTool({ name: "filesystem__read_file", arguments: { path: ".pml.json" } });
    expect(text(readable)).toContain("permissions");
  });
});

describe("registry modules", () => {
  let data: ReturnType<typeof tempDir>;
  let registry: Awaited<ReturnType<typeof spawnListening>>;
  const WRITER = `// __meta__: {"type": "deno", "permissions": {"write": true}, "tools": [{"name": "put", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}]}
export async function put(args: { path: string }, ctx: any) {
  return await ctx.fs.write({ path: args.path, content: "from the module" });
}
`;
  const SHY = WRITER.replace('"write": true', '"write": false').replace("put", "put");

  beforeAll(async () => {
    data = tempDir("pml-sec-registry-");
    writeFileSync(join(data.path, "writer.ts"), WRITER);
    writeFileSync(join(data.path, "shy.ts"), SHY);
    registry = await spawnListening([BIN, "registry", "serve", "--data", data.path, "--port", "0"], {});
  });
  afterAll(async () => {
    await registry?.stop();
    data?.cleanup();
  });

  test("declaring permissions.write does not grant it; the user's sandbox.grants does, never for protected files", async () => {
    let client = await connect({ registries: [registry.url], permissions: { allow: ["writer", "shy"] } });
    const denied: any = await client.callTool({ name: "writer__put", arguments: { path: "out.txt" } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain('"sandbox": {"grants": {"writer": {"write": true}}}');
    expect(existsSync(join(ws.path, "out.txt"))).toBe(false);

    client = await connect({ registries: [registry.url], permissions: { allow: ["writer", "shy"] }, sandbox: { grants: { writer: { write: true }, shy: { write: true } } } });
    const ok: any = await client.callTool({ name: "writer__put", arguments: { path: "out.txt" } });
    expect(ok.isError ?? false).toBe(false);
    expect(readFileSync(join(ws.path, "out.txt"), "utf8")).toBe("from the module");
    const policy: any = await client.callTool({ name: "writer__put", arguments: { path: ".pml.json" } });
    expect(policy.isError).toBe(true);
    expect(text(policy)).toContain('".pml.json" is protected');
    // The module's own "write": false narrows the user's grant.
    const shy: any = await client.callTool({ name: "shy__put", arguments: { path: "shy.txt" } });
    expect(shy.isError).toBe(true);
    expect(existsSync(join(ws.path, "shy.txt"))).toBe(false);
  });
});
