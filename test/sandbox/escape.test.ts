// Attempts to get out of the sandbox. Each must fail (or see nothing of the host), and the host
// must keep working afterwards.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SandboxError } from "../../src/sandbox/errors.ts";
import { createHost } from "../../src/sandbox/host-functions.ts";
import { clearModulePool, runModuleFunction } from "../../src/sandbox/module-runner.ts";
import { clearCodePool, runCode } from "../../src/sandbox/run-code.ts";
import { waitFor } from "../helpers/wait.ts";

let base: string;
let ws: string;
const audits: { attempted: string; reason: string }[] = [];

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "pml-escape-")));
  ws = join(base, "ws");
  await mkdir(ws);
  await writeFile(join(base, "secret.txt"), "TOP SECRET");
  await writeFile(join(ws, "ok.txt"), "fine");
  await symlink(join(base, "secret.txt"), join(ws, "link-out"));
  await symlink(base, join(ws, "dir-out"));
});

afterAll(async () => {
  clearModulePool();
  clearCodePool();
  await rm(base, { recursive: true, force: true });
});

const callTool = async (tool: string, args: unknown) => ({ tool, args, host: "value" });
const run = (code: string, limits = {}) => runCode({ code, callTool, limits });

async function fails(code: string, limits = {}): Promise<SandboxError> {
  try {
    const r = await run(code, limits);
    throw new Error(`expected failure, got ${JSON.stringify(r)}`);
  } catch (e) {
    expect(e).toBeInstanceOf(SandboxError);
    return e as SandboxError;
  }
}

async function hostStillWorks() {
  expect(await run("return 1 + 1")).toEqual({ value: 2 });
}

describe("no ambient authority", () => {
  test("process, require, Bun, Deno, fetch, timers are not defined", async () => {
    const { value } = await run(`return {
      process: typeof process, require: typeof require, Bun: typeof Bun, Deno: typeof Deno, fetch: typeof fetch,
      setTimeout: typeof setTimeout, setInterval: typeof setInterval, queueMicrotask: typeof queueMicrotask,
      SharedArrayBuffer: typeof SharedArrayBuffer, Atomics: typeof Atomics, WebAssembly: typeof WebAssembly,
      XMLHttpRequest: typeof XMLHttpRequest, importScripts: typeof importScripts, module: typeof module,
    }`);
    for (const [k, v] of Object.entries(value as Record<string, string>)) expect([k, v]).toEqual([k, "undefined"]);
  });

  test("constructor chains reach only the guest's own Function", async () => {
    for (const code of [
      `this.constructor.constructor("return typeof process")()`,
      `(function(){}).constructor("return typeof process")()`,
      `mcp.constructor.constructor("return typeof process")()`,
      `mcp.fs.constructor.constructor("return typeof process")()`,
      `mcp.memory.read.constructor("return typeof process")()`,
      `Object.getPrototypeOf(mcp).constructor.constructor("return typeof process")()`,
      `(await mcp.memory.read_graph({})).constructor.constructor("return typeof process")()`,
      `args.constructor.constructor("return typeof Bun")()`,
      `await Object.getPrototypeOf(async function(){}).constructor("return typeof process")()`,
      `eval("typeof process")`,
      `(0, eval)("typeof require")`,
      `new Function("return typeof globalThis.process")()`,
      `[].constructor.constructor("return this")().process`,
    ]) {
      // Either the chain fails inside the guest, or it reaches only the guest's own globals.
      const { value } = await run(`try { return ${code} } catch (e) { return "blocked: " + e.message }`);
      expect([code, value === "undefined" || value === undefined || String(value).startsWith("blocked")]).toEqual([code, true]);
    }
  });

  test("a value returned by a host call is a plain guest copy", async () => {
    const { value } = await run(`
      const r = await mcp.memory.read_graph({ a: 1 });
      return { proto: Object.getPrototypeOf(r) === Object.prototype, keys: Object.keys(r), getters: Object.values(Object.getOwnPropertyDescriptors(r)).some(d => d.get) };
    `);
    expect(value).toEqual({ proto: true, keys: ["tool", "args", "host"], getters: false });
  });

  test("import() and import statements fail", async () => {
    expect((await fails(`return await import("node:fs")`)).message).toContain("could not load module");
    expect((await fails(`import fs from "node:fs";\nreturn 1`)).kind).toBe("syntax");
    const mod = await runModuleFunction({ code: `export async function f() { try { await import("fs"); return "loaded" } catch (e) { return String(e) } }`, fn: "f" }).catch(
      (e: any) => e,
    );
    expect(String(mod)).toContain("could not load module");
    const stat = await runModuleFunction({ code: `import fs from "fs";\nexport async function f() { return 1 }`, fn: "f", reuse: false }).catch((e: any) => e);
    expect(stat).toBeInstanceOf(SandboxError);
  });

  test("globalThis holds only the language's own globals", async () => {
    const { value } = await run(`return Object.getOwnPropertyNames(globalThis).filter(n => !/^[A-Z]/.test(n))`);
    const allowed = new Set([
      "globalThis",
      "parseInt",
      "parseFloat",
      "isNaN",
      "isFinite",
      "decodeURI",
      "decodeURIComponent",
      "encodeURI",
      "encodeURIComponent",
      "escape",
      "unescape",
      "eval",
      "undefined",
      "NaN",
      "Infinity",
    ]);
    for (const name of value as string[]) expect([name, allowed.has(name)]).toEqual([name, true]);
  });
});

