// One client connection: what it declared at initialize, its requests in flight, the requests
// pml sent it (elicitation), and what the user approved during it.
import { errorResponse, type Id, type Message, type Response } from "./jsonrpc.ts";

export interface ClientInfo {
  protocolVersion?: string;
  capabilities: Record<string, any>;
  info?: { name?: string; version?: string };
}

export class Session {
  client: ClientInfo = { capabilities: {} };
  readonly approved = new Set<string>();
  readonly inflight = new Map<Id, AbortController>();
  private readonly pending = new Map<Id, { resolve(r: Response): void }>();
  private nextId = 1;
  private inputClosed = false;

  constructor(
    readonly id: string,
    private readonly send: (msg: Message) => void,
  ) {}

  notify(method: string, params?: Record<string, unknown>): void {
    this.send(params ? { jsonrpc: "2.0", method, params } : { jsonrpc: "2.0", method });
  }

  reply(msg: Response): void {
    this.send(msg);
  }

  /** Sends a request to the client; resolves with its response (or a -32001 error on timeout/abort). */
  request(method: string, params: Record<string, unknown>, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<Response> {
    const id = `pml-${this.nextId++}`;
    if (this.inputClosed) return Promise.resolve(errorResponse(id, -32001, "the client closed its input"));
    return new Promise((resolve) => {
      const done = (r: Response) => {
        clearTimeout(timer);
        opts.signal?.removeEventListener("abort", onAbort);
        this.pending.delete(id);
        resolve(r);
      };
      const onAbort = () => done(errorResponse(id, -32001, "cancelled"));
      const timer = setTimeout(() => done(errorResponse(id, -32001, `no answer to ${method} within ${opts.timeoutMs} ms`)), opts.timeoutMs);
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, { resolve: done });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** Routes a response from the client to the request pml sent; false if it matches none. */
  settle(msg: Response): boolean {
    const p = msg.id === null ? undefined : this.pending.get(msg.id);
    if (!p) return false;
    p.resolve(msg);
    return true;
  }

  supportsFormElicitation(): boolean {
    const e = this.client.capabilities.elicitation;
    // An empty `elicitation: {}` means form support (spec 2025-11-25 keeps that for compatibility).
    return !!e && (e.form !== undefined || Object.keys(e).length === 0);
  }

  /** The client can no longer answer (its input closed): requests pml sent it fail at once,
   * and later ones too. Calls in flight go on. */
  endInput(): void {
    this.inputClosed = true;
    for (const [id, p] of this.pending) p.resolve(errorResponse(id, -32001, "the client closed its input"));
  }

  close(): void {
    for (const c of this.inflight.values()) c.abort();
    for (const [id, p] of this.pending) p.resolve(errorResponse(id, -32001, "session closed"));
  }
}
