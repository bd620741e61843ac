// One sandbox engine = one QuickJS WebAssembly instance + one runtime (heap, limits, interrupt
// handler). Realms (QuickJS contexts) live in it; a call runs in a realm. The host never touches
// guest objects: it hands the guest JSON strings and reads back one string per call, so no host
// object, getter or proxy crosses in either direction.
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core";
import { SandboxError } from "./errors.ts";
import { DEFAULT_LIMITS, type SandboxLimits } from "./limits.ts";
import { PRELUDE } from "./prelude.ts";
import { newQuickJSInstance } from "./quickjs.ts";

/** QuickJS's own stack check (it sees the WebAssembly shadow stack only; see quickjs.ts). */
const STACK_BYTES = 256 * 1024;

/** Calls a tool by id ("ns:action") on behalf of the guest; the gateway checks and routes it. */
export type CallTool = (toolId: string, args: unknown) => Promise<unknown>;
/** One host capability (fs.read, exec, fetch...). `signal` aborts when the sandbox call ends. */
export type HostOp = (args: any, signal: AbortSignal) => Promise<unknown>;

export interface SandboxHost {
  ops: Record<string, HostOp>;
  /** Told about every refusal the sandbox itself sees (an undeclared env var read). */
  refused?(attempted: string, reason: string): void;
}

/** Sends one host call (op, JSON payload) to pml's main thread; resolves with the JSON result. */
export type ForwardHostCall = (op: string, payload: string) => Promise<string | undefined>;

export interface CallState {
  limits: SandboxLimits;
  /** Where host calls go; without it the guest's host calls fail. */
  forward?: ForwardHostCall;
  /** Told about every refusal the sandbox itself sees (an undeclared env var read). */
  refused?: (attempted: string, reason: string) => void;
  cpuUsed: number;
  segStart: number;
  abort?: SandboxError;
  hostCalls: number;
  pending: Set<QuickJSDeferredPromise>;
  controller: AbortController;
  done: boolean;
  /** File name the guest code was compiled under and how many wrapper lines precede it. */
  file: string;
  lineOffset: number;
  /** Maps a line of compiled code to the user's line (TypeScript input). */
  mapLine?: (line: number) => number;
  /** The user's last line: an error at the wrapper's closing brace is reported there. */
  lastLine?: number;
  promise?: QuickJSHandle;
  resolve?: (value: unknown) => void;
  reject?: (error: SandboxError) => void;
  timer?: ReturnType<typeof setTimeout>;
  /** performance.now() after which the call is out of time (checked while guest code runs). */
  deadline?: number;
  onAbort?: () => void;
  signal?: AbortSignal;
}

export function newCall(init: Pick<CallState, "limits" | "forward" | "refused" | "file" | "lineOffset" | "mapLine" | "signal">): CallState {
  return { ...init, cpuUsed: 0, segStart: 0, hostCalls: 0, pending: new Set(), controller: new AbortController(), done: false };
}

export class Realm {
  exports?: QuickJSHandle;
  constructor(
    readonly vm: QuickJSContext,
    readonly callExport: QuickJSHandle,
    readonly callCode: QuickJSHandle,
    private readonly owner: Set<Realm>,
  ) {
    owner.add(this);
  }

  dispose(): void {
    if (!this.owner.delete(this)) return;
    this.exports?.dispose();
    this.callExport.dispose();
    this.callCode.dispose();
    this.vm.dispose();
  }
}

let cancelFlag: Int32Array | undefined;

/** Shared memory the main thread writes to cancel the run in progress on this thread. */
export function setCancelFlag(flag: Int32Array): void {
  cancelFlag = flag;
}

/** Guest computation after which a run counts as a CPU hog (see onCpuHog). */
const HOG_MS = 50;
let cpuHog: (() => void) | undefined;

/** Called once, the first time a run on this thread computes for more than HOG_MS. */
export function onCpuHog(f: () => void): void {
  cpuHog = f;
}

