// Smoke test of a built pml binary, offline, on any OS (CI runs it on macOS and Windows):
// `--version`, `pml try`, then one `pml stdio` session: initialize, notifications/initialized, a `discover`
// query (answered from the catalog inside the binary) and an `execute` run (the sandbox worker
// inside the binary), each JSON-RPC answer checked. Exits non-zero, saying what failed.
//   bun scripts/smoke.ts [dist/pml]        (dist/pml.exe on Windows; that is the default there)
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };

const bin = resolve(process.argv[2] ?? (process.platform === "win32" ? "dist/pml.exe" : "dist/pml"));
const TIMEOUT_MS = 30_000;

let child: { kill(): void } | undefined;

function fail(message: string, detail = ""): never {
  child?.kill();
  console.error(`smoke: FAIL: ${message}${detail ? `\n${detail}` : ""}`);
  process.exit(1);
}

if (!existsSync(bin)) fail(`no binary at ${bin}; build it first: bun build.ts`);

// --version: "pml <version> (<os>-<arch>[-variant])"
const v = Bun.spawnSync([bin, "--version"], { stdout: "pipe", stderr: "pipe" });
const versionLine = v.stdout.toString().trim();
if (v.exitCode !== 0) fail(`${bin} --version exited with ${v.exitCode}`, v.stderr.toString());
if (!versionLine.startsWith(`pml ${pkg.version} (`)) fail(`--version printed ${JSON.stringify(versionLine)}, expected "pml ${pkg.version} (<target>)"`);
console.log(`smoke: ok: --version: ${versionLine}`);

// pml try: the whole tour (discover, approval, execute with a name, reuse, rename) against its
// own pml stdio, offline, in throwaway folders; exit 0 only when every step behaved.
const tour = Bun.spawnSync([bin, "try", "--json"], { stdin: "ignore", stdout: "pipe", stderr: "pipe", timeout: 120_000 });
const tourLast = tour.stdout.toString().trim().split("\n").at(-1) ?? "";
if (tour.exitCode !== 0 || !tourLast.includes('"ok":true')) fail(`${bin} try exited with ${tour.exitCode}`, `${tour.stderr.toString()}\n${tourLast}`);
console.log("smoke: ok: pml try: every step behaved");

// A fresh workspace and PML_HOME, and no keys from this shell: nothing reaches the network.
const dir = realpathSync(mkdtempSync(join(tmpdir(), "pml-smoke-")));
const env: Record<string, string> = {};
for (const [k, val] of Object.entries(process.env)) if (val !== undefined && !/^(PML_|CLAUDE_)/.test(k) && !/API_KEY|TOKEN|SECRET/.test(k)) env[k] = val;
Object.assign(env, { PML_HOME: join(dir, "home"), PML_WORKSPACE: dir });

const proc = Bun.spawn([bin, "stdio"], { cwd: dir, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
child = proc;
let stderr = "";
void (async () => {
  for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) stderr += new TextDecoder().decode(chunk);
})();

// Answers by id; every stdout line must be one JSON-RPC message.
const answers = new Map<number, any>();
let wake: () => void = () => {};
void (async () => {
  let buf = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    for (let nl = buf.indexOf("\n"); nl !== -1; nl = buf.indexOf("\n")) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line) continue;
      let msg: any;
      try {
        msg = JSON.parse(line);
      } catch {
        fail(`stdout line is not JSON: ${line.slice(0, 200)}`, stderr);
      }
      if (typeof msg.id === "number" && !("method" in msg)) answers.set(msg.id, msg);
    }
    wake();
  }
  wake();
})();

function send(msg: object): void {
  const sink = proc.stdin as import("bun").FileSink;
  sink.write(`${JSON.stringify({ jsonrpc: "2.0", ...msg })}\n`);
  sink.flush();
}

async function answer(id: number, what: string): Promise<any> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!answers.has(id)) {
    if (Date.now() > deadline) fail(`no answer to ${what} within ${TIMEOUT_MS} ms`, stderr);
    if (proc.exitCode !== null) fail(`pml stdio exited (${proc.exitCode}) before answering ${what}`, stderr);
    await new Promise<void>((r) => {
      wake = r;
      setTimeout(r, 100);
    });
  }
  const msg = answers.get(id);
  if (msg.error) fail(`${what} answered with an error: ${JSON.stringify(msg.error)}`, stderr);
  return msg.result;
}

/** A tools/call result that is not an error, with its structured (or JSON text) content. */
async function callTool(id: number, name: string, args: object): Promise<any> {
  send({ id, method: "tools/call", params: { name, arguments: args } });
  const result = await answer(id, `tools/call ${name}`);
  if (result?.isError) fail(`tools/call ${name} is an error result: ${JSON.stringify(result.content)}`, stderr);
  if (result?.structuredContent) return result.structuredContent;
  const text = result?.content?.find((c: any) => c.type === "text")?.text;
  if (typeof text !== "string") fail(`tools/call ${name} returned no text content: ${JSON.stringify(result)}`, stderr);
  try {
    return JSON.parse(text);
  } catch {
    return text; // a plain answer (discover's lines)
  }
}

try {
  send({ id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "pml-smoke", version: "0" } } });
  const init = await answer(1, "initialize");
  if (init?.serverInfo?.name !== "pml" || init?.serverInfo?.version !== pkg.version) fail(`initialize: unexpected serverInfo ${JSON.stringify(init?.serverInfo)}`);
  if (init?.protocolVersion !== "2025-11-25") fail(`initialize: protocolVersion ${JSON.stringify(init?.protocolVersion)}, expected "2025-11-25"`);
  if (!init?.capabilities?.tools) fail(`initialize: no tools capability in ${JSON.stringify(init?.capabilities)}`);
  send({ method: "notifications/initialized" });
  console.log(`smoke: ok: initialize: ${init.serverInfo.name} ${init.serverInfo.version}, protocol ${init.protocolVersion}`);

  // One line per result, the tool to call first: `filesystem__read_file(path: string) — … [strong]`.
  const found = String(await callTool(2, "discover", { query: "read a file" }))
    .split("\n")
    .map((l) => /^(\S+?)\(/.exec(l)?.[1])
    .filter((t): t is string => !!t);
  if (!found.some((t) => t.endsWith("__read_file"))) fail(`discover "read a file" did not find a read_file tool: ${JSON.stringify(found).slice(0, 500)}`, stderr);
  console.log(`smoke: ok: discover: ${found.length} results, first ${found[0]}`);

  const run = await callTool(3, "execute", { code: "return 6 * 7" });
  if (run?.result !== 42) fail(`execute "return 6 * 7" gave ${JSON.stringify(run)}`, stderr);
  console.log("smoke: ok: execute: 42");

  // End of input ends the session: pml exits by itself, with status 0.
  (proc.stdin as import("bun").FileSink).end();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const code = await Promise.race([proc.exited, new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), TIMEOUT_MS)))]);
  clearTimeout(timer);
  if (code === "timeout") fail(`pml stdio did not exit within ${TIMEOUT_MS} ms of the end of its input`, stderr);
  if (code !== 0) fail(`pml stdio exited with ${code}`, stderr);
  console.log("smoke: ok: stdio exited 0 at the end of its input");
} finally {
  proc.kill();
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  } catch {} // a temporary folder left behind does not fail the smoke test
}
console.log("smoke: passed");
