// pml's remote-server client against the MCP SDK's own server transport (web-standard Streamable
// HTTP under Bun.serve), not only against `pml serve`: a tools/list_changed on the GET stream
// refreshes pml's list, a remote's elicitation is relayed to the caller, and an OAuth-protected
// server is signed in to through the real wire format (protected-resource and authorization
// server metadata, dynamic registration, PKCE, the loopback redirect with its state).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { RemoteServers } from "../../src/remote/remote-servers.ts";
import { tempDir } from "../helpers/pml.ts";
import { waitFor } from "../helpers/wait.ts";
import { oauthServer, sdkApp } from "./stand-ins.ts";
import { UserRemoteServers } from "./user-remote-servers.ts";

const http = (url: string) => ({ type: "http" as const, url, headers: {}, env_required: [] }) as any;
const ctx = (extra: Record<string, unknown> = {}) => ({ signal: AbortSignal.timeout(20_000), ...extra }) as any;
const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
const until = (pred: () => boolean, ms = 5000) => waitFor(pred, { timeoutMs: ms });

describe("against the SDK's server transport under Bun.serve", () => {
  const ws = tempDir("pml-sdk-remote-");
  const app = sdkApp();
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: (req) => app(req) });
  const url = `http://127.0.0.1:${server.port}/mcp`;
  const made: RemoteServers[] = [];
  afterAll(async () => {
    for (const r of made) await r.shutdown();
    server.stop(true);
    ws.cleanup();
  });

  test("a tools/list_changed on the GET stream refreshes pml's list of the remote's tools", async () => {
    const changed: string[][] = [];
    const r = new UserRemoteServers({ workspace: ws.path, env: {}, onToolsChanged: (_ns, tools) => changed.push(tools.map((t) => t.name)) });
    made.push(r);
    expect((await r.listTools("sdk", http(url))).map((t) => t.name)).toEqual(["add_tool", "ask", "whoami"]);
    expect(text(await r.call("sdk", http(url), "add_tool", {}, ctx()))).toBe("added");
    await until(() => changed.length > 0);
    expect(changed.at(-1)).toContain("extra");
    expect(r.cachedTools("sdk")!.map((t) => t.name)).toContain("extra");
  });

  test("a remote's elicitation goes to the caller's client and its answer back to the remote", async () => {
    const asked: Array<{ method: string; params: any; origins: unknown[] }> = [];
    const r = new UserRemoteServers({
      workspace: ws.path,
      env: {},
      onServerRequest: async (_ns, method, params, origins) => {
        asked.push({ method, params, origins });
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    made.push(r);
    const origin = { session: "client-1" };
    const out = await r.call("sdk", http(url), "ask", {}, ctx({ origin }));
    expect(JSON.parse(text(out))).toEqual({ action: "accept", content: { name: "Ada" } });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.method).toBe("elicitation/create");
    expect(asked[0]!.params.message).toBe("Your name?");
    expect(asked[0]!.origins).toEqual([origin]);
  });
});

