// `execute` through the compiled pml: values and tools_used, errors with lines, limits, and the
// approval pause: the run stops at a tool that needs approval, and continue_workflow re-runs it,
// replaying the calls made before the pause instead of repeating them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { fixtureServer } from "../pool/helpers.ts";
import { BUN, entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { wallClockPassed } from "../helpers/wait.ts";

const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
let ws: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
const closers: Array<() => Promise<void>> = [];

async function connect(cfg: Record<string, unknown>, elicit?: (p: any) => any) {
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify(cfg));
  const c = await sdkClient(entries.binary, {
    cwd: ws.path,
    env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }),
    capabilities: elicit ? { elicitation: { form: {} } } : {},
  });
  if (elicit) c.client.setRequestHandler(ElicitRequestSchema, async (r) => elicit(r.params));
  closers.push(() => c.transport.close());
  return c.client;
}

beforeAll(() => {
  ws = tempDir();
  home = tempDir();
  writeFileSync(join(ws.path, "data.json"), JSON.stringify({ name: "pml", n: 41 }));
});
afterAll(async () => {
  for (const c of closers) await c().catch(() => {});
  ws.cleanup();
  home.cleanup();
});

test("returns the value as JSON with the tools it used; TypeScript and args work", async () => {
  const client = await connect({ permissions: { allow: ["filesystem"] } });
  const r: any = await client.callTool({
    name: "execute",
    arguments: {
      code: `const cfg: { n: number } = JSON.parse(await mcp.filesystem.read_file({ path: "data.json" }));
             await mcp.filesystem.write_file({ path: "out.txt", content: String(cfg.n + args.add) });
             return { n: cfg.n + args.add };`,
      args: { add: 1 },
    },
  });
  expect(text(r)).not.toContain("rror");
  expect(r.structuredContent).toMatchObject({ result: { n: 42 }, tools_used: ["filesystem:read_file", "filesystem:write_file"] });
  expect(r.structuredContent.capabilityName).toMatch(/^unnamed_[0-9a-f]{8}$/); // kept in procedural memory
  expect(readFileSync(join(ws.path, "out.txt"), "utf8")).toBe("42");
});

test("syntax errors and thrown errors come back as tool errors with the line", async () => {
  const client = await connect({ permissions: { allow: ["filesystem"] } });
  const syntax: any = await client.callTool({ name: "execute", arguments: { code: "const a = 1;\nconst b = ;\nreturn a;" } });
  expect(syntax.isError).toBe(true);
  expect(text(syntax)).toMatch(/line 2/);
  const thrown: any = await client.callTool({ name: "execute", arguments: { code: "const x = 1;\n\nthrow new Error('nope ' + x);" } });
  expect(thrown.isError).toBe(true);
  expect(text(thrown)).toContain("nope 1");
  expect(text(thrown)).toMatch(/line 3/);
  const tool: any = await client.callTool({ name: "execute", arguments: { code: "return await mcp.filesystem.read_file({ path: '../../etc/passwd' });" } });
  expect(tool.isError).toBe(true);
  expect(text(tool)).toContain("outside the workspace");
});

test("a runaway program is stopped and pml keeps serving", async () => {
  const client = await connect({ sandbox: { timeout_ms: 300 } });
  const r: any = await client.callTool({ name: "execute", arguments: { code: "while (true) {}" } });
  expect(r.isError).toBe(true);
  expect(text(r)).toMatch(/time|limit/i);
  const ok: any = await client.callTool({ name: "execute", arguments: { code: "return 1 + 1" } });
  expect(ok.structuredContent.result).toBe(2);
});

test("no elicitation: the run pauses at a tool that needs approval; continuing replays earlier calls", async () => {
  const log = join(ws.path, "calls.log");
  writeFileSync(log, "");
  const client = await connect({
    permissions: { allow: ["fx:echo"] },
    private_mcps: { fx: { command: BUN, args: [fixtureServer], env: {} } },
  });
  // fx:echo is allowed; fx:pid needs approval. The echo before the pause must not run twice.
  const code = `
    const a = await mcp.fx.echo({ text: "before" });
    const pid = await mcp.fx.pid({});
    return { a, pidIsNumber: Number.isInteger(Number(pid)) };`;
  const paused: any = await client.callTool({ name: "execute", arguments: { code } });
  expect(paused.approval_required).toBe(true);
  expect(paused.approval_context).toMatchObject({ type: "execute_dependency", tool: "execute", dependency: "fx:pid" });
  const id = paused.approval_context.workflow_id;

  const done: any = await client.callTool({ name: "execute", arguments: { code: "ignored", continue_workflow: { workflow_id: id, approved: true } } });
  expect(done.isError).toBeFalsy();
  expect(done.structuredContent.result).toEqual({ a: "before", pidIsNumber: true });
  expect(done.structuredContent.tools_used).toEqual(["fx:echo", "fx:pid"]);

  const replay: any = await client.callTool({ name: "execute", arguments: { code, continue_workflow: { workflow_id: id, approved: true } } });
  expect(text(replay)).toContain("Workflow expired or not found");
});

