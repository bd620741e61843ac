// "Continue" on a shell command approves that command, not the shell: a session that approved
// `echo one` must still be asked before `touch pwned`, through elicitation, the tool-result
// flow and inside `execute` code.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";

const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
let ws: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
const closers: Array<() => Promise<void>> = [];

beforeAll(() => {
  ws = tempDir();
  home = tempDir();
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ permissions: { ask: ["shell:exec"] } }));
});
afterAll(async () => {
  for (const close of closers) await close();
  ws.cleanup();
  home.cleanup();
});

async function connect(elicitation: boolean) {
  const c = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_HOME: home.path }), capabilities: elicitation ? { elicitation: { form: {} } } : {} });
  closers.push(() => c.client.close());
  const asked: string[] = [];
  if (elicitation)
    c.client.setRequestHandler(ElicitRequestSchema, async (req: any) => {
      asked.push(req.params.message);
      return { action: "accept", content: { decision: "continue" } };
    });
  return { ...c, asked };
}

describe("a shell approval covers one command", () => {
  test("elicitation: the same command runs again unasked, another command is asked", async () => {
    const { client, asked } = await connect(true);
    const one: any = await client.callTool({ name: "shell__exec", arguments: { command: "echo one" } });
    expect(text(one)).toContain("one");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"echo one"');
    expect(asked[0]).toContain("Continue approves this command only");
    await client.callTool({ name: "shell__exec", arguments: { command: "echo one" } });
    expect(asked).toHaveLength(1);
    await client.callTool({ name: "shell__exec", arguments: { command: "touch pwned-1" } });
    expect(asked).toHaveLength(2);
    expect(asked[1]).toContain('"touch pwned-1"');
    // The same command in another folder is another approval.
    await client.callTool({ name: "shell__exec", arguments: { command: "echo one", cwd: "sub" } }).catch(() => {});
    expect(asked).toHaveLength(3);
  });

  test("tool-result flow: continuing `echo a` does not approve `touch pwned`", async () => {
    const { client } = await connect(false);
    const first: any = await client.callTool({ name: "shell__exec", arguments: { command: "echo a" } });
    expect(first.approval_required).toBe(true);
    const id = first.approval_context.workflow_id;
    const ran: any = await client.callTool({ name: "shell__exec", arguments: { continue_workflow: { workflow_id: id, approved: true } } });
    expect(text(ran)).toContain("a");
    expect(ran.isError).toBeFalsy();
    const again: any = await client.callTool({ name: "shell__exec", arguments: { command: "echo a" } });
    expect(again.approval_required).toBeUndefined();
    const other: any = await client.callTool({ name: "shell__exec", arguments: { command: "touch pwned-2" } });
    expect(other.approval_required).toBe(true);
    expect(text(other)).toContain('"touch pwned-2"');
    expect(existsSync(join(ws.path, "pwned-2"))).toBe(false);
  });

  test("execute: each distinct command in the code is asked", async () => {
    const { client, asked } = await connect(true);
    const r: any = await client.callTool({
      name: "execute",
      arguments: { code: 'await mcp.shell.exec({command: "echo x"}); await mcp.shell.exec({command: "echo x"}); return await mcp.shell.exec({command: "echo y"});' },
    });
    expect(r.isError).toBeFalsy();
    expect(asked.map((m) => (m.includes('"echo x"') ? "x" : m.includes('"echo y"') ? "y" : "?"))).toEqual(["x", "y"]);
  });
});
