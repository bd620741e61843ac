// Issue 22, finding 4: `pml serve` had no authentication, so another local user initialized,
// called tools and approved its own calls as the serving user. Against the compiled binary: a
// caller without this user's token (none, a wrong one, another PML_HOME's) can neither
// initialize, list nor call, in either revision nor inside the user's own session, and nothing
// runs; the user's token works; the token file is created 0600 and refused when others can read
// it; --no-auth is loud and loopback-only; --socket is a Unix socket only its owner may open.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, spawnListening, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace } from "../helpers/trust.ts";

const ws = tempDir();
const home = tempDir(); // the serving user's PML_HOME
const otherHome = tempDir(); // another user's
const POLICY = JSON.stringify({ permissions: { allow: ["filesystem:write_file", "shell:exec"] } });
const env = (extra: Record<string, string> = {}) => testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, ...extra });
let serve: Awaited<ReturnType<typeof spawnListening>>;
let token: string;
const tokenFile = join(home.path, "serve.token");

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "intruder", version: "0" } } };
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const write = (name: string) => ({ name: "call", arguments: { tool: "filesystem:write_file", arguments: { path: name, content: "x" } } });

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(serve.url, { method: "POST", headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) });
}

/** A 2026-07-28 request, headers mirrored as a conforming client sends them. */
function modern(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Response> {
  const name: Record<string, string> = typeof params.name === "string" ? { "mcp-name": params.name } : {};
  return post({ jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: META } }, { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...name, ...headers });
}

/** The answer's JSON-RPC message (plain JSON or the last SSE event). */
async function message(res: Response): Promise<any> {
  const text = await res.text();
  return JSON.parse(
    text.startsWith("{")
      ? text
      : text
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .at(-1)!
          .slice(5),
  );
}

async function expectRefused(res: Response, kind: "missing" | "invalid"): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get("www-authenticate")).toBe(kind === "missing" ? 'Bearer realm="pml"' : 'Bearer realm="pml", error="invalid_token"');
  expect(res.headers.get("mcp-session-id")).toBeNull();
  const body = await message(res);
  expect(body.error.code).toBe(-32000);
  expect(body.result).toBeUndefined();
  // Says how to pass the token and where it is, never what it is.
  expect(body.error.message).toContain("Authorization: Bearer <token>");
  expect(body.error.message).toContain(tokenFile);
  expect(body.error.message).not.toContain(token);
}

/** Waits until a running server's stderr holds `text` (it goes on writing after its URL line). */
async function stderrOf(server: { stderr(): string }, text: string): Promise<string> {
  for (let i = 0; i < 100 && !server.stderr().includes(text); i++) await Bun.sleep(50);
  return server.stderr();
}

