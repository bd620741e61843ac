// The one JSON-RPC peer: the requests a side sends and what becomes of them. Ids, a timeout per
// request that progress resets, cancellation (a `notifications/cancelled` goes out when a request
// is abandoned by timeout or by its caller's signal), progress routed to the request whose token
// it carries, and failing everything at once when the link closes. Used for pml's requests to
// the stdio servers it runs (pool) and to its clients (gateway sessions); the transport stays
// outside: the peer writes lines through `write` and is handed the messages read back.
//
// Hot path (a proxied tools/call): one Map entry, no timer of its own (one timer per peer, armed
// for the earliest deadline, sweeps the requests whose deadline passed), no closures besides the
// promise's resolving functions (the request is its own abort listener), and the request line
// built by the caller (see `send`).

import type { CancelSignal } from "./abort.ts";

export type ProgressFn = (message: string, progress?: number, total?: number) => void;

/** Why a request did not get a result. */
export type Failure =
  | { kind: "timeout"; timeoutMs: number }
  | { kind: "cancelled"; reason: unknown }
  | { kind: "closed"; reason: unknown }
  | { kind: "error"; code: number; message: string; data?: unknown };

export interface SendOptions {
  /** What the request is, for messages: "tools/call echo". */
  label: string;
  /** 0 or Infinity: no timeout. Progress on the request restarts it. */
  timeoutMs?: number;
  signal?: CancelSignal;
  /** Progress notifications whose token is this request's id. */
  progress?: ProgressFn;
  /** Turns a failure into the error the caller's caller sees. */
  fail(f: Failure, label: string): Error;
  /** Anything the owner wants to find again among the requests in flight (see `owners`). */
  owner?: unknown;
  /** Called once when the request settles, however (counting calls in flight). */
  settled?(): void;
  /** Handed to `write` with the request's line (a transport may route by it). */
  route?: unknown;
}

/** Who is told how a request ended: a promise's resolving functions (`send`), or an object of
 * the caller's that takes the answer itself (`sendTo`: no promise and no microtask turn). */
export interface Settle {
  resolve(value: any): void;
  reject(error: Error): void;
}

/** A request in flight. It is its own abort listener (an EventListenerObject, which AbortSignal
 * and Cancellation both take): a listener closure per request was an allocation on the hot path. */
class Pending {
  constructor(
    private readonly peer: Peer<any>,
    readonly id: string | number,
    readonly o: SendOptions,
    readonly to: Settle,
    /** performance.now() after which the request is abandoned; Infinity: never. */
    public deadline: number,
  ) {}

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.peer.abandonRequest(this.id, this, { kind: "cancelled", reason: this.o.signal!.reason });
  }
}

export class Peer<Id extends string | number = number> {
  private readonly pending = new Map<Id, Pending>();
  private next = 1;
  private closedWith: unknown;
  /** The one timer of this peer and the deadline it is armed for. A setTimeout per request
   * (set, then cleared on the answer) cost more than the sweep at 32 calls in flight. */
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;

