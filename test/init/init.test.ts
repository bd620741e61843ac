import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError } from "../../src/errors.ts";
import { API_KEY_REF } from "../../src/config/mcp-json.ts";
import { initProject, type InitPrompts } from "../../src/config/project-init.ts";
import { tempDirs } from "../config/helpers.ts";

const tempDir = tempDirs();

const MAIN = resolve(import.meta.dir, "../../src/main.ts");
const launch = { command: "/opt/pml/bin/pml", args: [] };
const read = (p: string) => readFileSync(p, "utf8");
const readJson = (p: string) => JSON.parse(read(p));

async function runCli(args: string[], cwd: string) {
  const home = tempDir("pml-a-home-");
  const proc = Bun.spawn([process.execPath, MAIN, "init", ...args], {
    cwd,
    stdin: "ignore", // /dev/null: no terminal
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: home, PML_HOME: join(home, ".pml"), NO_COLOR: "1" },
  });
  // A safety net only (no timing assertion): a hang shows up as a killed process, not a stuck suite.
  const guard = setTimeout(() => proc.kill(), 30_000);
  try {
    const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    return { code, stdout, stderr, killed: proc.signalCode !== null };
  } finally {
    clearTimeout(guard);
    proc.kill();
  }
}

describe("pml init (library)", () => {
  test("--yes in an empty folder: .mcp.json, .pml.json with safe defaults, schema copy; local-only", async () => {
    const dir = tempDir();
    const r = await initProject({ dir, launch, env: {} });
    expect(r.mode).toBe("local");
    expect(r.mcpJson.action).toBe("created");
    expect(r.pmlJson.action).toBe("created");
    expect(readJson(join(dir, ".mcp.json"))).toEqual({ mcpServers: { pml: { type: "stdio", command: "/opt/pml/bin/pml", args: ["stdio"] } } });
    const pml = readJson(join(dir, ".pml.json"));
    expect(pml.$schema).toBe("./.pml/pml.schema.json");
    expect(pml.permissions).toEqual({ allow: [], ask: [], deny: [] });
    expect(readJson(join(dir, ".pml/pml.schema.json")).title).toBe(".pml.json");
    expect(existsSync(join(dir, ".env"))).toBe(false);
    expect(read(join(dir, ".gitignore"))).toBe(".pml/\n");
    expect(readdirSync(dir).sort()).toEqual([".gitignore", ".mcp.json", ".pml", ".pml.json"]);
  });

  test("existing .mcp.json: other servers kept, backup made; later changes keep one backup (the state before the latest)", async () => {
    const dir = tempDir();
    const original = { mcpServers: { other: { command: "npx", args: ["-y", "x"] } }, extra: true };
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify(original, null, 2));
    const r1 = await initProject({ dir, launch, env: {} });
    expect(r1.mcpJson).toMatchObject({ action: "updated", backup: join(dir, ".mcp.json.backup") });
    const after1 = readJson(join(dir, ".mcp.json"));
    expect(after1).toEqual({ mcpServers: { other: original.mcpServers.other, pml: { type: "stdio", command: launch.command, args: ["stdio"] } }, extra: true });
    expect(readJson(join(dir, ".mcp.json.backup"))).toEqual(original);

    // Nothing to change: no write, no new backup.
    const r2 = await initProject({ dir, launch, env: {} });
    expect(r2.mcpJson).toEqual({ path: join(dir, ".mcp.json"), action: "unchanged" });
    expect(existsSync(join(dir, ".mcp.json.backup.1"))).toBe(false);

    // A change (the key) replaces the one backup with the state just before it: never a pile.
    const r3 = await initProject({ dir, launch, env: {}, apiKey: "k-123" });
    expect(r3.mcpJson.backup).toBe(join(dir, ".mcp.json.backup"));
    expect(readJson(join(dir, ".mcp.json.backup"))).toEqual(after1);
    expect(readdirSync(dir).filter((f) => f.startsWith(".mcp.json.backup"))).toEqual([".mcp.json.backup"]);
    expect(readJson(join(dir, ".mcp.json")).mcpServers.other).toEqual(original.mcpServers.other);
  });

  test("--api-key: stored in .env (0600) and git-ignored, referenced (never in clear) in .mcp.json", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".gitignore"), "node_modules/");
    const r = await initProject({ dir, launch, env: {}, apiKey: "sk-secret-xyz" });
    expect(r.mode).toBe("cloud");
    expect(r.apiKey).toEqual({ source: "given", envFile: join(dir, ".env"), gitignore: "added" });
    expect(read(join(dir, ".env"))).toBe("PML_API_KEY=sk-secret-xyz\n");
    expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o600);
    expect(read(join(dir, ".gitignore"))).toBe("node_modules/\n.env\n.pml/\n");
    const mcp = read(join(dir, ".mcp.json"));
    expect(mcp).not.toContain("sk-secret-xyz");
    expect(JSON.parse(mcp).mcpServers.pml.env).toEqual({ PML_API_KEY: API_KEY_REF });

    // Re-run with another key: the key is replaced, .gitignore gets no duplicate line.
    await initProject({ dir, launch, env: {}, apiKey: "sk-other" });
    expect(read(join(dir, ".env"))).toBe("PML_API_KEY=sk-other\n");
    expect(read(join(dir, ".gitignore"))).toBe("node_modules/\n.env\n.pml/\n");
    // Re-run without a key keeps cloud mode (the key is found in .env).
    const r3 = await initProject({ dir, launch, env: {} });
    expect(r3.apiKey.source).toBe("existing");
    expect(readJson(join(dir, ".mcp.json")).mcpServers.pml.env).toEqual({ PML_API_KEY: API_KEY_REF });
    for (const f of readdirSync(dir)) if (statSync(join(dir, f)).isFile()) expect(f === ".env" || !read(join(dir, f)).includes("sk-")).toBe(true);
  });

  test("an existing .pml.json is never clobbered; an unparseable one is reported and left alone", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".pml.json"), '{"permissions": {"allow": ["git"]}, "mine": 1}');
    const r = await initProject({ dir, launch, env: {} });
    expect(r.pmlJson.action).toBe("kept");
    expect(read(join(dir, ".pml.json"))).toBe('{"permissions": {"allow": ["git"]}, "mine": 1}');
    expect(existsSync(join(dir, ".pml"))).toBe(false); // it does not reference our schema copy

    const broken = tempDir();
    writeFileSync(join(broken, ".pml.json"), '{"permissions": {\n  "allow": [1]}}');
    const rb = await initProject({ dir: broken, launch, env: {} });
    expect(rb.pmlJson.action).toBe("invalid");
    expect(rb.pmlJson.problem).toContain("permissions.allow[0]");
    expect(read(join(broken, ".pml.json"))).toBe('{"permissions": {\n  "allow": [1]}}');
    expect(rb.mcpJson.action).toBe("created");

    // --force: backed up, then replaced with defaults.
    const rf = await initProject({ dir: broken, launch, env: {}, force: true });
    expect(rf.pmlJson).toMatchObject({ action: "replaced", backup: join(broken, ".pml.json.backup") });
    expect(read(join(broken, ".pml.json.backup"))).toBe('{"permissions": {\n  "allow": [1]}}');
    expect(readJson(join(broken, ".pml.json")).permissions).toEqual({ allow: [], ask: [], deny: [] });
  });

  test("an unparseable .mcp.json stops init before anything is written; --force backs it up", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".mcp.json"), '{"mcpServers": {');
    const err = await initProject({ dir, launch, env: {}, apiKey: "k" }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain(".mcp.json:1:17: invalid JSON");
    expect(err.message).toContain("--force");
    expect(readdirSync(dir)).toEqual([".mcp.json"]);
    const r = await initProject({ dir, launch, env: {}, force: true });
    expect(r.mcpJson).toMatchObject({ action: "replaced", backup: join(dir, ".mcp.json.backup") });
    expect(read(join(dir, ".mcp.json.backup"))).toBe('{"mcpServers": {');
    expect(readJson(join(dir, ".mcp.json")).mcpServers.pml.command).toBe(launch.command);
  });

  test("--force on a broken file keeps an earlier backup (maybe the only copy of the original): the new one gets a new name", async () => {
    const dir = tempDir();
    const original = '{"mcpServers": {"mine": {"command": "mine"}}}';
    writeFileSync(join(dir, ".mcp.json"), original);
    await initProject({ dir, launch, env: {} });
    expect(read(join(dir, ".mcp.json.backup"))).toBe(original);
    writeFileSync(join(dir, ".mcp.json"), '{"mcpServers": {');
    writeFileSync(join(dir, ".pml.json.backup"), '{"permissions": {"deny": ["shell"]}}');
    writeFileSync(join(dir, ".pml.json"), "{ nope");
    const r = await initProject({ dir, launch, env: {}, force: true });
    expect(r.mcpJson).toMatchObject({ action: "replaced", backup: join(dir, ".mcp.json.backup.1") });
    expect(read(join(dir, ".mcp.json.backup"))).toBe(original);
    expect(read(join(dir, ".mcp.json.backup.1"))).toBe('{"mcpServers": {');
    expect(r.pmlJson).toMatchObject({ action: "replaced", backup: join(dir, ".pml.json.backup.1") });
    expect(read(join(dir, ".pml.json.backup"))).toBe('{"permissions": {"deny": ["shell"]}}');
    expect(read(join(dir, ".pml.json.backup.1"))).toBe("{ nope");
    // The same broken content again: its backup exists already, nothing new.
    writeFileSync(join(dir, ".mcp.json"), '{"mcpServers": {');
    const again = await initProject({ dir, launch, env: {}, force: true });
    expect(again.mcpJson.backup).toBe(join(dir, ".mcp.json.backup.1"));
    expect(
      readdirSync(dir)
        .filter((f) => f.startsWith(".mcp.json.backup"))
        .sort(),
    ).toEqual([".mcp.json.backup", ".mcp.json.backup.1"]);
  });

  test("prompts: declining the .mcp.json change leaves it (and makes no backup); an entered key is stored", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".mcp.json"), '{"mcpServers": {}}');
    const asked: string[] = [];
    const prompts: InitPrompts = {
      confirmMcpChange: async ({ path }) => (asked.push(path), false),
      apiKey: async () => " typed-key \n",
    };
    const r = await initProject({ dir, launch, env: {}, prompts });
    expect(asked).toEqual([join(dir, ".mcp.json")]);
    expect(r.mcpJson.action).toBe("declined");
    expect(read(join(dir, ".mcp.json"))).toBe('{"mcpServers": {}}');
    expect(existsSync(join(dir, ".mcp.json.backup"))).toBe(false);
    expect(read(join(dir, ".env"))).toBe("PML_API_KEY=typed-key\n");

    const skip = tempDir();
    const r2 = await initProject({ dir: skip, launch, env: {}, prompts: { confirmMcpChange: async () => true, apiKey: async () => "" } });
    expect(r2.mode).toBe("local");
    expect(existsSync(join(skip, ".env"))).toBe(false);
  });

  test("a missing --dir is a clear error", async () => {
    await expect(initProject({ dir: join(tempDir(), "nope"), launch, env: {} })).rejects.toThrow(/does not exist/);
  });
});