/** Runs `pml serve` (or `pml serve --print-token`) to its end. */
function pmlServe(args: string[], extra: Record<string, string> = {}) {
  const r = Bun.spawnSync([BIN, "serve", ...args], { cwd: ws.path, env: env(extra), stdout: "pipe", stderr: "pipe", timeout: 20_000 });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

beforeAll(async () => {
  writeFileSync(join(ws.path, ".pml.json"), POLICY);
  await trustWorkspace(ws.path, home.path);
  serve = await spawnListening([BIN, "serve", "--port", "0"], { cwd: ws.path, env: env() });
  token = readFileSync(tokenFile, "utf8").trim();
});
afterAll(async () => {
  await serve?.stop();
  for (const d of [ws, home, otherHome]) d.cleanup();
});

describe("the token", () => {
  test("is created on first `pml serve`, 32 random bytes, mode 0600; its place is printed, not the token", async () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const stderr = await stderrOf(serve, "the token is in");
    expect(stderr).toContain(`created ${tokenFile} (mode 0600)`);
    expect(stderr).toContain(`the token is in ${tokenFile}`);
    expect(stderr).not.toContain(token);
  });

  test("--print-token prints it (another PML_HOME gets its own)", () => {
    expect(pmlServe(["--print-token"]).stdout.trim()).toBe(token);
    const other = pmlServe(["--print-token"], { PML_HOME: otherHome.path });
    expect(other.code).toBe(0);
    expect(other.stdout.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(other.stdout.trim()).not.toBe(token);
    expect(statSync(join(otherHome.path, "serve.token")).mode & 0o777).toBe(0o600);
  });
});

describe("a caller without this user's token", () => {
  const wrongTokens = () =>
    [
      ["no header", {}, "missing"],
      ["a wrong token", bearer("not-the-token-0123456789abcdef0123456789"), "invalid"],
      ["another PML_HOME's token", bearer(pmlServe(["--print-token"], { PML_HOME: otherHome.path }).stdout.trim()), "invalid"],
      ["the token under another scheme", { authorization: `Basic ${token}` }, "missing"],
      ["the token with a prefix", bearer(`x${token}`), "invalid"],
    ] as const;

  test("cannot initialize, list or call tools, in either revision; nothing runs", async () => {
    for (const [, headers, kind] of wrongTokens()) {
      await expectRefused(await post(INIT, headers), kind);
      await expectRefused(await modern("tools/list", {}, headers), kind);
      await expectRefused(await modern("tools/call", write("intruder.txt"), headers), kind);
      await expectRefused(await modern("tools/call", { name: "shell__exec", arguments: { command: "touch shell-intruder.txt" } }, headers), kind);
    }
    await Bun.sleep(300);
    expect(existsSync(join(ws.path, "intruder.txt"))).toBe(false);
    expect(existsSync(join(ws.path, "shell-intruder.txt"))).toBe(false);
  });

  test("cannot use, approve in, stream from or end the user's own session", async () => {
    const init = await post(INIT, bearer(token));
    expect(init.status).toBe(200);
    await init.text();
    const sid = init.headers.get("mcp-session-id")!;
    const inSession = { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
    await expectRefused(await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: write("session-intruder.txt") }, inSession), "missing");
    const approve = { continue_workflow: { workflow_id: "any", approved: true, always: true } };
    await expectRefused(await post({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "shell__exec", arguments: approve } }, inSession), "missing");
    await expectRefused(await fetch(serve.url, { headers: { accept: "text/event-stream", ...inSession } }), "missing");
    await expectRefused(await fetch(serve.url, { method: "DELETE", headers: inSession }), "missing");
    expect(existsSync(join(ws.path, "session-intruder.txt"))).toBe(false);
    expect(readFileSync(join(ws.path, ".pml.json"), "utf8")).toBe(POLICY);
    // The session is still the user's, and still works.
    const list = await post({ jsonrpc: "2.0", id: 4, method: "tools/list" }, { ...inSession, ...bearer(token) });
    expect(list.status).toBe(200);
    expect((await message(list)).result.tools.map((t: any) => t.name)).toContain("status");
    await fetch(serve.url, { method: "DELETE", headers: { ...inSession, ...bearer(token) } });
  });
});

test("with the token, the user's client initializes, lists and calls, in both revisions", async () => {
  const init = await post(INIT, bearer(token));
  expect(init.status).toBe(200);
  expect((await message(init)).result.serverInfo.name).toBe("pml");
  const list = await modern("tools/list", {}, { authorization: `bearer  ${token}` }); // the scheme is case-insensitive
  expect(list.status).toBe(200);
  expect((await message(list)).result.tools.map((t: any) => t.name)).toContain("status");
  const call = await modern("tools/call", write("owner.txt"), bearer(token));
  expect((await message(call)).result.isError).toBeFalsy();
  expect(readFileSync(join(ws.path, "owner.txt"), "utf8")).toBe("x");
  await fetch(serve.url, { method: "DELETE", headers: { ...bearer(token), "mcp-session-id": init.headers.get("mcp-session-id")! } });
});

describe("a token file others could read, or a link", () => {
  const home2 = tempDir();
  afterAll(() => home2.cleanup());

  test("mode 0644 is refused with the chmod to run, by `pml serve` and --print-token", () => {
    const file = join(home2.path, "serve.token");
    writeFileSync(file, `${"a".repeat(43)}\n`);
    chmodSync(file, 0o644);
    for (const args of [["--port", "0"], ["--print-token"]]) {
      const r = pmlServe(args, { PML_HOME: home2.path });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`run \`chmod 600 ${file}\``);
      expect(r.stderr).not.toContain("listening on");
      expect(r.stdout).not.toContain("a".repeat(43));
    }
    chmodSync(file, 0o600);
    expect(pmlServe(["--print-token"], { PML_HOME: home2.path }).stdout.trim()).toBe("a".repeat(43));
  });

  test("a symbolic link is refused", () => {
    const home3 = tempDir();
    try {
      symlinkSync(tokenFile, join(home3.path, "serve.token"));
      const r = pmlServe(["--print-token"], { PML_HOME: home3.path });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("is a symbolic link");
      expect(r.stdout).not.toContain(token);
    } finally {
      home3.cleanup();
    }
  });
});

