// The cloud endpoint end to end: `pml registry serve --api-key` as a real child process running a
// module from its data directory in the sandbox, called through callCloud with a BYOK key. Then
// every file either side wrote, and the server's own output, are searched for the keys.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callCloud, type CloudCallOptions } from "../../src/cloud/call.ts";
import type { ProjectConfig } from "../../src/config/pml-json.ts";
import { ApiKeys, apiKeyFlags } from "../../src/registry-server/api-keys.ts";
import { handleToolsCall } from "../../src/registry-server/tools-call.ts";
import { FileStore } from "../../src/registry-server/store.ts";
import { entries, spawnListening } from "../helpers/pml.ts";
import { userPlan } from "../helpers/env-plan.ts";

const API_KEY = "pml-key-3f9a1c7e55";
const OTHER_API_KEY = "pml-key-from-file-8b2d";
const BYOK = "byok-value-d41d8cd98f";

const MODULE = `
export const __meta__ = {
  type: "deno",
  routing: "cloud",
  env_required: ["SEARCH_API_KEY"],
  tools: [
    { name: "search", description: "echo", inputSchema: { type: "object" } },
    { name: "stash", description: "keeps ctx in a global", inputSchema: { type: "object" } },
  ],
};
export async function search(args, ctx) {
  return { q: args.q, key_length: ctx.env.SEARCH_API_KEY.length, env_names: Object.keys(ctx.env), starts: ctx.env.SEARCH_API_KEY.slice(0, 5) };
}
export async function stash(args, ctx) {
  const before = globalThis.__seen ?? null;
  globalThis.__seen = ctx.env.SEARCH_API_KEY;
  return { before };
}
`;

let dir: string;
let data: string;
let ws: string;
let home: string;
let proc: ReturnType<typeof Bun.spawn>;
let url: string;
let stderrText: () => string;

/** The options of a call as the gateway makes them, the descriptor planned as the user's own. */
function opts(over: Partial<CloudCallOptions> = {}): CloudCallOptions {
  const o = {
    ns: "websearch",
    action: "search",
    args: { q: "bun" },
    config: { cloud: { url } } as ProjectConfig,
    workspace: ws,
    signal: new AbortController().signal,
    env: { PML_API_KEY: API_KEY, SEARCH_API_KEY: BYOK },
    ...over,
  };
  return { ...o, plan: over.plan ?? userPlan(o.ns, { type: "cloud", env_required: ["SEARCH_API_KEY"] }, { workspace: o.workspace, env: o.env, cloudRouted: true }) };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pml-cloudsrv-"));
  data = join(dir, "data");
  ws = join(dir, "ws");
  home = join(dir, "home");
  for (const d of [data, ws, home]) mkdirSync(d);
  writeFileSync(join(data, "websearch.ts"), MODULE);
  writeFileSync(join(dir, "keys.txt"), `# accepted keys\n${OTHER_API_KEY}\n`);
  const server = await spawnListening(
    [...entries.source, "registry", "serve", "--data", data, "--port", "0", "--api-key", "first-key", "--api-key", API_KEY, "--api-keys-file", join(dir, "keys.txt")],
    { cwd: dir, env: { ...process.env, PML_HOME: home, PML_LOG: "debug" } as Record<string, string> },
  );
  proc = server.proc;
  url = server.url;
  stderrText = server.stderr;
}, 30_000);

afterAll(async () => {
  proc?.kill("SIGTERM");
  await proc?.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe("POST /mcp/tools/call behind pml registry serve", () => {
  test("runs the module with exactly the declared BYOK key in ctx.env", async () => {
    const r = await callCloud(opts());
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ q: "bun", key_length: BYOK.length, env_names: ["SEARCH_API_KEY"], starts: BYOK.slice(0, 5) });
  }, 30_000);

  test("keys from --api-keys-file are accepted; a wrong key is rejected (401)", async () => {
    expect((await callCloud(opts({ env: { PML_API_KEY: OTHER_API_KEY, SEARCH_API_KEY: BYOK } }))).isError).toBeFalsy();
    const e = await callCloud(opts({ env: { PML_API_KEY: "wrong", SEARCH_API_KEY: BYOK } })).catch((x: Error) => x);
    expect((e as Error).message).toStartWith(`PML_API_KEY was rejected by ${url}`);
  }, 30_000);

  test("undeclared X-PML-Env headers never reach the module", async () => {
    const res = await fetch(`${url}/mcp/tools/call`, {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json", "x-pml-env-SEARCH_API_KEY": "abcdefgh", "x-pml-env-OTHER": "nope" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "websearch:search", arguments: { q: "x" } } }),
    });
    const body: any = await json(res);
    expect(body.id).toBe(7);
    expect(body.result.structuredContent.env_names).toEqual(["SEARCH_API_KEY"]);
  }, 30_000);

  test("one caller's keys are not visible to the next call (fresh engine per call)", async () => {
    await callCloud(opts({ action: "stash" }));
    const r = await callCloud(opts({ action: "stash", env: { PML_API_KEY: API_KEY, SEARCH_API_KEY: "someone-else" } }));
    expect(r.structuredContent).toEqual({ before: null });
  }, 30_000);

  test("unknown tools and a missing BYOK key get clear answers", async () => {
    const unknown = await callCloud(opts({ action: "nope" })).catch((x: Error) => x);
    expect((unknown as Error).message).toContain("unknown tool websearch:nope");
    const res = await fetch(`${url}/mcp/tools/call`, {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "websearch:search", arguments: {} } }),
    });
    const body: any = await json(res);
    expect(body.result.isError).toBe(true);
    expect(body.result.content[0].text).toContain("SEARCH_API_KEY");
  }, 30_000);

  test("no key appears in any file either side wrote, nor in the server's output", async () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else files.push(p);
      }
    };
    for (const d of [data, ws, home]) walk(d);
    for (const f of files) {
      const text = readFileSync(f, "latin1");
      for (const secret of [API_KEY, OTHER_API_KEY, BYOK, "someone-else"]) expect(text.includes(secret) ? `${secret} in ${f}` : "").toBe("");
    }
    for (const secret of [API_KEY, OTHER_API_KEY, BYOK, "someone-else"]) expect(stderrText().includes(secret)).toBe(false);
  });
});

describe("handleToolsCall", () => {
  test("Bearer checks and JSON-RPC refusals", async () => {
    expect(new ApiKeys(["abc"]).identify("Bearer abc").ok).toBe(true);
    expect(new ApiKeys(["abc"]).identify("Bearer abd").ok).toBe(false);
    expect(new ApiKeys(["abc"]).identify(null).ok).toBe(false);
    expect(new ApiKeys([]).identify("Bearer abc").ok).toBe(false);
    expect(apiKeyFlags(["--data", "d", "--api-key", "a", "--api-key=b", "--", "--api-key", "c"])).toEqual(["a", "b"]);

    const store = new FileStore(data);
    const post = (body: string, auth = "Bearer k") =>
      handleToolsCall(new Request("http://x/mcp/tools/call", { method: "POST", headers: { authorization: auth }, body }), { store, apiKeys: new ApiKeys(["k"]) });
    const unauth = await post("{}", "Bearer nope");
    expect(unauth.status).toBe(401);
    expect((await json(unauth)).error.message).toContain("Unauthorized");
    expect((await json(await post("{bad"))).error.code).toBe(-32700);
    expect((await json(await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })))).error.code).toBe(-32601);
    const noNs = await json(await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "missing:x" } })));
    expect(noNs.error.message).toContain("'missing' is not in this registry");
  });
});

function json(res: Response): Promise<any> {
  return res.json();
}
