// pml's side of the sandbox workers. Guest code runs in worker threads (worker.ts), one run per
// worker at a time, so pml's main thread keeps answering (ping, cancellation, other clients)
// whatever the guest does. Workers are kept warm (each keeps its QuickJS engines and loaded
// modules); a module call goes to a worker that already has the module loaded.
//
// Host calls stay here, on the main thread: the worker sends (op, JSON), this side checks and runs
// it (host-call.ts: the gateway's callTool, the host ops of host-functions.ts) and sends the
// JSON answer back.
// Cancelling sets a flag in shared memory that the engine's interrupt handler reads; a worker that
// does not stop at once is terminated, and a new one is started when next needed.
import { AsyncLocalStorage } from "node:async_hooks";
import { releaseCodePages } from "../code-pages.ts";
import { withPlace, type Ticket } from "./admission.ts";
import type { CallTool, SandboxHost } from "./call-state.ts";
import { SandboxError } from "./errors.ts";
import { hostCall, type HostCallTarget } from "./host-call.ts";
import type { SandboxLimits } from "./limits.ts";
import { compiledModule, forgetCompiledModule } from "./quickjs-wasm.ts";
import type { FromWorker, ToWorker } from "./worker.ts";

declare const PML_SANDBOX_WORKER: string | undefined;

/** build.ts names the worker's place inside the compiled binary; from source it is next to this file. */
const WORKER_URL = typeof PML_SANDBOX_WORKER === "string" ? PML_SANDBOX_WORKER : new URL("./worker.ts", import.meta.url).href;

/** How long a cancelled run may take to stop by itself before its worker is terminated. */
const STOP_GRACE_MS = 200;
const MAX_IDLE_WORKERS = 4;
/**
 * Idle workers are ended after this long, the last one too, giving their memory back: a worker's
 * engines and heap, and once none is left the compiled QuickJS module (bench/rss.ts). The next
 * run then starts a worker and compiles the module again (about 50 ms, once).
 */
export const IDLE_TTL_MS = 30_000;
/** How long a terminated worker's thread may take to be torn down before its memory is reclaimed. */
const RECLAIM_DELAY_MS = 1000;

export interface WorkerRequest {
  kind: "code" | "module";
  code: string;
  /** Module calls: the exported function, and whether a warm (pooled) instance may be used. */
  fn?: string;
  reuse?: boolean;
  payload: string;
  limits?: Partial<SandboxLimits>;
  callTool?: CallTool;
  host?: SandboxHost;
  signal?: AbortSignal;
  /** The client session the run serves (see admission.ts). */
  owner?: string;
}

interface Active extends HostCallTarget {
  id: number;
  ticket: Ticket;
  settle(error: SandboxError | undefined, value?: unknown): void;
}

interface SandboxWorker {
  worker: Worker;
  flag: Int32Array;
  run?: Active;
  warm: Set<string>;
  idleTimer?: ReturnType<typeof setTimeout>;
  gone: boolean;
  /** Settles once the worker has been sent the compiled QuickJS (and its cancel flag). */
  ready: Promise<void>;
}

/** The run on whose behalf the current host call is made: runs started from it are its children. */
const lineage = new AsyncLocalStorage<Ticket>();
const idle: SandboxWorker[] = [];
const all = new Set<SandboxWorker>();
let runSeq = 0;

function spawn(): SandboxWorker {
  const worker = new Worker(WORKER_URL);
  const flag = new SharedArrayBuffer(4);
  const sw: SandboxWorker = { worker, flag: new Int32Array(flag), warm: new Set(), gone: false, ready: Promise.resolve() };
  worker.unref();
  worker.onmessage = (e: MessageEvent<FromWorker>) => onMessage(sw, e.data);
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault?.();
    end(sw, new SandboxError(`the sandbox worker failed: ${e.message || "unknown error"}`, "crash"));
  };
  worker.addEventListener("close", () => end(sw, new SandboxError("the sandbox worker stopped unexpectedly", "crash")));
  all.add(sw);
  // QuickJS is compiled once here and handed to every worker (tens of ms); on a fresh start the
  // worker loads its own code meanwhile.
  sw.ready = compiledModule().then((wasm) => send(sw, { t: "init", flag, wasm }));
  return sw;
}

function send(sw: SandboxWorker, m: ToWorker): void {
  if (!sw.gone) sw.worker.postMessage(m);
}

/** Ends a worker for good; the run it had, if any, fails with `error`. */
function end(sw: SandboxWorker, error: SandboxError): void {
  if (sw.gone) return;
  sw.gone = true;
  all.delete(sw);
  clearTimeout(sw.idleTimer);
  const i = idle.indexOf(sw);
  if (i !== -1) idle.splice(i, 1);
  sw.run?.settle(error);
  sw.run = undefined;
  try {
    sw.worker.terminate();
  } catch {}
}

function take(key: string | undefined): SandboxWorker {
  let i = key ? idle.findLastIndex((w) => w.warm.has(key)) : -1;
  if (i === -1) i = idle.length - 1;
  const sw = i === -1 ? spawn() : idle.splice(i, 1)[0]!;
  clearTimeout(sw.idleTimer);
  return sw;
}

