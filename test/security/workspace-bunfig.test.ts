// A cloned repository's `bunfig.toml`: Bun reads the one in its working directory, and pml starts an
// npm tool server (and a private server whose command is bun) on its own runtime in the workspace,
// so a `preload` there ran the repository's code inside the server, before it, with every variable
// the user granted that server (its API keys), confined or not. Code sent to `execute` can write
// that file too. The compiled pml, a stand-in npm registry, the fixture server packed as a package.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixturePackages, startRegistry, type FakeRegistry } from "../loader/npm-registry.ts";
import { fixtureServer } from "../pool/helpers.ts";
import { BIN, BUN, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const ws = tempDir("pml-bunfig-ws-");
const home = tempDir("pml-bunfig-home-");
const pkgDir = tempDir("pml-bunfig-pkgs-");
const marker = join(ws.path, "preloaded.txt");
let reg: FakeRegistry;
let peer: RawPeer;

beforeAll(async () => {
  const pkgs = fixturePackages(pkgDir.path, fixtureServer);
  const package_ = { registryType: "npm", identifier: "@pml-test/fixture-server", version: "1.2.3" };
  reg = startRegistry([pkgs.dep, pkgs.server]);
  writeFileSync(join(ws.path, "bunfig.toml"), 'preload = ["./evil.js"]\n');
  writeFileSync(join(ws.path, "evil.js"), `require("node:fs").appendFileSync(${JSON.stringify(marker)}, "ran in " + process.argv.slice(1).join(" ") + "\\n");\n`);
  mkdirSync(join(ws.path, "node_modules/pml-fixture-bin"), { recursive: true });
  writeFileSync(join(ws.path, "node_modules/pml-fixture-bin/package.json"), JSON.stringify({ name: "pml-fixture-bin", version: "1.0.0", bin: { "pml-fixture-bin": "./bin.js" } }));
  writeFileSync(join(ws.path, "node_modules/pml-fixture-bin/bin.js"), readFileSync(fixtureServer), { mode: 0o755 });
  mkdirSync(join(ws.path, "node_modules/.bin"));
  symlinkSync("../pml-fixture-bin/bin.js", join(ws.path, "node_modules/.bin/pml-fixture-bin"));
  await writeTrustedConfig(
    ws.path,
    {
      permissions: { allow: ["npmfx", "boxedfx", "bunfx", "bunxfx"] },
      private_mcps: {
        npmfx: { type: "stdio", package: package_, integrity: pkgs.server.integrity },
        boxedfx: { type: "stdio", package: package_, integrity: pkgs.server.integrity, confine: true },
        bunfx: { command: BUN, args: [fixtureServer] },
        // `bun x` refuses a --config: it is started as it was (and the bunfig applies: a known limit).
        bunxfx: { command: BUN, args: ["x", "pml-fixture-bin"] },
      },
    },
    home.path,
  );
  peer = new RawPeer([BIN], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, PML_NPM_REGISTRY: reg.url }) });
  await peer.initialize();
});
afterAll(() => {
  peer?.kill();
  reg?.stop();
  for (const d of [ws, home, pkgDir]) d.cleanup();
});

const echo = async (id: number, tool: string) => (await peer.request(id, "tools/call", { name: tool, arguments: { text: "hi" } })).result.content[0].text;

test("an npm server pml installs and runs on its runtime does not load the workspace's bunfig.toml preload", async () => {
  expect(await echo(1, "npmfx__echo")).toBe("hi");
  expect(existsSync(marker) ? readFileSync(marker, "utf8") : "").toBe("");
}, 120_000);

const bwrapOk = process.platform === "linux" && !!Bun.which("bwrap") && Bun.spawnSync(["bwrap", "--unshare-all", "--ro-bind", "/", "/", "--", "/bin/true"]).exitCode === 0;

test.skipIf(!bwrapOk)(
  "nor the same server confined by bubblewrap",
  async () => {
    expect(await echo(3, "boxedfx__echo")).toBe("hi");
    expect(existsSync(marker) ? readFileSync(marker, "utf8") : "").toBe("");
  },
  60_000,
);

test("nor does a private server whose command is bun", async () => {
  expect(await echo(2, "bunfx__echo")).toBe("hi");
  expect(existsSync(marker) ? readFileSync(marker, "utf8") : "").toBe("");
}, 60_000);

test("pml itself, started in the workspace, does not load it either (compiled with autoloadBunfig off)", async () => {
  const p = Bun.spawn([BIN, "doctor"], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }), stdout: "pipe", stderr: "pipe" });
  await p.exited;
  expect(existsSync(marker) ? readFileSync(marker, "utf8") : "").toBe("");
}, 60_000);

test("a private server started with `bun x` still starts", async () => {
  expect(await echo(5, "bunxfx__echo")).toBe("hi");
}, 60_000);
