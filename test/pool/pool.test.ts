import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ToolError } from "../../src/mcp/tool-result.ts";
import type { ToolInfo } from "../../src/mcp/types.ts";
import { Pool, type PoolOptions } from "../../src/pool/pool.ts";
import { ctx, fixtureSpec, isAlive, npmServerSpec, root, text, waitFor } from "./helpers.ts";

let dir: string;
const pools: Pool[] = [];

function makePool(opts: PoolOptions = {}): Pool {
  const pool = new Pool({ logDir: join(dir, "logs"), workspace: dir, stopGraceMs: 500, ...opts });
  pools.push(pool);
  return pool;
}

async function pidOf(pool: Pool, ns: string, spec = fixtureSpec()): Promise<number> {
  return Number(text(await pool.call(ns, spec, "pid", {}, ctx())));
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the call to fail");
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pml-pool-"));
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.shutdown()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("real npm servers", () => {
  test("server-memory: create_entities then read_graph", async () => {
    const pool = makePool();
    const spec = npmServerSpec("memory", [], { MEMORY_FILE_PATH: join(dir, "memory.jsonl") });
    const tools = await pool.listTools("memory", spec);
    expect(tools.map((t) => t.name)).toContain("create_entities");
    expect(tools.find((t) => t.name === "create_entities")!.inputSchema.type).toBe("object");
    await pool.call("memory", spec, "create_entities", { entities: [{ name: "pml", entityType: "project", observations: ["has a pool"] }] }, ctx());
    const graph = await pool.call("memory", spec, "read_graph", {}, ctx());
    expect(text(graph)).toContain("has a pool");
  });

  test("1,000 concurrent calls to server-everything echo: every response matches its request", async () => {
    const pool = makePool();
    const spec = npmServerSpec("everything", ["stdio"]);
    const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => pool.call("everything", spec, "echo", { message: `m${i}` }, ctx())));
    results.forEach((r, i) => expect(text(r)).toBe(`Echo: m${i}`));
    expect(pool.status().filter((s) => s.state === "ready")).toHaveLength(1);
  });
});

