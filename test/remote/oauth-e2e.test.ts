// Signing in to an OAuth-protected remote server, as a user of a client with URL-mode elicitation
// does it, through the real `pml stdio`: the first call shows the sign-in link through the client
// (elicitation/create, mode "url") and says what to do; after the browser comes back, the call
// works, and the tokens are in PML_HOME, not in the workspace.
import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { oauthServer } from "./stand-ins.ts";

const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
const remote = oauthServer();
const ws = tempDir("pml-oauth-e2e-ws-");
const home = tempDir("pml-oauth-e2e-home-");
afterAll(() => {
  remote.stop();
  ws.cleanup();
  home.cleanup();
});

test("the sign-in link reaches the client as URL elicitation; after the browser returns, the tool runs", async () => {
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ permissions: { allow: ["secured"] }, private_mcps: { secured: { type: "http", url: remote.url } } }));
  const { client } = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }), capabilities: { elicitation: { form: {}, url: {} } } });
  try {
    const shown: any[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (req: any) => {
      shown.push(req.params);
      return { action: "accept" };
    });
    const first: any = await client.callTool({ name: "secured__whoami", arguments: {} });
    expect(first.isError).toBe(true);
    expect(text(first)).toContain("needs you to sign in (the link was shown to you)");
    expect(shown).toHaveLength(1);
    expect(shown[0].mode).toBe("url");
    const link = new URL(shown[0].url);
    expect(link.origin).toBe(remote.base);
    expect(text(first)).toContain(link.href);

    // The user's browser: the authorization server approves and sends it back to pml.
    const back = (await fetch(link, { redirect: "manual" })).headers.get("location")!;
    expect((await fetch(back)).status).toBe(200);

    const second: any = await client.callTool({ name: "secured__whoami", arguments: {} });
    expect(second.isError).toBeFalsy();
    expect(text(second)).toBe("ok");
    expect(readdirSync(join(home.path, "oauth"))).toHaveLength(1);
    expect(existsSync(join(ws.path, ".pml"))).toBe(false);
  } finally {
    await client.close();
  }
});
