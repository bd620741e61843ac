// `pml try` against the built binary: the tour's six steps, what it leaves behind (nothing outside
// its temporary folders), that it needs no network, --keep, and a step that fails naming itself.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Narrator } from "../../src/tour/narrate.ts";
import { discovered } from "../../src/tour/steps.ts";
import { BIN, entries, tempDir, testEnv } from "../helpers/pml.ts";

const dirs: { cleanup(): void }[] = [];
const temp = () => {
  const d = tempDir("pml-try-test-");
  dirs.push(d);
  return d.path;
};

// Anything that tries the network through a configured endpoint or proxy lands here and is counted.
let connections = 0;
let trap: { port: number; stop(closeActive?: boolean): void } | undefined;
beforeAll(() => {
  trap = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(s) {
        connections++;
        s.end();
      },
      data() {},
    },
  });
});
afterAll(() => {
  trap?.stop(true);
  dirs.forEach((d) => d.cleanup());
});

/** A user's machine in miniature: HOME, the temporary folder, the shell's folder, the user's own
 * PML_HOME and project (which the tour must leave alone), every endpoint pointed at the trap. */
function machine() {
  const m = { home: temp(), tmp: temp(), cwd: temp(), userPmlHome: temp(), userProject: temp() };
  writeFileSync(join(m.userProject, ".pml.json"), JSON.stringify({ permissions: { allow: ["filesystem:read_file"] } }));
  writeFileSync(join(m.userPmlHome, "memory.db"), "");
  const trapUrl = `http://127.0.0.1:${trap!.port}`;
  const env = testEnv({
    HOME: m.home,
    TMPDIR: m.tmp,
    PML_HOME: m.userPmlHome,
    PML_WORKSPACE: m.userProject,
    PML_NPM_REGISTRY: trapUrl,
    npm_config_registry: trapUrl,
    PML_RELEASES_URL: trapUrl,
    HTTP_PROXY: trapUrl,
    HTTPS_PROXY: trapUrl,
    http_proxy: trapUrl,
    https_proxy: trapUrl,
    ALL_PROXY: trapUrl,
    NO_PROXY: "",
    no_proxy: "",
  });
  return { ...m, env };
}

/** Every path under the folders with its size and mtime: what a run wrote shows as a difference. */
function snapshot(...roots: string[]): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = statSync(p);
    out.push(`${p} ${st.isDirectory() ? "dir" : st.size} ${st.mtimeMs}`);
    if (st.isDirectory()) for (const e of readdirSync(p).sort()) walk(join(p, e));
  };
  roots.forEach(walk);
  return out;
}