describe("pool behaviour (fixture server)", () => {
  test("concurrent first calls start one process", async () => {
    const pool = makePool();
    const pids = await Promise.all(Array.from({ length: 10 }, () => pidOf(pool, "fx")));
    expect(new Set(pids).size).toBe(1);
  });

  test("a crash mid-call names the server, its exit code and stderr tail; the next call respawns", async () => {
    const pool = makePool();
    const spec = fixtureSpec();
    const first = await pidOf(pool, "crashy", spec);
    const inflight = pool.call("crashy", spec, "hang", {}, ctx());
    const err = await failure(pool.call("crashy", spec, "crash", { code: 3, lines: ["Error: disk on fire", "    at burn (x.js:1)"] }, ctx()));
    expect(err).toBeInstanceOf(ToolError);
    expect(err.message).toContain('MCP server "crashy" exited with code 3');
    expect(err.message).toContain("Error: disk on fire");
    expect(err.message).toContain("at burn (x.js:1)");
    // the other call in flight fails too, with the same reason
    expect((await failure(inflight)).message).toContain("exited with code 3");
    const second = await pidOf(pool, "crashy", spec);
    expect(second).not.toBe(first);
    expect(isAlive(first)).toBe(false);
  });

  test("a server that crashes on start: clear error, then backoff says it keeps crashing", async () => {
    const pool = makePool({ backoff: { minMs: 5000, maxMs: 30000 } });
    const spec = fixtureSpec(["--crash-on-start"]);
    const e1 = await failure(pool.call("broken", spec, "echo", {}, ctx()));
    expect(e1.message).toContain('MCP server "broken" exited with code 7 while starting');
    expect(e1.message).toContain("fatal: cannot start (fixture)");
    const e2 = await failure(pool.call("broken", spec, "echo", {}, ctx())); // immediate retry allowed
    expect(e2.message).toContain("exited with code 7");
    const e3 = await failure(pool.call("broken", spec, "echo", {}, ctx()));
    expect(e3.message).toContain('MCP server "broken" keeps crashing (2 times in a row)');
    expect(e3.message).toContain("fatal: cannot start (fixture)");
  });

  test("a server that never answers: per-call timeout names server and timeout, and cancels", async () => {
    const cancelLog = join(dir, "cancel-timeout.log");
    const pool = makePool();
    const spec = fixtureSpec([], { FIXTURE_CANCEL_LOG: cancelLog });
    await pidOf(pool, "stuck", spec);
    const err = await failure(pool.call("stuck", spec, "hang", {}, ctx(), 300));
    expect(err).toBeInstanceOf(ToolError);
    expect(err.message).toContain('MCP server "stuck" did not answer tools/call hang within 300 ms');
    await waitFor(() => existsSync(cancelLog) && readFileSync(cancelLog, "utf8").includes("cancelled"), 10000, "cancelled notification");
    // still usable afterwards
    expect(text(await pool.call("stuck", spec, "echo", { text: "ok" }, ctx()))).toBe("ok");
  });

  test("a server that never answers initialize: start fails with a clear error", async () => {
    const pool = makePool({ startTimeoutMs: 300 });
    const err = await failure(pool.call("mute", fixtureSpec(["--silent-init"]), "echo", {}, ctx()));
    expect(err.message).toContain('MCP server "mute" started but did not complete the MCP handshake');
    expect(err.message).toContain("initialize within 300 ms");
  });

  test("abort of ctx.signal fails the call and forwards notifications/cancelled with the remapped id", async () => {
    const cancelLog = join(dir, "cancel-abort.log");
    const pool = makePool();
    const spec = fixtureSpec([], { FIXTURE_CANCEL_LOG: cancelLog });
    const ac = new AbortController();
    const progress: string[] = [];
    const call = pool.call(
      "cx",
      spec,
      "slow",
      { ms: 60000, steps: 2 },
      {
        signal: ac.signal,
        progress: (m) => {
          if (!m.startsWith("step")) return;
          progress.push(m);
          if (progress.length === 2) ac.abort();
        },
      },
    );
    const err = await failure(call);
    expect(err.message).toContain("The call to cx (tools/call slow) was cancelled");
    expect(progress).toEqual(["step 1", "step 2"]);
    await waitFor(() => existsSync(cancelLog) && /cancelled \d+/.test(readFileSync(cancelLog, "utf8")), 10000, "cancelled notification");
  });

  test("progress from the server reaches ctx.progress with numbers", async () => {
    const pool = makePool();
    const seen: Array<[string, number | undefined, number | undefined]> = [];
    const r = await pool.call("pg", fixtureSpec(), "slow", { ms: 10, steps: 3 }, ctx({ progress: (m, p, t) => seen.push([m, p, t]) }));
    expect(text(r)).toBe("done");
    expect(seen.filter(([m]) => m.startsWith("step"))).toEqual([
      ["step 1", 1, 3],
      ["step 2", 2, 3],
      ["step 3", 3, 3],
    ]);
  });

  test("idle servers are reaped and come back transparently", async () => {
    const pool = makePool({ idleTimeoutMs: 150 });
    const first = await pidOf(pool, "idle");
    await waitFor(() => pool.status().find((s) => s.ns === "idle")?.state === "stopped", 15000, "idle reaping");
    await waitFor(() => !isAlive(first), 15000, "reaped process to exit");
    expect(pool.cachedTools("idle")?.map((t) => t.name)).toContain("echo"); // no respawn needed for the list
    const second = await pidOf(pool, "idle");
    expect(second).not.toBe(first);
    expect(pool.status().find((s) => s.ns === "idle")?.crashes).toBe(0);
  });

  test("roots/list from the server is answered with the workspace", async () => {
    const pool = makePool();
    const r = await pool.call("rt", fixtureSpec(), "roots", {}, ctx());
    expect(JSON.parse(text(r))).toEqual({ roots: [{ uri: pathToFileURL(dir).href, name: "workspace" }] });
  });

  test("server requests go to onServerRequest; its errors become JSON-RPC errors", async () => {
    const pool = makePool({
      onServerRequest: (ns, method) => {
        throw Object.assign(new Error(`no ${method} for ${ns}`), { code: -32601 });
      },
    });
    const r = await pool.call("rt2", fixtureSpec(), "roots", {}, ctx());
    expect(JSON.parse(text(r))).toEqual({ code: -32601, message: "no roots/list for rt2" });
  });

  test("tools/list_changed refreshes the cached tools and calls onToolsChanged", async () => {
    const changes: Array<[string, ToolInfo[]]> = [];
    const pool = makePool({ onToolsChanged: (ns, tools) => changes.push([ns, tools]) });
    await pool.call("lc", fixtureSpec(), "add_tool", {}, ctx());
    await waitFor(() => changes.length > 0, 10000, "onToolsChanged");
    expect(changes[0]![0]).toBe("lc");
    // The fixture names its added tool after its tool count: one more than before.
    const added = changes[0]![1].at(-1)!.name;
    expect(added).toBe(`extra${changes[0]![1].length - 1}`);
    expect(pool.cachedTools("lc")?.map((t) => t.name)).toContain(added);
  });

  test("a command that does not exist gives an actionable error", async () => {
    const pool = makePool();
    const err = await failure(pool.call("nope", { command: join(dir, "no-such-binary"), args: [], env: {} }, "x", {}, ctx()));
    expect(err.message).toContain('Could not start MCP server "nope"');
  });

  test("shutdown stops every child", async () => {
    const pool = makePool();
    const a = await pidOf(pool, "a");
    const b = await pidOf(pool, "b");
    const mem = npmServerSpec("memory", [], { MEMORY_FILE_PATH: join(dir, "m2.jsonl") });
    await pool.listTools("memory", mem);
    const m = pool.status().find((s) => s.ns === "memory")!.pid!;
    await pool.shutdown();
    for (const pid of [a, b, m]) expect(isAlive(pid)).toBe(false);
    expect((await failure(pool.call("a", fixtureSpec(), "pid", {}, ctx()))).message).toContain("shutting down");
  });

  test("stderr goes to <logDir>/<ns>.log, never to stdout", async () => {
    const pool = makePool();
    const pid = await pidOf(pool, "logged");
    expect(readFileSync(join(dir, "logs", "logged.log"), "utf8")).toContain(`fixture server ${pid} up`);
  });
});

