// Issue 9, finding 2: `.pml/audit.log -> ~/.bashrc` in a cloned repository, then a denied call
// named `shell:exec$(id>/tmp/x)`: the line went into the user's .bashrc and ran when sourced.
// Through the compiled pml (with a temporary HOME): the link's target is untouched and stderr says
// why; the audit log's lines run nothing when a shell sources them; pml's other writes in a
// workspace (.pml.json "Always", init's .mcp.json, .gitignore, .pml/) refuse links too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureGitignored } from "../../src/config/gitignore.ts";
import { SymlinkRefusedError } from "../../src/fs/no-follow.ts";
import { updateProjectConfig } from "../../src/config/pml-json.ts";
import { auditLine } from "../../src/sandbox/audit.ts";
import { BIN, entries, rejection, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { waitFor } from "../helpers/wait.ts";

const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
let ws: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
let pmlHome: ReturnType<typeof tempDir>;
const BASHRC = "# the user's start-up file\nexport EDITOR=vi\n";

beforeAll(() => {
  ws = tempDir("pml-sec-own-");
  home = tempDir("pml-sec-fakehome-");
  pmlHome = tempDir("pml-sec-pmlhome-");
  writeFileSync(join(home.path, ".bashrc"), BASHRC);
});
afterAll(() => {
  for (const d of [ws, home, pmlHome]) d?.cleanup();
});

async function connect() {
  const c = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: pmlHome.path, HOME: home.path }) });
  return c;
}

