// `pml serve` (Streamable HTTP) vs `pml stdio` (the baseline), same tool, same SDK client, one run:
// latency (median, p95) and throughput at concurrency 1 and 32.
//   bun bench/serve.ts [--calls N] [--tool status] [--bin dist/pml]
// Without --bin, both servers run from source (bun src/main.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const { values } = parseArgs({ options: { calls: { type: "string", default: "2000" }, tool: { type: "string", default: "status" }, bin: { type: "string" } } });
const CALLS = Number(values.calls);
const TOOL = values.tool!;
const ROOT = resolve(import.meta.dir, "..");
const launch = values.bin ? [resolve(values.bin)] : [process.execPath, join(ROOT, "src/main.ts")];

const dir = mkdtempSync(join(tmpdir(), "pml-bench-serve-"));
const ws = join(dir, "ws");
const home = join(dir, "home");
mkdirSync(ws);
mkdirSync(home);
writeFileSync(join(ws, ".pml.json"), JSON.stringify({ permissions: { allow: [], ask: [], deny: [] } }));
const TOKEN = crypto.randomUUID() + crypto.randomUUID();
const AUTH = { authorization: `Bearer ${TOKEN}` };
const env = { ...process.env, PML_HOME: home, PML_WORKSPACE: ws, PML_LOG: "error", PML_SERVE_TOKEN: TOKEN } as Record<string, string>;

async function stdioClient(): Promise<{ client: Client; stop(): Promise<void> }> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command: launch[0]!, args: [...launch.slice(1), "stdio"], env, cwd: ws, stderr: "ignore" }));
  return { client, stop: () => client.close() };
}

async function httpClient(): Promise<{ client: Client; url: string; stop(): Promise<void> }> {
  const proc = Bun.spawn([...launch, "serve", "--port", "0"], { cwd: ws, env, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let seen = "";
  while (!/listening on (\S+)/.test(seen)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`pml serve exited:\n${seen}`);
    seen += new TextDecoder().decode(value);
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  const url = seen.match(/listening on (\S+)/)![1]!;
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: AUTH } }));
  return {
    client,
    url,
    async stop() {
      await client.close();
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

interface Figures {
  median: number;
  p95: number;
  perSecond: number;
  errors: number;
}

/** The same calls as plain fetch POSTs in a fresh session: the transport without the SDK client's own cost. */
async function rawCaller(url: string): Promise<Pick<Client, "callTool">> {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", ...AUTH };
  const init = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
  });
  await init.text();
  const session = { ...headers, "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
  let id = 1;
  return {
    callTool: (async (params: { name: string; arguments: Record<string, unknown> }) => {
      const res = await fetch(url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params }) });
      return ((await res.json()) as { result: { isError?: boolean } }).result;
    }) as Client["callTool"],
  };
}

async function run(client: Pick<Client, "callTool">, concurrency: number, calls: number): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) {
        next++;
        const t = performance.now();
        const r = await client.callTool({ name: TOOL, arguments: {} });
        latencies.push(performance.now() - t);
        if (r.isError) errors++;
      }
    }),
  );
  const elapsed = performance.now() - start;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { median: at(0.5), p95: at(0.95), perSecond: (calls / elapsed) * 1000, errors };
}

const fmt = (f: Figures) => `median ${f.median.toFixed(3)} ms  p95 ${f.p95.toFixed(3)} ms  ${f.perSecond.toFixed(0)} calls/s${f.errors ? `  (${f.errors} isError)` : ""}`;

try {
  const stdio = await stdioClient();
  const http = await httpClient();
  console.log(`tool: ${TOOL}, ${CALLS} calls per case, servers: ${launch.join(" ")}`);
  const raw = await rawCaller(http.url);
  for (const c of [stdio.client, http.client, raw]) await run(c, 4, 200); // warm all
  for (const concurrency of [1, 32]) {
    const base = await run(stdio.client, concurrency, CALLS);
    const over = await run(http.client, concurrency, CALLS);
    const bare = await run(raw, concurrency, CALLS);
    console.log(`\nconcurrency ${concurrency}`);
    console.log(`  stdio (baseline)        ${fmt(base)}`);
    console.log(`  serve (HTTP, SDK)       ${fmt(over)}`);
    console.log(`  serve (HTTP, raw fetch) ${fmt(bare)}`);
    console.log(`  ratio serve(SDK)/stdio: median latency x${(over.median / base.median).toFixed(2)}, throughput x${(over.perSecond / base.perSecond).toFixed(2)}`);
    console.log(`  ratio serve(raw)/stdio: median latency x${(bare.median / base.median).toFixed(2)}, throughput x${(bare.perSecond / base.perSecond).toFixed(2)}`);
  }
  await stdio.stop();
  await http.stop();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