describe("values crossing the boundary", () => {
  test("prototype pollution inside the guest does not reach the host", async () => {
    await run(`Object.prototype.polluted = "yes"; Array.prototype.evil = 1; JSON.parse = () => ({}); return 1`);
    const out = await run(`return JSON.parse('{"__proto__": {"polluted": "yes"}}')`);
    expect(({} as any).polluted).toBeUndefined();
    expect(([] as any).evil).toBeUndefined();
    const v = out.value as any;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(v.polluted).toBeUndefined();
    expect(({} as any).polluted).toBeUndefined();
  });

  test("objects passed in are copies: the guest cannot reach or change the host's", async () => {
    const input = { list: [1, 2], nested: { a: 1 } };
    await runCode({ code: `args.list.push(3); args.nested.a = 2; args.__proto__.x = 1; return 1`, args: input });
    expect(input).toEqual({ list: [1, 2], nested: { a: 1 } });
    expect(({} as any).x).toBeUndefined();
  });

  test("getters, proxies and toJSON tricks returned to the host arrive as plain data or fail in the guest", async () => {
    const { value } = await run(`
      const p = new Proxy({}, { get: () => "trap", ownKeys: () => ["a"], getOwnPropertyDescriptor: () => ({ value: "x", enumerable: true, configurable: true }) });
      return { g: { get x() { return "computed" } }, p, t: { toJSON() { return "json" } } };
    `);
    expect(value).toEqual({ g: { x: "computed" }, p: { a: "trap" }, t: "json" });
    expect(Object.getOwnPropertyDescriptor((value as any).g, "x")?.get).toBeUndefined();
    const e = await fails(`return { get x() { while (true) {} } }`, { cpuMs: 200 });
    expect(e.kind).toBe("cpu");
    const bad = await fails(`const o = {}; o.self = o; return o`);
    expect(bad.kind).toBe("result");
  });

  test("host errors arrive as plain Error(message)", async () => {
    const { value } = await runCode({
      code: `try { await mcp.x.y({}) } catch (e) { return { name: e.name, message: e.message, proto: Object.getPrototypeOf(e) === Error.prototype, ctor: e.constructor.constructor("return typeof process")() } }`,
      callTool: async () => {
        const err: any = new Error("tool failed");
        err.hostSecret = process;
        throw err;
      },
    });
    expect(value).toEqual({ name: "Error", message: "tool failed", proto: true, ctor: "undefined" });
  });

  test("SharedArrayBuffer and Atomics are absent", async () => {
    expect((await fails(`return new SharedArrayBuffer(8)`)).message).toContain("SharedArrayBuffer");
    expect((await fails(`return Atomics.wait`)).message).toContain("Atomics");
  });
});

