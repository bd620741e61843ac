// A JSON-RPC client over a child's stdin/stdout with nothing else (no schema validation, no SDK),
// for the proxy benches: what they time is pml, not the client.
export class LineClient {
  readonly proc: ReturnType<typeof Bun.spawn>;
  private readonly waiting = new Map<number, (m: any) => void>();
  private next = 1;
  constructor(cmd: readonly string[], env: Record<string, string | undefined>, cwd: string) {
    const proc = Bun.spawn([...cmd], { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
    this.proc = proc;
    onJsonLines(proc.stdout as ReadableStream<Uint8Array>, (m) => {
      if (m.method === undefined) this.waiting.get(m.id)?.(m);
    });
  }
  call(method: string, params: unknown): Promise<any> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (m) => {
        this.waiting.delete(id);
        if (m.error) reject(new Error(m.error.message));
        else if (m.result?.resultType !== undefined && m.result.resultType !== "complete") reject(new Error(`resultType ${m.result.resultType}`));
        else resolve(m.result);
      });
      const sink = this.proc.stdin as import("bun").FileSink;
      sink.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      sink.flush();
    });
  }
  notify(method: string): void {
    (this.proc.stdin as import("bun").FileSink).write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  }
  async close(): Promise<void> {
    (this.proc.stdin as import("bun").FileSink).end();
    await this.proc.exited;
  }
}

/** Each JSON message a child writes to stdout, one per line, in order (read in the background). */
export function onJsonLines(stdout: ReadableStream<Uint8Array>, each: (m: any) => void): void {
  void (async () => {
    const dec = new TextDecoder();
    let buf = "";
    for await (const chunk of stdout) {
      buf += dec.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) !== -1) {
        const m = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        each(m);
      }
    }
  })();
}
