// `pml stdio` at the protocol level, through raw bytes and through the SDK's real Client,
// for both the compiled binary and the source entry.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_RECHECK_MS } from "../../src/policy/project.ts";
import { clockPassed } from "../helpers/wait.ts";
import { entries, RawPeer, sdkClient, tempDir, testEnv, type EntryKind } from "../helpers/pml.ts";

for (const kind of Object.keys(entries) as EntryKind[]) {
  describe(`pml stdio (${kind})`, () => {
    const ws = tempDir();
    const home = tempDir();
    const env = () => testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path });
    beforeAll(() => writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ permissions: { allow: ["memory:read_graph"], deny: ["shell:exec"] } })));
    afterAll(() => {
      ws.cleanup();
      home.cleanup();
    });

    test("initialize, ping, tools/list, and clean exit on stdin EOF", async () => {
      const peer = new RawPeer(entries[kind], { cwd: ws.path, env: env() });
      const init = await peer.initialize();
      expect(init.result.protocolVersion).toBe("2025-11-25");
      expect(init.result.serverInfo.name).toBe("pml");
      expect(init.result.capabilities.tools).toBeDefined();
      expect((await peer.request(2, "ping")).result).toEqual({});
      const list = await peer.request(3, "tools/list");
      const names = list.result.tools.map((t: any) => t.name);
      expect(names).toEqual(expect.arrayContaining(["status", "discover", "call", "execute"]));
      for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_-]{1,54}$/);
      peer.close();
      expect(await peer.proc.exited).toBe(0);
    });

    test("server/discover is answered at once; an old protocol version is negotiated by initialize", async () => {
      const peer = new RawPeer(entries[kind], { cwd: ws.path, env: env() });
      const d = await peer.request(1, "server/discover", {});
      expect(d.result.supportedVersions[0]).toBe("2026-07-28");
      const init = await peer.request(2, "initialize", { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "x", version: "0" } });
      expect(init.result.protocolVersion).toBe("2025-03-26");
      const future = await peer.request(3, "initialize", { protocolVersion: "2099-01-01", capabilities: {}, clientInfo: { name: "x", version: "0" } });
      expect(future.result.protocolVersion).toBe("2025-11-25");
      peer.close();
      await peer.proc.exited;
    });

    test("bad input: parse error, invalid requests, unknown method, bad params; it keeps serving", async () => {
      const peer = new RawPeer(entries[kind], { cwd: ws.path, env: env() });
      peer.write("this is not json\n");
      expect((await peer.next((m) => m.error?.code === -32700)).id).toBeNull();
      peer.write('{"jsonrpc":"2.0","id":5,"method":\n'); // truncated JSON
      await peer.next((m) => m.error?.code === -32700);
      peer.send([{ jsonrpc: "2.0", id: 6, method: "ping" }]);
      expect((await peer.next((m) => m.error?.code === -32600)).error.message).toContain("batch");
      peer.send({ id: 7, method: "ping" });
      expect((await peer.next((m) => m.id === 7)).error.code).toBe(-32600);
      peer.send({ jsonrpc: "2.0", id: 8, method: "ping", params: [1] });
      expect((await peer.next((m) => m.id === 8)).error.code).toBe(-32600);
      expect((await peer.request(9, "no/such/method")).error.code).toBe(-32601);
      expect((await peer.request(10, "tools/call", {})).error.code).toBe(-32602);
      expect((await peer.request(11, "tools/call", { name: "status", arguments: [1] })).error.code).toBe(-32602);
      // Two messages in one write, and one message split across writes.
      peer.write('{"jsonrpc":"2.0","id":12,"method":"ping"}\n{"jsonrpc":"2.0","id":13,"method":"ping"}\n{"jsonrpc":"2.0",');
      await peer.next((m) => m.id === 12);
      await peer.next((m) => m.id === 13);
      peer.write('"id":14,"method":"ping"}\n');
      expect((await peer.next((m) => m.id === 14)).result).toEqual({});
      // Unknown notifications are ignored; responses to nothing are ignored.
      peer.send({ jsonrpc: "2.0", method: "notifications/whatever" });
      peer.send({ jsonrpc: "2.0", id: "nobody", result: {} });
      expect((await peer.request(15, "ping")).result).toEqual({});
      peer.close();
      expect(await peer.proc.exited).toBe(0);
      // Nothing but JSON-RPC on stdout: every line parsed above; all remaining lines must parse too.
      for (const line of peer.lines) expect(() => JSON.parse(line)).not.toThrow();
    });

    test("every tools/call gets exactly one answer, refused at once or answered later, under both revisions, even with stdin closed right after", async () => {
      const peer = new RawPeer(entries[kind], { cwd: ws.path, env: env() });
      const modern = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
      const calls: [number, Record<string, unknown>][] = [
        [1, { _meta: modern }], // no name: refused before the host
        [2, { name: "status", arguments: {}, _meta: modern }], // pml's own tool, answered later
        [3, { name: "nosuchns__x", arguments: {}, _meta: modern }],
        [4, { name: "x", _meta: { "io.modelcontextprotocol/protocolVersion": "1999-01-01" } }], // unsupported version
        [5, {}],
        [6, { name: "status", arguments: {} }],
        [7, { name: "nosuchns__x", arguments: {} }],
      ];
      peer.write(calls.map(([id, params]) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params })}\n`).join(""));
      (peer.proc.stdin as import("bun").FileSink).end();
      expect(await peer.proc.exited).toBe(0);
      const ids = peer.lines.map((l) => JSON.parse(l).id).sort();
      expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7]);
      const byId = Object.fromEntries(peer.lines.map((l) => [JSON.parse(l).id, JSON.parse(l)]));
      expect(byId[1].error.code).toBe(-32602);
      expect(byId[2].result.resultType).toBe("complete");
      expect(byId[3].result).toMatchObject({ resultType: "complete", isError: true });
      expect(byId[4].error.code).toBe(-32022);
      expect(byId[5].error.code).toBe(-32602);
      expect(byId[6].result.resultType).toBeUndefined();
      expect(byId[7].result.isError).toBe(true);
    });

    test("unknown tools and denied tools are tool errors that help", async () => {
      const peer = new RawPeer(entries[kind], { cwd: ws.path, env: env() });
      await peer.initialize();
      const r1 = await peer.request(1, "tools/call", { name: "nonsense", arguments: {} });
      expect(r1.result.isError).toBe(true);
      expect(r1.result.content[0].text).toContain("discover");
      const r2 = await peer.request(2, "tools/call", { name: "shell__exec", arguments: { command: "echo hi" } });
      expect(r2.result.isError).toBe(true);
      expect(r2.result.content[0].text).toContain("denied");
      const r3 = await peer.request(3, "tools/call", { name: "nosuchns__x", arguments: {} });
      expect(r3.result.isError).toBe(true);
      expect(r3.result.content[0].text).toMatch(/nosuchns/);
      peer.close();
      await peer.proc.exited;
    });

    test("status reports the workspace, the config file and the permissions in force", async () => {
      const { client, transport } = await sdkClient(entries[kind], { cwd: ws.path, env: env() });
      const r: any = await client.callTool({ name: "status", arguments: {} });
      const s = JSON.parse(r.content[0].text);
      expect(s.workspace.root).toBe(ws.path);
      expect(s.workspace.resolved_from).toBe("PML_WORKSPACE");
      expect(s.config.path).toBe(join(ws.path, ".pml.json"));
      expect(s.permissions.allow).toEqual(["memory:read_graph"]);
      expect(s.permissions.deny).toEqual(["shell:exec"]);
      expect(s.mode).toStartWith("local");
      await transport.close();
    });

    test("a broken .pml.json is reported by name and line, and pml keeps serving", async () => {
      const bad = tempDir();
      try {
        writeFileSync(join(bad.path, ".pml.json"), '{\n  "permissions": {\n    "allow": [1 2]\n  }\n}\n');
        const { client, transport } = await sdkClient(entries[kind], { cwd: bad.path, env: testEnv({ PML_WORKSPACE: bad.path, PML_HOME: home.path }) });
        const st: any = await client.callTool({ name: "status", arguments: {} });
        expect(JSON.parse(st.content[0].text).config.error).toContain(".pml.json");
        const r: any = await client.callTool({ name: "memory__read_graph", arguments: {} });
        expect(r.isError).toBe(true);
        expect(r.content[0].text).toMatch(/\.pml\.json:3:\d+: invalid JSON/);
        // Fixing the file applies to calls made CONFIG_RECHECK_MS after the edit, no restart.
        writeFileSync(join(bad.path, ".pml.json"), '{"permissions": {"deny": ["memory"]}}\n');
        await clockPassed(CONFIG_RECHECK_MS, performance.now()); // on the clock: a timer may fire a little early
        const r2: any = await client.callTool({ name: "memory__read_graph", arguments: {} });
        expect(r2.content[0].text).toContain("denied");
        // So does taking the deny out again: the tool is no longer refused, it asks (no allow).
        writeFileSync(join(bad.path, ".pml.json"), '{"permissions": {}}\n');
        await clockPassed(CONFIG_RECHECK_MS, performance.now());
        const r3: any = await client.callTool({ name: "memory__read_graph", arguments: {} });
        expect(r3.content[0].text).not.toContain("denied");
        expect(JSON.stringify(r3)).toContain("approval");
        await transport.close();
      } finally {
        bad.cleanup();
      }
    });

    test("SIGTERM exits cleanly", async () => {
      const peer = new RawPeer(entries[kind], { cwd: ws.path, env: env() });
      await peer.initialize();
      peer.proc.kill("SIGTERM");
      expect(await peer.proc.exited).toBe(0);
    });
  });
}

test("workspace from the current directory: walks up to the nearest marker", async () => {
  const ws = tempDir();
  try {
    mkdirSync(join(ws.path, "a/b/c"), { recursive: true });
    writeFileSync(join(ws.path, "package.json"), "{}");
    const { client, transport } = await sdkClient(entries.binary, { cwd: join(ws.path, "a/b/c"), env: testEnv({ PML_HOME: ws.path + "/.home" }) });
    const r: any = await client.callTool({ name: "status", arguments: {} });
    const s = JSON.parse(r.content[0].text);
    expect(s.workspace).toEqual({ root: ws.path, resolved_from: "marker" });
    await transport.close();
  } finally {
    ws.cleanup();
  }
});
