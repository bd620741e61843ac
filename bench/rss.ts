// Resident memory of `pml stdio` after `initialize` and one `execute`, idle (issue 47's target:
// <= 55 MB). Printed at each step: after initialize, right after the execute, 3 s later (the
// sandbox worker still warm), and once the idle worker has been ended (IDLE_TTL_MS) and its
// memory reclaimed, the executable's code pages too (src/code-pages.ts): the figure the target applies to. Also the latency of the first execute, of
// one after the worker was ended (a worker to start and QuickJS to compile again), and of a warm
// one right after. Median of --runs fresh processes.
//   bun build.ts && bun bench/rss.ts [--runs 3] [--bin dist/pml]
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { IDLE_TTL_MS } from "../src/sandbox/workers.ts";
import { onJsonLines } from "./line-client.ts";

const TARGET_MB = 55;
const { values } = parseArgs({ options: { runs: { type: "string", default: "3" }, bin: { type: "string", default: "dist/pml" } } });
const RUNS = Number(values.runs);
const bin = resolve(values.bin!);

/** Resident set in MB: /proc on Linux, ps elsewhere. */
function rssMb(pid: number): number {
  if (process.platform === "linux") {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return Number(m![1]) / 1024;
  }
  return (
    Number(
      Bun.spawnSync(["ps", "-o", "rss=", "-p", String(pid)])
        .stdout.toString()
        .trim(),
    ) / 1024
  );
}

interface Sample {
  init: number;
  afterExecute: number;
  warmIdle: number;
  released: number;
  firstMs: number;
  coldMs: number;
  warmMs: number;
}

async function once(): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), "pml-bench-rss-"));
  const ws = join(dir, "ws");
  const home = join(dir, "home");
  mkdirSync(ws);
  mkdirSync(home);
  const env = { ...process.env, PML_HOME: home, PML_WORKSPACE: ws, PML_LOG: "error" } as Record<string, string>;
  const proc = Bun.spawn([bin, "stdio"], { cwd: ws, env, stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const waiting = new Map<number, (m: any) => void>();
  onJsonLines(proc.stdout as ReadableStream<Uint8Array>, (m) => {
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  const stdin = proc.stdin as import("bun").FileSink;
  let seq = 0;
  const request = (method: string, params?: unknown) =>
    new Promise<any>((res) => {
      const id = ++seq;
      waiting.set(id, res);
      stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) })}\n`);
      stdin.flush();
    });
  const execute = async () => {
    const t = performance.now();
    const r = await request("tools/call", { name: "execute", arguments: { code: "return 1" } });
    if (r.error || r.result?.isError) throw new Error(`execute failed: ${JSON.stringify(r).slice(0, 300)}`);
    return performance.now() - t;
  };
  try {
    await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } });
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    stdin.flush();
    await Bun.sleep(500);
    const init = rssMb(proc.pid);
    const firstMs = await execute();
    const executed = performance.now();
    const afterExecute = rssMb(proc.pid);
    await Bun.sleep(3000);
    const warmIdle = rssMb(proc.pid);
    // The worker is ended IDLE_TTL_MS after its run; its memory is reclaimed a second later.
    await Bun.sleep(Math.max(0, executed + IDLE_TTL_MS + 3000 - performance.now()));
    const released = rssMb(proc.pid);
    const coldMs = await execute();
    const warmMs = await execute();
    return { init, afterExecute, warmIdle, released, firstMs, coldMs, warmMs };
  } finally {
    proc.kill();
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

const samples: Sample[] = [];
for (let i = 0; i < RUNS; i++) samples.push(await once());
const median = (k: keyof Sample) => {
  const xs = samples.map((s) => s[k]).sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)]!;
};
const mb = (k: keyof Sample) => `${median(k).toFixed(1)} MB`.padStart(9) + `   (runs: ${samples.map((s) => s[k].toFixed(1)).join(", ")})`;
const ms = (k: keyof Sample) => `${median(k).toFixed(1)} ms`.padStart(9);
console.log(`resident memory of ${values.bin} stdio, median of ${RUNS} processes, ${process.platform}-${process.arch}, ${navigator.hardwareConcurrency} cores`);
console.log(`after initialize                         ${mb("init")}`);
console.log(`right after one execute                  ${mb("afterExecute")}`);
console.log(`3 s later (worker warm)                  ${mb("warmIdle")}`);
console.log(`idle, worker ended after ${IDLE_TTL_MS / 1000} s          ${mb("released")}`);
console.log(`execute latency: first ${ms("firstMs")}, after the worker ended ${ms("coldMs")}, warm ${ms("warmMs")}`);
const idle = median("released");
console.log(`target: resident memory after initialize and one execute, idle <= ${TARGET_MB} MB -> ${idle <= TARGET_MB ? "met" : "NOT met"} (${idle.toFixed(1)} MB)`);
