// Spawning the real pml (compiled binary or source entry) and talking JSON-RPC to it.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const ROOT = resolve(import.meta.dir, "../..");
export const BIN = join(ROOT, "dist/pml");
export const BUN = process.execPath;

/** The two ways to run pml: the compiled binary (what users get) and the source entry. */
export const entries = {
  binary: [BIN],
  source: [BUN, join(ROOT, "src/main.ts")],
} as const;
export type EntryKind = keyof typeof entries;

export function tempDir(prefix = "pml-test-"): { path: string; cleanup(): void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** A clean environment: no keys or workspace from the developer's shell leak into tests. */
export function testEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(PML_|CLAUDE_)/.test(k) || /API_KEY|TOKEN|SECRET/.test(k)) continue;
    env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** Raw line-level JSON-RPC peer over a spawned `pml stdio`. */
export class RawPeer {
  readonly proc: ReturnType<typeof Bun.spawn>;
  private buf = "";
  readonly lines: string[] = [];
  private waiters: Array<() => void> = [];
  stderr = "";

  constructor(cmd: readonly string[], opts: { cwd: string; env: Record<string, string> }) {
    this.proc = Bun.spawn([...cmd, "stdio"], { cwd: opts.cwd, env: opts.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    void this.pump(this.proc.stdout as ReadableStream<Uint8Array>, (t) => {
      this.buf += t;
      let nl: number;
      while ((nl = this.buf.indexOf("\n")) !== -1) {
        this.lines.push(this.buf.slice(0, nl));
        this.buf = this.buf.slice(nl + 1);
      }
      for (const w of this.waiters.splice(0)) w();
    });
    void this.pump(this.proc.stderr as ReadableStream<Uint8Array>, (t) => (this.stderr += t));
  }

  private async pump(stream: ReadableStream<Uint8Array>, on: (t: string) => void) {
    const dec = new TextDecoder();
    for await (const chunk of stream) on(dec.decode(chunk, { stream: true }));
  }

  write(text: string): void {
    (this.proc.stdin as import("bun").FileSink).write(text);
    (this.proc.stdin as import("bun").FileSink).flush();
  }

  send(msg: unknown): void {
    this.write(`${JSON.stringify(msg)}\n`);
  }

  /** Waits for the next message matching `pred` (every stdout line must be JSON). */
  async next(pred: (m: any) => boolean = () => true, timeoutMs = 20000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // From the start each time: another waiter may have taken a line before the ones seen.
      for (let seen = 0; seen < this.lines.length; seen++) {
        const m = JSON.parse(this.lines[seen]!);
        if (pred(m)) {
          this.lines.splice(seen, 1);
          return m;
        }
      }
      if (Date.now() > deadline) throw new Error(`timed out; stdout lines: ${this.lines.join("\n")}\nstderr: ${this.stderr}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }

  async request(id: number | string, method: string, params?: unknown): Promise<any> {
    this.send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
    return this.next((m) => m.id === id && !("method" in m));
  }

  async initialize(capabilities: Record<string, unknown> = {}): Promise<any> {
    const r = await this.request(0, "initialize", { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw-test", version: "0" } });
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return r;
  }

  close(): void {
    (this.proc.stdin as import("bun").FileSink).end();
  }

  kill(): void {
    this.proc.kill("SIGKILL");
  }
}

/** The SDK's real client connected to `pml stdio`. */
export async function sdkClient(
  cmd: readonly string[],
  opts: { cwd: string; env: Record<string, string>; capabilities?: Record<string, unknown> },
): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: cmd[0]!, args: [...cmd.slice(1), "stdio"], cwd: opts.cwd, env: opts.env, stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (d) => (err += d.toString()));
  const client = new Client({ name: "pml-test", version: "0" }, { capabilities: (opts.capabilities ?? {}) as any });
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

/**
 * Spawns a server command (`pml serve`, `pml registry serve`) and waits for its
 * "listening on <url>" line on stderr. Stderr keeps draining into `stderr()` afterwards, so the
 * child never blocks on a full pipe.
 */
export async function spawnListening(
  cmd: readonly string[],
  opts: { cwd?: string; env?: Record<string, string>; stdout?: "pipe" | "ignore" },
): Promise<{ proc: ReturnType<typeof Bun.spawn>; url: string; stderr(): string; stop(): Promise<void> }> {
  const proc = Bun.spawn([...cmd], { cwd: opts.cwd, env: opts.env ?? testEnv(), stdin: "ignore", stdout: opts.stdout ?? "ignore", stderr: "pipe" });
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  let match: RegExpExecArray | null = null;
  while (!(match = /listening on (http:\/\/\S+)/.exec(text))) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${cmd.join(" ")} exited before listening:\n${text}`);
    text += decoder.decode(value, { stream: true });
  }
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })().catch(() => {});
  return {
    proc,
    url: match[1]!,
    stderr: () => text,
    stop: async () => {
      proc.kill();
      await proc.exited;
    },
  };
}

/** The token tests start `pml serve` with (PML_SERVE_TOKEN), and the header that passes it. */
export const SERVE_TOKEN = "pml-test-serve-token-0123456789abcdef";
export const SERVE_AUTH = { authorization: `Bearer ${SERVE_TOKEN}` };

/** spawnListening for `pml serve`, with SERVE_TOKEN as its token: callers send SERVE_AUTH. */
export function spawnServe(cmd: readonly string[], opts: Parameters<typeof spawnListening>[1]): ReturnType<typeof spawnListening> {
  return spawnListening(cmd, { ...opts, env: { ...(opts.env ?? testEnv()), PML_SERVE_TOKEN: SERVE_TOKEN } });
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a rejection");
}
