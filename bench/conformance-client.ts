// Adapter for the MCP conformance suite's client scenarios (@modelcontextprotocol/conformance):
// the suite starts a test server and runs this with its URL; this drives pml's remote-server
// client (src/remote/remote-servers.ts) the way the gateway does: list the tools, call each one;
// for an OAuth scenario it plays the user's browser (open the authorization URL, follow it back)
// whenever a call says to sign in, and calls again.
//   bun node_modules/@modelcontextprotocol/conformance/dist/index.js client \
//     --command "bun bench/conformance-client.ts" --scenario tools_call
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EnvResolver, envRequestFor } from "../src/env/env-resolver.ts";
import { Project } from "../src/policy/project.ts";
import { serverRequestHandler } from "../src/gateway/dispatch/server-requests.ts";
import type { CallOrigin } from "../src/mcp/tool-result.ts";
import { RemoteServers } from "../src/remote/remote-servers.ts";
import type { HttpDescriptor } from "../src/registry/descriptor.ts";

const url = process.argv.at(-1)!;
const workspace = mkdtempSync(join(tmpdir(), "pml-conformance-"));
// A remote's elicitation goes through the gateway's relay to a client whose user accepts the form
// as shown, without typing anything (what pml adds, e.g. the schema's defaults, is then visible).
const relay = serverRequestHandler(workspace, new Project(workspace));
const user: CallOrigin = { relay: async () => ({ action: "accept" }) } as unknown as CallOrigin;
const remote = new RemoteServers({ workspace, timeoutMs: 15_000, env: {}, onServerRequest: (ns, method, params) => relay(ns, method, params, [user]) });
// A scenario with a pre-registered client passes its credentials as context; users put them in
// .pml.json (`oauth: {client_id, client_secret: "${VAR}"}`).
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
const oauth = context.client_id ? { client_id: context.client_id, client_secret: context.client_secret } : undefined;
const desc = { type: "http", url, env_required: [], oauth } as unknown as HttpDescriptor;
const ctx = { signal: AbortSignal.timeout(20_000) };
// Planned as the gateway plans an entry the user wrote (.pml.json private_mcps).
const plan = new EnvResolver({ workspace, env: {} }).plan(envRequestFor("conformance", desc, "user"));
// Arguments the scenarios' tools take (add_numbers needs numbers; others take none).
const ARGS: Record<string, Record<string, unknown>> = { add_numbers: { a: 2, b: 3 } };
/** Plays the user's browser for a sign-in: opens the authorization URL and follows its redirects
 * (the test authorization server approves at once) back to pml's loopback callback. */
async function signIn(message: string): Promise<boolean> {
  const m = /open (\S+) in a browser/.exec(message);
  if (!m) return false;
  let url = m[1]!;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, { redirect: "manual" });
    const next = res.headers.get("location");
    await res.body?.cancel();
    if (!next) return res.ok;
    url = new URL(next, url).href;
  }
  return false;
}

/** A user who signs in when a call asks them to (at most three times: a server asking again and
 * again for more scope must not loop), then calls again. */
async function signingIn<T>(fn: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= 3 || !(await signIn((e as Error).message))) throw e;
    }
  }
}

try {
  const tools = await signingIn(() => remote.listTools("conformance", desc, plan, ctx));
  for (const t of tools) {
    const r = await signingIn(() => remote.call("conformance", desc, t.name, ARGS[t.name] ?? {}, ctx, plan)).catch((e: Error) => ({
      isError: true,
      content: [{ type: "text", text: e.message }],
    }));
    console.error(`${t.name}: ${JSON.stringify(r).slice(0, 200)}`);
  }
} catch (e) {
  console.error(`pml remote client: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await remote.shutdown();
  process.exit(); // the sign-in listener would keep the process alive
}
