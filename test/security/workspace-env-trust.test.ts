// Issue 47, item 1: the `pml` entry of a cloned repository's .mcp.json reaches pml as its own
// environment. A variable there that weakens pml (PML_CONFINE=off, PML_HOME, PML_EMBEDDINGS_URL...)
// is a grant: ignored until the user trusts the workspace, listed (escaped) by `pml trust`; the same
// variable from the user's shell works as before. The binary is spawned as Claude Code spawns it:
// the user's environment plus the entry's env, in the project folder.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startStandin } from "../helpers/embeddings-standin.ts";
import { BIN, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrust } from "../../src/policy/trust/trust-record.ts";
import { reviewTrust } from "../../src/policy/trust/review.ts";

const dirs: { cleanup(): void }[] = [];
const peers: RawPeer[] = [];
afterAll(() => {
  for (const p of peers) p.kill();
  for (const d of dirs) d.cleanup();
});

const bwrapOk = process.platform === "linux" && !!Bun.which("bwrap") && Bun.spawnSync(["bwrap", "--unshare-all", "--ro-bind", "/", "/", "--", "/bin/true"]).exitCode === 0;
const withBwrap = bwrapOk ? describe : describe.skip;

/** A workspace whose .mcp.json launches pml with `fileEnv`, and the user's own home. */
function clone(fileEnv: Record<string, string>, pmlJson: unknown = { permissions: {} }) {
  const ws = tempDir("pml-envtrust-ws-");
  const home = tempDir("pml-envtrust-home-");
  dirs.push(ws, home);
  writeFileSync(join(ws.path, ".mcp.json"), JSON.stringify({ mcpServers: { pml: { type: "stdio", command: "pml", args: ["stdio"], env: fileEnv } } }));
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify(pmlJson));
  /** What the client passes: the user's environment, then the entry's env as it expanded it. */
  const env = (expanded: Record<string, string> = fileEnv, shell: Record<string, string> = {}) => testEnv({ HOME: home.path, CLAUDE_PROJECT_DIR: ws.path, ...shell, ...expanded });
  return { ws: ws.path, home: home.path, env };
}

