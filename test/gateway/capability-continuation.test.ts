// An approval continuation names the tool the client called, and that tool takes it: a
// capability whose code runs `shell:exec`, called by its own tool (`cap__git__current_branch`)
// or through `call`, paused without elicitation, continues through that tool (its run replayed),
// under 2025-11-25 (workflow ids in memory) and 2026-07-28 (signed states). A continuation sent
// to another tool says which one it was issued for.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { BIN, entries, RawPeer, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
const ws = tempDir();
const home = tempDir();
const env = () => testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path });
const closers: Array<() => Promise<void>> = [];
const CAP = "cap__git__current_branch";

async function connect(elicitation: boolean) {
  const c = await sdkClient(entries.binary, { cwd: ws.path, env: env(), capabilities: elicitation ? { elicitation: { form: {} } } : {} });
  closers.push(() => c.client.close());
  if (elicitation) c.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { decision: "continue" } }));
  return c.client;
}

/** The README's continuation ("Approvals"), literally, with the id the approval request gave. */
const readmeContinuation = (id: string) => JSON.parse(`{"continue_workflow": {"workflow_id": "${id}", "approved": true, "always": false}}`);

beforeAll(async () => {
  await writeTrustedConfig(ws.path, { permissions: { ask: ["shell:exec"] } }, home.path);
  const client = await connect(true);
  const saved: any = await client.callTool({ name: "execute", arguments: { code: 'return await mcp.shell.exec({command: "echo on-branch-main"})', name: "git:current_branch" } });
  expect(saved.isError).toBeFalsy();
});
afterAll(async () => {
  for (const close of closers) await close().catch(() => {});
  ws.cleanup();
  home.cleanup();
});

describe("2025-11-25, tool-result flow", () => {
  test("the capability's tool names itself and takes the README's continuation", async () => {
    const client = await connect(false);
    const asked: any = await client.callTool({ name: CAP, arguments: {} });
    expect(asked.approval_required).toBe(true);
    expect(asked.approval_context.tool).toBe(CAP);
    expect(text(asked)).toContain(`call ${CAP} again`);
    const id = asked.approval_context.workflow_id;
    // Sent to another tool: told which one, and the approval stays usable.
    const wrong: any = await client.callTool({ name: "execute", arguments: readmeContinuation(id) });
    expect(wrong.isError).toBe(true);
    expect(text(wrong)).toContain(`This approval was issued for ${CAP}; call ${CAP} with it`);
    const ran: any = await client.callTool({ name: CAP, arguments: readmeContinuation(id) });
    expect(ran.isError).toBeFalsy();
    expect(text(ran)).toContain("on-branch-main");
  });

  test("through `call`: the continuation names `call` and `call` takes it", async () => {
    const client = await connect(false);
    const asked: any = await client.callTool({ name: "call", arguments: { tool: "cap:git:current_branch" } });
    expect(asked.approval_context.tool).toBe("call");
    expect(text(asked)).toContain('call call again with arguments {"tool": "cap:git:current_branch"');
    const id = asked.approval_context.workflow_id;
    const wrong: any = await client.callTool({ name: CAP, arguments: readmeContinuation(id) });
    expect(text(wrong)).toContain("This approval was issued for call; call call with it");
    const ran: any = await client.callTool({ name: "call", arguments: readmeContinuation(id) });
    expect(ran.isError).toBeFalsy();
    expect(text(ran)).toContain("on-branch-main");
  });
});

describe("2026-07-28 without elicitation: signed states", () => {
  let peer: RawPeer;
  let n = 1;
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "t", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const call = (name: string, args: Record<string, unknown>) => peer.request(n++, "tools/call", { name, arguments: args, _meta: meta });
  beforeAll(() => {
    peer = new RawPeer([BIN], { cwd: ws.path, env: env() });
  });
  afterAll(async () => {
    peer.close();
    await peer.proc.exited;
  });

  test("the capability's tool names itself and takes its continuation; another tool is told which", async () => {
    const asked: any = (await call(CAP, {})).result;
    expect(asked.approval_required).toBe(true);
    expect(asked.approval_context.tool).toBe(CAP);
    const id = asked.approval_context.workflow_id;
    const wrong: any = (await call("execute", readmeContinuation(id))).result;
    expect(text(wrong)).toContain(`This approval was issued for ${CAP}; call ${CAP} with it`);
    const ran: any = (await call(CAP, readmeContinuation(id))).result;
    expect(ran.isError).toBeFalsy();
    expect(text(ran)).toContain("on-branch-main");
  });
});
