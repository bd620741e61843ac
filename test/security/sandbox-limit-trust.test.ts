// Issue 45, item 3: a cloned repository's .pml.json may lower the sandbox's limits at once, but a
// raise (a longer time limit, more memory) is a grant: it waits for `pml trust`, which shows it,
// and the trust record binds the value (a later, larger raise needs trust again). A value out of
// range is a config error naming the key and the range. Against the compiled binary.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace } from "../helpers/trust.ts";
import { waitFor } from "../helpers/wait.ts";

const dirs: { cleanup(): void }[] = [];
const peers: RawPeer[] = [];
afterAll(() => {
  for (const p of peers) p.kill();
  for (const d of dirs) d.cleanup();
});

function workspace(config: unknown) {
  const ws = tempDir();
  const home = tempDir();
  dirs.push(ws, home);
  const env = testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path });
  const write = (c: unknown) => writeFileSync(join(ws.path, ".pml.json"), JSON.stringify(c));
  write(config);
  return { cwd: ws.path, home: home.path, env, write };
}

async function pml(w: ReturnType<typeof workspace>): Promise<RawPeer> {
  const peer = new RawPeer([BIN], { cwd: w.cwd, env: w.env });
  peers.push(peer);
  await peer.initialize();
  return peer;
}

let seq = 0;
/** The text of an `execute` call's result (the error's message when it failed). */
async function execute(peer: RawPeer, code: string): Promise<string> {
  const id = ++seq;
  peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "execute", arguments: { code } } });
  const m = await peer.next((x) => x.id === id, 120_000);
  return m.result?.content?.[0]?.text ?? JSON.stringify(m.error);
}

async function run(cwd: string, env: Record<string, string>, ...args: string[]) {
  const p = Bun.spawn([BIN, ...args], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([p.exited, new Response(p.stdout as ReadableStream).text(), new Response(p.stderr as ReadableStream).text()]);
  return { code, out: stdout + stderr };
}

const SPIN = "while (true) {}";
const RAISE_TEXT = "sandbox.timeout_ms: raises the sandbox time limit to 3600000 ms (default 10000 ms)";
const MB100 = "return new Uint8Array(100 * 1024 * 1024).length";

test("untrusted, a raised time limit does not apply: an endless loop stops at the default, and pml says once that the raise waits for `pml trust`", async () => {
  const w = workspace({ sandbox: { timeout_ms: 3_600_000 } });
  const peer = await pml(w);
  expect(await execute(peer, SPIN)).toContain("the code ran longer than the CPU time limit (10000 ms) and was stopped");
  expect(await execute(peer, "return 1")).toContain('"result":1');
  expect(peer.stderr).toContain(RAISE_TEXT);
  expect(peer.stderr).toContain("pml trust");
  expect(peer.stderr.split(RAISE_TEXT).length - 1).toBe(1);

  // `pml trust` without a terminal shows the raise among the grants and trusts nothing.
  const review = await run(w.cwd, w.env, "trust");
  expect(review.code).toBe(1);
  expect(review.out).toContain(RAISE_TEXT);
}, 120_000);

test("a lower time limit applies untrusted", async () => {
  const peer = await pml(workspace({ sandbox: { timeout_ms: 500 } }));
  expect(await execute(peer, SPIN)).toContain("the CPU time limit (500 ms)");
  expect(peer.stderr).not.toContain("not trusted");
}, 60_000);

test("after trust the raised time limit applies", async () => {
  const w = workspace({ sandbox: { timeout_ms: 12_000 } });
  await trustWorkspace(w.cwd, w.home);
  const peer = await pml(w);
  expect(await execute(peer, SPIN)).toContain("the CPU time limit (12000 ms)");
}, 120_000);

test("a raised memory limit applies once trusted; raising it further needs trust again", async () => {
  const w = workspace({ sandbox: { memory_mb: 256 } });
  const peer = await pml(w);
  expect(await execute(peer, MB100)).toContain("out of memory (limit 64 MB)");

  await trustWorkspace(w.cwd, w.home);
  await waitFor(async () => (await execute(peer, MB100)).includes('"result":104857600'), { timeoutMs: 10_000, intervalMs: 100, what: "the trusted raise to apply" });

  // An edit to a larger value is a new grant: until it is trusted, pml's default applies.
  w.write({ sandbox: { memory_mb: 512 } });
  await waitFor(async () => (await execute(peer, MB100)).includes("out of memory (limit 64 MB)"), {
    timeoutMs: 10_000,
    intervalMs: 100,
    what: "the untrusted raise to be dropped",
  });
  const review = await run(w.cwd, w.env, "trust");
  expect(review.out).toContain("sandbox.memory_mb: raises the memory one sandboxed run may use to 512 MB (default 64 MB)");
  expect(review.out).toContain("Added since you last trusted it");
}, 60_000);

test("a limit out of range is a config error naming the key and the allowed range", async () => {
  const w = workspace({ sandbox: { memory_mb: 8192 } });
  const range = "sandbox.memory_mb: 8192 is out of range; allowed 16–2048 (MB";
  // pml keeps serving on its defaults (the file's other settings wait for the fix) and says why.
  const peer = await pml(w);
  expect(await execute(peer, "return 1")).toContain('"result":1');
  expect(peer.stderr).toContain(range);
  const doctor = await run(w.cwd, w.env, "doctor");
  expect(doctor.out).toContain(range);
}, 60_000);
