// Sandboxed code runs in worker threads under a global cap: the main thread stays free while guest
// code spins, cancellation stops a run at once, the cap queues then refuses with the key to raise,
// and runs started by runs (execute -> module tool) never deadlock on a full pool.
import { afterAll, describe, expect, jest, test } from "bun:test";
import { admissionState } from "../../src/sandbox/admission.ts";
import { SandboxError } from "../../src/sandbox/errors.ts";
import { runModuleFunction } from "../../src/sandbox/module-runner.ts";
import { clearCodePool, runCode } from "../../src/sandbox/run-code.ts";
import { clearWorkers, IDLE_TTL_MS, workerCounts } from "../../src/sandbox/workers.ts";
import { residentCodeKb } from "../helpers/resident.ts";
import { waitFor } from "../helpers/wait.ts";

afterAll(() => clearCodePool());

const MB = 1024 * 1024;
const SPIN = "for (;;) {}";
const long = { cpuMs: 60_000, wallMs: 60_000 };

describe("off the main thread", () => {
  test("timers on the main thread fire while three runaways spin", async () => {
    const ctl = new AbortController();
    const runs = [1, 2, 3].map(() => runCode({ code: SPIN, limits: long, signal: ctl.signal }).catch((e) => e));
    let settled = false;
    void Promise.all(runs).then(() => (settled = true));
    // If guest code ran on this thread, nothing below would run before the runaways' limit.
    await waitFor(() => admissionState().running === 3, { what: "the three runs to hold their places" });
    for (let i = 0; i < 5; i++) await Bun.sleep(20); // these timers firing is the test, not a wait
    expect(settled).toBe(false);
    expect(admissionState().running).toBe(3);
    ctl.abort();
    for (const e of await Promise.all(runs)) {
      expect(e).toBeInstanceOf(SandboxError);
      expect(e.kind).toBe("aborted");
    }
    expect(admissionState().running).toBe(0);
    expect(await runCode({ code: "return 6 * 7" })).toEqual({ value: 42 });
  });

  test("a cancelled runaway in a module stops, and the module's next call works", async () => {
    const code = "export async function spin() { for (;;) {} }\nexport async function ok() { return 'ok' }";
    const ctl = new AbortController();
    const p: Promise<any> = runModuleFunction({ code, fn: "spin", limits: long, signal: ctl.signal }).catch((e) => e);
    await waitFor(() => admissionState().running === 1, { what: "the runaway to start" });
    ctl.abort();
    expect((await p).kind).toBe("aborted");
    expect(await runModuleFunction({ code, fn: "ok" })).toBe("ok");
  });

  test("idle workers are kept warm and bounded", async () => {
    await Promise.all(Array.from({ length: 6 }, () => runCode({ code: "return 1" })));
    const { idle, total } = workerCounts();
    expect(idle).toBeLessThanOrEqual(4);
    expect(total).toBe(idle);
  });

  test("idle workers are ended after IDLE_TTL_MS, the last one too, then the code pages go back, and the next run starts afresh", async () => {
    clearCodePool();
    jest.useFakeTimers();
    let resident = 0;
    try {
      expect(await runCode({ code: "return 2" })).toEqual({ value: 2 });
      expect(workerCounts()).toEqual({ total: 1, idle: 1 });
      if (process.platform === "linux") resident = residentCodeKb();
      jest.advanceTimersByTime(IDLE_TTL_MS - 1000);
      expect(workerCounts().total).toBe(1);
      jest.advanceTimersByTime(5000);
      expect(workerCounts().total).toBe(0);
    } finally {
      jest.useRealTimers();
    }
    if (process.platform === "linux") await waitFor(() => residentCodeKb() < resident * 0.9, { what: "the executable's code pages to be handed back" });
    // A new worker, with QuickJS compiled again.
    expect(await runCode({ code: "return 3" })).toEqual({ value: 3 });
    expect(workerCounts()).toEqual({ total: 1, idle: 1 });
  });
});

describe("after a heavy run", () => {
  test("the last worker, ended after a run that computed for long: the code pages go back once no run came for IDLE_TTL_MS", async () => {
    clearWorkers();
    jest.useFakeTimers();
    let resident = 0;
    try {
      // Past the CPU-hog threshold (50 ms): the worker runs nicer, and is ended after its run.
      expect(await runCode({ code: "let x = 0; for (let i = 0; i < 5e6; i++) x += i % 7; return x > 0", limits: long })).toEqual({ value: true });
      expect(workerCounts().total).toBe(0);
      if (process.platform === "linux") resident = residentCodeKb();
      jest.advanceTimersByTime(IDLE_TTL_MS + 1000);
    } finally {
      jest.useRealTimers();
    }
    if (process.platform === "linux") await waitFor(() => residentCodeKb() < resident * 0.9, { what: "the executable's code pages to be handed back" });
    expect(await runCode({ code: "return 4" })).toEqual({ value: 4 });
  });
});