describe("an OAuth-protected remote (authorization server on 127.0.0.1)", () => {
  const ws = tempDir("pml-oauth-ws-");
  const home = tempDir("pml-oauth-home-");
  const prevHome = process.env.PML_HOME;
  const { base, registered, stop } = oauthServer();
  const made: RemoteServers[] = [];

  beforeAll(() => {
    process.env.PML_HOME = home.path;
  });
  afterAll(async () => {
    for (const r of made) await r.shutdown();
    stop();
    if (prevHome === undefined) delete process.env.PML_HOME;
    else process.env.PML_HOME = prevHome;
    ws.cleanup();
    home.cleanup();
  });

  test("the call says where to sign in; after the browser comes back, the next call works; tokens stay in PML_HOME, 0600", async () => {
    const r = new UserRemoteServers({ workspace: ws.path, env: {} });
    made.push(r);
    const first = await r.call("secured", http(`${base}/mcp`), "whoami", {}, ctx()).catch((e) => e);
    expect(first.name).toBe("ToolError");
    const m = /open (\S+) in a browser/.exec(first.message);
    expect(m).not.toBeNull();
    const authorize = new URL(m![1]!);
    expect(authorize.origin).toBe(base);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(registered[0].redirect_uris[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    // A forged return (wrong state) is refused and changes nothing.
    const back = (await fetch(authorize, { redirect: "manual" })).headers.get("location")!;
    const forged = new URL(back);
    forged.searchParams.set("state", "not-the-one");
    expect((await fetch(forged)).status).toBe(400);
    // The real one: pml exchanges the code (with its PKCE verifier) for tokens.
    const done = await fetch(back);
    expect(done.status).toBe(200);
    const files = readdirSync(join(home.path, "oauth"));
    expect(files).toHaveLength(1);
    const file = join(home.path, "oauth", files[0]!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8")).tokens.access_token).toStartWith("tok-");
    expect(existsSync(join(ws.path, ".pml"))).toBe(false);

    expect(text(await r.call("secured", http(`${base}/mcp`), "whoami", {}, ctx()))).toBe("ok");
    // A new process (here: a new client) finds the tokens and connects without asking again.
    const again = new UserRemoteServers({ workspace: ws.path, env: {} });
    made.push(again);
    expect(text(await again.call("secured", http(`${base}/mcp`), "whoami", {}, ctx()))).toBe("ok");
  });
});

describe("an OAuth-protected remote whose authorization server has no dynamic registration", () => {
  const ws = tempDir("pml-oauth-pre-ws-");
  const home = tempDir("pml-oauth-pre-home-");
  const prevHome = process.env.PML_HOME;
  const remote = oauthServer({ clients: { "pml-team": "s3cret-value-42" } });
  const made: RemoteServers[] = [];
  const pre = (secret: string) => ({ ...http(remote.url), oauth: { client_id: "pml-team", client_secret: secret } });
  beforeAll(() => {
    process.env.PML_HOME = home.path;
  });
  afterAll(async () => {
    for (const r of made) await r.shutdown();
    remote.stop();
    if (prevHome === undefined) delete process.env.PML_HOME;
    else process.env.PML_HOME = prevHome;
    ws.cleanup();
    home.cleanup();
  });

  test("a secret variable that is not set is named before any request", async () => {
    const r = new UserRemoteServers({ workspace: ws.path, env: {} });
    made.push(r);
    const e = await r.call("secured", pre("${TEAM_OAUTH_SECRET}"), "whoami", {}, ctx()).catch((x) => x);
    expect(e.message).toContain("TEAM_OAUTH_SECRET");
    expect(remote.tokenRequests).toHaveLength(0);
  });

  test("the pre-registered client signs in with its secret from the environment; the secret is stored nowhere", async () => {
    const r = new UserRemoteServers({ workspace: ws.path, env: { TEAM_OAUTH_SECRET: "s3cret-value-42" } });
    made.push(r);
    const first = await r.call("secured", pre("${TEAM_OAUTH_SECRET}"), "whoami", {}, ctx()).catch((e) => e);
    const link = new URL(/open (\S+) in a browser/.exec(first.message)![1]!);
    expect(link.searchParams.get("client_id")).toBe("pml-team");
    const back = (await fetch(link, { redirect: "manual" })).headers.get("location")!;
    expect((await fetch(back)).status).toBe(200);
    expect(text(await r.call("secured", pre("${TEAM_OAUTH_SECRET}"), "whoami", {}, ctx()))).toBe("ok");
    expect(remote.registered).toHaveLength(0);
    expect(Buffer.from(remote.tokenRequests.at(-1)!.authorization!.replace(/^Basic /, ""), "base64").toString()).toBe("pml-team:s3cret-value-42");
    for (const f of readdirSync(join(home.path, "oauth"))) expect(readFileSync(join(home.path, "oauth", f), "utf8")).not.toContain("s3cret-value-42");
  });
});
