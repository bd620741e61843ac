// Sandbox call overhead: a tiny module function that awaits one host call, run warm in the
// sandbox, on a fresh sandbox per call, and directly in Bun (the baseline), in one run.
// `bun bench/sandbox.ts [iterations]`
import { clearModulePool, runModuleFunction } from "../src/sandbox/module-runner.ts";
import { clearCodePool, runCode } from "../src/sandbox/run-code.ts";

const N = Number(process.argv[2] ?? 2000);
const code = `export async function add(args, ctx) { const r = await ctx.mcp.math.inc({ n: args.n }); return { n: r.n + 1 } }`;
const callTool = async (_tool: string, a: any) => ({ n: a.n + 1 });

// The same function, as plain Bun code with the same host call (arguments copied as JSON too).
const direct = async (args: { n: number }, ctx: { mcp: { math: { inc(a: unknown): Promise<any> } } }) => {
  const r = await ctx.mcp.math.inc({ n: args.n });
  return { n: r.n + 1 };
};
const directCtx = { mcp: { math: { inc: (a: unknown) => callTool("math:inc", JSON.parse(JSON.stringify(a))) } } };

async function measure(label: string, n: number, fn: (i: number) => Promise<unknown>) {
  for (let i = 0; i < Math.min(200, n); i++) await fn(i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(n / 2)]!;
  const p95 = times[Math.floor(n * 0.95)]!;
  return { label, median, p95 };
}

const check = (await runModuleFunction({ code, fn: "add", args: { n: 1 }, ctx: { callTool } })) as any;
if (check.n !== 3) throw new Error(`unexpected result ${JSON.stringify(check)}`);

const rows = [
  await measure("direct (Bun, baseline)", N, (i) => direct({ n: i }, directCtx)),
  await measure("sandbox, warm module", N, (i) => runModuleFunction({ code, fn: "add", args: { n: i }, ctx: { callTool } })),
  await measure("sandbox, fresh per call", Math.max(50, Math.floor(N / 20)), (i) => runModuleFunction({ code, fn: "add", args: { n: i }, ctx: { callTool }, reuse: false })),
  await measure("execute snippet (fresh context)", Math.max(100, Math.floor(N / 4)), (i) =>
    runCode({ code: "const r = await mcp.math.inc({ n: args.n }); return { n: r.n + 1 }", args: { n: i }, callTool }),
  ),
];
const base = rows[0]!;
const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
console.log(`sandbox bench, ${N} iterations (fewer for the fresh rows)`);
for (const r of rows) {
  console.log(`${r.label.padEnd(34)} median ${fmt(r.median).padStart(9)}   p95 ${fmt(r.p95).padStart(9)}   ratio ${(r.median / base.median).toFixed(1)}x`);
}
const warm = rows[1]!;
console.log(`target: warm call <= 0.5 ms -> ${warm.median <= 0.5 ? "met" : "NOT met"} (${fmt(warm.median)})`);
clearModulePool();
clearCodePool();