describe("limits", () => {
  test("infinite loops are stopped by the CPU limit", async () => {
    const e = await fails(`while (true) {}`, { cpuMs: 200 });
    expect(e.kind).toBe("cpu");
    expect(e.message).toContain("CPU time limit");
    await hostStillWorks();
  });

  test("a loop that catches the interruption is still stopped", async () => {
    const e = await fails(`for (;;) { try { while (true) {} } catch (e) {} }`, { cpuMs: 200 });
    expect(e.kind).toBe("cpu");
    await hostStillWorks();
  });

  test("infinite promise chains are stopped", async () => {
    expect((await fails(`while (true) await null`, { cpuMs: 200 })).kind).toBe("cpu");
    expect((await fails(`const f = () => Promise.resolve().then(f); f(); return 1`, { cpuMs: 200 })).kind).toBe("cpu");
    await hostStillWorks();
  });

  test("memory bombs hit the memory limit", async () => {
    const e = await fails(`const a = []; while (true) a.push(new Array(100000).fill(a.length))`, { memoryBytes: 16 * 1024 * 1024 });
    expect(e.kind).toBe("memory");
    expect(e.message).toContain("out of memory (limit 16 MB)");
    expect((await fails(`return "x".repeat(1 << 29).length`)).kind).toBe("memory");
    // Many small allocations are slow in QuickJS before they fill the heap: the CPU limit ends them.
    expect(["memory", "cpu"]).toContain((await fails(`const a = []; while (true) a.push("x" + a.length)`, { cpuMs: 300 })).kind);
    await hostStillWorks();
  }, 30_000);

  test("a memory limit the engine cannot honour is refused by name; an engine failure says what failed", async () => {
    // 4096 MB wraps around in the engine's 32-bit size: every run failed with "threw a non-Error value: null".
    const tooBig = await fails("return 1", { memoryBytes: 4096 * 1024 * 1024 });
    expect(tooBig.message).toBe("sandbox limit memoryBytes is 4096 MB, over the 2048 MB the sandbox's WebAssembly heap can hold");
    // The heap's ceiling itself works.
    expect(await run("return new Uint8Array(64 * 1024 * 1024).length", { memoryBytes: 2048 * 1024 * 1024, totalMemoryBytes: 4096 * 1024 * 1024 })).toEqual({
      value: 64 * 1024 * 1024,
    });
    // A limit too small for even the error: the engine gives null, and the message says so.
    const starved = await fails("return 1", { memoryBytes: 1000 });
    expect(starved.message).toContain("the sandbox engine failed while");
    expect(starved.message).toContain("gave null instead of an error; it most likely could not allocate memory (this run's memory limit is 1000 bytes, sandbox.memory_mb)");
    // What the user's code throws is still the user's.
    expect((await fails("throw null")).message).toBe("Error: threw a non-Error value: null");
    await hostStillWorks();
  });

  test("deep recursion and deeply nested input are stopped without crashing pml", async () => {
    expect((await fails(`function f() { return f() + 1 } return f()`)).kind).toBe("stack");
    for (const code of [
      `return JSON.parse("[".repeat(200000) + "]".repeat(200000)).length`,
      `return eval("(".repeat(200000) + "1" + ")".repeat(200000))`,
      `let o = []; for (let i = 0; i < 200000; i++) o = [o]; return JSON.stringify(o).length`,
    ]) {
      const e = await fails(code);
      expect(["stack", "syntax", "thrown"]).toContain(e.kind);
    }
    await hostStillWorks();
  });

  test("huge outputs are refused with a clear message", async () => {
    const e = await fails(`return "x".repeat(2 * 1024 * 1024)`);
    expect(e.kind).toBe("result");
    expect(e.message).toContain("over the limit");
    await hostStillWorks();
  });

  test("host calls that never settle hit the wall-clock limit; the next call works", async () => {
    const e: any = await runCode({ code: `await mcp.slow.forever({}); return 1`, callTool: () => new Promise(() => {}), limits: { wallMs: 200 } }).catch((x: any) => x);
    expect(e).toBeInstanceOf(SandboxError);
    expect(e.kind).toBe("timeout");
    await hostStillWorks();
  });

  test("floods of host calls are capped", async () => {
    const e = await fails(`await Promise.all(Array.from({ length: 1000 }, () => mcp.a.b({}))); return 1`);
    expect(e.kind).toBe("limit");
    await hostStillWorks();
  });

  test("nothing the guest started outlives the call", async () => {
    let late = 0;
    const slow = async () => {
      await Bun.sleep(50); // the scenario: the host call answers after the run has returned
      late++;
      return 1;
    };
    const r = await runCode({ code: `mcp.a.b({}).then(() => { while (true) {} }); return "done"`, callTool: slow });
    expect(r).toEqual({ value: "done" });
    await waitFor(() => late === 1, { what: "the host call to finish" });
    await Bun.sleep(50); // a negative check: time for the guest continuation to run, if it ever would
    expect(late).toBe(1); // the host call finished, but its guest continuation never ran
    await hostStillWorks();
  });

  test("a cancelled call stops", async () => {
    const ctl = new AbortController();
    const p = runCode({ code: `await mcp.a.b({}); return 1`, callTool: () => new Promise(() => {}), signal: ctl.signal }).catch((e: any) => e);
    ctl.abort();
    expect((await p).kind).toBe("aborted");
    await hostStillWorks();
  });
});

