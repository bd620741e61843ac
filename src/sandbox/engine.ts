// One sandbox engine = one QuickJS WebAssembly instance + one runtime (heap, limits, interrupt
// handler). Realms (QuickJS contexts) live in it; a call runs in a realm. The host never touches
// guest objects: it hands the guest JSON strings and reads back one string per call, so no host
// object, getter or proxy crosses in either direction.
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core";
import type { CallState } from "./call-state.ts";
import { SandboxError } from "./errors.ts";
import { decode, describeGuestError, errorMessage } from "./guest-errors.ts";
import { DEFAULT_LIMITS } from "./limits.ts";
import { PRELUDE } from "./prelude.ts";
import { newQuickJSInstance } from "./quickjs.ts";
import { cancelRequested, noteCpuUse } from "./thread-signals.ts";

/** QuickJS's own stack check (it sees the WebAssembly shadow stack only; see quickjs.ts). */
const STACK_BYTES = 256 * 1024;

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

const RECOVERABLE = new Set(["thrown", "syntax", "result", "export"]);

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
      noteCpuUse(used);
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
    // No stage: the module's own top-level code runs here, and may throw anything.
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
    if (result.error) throw this.guestError(call, vm, result.error, "syntax", "compiling the code");
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
        this.finish(call, this.guestError(call, vm, res.error, "thrown", "starting the code"));
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
    if (state.type === "rejected") return this.finish(call, this.guestError(call, vm, state.error, "thrown", "running the code"));
    const h = state.value;
    try {
      if (vm.typeof(h) !== "string") return this.finish(call, new SandboxError("the sandbox glue returned a non-string (was it tampered with?)", "result"));
      const length = this.enter(call, () => vm.getProp(h, "length").consume((l) => vm.getNumber(l)));
      if (length > call.limits.maxResultBytes + 1) {
        return this.finish(
          call,
          new SandboxError(`the result is ${length} characters of JSON, over the limit of ${call.limits.maxResultBytes}; return less (e.g. a summary or a slice)`, "result"),
        );
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

  /** Turns a guest exception handle into a SandboxError (and disposes the handle). `stage`: see
   * describeGuestError; absent where the user's code itself may have thrown. */
  guestError(call: CallState, vm: QuickJSContext, h: QuickJSHandle, kind: "syntax" | "thrown", stage?: string): SandboxError {
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
    return describeGuestError(call, info, kind, stage);
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
