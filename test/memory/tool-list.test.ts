// The bounded tool list through the compiled pml: .pml.json memory.list_tools caps how many
// capabilities tools/list carries (pinned first, then the most recently successful, then by name),
// "all" and 0, a bad value; an unlisted capability is still called by name and joins the list
// (list_changed); list_changed bursts coalesce; tools/list pages with an opaque cursor under both
// protocol revisions; dns:pin and dns:lookup.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeHash } from "../../src/memory/code-hash.ts";
import { SqliteCapabilityStore } from "../../src/memory/sqlite-store.ts";
import type { CaptureInput, Scope } from "../../src/memory/store.ts";
import { entries, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { captureInput } from "./helpers.ts";

const ws = tempDir("pml-toolist-ws-");
const home = tempDir("pml-toolist-home-");
const scope: Scope = { org: "local", project: "toolist", owner: ws.path };
const N = 300;
const peers: RawPeer[] = [];
let nextId = 1;

const modern = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "toolist-test", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

function seed(i: number): CaptureInput {
  return captureInput(
    scope,
    { namespace: "util", action: `step_${String(i).padStart(4, "0")}` },
    {
      code: `return ${i} + (args.n ?? 0);`,
      intent: `add ${i} to a number`,
      description: `Adds ${i} to a number.`,
      parameters_schema: { type: "object", properties: { n: { type: "number" } } },
      ran: false,
    },
  );
}

beforeAll(() => {
  const store = new SqliteCapabilityStore(join(home.path, "memory.db"));
  store.db.transaction(() => {
    for (let i = 0; i < N; i++) void store.capture(seed(i));
  })();
  // Three succeeded lately, in a known order; one is pinned (and older than all of them).
  const at = (name: string, when: string) => store.db.run("UPDATE capabilities SET last_success_at = ?1 WHERE action = ?2", [when, name]);
  at("step_0200", "2026-11-01T00:00:03.000Z");
  at("step_0100", "2026-11-01T00:00:02.000Z");
  at("step_0150", "2026-11-01T00:00:01.000Z");
  const pinned = store.db.query("SELECT id FROM capabilities WHERE action = 'step_0250'").get() as { id: string };
  void store.setPinned(pinned.id, true, "test");
  store.close();
});

afterAll(() => {
  for (const p of peers) p.kill();
  ws.cleanup();
  home.cleanup();
});

async function connect(memory: Record<string, unknown> | undefined, env: Record<string, string> = {}): Promise<RawPeer> {
  await writeTrustedConfig(ws.path, { permissions: { allow: ["cap"] }, ...(memory ? { memory } : {}) }, home.path);
  const peer = new RawPeer(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, ...env }) });
  peers.push(peer);
  await peer.initialize();
  return peer;
}

const capNames = (tools: Array<{ name: string }>) => tools.map((t) => t.name).filter((n) => n.startsWith("cap__"));

/** Every page of tools/list, following nextCursor. */
async function allPages(peer: RawPeer, params: Record<string, unknown> = {}): Promise<{ pages: any[]; tools: any[] }> {
  const pages: any[] = [];
  let cursor: string | undefined;
  do {
    const r = await peer.request(nextId++, "tools/list", { ...params, ...(cursor ? { cursor } : {}) });
    expect(r.error).toBeUndefined();
    pages.push(r.result);
    cursor = r.result.nextCursor;
  } while (cursor);
  return { pages, tools: pages.flatMap((p) => p.tools) };
}