describe("through ctx (module code)", () => {
  const escapeModule = `
    export async function tryRead(args, ctx) { return await ctx.fs.read({ path: args.path }) }
    export async function tryWrite(args, ctx) { return await ctx.fs.write({ path: args.path, content: "x" }) }
    export async function tryFetch(args, ctx) { return await ctx.fetch(args.url) }
    export async function tryExec(args, ctx) { return await ctx.exec({ command: "echo hi" }) }
    export async function env(args, ctx) { return { declared: ctx.env.DECLARED, undeclared: ctx.env.HOME, keys: Object.keys(ctx.env), proc: ctx.fs.read.constructor("return typeof process")() } }
  `;
  const call = (fn: string, args: unknown, write = false) =>
    runModuleFunction({
      code: escapeModule,
      fn,
      args,
      ctx: {
        env: { DECLARED: "yes" },
        host: createHost({ workspace: ws, tool: "evil:tool", grants: { write }, audit: (e) => audits.push(e) }),
      },
    });

  test("`..`, absolute paths and symlinks out are refused and audited", async () => {
    for (const path of ["../secret.txt", join(base, "secret.txt"), "link-out", "dir-out/secret.txt", "/etc/passwd"]) {
      const e: any = await call("tryRead", { path }).catch((x: any) => x);
      expect(e).toBeInstanceOf(SandboxError);
      expect(e.message).toContain("outside the workspace");
      expect(audits.some((a) => a.attempted === `read ${path}`)).toBe(true);
    }
    expect(await call("tryRead", { path: "ok.txt" })).toBe("fine");
  });

  test("writes need the grant, and never land outside", async () => {
    const denied: any = await call("tryWrite", { path: "new.txt" }).catch((x: any) => x);
    expect(denied.message).toContain("write access not granted");
    const out: any = await call("tryWrite", { path: "dir-out/pwned.txt" }, true).catch((x: any) => x);
    expect(out.message).toContain("outside the workspace");
    expect(await readFile(join(base, "pwned.txt"), "utf8").catch(() => "absent")).toBe("absent");
  });

  test("network is off by default", async () => {
    const e: any = await call("tryFetch", { url: "http://127.0.0.1:9/" }).catch((x: any) => x);
    expect(e.message).toContain("local modules are network-isolated; allow hosts in .pml.json sandbox.net_allow");
    expect(audits.some((a) => a.attempted === "fetch http://127.0.0.1:9/")).toBe(true);
  });

  test("exec is not available without the grant", async () => {
    const e: any = await call("tryExec", {}).catch((x: any) => x);
    expect(e.message).toContain("not granted");
  });

  test("only declared env vars are visible; reading others is audited", async () => {
    expect(await call("env", {})).toEqual({ declared: "yes", keys: ["DECLARED"], proc: "undefined" });
    expect(audits.some((a) => a.attempted === "env HOME")).toBe(true);
  });
});