/** True while pml's main thread asks the run on this thread to stop. */
export function cancelRequested(): boolean {
  return cancelFlag !== undefined && Atomics.load(cancelFlag, 0) !== 0;
}

const RECOVERABLE = new Set(["thrown", "syntax", "result", "export"]);

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class Engine {
  /** Set once the engine may be inconsistent (host stack overflow, engine error): never reused. */
  dead = false;
  /** Set when a call hit a limit: the engine finishes nothing else and is retired. */
  spent = false;
  private call?: CallState;
  private readonly realms = new Set<Realm>();
  /** A fresh realm made while idle, so the next snippet does not wait for one. */
  spare?: Realm;

  private constructor(
    private readonly rt: QuickJSRuntime,
    private readonly qjs: QuickJSWASMModule,
  ) {
    rt.setMaxStackSize(STACK_BYTES);
    rt.setMemoryLimit(DEFAULT_LIMITS.memoryBytes);
    rt.setInterruptHandler(() => {
      const c = this.call;
      if (!c) return false;
      if (c.abort) return true;
      // Set by pml's main thread (cancellation) while this thread is busy running guest code.
      if (cancelRequested()) {
        c.abort = new SandboxError("the call was cancelled", "aborted");
        return true;
      }
      if (c.deadline && performance.now() > c.deadline) {
        c.abort = new SandboxError(`the call took longer than the time limit (${c.limits.wallMs} ms) and was stopped`, "timeout");
        return true;
      }
      if (!c.segStart) return false;
      const used = c.cpuUsed + (performance.now() - c.segStart);
      if (used > c.limits.cpuMs) {
        c.abort = new SandboxError(`the code ran longer than the CPU time limit (${c.limits.cpuMs} ms) and was stopped`, "cpu");
        return true;
      }
      if (used > HOG_MS && cpuHog) {
        const f = cpuHog;
        cpuHog = undefined;
        f();
      }
      return false;
    });
  }

  static async create(): Promise<Engine> {
    const qjs = await newQuickJSInstance();
    return new Engine(qjs.newRuntime(), qjs);
  }

  /** The WebAssembly memory this engine holds (it only grows; dropping the engine gives it back). */
  get heapBytes(): number {
    return (this.qjs as any).module?.HEAPU8?.byteLength ?? 0;
  }

  get usable(): boolean {
    return !this.dead && !this.spent;
  }

  /** Runs `f` against the engine as part of `call`: CPU time is accounted, and an exception from
   * the engine itself (not a guest exception, which comes back as a value) discards the engine. */
  enter<T>(call: CallState, f: () => T): T {
    if (this.dead) throw new SandboxError("the sandbox instance was discarded after an engine failure", "crash");
    this.call = call;
    call.segStart = performance.now();
    try {
      return f();
    } catch (e) {
      this.dead = true;
      if (e instanceof SandboxError) throw e;
      if (e instanceof RangeError || /call stack/i.test(errorMessage(e))) {
        throw new SandboxError("stack overflow: the code nests too deeply (recursion or deeply nested data)", "stack");
      }
      throw new SandboxError(`the sandbox engine failed: ${errorMessage(e)}`, "crash");
    } finally {
      call.cpuUsed += performance.now() - call.segStart;
      call.segStart = 0;
    }
  }

  /** A new context with the prelude evaluated and the two host functions bound. */
  newRealm(call: CallState): Realm {
    return this.enter(call, () => {
      const vm = this.rt.newContext();
      const host = vm.newFunction("host", (opH, payloadH) => this.hostCall(vm, opH, payloadH));
      const hostSync = vm.newFunction("hostSync", (_kindH, nameH) => {
        const c = this.call;
        if (!c || vm.typeof(nameH) !== "string") return;
        const name = vm.getString(nameH).slice(0, 200);
        try {
          c.refused?.(`env ${name}`, "environment variable not declared in env_required");
        } catch {}
      });
      const prelude = vm.unwrapResult(vm.evalCode(PRELUDE, "pml-prelude.js"));
      const glue = vm.unwrapResult(vm.callFunction(prelude, vm.undefined, host, hostSync));
      const realm = new Realm(vm, vm.getProp(glue, "callExport"), vm.getProp(glue, "callCode"), this.realms);
      glue.dispose();
      prelude.dispose();
      host.dispose();
      hostSync.dispose();
      return realm;
    });
  }

  /** Evaluates ES module code in the realm and keeps its namespace. */
  loadModule(call: CallState, realm: Realm, code: string): void {
    const { vm } = realm;
    const result = this.enter(call, () => vm.evalCode(code, call.file, { type: "module" }));
    if (result.error) throw this.guestError(call, vm, result.error, "syntax");
    let ns = result.value;
    const state = this.enter(call, () => {
      this.rt.executePendingJobs().dispose();
      return vm.getPromiseState(ns);
    });
    if (state.type === "pending") {
      ns.dispose();
      throw new SandboxError("the module's top-level code awaits something that never settles; modules must not wait at load time", "thrown");
    }
    if (state.type === "rejected") {
      ns.dispose();
      throw this.guestError(call, vm, state.error, "thrown");
    }
    if (!state.notAPromise) {
      ns.dispose();
      ns = state.value;
    }
    if (call.abort) {
      ns.dispose();
      throw call.abort;
    }
    realm.exports = ns;
  }

  /** Compiles `source` (a function expression) in the realm. */
  compile(call: CallState, realm: Realm, source: string): QuickJSHandle {
    const { vm } = realm;
    const result = this.enter(call, () => vm.evalCode(source, call.file));
    if (result.error) throw this.guestError(call, vm, result.error, "syntax");
    return result.value;
  }

  /** Calls glue.callExport(fn, payload) or glue.callCode(fn, payload) and settles with the value. */
  run(call: CallState, realm: Realm, entry: "callExport" | "callCode", fn: QuickJSHandle, payload: string): Promise<unknown> {
    const { vm } = realm;
    const outcome = new Promise<unknown>((resolve, reject) => {
      call.resolve = resolve;
      call.reject = reject;
    });
    this.rt.setMemoryLimit(call.limits.memoryBytes);
    call.deadline = performance.now() + call.limits.wallMs;
    call.timer = setTimeout(() => {
      call.abort ??= new SandboxError(`the call took longer than the time limit (${call.limits.wallMs} ms) and was stopped`, "timeout");
      this.finish(call, call.abort);
    }, call.limits.wallMs);
    if (call.signal) {
      call.onAbort = () => {
        call.abort ??= new SandboxError("the call was cancelled", "aborted");
        this.finish(call, call.abort);
      };
      if (call.signal.aborted) call.onAbort();
      else call.signal.addEventListener("abort", call.onAbort, { once: true });
    }
    if (call.done) return outcome;
    try {
      const res = this.enter(call, () => {
        const payloadH = vm.newString(payload);
        try {
          return vm.callFunction(entry === "callExport" ? realm.callExport : realm.callCode, vm.undefined, fn, payloadH);
        } finally {
          payloadH.dispose();
        }
      });
      if (res.error) {
        this.finish(call, this.guestError(call, vm, res.error, "thrown"));
        return outcome;
      }
      call.promise = res.value;
      this.pump(call, vm);
    } catch (e) {
      this.finish(call, e);
    }
    return outcome;
  }

  private pump(call: CallState, vm: QuickJSContext): void {
    if (call.done) return;
    try {
      this.enter(call, () => this.rt.executePendingJobs().dispose());
      this.check(call, vm);
    } catch (e) {
      this.finish(call, e);
    }
  }

  private check(call: CallState, vm: QuickJSContext): void {
    if (call.done) return;
    if (call.abort) return this.finish(call, call.abort);
    const state = this.enter(call, () => vm.getPromiseState(call.promise!));
    if (state.type === "pending") return;
    if (state.type === "rejected") return this.finish(call, this.guestError(call, vm, state.error, "thrown"));
    const h = state.value;
    try {
      if (vm.typeof(h) !== "string") return this.finish(call, new SandboxError("the sandbox glue returned a non-string (was it tampered with?)", "result"));
      const length = this.enter(call, () => vm.getProp(h, "length").consume((l) => vm.getNumber(l)));
      if (length > call.limits.maxResultBytes + 1) {
        return this.finish(call, new SandboxError(`the result is ${length} characters of JSON, over the limit of ${call.limits.maxResultBytes}; return less (e.g. a summary or a slice)`, "result"));
      }
      const text = vm.getString(h);
      this.finish(call, undefined, text);
    } finally {
      if (h.alive && h !== call.promise) h.dispose();
    }
  }

  /** Settles the call once: the outer promise, the timer, pending host calls, guest handles. */
  private finish(call: CallState, error?: unknown, text?: string): void {
    if (call.done) return;
    call.done = true;
    clearTimeout(call.timer);
    if (call.onAbort) call.signal?.removeEventListener("abort", call.onAbort);
    call.controller.abort();
    if (!this.dead) {
      try {
        call.promise?.dispose();
        for (const d of call.pending) d.dispose();
      } catch {
        this.dead = true;
      }
    }
    call.pending.clear();
    if (this.call === call) this.call = undefined;
    let value: unknown;
    if (error === undefined) {
      try {
        value = decode(call, text!);
      } catch (e) {
        error = e instanceof SandboxError ? e : new SandboxError(errorMessage(e), "result");
      }
    }
    if (error === undefined) return call.resolve!(value);
    const err = error instanceof SandboxError ? error : new SandboxError(`the sandbox failed: ${errorMessage(error)}`, "crash");
    // A limit hit leaves guest state half-way (a loop cut short, a heap near full): retire the engine.
    if (!RECOVERABLE.has(err.kind)) this.spent = true;
    call.reject!(err);
  }

  /** The guest called host(op, payload): answer with a guest promise settled later. */
  private hostCall(vm: QuickJSContext, opH: QuickJSHandle, payloadH: QuickJSHandle): QuickJSHandle {
    const call = this.call;
    if (!call || call.done) throw new Error("no sandbox call is in progress");
    if (vm.typeof(opH) !== "string" || vm.typeof(payloadH) !== "string") throw new TypeError("host calls take strings");
    const length = vm.getProp(payloadH, "length").consume((l) => vm.getNumber(l));
    if (length > call.limits.maxResultBytes) {
      throw new RangeError(`the arguments are ${length} characters of JSON, over the limit of ${call.limits.maxResultBytes}`);
    }
    if (++call.hostCalls > call.limits.maxHostCalls) {
      call.abort ??= new SandboxError(`the code made more than ${call.limits.maxHostCalls} host calls and was stopped`, "limit");
      throw new Error(call.abort.message);
    }
    if (call.pending.size >= call.limits.maxPendingHostCalls) {
      call.abort ??= new SandboxError(`the code had more than ${call.limits.maxPendingHostCalls} host calls in flight at once and was stopped`, "limit");
      throw new Error(call.abort.message);
    }
    const op = vm.getString(opH);
    const payload = vm.getString(payloadH);
    const d = vm.newPromise();
    call.pending.add(d);
    (call.forward ? call.forward(op, payload) : Promise.reject(new Error("no host calls are reachable from this code"))).then(
      (text) => this.settleHost(call, vm, d, true, text),
      (e) => this.settleHost(call, vm, d, false, errorMessage(e)),
    );
    return d.handle;
  }

  private settleHost(call: CallState, vm: QuickJSContext, d: QuickJSDeferredPromise, ok: boolean, value: string | undefined): void {
    if (this.dead) return;
    if (call.done) {
      try {
        d.dispose();
      } catch {}
      return;
    }
    call.pending.delete(d);
    try {
      this.enter(call, () => {
        const h = ok ? (value === undefined ? vm.undefined : vm.newString(value)) : vm.newError({ name: "Error", message: value ?? "host call failed" });
        try {
          if (ok) d.resolve(h);
          else d.reject(h);
        } finally {
          h.dispose();
          d.dispose();
        }
      });
    } catch (e) {
      return this.finish(call, e);
    }
    this.pump(call, vm);
  }

  /** Turns a guest exception handle into a SandboxError (and disposes the handle). */
  guestError(call: CallState, vm: QuickJSContext, h: QuickJSHandle, kind: "syntax" | "thrown"): SandboxError {
    if (call.abort) {
      h.dispose();
      return call.abort;
    }
    let info: any;
    try {
      info = this.enter(call, () => vm.dump(h));
    } catch (e) {
      return e instanceof SandboxError ? e : new SandboxError(errorMessage(e), "crash");
    } finally {
      if (h.alive) h.dispose();
    }
    return describeGuestError(call, info, kind);
  }

  dispose(): void {
    // A dead or spent engine may hold guest state mid-flight (queued jobs, a half-built heap):
    // rather than tear it down piece by piece, drop the whole WebAssembly instance to the GC.
    if (this.dead || this.spent) {
      this.dead = true;
      return;
    }
    this.dead = true;
    try {
      for (const realm of [...this.realms]) realm.dispose();
      this.rt.dispose();
    } catch {}
  }
}

