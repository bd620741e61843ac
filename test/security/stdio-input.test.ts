// Attacks and accidents on `pml stdio`'s input, against the compiled binary: requests written
// just before stdin closes, and a line longer than the limit whose tail looks like a message.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";

const ws = tempDir();
const home = tempDir();
writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ permissions: { allow: [], deny: [] } }));
const env = () => testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path });
afterAll(() => {
  ws.cleanup();
  home.cleanup();
});

const rpc = (id: number, method: string, params?: unknown) => `${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) })}\n`;

test("every request read before stdin EOF is answered, then pml exits", async () => {
  const input =
    rpc(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "printf", version: "0" } }) +
    rpc(2, "tools/list") +
    rpc(3, "tools/call", { name: "status", arguments: {} }) +
    rpc(4, "ping");
  const proc = Bun.spawn([BIN, "stdio"], { cwd: ws.path, env: env(), stdin: new Blob([input]), stdout: "pipe", stderr: "pipe" });
  const out = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  const answers = out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3, 4]);
  expect(answers.find((a) => a.id === 2).result.tools.length).toBeGreaterThan(0);
  expect(answers.find((a) => a.id === 3).result.content[0].text).toContain("workspace");
});

test("a line over 64 MiB is discarded up to its newline: its tail is never read as a message", async () => {
  const peer = new RawPeer([BIN], { cwd: ws.path, env: env() });
  await peer.initialize();
  // The padding is a request that never ends within the limit; what follows after a pause is
  // still the same line, crafted to be a valid request if it were parsed alone.
  peer.write(`{"jsonrpc":"2.0","id":99,"method":"ping","params":{"pad":"${"A".repeat(64 * 1024 * 1024 + 16)}`);
  const overflow = await peer.next((m) => m.error?.code === -32700, 60_000);
  expect(overflow.error.message).toContain("64 MiB");
  peer.write(`{"jsonrpc":"2.0","id":"smuggled","method":"ping"}\n`);
  // A request after the newline is a new message and is answered.
  expect((await peer.request(2, "ping")).result).toEqual({});
  await Bun.sleep(100); // a negative check: time for an answer to the smuggled request, if one were sent
  expect(peer.lines.map((l) => JSON.parse(l)).filter((m) => m.id === "smuggled" || m.id === 99)).toEqual([]);
  peer.close();
  expect(await peer.proc.exited).toBe(0);
}, 90_000);
