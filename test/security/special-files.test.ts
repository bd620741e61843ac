// Issue 9, finding 10 (first item): a FIFO in the workspace made `read_file` hang. Through the
// compiled pml: FIFOs and sockets are refused at once with a clear message, by read_file,
// edit_file and write_file, and pml keeps serving.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
let ws: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
let sock: Server;
let client: Awaited<ReturnType<typeof sdkClient>>;

beforeAll(async () => {
  ws = tempDir("pml-sec-special-");
  home = tempDir("pml-sec-home-");
  expect(Bun.spawnSync(["mkfifo", join(ws.path, "pipe")]).exitCode).toBe(0);
  sock = createServer(() => {});
  await new Promise<void>((res) => sock.listen(join(ws.path, "sock"), res));
  await writeTrustedConfig(ws.path, { permissions: { allow: ["filesystem"] } }, home.path);
  client = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
});
afterAll(async () => {
  await client?.transport.close();
  sock?.close();
  ws?.cleanup();
  home?.cleanup();
});

const call = async (name: string, args: Record<string, unknown>) => {
  const r: any = await client.client.callTool({ name: `filesystem__${name}`, arguments: args });
  return { error: r.isError === true, text: text(r) };
};

test("read_file on a FIFO is refused at once, not a hang; so is a socket", async () => {
  const fifo = await call("read_file", { path: "pipe" });
  expect(fifo.error).toBe(true);
  expect(fifo.text).toContain('"pipe" is a FIFO (named pipe), not a regular file');
  const s = await call("read_file", { path: "sock" });
  expect(s.error).toBe(true);
  expect(s.text).toMatch(/"sock" is a socket|ENXIO|no such device/i);
});

test("edit_file and write_file refuse them too; pml keeps serving", async () => {
  expect((await call("edit_file", { path: "pipe", edits: [{ oldText: "a", newText: "b" }] })).text).toContain("FIFO");
  expect((await call("write_file", { path: "pipe", content: "x" })).text).toContain("FIFO");
  expect((await call("write_file", { path: "sock", content: "x" })).text).toContain("socket");
  const info = await call("get_file_info", { path: "pipe" });
  expect(info.error).toBe(false);
  expect(existsSync(join(ws.path, "pipe"))).toBe(true);
  writeFileSync(join(ws.path, "ok.txt"), "fine");
  expect((await call("read_file", { path: "ok.txt" })).text).toBe("fine");
});
