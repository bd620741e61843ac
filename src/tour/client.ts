// The tour's side of the wire: it starts `pml stdio` the way a client does (the same binary, a
// child process speaking JSON-RPC lines) and plays the client. Every line either way goes to
// `onLine`, so the narration shows what was really sent and what came back, and a meter counts
// the tool calls and bytes of the task being timed (what an agent's context pays for).
import { LineSplitter, OVERFLOW } from "../mcp/jsonrpc.ts";
import { Peer, type Failure } from "../mcp/peer.ts";

export type Direction = "sent" | "got";

/** What the tour's client answers to a request from the server (elicitation/create). */
export type ServerRequestHandler = (method: string, params: any) => unknown;

export interface Meter {
  calls: number;
  bytes: number;
  approvals: number;
}

const REQUEST_TIMEOUT_MS = 60_000;
const STDERR_KEEP = 16 * 1024;

export class TourClient {
  readonly proc: ReturnType<typeof Bun.spawn>;
  private readonly peer: Peer;
  private stderrTail = "";
  private exitedWith: string | undefined;
  /** notifications received, by method. */
  readonly notifications = new Map<string, number>();
  /** While set, tool calls and the lines that belong to them are counted here. */
  meter: Meter | undefined;

  constructor(
    cmd: string[],
    opts: { cwd: string; env: Record<string, string> },
    private readonly onLine: (dir: Direction, line: string) => void,
    private readonly onServerRequest: ServerRequestHandler,
  ) {
    this.proc = Bun.spawn(cmd, { cwd: opts.cwd, env: opts.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    this.peer = new Peer((line) => this.write(line));
    const lines = new LineSplitter((line) => this.read(line));
    void this.pump(this.proc.stdout as ReadableStream<Uint8Array>, (chunk) => lines.push(chunk));
    void this.pump(this.proc.stderr as ReadableStream<Uint8Array>, (chunk) => {
      this.stderrTail = (this.stderrTail + new TextDecoder().decode(chunk)).slice(-STDERR_KEEP);
    });
    void this.proc.exited.then((code) => {
      this.exitedWith = `pml stdio exited with status ${code}`;
      this.peer.close(this.exitedWith);
    });
  }

  /** The end of what pml stdio wrote to stderr (its logs), for a failure message. */
  stderr(): string {
    return this.stderrTail.trim();
  }

  async request(method: string, params: unknown): Promise<any> {
    return this.peer.request(method, params, { label: method, timeoutMs: REQUEST_TIMEOUT_MS, fail: (f, label) => new Error(failure(f, label, this)) });
  }

  notify(method: string, params?: unknown): void {
    this.peer.notify(method, params);
  }

  /** tools/call, counted by the meter when one is running. */
  async callTool(name: string, args: Record<string, unknown>): Promise<any> {
    if (this.meter) this.meter.calls++;
    return this.request("tools/call", { name, arguments: args });
  }

  /** Ends the session as a client does (end of input) and waits for pml to exit. */
  async close(): Promise<number | null> {
    try {
      (this.proc.stdin as import("bun").FileSink).end();
    } catch {} // already gone
    let timer: ReturnType<typeof setTimeout> | undefined;
    const code = await Promise.race([this.proc.exited, new Promise<null>((r) => (timer = setTimeout(() => r(null), 10_000)))]);
    clearTimeout(timer);
    if (code === null) this.proc.kill("SIGKILL");
    return code;
  }

  private write(line: string): void {
    if (this.exitedWith) return;
    this.count(line);
    this.onLine("sent", line.trimEnd());
    const sink = this.proc.stdin as import("bun").FileSink;
    sink.write(line);
    sink.flush();
  }

  private read(line: string): void {
    if (line === OVERFLOW) return;
    let msg: any;
    try {
      msg = JSON.parse(line);
    } catch {
      this.onLine("got", line);
      this.peer.close(`pml stdio wrote a line that is not JSON-RPC on stdout: ${line.slice(0, 200)}`);
      return;
    }
    const isNotification = typeof msg?.method === "string" && msg.id === undefined;
    if (!isNotification) this.count(line);
    this.onLine("got", line);
    if (isNotification) {
      this.notifications.set(msg.method, (this.notifications.get(msg.method) ?? 0) + 1);
      if (msg.method === "notifications/progress") this.peer.progress(msg.params);
    } else if (typeof msg?.method === "string") this.answer(msg);
    else this.peer.receive(msg);
  }

  private answer(msg: { id: unknown; method: string; params?: unknown }): void {
    let reply: string;
    try {
      const result = this.onServerRequest(msg.method, msg.params);
      if (msg.method === "elicitation/create" && this.meter) this.meter.approvals++;
      reply = JSON.stringify({ jsonrpc: "2.0", id: msg.id, result });
    } catch (e) {
      reply = JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: (e as Error).message } });
    }
    this.write(`${reply}\n`);
  }

  private count(line: string): void {
    if (this.meter) this.meter.bytes += Buffer.byteLength(line.trimEnd());
  }

  private async pump(stream: ReadableStream<Uint8Array>, on: (chunk: Uint8Array) => void): Promise<void> {
    try {
      for await (const chunk of stream) on(chunk);
    } catch {} // the child is gone; `exited` reports it
  }
}

function failure(f: Failure, label: string, client: TourClient): string {
  const tail = client.stderr() ? `; its last log lines:\n${client.stderr().split("\n").slice(-8).join("\n")}` : "";
  switch (f.kind) {
    case "error":
      return `${label} answered with JSON-RPC error ${f.code}: ${f.message}`;
    case "timeout":
      return `${label} got no answer within ${f.timeoutMs / 1000} s${tail}`;
    case "closed":
      return `${label}: ${String(f.reason)}${tail}`;
    case "cancelled":
      return `${label} was cancelled`;
  }
}
