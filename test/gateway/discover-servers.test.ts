// Issue 12 point 10: a private_mcps stdio server's tools can be seen before its first call.
// `discover {namespace}` starts it to list them when it is allowed (never when it is not: starting
// runs its code), the list is kept under $PML_HOME for later sessions, and a tool it does not have
// is refused before anyone is asked, with the real names.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { fixtureServer } from "../pool/helpers.ts";
import { BUN, entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
let ws: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
let mark: string;
const closers: Array<() => Promise<void>> = [];

beforeAll(() => {
  ws = tempDir();
  home = tempDir();
  mark = join(home.path, "fx-started");
});
afterAll(async () => {
  for (const close of closers) await close();
  ws.cleanup();
  home.cleanup();
});

const starts = () => (existsSync(mark) ? readFileSync(mark, "utf8").trim().split("\n").length : 0);

/** Writes .pml.json as the user would, and trusts it (an edited private_mcps entry is trusted again). */
async function configure(permissions: Record<string, string[]>, extraArgs: string[] = []) {
  await writeTrustedConfig(ws.path, { permissions, private_mcps: { fx: { command: BUN, args: [fixtureServer, "--mark", mark, ...extraArgs] } } }, home.path);
}

async function connect() {
  const c = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }), capabilities: { elicitation: { form: {} } } });
  closers.push(() => c.client.close());
  const asked: string[] = [];
  c.client.setRequestHandler(ElicitRequestSchema, async (req: any) => {
    asked.push(req.params.message);
    return { action: "accept", content: { decision: "continue" } };
  });
  const discover = async (onprogress?: (p: any) => void) =>
    JSON.parse(text(await c.client.callTool({ name: "discover", arguments: { namespace: "fx" } }, undefined, onprogress ? { onprogress } : undefined)));
  return { ...c, asked, discover };
}

const keptFiles = () => (existsSync(join(home.path, "tools")) ? readdirSync(join(home.path, "tools")).filter((f) => f.startsWith("fx-")) : []);

describe("discover {namespace} of a private_mcps server", () => {
  test("not allowed: it is not started, and the answer says what to allow", async () => {
    await configure({});
    const { discover } = await connect();
    const out = await discover();
    expect(typeof out.tools).toBe("string");
    expect(out.tools).toContain("not started");
    expect(out.tools).toContain('allow "fx"');
    expect(starts()).toBe(0);
    expect(keptFiles()).toEqual([]);
  });

  test("allowed: started once to list its tools (with progress), and the list is kept (0600)", async () => {
    await configure({ allow: ["fx"] });
    const { discover } = await connect();
    const progress: string[] = [];
    const out = await discover((p) => progress.push(p.message));
    expect(out.tools.map((t: any) => t.id)).toContain("fx:echo");
    expect(out.tools.find((t: any) => t.id === "fx:echo").inputSchema.properties.text.type).toBe("string");
    expect(progress).toContain("starting fx");
    expect(starts()).toBe(1);
    const files = keptFiles();
    expect(files).toHaveLength(1);
    expect(statSync(join(home.path, "tools", files[0]!)).mode & 0o777).toBe(0o600);
  });

  test("a later session, not allowed: the kept list is shown and a wrong name is refused before asking; nothing starts", async () => {
    await configure({});
    const { client, asked, discover } = await connect();
    const out = await discover();
    expect(out.tools.map((t: any) => t.id)).toContain("fx:echo");
    const wrong: any = await client.callTool({ name: "call", arguments: { tool: "fx:ecoh", arguments: { text: "x" } } });
    expect(wrong.isError).toBe(true);
    expect(text(wrong)).toContain('"fx" has no tool "ecoh"; nothing was run or asked. Did you mean fx:echo?');
    expect(text(wrong)).toContain("echo, crash");
    expect(asked).toEqual([]);
    expect(starts()).toBe(1);
    // A real tool is still asked for, and runs once approved.
    const ok: any = await client.callTool({ name: "call", arguments: { tool: "fx:echo", arguments: { text: "hi" } } });
    expect(asked).toHaveLength(1);
    expect(text(ok)).toContain("hi");
  });

  test("an edited entry is a new server: the old list is not used", async () => {
    await configure({}, ["--other"]);
    const { discover } = await connect();
    const before = starts();
    const out = await discover();
    expect(typeof out.tools).toBe("string");
    expect(starts()).toBe(before);
  });

  test("allowed, with a kept list older than the server: a tool missing from it is listed again, not refused", async () => {
    await configure({ allow: ["fx"] });
    const file = join(home.path, "tools", keptFiles().find((f) => JSON.parse(readFileSync(join(home.path, "tools", f), "utf8")).tools.some((t: any) => t.name === "pid"))!);
    const kept = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...kept, tools: kept.tools.filter((t: any) => t.name !== "pid") }));
    const { client } = await connect();
    const r: any = await client.callTool({ name: "call", arguments: { tool: "fx:pid", arguments: {} } });
    expect(r.isError).toBeFalsy();
    expect(JSON.parse(readFileSync(file, "utf8")).tools.map((t: any) => t.name)).toContain("pid");
  });
});