describe("the audit log", () => {
  test(".pml/audit.log -> ~/.bashrc: denied calls and refused paths leave the target untouched, stderr says why", async () => {
    mkdirSync(join(ws.path, ".pml"), { recursive: true });
    symlinkSync(join(home.path, ".bashrc"), join(ws.path, ".pml/audit.log"));
    await writeTrustedConfig(ws.path, { permissions: { allow: ["filesystem"], deny: ["shell"] } }, pmlHome.path);
    const c = await connect();
    try {
      const denied: any = await c.client.callTool({ name: "shell:exec$(id>/tmp/x)", arguments: { command: "true" } });
      expect(denied.isError).toBe(true);
      const shell: any = await c.client.callTool({ name: "shell__exec", arguments: { command: "true" } });
      expect(text(shell)).toContain("denied");
      const outside: any = await c.client.callTool({ name: "filesystem__read_file", arguments: { path: "../$(id)/x" } });
      expect(outside.isError).toBe(true);
      // The audit log is written after the answer: wait until pml has tried and refused it.
      await waitFor(() => c.stderr().includes(".pml/audit.log is a symbolic link"), { timeoutMs: 10_000, what: "the refusal on stderr" }).catch(() => {});
      expect(readFileSync(join(home.path, ".bashrc"), "utf8")).toBe(BASHRC);
      expect(lstatSync(join(ws.path, ".pml/audit.log")).isSymbolicLink()).toBe(true);
      expect(c.stderr()).toContain(".pml/audit.log is a symbolic link");
      expect(c.stderr()).toContain("Remove the link");
    } finally {
      await c.transport.close();
    }
  });

  test("a linked .pml folder is not written through either", async () => {
    rmSync(join(ws.path, ".pml"), { recursive: true, force: true });
    mkdirSync(join(home.path, "elsewhere"));
    symlinkSync(join(home.path, "elsewhere"), join(ws.path, ".pml"));
    const c = await connect();
    try {
      await c.client.callTool({ name: "shell__exec", arguments: { command: "true" } });
      // The audit log is written after the answer: wait until pml has tried and refused it.
      await waitFor(() => c.stderr().includes(".pml is a symbolic link"), { timeoutMs: 10_000, what: "the refusal on stderr" }).catch(() => {});
      expect(existsSync(join(home.path, "elsewhere/audit.log"))).toBe(false);
      expect(c.stderr()).toContain(".pml is a symbolic link");
    } finally {
      await c.transport.close();
      rmSync(join(ws.path, ".pml"));
    }
  });

  test("without links: .pml/ is created 0700, lines are JSON, and sourcing the log runs nothing", async () => {
    const marker = join(home.path, "ran");
    const c = await connect();
    try {
      await c.client.callTool({ name: "shell__exec", arguments: { command: "true" } });
      await c.client.callTool({ name: "filesystem__read_file", arguments: { path: `../$(touch ${marker})/\`touch ${marker}\`` } });
      // The audit log is written after the answer: wait for the refused path's line.
      const audit = join(ws.path, ".pml/audit.log");
      await waitFor(() => existsSync(audit) && readFileSync(audit, "utf8").includes(`touch ${marker}`), { timeoutMs: 10_000, what: "the audit line" }).catch(() => {});
    } finally {
      await c.transport.close();
    }
    expect(statSync(join(ws.path, ".pml")).mode & 0o777).toBe(0o700);
    const log = readFileSync(join(ws.path, ".pml/audit.log"), "utf8");
    const lines = log
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.some((l) => l.attempted.includes(`$(touch ${marker})`))).toBe(true);
    expect(log).not.toContain("$");
    expect(log).not.toContain("`");
    for (const shell of ["/bin/sh", "/bin/bash"]) {
      if (!existsSync(shell)) continue;
      Bun.spawnSync([shell, "-c", `. ${JSON.stringify(join(ws.path, ".pml/audit.log"))}`], { env: { PATH: process.env.PATH ?? "" }, stderr: "ignore", stdout: "ignore" });
    }
    expect(existsSync(marker)).toBe(false);
  });

  test("auditLine escapes what a shell or terminal would act on, and stays the same JSON", () => {
    const entry = { tool: "shell:exec$(id>/tmp/x)", attempted: "read `id` \u009b31m \u2028", reason: "r" };
    const line = auditLine(entry);
    expect(line).not.toMatch(/[$`\u009b\u2028]/);
    expect(JSON.parse(line)).toMatchObject(entry);
  });
});

describe("pml's other files in a workspace", () => {
  test(".pml.json 'Always' updates, .gitignore and init's .mcp.json refuse a symlink to a file outside", async () => {
    const dir = tempDir("pml-sec-own2-");
    try {
      writeFileSync(join(home.path, "target.json"), "{}\n");
      symlinkSync(join(home.path, "target.json"), join(dir.path, ".pml.json"));
      const e = await rejection(updateProjectConfig(dir.path, (raw) => void (raw.permissions = { allow: ["x"] })));
      expect(e).toBeInstanceOf(SymlinkRefusedError);
      expect(readFileSync(join(home.path, "target.json"), "utf8")).toBe("{}\n");

      writeFileSync(join(home.path, "ignore"), "keep\n");
      symlinkSync(join(home.path, "ignore"), join(dir.path, ".gitignore"));
      expect(await rejection(ensureGitignored(dir.path, ".env"))).toBeInstanceOf(SymlinkRefusedError);
      expect(readFileSync(join(home.path, "ignore"), "utf8")).toBe("keep\n");

      writeFileSync(join(home.path, "claude.json"), '{"mcpServers": {}}\n');
      symlinkSync(join(home.path, "claude.json"), join(dir.path, ".mcp.json"));
      rmSync(join(dir.path, ".pml.json"));
      const init = Bun.spawnSync([BIN, "init", "--yes"], { cwd: dir.path, env: testEnv({ PML_HOME: pmlHome.path, HOME: home.path }), stdin: "ignore" });
      expect(init.exitCode).not.toBe(0);
      expect(init.stderr.toString()).toContain("is a symbolic link");
      expect(readFileSync(join(home.path, "claude.json"), "utf8")).toBe('{"mcpServers": {}}\n');
    } finally {
      dir.cleanup();
    }
  });
});