describe("PML_SERVE_TOKEN", () => {
  test("replaces the file's token; a short one is refused", async () => {
    const shared = "team-token-0123456789abcdef0123456789abcdef";
    const s = await spawnListening([BIN, "serve", "--port", "0"], { cwd: ws.path, env: env({ PML_SERVE_TOKEN: shared }) });
    try {
      expect(await stderrOf(s, "the token is")).toContain("the token is the PML_SERVE_TOKEN pml serve was started with");
      const ok = await fetch(s.url, { method: "POST", headers: { ...HEADERS, ...bearer(shared) }, body: JSON.stringify(INIT) });
      expect(ok.status).toBe(200);
      await ok.text();
      const file = await fetch(s.url, { method: "POST", headers: { ...HEADERS, ...bearer(token) }, body: JSON.stringify(INIT) });
      expect(file.status).toBe(401);
      await file.text();
    } finally {
      await s.stop();
    }
    const short = pmlServe(["--port", "0"], { PML_SERVE_TOKEN: "short" });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("PML_SERVE_TOKEN must be at least 32 characters");
  });
});

describe("--no-auth", () => {
  test("serves without a token, after a loud warning", async () => {
    const s = await spawnListening([BIN, "serve", "--port", "0", "--no-auth"], { cwd: ws.path, env: env() });
    try {
      const stderr = await stderrOf(s, "without --no-auth");
      expect(stderr).toContain("WARNING: --no-auth: NO AUTHENTICATION");
      expect(stderr).toContain("can call every tool pml can, as you");
      const res = await fetch(s.url, { method: "POST", headers: HEADERS, body: JSON.stringify(INIT) });
      expect(res.status).toBe(200);
      await res.text();
    } finally {
      await s.stop();
    }
  });

  test("is refused off loopback", () => {
    const r = pmlServe(["--port", "0", "--no-auth", "--host", "0.0.0.0"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--no-auth is only allowed on 127.0.0.1, ::1 or localhost");
    expect(r.stderr).not.toContain("listening on");
  });
});

describe("--socket", () => {
  const init = (path: string) => fetch("http://localhost/mcp", { unix: path, method: "POST", headers: HEADERS, body: JSON.stringify(INIT) } as RequestInit);
  /** Starts `pml serve --socket`, resolved once it answers there. */
  async function onSocket(path: string) {
    const proc = Bun.spawn([BIN, "serve", "--socket", path], { cwd: ws.path, env: env(), stdin: "ignore", stdout: "ignore", stderr: "pipe" });
    const stderr = new Response(proc.stderr as ReadableStream).text();
    for (let i = 0; i < 200; i++) {
      if (
        await init(path).then(
          (r) => (r.body?.cancel(), true),
          () => false,
        )
      )
        break;
      await Bun.sleep(25);
    }
    return { proc, stderr };
  }

  test("is created 0600 and serves its owner without a token; a socket left by a killed pml is replaced", async () => {
    const path = join(ws.path, "pml.sock");
    const first = await onSocket(path);
    const st = statSync(path);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
    const res = await init(path);
    expect(res.status).toBe(200);
    expect((await message(res)).result.serverInfo.name).toBe("pml");
    first.proc.kill("SIGKILL"); // leaves the socket file behind
    await first.proc.exited;
    expect(existsSync(path)).toBe(true);
    const second = await onSocket(path);
    try {
      expect((await init(path)).status).toBe(200);
    } finally {
      second.proc.kill();
      await second.proc.exited;
    }
    expect(await second.stderr).toContain(`listening on unix:${path}`);
    expect(await second.stderr).toContain("only your user can connect (mode 0600)");
  });

  test("a path that holds a file is refused", () => {
    const path = join(ws.path, "not-a-socket");
    writeFileSync(path, "keep me");
    const r = pmlServe(["--socket", path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("exists and is not a socket");
    expect(readFileSync(path, "utf8")).toBe("keep me");
  });
});
