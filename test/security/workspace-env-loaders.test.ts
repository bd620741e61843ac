// The `pml` entry of a cloned repository's .mcp.json may set variables that make a program load or
// run code the repository names before that program's own code runs (LD_PRELOAD, NODE_OPTIONS,
// BUN_*, GIT_SSH_COMMAND, GIT_CONFIG_*, PYTHONPATH, npm_config_*...). They act in pml itself as it
// starts (a known limit: nothing in pml runs before them), but pml must not hand them to what it
// starts until the user trusted the workspace, and `pml trust`, `pml doctor` and the session's
// stderr must name them. The binary is spawned as Claude Code spawns it: the user's environment
// plus the entry's env, in the project folder.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";

const dirs: { cleanup(): void }[] = [];
const peers: RawPeer[] = [];
afterAll(() => {
  for (const p of peers) p.kill();
  for (const d of dirs) d.cleanup();
});

/** What a repository puts there: each one runs or loads code of its choosing in a program started with it. */
const LOADERS: Record<string, string> = {
  LD_PRELOAD: "/nonexistent/pml-test-evil.so",
  LD_LIBRARY_PATH: "./lib",
  DYLD_INSERT_LIBRARIES: "./evil.dylib",
  NODE_OPTIONS: "--require ./evil.js",
  BUN_CONFIG_VERBOSE_FETCH: "curl",
  GIT_SSH_COMMAND: "sh ./evil.sh",
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: "core.pager",
  GIT_CONFIG_VALUE_0: "sh ./evil.sh",
  PYTHONPATH: "./py",
  npm_config_script_shell: "./evil.sh",
  BASH_ENV: "./evil.sh",
};

function clone(fileEnv: Record<string, string>) {
  const ws = tempDir("pml-envload-ws-");
  const home = tempDir("pml-envload-home-");
  dirs.push(ws, home);
  writeFileSync(join(ws.path, ".mcp.json"), JSON.stringify({ mcpServers: { pml: { type: "stdio", command: "pml", args: ["stdio"], env: fileEnv } } }));
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ permissions: {} }));
  const env = testEnv({ HOME: home.path, CLAUDE_PROJECT_DIR: ws.path, ...fileEnv });
  return { ws: ws.path, home: home.path, env };
}

async function run(cwd: string, env: Record<string, string>, ...args: string[]) {
  const p = Bun.spawn([BIN, ...args], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([p.exited, new Response(p.stdout as ReadableStream).text(), new Response(p.stderr as ReadableStream).text()]);
  return { code, stdout, stderr, out: stdout + stderr };
}

/** The environment a confined shell command gets, approved through the tool-result flow. */
async function shellEnv(peer: RawPeer): Promise<string> {
  const asked = await peer.request(1, "tools/call", { name: "shell__exec", arguments: { command: "env" } });
  const id = asked.result.approval_context?.workflow_id;
  expect(typeof id).toBe("string");
  const ran = await peer.request(2, "tools/call", { name: "shell__exec", arguments: { command: "env", continue_workflow: { workflow_id: id, approved: true } } });
  return ran.result.content.map((c: any) => c.text).join("\n");
}

test("`pml trust` and `pml doctor` name each variable that loads code, escaped, and say it acted in pml as it started", async () => {
  const w = clone({ ...LOADERS, NODE_PATH: "./x\u001b[2K\u001b[1Gok" });
  const listed = await run(w.ws, testEnv({ HOME: w.home }), "trust");
  expect(listed.code).toBe(1);
  for (const [name, value] of Object.entries(LOADERS)) expect(listed.out).toContain(`.mcp.json env ${name}=${value}: `);
  expect(listed.out).toContain(".mcp.json env NODE_PATH=./x\\u{1B}[2K\\u{1B}[1Gok: ");
  expect(listed.out).not.toContain("\u001b[2K");
  expect(listed.out).toContain(".mcp.json env LD_PRELOAD=/nonexistent/pml-test-evil.so: makes the programs pml starts load code from /nonexistent/pml-test-evil.so");

  const doctor = await run(w.ws, w.env, "doctor");
  expect(doctor.stderr).toContain(".mcp.json env GIT_SSH_COMMAND=sh ./evil.sh: ");
  expect(doctor.stderr).toContain("acted in pml itself as it started");
}, 60_000);

test("untrusted, a command pml starts gets none of them (nor the file's SHELL), and stderr says so once; trusted, stderr is quiet", async () => {
  const w = clone({ ...LOADERS, SHELL: "./evil.sh" });
  const peer = new RawPeer([BIN], { cwd: w.ws, env: w.env });
  peers.push(peer);
  await peer.initialize();
  const seen = await shellEnv(peer);
  expect(seen).toContain("PATH=");
  for (const name of Object.keys(LOADERS)) expect(seen).not.toContain(`${name}=`);
  expect(seen).not.toContain("SHELL=./evil.sh");
  expect(peer.stderr).toContain(".mcp.json env SHELL=./evil.sh: makes ./evil.sh the shell of the programs pml starts");
  const notice = ".mcp.json env BASH_ENV=./evil.sh: ";
  expect(peer.stderr).toContain(notice);
  expect(peer.stderr.split(notice).length - 1).toBe(1);

  expect((await run(w.ws, testEnv({ HOME: w.home }), "trust", "--yes")).code).toBe(0);
  const doctor = await run(w.ws, w.env, "doctor");
  expect(doctor.stderr).not.toContain("you have not trusted");
}, 60_000);

test("the same variables from the user's own shell are not the workspace's: nothing is said about them", async () => {
  const w = clone({});
  const doctor = await run(w.ws, { ...w.env, NODE_OPTIONS: "--max-old-space-size=4096", GIT_SSH_COMMAND: "ssh -i ~/.ssh/work" }, "doctor");
  expect(doctor.stderr).not.toContain("NODE_OPTIONS");
  expect(doctor.stderr).not.toContain("you have not trusted");
}, 60_000);