test("pml killed with SIGKILL: its children exit (stdin EOF), no orphan", async () => {
  const holder = Bun.spawn([process.execPath, join(root, "test/fixtures/servers/pool-holder.ts"), dir], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
  try {
    const reader = holder.stdout.getReader();
    let out = "";
    while (!out.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    const pids: number[] = JSON.parse(out.split("\n")[0]!);
    expect(pids.length).toBe(3);
    for (const pid of pids) expect(isAlive(pid)).toBe(true);
    holder.kill("SIGKILL");
    await holder.exited;
    await waitFor(() => pids.every((p) => !isAlive(p)), 20000, "children of the killed pool to exit");
  } finally {
    holder.kill("SIGKILL");
  }
});

describe("process groups (issue 12 point 13)", () => {
  /** Pids whose command line holds `marker`. */
  function withMarker(marker: string): number[] {
    const out: number[] = [];
    for (const pid of require("node:fs")
      .readdirSync("/proc")
      .filter((d: string) => /^\d+$/.test(d))) {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker)) out.push(Number(pid));
      } catch {}
    }
    return out;
  }

  test.skipIf(process.platform !== "linux")("a server that never completes the handshake is ended with everything it started; the message names the log once", async () => {
    const marker = `${900 + Math.floor(Math.random() * 99)}.${Date.now() % 100000}`;
    const pool = makePool({ startTimeoutMs: 500 });
    const err = await failure(pool.call("hung", { command: "sh", args: ["-c", `sleep ${marker}; true`], env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } }, "x", {}, ctx()));
    expect(err.message).toContain("did not complete the MCP handshake");
    expect(err.message.split("hung.log").length - 1).toBeLessThanOrEqual(1);
    await waitFor(() => withMarker(marker).length === 0, 5000, `no process with ${marker} left`);
  });

  test.skipIf(process.platform !== "linux")(
    "a server leads a process group of its own in pml's session (no session, so no scheduling group, of its own), no signal ignored or blocked",
    async () => {
      const status = join(dir, "grouped-status.txt");
      const spec = fixtureSpec();
      // A command sh starts records its own status (what it inherited: sh's own status read while
      // sh forks shows the signals sh blocks around fork), then sh becomes the server (exec: the same pid).
      const sh = { ...spec, command: "sh", args: ["-c", `cat /proc/self/status > '${status}'; exec "$0" "$@"`, spec.command, ...spec.args] };
      const pid = await pidOf(makePool(), "grouped", sh);
      const stat = (p: number) => readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
      expect(Number(stat(pid)[2])).toBe(pid);
      expect(stat(pid)[3]).toBe(stat(process.pid)[3]);
      if (existsSync("/proc/self/autogroup")) expect(readFileSync(`/proc/${pid}/autogroup`, "utf8")).toBe(readFileSync(`/proc/${process.pid}/autogroup`, "utf8"));
      const recorded = readFileSync(status, "utf8");
      expect(recorded).toMatch(/^SigIgn:\s+0+$/m);
      expect(recorded).toMatch(/^SigBlk:\s+0+$/m);
    },
  );
});

