// Adapter for the MCP conformance suite's client scenarios (@modelcontextprotocol/conformance):
// the suite starts a test server and runs this with its URL; this drives pml's remote-server
// client (src/cloud/remote-mcp.ts) the way the gateway does: list the tools, call each one.
//   bun node_modules/@modelcontextprotocol/conformance/dist/index.js client \
//     --command "bun bench/conformance-client.ts" --scenario tools_call
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RemoteServers } from "../src/cloud/remote-mcp.ts";
import type { HttpDescriptor } from "../src/registry/descriptor.ts";

const url = process.argv.at(-1)!;
const remote = new RemoteServers({ workspace: mkdtempSync(join(tmpdir(), "pml-conformance-")), timeoutMs: 15_000, env: {} });
const desc = { type: "http", url, env_required: [] } as unknown as HttpDescriptor;
const ctx = { signal: AbortSignal.timeout(20_000) };
// Arguments the scenarios' tools take (add_numbers needs numbers; others take none).
const ARGS: Record<string, Record<string, unknown>> = { add_numbers: { a: 2, b: 3 } };
try {
  const tools = await remote.listTools("conformance", desc, ctx);
  for (const t of tools) {
    const r = await remote.call("conformance", desc, t.name, ARGS[t.name] ?? {}, ctx).catch((e: Error) => ({ isError: true, content: [{ type: "text", text: e.message }] }));
    console.error(`${t.name}: ${JSON.stringify(r).slice(0, 200)}`);
  }
} catch (e) {
  console.error(`pml remote client: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await remote.shutdown();
}