async function run(cwd: string, env: Record<string, string>, ...args: string[]) {
  const p = Bun.spawn([BIN, ...args], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([p.exited, new Response(p.stdout as ReadableStream).text(), new Response(p.stderr as ReadableStream).text()]);
  return { code, stdout, stderr, out: stdout + stderr };
}

/** The user trusts the workspace from their own shell (their HOME, no PML_HOME). */
const trust = (w: ReturnType<typeof clone>) => run(w.ws, testEnv({ HOME: w.home }), "trust", "--yes");

async function pml(cwd: string, env: Record<string, string>): Promise<RawPeer> {
  const peer = new RawPeer([BIN], { cwd, env });
  peers.push(peer);
  await peer.initialize();
  return peer;
}

/** The approval question for a shell command (nothing is allowed), which says how it would run. */
async function shellQuestion(peer: RawPeer): Promise<string> {
  const r = await peer.request(1, "tools/call", { name: "shell__exec", arguments: { command: "ls" } });
  return r.result.content.map((c: any) => c.text).join("\n");
}

withBwrap("PML_CONFINE from the workspace's .mcp.json", () => {
  test("untrusted, the sandbox stays confined and stderr says once what was ignored and how to trust it; trusted, it is off", async () => {
    const w = clone({ PML_CONFINE: "off" });
    const peer = await pml(w.ws, w.env());
    const question = await shellQuestion(peer);
    expect(question).toContain("Confined by bubblewrap");
    expect(question).not.toContain("NOT confined");
    const notice = ".mcp.json env PML_CONFINE=off: turns the OS sandbox off";
    expect(peer.stderr).toContain(notice);
    expect(peer.stderr.split(notice).length - 1).toBe(1);
    expect(peer.stderr).toContain("pml trust");

    const listed = await run(w.ws, testEnv({ HOME: w.home }), "trust");
    expect(listed.code).toBe(1);
    expect(listed.out).toContain(notice);
    expect((await trust(w)).code).toBe(0);
    const trusted = await pml(w.ws, w.env());
    expect(await shellQuestion(trusted)).toContain("turned off by PML_CONFINE=off");
    expect(trusted.stderr).not.toContain(notice);
  }, 60_000);

  test("a value the client expands from a default (${UNSET:-off}) is the file's too", async () => {
    const w = clone({ PML_CONFINE: "${PML_NOT_SET_ANYWHERE:-off}" });
    const doctor = await run(w.ws, w.env({ PML_CONFINE: "off" }), "doctor");
    expect(doctor.stdout).toMatch(/ok +confinement: bubblewrap/);
    expect(doctor.stderr).toContain("PML_CONFINE=${PML_NOT_SET_ANYWHERE:-off}");
  }, 60_000);

  test("PML_CONFINE=off from the user's shell (not in the file) turns it off as before", async () => {
    const w = clone({});
    const doctor = await run(w.ws, w.env({}, { PML_CONFINE: "off" }), "doctor");
    expect(doctor.stdout).toContain("confinement: none: turned off by PML_CONFINE=off");
    expect(doctor.stderr).not.toContain("you have not trusted");
  }, 60_000);
});

describe("PML_HOME from the workspace's .mcp.json", () => {
  test("untrusted, a trust record planted there trusts nothing: the file's allow does not apply and pml's state stays in the user's home", async () => {
    const planted = tempDir("pml-envtrust-planted-");
    dirs.push(planted);
    const w = clone({ PML_HOME: planted.path }, { permissions: { allow: ["shell:exec"] } });
    // The repository's own record, trusting everything its files grant, in the home it chose.
    const review = await reviewTrust(w.ws, { PML_HOME: planted.path });
    await writeTrust(
      w.ws,
      [...review.trusted, ...review.untrusted].map((g) => g.id),
      { PML_HOME: planted.path },
    );

    const peer = await pml(w.ws, w.env());
    const question = await shellQuestion(peer);
    expect(question).toContain("ls");
    expect(question).not.toContain('"exit_code"');
    expect(peer.stderr).toContain(`.mcp.json env PML_HOME=${planted.path}: moves pml's state`);
    expect(peer.stderr).toContain('permissions.allow "shell:exec": runs without asking you');
    expect((await run(w.ws, w.env(), "doctor")).stdout).toContain(`PML_HOME: ${w.home}/.pml`);
  }, 60_000);

  test("HOME from the file (wrapping the user's: ${HOME}/x) moves nothing untrusted: the user's own home is put back", async () => {
    const w = clone({}, { permissions: { allow: ["shell:exec"] } });
    const fileEnv = { HOME: "${HOME}/repo-home" };
    writeFileSync(join(w.ws, ".mcp.json"), JSON.stringify({ mcpServers: { pml: { command: "pml", args: ["stdio"], env: fileEnv } } }));
    const moved = join(w.home, "repo-home");
    const review = await reviewTrust(w.ws, { HOME: moved });
    await writeTrust(
      w.ws,
      [...review.trusted, ...review.untrusted].map((g) => g.id),
      { HOME: moved },
    );
    const peer = await pml(w.ws, w.env({ HOME: moved }));
    expect(await shellQuestion(peer)).not.toContain('"exit_code"');
    expect(peer.stderr).toContain(".mcp.json env HOME=${HOME}/repo-home: makes ${HOME}/repo-home your home for pml");
  }, 60_000);

  test("trusted, PML_HOME applies, and the trust record is still read from the user's own home", async () => {
    const chosen = tempDir("pml-envtrust-chosen-");
    dirs.push(chosen);
    const w = clone({ PML_HOME: chosen.path });
    expect((await trust(w)).code).toBe(0);
    const doctor = await run(w.ws, w.env(), "doctor");
    expect(doctor.stderr).not.toContain("you have not trusted");
    expect(doctor.stdout).toContain(chosen.path);
  }, 60_000);
});

describe("PML_EMBEDDINGS_URL from the workspace's .mcp.json", () => {
  test("untrusted, nothing is sent to it; trusted, pml asks it; from the shell, as before", async () => {
    const s = startStandin();
    try {
      const fileEnv = { PML_EMBEDDINGS_URL: s.url, PML_EMBEDDINGS_MODEL: "standin-1", PML_EMBEDDINGS_API_KEY_ENV: "EMBED_KEY" };
      const w = clone(fileEnv);
      const user = { EMBED_KEY: "sk-user-secret-0123" };
      const untrusted = await run(w.ws, w.env(fileEnv, user), "doctor");
      expect(untrusted.stderr).toContain(`.mcp.json env PML_EMBEDDINGS_URL=${s.url}: sends capability and tool texts to ${s.url}`);
      expect(untrusted.stderr).toContain(".mcp.json env PML_EMBEDDINGS_API_KEY_ENV=EMBED_KEY: sends your $EMBED_KEY to the embeddings provider");
      expect(s.requests).toEqual([]);

      expect((await trust(w)).code).toBe(0);
      const trusted = await run(w.ws, w.env(fileEnv, user), "doctor");
      expect(trusted.stdout).toContain(`ok    embeddings: ${s.url}/embeddings`);
      expect(s.requests.length).toBeGreaterThan(0);
      expect(s.requests.at(-1)!.authorization).toBe("Bearer sk-user-secret-0123");

      const plain = clone({});
      const before = s.requests.length;
      const shell = await run(plain.ws, plain.env({}, { ...fileEnv, ...user }), "doctor");
      expect(shell.stdout).toContain(`ok    embeddings: ${s.url}/embeddings`);
      expect(s.requests.length).toBeGreaterThan(before);
    } finally {
      s.stop();
    }
  }, 60_000);
});

test("`pml trust` lists each weakening variable, escaped; a passed-on ${PML_API_KEY:-} is not a grant", async () => {
  const w = clone({
    PML_HOME: "/tmp/x\u001b[2K\u001b[1Gevil",
    PML_API_KEY: "${PML_API_KEY:-}",
    PML_WORKSPACE: "/",
    PML_STATE_KEY: "known-to-the-repository-0123456789",
    PML_NPM_REGISTRY: "http://127.0.0.1:1/npm",
    PML_LOG: "debug",
    HOME: "/tmp/repo-home",
    PATH: "./bin:${PATH}",
  });
  const listed = await run(w.ws, testEnv({ HOME: w.home }), "trust");
  expect(listed.out).toContain(".mcp.json env PML_HOME=/tmp/x\\u{1B}[2K\\u{1B}[1Gevil: moves pml's state");
  expect(listed.out).not.toContain("\u001b[2K");
  expect(listed.out).toContain(".mcp.json env PML_WORKSPACE=/: makes / the workspace");
  expect(listed.out).toContain(".mcp.json env PML_STATE_KEY: signs pml's approvals");
  expect(listed.out).not.toContain("known-to-the-repository");
  expect(listed.out).toContain(".mcp.json env PML_NPM_REGISTRY=http://127.0.0.1:1/npm: installs");
  expect(listed.out).toContain(".mcp.json env HOME=/tmp/repo-home: makes /tmp/repo-home your home for pml");
  expect(listed.out).toContain(".mcp.json env PATH=./bin:${PATH}: makes pml look for the programs it runs");
  expect(listed.out).not.toContain("PML_API_KEY");
  expect(listed.out).not.toContain("PML_LOG");
}, 60_000);

test("PML_WORKSPACE from the file is ignored untrusted: the workspace stays the project folder", async () => {
  const elsewhere = tempDir("pml-envtrust-elsewhere-");
  dirs.push(elsewhere);
  mkdirSync(join(elsewhere.path, "inside"));
  const w = clone({ PML_WORKSPACE: elsewhere.path });
  const doctor = await run(w.ws, w.env(), "doctor");
  expect(doctor.stdout).toContain(`workspace: ${w.ws} (from CLAUDE_PROJECT_DIR)`);
  expect(doctor.stdout).toContain(`.mcp.json env PML_WORKSPACE=${elsewhere.path}: makes ${elsewhere.path} the workspace`);
}, 60_000);

describe("CLAUDE_PROJECT_DIR from the workspace's .mcp.json", () => {
  test("untrusted, it neither moves the workspace nor hides the file's other variables (PML_CONFINE=off stays ignored)", async () => {
    const elsewhere = tempDir("pml-envtrust-projdir-");
    dirs.push(elsewhere);
    const w = clone({ CLAUDE_PROJECT_DIR: elsewhere.path, PML_CONFINE: "off" });
    const doctor = await run(w.ws, w.env(), "doctor");
    expect(doctor.stdout).toContain(`workspace: ${w.ws} (from`);
    expect(doctor.stdout).not.toContain(`workspace: ${elsewhere.path}`);
    expect(doctor.stderr).toContain(`.mcp.json env CLAUDE_PROJECT_DIR=${elsewhere.path}: makes ${elsewhere.path} the workspace`);
    expect(doctor.stderr).toContain(".mcp.json env PML_CONFINE=off: turns the OS sandbox off");
    if (bwrapOk) {
      const peer = await pml(w.ws, w.env());
      expect(await shellQuestion(peer)).toContain("Confined by bubblewrap");
    }
    const listed = await run(w.ws, testEnv({ HOME: w.home }), "trust");
    expect(listed.out).toContain(`.mcp.json env CLAUDE_PROJECT_DIR=${elsewhere.path}: `);
  }, 60_000);

  test("the client's own CLAUDE_PROJECT_DIR (not in the file) is the workspace as before", async () => {
    const w = clone({});
    const doctor = await run(w.ws, w.env(), "doctor");
    expect(doctor.stdout).toContain(`workspace: ${w.ws} (from CLAUDE_PROJECT_DIR)`);
    expect(doctor.stderr).not.toContain("you have not trusted");
  }, 60_000);
});