describe("memory.list_tools", () => {
  test("by default 20 capabilities: the pinned one, then the latest successes, then by name; the rest are callable and join the list when used", async () => {
    const peer = await connect(undefined);
    const list = (await peer.request(nextId++, "tools/list")).result;
    expect(list.nextCursor).toBeUndefined(); // the default list is one page
    const caps = capNames(list.tools);
    expect(caps).toHaveLength(20);
    expect(caps.slice(0, 4)).toEqual(["cap__util__step_0250", "cap__util__step_0200", "cap__util__step_0100", "cap__util__step_0150"]);
    expect(caps.slice(4, 7)).toEqual(["cap__util__step_0000", "cap__util__step_0001", "cap__util__step_0002"]);
    expect(caps).not.toContain("cap__util__step_0299");

    // Not listed, still a tool by its name; a success brings it into the list (list_changed).
    const r = await peer.request(nextId++, "tools/call", { name: "cap__util__step_0299", arguments: { n: 1 } });
    expect(r.result.isError).toBeUndefined();
    expect(r.result.structuredContent.result).toBe(300);
    await peer.next((m) => m.method === "notifications/tools/list_changed");
    const after = capNames((await peer.request(nextId++, "tools/list")).result.tools);
    expect(after).toHaveLength(20);
    expect(after.slice(0, 2)).toEqual(["cap__util__step_0250", "cap__util__step_0299"]);
    peer.kill();
  });

  test('"all" lists every capability over pages; both revisions page the same list in the same order; a bad cursor is invalid params', async () => {
    const peer = await connect({ list_tools: "all" });
    const legacy = await allPages(peer);
    expect(legacy.pages.length).toBeGreaterThan(1);
    expect(capNames(legacy.tools)).toHaveLength(N);
    expect(new Set(legacy.tools.map((t) => t.name)).size).toBe(legacy.tools.length);

    const now = await allPages(peer, { _meta: modern });
    for (const page of now.pages) expect(page).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "private" });
    expect(now.tools.map((t) => t.name)).toEqual(legacy.tools.map((t) => t.name));
    expect(now.pages.map((p) => p.nextCursor)).toEqual(legacy.pages.map((p) => p.nextCursor));

    for (const params of [{}, { _meta: modern }])
      for (const cursor of ["nope", 42, "dG9vbHM6LTE", legacy.pages[0].nextCursor.slice(0, -1) + "!"]) {
        const bad = await peer.request(nextId++, "tools/list", { ...params, cursor });
        expect(bad.error.code).toBe(-32602);
        expect(bad.error.message).toContain("cursor");
      }
    peer.kill();
  });

  test("0 lists no capability; each one is still callable by name", async () => {
    const peer = await connect({ list_tools: 0 });
    const list = (await peer.request(nextId++, "tools/list")).result;
    expect(capNames(list.tools)).toEqual([]);
    expect(list.tools.map((t: any) => t.name)).toContain("discover");
    const r = await peer.request(nextId++, "tools/call", { name: "cap__util__step_0005", arguments: { n: 2 } });
    expect(r.result.structuredContent.result).toBe(7);
    peer.kill();
  });

  test("a number caps the list; a bad value is a configuration error naming the key", async () => {
    const three = await connect({ list_tools: 3 });
    expect(capNames((await three.request(nextId++, "tools/list")).result.tools)).toHaveLength(3);
    three.kill();

    // Refused as a whole file, as any bad .pml.json (written as is: trust reads it first).
    writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ memory: { list_tools: -3 } }));
    const bad = new RawPeer(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
    peers.push(bad);
    await bad.initialize();
    const tools = await bad.request(nextId++, "tools/list");
    const status = await bad.request(nextId++, "tools/call", { name: "status", arguments: {} });
    const error = JSON.parse(status.result.content[0].text).config.error as string;
    expect(error).toContain("memory.list_tools");
    expect(error).toContain('or "all", got -3');
    // pml keeps serving as with no file (the default bound) and logs the error.
    expect(capNames(tools.result.tools)).toHaveLength(20);
    expect(bad.stderr).toContain("memory.list_tools");
    bad.kill();
  });
});

describe("dns:pin", () => {
  test("pins and unpins; dns:lookup shows it; a burst of changes sends one list_changed per window", async () => {
    // A window far longer than the test: the first change is told at once, the rest wait for it to end.
    const peer = await connect({ list_tools: 5 }, { PML_LIST_CHANGED_MS: "600000" });
    const pin = async (name: string, pinned?: boolean) => {
      const r = await peer.request(nextId++, "tools/call", { name: "call", arguments: { tool: "dns:pin", arguments: { name, ...(pinned === undefined ? {} : { pinned }) } } });
      expect(r.result.isError).toBeUndefined();
      return r.result.structuredContent ?? JSON.parse(r.result.content[0].text);
    };
    for (const i of ["0010", "0011", "0012", "0013"]) expect(await pin(`util:step_${i}`)).toMatchObject({ name: `util:step_${i}`, pinned: true, tool: `cap__util__step_${i}` });
    expect((await pin("util:step_0250", false)).pinned).toBe(false);

    const caps = capNames((await peer.request(nextId++, "tools/list")).result.tools);
    expect(caps.slice(0, 4)).toEqual(["cap__util__step_0010", "cap__util__step_0011", "cap__util__step_0012", "cap__util__step_0013"]);
    expect(caps).not.toContain("cap__util__step_0250");
    expect(peer.lines.filter((l) => l.includes("notifications/tools/list_changed"))).toHaveLength(1);

    const look = await peer.request(nextId++, "tools/call", { name: "call", arguments: { tool: "dns:lookup", arguments: { name: "util:step_0011" } } });
    expect(look.result.structuredContent).toMatchObject({ display_name: "util:step_0011", pinned: true });
    for (const i of ["0010", "0011", "0012", "0013"]) await pin(`util:step_${i}`, false);
    peer.kill();
  });

  test("an unnamed capability cannot be pinned: the answer says to name it first", async () => {
    const store = new SqliteCapabilityStore(join(home.path, "memory.db"));
    const code = "return 'anon';";
    await store.capture({ ...seed(0), name: undefined, code, code_hash: codeHash(code) });
    const id = (store.db.query("SELECT action FROM capabilities WHERE named = 0").get() as { action: string }).action;
    store.close();
    const peer = await connect(undefined);
    const r = await peer.request(nextId++, "tools/call", { name: "call", arguments: { tool: "dns:pin", arguments: { name: id } } });
    expect(r.result.isError).toBe(true);
    expect(r.result.content[0].text).toContain("name it first");
    peer.kill();
  });
});

test("with 2,000 capabilities the default tools/list stays small", async () => {
  const store = new SqliteCapabilityStore(join(home.path, "memory.db"));
  store.db.transaction(() => {
    for (let i = N; i < 2000; i++) void store.capture(seed(i));
  })();
  store.close();
  const peer = await connect(undefined);
  const r = await peer.request(nextId++, "tools/list");
  expect(capNames(r.result.tools)).toHaveLength(20);
  expect(JSON.stringify(r).length).toBeLessThan(64 * 1024);
  peer.kill();
});