test("with elicitation the run asks in-line; declining stops the program there", async () => {
  let answer: any = { action: "decline" };
  const client = await connect({ private_mcps: { fx: { command: BUN, args: [fixtureServer] } } }, () => answer);
  const no: any = await client.callTool({ name: "execute", arguments: { code: "return await mcp.fx.echo({ text: 'x' })" } });
  expect(no.isError).toBe(true);
  expect(text(no)).toContain("declined");
  answer = { action: "accept", content: { decision: "continue" } };
  const yes: any = await client.callTool({ name: "execute", arguments: { code: "return await mcp.fx.echo({ text: 'x' })" } });
  expect(yes.structuredContent).toMatchObject({ result: "x", tools_used: ["fx:echo"] });
});

test("shell needs approval unless allowed; runs in the workspace when approved", async () => {
  const client = await connect({});
  const ask: any = await client.callTool({ name: "shell__exec", arguments: { command: "pwd" } });
  expect(ask.approval_required).toBe(true);
  const r: any = await client.callTool({ name: "shell__exec", arguments: { continue_workflow: { workflow_id: ask.approval_context.workflow_id, approved: true } } });
  expect(r.isError).toBeFalsy();
  expect(r.structuredContent.stdout.trim()).toBe(ws.path);
  expect(r.structuredContent.exit_code).toBe(0);
});

test("approval fallback: a call that already ran never runs again, even with Date.now() in its arguments; a re-run that takes another path stops", async () => {
  const log = join(ws.path, "appended.log");
  writeFileSync(log, "");
  const client = await connect({
    permissions: { allow: ["shell:exec", "fx:echo"] },
    private_mcps: { fx: { command: BUN, args: [fixtureServer], env: {} } },
  });
  const code = `
    await mcp.shell.exec({ command: "echo " + Date.now() + " >> appended.log" });
    const pid = await mcp.fx.pid({});
    return Number.isInteger(Number(pid));`;
  const paused: any = await client.callTool({ name: "execute", arguments: { code } });
  expect(paused.approval_required).toBe(true);
  await wallClockPassed(); // the first run read Date.now() before this: it differs on the re-run
  const done: any = await client.callTool({ name: "execute", arguments: { continue_workflow: { workflow_id: paused.approval_context.workflow_id, approved: true } } });
  expect(done.isError).toBeFalsy();
  expect(done.structuredContent.result).toBe(true);
  expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(1);

  // Another path on the re-run (time decides which tool comes first): stop, say so, run nothing more.
  const other = await connect({ permissions: { allow: ["fx:echo"] }, private_mcps: { fx: { command: BUN, args: [fixtureServer], env: {} } } });
  const branching = `
    if (Date.now() < args.until) await mcp.fx.echo({ text: "first path" });
    await mcp.fx.pid({});
    return "done";`;
  // The first run must read the clock before `until` and the re-run after it. The first run read it
  // before its answer came back: an answer inside the window proves the first path was taken (on a
  // slow machine the window is widened and the program started again); then the clock is read
  // until it has passed `until`.
  let until = 0;
  let p2: any;
  for (let windowMs = 1500; ; windowMs *= 2) {
    until = Date.now() + windowMs;
    p2 = await other.callTool({ name: "execute", arguments: { code: branching, args: { until } } });
    if (Date.now() < until || windowMs >= 12_000) break;
  }
  expect(p2.approval_required).toBe(true);
  await wallClockPassed(until - 1);
  const diverged: any = await other.callTool({ name: "execute", arguments: { continue_workflow: { workflow_id: p2.approval_context.workflow_id, approved: true } } });
  expect(diverged.isError).toBe(true);
  expect(text(diverged)).toContain("took a different path when it was run again after the approval: call #1 was fx:echo and is now fx:pid");
}, 60_000);
