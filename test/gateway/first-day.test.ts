// Issue 12 points 1, 2 and 11, as a new user met them: the official SDK client calling a tool that
// has an outputSchema and needs approval; continuation texts done exactly as written; an approval
// answer that is not one of the choices.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const dirs: { cleanup(): void }[] = [];
afterAll(() => dirs.forEach((d) => d.cleanup()));

async function project(pml: unknown) {
  const ws = tempDir();
  const home = tempDir();
  dirs.push(ws, home);
  await writeTrustedConfig(ws.path, pml, home.path);
  writeFileSync(join(ws.path, "a.txt"), "hello");
  return { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) };
}

const textOf = (r: any) => (r.content as any[]).map((c) => c.text).join("\n");

/** The arguments JSON in a continuation text ("call X again with arguments {...}"). */
function continuation(text: string): { tool: string; args: Record<string, unknown> } {
  const m = /call (\S+) again with arguments (\{.*?\}\}) /.exec(text);
  if (!m) throw new Error(`no continuation in: ${text}`);
  return { tool: m[1]!, args: JSON.parse(m[2]!) };
}

test("a tool with an outputSchema that needs approval: the SDK client gets the approval request, not a -32600", async () => {
  const p = await project({ permissions: { allow: ["memory:read_graph"], ask: ["memory:create_entities"] } });
  const { client } = await sdkClient(entries.binary, p);
  try {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "memory__create_entities");
    expect(tool?.outputSchema).toBeDefined();
    const r: any = await client.callTool({ name: "memory__create_entities", arguments: { entities: [] } });
    expect(r.isError).toBe(true);
    expect(r.approval_required).toBe(true);
    expect(textOf(r)).toContain("Approval required: memory:create_entities");
    // Denied too: an error result, never a bare text the SDK would reject.
    const denied: any = await client.callTool({ name: "memory__read_graph", arguments: { nope: 1 } }).catch((e) => e);
    expect(denied instanceof Error).toBe(false);
  } finally {
    await client.close();
  }
}, 60_000);

test("call's continuation text works when done exactly as written, and with continue_workflow alone", async () => {
  const p = await project({ permissions: { allow: [], ask: ["filesystem:read_file"] } });
  const { client } = await sdkClient(entries.binary, p);
  try {
    const first: any = await client.callTool({ name: "call", arguments: { tool: "filesystem:read_file", arguments: { path: "a.txt" } } });
    const c = continuation(textOf(first));
    expect(c.tool).toBe("call");
    const done: any = await client.callTool({ name: c.tool, arguments: c.args });
    expect(done.isError).toBeFalsy();
    expect(textOf(done)).toContain("hello");
  } finally {
    await client.close();
  }
  // The shorter form the issue reported as failing (a new session: the first one approved it).
  const second = await sdkClient(entries.binary, p);
  try {
    const again: any = await second.client.callTool({ name: "call", arguments: { tool: "filesystem:read_file", arguments: { path: "a.txt" } } });
    const only = continuation(textOf(again)).args.continue_workflow;
    const short: any = await second.client.callTool({ name: "call", arguments: { continue_workflow: only } });
    expect(short.isError).toBeFalsy();
    expect(textOf(short)).toContain("hello");
  } finally {
    await second.client.close();
  }
}, 60_000);

test("an elicitation answer 'accept' with an unknown choice does not approve", async () => {
  const p = await project({ permissions: { allow: [], ask: ["filesystem:read_file"] } });
  const { client } = await sdkClient(entries.binary, { ...p, capabilities: { elicitation: { form: {} } } });
  let asked = 0;
  client.setRequestHandler(ElicitRequestSchema, async () => {
    asked++;
    return { action: "accept", content: { decision: "sure, why not" } };
  });
  try {
    const r: any = await client.callTool({ name: "filesystem__read_file", arguments: { path: "a.txt" } });
    expect(asked).toBe(1);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('The answer "sure, why not" was not Continue, Always or Abort: nothing ran (filesystem:read_file was not run)');
    expect(textOf(r)).not.toContain("hello");
    // Not approved for the session either: the next call asks again.
    await client.callTool({ name: "filesystem__read_file", arguments: { path: "a.txt" } });
    expect(asked).toBe(2);
  } finally {
    await client.close();
  }
}, 60_000);

test("an elicitation answer that is the label of a choice (any case) is that choice", async () => {
  const p = await project({ permissions: { allow: [], ask: ["filesystem:read_file"] } });
  const { client } = await sdkClient(entries.binary, { ...p, capabilities: { elicitation: { form: {} } } });
  let asked = 0;
  let decision = "Abort";
  client.setRequestHandler(ElicitRequestSchema, async () => {
    asked++;
    return { action: "accept", content: { decision } };
  });
  try {
    const no: any = await client.callTool({ name: "filesystem__read_file", arguments: { path: "a.txt" } });
    expect(no.isError).toBe(true);
    expect(textOf(no)).toContain("You chose Abort: nothing ran (filesystem:read_file was not run)");
    decision = "CONTINUE (this session)";
    const yes: any = await client.callTool({ name: "filesystem__read_file", arguments: { path: "a.txt" } });
    expect(yes.isError).toBeFalsy();
    expect(textOf(yes)).toContain("hello");
    expect(asked).toBe(2);
    // Approved for the session: not asked again.
    await client.callTool({ name: "filesystem__read_file", arguments: { path: "a.txt" } });
    expect(asked).toBe(2);
  } finally {
    await client.close();
  }
}, 60_000);

test("discover {namespace} of an unknown name is a user error that says where pml looked, not an internal error", async () => {
  const p = await project({ permissions: {} });
  const { client } = await sdkClient(entries.binary, p);
  try {
    const r: any = await client.callTool({ name: "discover", arguments: { namespace: "nope" } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toStartWith("MCP 'nope' not found. Looked in:");
    expect(textOf(r)).not.toContain("internal error");
    // A name that an object has as its own property is no namespace either; before, pml claimed it
    // as one it serves itself and failed inside when called.
    for (const ns of ["constructor", "__proto__", "toString"]) {
      const asked: any = await client.callTool({ name: "discover", arguments: { namespace: ns } });
      expect(textOf(asked)).toStartWith(`MCP '${ns}' not found. Looked in:`);
      const called: any = await client.callTool({ name: `${ns}__x`, arguments: {} });
      expect(called.isError).toBe(true);
      expect(textOf(called)).toMatch(new RegExp(`MCP '${ns}' not found|Unknown tool`));
    }
  } finally {
    await client.close();
  }
}, 60_000);

test("a tool that does not exist is refused before anyone is asked, naming the real ones; Always never stores it", async () => {
  const p = await project({ permissions: { allow: [] } });
  const { client } = await sdkClient(entries.binary, p);
  try {
    const r: any = await client.callTool({ name: "call", arguments: { tool: "memory:no_such_tool", arguments: {} } });
    expect(r.isError).toBe(true);
    expect(r.approval_required).toBeUndefined();
    expect(textOf(r)).toContain('"memory" has no tool "no_such_tool"');
    expect(textOf(r)).toContain("create_entities");
    const f: any = await client.callTool({ name: "call", arguments: { tool: "filesystem:no_such_tool", arguments: {} } });
    expect(textOf(f)).toContain('"filesystem" has no tool "no_such_tool"');
  } finally {
    await client.close();
  }
}, 60_000);