function giveBack(sw: SandboxWorker, heavy: boolean): void {
  if (sw.gone) return;
  if (heavy || idle.length >= MAX_IDLE_WORKERS) {
    end(sw, new SandboxError("retired", "crash"));
    // The last one, ended after a heavy run: the rest is given back once no run came for as long
    // as an idle worker would have stayed.
    if (all.size === 0) reclaimWhenNone(IDLE_TTL_MS);
    return;
  }
  idle.push(sw);
  sw.idleTimer = setTimeout(() => retire(sw), IDLE_TTL_MS);
  sw.idleTimer.unref?.();
}

/** Ends a worker that stayed idle; the last one takes the compiled module with it. */
function retire(sw: SandboxWorker): void {
  if (!idle.includes(sw)) return;
  end(sw, new SandboxError("retired", "crash"));
  if (all.size === 0) reclaimWhenNone(RECLAIM_DELAY_MS);
}

let reclaimTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * With no worker left after `delayMs`: the compiled module goes, then what the workers and the
 * module held goes back to the OS, which it does only after a full collection once the workers'
 * threads are gone (one synchronous collection, ~5 ms, once per idle spell; an asynchronous one
 * gives back far less); then the pages of machine code the runs touched.
 */
function reclaimWhenNone(delayMs: number): void {
  clearTimeout(reclaimTimer);
  reclaimTimer = setTimeout(() => {
    if (all.size > 0) return;
    forgetCompiledModule();
    Bun.gc(true);
    void releaseCodePages();
  }, delayMs);
  reclaimTimer.unref?.();
}

function onMessage(sw: SandboxWorker, m: FromWorker): void {
  const run = sw.run;
  if (!run || run.id !== m.id) return;
  switch (m.t) {
    case "host":
      lineage
        .run(run.ticket, () => hostCall(run, m.op, m.payload))
        .then(
          (value) => sw.run === run && send(sw, { t: "host", id: m.id, hid: m.hid, ok: true, value }),
          (e) => sw.run === run && send(sw, { t: "host", id: m.id, hid: m.hid, ok: false, value: (e as Error)?.message ?? String(e) }),
        );
      return;
    case "refused":
      try {
        run.host?.refused?.(m.attempted, m.reason);
      } catch {}
      return;
    case "done":
      Atomics.store(sw.flag, 0, 0);
      sw.run = undefined;
      sw.warm = new Set(m.warm);
      giveBack(sw, m.heavy);
      run.settle(m.ok ? undefined : new SandboxError(m.error.message, m.error.kind, m.error.line, m.error.column), m.ok ? m.value : undefined);
      return;
  }
}

/** Runs guest code in a worker, within the global caps; resolves with its (JSON) value. */
export function runInWorker(req: WorkerRequest): Promise<unknown> {
  return withPlace(req, lineage.getStore(), (limits, ticket) => dispatch(req, limits, ticket));
}

async function dispatch(req: WorkerRequest, limits: SandboxLimits, ticket: Ticket): Promise<unknown> {
  const key = req.kind === "module" ? Bun.hash(req.code).toString(36) : undefined;
  const sw = take(key);
  try {
    await sw.ready;
  } catch (e) {
    end(sw, new SandboxError("retired", "crash"));
    throw e;
  }
  if (sw.gone) throw new SandboxError("the sandbox worker stopped unexpectedly", "crash");
  const id = ++runSeq;
  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const stop = (error: SandboxError) => {
      if (settled || sw.run !== run) return;
      // The engine sees the flag at its next interrupt check; a run awaiting a host call sees the message.
      Atomics.store(sw.flag, 0, 1);
      send(sw, { t: "abort", id });
      grace ??= setTimeout(() => end(sw, error), STOP_GRACE_MS);
    };
    const onAbort = () => stop(new SandboxError("the call was cancelled", "aborted"));
    // The engine keeps its own time; this only catches a worker that no longer answers.
    const wall = setTimeout(() => stop(new SandboxError(`the call took longer than the time limit (${limits.wallMs} ms) and was stopped`, "timeout")), limits.wallMs + 1000);
    const run: Active = {
      id,
      limits,
      callTool: req.callTool,
      host: req.host,
      ticket,
      controller: new AbortController(),
      settle(error, value) {
        if (settled) return;
        settled = true;
        clearTimeout(grace);
        clearTimeout(wall);
        req.signal?.removeEventListener("abort", onAbort);
        run.controller.abort();
        if (error) reject(error);
        else resolve(value);
      },
    };
    sw.run = run;
    Atomics.store(sw.flag, 0, 0);
    if (req.kind === "code") send(sw, { t: "run", id, kind: "code", code: req.code, payload: req.payload, limits });
    else send(sw, { t: "run", id, kind: "module", code: req.code, key: key!, fn: req.fn!, reuse: req.reuse !== false, payload: req.payload, limits });
    if (req.signal?.aborted) onAbort();
    else req.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Ends every idle worker (tests, shutdown); runs in progress finish first. */
export function clearWorkers(): void {
  for (const sw of [...idle]) end(sw, new SandboxError("retired", "crash"));
}

/** For tests and diagnostics: how many workers exist, and how many are idle. */
export function workerCounts(): { total: number; idle: number } {
  return { total: all.size, idle: idle.length };
}
