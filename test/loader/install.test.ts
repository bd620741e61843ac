import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolError } from "../../src/mcp/tool-result.ts";
import { ensureInstalled, installDir, isInstalled, readDepsState, type InstallOptions } from "../../src/loader/install.ts";
import { Pool } from "../../src/pool/pool.ts";
import type { StdioDescriptor } from "../../src/registry/descriptor.ts";
import { ctx, fixtureServer, isAlive, root, text } from "../pool/helpers.ts";
import { fixturePackages, startRegistry, type FakeRegistry, type PackedPackage } from "./npm-registry.ts";
import { rejection as failure } from "../helpers/pml.ts";
import { userPlan } from "../helpers/env-plan.ts";

let dir: string;
let registry: FakeRegistry;
let pkgs: { server: PackedPackage; dep: PackedPackage; evil: PackedPackage };
let homeN = 0;
const pools: Pool[] = [];

function freshHome(): string {
  const home = join(dir, `home${homeN++}`);
  mkdirSync(home, { recursive: true });
  return home;
}

function envFor(home: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { ...process.env, PML_HOME: home, PML_NPM_REGISTRY: registry.url, ...extra };
}

/** An install of a descriptor the user wrote, planned as the gateway plans one. */
function installAsUser(desc: StdioDescriptor, opts: Omit<InstallOptions, "plan"> & { workspace: string }) {
  return ensureInstalled(desc, { ...opts, plan: userPlan(opts.name ?? "server", desc, { workspace: opts.workspace, env: opts.env }) });
}