describe("pml init (command, real process)", () => {
  test("--yes with no terminal: writes the files, pointing at this pml run from source", async () => {
    const dir = tempDir();
    const r = await runCli(["--yes", "--api-key", "sk-cli-key"], dir);
    expect(r.stderr).not.toContain("error");
    expect(r.code).toBe(0);
    const mcp = readJson(join(dir, ".mcp.json"));
    expect(mcp.mcpServers.pml).toEqual({ type: "stdio", command: process.execPath, args: [MAIN, "stdio"], env: { PML_API_KEY: API_KEY_REF } });
    expect(read(join(dir, ".mcp.json"))).not.toContain("sk-cli-key");
    expect(statSync(join(dir, ".env")).mode & 0o777).toBe(0o600);
    expect(read(join(dir, ".gitignore"))).toBe(".env\n.pml/\n");
    expect(r.stdout + r.stderr).toContain("claude mcp list");
  });

  test("no --yes and no terminal: exits non-zero at once, says to use --yes, writes nothing", async () => {
    const dir = tempDir();
    const r = await runCli([], dir);
    expect(r.killed).toBe(false);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("stdin is not a terminal; run `pml init --yes`");
    expect(readdirSync(dir)).toEqual([]);
  });

  test("--dir, and a broken .pml.json makes the command fail after reporting it", async () => {
    const dir = tempDir();
    const project = join(dir, "p");
    mkdirSync(project);
    writeFileSync(join(project, ".pml.json"), "{ nope }");
    const r = await runCli(["--yes", "--dir", project], dir);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(".pml.json:1:3: invalid JSON");
    expect(read(join(project, ".pml.json"))).toBe("{ nope }");
    expect(existsSync(join(project, ".mcp.json"))).toBe(true);
  });
});

