// The binary's command line: --version, --help on every command, unknown commands, doctor.
import { expect, test } from "bun:test";
import { cpSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { hostTarget } from "../../src/version.ts";
import { BIN, BUN, ROOT, tempDir, testEnv } from "../helpers/pml.ts";

const run = (args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) => {
  const r = Bun.spawnSync([BIN, ...args], { cwd: opts.cwd, env: opts.env ?? testEnv(), stdin: "ignore" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
};

test("--version prints the version and the target baked in at build time", () => {
  expect(run(["--version"]).out).toBe(`pml ${pkg.version} (${hostTarget()})\n`);
  expect(run(["-v"]).out).toBe(`pml ${pkg.version} (${hostTarget()})\n`);
});

test("--help works on pml and on every command", () => {
  for (const args of [[], ["init"], ["stdio"], ["serve"], ["registry"], ["registry", "serve"], ["trust"], ["doctor"], ["licenses"], ["ui"]]) {
    const r = run([...args, "--help"]);
    expect({ args, code: r.code }).toEqual({ args, code: 0 });
    expect(r.out + r.err).toContain("USAGE");
  }
});

test("from a source checkout not built yet: --help works, and licenses says to build first", () => {
  const checkout = tempDir();
  try {
    cpSync(join(ROOT, "src"), join(checkout.path, "src"), { recursive: true });
    cpSync(join(ROOT, "package.json"), join(checkout.path, "package.json"));
    symlinkSync(join(ROOT, "node_modules"), join(checkout.path, "node_modules"));
    rmSync(join(checkout.path, "src/cli/generated"), { recursive: true, force: true });
    const source = (args: string[]) => {
      const r = Bun.spawnSync([BUN, join(checkout.path, "src/main.ts"), ...args], { cwd: checkout.path, env: testEnv(), stdin: "ignore" });
      return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
    };
    const help = source(["--help"]);
    expect({ code: help.code, err: help.err }).toEqual({ code: 0, err: "" });
    expect(help.out).toContain("licenses");
    const licenses = source(["licenses"]);
    expect(licenses.code).toBe(1);
    expect(licenses.out).toBe("");
    expect(licenses.err).toContain("bun build.ts");
  } finally {
    checkout.cleanup();
  }
});

test("an unknown command fails and lists the commands", () => {
  for (const bogus of ["bogus", "constructor", "toString"]) {
    const r = run([bogus]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`unknown command "${bogus}"`);
    expect(r.err).toContain("init, stdio, serve, registry, trust, doctor, licenses, ui");
  }
});

test("ui: a port that is not one is refused before anything listens", () => {
  const r = run(["ui", "--no-open", "--port", "80x"]);
  expect(r.code).toBe(1);
  expect(r.err).toContain("--port 80x: expected an integer from 0 to 65535");
  expect(r.out).toBe("");
});

test("doctor: says what is missing, then passes after init", () => {
  const ws = tempDir();
  try {
    writeFileSync(join(ws.path, "package.json"), "{}");
    const env = testEnv({ PML_HOME: join(ws.path, ".home") });
    const before = run(["doctor"], { cwd: ws.path, env });
    expect(before.code).toBe(1);
    expect(before.out).toMatch(/FAIL\s+\.mcp\.json: not found; run `pml init`/);
    expect(run(["init", "--yes"], { cwd: ws.path, env }).code).toBe(0);
    const after = run(["doctor"], { cwd: ws.path, env });
    expect(after.out).toMatch(/ok\s+\.mcp\.json: pml entry runs/);
    expect(after.out).toMatch(/warn\s+mode: local only/);
    expect(after.code).toBe(0);
    writeFileSync(join(ws.path, ".pml.json"), "{ nope");
    const broken = run(["doctor"], { cwd: ws.path, env });
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/FAIL\s+\.pml\.json: .*\.pml\.json:1:\d+/);
  } finally {
    ws.cleanup();
  }
});

test("doctor: a pattern for a misspelled namespace and a private server's unset variable are flagged", () => {
  const ws = tempDir();
  try {
    const env = testEnv({ PML_HOME: join(ws.path, ".home") });
    expect(run(["init", "--yes"], { cwd: ws.path, env }).code).toBe(0);
    const cfg = {
      permissions: { allow: ["greet:*", "acme.tools:run"], ask: [], deny: ["memroy:delete_entities", "memory:delete_relations"] },
      private_mcps: {
        greet: { command: "node", args: ["greet.js"], env: { PREFIX: "${GREET_PREFIX}", TOKEN: "${GREET_TOKEN}", MODE: "${GREET_MODE:-plain}" } },
      },
    };
    writeFileSync(join(ws.path, ".pml.json"), JSON.stringify(cfg));
    writeFileSync(join(ws.path, ".env"), "GREET_TOKEN=abc123\n");
    const r = run(["doctor"], { cwd: ws.path, env });
    expect(r.out).toMatch(
      /warn\s+permissions: deny pattern "memroy:delete_entities" names the namespace "memroy", which pml does not know, so it protects nothing; did you mean "memory"\?/,
    );
    expect(r.out).not.toContain('"memory:delete_relations"');
    expect(r.out).not.toMatch(/permissions: .*acme\.tools/);
    expect(r.out).toMatch(/warn\s+private_mcps: greet needs the variable GREET_PREFIX, which is not set/);
    expect(r.out).not.toMatch(/private_mcps: .*(GREET_TOKEN|GREET_MODE)/);
  } finally {
    ws.cleanup();
  }
});

test("registry serve: a bad --port and a missing data directory are clear errors", () => {
  const bad = run(["registry", "serve", "--data", "/nonexistent-pml-dir", "--port", "0"]);
  expect(bad.code).not.toBe(0);
  expect(bad.err).toMatch(/nonexistent-pml-dir/);
  const port = run(["registry", "serve", "--data", "/tmp", "--port", "http"]);
  expect(port.code).not.toBe(0);
  expect(port.err).toContain("--port http");
});