test("a server whose environment is too large to carry through pml's launcher still starts, in a session of its own, and sees its environment", async () => {
  const spec = fixtureSpec();
  const big = "x".repeat(120 * 1024);
  const pid = await pidOf(makePool(), "bigenv", { ...spec, env: { ...(spec.env ?? process.env), PML_TEST_BIG: big } });
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  expect(Number(stat[2])).toBe(pid); // still its own process group
  expect(Number(stat[3])).toBe(pid); // detached: its own session (the launcher's fallback)
  expect(readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")).toContain(`PML_TEST_BIG=${big}`);
});

test("a 10 MB argument is refused before it is sent, naming the limit; the server keeps serving", async () => {
  const pool = makePool();
  const pid = await pidOf(pool, "big");
  const err = await failure(pool.call("big", fixtureSpec(), "echo", { text: "x".repeat(10 * 1024 * 1024) }, ctx()));
  expect(err.message).toContain("are 10.0 MB; pml sends at most 4 MB to a stdio server in one call");
  expect(await pidOf(pool, "big")).toBe(pid);
});

test.skipIf(process.platform !== "linux")("pml's internal launcher refuses bad input with a message on stderr and nothing on stdout", () => {
  const bin = join(root, "dist/pml");
  const run = (args: string[], env: Record<string, string>) =>
    Bun.spawnSync([bin, "__exec-in-group", ...args], { env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
  const noCommand = run([], {});
  expect(noCommand.exitCode).toBe(126);
  expect(noCommand.stderr.toString()).toContain("needs Linux with glibc and a command");
  const badEnv = run(["/bin/true"], { PML_SERVER_ENV: "{not json" });
  expect(badEnv.exitCode).toBe(126);
  expect(badEnv.stderr.toString()).toContain("PML_SERVER_ENV is not the JSON");
  const missing = run(["/nonexistent/server"], { PML_SERVER_ENV: "{}" });
  expect(missing.exitCode).toBe(126);
  expect(missing.stderr.toString()).toContain("could not start /nonexistent/server");
  for (const r of [noCommand, badEnv, missing]) expect(r.stdout.toString()).toBe("");
});
