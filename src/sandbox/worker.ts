// A sandbox worker: a thread of its own that runs guest code (QuickJS) one run at a time, so
// a runaway never holds up pml's main thread. It has no authority of its own: every host call
// (tools, files, exec, fetch) is a message to the main thread, which checks and answers it.
// Built into dist/pml as a separate entry point (build.ts).
import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { cancelRequested, onCpuHog, setCancelFlag } from "./thread-signals.ts";
import { SandboxError } from "./errors.ts";
import { type GuestRun, heavy, runGuestCode, runGuestModule, warmModules } from "./guest-runs.ts";
import type { SandboxLimits } from "./limits.ts";
import { useCompiledModule } from "./quickjs-wasm.ts";

declare const self: Worker;

/** A run that computes for long yields the CPU to pml's main thread (and the client): on Linux,
 * where a thread has its own nice value, this thread then runs 10 steps nicer than the process.
 * Short runs keep full priority (fast answers); a lowered worker is ended after its run, since an
 * unprivileged thread cannot raise its priority again. */
let lowered = false;

function lowerPriority(): void {
  lowered = true;
  if (process.platform !== "linux") return;
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (tid > 0 && tid !== process.pid) setPriority(tid, Math.min(19, getPriority(tid) + 10));
  } catch {}
}

export type ToWorker =
  | { t: "init"; flag: SharedArrayBuffer; wasm: WebAssembly.Module }
  | { t: "run"; id: number; kind: "code"; code: string; payload: string; limits: SandboxLimits }
  | { t: "run"; id: number; kind: "module"; code: string; key: string; fn: string; reuse: boolean; payload: string; limits: SandboxLimits }
  | { t: "host"; id: number; hid: number; ok: boolean; value?: string }
  | { t: "abort"; id: number };

export interface WireError {
  message: string;
  kind: SandboxError["kind"];
  line?: number;
  column?: number;
}

export type FromWorker =
  | { t: "host"; id: number; hid: number; op: string; payload: string }
  | { t: "refused"; id: number; attempted: string; reason: string }
  | { t: "done"; id: number; ok: true; value: unknown; warm: string[]; heavy: boolean }
  | { t: "done"; id: number; ok: false; error: WireError; warm: string[]; heavy: boolean };

const post = (m: FromWorker) => self.postMessage(m);

interface Current {
  id: number;
  controller: AbortController;
  pending: Map<number, { resolve(v: string | undefined): void; reject(e: Error): void }>;
}

let current: Current | undefined;
let hostSeq = 0;

async function start(m: Extract<ToWorker, { t: "run" }>): Promise<void> {
  const cur: Current = { id: m.id, controller: new AbortController(), pending: new Map() };
  current = cur;
  const run: GuestRun = {
    limits: m.limits,
    payload: m.payload,
    signal: cur.controller.signal,
    forward: (op, payload) =>
      new Promise((resolve, reject) => {
        const hid = ++hostSeq;
        cur.pending.set(hid, { resolve, reject });
        post({ t: "host", id: m.id, hid, op, payload });
      }),
    refused: (attempted, reason) => post({ t: "refused", id: m.id, attempted, reason }),
  };
  let done: FromWorker;
  try {
    const value = m.kind === "code" ? await runGuestCode(m.code, run) : await runGuestModule(m.code, m.key, m.fn, m.reuse, run);
    done = { t: "done", id: m.id, ok: true, value, warm: warmModules(), heavy: lowered || heavy() };
  } catch (e) {
    // Cancelled while the engine was starting or loading: whatever broke, the answer is "cancelled".
    const cancelled = cur.controller.signal.aborted || cancelRequested();
    const err =
      e instanceof SandboxError && (e.kind === "aborted" || !cancelled)
        ? e
        : cancelled
          ? new SandboxError("the call was cancelled", "aborted")
          : new SandboxError(`the sandbox failed: ${(e as Error)?.message ?? e}`, "crash");
    done = { t: "done", id: m.id, ok: false, error: { message: err.message, kind: err.kind, line: err.line, column: err.column }, warm: warmModules(), heavy: lowered || heavy() };
  }
  if (current === cur) current = undefined;
  post(done);
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const m = event.data;
  switch (m.t) {
    case "init":
      setCancelFlag(new Int32Array(m.flag));
      onCpuHog(lowerPriority);
      useCompiledModule(m.wasm);
      return;
    case "run":
      void start(m);
      return;
    case "host": {
      const p = current?.id === m.id ? current.pending.get(m.hid) : undefined;
      if (!p) return;
      current!.pending.delete(m.hid);
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(m.value ?? "host call failed"));
      return;
    }
    case "abort":
      if (current?.id === m.id) current.controller.abort();
      return;
  }
};