describe("pml init (compiled binary)", () => {
  const BIN = resolve(import.meta.dir, "../../dist/pml");
  test.skipIf(!existsSync(BIN))("dist/pml init --yes points .mcp.json at the binary itself", async () => {
    const dir = tempDir();
    const home = tempDir("pml-a-home-");
    const proc = Bun.spawn([BIN, "init", "--yes"], {
      cwd: dir,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "", HOME: home, PML_HOME: join(home, ".pml") },
    });
    const code = await proc.exited;
    expect(await new Response(proc.stderr).text()).not.toContain("rror");
    expect(code).toBe(0);
    expect(readJson(join(dir, ".mcp.json")).mcpServers.pml).toEqual({ type: "stdio", command: BIN, args: ["stdio"] });
    // The schema embedded in the binary is the shipped one.
    expect(readJson(join(dir, ".pml/pml.schema.json"))).toEqual(readJson(resolve(import.meta.dir, "../../schema/pml.schema.json")));
  });
});

describe("pml init (interactive, in a pseudo-terminal)", () => {
  // util-linux `script` gives the child a real terminal; answers are typed once each question shows.
  const SCRIPT = Bun.which("script");
  test.skipIf(!SCRIPT || process.platform !== "linux")("asks for the key (hidden), before changing .mcp.json; after n, says to run init again", async () => {
    const dir = tempDir();
    const home = tempDir("pml-a-home-");
    writeFileSync(join(dir, ".mcp.json"), '{"mcpServers": {"other": {"command": "x"}}}');
    const cmd = `'${process.execPath}' '${MAIN}' init`;
    const proc = Bun.spawn([SCRIPT!, "-qec", cmd, "/dev/null"], {
      cwd: dir,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: process.env.PATH ?? "", HOME: home, PML_HOME: join(home, ".pml"), TERM: "dumb", NO_COLOR: "1" },
    });
    const guard = setTimeout(() => proc.kill(), 30_000);
    let seen = "";
    const reader = proc.stdout.getReader();
    const waitFor = async (text: string) => {
      while (!seen.includes(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`pml init ended before asking "${text}"; output:\n${seen}`);
        seen += new TextDecoder().decode(value);
      }
    };
    try {
      await waitFor("PML API key");
      proc.stdin.write("sk-typed-key\r");
      await waitFor("[Y/n]");
      proc.stdin.write("n\r");
      expect(await proc.exited).toBe(0);
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
    } finally {
      clearTimeout(guard);
      proc.kill();
    }
    // The next step follows what was done: .mcp.json does not start pml, so restarting is not it.
    expect(seen).not.toContain("restart Claude Code");
    expect(seen).not.toMatch(/ERROR|undefined/);
    expect(seen).toContain("Next: .mcp.json was left as it was, so Claude Code will not start pml here");
    expect(seen).toMatch(/run `?pml init`? again and answer y/);
    expect(seen).not.toContain("sk-typed-key"); // hidden input
    expect(read(join(dir, ".env"))).toBe("PML_API_KEY=sk-typed-key\n");
    expect(read(join(dir, ".mcp.json"))).toBe('{"mcpServers": {"other": {"command": "x"}}}'); // declined
    expect(existsSync(join(dir, ".mcp.json.backup"))).toBe(false);
  });
});
