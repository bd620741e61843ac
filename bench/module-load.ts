// Loading a registry module: cold (fetch + transpile + cache write) vs warm (disk cache hit, what a
// new pml process pays) vs in-process memo (what every later call in the same process pays), against
// a function compiled into pml as the baseline. Run: bun bench/module-load.ts
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadEntry } from "../src/registry/client.ts";
import { createResolver } from "../src/registry/resolve.ts";
import { ModuleCache } from "../src/registry/module-cache.ts";
import { startRegistryServer } from "../src/registry-server/serve.ts";
import { GREET_TS } from "../test/registry/fixtures.ts";

// The baseline: the same function, compiled into the binary.
async function helloCompiled(args: { name?: string }): Promise<string> {
  return `hello ${args.name ?? "world"}`;
}

const root = mkdtempSync(join(tmpdir(), "pml-bench-"));
const data = join(root, "data");
Bun.spawnSync(["mkdir", "-p", data]);
writeFileSync(join(data, "greet.ts"), GREET_TS);
const server = startRegistryServer({ dataDir: data, port: 0, maxAgeS: 3600 });

async function time(_label: string, n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(5, n); i++) await fn(-1 - i); // warm-up
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  const per = (performance.now() - t0) / n;
  return per;
}

// Call through the sandbox (helper B's runModuleFunction) when it is there.
type Runner = (code: string, fn: string, args: unknown) => Promise<unknown>;
async function sandboxRunner(): Promise<Runner | null> {
  try {
    const m: any = await import("../src/sandbox/module-runner.ts");
    if (typeof m.runModuleFunction === "function") return (code, fn, args) => m.runModuleFunction({ code, fn, args });
  } catch {}
  return null;
}

try {
  const results: [string, number][] = [];
  const baseline = await time("compiled-in", 100_000, () => helloCompiled({ name: "x" }));
  results.push(["compiled-in function call", baseline]);

  let coldDir = 0;
  const cold = await time("cold", 30, async () => {
    const cache = new ModuleCache(join(root, `cold-${coldDir++}`));
    await loadEntry(server.url, "greet", { cache });
  });
  results.push(["cold load (fetch + transpile + cache write)", cold]);

  const warmCache = new ModuleCache(join(root, "warm"));
  await loadEntry(server.url, "greet", { cache: warmCache });
  const warm = await time("warm", 2_000, () => loadEntry(server.url, "greet", { cache: warmCache }));
  results.push(["warm load (disk cache hit, new process)", warm]);

  const resolver = createResolver({ config: { registries: [server.url] }, cache: warmCache });
  await resolver.resolve("greet");
  const memo = await time("memo", 100_000, () => resolver.resolve("greet"));
  results.push(["resolver memo hit (same process)", memo]);

  const run = await sandboxRunner();
  if (run) {
    const d = (await loadEntry(server.url, "greet", { cache: warmCache })).descriptor as { code: string };
    const m: any = await import("../src/sandbox/module-runner.ts");
    const fresh = await time("fresh", 30, () => m.runModuleFunction({ code: d.code, fn: "hello", args: { name: "x" }, reuse: false }));
    results.push(["sandbox call, fresh engine (first call)", fresh]);
    const call = await time("call", 500, () => run(d.code, "hello", { name: "x" }));
    results.push(["sandbox call, warm engine (later calls)", call]);
    results.push(["warm load + first sandbox call (new process)", warm + fresh]);
  }

  console.log(`module-load (bun ${Bun.version}, ${process.platform}/${process.arch})`);
  for (const [label, ms] of results) {
    console.log(`  ${label.padEnd(46)} ${(ms * 1000).toFixed(2).padStart(10)} us   x${(ms / baseline).toFixed(0).padStart(8)} vs compiled-in`);
  }
  if (!run) console.log("  (sandbox runModuleFunction not found: load measured, call not measured)");
  console.log(`  warm cache hit under 1 ms: ${warm < 1 ? "yes" : "NO"} (${(warm * 1000).toFixed(0)} us)`);
} finally {
  await server.stop();
  rmSync(root, { recursive: true, force: true });
}
