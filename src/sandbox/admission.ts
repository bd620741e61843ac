// The global cap on sandboxed runs: how many run at once (sandbox.max_concurrent) and how much
// memory their limits add up to (sandbox.max_memory_mb). Runs beyond it wait in a bounded queue
// (sandbox.max_queued); beyond that they are refused with an error naming the limit.
//
// A run started by another run (execute code calling a module tool, a module calling ctx.mcp)
// must not wait behind its own parent, or a full pool would deadlock: such a run goes ahead of
// the queue, and when nothing is free it may use one overflow place lent by its parent (one per
// parent at a time). Nesting is bounded, so the total stays bounded too.
//
// Runs carry their owner (the client session they serve): one owner holds at most
// max_concurrent - 1 places, so under `pml serve` another client always finds one free.
//
// A run is admitted under the limits it asks for, pml's defaults for the rest, each checked here
// once (`withPlace`), and holds its place exactly while it runs.
import { WASM_HEAP_MAX_MB } from "../config/sandbox-limit-ranges.ts";
import { SandboxError } from "./errors.ts";
import { DEFAULT_LIMITS, type SandboxLimits } from "./limits.ts";

export interface Ticket {
  parent?: Ticket;
  owner?: string;
  depth: number;
  memory: number;
  /** Runs on its parent's overflow place, outside the caps. */
  overflow: boolean;
  /** Its overflow place is in use by a child. */
  lent: boolean;
  released: boolean;
}

interface Waiter {
  limits: SandboxLimits;
  parent?: Ticket;
  owner?: string;
  grant(t: Ticket): void;
}

/** Runs started by runs started by runs...: deeper is a module or capability calling itself. */
export const MAX_DEPTH = 8;

let running = 0;
let reserved = 0;
const queue: Waiter[] = [];
const held = new Map<string, number>();

/** The most places one owner may hold: all but one, when there is more than one. */
const ownerCap = (limits: SandboxLimits) => (limits.maxConcurrent > 1 ? limits.maxConcurrent - 1 : 1);

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round(bytes / MB);

/** What a run asks admission for: its limits (pml's defaults for the rest), what cancels its
 * wait, and the client it serves. */
export interface PlaceRequest {
  limits?: Partial<SandboxLimits>;
  signal?: AbortSignal;
  owner?: string;
}

/**
 * Runs `run` in a place of its own: the limits asked for, checked and completed with pml's
 * defaults, once a place is free (waiting, or refused when none can be had); the place is given
 * back when the run ends, however it ends. `parent`: the run on whose behalf it starts, if any.
 */
export async function withPlace<T>(req: PlaceRequest, parent: Ticket | undefined, run: (limits: SandboxLimits, ticket: Ticket) => Promise<T>): Promise<T> {
  const limits = limitsFrom(req.limits);
  const ticket = await admit(limits, parent, req.signal, req.owner);
  try {
    return await run(limits, ticket);
  } finally {
    release(ticket);
  }
}

function limitsFrom(partial?: Partial<SandboxLimits>): SandboxLimits {
  const limits = { ...DEFAULT_LIMITS, ...partial };
  for (const [k, v] of Object.entries(limits)) {
    if (typeof v !== "number" || !(v > 0)) throw new SandboxError(`sandbox limit ${k} must be a positive number, got ${String(v)}`, "limit");
  }
  // The engine's memory limit is a 32-bit size: beyond the heap's ceiling it means nothing, and
  // from 4 GB on it wraps around to a limit that fails every allocation.
  if (limits.memoryBytes > WASM_HEAP_MAX_MB * MB) {
    throw new SandboxError(`sandbox limit memoryBytes is ${limits.memoryBytes / MB} MB, over the ${WASM_HEAP_MAX_MB} MB the sandbox's WebAssembly heap can hold`, "limit");
  }
  return limits;
}

function fits(limits: SandboxLimits, owner: string | undefined): boolean {
  if (owner !== undefined && (held.get(owner) ?? 0) >= ownerCap(limits)) return false;
  return running < limits.maxConcurrent && reserved + limits.memoryBytes <= limits.totalMemoryBytes;
}

function issue(limits: SandboxLimits, parent: Ticket | undefined, owner: string | undefined): Ticket | undefined {
  const depth = parent ? parent.depth + 1 : 0;
  if (fits(limits, owner)) {
    running++;
    reserved += limits.memoryBytes;
    if (owner !== undefined) held.set(owner, (held.get(owner) ?? 0) + 1);
    return { parent, owner, depth, memory: limits.memoryBytes, overflow: false, lent: false, released: false };
  }
  if (parent && !parent.lent && !parent.released) {
    parent.lent = true;
    return { parent, owner, depth, memory: limits.memoryBytes, overflow: true, lent: false, released: false };
  }
  return undefined;
}

