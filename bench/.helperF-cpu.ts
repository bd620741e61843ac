// temp: per-process CPU per call in the concurrent run (helper F). Not part of the project.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
const pmlBin = resolve(process.argv[2] ?? "dist/pml");
const N = Number(process.argv[3] ?? 4000);
const root = resolve(import.meta.dir, "..");
const serverScript = join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const env: Record<string, string> = { ...(process.env as Record<string, string>), BUN_BE_BUN: "1" };
const tmp = mkdtempSync(join(tmpdir(), "pml-cpu-"));
const tick = 100; // USER_HZ
function cpu(pid: number): number[] {
  const s = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return [Number(f[11]) / tick * 1000, Number(f[12]) / tick * 1000]; // ms
}
function children(pid: number): number[] {
  const out: number[] = [];
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try { out.push(...readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)); } catch {}
  }
  return out;
}
async function run(client: Client, name: string, pids: () => number[]) {
  const call = async (i: number) => { const r: any = await client.callTool({ name, arguments: { message: `m${i}` } }); if (r.content[0].text !== `Echo: m${i}`) throw new Error("mismatch"); };
  for (let i = 0; i < 500; i++) await call(i);
  const ps = pids();
  const threads = (pid: number) => Object.fromEntries(readdirSync(`/proc/${pid}/task`).map((t) => { const x = readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8"); const name = x.slice(x.indexOf("(") + 1, x.lastIndexOf(")")); const f = x.slice(x.lastIndexOf(")") + 2).split(" "); return [`${t} ${name}`, (Number(f[11]) + Number(f[12])) * 10]; }));
  const th0 = ps.map(threads);
  let st: any;
  if (process.env.HF_STRACE && ps.length > 1) { st = Bun.spawn(["strace", "-c", "-f", "-o", process.env.HF_STRACE, "-p", String(ps[0])], { stderr: "ignore" }); await Bun.sleep(500); }
  const before = ps.map(cpu); const me0 = process.cpuUsage();
  let next = 0; const t0 = performance.now();
  await Promise.all(Array.from({ length: 32 }, async () => { while (next < N) await call(next++); }));
  const el = performance.now() - t0;
  const me = process.cpuUsage(me0); const after = ps.map(cpu);
  if (process.env.HF_THREADS) ps.forEach((p, i) => { const a = threads(p); console.log(p, Object.entries(a).map(([k, v]) => [k, ((v - (th0[i]![k] ?? 0)) / N * 1000).toFixed(1)]).filter(([, v]) => v !== "0.0").join("  ")); });
  if (st) { st.kill("SIGINT"); await st.exited; }
  const per = (ms: number) => ((ms / N) * 1000).toFixed(1) + " µs";
  console.log(`${name}: ${(N / el * 1000).toFixed(0)} calls/s; cpu/call client u ${per(me.user / 1000)} s ${per(me.system / 1000)}`, ps.map((p, i) => `${p}: u ${per(after[i]![0]! - before[i]![0]!)} s ${per(after[i]![1]! - before[i]![1]!)}`).join(", "));
}
{
  const t = new StdioClientTransport({ command: process.execPath, args: [serverScript, "stdio"], env, stderr: "ignore" });
  const c = new Client({ name: "b", version: "1" }); await c.connect(t);
  await run(c, "echo", () => [t.pid!]); await c.close();
}
{
  const ws = join(tmp, "ws"); mkdirSync(ws);
  writeFileSync(join(ws, ".pml.json"), JSON.stringify({ permissions: { allow: ["everything:*"], ask: [], deny: [] } }));
  const penv = { ...env, PML_HOME: process.env.HF_HOME_DIR ?? join(tmp, "home"), PML_WORKSPACE: ws, PML_LOG: "warn" }; delete (penv as any).BUN_BE_BUN;
  const t = new StdioClientTransport({ command: pmlBin, args: ["stdio"], env: penv, cwd: ws, stderr: "ignore" });
  const c = new Client({ name: "b", version: "1" }); await c.connect(t);
  await c.callTool({ name: "everything__echo", arguments: { message: "x" } }, undefined, { timeout: 120000 });
  await run(c, "everything__echo", () => [t.pid!, ...children(t.pid!)]); await c.close();
}
rmSync(tmp, { recursive: true, force: true });
