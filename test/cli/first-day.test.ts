// Issue 12 points 6, 7, 8, 9 and 15 as a new user met them, against the real binary.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, tempDir, testEnv } from "../helpers/pml.ts";
import { waitFor } from "../helpers/wait.ts";

const dirs: { cleanup(): void }[] = [];
afterAll(() => dirs.forEach((d) => d.cleanup()));
const temp = () => {
  const d = tempDir();
  dirs.push(d);
  return d.path;
};

function pml(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const home = temp();
  const r = Bun.spawnSync([BIN, ...args], { cwd: opts.cwd ?? home, env: testEnv({ PML_HOME: home, ...opts.env }), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

test("an unknown flag fails with the command's usage and a 'did you mean'", () => {
  const serve = pml(["serve", "--prot", "1234"]);
  expect(serve.code).toBe(2);
  expect(serve.stderr).toContain("USAGE pml serve");
  expect(serve.stderr).toContain("pml serve: unknown option --prot (did you mean --port?)");
  for (const args of [
    ["init", "--bogus"],
    ["stdio", "--foo"],
    ["registry", "serve", "--dat", "x"],
  ]) {
    const r = pml(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`unknown option ${args.at(-1) === "x" ? "--dat" : args.at(-1)}`);
  }
  expect(pml(["registry", "serve", "--dat", "x"]).stderr).toContain("did you mean --data?");
  expect(pml(["doctr"]).stderr).toContain('did you mean "doctor"?');
});

test("PML_LOG with a typo is said, with the valid levels", () => {
  const r = pml(["doctor"], { env: { PML_LOG: "verbose" } });
  expect(r.stderr).toContain("PML_LOG=verbose is not a level; use one of error, warn, info, debug");
});

test("help: whole command names, no colours when piped", () => {
  const r = pml(["registry", "serve", "--help"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("USAGE pml registry serve");
  expect(r.stdout).not.toContain("\u001b[");
  expect(pml(["--help"]).stdout).not.toContain("\u001b[");
});

test("pml init: a bad --port is refused; a folder it cannot write is one sentence, no stack trace", () => {
  const dir = temp();
  const port = pml(["init", "--yes", "--http", "--port", "abc", "--dir", dir]);
  expect(port.code).toBe(2);
  expect(port.stderr).toBe("pml init: --port abc: expected a port number from 1 to 65535.\n");
  const ro = pml(["init", "--yes", "--dir", "/sys/kernel"]);
  expect(ro.code).toBe(1);
  expect(ro.stderr.trim().split("\n")).toHaveLength(1);
  expect(ro.stderr).toMatch(/^pml init: (permission denied|the file system is read-only) \(\/sys\/kernel\)/);
  // With PML_LOG=debug the stack is there for a bug report.
  expect(pml(["init", "--yes", "--dir", "/sys/kernel"], { env: { PML_LOG: "debug" } }).stderr).toContain("    at ");
});

test("pml doctor works on a project set up with pml init --yes --http", () => {
  const dir = temp();
  mkdirSync(join(dir, ".git"));
  expect(pml(["init", "--yes", "--http", "--port", "7444"], { cwd: dir }).code).toBe(0);
  const r = pml(["doctor"], { cwd: dir, env: { PML_WORKSPACE: dir } });
  expect(r.stdout + r.stderr).toContain("pml entry connects to http://127.0.0.1:7444/mcp; start it with `pml serve --port 7444`");
  expect(r.stdout + r.stderr).not.toContain("undefined");
});

test(".mcp.json says `pml` when the pml on PATH is this binary, the absolute path otherwise; .pml/ is git-ignored; one backup", () => {
  const bin = temp();
  symlinkSync(BIN, join(bin, "pml"));
  const dir = temp();
  writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { other: { command: "x" } } }));
  expect(pml(["init", "--yes"], { cwd: dir, env: { PATH: `${bin}:/usr/bin:/bin` } }).code).toBe(0);
  expect(JSON.parse(readFileSync(join(dir, ".mcp.json"), "utf8")).mcpServers.pml.command).toBe("pml");
  expect(readFileSync(join(dir, ".gitignore"), "utf8")).toContain(".pml/");

  const other = temp();
  expect(pml(["init", "--yes"], { cwd: other, env: { PATH: "/usr/bin:/bin" } }).code).toBe(0);
  expect(JSON.parse(readFileSync(join(other, ".mcp.json"), "utf8")).mcpServers.pml.command).toBe(BIN);
});

test("unknown .pml.json keys are warned about with the closest known key: stderr, status, doctor", async () => {
  const dir = temp();
  writeFileSync(join(dir, ".pml.json"), JSON.stringify({ permisions: { allow: ["filesystem:read_file"] }, registry: ["https://r.example"], sandbox: { timeout: 5 } }));
  const doctor = pml(["doctor"], { cwd: dir, env: { PML_WORKSPACE: dir } });
  expect(doctor.stdout).toContain('"permisions" is not a .pml.json key (did you mean "permissions"?)');
  expect(doctor.stdout).toContain('"registry" is not a .pml.json key (did you mean "registries"?)');
  expect(doctor.stdout).toContain('"sandbox.timeout" is not a .pml.json key (did you mean "sandbox.timeout_ms"?)');
  const { RawPeer } = await import("../helpers/pml.ts");
  const peer = new RawPeer([BIN], { cwd: dir, env: testEnv({ PML_WORKSPACE: dir, PML_HOME: temp() }) });
  try {
    await peer.initialize();
    const r = await peer.request(2, "tools/call", { name: "status", arguments: {} });
    const st = r.result.structuredContent ?? JSON.parse(r.result.content[0].text);
    expect(st.config.warnings.join("\n")).toContain('did you mean "permissions"');
    await waitFor(() => peer.stderr.includes('"permisions" is not a .pml.json key'), { timeoutMs: 5000, what: "the warning on stderr" }).catch(() => {});
    expect(peer.stderr).toContain('"permisions" is not a .pml.json key');
  } finally {
    peer.kill();
  }
});

test("doctor --dir on a folder that does not exist says so", () => {
  const r = pml(["doctor", "--dir", "/nonexistent-pml"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe("pml doctor: --dir /nonexistent-pml: no such directory; give the project's folder.\n");
});

// Issue 45 item 6: every successful init printed " ERROR  undefined" and "Fix it (pml did not touch it)…".
test("pml init --yes in a fresh git repository, and again on it: no error line, and the next step is to restart Claude Code", () => {
  const dir = temp();
  expect(Bun.spawnSync(["git", "init", "-q", dir]).exitCode).toBe(0);
  for (const run of ["created", "kept"]) {
    const r = pml(["init", "--yes"], { cwd: dir });
    const out = r.stdout + r.stderr;
    expect(r.code).toBe(0);
    expect(out).not.toMatch(/error|undefined|Fix it/i);
    expect(out).toContain(run === "created" ? "created" : "kept the existing");
    expect(out).toContain("restart Claude Code in this folder");
  }
});

test("pml --help lists --version; pml alone prints the help on stdout and exits 0", () => {
  const help = pml(["--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/--version/);
  const bare = pml([]);
  expect(bare.code).toBe(0);
  expect(bare.stdout).toContain("USAGE pml");
  expect(bare.stdout).toContain("--version");
  expect(bare.stderr).toBe("");
  // A group alone (`pml registry`) is the same question about it.
  const group = pml(["registry"]);
  expect(group.code).toBe(0);
  expect(group.stdout).toContain("USAGE pml registry");
  expect(pml(["--version"]).stdout).toMatch(/^pml v?\d/);
});
