// Registry namespaces have dots ("acme.greet"): env_grants and sandbox.grants take them like
// permissions do, so "Always" for a tool of acme.greet records its grant in .pml.json; and an
// "Always" pml cannot record says so in the tool's result, not only on stderr.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureServer } from "../pool/helpers.ts";
import { BUN, entries, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace, writeTrustedConfig } from "../helpers/trust.ts";

let registry: ReturnType<typeof Bun.serve>;
const ws = tempDir();
const home = tempDir();
const peers: RawPeer[] = [];
let nextId = 1;

beforeAll(() => {
  writeFileSync(join(ws.path, ".env"), "GREETING=hello-from-env\n");
  registry = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const fqdn = decodeURIComponent(new URL(req.url).pathname.replace(/^\/mcp\//, ""));
      if (fqdn !== "acme.greet") return Response.json({ message: "not found" }, { status: 404 });
      return Response.json({ type: "stdio", command: BUN, args: [fixtureServer], env_required: ["GREETING"] });
    },
  });
});
afterAll(() => {
  for (const p of peers) p.kill();
  registry.stop(true);
  ws.cleanup();
  home.cleanup();
});

const base = () => ({ permissions: { allow: ["*"] }, registries: [`http://127.0.0.1:${registry.port}`] });

async function pml(): Promise<RawPeer> {
  // PML_CONFINE=off: the fixture server lives in the repository, which may sit under /tmp (see secrets.test.ts).
  const peer = new RawPeer(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, PML_CONFINE: "off" }) });
  peers.push(peer);
  await peer.initialize();
  return peer;
}
const call = async (peer: RawPeer, args: Record<string, unknown>) => (await peer.request(nextId++, "tools/call", { name: "call", arguments: args })).result;
const textOf = (r: any) => (r?.content ?? []).map((c: any) => c.text ?? "").join("\n");
const saved = () => JSON.parse(readFileSync(join(ws.path, ".pml.json"), "utf8"));

/** Asks for acme.greet:env, answers Always; the tool's result. */
async function always(peer: RawPeer): Promise<any> {
  const asked = await call(peer, { tool: "acme.greet:env" });
  expect(asked.approval_required).toBe(true);
  return call(peer, { continue_workflow: { workflow_id: asked.approval_context.workflow_id, approved: true, always: true } });
}

describe("dotted registry namespaces in grants", () => {
  test('"Always" for acme.greet records env_grants["acme.greet"]; the next pml reads it and asks nothing', async () => {
    await writeTrustedConfig(ws.path, base(), home.path);
    const peer = await pml();
    const ran = await always(peer);
    expect(JSON.parse(textOf(ran)).GREETING).toBe("hello-from-env");
    expect(textOf(ran)).not.toContain("could not record");
    expect(saved().env_grants).toEqual({ "acme.greet": ["GREETING"] });
    peer.close();
    const next = await pml();
    const again = await call(next, { tool: "acme.greet:env" });
    expect(again.approval_required).toBeUndefined();
    expect(JSON.parse(textOf(again)).GREETING).toBe("hello-from-env");
    next.close();
  });

  test("sandbox.grants and server_net take a dotted namespace", async () => {
    await writeTrustedConfig(
      ws.path,
      { ...base(), env_grants: { "acme.greet": ["GREETING"] }, sandbox: { grants: { "acme.greet": { write: true } }, server_net: ["acme.greet"] } },
      home.path,
    );
    const peer = await pml();
    const r = await call(peer, { tool: "acme.greet:env" });
    expect(r.isError).toBeFalsy();
    expect(JSON.parse(textOf(r)).GREETING).toBe("hello-from-env");
    peer.close();
  });

  test('an "Always" pml cannot write to .pml.json is told in the result (a symlinked .pml.json is never written)', async () => {
    rmSync(join(ws.path, ".pml.json"));
    writeFileSync(join(ws.path, "real.json"), JSON.stringify(base()));
    symlinkSync(join(ws.path, "real.json"), join(ws.path, ".pml.json"));
    await trustWorkspace(ws.path, home.path);
    const peer = await pml();
    const ran = await always(peer);
    expect(JSON.parse(ran.content[0].text).GREETING).toBe("hello-from-env");
    expect(textOf(ran)).toContain("could not record the approval of acme.greet:env in .pml.json");
    expect(JSON.parse(readFileSync(join(ws.path, "real.json"), "utf8")).env_grants).toBeUndefined();
    peer.close();
  });
});