describe("the global cap", () => {
  test("beyond max_concurrent runs wait; beyond max_queued they are refused with the key to raise", async () => {
    const limits = { ...long, maxConcurrent: 1, maxQueued: 1 };
    const ctl = new AbortController();
    const first = runCode({ code: SPIN, limits, signal: ctl.signal }).catch((e) => e);
    const queued = runCode({ code: "return 'queued ran'", limits, signal: ctl.signal }).catch((e) => e);
    const refused: any = await runCode({ code: "return 1", limits }).catch((e) => e);
    expect(refused).toBeInstanceOf(SandboxError);
    expect(refused.kind).toBe("busy");
    expect(refused.message).toContain("sandbox.max_concurrent = 1");
    expect(refused.message).toContain("sandbox.max_queued = 1");
    expect(refused.message).toContain(".pml.json");
    expect(admissionState()).toMatchObject({ running: 1, queued: 1 });
    ctl.abort();
    expect((await first).kind).toBe("aborted");
    expect((await queued).kind).toBe("aborted");
    expect(admissionState()).toMatchObject({ running: 0, queued: 0 });
  });

  test("a queued run starts when a place frees", async () => {
    const limits = { maxConcurrent: 1 };
    const results = await Promise.all([1, 2, 3].map((i) => runCode({ code: "return args.i", args: { i }, limits })));
    expect(results.map((r) => r.value)).toEqual([1, 2, 3]);
  });

  test("the total memory of runs in progress is capped", async () => {
    const tooBig: any = await runCode({ code: "return 1", limits: { memoryBytes: 64 * MB, totalMemoryBytes: 32 * MB } }).catch((e) => e);
    expect(tooBig.kind).toBe("busy");
    expect(tooBig.message).toContain("sandbox.max_memory_mb");
    expect(tooBig.message).toContain("sandbox.memory_mb");
    // Two 64 MB runs do not fit in 100 MB: the second waits for the first.
    const limits = { ...long, memoryBytes: 64 * MB, totalMemoryBytes: 100 * MB, maxQueued: 1 };
    const ctl = new AbortController();
    const first = runCode({ code: SPIN, limits, signal: ctl.signal }).catch((e) => e);
    const second = runCode({ code: SPIN, limits, signal: ctl.signal }).catch((e) => e);
    const third: any = await runCode({ code: "return 1", limits }).catch((e) => e);
    expect(third.message).toContain("sandbox.max_memory_mb");
    expect(admissionState()).toMatchObject({ running: 1, queued: 1 });
    ctl.abort();
    await Promise.all([first, second]);
  });

  test("a run waiting in the queue can be cancelled", async () => {
    const limits = { ...long, maxConcurrent: 1 };
    const hold = new AbortController();
    const first = runCode({ code: SPIN, limits, signal: hold.signal }).catch((e) => e);
    const ctl = new AbortController();
    const waiting = runCode({ code: "return 1", limits, signal: ctl.signal }).catch((e) => e);
    ctl.abort();
    const e: any = await waiting;
    expect(e.kind).toBe("aborted");
    expect(e.message).toContain("waited for a free sandbox");
    hold.abort();
    await first;
  });

  test("one owner holds at most max_concurrent - 1 places: another owner always finds one free", async () => {
    const limits = { ...long, maxConcurrent: 3 };
    const ctl = new AbortController();
    const a = [1, 2, 3].map(() => runCode({ code: SPIN, limits, signal: ctl.signal, owner: "a" }).catch((e) => e));
    await waitFor(() => admissionState().running + admissionState().queued === 3, { what: "a's three runs to be admitted or queued" });
    expect(admissionState()).toMatchObject({ running: 2, queued: 1 });
    expect(await runCode({ code: "return 'b ran'", limits, owner: "b" })).toEqual({ value: "b ran" });
    const refused: any = await runCode({ code: "return 1", limits: { ...limits, maxQueued: 1 }, owner: "a" }).catch((e) => e);
    expect(refused.message).toContain("the most one client may hold");
    expect(refused.message).toContain("sandbox.max_concurrent");
    ctl.abort();
    for (const e of await Promise.all(a)) expect(e.kind).toBe("aborted");
  });

  test("runs started by a run do not deadlock on a full pool", async () => {
    const module = "export async function double(args) { return args.n * 2 }";
    const limits = { maxConcurrent: 1 };
    // execute (holding the only place) calls a tool that runs module code, three at once.
    const callTool = async (_tool: string, a: any) => runModuleFunction({ code: module, fn: "double", args: a, limits });
    const r = await runCode({ code: "return await Promise.all([1, 2, 3].map((n) => mcp.m.double({ n })))", callTool, limits });
    expect(r).toEqual({ value: [2, 4, 6] });
  });

  test("a module calling itself through ctx.mcp is stopped by the nesting limit", async () => {
    const module = "export async function loop(args, ctx) { return await ctx.mcp.self.loop({}) }";
    const callTool = async (): Promise<unknown> => runModuleFunction({ code: module, fn: "loop", ctx: { callTool } });
    const e: any = await runModuleFunction({ code: module, fn: "loop", ctx: { callTool } }).catch((x) => x);
    expect(e).toBeInstanceOf(SandboxError);
    expect(e.message).toContain("nest more than 8 deep");
    expect(admissionState().running).toBe(0);
  });
});