function busyReason(limits: SandboxLimits, owner: string | undefined): { reason: string; key: string } {
  const mine = owner === undefined ? 0 : (held.get(owner) ?? 0);
  if (running < limits.maxConcurrent && mine >= ownerCap(limits)) {
    return {
      reason: `this client already has ${mine} sandboxed runs in progress, the most one client may hold so that others always find a free place (sandbox.max_concurrent - 1 = ${ownerCap(limits)})`,
      key: "sandbox.max_concurrent",
    };
  }
  if (running >= limits.maxConcurrent) {
    return { reason: `${running} sandboxed runs are in progress, the most allowed at once (sandbox.max_concurrent = ${limits.maxConcurrent})`, key: "sandbox.max_concurrent" };
  }
  return {
    reason: `the runs in progress already hold ${mb(reserved)} MB of the ${mb(limits.totalMemoryBytes)} MB all sandboxes may use together (sandbox.max_memory_mb) and this run may use ${mb(limits.memoryBytes)} MB (sandbox.memory_mb)`,
    key: "sandbox.max_memory_mb",
  };
}

/** Waits for a place for one run; `parent` is the run on whose behalf it starts, if any, and
 * `owner` the client it serves (a nested run has its parent's). */
function admit(limits: SandboxLimits, parent: Ticket | undefined, signal?: AbortSignal, ownerOf?: string): Promise<Ticket> {
  const owner = parent ? parent.owner : ownerOf;
  if (limits.memoryBytes > limits.totalMemoryBytes) {
    return Promise.reject(
      new SandboxError(
        `a sandboxed run may use ${mb(limits.memoryBytes)} MB (sandbox.memory_mb) but all runs together may use only ${mb(limits.totalMemoryBytes)} MB (sandbox.max_memory_mb); lower sandbox.memory_mb or raise sandbox.max_memory_mb in .pml.json`,
        "busy",
      ),
    );
  }
  if (parent && parent.depth + 1 > MAX_DEPTH) {
    return Promise.reject(new SandboxError(`sandboxed calls nest more than ${MAX_DEPTH} deep (a module or capability calling itself?); the innermost call was refused`, "limit"));
  }
  if (signal?.aborted) return Promise.reject(new SandboxError("the call was cancelled", "aborted"));
  // Whoever waits could not be served when the last place was freed: a run that fits now goes ahead.
  const direct = issue(limits, parent, owner);
  if (direct) return Promise.resolve(direct);
  const waiting = queue.filter((w) => !w.parent).length;
  if (!parent && waiting >= limits.maxQueued) {
    const { reason, key } = busyReason(limits, owner);
    return Promise.reject(
      new SandboxError(
        `the sandbox is busy: ${reason}, and ${waiting} more runs are waiting (sandbox.max_queued = ${limits.maxQueued}), so this run was refused. Try again when some finish, or raise ${key} (or sandbox.max_queued) in .pml.json.`,
        "busy",
      ),
    );
  }
  return new Promise<Ticket>((resolve, reject) => {
    const started = Date.now();
    const stop = (err: SandboxError) => {
      const i = queue.indexOf(waiter);
      if (i !== -1) queue.splice(i, 1);
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      reject(err);
    };
    const onAbort = () => stop(new SandboxError("the call was cancelled while it waited for a free sandbox", "aborted"));
    const timer = setTimeout(() => {
      const { reason, key } = busyReason(limits, owner);
      stop(
        new SandboxError(
          `the run waited ${Math.round((Date.now() - started) / 1000)} s for a free sandbox and gave up: ${reason}. Raise ${key} in .pml.json, or run less at once.`,
          "busy",
        ),
      );
    }, limits.wallMs);
    const waiter: Waiter = {
      limits,
      parent,
      owner,
      grant: (t) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(t);
      },
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    if (parent) queue.unshift(waiter);
    else queue.push(waiter);
  });
}

function release(t: Ticket): void {
  if (t.released) return;
  t.released = true;
  if (t.overflow) {
    if (t.parent) t.parent.lent = false;
  } else {
    running--;
    reserved -= t.memory;
    if (t.owner !== undefined) {
      const n = (held.get(t.owner) ?? 1) - 1;
      if (n > 0) held.set(t.owner, n);
      else held.delete(t.owner);
    }
  }
  pump();
}

function pump(): void {
  for (let i = 0; i < queue.length; ) {
    const w = queue[i]!;
    const t = issue(w.limits, w.parent, w.owner);
    if (!t) {
      i++;
      continue;
    }
    queue.splice(i, 1);
    w.grant(t);
  }
}

/** For `pml doctor` and tests: what is in use now. */
export function admissionState(): { running: number; reservedBytes: number; queued: number } {
  return { running, reservedBytes: reserved, queued: queue.length };
}
