// Issue 47 item 4: a folder with HEAD, objects/ and refs/ is a bare repository to git, which reads
// its `config` (and runs the programs it names: a pager, an alias, an fsmonitor) when the user runs
// git in that folder. So writing one is writing a `.git/`: the filesystem tool cannot add the last
// of the three parts, nor write inside a folder that already has them; other folders stay writable.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { BIN, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const ws = tempDir();
const home = tempDir();
let client: Client;
const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
const noGit = !Bun.which("git");
const git = (cwd: string, ...args: string[]) => Bun.spawnSync(["git", ...args], { cwd, env: { ...process.env, HOME: home.path, GIT_CONFIG_NOSYSTEM: "1" } });
const PLANTED = '[core]\n\tpager = "touch ran-by-git; cat"\n';
const write = (path: string, content: string) => client.callTool({ name: "filesystem__write_file", arguments: { path, content } });
const mkdir = (path: string) => client.callTool({ name: "filesystem__create_directory", arguments: { path } });

beforeAll(async () => {
  if (noGit) return;
  git(ws.path, "init", "-q");
  await writeTrustedConfig(ws.path, { permissions: { allow: ["filesystem"] } }, home.path);
  ({ client } = await sdkClient([BIN], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, HOME: home.path }) }));
});
afterAll(async () => {
  await client?.close();
  ws.cleanup();
  home.cleanup();
});

test.skipIf(noGit)("the part that would make a folder a bare repository is refused, so git never reads the planted config", async () => {
  expect((await write("plant/config", PLANTED)).isError).toBeFalsy();
  expect((await write("plant/HEAD", "ref: refs/heads/main\n")).isError).toBeFalsy();
  expect((await mkdir("plant/objects")).isError).toBeFalsy();
  const last: any = await mkdir("plant/refs");
  expect(last.isError).toBe(true);
  expect(text(last)).toContain("protected");
  expect(existsSync(join(ws.path, "plant/refs"))).toBe(false);
  // Git does not take the folder for a repository: its config is not the one that applies there.
  expect(git(join(ws.path, "plant"), "config", "core.pager").stdout.toString()).toBe("");
});

test.skipIf(noGit)("inside a folder that already is one (made outside pml), its config and parts cannot be written", async () => {
  const bare = join(ws.path, "vendor/bare");
  mkdirSync(join(bare, "objects"), { recursive: true });
  mkdirSync(join(bare, "refs"));
  writeFileSync(join(bare, "HEAD"), "ref: refs/heads/main\n");
  expect(git(bare, "rev-parse", "--git-dir").stdout.toString().trim()).toBe(".");
  for (const path of ["vendor/bare/config", "vendor/bare/HEAD", "vendor/bare/refs/heads/main", "vendor/bare/hooks/x"]) {
    const r: any = await write(path, PLANTED);
    expect(r.isError, path).toBe(true);
    expect(text(r), path).toContain("protected");
  }
  expect(existsSync(join(bare, "config"))).toBe(false);
});

test.skipIf(noGit)("folders with only some of the parts, or a HEAD that is not git's, stay writable", async () => {
  expect((await write("docs/refs/index.md", "# refs")).isError).toBeFalsy();
  expect((await write("docs/objects/a.txt", "a")).isError).toBeFalsy();
  expect((await write("docs/HEAD", "just a file called HEAD")).isError).toBeTruthy(); // would complete the shape
  expect((await write("notes/HEAD", "a heading")).isError).toBeFalsy();
  expect((await mkdir("notes/objects")).isError).toBeFalsy();
  expect((await mkdir("notes/refs")).isError).toBeFalsy(); // HEAD is not git's: not a repository
});