function pmlTry(args: string[], m: ReturnType<typeof machine>) {
  const r = Bun.spawnSync([BIN, "try", ...args], { cwd: m.cwd, env: m.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

const jsonLines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

test("pml try --json: six steps behave, nothing is written outside its temporary folders, no network", () => {
  const m = machine();
  // The temporary folder's own mtime moves (the tour makes and removes its folder there): its
  // contents are compared instead.
  const before = snapshot(m.home, m.cwd, m.userPmlHome, m.userProject);
  const r = pmlTry(["--json"], m);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const lines = jsonLines(r.stdout);
  const steps = lines.filter((l) => typeof l.step === "number");
  expect(steps.map((s) => [s.step, s.name, s.ok])).toEqual([
    [1, "discover", true],
    [2, "approve", true],
    [3, "execute", true],
    [4, "again", true],
    [5, "rename", true],
    [6, "where", true],
  ]);
  const [discover, approve, execute, again, rename, where] = steps;
  expect(discover.data.picked).toBe("filesystem:read_file");
  expect(discover.data.rank).toBeGreaterThan(0);
  expect(discover.messages.some((x: any) => x.dir === "sent" && x.text.includes('"method":"initialize"'))).toBe(true);
  expect(approve.data.questions.some((q: string) => q.includes("filesystem:read_file"))).toBe(true);
  expect(approve.messages.some((x: any) => x.dir === "got" && x.text.includes("elicitation/create"))).toBe(true);
  expect(approve.messages.some((x: any) => x.dir === "sent" && x.text.includes('"decision":"continue"'))).toBe(true);
  expect(execute.data).toMatchObject({ capability: "fs:read_settings", tool: "cap__fs__read_settings", listed: true });
  expect(execute.data.list_changed).toBeGreaterThan(0);
  expect(execute.data.tools_used).toEqual(["filesystem:read_file", "filesystem:get_file_info"]);
  expect(again.data.second.calls).toBeLessThan(again.data.first.calls);
  expect(again.data.second.bytes).toBeLessThan(again.data.first.bytes);
  expect(again.data.second.approvals).toBe(0);
  expect(rename.data).toMatchObject({ renamed: "fs:read_settings", to: "fs:load_settings", old_name_works: true });
  expect(rename.data.deprecation).toContain("fs:load_settings");
  expect(rename.data.versions).toEqual(["1.0.0"]);
  expect(where.data).toMatchObject({ kept: false, removed: true });
  const done = lines.at(-1);
  expect(done).toMatchObject({ done: true, ok: true, kept: false });
  expect(done.failed_step).toBeUndefined();
  // Its own home and workspace, in the temporary folder, gone afterwards; the user's untouched.
  expect(dirname(done.workspace).startsWith(m.tmp)).toBe(true);
  expect(done.home.startsWith(m.tmp)).toBe(true);
  expect(existsSync(done.workspace)).toBe(false);
  expect(snapshot(m.home, m.cwd, m.userPmlHome, m.userProject)).toEqual(before);
  expect(readdirSync(m.tmp)).toEqual([]);
  expect(connections).toBe(0);
});

test("pml try narrates in plain words with the JSON-RPC; --keep keeps the workspace and its home; --help names it", () => {
  const m = machine();
  const r = pmlTry(["--keep"], m);
  expect(r.code).toBe(0);
  for (const n of [1, 2, 3, 4, 5, 6]) expect(r.stdout).toContain(`\nStep ${n}. `);
  expect(r.stdout).toContain("pml asks the user:");
  expect(r.stdout).toContain("The tour answers Continue");
  expect(r.stdout).toMatch(/ {4}sent {2}\{"jsonrpc":"2\.0","id":\d+,"method":"tools\/call"/);
  expect(r.stdout).toContain("cap__fs__read_settings");
  expect(r.stdout).toContain("pml init");
  expect(r.stdout).not.toContain("\u001b[");
  const workspace = /workspace {2}(\S+)/.exec(r.stdout)?.[1];
  const home = /PML_HOME {3}(\S+)/.exec(r.stdout)?.[1];
  expect(workspace && home).toBeTruthy();
  expect(JSON.parse(readFileSync(join(workspace!, "settings.json"), "utf8"))).toMatchObject({ theme: "dark" });
  expect(existsSync(join(home!, "memory.db"))).toBe(true);
  expect(r.stdout).toContain(`Look at it: PML_HOME=${home} PML_WORKSPACE=${workspace} pml ui`);
  expect(connections).toBe(0);

  const help = Bun.spawnSync([BIN, "--help"], { env: m.env, stdout: "pipe" }).stdout.toString();
  expect(help).toContain("pml try");
  expect(help).toMatch(/\n\s+try\s+See what pml does/);
});

test("a step that does not behave names itself: a --home whose memory.db is not a database stops at step 3", () => {
  const m = machine();
  const home = join(temp(), "pml-home");
  mkdirSync(home);
  const junk = Buffer.from("this is not an SQLite database, and pml must say so rather than pretend".repeat(64));
  writeFileSync(join(home, "memory.db"), junk);
  const r = pmlTry(["--json", "--home", home], m);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("pml try: step 3 (execute) did not behave as expected: execute ran but did not save the capability fs:read_settings");
  const lines = jsonLines(r.stdout);
  expect(lines.filter((l) => typeof l.step === "number").map((s) => [s.step, s.ok])).toEqual([
    [1, true],
    [2, true],
    [3, false],
    [6, true],
  ]);
  expect(lines.at(-1)).toMatchObject({ done: true, ok: false, failed_step: 3, home, kept: false });
  expect(existsSync(lines.at(-1).workspace)).toBe(false);
  // --home is the user's: kept, and its file left as it was.
  expect(readFileSync(join(home, "memory.db")).equals(junk)).toBe(true);
  expect(readdirSync(m.tmp)).toEqual([]);
});

test("from source, pml try starts the source entry as its pml stdio", () => {
  const m = machine();
  const r = Bun.spawnSync([...entries.source, "try", "--json"], { cwd: m.cwd, env: m.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  expect(r.stderr.toString()).toBe("");
  expect(r.exitCode).toBe(0);
  expect(jsonLines(r.stdout.toString()).at(-1)).toMatchObject({ done: true, ok: true });
  expect(readdirSync(m.tmp)).toEqual([]);
  expect(connections).toBe(0);
});

test("discover's results are read whatever their shape: a tool name given or derived from the id", () => {
  expect(
    discovered({
      results: [
        { id: "filesystem:read_file", kind: "tool" },
        { id: "fs:read_settings", kind: "capability" },
      ],
    }).map((f) => f.tool),
  ).toEqual(["filesystem__read_file", "cap__fs__read_settings"]);
  // A compact answer: the tool to call, a one-line description, parameters; no id or kind: the tool name says them.
  const compact = discovered({ results: [{ tool: "cap__fs__read_settings", description: "read settings\nmore", parameters: { path: "string" } }] });
  expect(compact).toEqual([{ id: "fs:read_settings", kind: "capability", tool: "cap__fs__read_settings", description: "read settings" }]);
  expect(discovered({ results: [{ tool: "memory__read_graph", description: "the graph" }] })).toEqual([
    { id: "memory:read_graph", kind: "tool", tool: "memory__read_graph", description: "the graph" },
  ]);
  expect(discovered({ results: [{ id: "cap:fs:read_settings" }] })[0]).toMatchObject({ kind: "capability", tool: "cap__fs__read_settings" });
  expect(discovered("no list")).toEqual([]);
});

test("text from pml's answers reaches the terminal with control and reordering characters escaped", () => {
  const out: string[] = [];
  const n = new Narrator(false, (t) => out.push(t));
  n.begin(1, "discover", "Find");
  n.say("a capability \u001b[2Jcleared\u202eevil");
  expect(out.join("")).toContain("a capability \\u{1B}[2Jcleared\\u{202E}evil");
  expect(out.join("")).not.toContain("\u001b");
});