function serverDesc(over: Partial<StdioDescriptor> = {}): StdioDescriptor {
  return {
    type: "stdio",
    package: { registryType: "npm", identifier: "@pml-test/fixture-server", version: "1.2.3" },
    integrity: pkgs.server.integrity,
    env_required: [],
    ...over,
  };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pml-install-"));
  pkgs = fixturePackages(dir, fixtureServer);
  registry = startRegistry([pkgs.server, pkgs.dep]);
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.shutdown()));
});
afterAll(() => {
  registry.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("ensureInstalled (npm package, local registry)", () => {
  test("installs, verifies, records deps.json, and the server runs on pml's runtime through the pool", async () => {
    const home = freshHome();
    const postinstallMark = join(dir, "postinstall-ran");
    const env = envFor(home, { FIXTURE_POSTINSTALL_MARK: postinstallMark });
    const progress: string[] = [];
    const spec = await installAsUser(serverDesc(), { env, workspace: dir, progress: (m) => progress.push(m) });
    expect(progress).toEqual(["installing @pml-test/fixture-server@1.2.3", "verifying integrity"]);
    const target = installDir("@pml-test/fixture-server", "1.2.3", env);
    expect(target).toBe(join(home, "deps", "@pml-test/fixture-server@1.2.3"));
    expect(spec.command).toBe(process.execPath);
    // --no-env-file: Bun would otherwise load the workspace .env into the server's environment;
    // --no-install: no unpinned package fetched at run time; --config: and the workspace's
    // bunfig.toml (its preload would run in the server).
    expect(spec.args).toEqual(["--no-env-file", "--no-install", "--config=/dev/null", join(target, "node_modules/@pml-test/fixture-server/bin.js")]);
    expect(spec.env.BUN_BE_BUN).toBe("1");
    expect(spec.cwd).toBe(dir);
    // the dependency came from the registry too
    expect(existsSync(join(target, "node_modules/pml-fixture-dep/index.js"))).toBe(true);
    const state = readDepsState(env);
    expect(state.packages["@pml-test/fixture-server@1.2.3"]).toMatchObject({ integrity: pkgs.server.integrity, dir: target });
    expect(isInstalled(serverDesc(), env)).toBe(true);
    // lifecycle scripts did not run; no temp dirs left behind
    expect(existsSync(postinstallMark)).toBe(false);
    expect(readdirSync(join(home, "deps")).filter((f) => f.startsWith(".tmp-"))).toEqual([]);

    const pool = new Pool({ logDir: join(home, "logs"), workspace: dir });
    pools.push(pool);
    const r = await pool.call("fx", spec, "echo", { text: "installed and running" }, ctx());
    expect(text(r)).toBe("installed and running");

    // a second ensureInstalled is a no-op: no download
    const before = registry.hits.length;
    const again = await installAsUser(serverDesc(), { env, workspace: dir, progress: (m) => progress.push(m) });
    expect(again.args).toEqual(spec.args);
    expect(registry.hits.length).toBe(before);
  });

  test("a tampered tarball: exact message, nothing installed, nothing run", async () => {
    const home = freshHome();
    const mark = join(dir, "evil-ran");
    const env = envFor(home, { FIXTURE_EVIL_MARK: mark });
    registry.tamper("@pml-test/fixture-server", "1.2.3", pkgs.evil.tarball);
    try {
      const err = await failure(installAsUser(serverDesc(), { env, workspace: dir }));
      expect(err).toBeInstanceOf(ToolError);
      expect(err.message).toBe(`Integrity check failed for @pml-test/fixture-server@1.2.3: expected ${pkgs.server.integrity}, got ${pkgs.evil.integrity}`);
    } finally {
      registry.tamper("@pml-test/fixture-server", "1.2.3", pkgs.server.tarball);
    }
    expect(existsSync(mark)).toBe(false);
    expect(existsSync(installDir("@pml-test/fixture-server", "1.2.3", env))).toBe(false);
    const deps = join(home, "deps");
    expect(existsSync(deps) ? readdirSync(deps).filter((f) => f !== ".cache") : []).toEqual([]);
    expect(existsSync(join(home, "deps.json"))).toBe(false);
    expect(isInstalled(serverDesc(), env)).toBe(false);
  });

  test("concurrent first calls install once", async () => {
    const home = freshHome();
    const env = envFor(home);
    const tgz = "/@pml-test/fixture-server/-/fixture-server-1.2.3.tgz";
    const before = registry.hits.filter((h) => h === tgz).length;
    const specs = await Promise.all(Array.from({ length: 5 }, () => installAsUser(serverDesc(), { env, workspace: dir })));
    expect(new Set(specs.map((s) => s.args.at(-1))).size).toBe(1);
    expect(registry.hits.filter((h) => h === tgz).length - before).toBe(1);
  });

  test("two processes racing on one PML_HOME both succeed with one complete install", async () => {
    const home = freshHome();
    const script = join(dir, "race.ts");
    writeFileSync(
      script,
      `import { ensureInstalled } from ${JSON.stringify(join(root, "src/loader/install.ts"))};\n` +
        `import { userPlan } from ${JSON.stringify(join(root, "test/helpers/env-plan.ts"))};\n` +
        `const desc = JSON.parse(process.argv[2]);\n` +
        `const workspace = ${JSON.stringify(dir)};\n` +
        `const spec = await ensureInstalled(desc, { workspace, plan: userPlan("server", desc, { workspace }) });\n` +
        `process.stdout.write(spec.args.at(-1));\n`,
    );
    const env = envFor(home) as Record<string, string>;
    const procs = [0, 1].map(() => Bun.spawn([process.execPath, script, JSON.stringify(serverDesc())], { env, stdout: "pipe", stderr: "pipe" }));
    const outs = await Promise.all(procs.map(async (p) => ({ code: await p.exited, out: await new Response(p.stdout).text(), err: await new Response(p.stderr).text() })));
    for (const o of outs) expect(o).toMatchObject({ code: 0 });
    expect(outs[0]!.out).toBe(outs[1]!.out);
    expect(existsSync(outs[0]!.out)).toBe(true);
    expect(isInstalled(serverDesc(), envFor(home))).toBe(true);
    expect(readdirSync(join(home, "deps")).filter((f) => f.startsWith(".tmp-") || f.includes(".trash-"))).toEqual([]);
  });

  test("a descriptor without integrity is refused before any download", async () => {
    const home = freshHome();
    const before = registry.hits.length;
    const err = await failure(installAsUser(serverDesc({ integrity: undefined }), { env: envFor(home), workspace: dir }));
    expect(err.message).toContain("has no pinned integrity");
    expect(registry.hits.length).toBe(before);
  });

  test("an unknown package names the registry and what to check", async () => {
    const err = await failure(
      installAsUser(serverDesc({ package: { registryType: "npm", identifier: "pml-nope", version: "9.9.9" } }), { env: envFor(freshHome()), workspace: dir }),
    );
    expect(err.message).toContain(`pml-nope@9.9.9 was not found on the npm registry ${registry.url}`);
  });
});

describe("required env vars", () => {
  test("missing: a ToolError naming the variable and where to set it, before any download or start", async () => {
    const home = freshHome();
    const ws = join(dir, "ws-missing");
    mkdirSync(ws);
    const before = registry.hits.length;
    const env = envFor(home);
    delete env.FIXTURE_TOKEN;
    const err = await failure(installAsUser(serverDesc({ env_required: ["FIXTURE_TOKEN"] }), { env, workspace: ws, name: "fx" }));
    expect(err).toBeInstanceOf(ToolError);
    expect(err.message).toBe(
      `MCP server "fx" (@pml-test/fixture-server@1.2.3) needs the environment variable FIXTURE_TOKEN, which is not set. ` +
        `Set it in the "env" of the pml server in .mcp.json, or add FIXTURE_TOKEN=... to the workspace .env file (${join(ws, ".env")}), then retry.`,
    );
    expect(registry.hits.length).toBe(before);
    expect(existsSync(join(home, "deps"))).toBe(false);
  });

  test("found in the workspace .env or the environment: passed to the server", async () => {
    const ws = join(dir, "ws-found");
    mkdirSync(ws);
    writeFileSync(join(ws, ".env"), "FROM_FILE=file-value\n");
    const desc: StdioDescriptor = { type: "stdio", command: process.execPath, args: [fixtureServer], env_required: ["FROM_FILE", "FROM_ENV"] };
    const spec = await installAsUser(desc, { workspace: ws, env: { FROM_ENV: "env-value", PML_HOME: freshHome() } });
    expect(spec.env).toMatchObject({ FROM_FILE: "file-value", FROM_ENV: "env-value" });
    expect((await failure(installAsUser(desc, { workspace: ws, env: {} }))).message).toContain("needs the environment variable FROM_ENV");
  });

  test("command descriptors: placeholders substituted, returned as is", async () => {
    const home = freshHome();
    const desc: StdioDescriptor = { type: "stdio", command: "/bin/echo", args: ["${workspace}", "${pml_home}/x"], env: { A: "${workspace}/a" }, env_required: [] };
    const spec = await installAsUser(desc, { workspace: dir, env: { PML_HOME: home, PATH: "/bin", PML_API_KEY: "k", GITHUB_TOKEN: "t" } });
    // The child inherits the basics (PATH), never pml's own settings or the user's keys.
    expect(spec).toEqual({ command: "/bin/echo", args: [dir, `${home}/x`], env: { PATH: "/bin", A: `${dir}/a` }, cwd: dir });
  });
});

test("the install is not left running: pool shutdown after an installed server leaves no process", async () => {
  const home = freshHome();
  const env = envFor(home);
  const spec = await installAsUser(serverDesc(), { env, workspace: dir });
  const pool = new Pool({ logDir: join(home, "logs"), workspace: dir });
  const pid = Number(text(await pool.call("fx", spec, "pid", {}, ctx())));
  await pool.shutdown();
  expect(isAlive(pid)).toBe(false);
});
