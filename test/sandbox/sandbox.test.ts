// The sandbox API: runCode (execute) and runModuleFunction, values, errors with lines, concurrency.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appendAudit, auditLogPath } from "../../src/sandbox/audit.ts";
import { SandboxError } from "../../src/sandbox/errors.ts";
import { clearModulePool, runModuleFunction } from "../../src/sandbox/module-runner.ts";
import { clearCodePool, runCode } from "../../src/sandbox/run-code.ts";
import { waitFor } from "../helpers/wait.ts";

afterAll(() => {
  clearModulePool();
  clearCodePool();
});

describe("runCode", () => {
  test("mcp.ns.action(args) calls callTool('ns:action', args); args are in scope", async () => {
    const calls: [string, unknown][] = [];
    const callTool = async (tool: string, a: unknown) => {
      calls.push([tool, a]);
      return { got: a };
    };
    const r = await runCode({
      code: "const a = await mcp.memory.read_graph({ q: args.q });\nconst b = await mcp.filesystem.read_file();\nreturn [a, b]",
      args: { q: 1 },
      callTool,
    });
    expect(r).toEqual({ value: [{ got: { q: 1 } }, { got: {} }] });
    expect(calls).toEqual([
      ["memory:read_graph", { q: 1 }],
      ["filesystem:read_file", {}],
    ]);
  });

  test("host calls run concurrently with Promise.all", async () => {
    let inFlight = 0;
    let peak = 0;
    const callTool = async (_t: string, a: any) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      // Each call stays in flight until all three are (or, if they never are, until the wait gives up).
      await waitFor(() => peak === 3, { timeoutMs: 5000 }).catch(() => {});
      inFlight--;
      return a.i;
    };
    const r = await runCode({ code: "return await Promise.all([1, 2, 3].map((i) => mcp.x.y({ i })))", callTool });
    expect(r.value).toEqual([1, 2, 3]);
    expect(peak).toBe(3);
  });

  test("TypeScript is accepted", async () => {
    const r = await runCode({ code: "interface P { n: number }\nconst p: P = { n: args.n as number };\nreturn p.n * 2;", args: { n: 21 } });
    expect(r.value).toBe(42);
  });

  test("undefined and no return give undefined; strings stay strings", async () => {
    expect(await runCode({ code: "const x = 1;" })).toEqual({ value: undefined });
    expect(await runCode({ code: "return 'text'" })).toEqual({ value: "text" });
  });

  test("syntax errors and thrown errors carry the user's line", async () => {
    const syntax = await runCode({ code: "const a = 1;\nconst b = ;\nreturn a" }).catch((e: any) => e);
    expect(syntax).toBeInstanceOf(SandboxError);
    expect(syntax.kind).toBe("syntax");
    expect(syntax.line).toBe(2);
    expect(syntax.message).toContain("(line 2, column 11)");
    const thrown = await runCode({ code: "const a = 1;\n\nthrow new Error('boom');" }).catch((e: any) => e);
    expect(thrown.kind).toBe("thrown");
    expect(thrown.message).toBe("Error: boom (line 3, column 16)");
    expect(thrown.line).toBe(3);
    expect(thrown.column).toBe(16);
    const ts = await runCode({ code: "const a: number = 1;\n\n// comment\nconst v: string = args.missing.deep;\nreturn v" }).catch((e: any) => e);
    expect(ts.kind).toBe("thrown");
    expect(ts.line).toBe(4);
    // Transpiled TypeScript has the line (matched back), not the column: that one is the output's.
    expect(ts.message).toMatch(/\(line 4\)$/);
    expect(ts.column).toBeUndefined();
  });

  test("one-line programs: the position is in the user's line (line 1) and column, not pml's wrapper", async () => {
    const thrown = await runCode({ code: 'throw new Error("x")' }).catch((e: any) => e);
    expect(thrown.message).toBe("Error: x (line 1, column 16)");
    expect([thrown.line, thrown.column]).toEqual([1, 16]);
    // The first frame in the user's code: where the throw is, inside the function it calls.
    const inner = await runCode({ code: 'const f = () => { throw new TypeError("in f") }; f()' }).catch((e: any) => e);
    expect(inner.message).toBe("TypeError: in f (line 1, column 38)");
    const syntax = await runCode({ code: "  const a = ;" }).catch((e: any) => e);
    expect(syntax.kind).toBe("syntax");
    expect(syntax.message).toBe("SyntaxError: unexpected token in expression: ';' (line 1, column 13)");
    expect([syntax.line, syntax.column]).toEqual([1, 13]);
    const plain = await runCode({ code: 'throw { message: "no name" }' }).catch((e: any) => e);
    expect(plain.message).toBe("Error: no name");
    const ref = await runCode({ code: "return nope" }).catch((e: any) => e);
    expect(ref.message).toBe("ReferenceError: 'nope' is not defined (line 1, column 8)");
    // Past the user's end is the wrapper: the user's last line is named, with no column of pml's.
    const open = await runCode({ code: "return (1" }).catch((e: any) => e);
    expect(open.message).toMatch(/does not end properly.*\(line 1\)$/);
    expect(open.column).toBeUndefined();
  });

  test("module code: the line in the module, and its column", async () => {
    const e: any = await runModuleFunction({ code: 'export async function go() {\n  throw new Error("m");\n}', fn: "go", reuse: false }).catch((e: any) => e);
    expect(e.message).toBe("Error: m (line 2, column 18)");
  });

  test("a failing tool call rejects in the guest with its message", async () => {
    const r = await runCode({
      code: "try { await mcp.a.b({}) } catch (e) { return e.message }",
      callTool: async () => {
        throw new Error("denied by permissions");
      },
    });
    expect(r.value).toBe("denied by permissions");
  });

  test("nothing carries over between runs", async () => {
    await runCode({ code: "globalThis.leak = 42; return 1" });
    expect(await runCode({ code: "return typeof leak" })).toEqual({ value: "undefined" });
  });

  test("concurrent runs do not interfere", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => runCode({ code: "await mcp.x.y({}); return args.i", args: { i }, callTool: async () => Bun.sleep(5) }))); // the scenario: a host call that takes a moment
    expect(results.map((r) => r.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe("runModuleFunction", () => {
  const code = `
    let calls = 0;
    export async function greet(args, ctx) { calls++; return { hello: args.name, env: ctx.env.TOKEN ?? null, via: await ctx.mcp.memory.read_graph({}) } }
    export async function count() { return calls }
    export function sync(args) { return args.x + 1 }
  `;

  test("calls the export with (args, ctx); ctx.env holds only what is given", async () => {
    const r = await runModuleFunction({ code, fn: "greet", args: { name: "pml" }, ctx: { env: { TOKEN: "t" }, callTool: async (t) => t } });
    expect(r).toEqual({ hello: "pml", env: "t", via: "memory:read_graph" });
    expect(await runModuleFunction({ code, fn: "sync", args: { x: 1 } })).toBe(2);
  });

  test("a missing export names what the module does export", async () => {
    const e: any = await runModuleFunction({ code, fn: "nope" }).catch((x: any) => x);
    expect(e.kind).toBe("export");
    expect(e.message).toBe('the module has no exported function "nope" (it exports: count, greet, sync)');
  });

  test("module syntax errors carry the line", async () => {
    const e: any = await runModuleFunction({ code: "export async function f() {\n  return 1 +;\n}", fn: "f" }).catch((x: any) => x);
    expect(e.kind).toBe("syntax");
    expect(e.line).toBe(2);
  });

  test("the warm instance keeps the module loaded between calls; a fresh one does not", async () => {
    const a = (await runModuleFunction({ code, fn: "count" })) as number;
    await runModuleFunction({ code, fn: "greet", args: {}, ctx: { callTool: async () => 1 } });
    expect(await runModuleFunction({ code, fn: "count" })).toBe(a + 1);
    expect(await runModuleFunction({ code, fn: "count", reuse: false })).toBe(0);
  });

  test("after a limit is hit, the next call works on a new instance", async () => {
    const spin = "export async function spin() { while (true) {} }\nexport async function ok() { return 'ok' }";
    const e: any = await runModuleFunction({ code: spin, fn: "spin", limits: { cpuMs: 100 } }).catch((x: any) => x);
    expect(e.kind).toBe("cpu");
    expect(await runModuleFunction({ code: spin, fn: "ok" })).toBe("ok");
  });
});

describe("helpers", () => {
  test("appendAudit writes JSON lines under .pml/", async () => {
    const ws = await mkdtemp(join(tmpdir(), "pml-audit-"));
    try {
      await appendAudit(ws, { tool: "shell:exec", attempted: "call", reason: "denied by .pml.json permissions" });
      await appendAudit(ws, { attempted: "env SECRET", reason: "not declared" });
      const lines = (await readFile(auditLogPath(ws), "utf8"))
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({ tool: "shell:exec", attempted: "call", reason: "denied by .pml.json permissions" });
      expect(Number.isNaN(Date.parse(lines[0].time))).toBe(false);
    } finally {
      await rm(ws, { recursive: true, force: true });
    }
  });
});
