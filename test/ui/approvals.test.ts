// An approval a running session waits for, answered in the page: depends on the session-side
// channel (src/policy/live/live-sessions.ts).
// Written against its interface: readLiveSessions publishes the pending approval, the page's
// Continue calls answerApproval, and the session's tools/call then completes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import type { RawPeer } from "../helpers/pml.ts";
import { HAS_CHROMIUM, callTool, launch, session, shot, startUi, type tempDir, toolNames, watchedPage, type UiFixture, uiDirs } from "./ui-helpers.ts";

let dir: ReturnType<typeof tempDir>;
let ui: UiFixture;
let peer: RawPeer;
let browser: Browser;
let page: Page;
let problems: string[];

describe.skipIf(!HAS_CHROMIUM)("approvals answered in the page", () => {
  beforeAll(async () => {
    const made = uiDirs("pml-ui-approve-");
    dir = made.dir;
    const { ws, home } = made;
    // `ask` only restricts: applies untrusted. dns:lookup is pml's own tool, so nothing is installed.
    writeFileSync(`${ws}/.pml.json`, JSON.stringify({ permissions: { ask: ["dns:lookup", "dns:whois"] } }));
    // A client with form elicitation: the session asks it, and the page too while it is open.
    peer = await session(ws, home, { elicitation: { form: {} } });
    await toolNames(peer);
    ui = await startUi(ws, home);
    browser = await launch();
    ({ page, problems } = await watchedPage(browser, ui.origin));
    await page.goto(`${ui.url}#approvals`);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    peer?.kill();
    ui?.stop();
    dir?.cleanup();
  });

  test("Continue in the page lets the waiting call run; the question leaves the page", async () => {
    peer.send({ jsonrpc: "2.0", id: 900, method: "tools/call", params: { name: "call", arguments: { tool: "dns:lookup", arguments: { name: "mcp:memory" } } } });
    const card = page.getByTestId("approval").filter({ hasText: "dns:lookup" });
    await card.waitFor({ timeout: 20_000 });
    await shot(page, "approvals-pending");
    await card.getByTestId("approve-continue").click();
    const done = await peer.next((m) => m.id === 900 && !("method" in m), 20_000);
    expect(done.error).toBeUndefined();
    expect(done.result.approval_required).toBeFalsy();
    await card.waitFor({ state: "detached", timeout: 20_000 });
  });

  test("Abort in the page refuses the call; it does not run", async () => {
    peer.send({ jsonrpc: "2.0", id: 901, method: "tools/call", params: { name: "call", arguments: { tool: "dns:whois", arguments: { name: "mcp:memory" } } } });
    const card = page.getByTestId("approval").filter({ hasText: "dns:whois" });
    await card.waitFor({ timeout: 20_000 });
    await card.getByTestId("approve-abort").click();
    const done = await peer.next((m) => m.id === 901 && !("method" in m), 20_000);
    expect(done.result?.isError).toBe(true);
  });

  test("a client without elicitation: the page decides; the model's continuation runs only after Continue in the page", async () => {
    const relayed = await session(ui.ws, ui.home);
    try {
      const asked = await callTool(relayed, "call", { tool: "dns:lookup", arguments: { name: "mcp:everything" } });
      expect(asked.approval_required).toBe(true);
      const cont = { continue_workflow: { workflow_id: asked.approval_context.workflow_id, approved: true } };
      const early = await callTool(relayed, "call", cont);
      expect(early.approval_required || early.isError).toBeTruthy();
      const card = page.getByTestId("approval").filter({ hasText: "dns:lookup" });
      await card.waitFor({ timeout: 20_000 });
      expect(await card.textContent()).toContain("tool-result");
      await card.getByTestId("approve-continue").click();
      await card.waitFor({ state: "detached", timeout: 20_000 });
      const ran = await callTool(relayed, "call", cont);
      expect(ran.isError).toBeFalsy();
      expect(ran.approval_required).toBeFalsy();
    } finally {
      relayed.kill();
    }
    expect(problems).toEqual([]);
  });
});
