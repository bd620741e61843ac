// Bun's auto-install: where no node_modules folder is above a module, the Bun runtime fetches a
// bare import it cannot resolve from the npm registry, at run time, unpinned, from whatever
// registry the working directory's .npmrc names (the workspace: a cloned repository's file). pml
// runs npm servers and private `bun` servers on that runtime, so an integrity-pinned server that
// imports a module it generates outside its own folder (or a private server run where nothing is
// installed) ran a package nobody pinned. The compiled pml, a stand-in npm registry on 127.0.0.1.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packPackage, startRegistry, type FakeRegistry } from "../loader/npm-registry.ts";
import { fixtureServer } from "../pool/helpers.ts";
import { BIN, BUN, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const ws = tempDir("pml-autoinst-ws-");
const home = tempDir("pml-autoinst-home-");
const pkgDir = tempDir("pml-autoinst-pkgs-");
const marker = join(pkgDir.path, "unpinned-ran.txt");
let reg: FakeRegistry;
let peer: RawPeer;

/** Imports the package nobody pinned from a module with no node_modules above it; the server runs
 * either way (a failed import is caught), so only the registry and the marker tell. */
const importsUnpinned = (from: string) =>
  `const { writeFileSync } = await import("node:fs");\n` +
  `const gen = ${from};\n` +
  `writeFileSync(gen, 'await import("pml-unpinned").catch(() => {});\\n');\n` +
  `await import(gen);\n`;

beforeAll(async () => {
  const unpinned = packPackage(pkgDir.path, {
    "package.json": JSON.stringify({ name: "pml-unpinned", version: "9.9.9", type: "module", main: "index.js" }),
    "index.js": `import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(marker)}, "ran in " + process.argv.slice(1).join(" ") + "\\n");\n`,
  });
  const server = packPackage(pkgDir.path, {
    "package.json": JSON.stringify({ name: "@pml-test/generating-server", version: "1.0.0", type: "module", bin: { "generating-server": "bin.js" } }),
    // A module it writes to the temp folder (as a bundler or a config loader does) and imports.
    "bin.js": `${importsUnpinned('(await import("node:path")).join((await import("node:os")).tmpdir(), `gen-${process.pid}.mjs`)')}await import("./fixture-server.js");\n`,
    "fixture-server.js": readFileSync(fixtureServer, "utf8"),
  });
  reg = startRegistry([unpinned, server]);
  // The cloned repository names the registry its packages come from.
  writeFileSync(join(ws.path, ".npmrc"), `registry=${reg.url}/\n`);
  writeFileSync(join(ws.path, "server.mjs"), `await import("pml-unpinned").catch(() => {});\nawait import(${JSON.stringify(fixtureServer)});\n`);
  await writeTrustedConfig(
    ws.path,
    {
      permissions: { allow: ["npmfx", "bunfx"] },
      private_mcps: {
        npmfx: { type: "stdio", package: { registryType: "npm", identifier: "@pml-test/generating-server", version: "1.0.0" }, integrity: server.integrity },
        bunfx: { command: BUN, args: [join(ws.path, "server.mjs")] },
      },
    },
    home.path,
  );
  peer = new RawPeer([BIN], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, PML_NPM_REGISTRY: reg.url, HOME: home.path }) });
  await peer.initialize();
});
beforeEach(() => {
  reg.hits.length = 0;
  rmSync(marker, { force: true });
});
afterAll(() => {
  peer?.kill();
  reg?.stop();
  for (const d of [ws, home, pkgDir]) d.cleanup();
});

const echo = async (id: number, tool: string) => (await peer.request(id, "tools/call", { name: tool, arguments: { text: "hi" } })).result.content[0].text;
const unpinnedHits = () => reg.hits.filter((h) => h.startsWith("/pml-unpinned"));
const ran = () => (existsSync(marker) ? readFileSync(marker, "utf8") : "");

test("an integrity-pinned npm server cannot have the runtime fetch and run a package nobody pinned", async () => {
  expect(await echo(1, "npmfx__echo")).toBe("hi");
  expect(unpinnedHits()).toEqual([]);
  expect(ran()).toBe("");
}, 120_000);

test("nor can a private server whose command is bun, run where nothing is installed", async () => {
  expect(await echo(2, "bunfx__echo")).toBe("hi");
  expect(unpinnedHits()).toEqual([]);
  expect(ran()).toBe("");
}, 60_000);
