// First call of a server that is not installed yet: pml (download + integrity check + bun install
// + start, all inside the first tools/call) against `npx -y <pkg>@<version>` with an empty npm
// cache, same package and version, from process start to the first tool result.
// `bun bench/first-use.ts [--runs 3] [--pml dist/pml] [--ns memory]`
//
//   npx       SDK Client -> `npx -y pkg@version` (temp npm_config_cache), then one tools/call
//   pml-lib   ensureInstalled + Pool in this process (temp PML_HOME: empty deps and bun cache)
//   pml       SDK Client -> `pml stdio` (temp PML_HOME) -> one tools/call `<ns>__<tool>`;
//             skipped with the reason when the gateway cannot serve catalog tools yet
// All three need the network (registry.npmjs.org or npm_config_registry). Target: pml >= 3x faster.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { EnvResolver, envRequestFor } from "../src/env/env-resolver.ts";
import { ensureInstalled } from "../src/loader/install.ts";
import { Pool } from "../src/pool/pool.ts";
import { builtinCatalog } from "../src/registry/catalog.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    pml: { type: "string", default: "dist/pml" },
    ns: { type: "string", default: "memory" },
  },
});
const root = resolve(import.meta.dir, "..");
const ns = values.ns!;
const desc = builtinCatalog[ns];
if (!desc?.package) throw new Error(`${ns} is not an npm server of the built-in catalog`);
const spec = `${desc.package.identifier}@${desc.package.version}`;
const tool = ns === "everything" ? "echo" : ns === "memory" ? "read_graph" : desc.tools![0]!.name;
const toolArgs = ns === "everything" ? { message: "hi" } : {};
const runs = Number(values.runs);
const baseEnv = process.env as Record<string, string>;

async function viaClient(command: string, args: string[], env: Record<string, string>, name: string, cwd?: string): Promise<number> {
  const t0 = performance.now();
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command, args, env, cwd, stderr: "ignore" }));
  const r: any = await client.callTool({ name, arguments: toolArgs }, undefined, { timeout: 300_000 });
  const elapsed = performance.now() - t0;
  await client.close();
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content).slice(0, 300)}`);
  return elapsed;
}

async function npxRun(dir: string): Promise<number> {
  const env = { ...baseEnv, npm_config_cache: join(dir, "npm-cache"), npm_config_update_notifier: "false", MEMORY_FILE_PATH: join(dir, "memory.jsonl") };
  const extra = ns === "filesystem" ? [dir] : ns === "everything" ? ["stdio"] : [];
  return viaClient("npx", ["-y", spec, ...extra], env, tool, dir);
}

async function libRun(dir: string): Promise<number> {
  const t0 = performance.now();
  const env = { ...baseEnv, PML_HOME: join(dir, "home") };
  const pool = new Pool({ logDir: join(dir, "logs"), workspace: dir });
  // The catalog entry taken as the user's own: what it asks is granted, as an allowed call would be.
  const plan = new EnvResolver({ workspace: dir, env }).plan(envRequestFor(ns, desc!, "user"));
  const r = await pool.call(ns, (progress, signal) => ensureInstalled(desc!, { env, workspace: dir, progress, signal, plan }), tool, toolArgs, {
    signal: new AbortController().signal,
    progress() {},
  });
  const elapsed = performance.now() - t0;
  await pool.shutdown();
  if (r.isError) throw new Error(`${tool} failed`);
  return elapsed;
}

async function pmlRun(dir: string, bin: string): Promise<number> {
  writeFileSync(join(dir, ".pml.json"), JSON.stringify({ permissions: { allow: [`${ns}:*`], ask: [], deny: [] } }));
  const env = { ...baseEnv, PML_HOME: join(dir, "home"), PML_WORKSPACE: dir, PML_LOG: "warn" };
  return viaClient(bin, ["stdio"], env, `${ns}__${tool}`, dir);
}

const pmlBin = resolve(root, values.pml!);
const times: Record<string, number[]> = { npx: [], "pml-lib": [], pml: [] };
let pmlSkip = existsSync(pmlBin) ? "" : `${pmlBin} not found (run \`bun build.ts\`)`;
for (let i = 0; i < runs; i++) {
  for (const name of ["npx", "pml-lib", "pml"] as const) {
    if (name === "pml" && pmlSkip) continue;
    const dir = mkdtempSync(join(tmpdir(), `pml-bench-first-${name}-`));
    mkdirSync(join(dir, "logs"));
    try {
      const t = name === "npx" ? await npxRun(dir) : name === "pml-lib" ? await libRun(dir) : await pmlRun(dir, pmlBin);
      times[name]!.push(t);
      console.error(`run ${i + 1} ${name}: ${Math.round(t)} ms`);
    } catch (e: any) {
      if (name !== "pml") throw e;
      pmlSkip = `pml stdio cannot call ${ns}__${tool} yet (${e?.message ?? e})`;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`first call of ${spec} (${tool}), cold caches, median of ${runs} runs\n`);
const npx = median(times.npx!);
console.log(`npx -y     ${Math.round(npx)} ms   [${times.npx!.map(Math.round).join(", ")}]`);
for (const name of ["pml-lib", "pml"]) {
  if (name === "pml" && pmlSkip) {
    console.log(`pml        skipped: ${pmlSkip}`);
    continue;
  }
  const m = median(times[name]!);
  console.log(`${name.padEnd(10)} ${Math.round(m)} ms   [${times[name]!.map(Math.round).join(", ")}]   ${(npx / m).toFixed(1)}x faster than npx (target >= 3x)`);
}
