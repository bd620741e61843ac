// The GET stream of a legacy (2025-11-25) session: where server-initiated messages go when no
// request of the session is open to carry them.
import { encode, SSE_HEADERS } from "./wire.ts";

const KEEPALIVE_MS = 15_000;

export class SessionStream {
  readonly response: Response;
  private stream!: ReadableStreamDefaultController<Uint8Array>;
  private readonly timer: ReturnType<typeof setInterval>;
  open = true;

  constructor(
    headers: Record<string, string>,
    private readonly onClose: () => void,
  ) {
    this.response = new Response(
      new ReadableStream<Uint8Array>({
        start: (c) => {
          this.stream = c;
          // Bytes at once, so the client sees the headers without waiting for the first message.
          c.enqueue(encode(": stream open\n\n"));
        },
        cancel: () => this.ended(),
      }),
      { status: 200, headers: { ...headers, ...SSE_HEADERS } },
    );
    // A comment line now and then keeps proxies and idle timers from closing a quiet stream.
    this.timer = setInterval(() => this.write(encode(": keepalive\n\n")) || this.ended(), KEEPALIVE_MS);
  }

  write(bytes: Uint8Array): boolean {
    if (!this.open) return false;
    try {
      this.stream.enqueue(bytes);
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    try {
      this.stream.close();
    } catch {}
    this.ended();
  }

  private ended(): void {
    if (!this.open) return;
    this.open = false;
    clearInterval(this.timer);
    this.onClose();
  }
}
