// Signing in to an OAuth-protected remote server through the real `pml stdio`, as a user of a
// client with URL-mode elicitation does it: the sign-in link reaches the client (an
// elicitation/create request under 2025-11-25, an input_required result under 2026-07-28); once
// the user accepted it, the call waits for the browser to come back and runs, signed in. The
// tokens are in PML_HOME, not in the workspace; a declined link sends nothing to the server.
import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { BIN, entries, RawPeer, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { oauthServer } from "./stand-ins.ts";

const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
const remote = oauthServer();
const ws = tempDir("pml-oauth-e2e-ws-");
const home = tempDir("pml-oauth-e2e-home-");
await writeTrustedConfig(ws.path, { permissions: { allow: ["secured"] }, private_mcps: { secured: { type: "http", url: remote.url } } }, home.path);
afterAll(() => {
  remote.stop();
  ws.cleanup();
  home.cleanup();
});
const signedOut = () => rmSync(join(home.path, "oauth"), { recursive: true, force: true });

/** The user's browser: the authorization server approves and sends it back to pml's listener. */
async function browser(link: string): Promise<number> {
  const back = (await fetch(link, { redirect: "manual" })).headers.get("location")!;
  return (await fetch(back)).status;
}

async function legacyClient() {
  return (await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }), capabilities: { elicitation: { form: {}, url: {} } } }))
    .client;
}

test("2025-11-25: the link reaches the client as URL elicitation; the call waits for the browser and runs", async () => {
  signedOut();
  const client = await legacyClient();
  try {
    const shown: any[] = [];
    const returned: Promise<number>[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (req: any) => {
      shown.push(req.params);
      // The user opens the link after accepting; the sign-in takes them a moment.
      returned.push(Bun.sleep(200).then(() => browser(req.params.url))); // the scenario's delay, not a wait
      return { action: "accept" };
    });
    const first: any = await client.callTool({ name: "secured__whoami", arguments: {} });
    expect(text(first)).toBe("ok");
    expect(first.isError).toBeFalsy();
    expect(shown).toHaveLength(1);
    expect(shown[0].mode).toBe("url");
    expect(typeof shown[0].elicitationId).toBe("string");
    expect(new URL(shown[0].url).origin).toBe(remote.base);
    expect(await returned[0]).toBe(200);

    // Signed in: the next call asks nothing.
    const second: any = await client.callTool({ name: "secured__whoami", arguments: {} });
    expect(text(second)).toBe("ok");
    expect(shown).toHaveLength(1);
    expect(readdirSync(join(home.path, "oauth"))).toHaveLength(1);
    expect(existsSync(join(ws.path, ".pml"))).toBe(false);
  } finally {
    await client.close();
  }
});

test("2025-11-25: a declined link ends the call with a clear error and no token", async () => {
  signedOut();
  const client = await legacyClient();
  try {
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
    const r: any = await client.callTool({ name: "secured__whoami", arguments: {} });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("Signing in to remote MCP server secured was declined");
    const tokens = existsSync(join(home.path, "oauth")) ? readdirSync(join(home.path, "oauth")).map((f) => Bun.file(join(home.path, "oauth", f)).text()) : [];
    for (const t of await Promise.all(tokens)) expect(JSON.parse(t).tokens).toBeUndefined();
  } finally {
    await client.close();
  }
});

test("2026-07-28: the link comes as an input_required result; the retry, after the browser, runs the tool", async () => {
  signedOut();
  const peer = new RawPeer([BIN], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "modern", version: "0" },
    "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {}, url: {} } },
  };
  try {
    const first = await peer.request(1, "tools/call", { name: "secured__whoami", arguments: {}, _meta: meta });
    expect(first.result.resultType).toBe("input_required");
    const [key, asked] = Object.entries(first.result.inputRequests as Record<string, any>)[0]!;
    expect(asked.method).toBe("elicitation/create");
    expect(asked.params.mode).toBe("url");
    const link = asked.params.url as string;
    expect(new URL(link).origin).toBe(remote.base);

    // The client retries at once, before the user is back from the browser: the retry waits for it.
    const retry = peer.request(2, "tools/call", {
      name: "secured__whoami",
      arguments: {},
      _meta: meta,
      requestState: first.result.requestState,
      inputResponses: { [key]: { action: "accept" } },
    });
    await Bun.sleep(300); // the scenario: the user comes back later (if the retry arrived after the browser, it would still run)
    expect(await browser(link)).toBe(200);
    const done = await retry;
    expect(done.result.resultType).toBe("complete");
    expect(text(done.result)).toBe("ok");

    // The same link cannot be used twice (the state was single-use).
    expect(await browser(link).catch(() => 0)).not.toBe(200);
  } finally {
    peer.close();
    await peer.proc.exited;
  }
});

test("a .pml.json entry with a pre-registered client (secret from the workspace .env) signs in without registering", async () => {
  const pre = oauthServer({ clients: { "team-app": "team-secret-0451" } });
  const ws2 = tempDir("pml-oauth-pre-ws-");
  try {
    writeFileSync(join(ws2.path, ".env"), "TEAM_OAUTH_SECRET=team-secret-0451\n");
    await writeTrustedConfig(
      ws2.path,
      { permissions: { allow: ["team"] }, private_mcps: { team: { type: "http", url: pre.url, oauth: { client_id: "team-app", client_secret: "${TEAM_OAUTH_SECRET}" } } } },
      home.path,
    );
    const { client } = await sdkClient(entries.binary, {
      cwd: ws2.path,
      env: testEnv({ PML_WORKSPACE: ws2.path, PML_HOME: home.path }),
      capabilities: { elicitation: { form: {}, url: {} } },
    });
    try {
      client.setRequestHandler(ElicitRequestSchema, async (req: any) => {
        expect(new URL(req.params.url).searchParams.get("client_id")).toBe("team-app");
        void Bun.sleep(100).then(() => browser(req.params.url)); // the scenario's delay, not a wait
        return { action: "accept" };
      });
      const r: any = await client.callTool({ name: "team__whoami", arguments: {} });
      expect(text(r)).toBe("ok");
      expect(pre.registered).toHaveLength(0);
      expect(pre.tokenRequests.length).toBe(1);
    } finally {
      await client.close();
    }
  } finally {
    pre.stop();
    ws2.cleanup();
  }
});