function lineOf(call: CallState, stack: string | undefined, lineNumber: unknown): number | undefined {
  let line: number | undefined;
  if (typeof lineNumber === "number") line = lineNumber;
  else if (stack) {
    const escaped = call.file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const m = new RegExp(`${escaped}:(\\d+)`).exec(stack);
    if (m) line = Number(m[1]);
  }
  if (line === undefined) return undefined;
  line -= call.lineOffset;
  if (call.mapLine) line = call.mapLine(line);
  if (call.lastLine && line > call.lastLine) line = call.lastLine;
  return line >= 1 ? line : undefined;
}

function describeGuestError(call: CallState, info: any, kind: "syntax" | "thrown"): SandboxError {
  if (info === null || typeof info !== "object") return new SandboxError(`threw a non-Error value: ${String(info)}`, kind);
  const name = String(info.name ?? "Error");
  const message = String(info.message ?? "");
  if (name === "InternalError" && /out of memory/.test(message)) {
    return new SandboxError(`the code ran out of memory (limit ${Math.round(call.limits.memoryBytes / 1048576)} MB)`, "memory");
  }
  if (name === "InternalError" && /stack overflow/.test(message)) {
    return new SandboxError("stack overflow: the code nests too deeply (recursion or deeply nested data)", "stack");
  }
  if (name === "InternalError" && /interrupted/.test(message)) {
    return call.abort ?? new SandboxError("the code was interrupted", "cpu");
  }
  const line = lineOf(call, info.stack, name === "SyntaxError" ? info.lineNumber : undefined);
  const where = line ? ` (line ${line})` : "";
  return new SandboxError(`${name}: ${message}${where}`, name === "SyntaxError" ? "syntax" : kind, line);
}

function decode(call: CallState, text: string): unknown {
  const tag = text[0];
  const body = text.slice(1);
  if (tag === "U") return undefined;
  if (tag === "V") return JSON.parse(body);
  if (tag === "R") throw new SandboxError(`the returned value is not JSON-serialisable: ${JSON.parse(body)}`, "result");
  if (tag === "E") throw describeGuestError(call, JSON.parse(body), "thrown");
  throw new SandboxError("the sandbox glue returned an unknown answer", "result");
}