  constructor(
    /** Writes one message (a complete line, newline included). */
    private readonly write: (line: string, route?: unknown) => void,
    /** Ids this side sends: numbers by default, or `${prefix}${n}` strings. */
    private readonly idPrefix?: string,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  nextId(): Id {
    const n = this.next++;
    return (this.idPrefix === undefined ? n : `${this.idPrefix}${n}`) as Id;
  }

  /** Sends `method` with `params` (an object, or undefined); resolves with the result. */
  request(method: string, params: unknown, o: SendOptions): Promise<any> {
    const id = this.nextId();
    const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(method)}`;
    return this.send(id, params === undefined ? `${head}}\n` : `${head},"params":${JSON.stringify(params)}}\n`, o);
  }

  /** Sends a line the caller built for `id` (from nextId()), e.g. with the id as progress token. */
  send(id: Id, line: string, o: SendOptions): Promise<any> {
    // Not `new Promise(executor)`: the executor would be a closure and a scope per request. The
    // resolvers' object is itself the Settle (its functions ignore `this`).
    const settle = Promise.withResolvers<any>();
    this.sendTo(id, line, o, settle);
    return settle.promise;
  }

  /** The same, told to `to` (at once when the request cannot be sent). */
  sendTo(id: Id, line: string, o: SendOptions, to: Settle): void {
    if (this.closedWith !== undefined) return to.reject(o.fail({ kind: "closed", reason: this.closedWith }, o.label));
    if (o.signal?.aborted) return to.reject(o.fail({ kind: "cancelled", reason: o.signal.reason }, o.label));
    const ms = o.timeoutMs;
    const p = new Pending(this, id, o, to, ms !== undefined && ms > 0 ? performance.now() + ms : Infinity);
    if (p.deadline < this.timerAt) this.arm(p.deadline);
    o.signal?.addEventListener("abort", p); // removed in release(), whatever settles the call
    this.pending.set(id, p);
    this.write(line, o.route);
  }

  notify(method: string, params?: unknown): void {
    const head = `{"jsonrpc":"2.0","method":${JSON.stringify(method)}`;
    this.write(params === undefined ? `${head}}\n` : `${head},"params":${JSON.stringify(params)}}\n`);
  }

  /** A response read from the other side; false when it answers no request in flight (an
   * abandoned one, or a stranger). */
  receive(msg: { id?: unknown; result?: unknown; error?: { code?: number; message?: string; data?: unknown } }): boolean {
    // Some servers send ids back as strings.
    const id = (this.idPrefix === undefined && typeof msg.id === "string" ? Number(msg.id) : msg.id) as Id;
    const p = this.pending.get(id);
    if (p === undefined) return false;
    this.pending.delete(id);
    this.release(p);
    if (msg.error !== undefined) {
      const e = msg.error ?? {};
      p.to.reject(p.o.fail({ kind: "error", code: typeof e.code === "number" ? e.code : -32603, message: String(e.message ?? "unknown error"), data: e.data }, p.o.label));
    } else p.to.resolve(msg.result);
    return true;
  }

  /** Fails a request with the caller's own error (its transport broke); false if not in flight. */
  reject(id: Id, error: Error): boolean {
    const p = this.pending.get(id);
    if (p === undefined) return false;
    this.pending.delete(id);
    this.release(p);
    p.to.reject(error);
    return true;
  }

  /** notifications/progress: routed to the request whose id is its token; restarts its timer. */
  progress(params: { progressToken?: unknown; progress?: number; total?: number; message?: string } | undefined): void {
    const p = params ? this.pending.get(params.progressToken as Id) : undefined;
    if (p === undefined) return;
    p.o.progress?.(params!.message ?? "", params!.progress, params!.total);
    // The deadline moves later: the armed timer fires early, finds nothing due and re-arms.
    if (p.deadline !== Infinity) p.deadline = performance.now() + p.o.timeoutMs!;
  }

  /** The owners of the requests in flight (distinct). */
  owners(): unknown[] {
    const out = new Set<unknown>();
    for (const p of this.pending.values()) if (p.o.owner !== undefined) out.add(p.o.owner);
    return [...out];
  }

  /** The link is gone: every request in flight fails, and later ones at once. */
  close(reason: unknown): void {
    this.closedWith = reason ?? "closed";
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) {
      this.release(p);
      p.to.reject(p.o.fail({ kind: "closed", reason: this.closedWith }, p.o.label));
    }
  }

  /** Gives up on a request and tells the other side to stop working on it (its own signal
   * aborted: Pending.handleEvent; its deadline passed: the sweep). */
  abandonRequest(id: Id, p: Pending, why: Failure): void {
    if (this.pending.get(id) !== p) return;
    this.pending.delete(id);
    this.release(p);
    if (this.closedWith === undefined) this.notify("notifications/cancelled", { requestId: id, reason: why.kind === "timeout" ? "timeout" : "cancelled by the client" });
    p.to.reject(p.o.fail(why, p.o.label));
  }

  /** Arms the peer's timer for `at` (performance.now() time). */
  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    // (setTimeout takes at most 2^31-1 ms; a later deadline is re-armed when that fires.)
    this.timer = setTimeout(this.sweep, Math.min(2 ** 31 - 1, Math.max(1, Math.ceil(at - performance.now()))));
  }

  /** Abandons every request whose deadline passed, then re-arms for the next one (if any). */
  private readonly sweep = (): void => {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    const due: [Id, Pending][] = [];
    for (const [id, p] of this.pending) {
      if (p.deadline <= now) due.push([id, p]);
      else if (p.deadline < next) next = p.deadline;
    }
    for (const [id, p] of due) this.abandonRequest(id, p, { kind: "timeout", timeoutMs: p.o.timeoutMs! });
    if (next !== Infinity && next < this.timerAt) this.arm(next);
  };

  private release(p: Pending): void {
    if (this.pending.size === 0 && this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.timerAt = Infinity;
    }
    p.o.signal?.removeEventListener("abort", p);
    p.o.settled?.();
  }
}
