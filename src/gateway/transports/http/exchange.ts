// One POST that carries a request, and the HTTP answer it gets: JSON if the JSON-RPC response
// comes first, or an SSE stream (owned here) as soon as anything else has to go out before it.
import type { Id, Message } from "../../../mcp/jsonrpc.ts";
import { modernStatus, sseEvent, SSE_HEADERS, type Accept } from "./wire.ts";

export class Exchange {
  readonly response: Promise<Response>;
  private resolve!: (r: Response) => void;
  private stream?: ReadableStreamDefaultController<Uint8Array>;
  private done = false;

  constructor(
    readonly requestId: Id,
    private readonly accept: Accept,
    private readonly headers: Record<string, string>,
    /** 2026-07-28: protocol errors carry their HTTP status (400, 404) too. */
    private readonly modern = false,
  ) {
    this.response = new Promise((r) => (this.resolve = r));
  }

  get canStream(): boolean {
    return !this.done && this.accept.sse;
  }

  deliver(msg: Message): boolean {
    if (this.done) return false;
    const final = !("method" in msg) && msg.id === this.requestId;
    if (!this.stream) {
      if (final && (this.accept.json || !this.accept.sse)) {
        this.answerJson(msg);
        return true;
      }
      if (!this.accept.sse) return false;
      this.openStream();
    }
    try {
      this.stream!.enqueue(sseEvent(msg));
      if (final) {
        this.done = true;
        this.stream!.close();
      }
    } catch {
      this.done = true; // the client went away
      return false;
    }
    return true;
  }

  /** The client disconnected: stop streaming (the call itself goes on, per the spec). */
  abandon(): void {
    if (this.done) return;
    this.done = true;
    try {
      this.stream?.close();
    } catch {}
    this.resolve(new Response(null, { status: 499 }));
  }

  private answerJson(msg: Message): void {
    this.done = true;
    const status = this.modern && "error" in msg ? modernStatus(msg.error!.code) : 200;
    this.resolve(new Response(JSON.stringify(msg), { status, headers: { ...this.headers, "content-type": "application/json" } }));
  }

  private openStream(): void {
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        this.stream = c;
      },
      cancel: () => {
        this.done = true;
      },
    });
    this.resolve(new Response(body, { status: 200, headers: { ...this.headers, ...SSE_HEADERS } }));
  }
}
