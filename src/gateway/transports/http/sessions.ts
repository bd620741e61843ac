// Sessions of the Streamable HTTP transport: one per legacy `initialize` (kept in the table, capped,
// swept when idle), or one per request for 2026-07-28 and server/discover (never kept).
import type { AsyncLocalStorage } from "node:async_hooks";
import { log } from "../../../log.ts";
import type { Id, Message } from "../../../mcp/jsonrpc.ts";
import type { Gateway } from "../../dispatch/server.ts";
import type { Session } from "../../../mcp/session.ts";
import type { Exchange } from "./exchange.ts";
import { SessionStream } from "./session-stream.ts";
import { sseEvent } from "./wire.ts";

/** A session nobody used for this long (no request, no open stream) is ended, as if DELETEd. */
const SESSION_IDLE_MS = 60 * 60_000;
/** A session idle this long may be ended to make room for a new one. */
const EVICTABLE_AFTER_MS = 60_000;
const SWEEP_EVERY_MS = 60_000;

export class HttpSession {
  readonly waiting = new Map<Id, Exchange>();
  stream?: SessionStream;
  /** Server requests that found no open stream; sent when a GET stream opens. */
  readonly queued: Message[] = [];
  readonly session: Session;
  lastActive = Date.now();

  /** `context`: the exchange whose handling is running (set around tools/call only). */
  constructor(
    readonly id: string,
    private readonly gateway: Gateway,
    context: AsyncLocalStorage<Exchange>,
  ) {
    this.session = gateway.openSession(id, (msg, related) => this.route(msg, context.getStore(), related), { overHttp: true });
  }

  idle(now: number): boolean {
    return !this.stream?.open && this.waiting.size === 0 && now - this.lastActive > SESSION_IDLE_MS;
  }

  /** Nothing in flight, no stream, and unused for a while: may be ended to make room. */
  evictable(now: number): boolean {
    return !this.stream?.open && this.waiting.size === 0 && now - this.lastActive > EVICTABLE_AFTER_MS;
  }

  /** Opens the session's GET stream and sends it what was queued for it. */
  openStream(): SessionStream {
    const stream = new SessionStream({ "mcp-session-id": this.id }, () => {
      if (this.stream === stream) this.stream = undefined;
    });
    this.stream = stream;
    for (const msg of this.queued.splice(0)) stream.write(sseEvent(msg));
    return stream;
  }

  /** Routes what the protocol core sends: a response to the POST that asked; anything else to the
   * POST whose handling produced it (async context), else to the GET stream. */
  route(msg: Message, current: Exchange | undefined, related?: Id): void {
    // A child server's request reaches here from the child's output, outside the POST's async
    // context: the request it belongs to says which stream it goes on.
    if (current === undefined && related !== undefined) current = this.waiting.get(related);
    if (!("method" in msg)) {
      const ex = msg.id === null ? current : this.waiting.get(msg.id);
      if (ex?.deliver(msg)) return;
      log.debug(`http: response ${JSON.stringify(msg.id)} has no open request to go to; dropped`);
      return;
    }
    const isRequest = "id" in msg;
    // list_changed and other session-wide news prefer the GET stream; progress and server
    // requests made while handling a POST go back on that POST.
    const sessionWide = !isRequest && msg.method !== "notifications/progress" && msg.method !== "notifications/message";
    if (sessionWide && this.stream?.write(sseEvent(msg))) return;
    if (current?.canStream && current.deliver(msg)) return;
    if (this.stream?.write(sseEvent(msg))) return;
    if (isRequest) this.queued.push(msg);
  }

  close(): void {
    this.gateway.disconnect(this.session);
    this.stream?.close();
  }
}

/** The legacy sessions open at once, by Mcp-Session-Id. */
export class SessionTable {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(readonly max: number) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
    this.sweeper.unref?.();
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): HttpSession | undefined {
    return this.sessions.get(id);
  }

  add(hs: HttpSession): void {
    this.sessions.set(hs.id, hs);
  }

  end(hs: HttpSession): void {
    this.sessions.delete(hs.id);
    hs.close();
  }

  /** Room for one more session: the least recently used idle one is ended if need be. */
  makeRoom(): boolean {
    if (this.sessions.size < this.max) return true;
    let oldest: HttpSession | undefined;
    const now = Date.now();
    for (const hs of this.sessions.values()) if (hs.evictable(now) && (!oldest || hs.lastActive < oldest.lastActive)) oldest = hs;
    if (!oldest) return false;
    log.debug(`http: session limit (${this.max}) reached; ending idle session ${oldest.id}`);
    this.end(oldest);
    return true;
  }

  /** Ends every session and stops sweeping. */
  closeAll(): void {
    clearInterval(this.sweeper);
    for (const hs of this.sessions.values()) hs.close();
    this.sessions.clear();
  }

  private sweep(): void {
    const now = Date.now();
    for (const hs of this.sessions.values()) if (hs.idle(now)) this.end(hs);
  }
}
