// Publishing from the `pml ui` page (learn:publish's own code path) to a real `pml registry serve`
// (sqlite) on 127.0.0.1: a trusted workspace whose .pml.json names the registry and whose .env
// holds PML_API_KEY publishes a capability with the visibility chosen in the page, while
// memory.publish is off; one whose code holds a value of the workspace .env stays home, and the
// page says why.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import type { RawPeer } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { KEYS, listAll, startReplica, writeKeysFile, type Replica } from "../registry-db/helpers.ts";
import { HAS_CHROMIUM, callTool, launch, session, shot, startUi, type tempDir, waitFor, watchedPage, type UiFixture, uiDirs } from "./ui-helpers.ts";

const SECRET = "deploy-secret-value-93";

let dir: ReturnType<typeof tempDir>;
let registry: Replica;
let ui: UiFixture;
let peer: RawPeer;
let browser: Browser;
let page: Page;
let problems: string[];
let outside: string[];

beforeAll(async () => {
  const made = uiDirs("pml-ui-publish-");
  dir = made.dir;
  const { ws, home } = made;
  registry = await startReplica(`sqlite:${join(dir.path, "registry.db")}`, writeKeysFile(dir.path));
  // The key, and a value the secret screen keeps home, where the user keeps them: the workspace .env.
  writeFileSync(`${ws}/.env`, `PML_API_KEY=${KEYS.alice}\nDEPLOY_TOKEN=${SECRET}\n`);
  await writeTrustedConfig(ws, { cloud: { url: registry.url }, memory: { project: "web" } }, home);
  peer = await session(ws, home);
  expect((await callTool(peer, "execute", { code: "return args.n * 2;", args: { n: 2 }, intent: "double a number", name: "util:double_number" })).isError).toBeFalsy();
  expect((await callTool(peer, "execute", { code: `return "${SECRET}".length;`, intent: "count the deploy token", name: "util:token_length" })).isError).toBeFalsy();
  ui = await startUi(ws, home);
  if (HAS_CHROMIUM) {
    browser = await launch();
    ({ page, problems, outside } = await watchedPage(browser, ui.origin));
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  peer?.kill();
  ui?.stop();
  await registry?.stop();
  dir?.cleanup();
});

/** One capability's page, reached as a user does: the Capabilities tab, then its link. */
async function open(name: string): Promise<void> {
  await page.getByTestId("tab-capabilities").click();
  await page.getByTestId("cap-link").filter({ hasText: name }).click();
  await page.getByTestId("cap-name").filter({ hasText: name }).waitFor();
}

describe.skipIf(!HAS_CHROMIUM)("publish from the page", () => {
  test("publishes to the team registry with the visibility chosen (memory.publish is off)", async () => {
    expect((await listAll(registry.url, KEYS.bob)).map((i) => i.name)).not.toContain("util:double_number");
    await page.goto(ui.url);
    await open("util:double_number");
    await page.getByTestId("publish-visibility").selectOption("org");
    await page.getByTestId("publish-button").click();
    await waitFor(async () => ((await page.getByTestId("publish-message").textContent()) ?? "").startsWith("Published"), { what: "the publish" });
    expect(await page.getByTestId("publish-message").textContent()).toContain(`Published to ${registry.url} as acme.web.util.double_number`);
    // A teammate of the same org sees it in the registry.
    expect((await listAll(registry.url, KEYS.bob)).find((i) => i.name === "util:double_number")).toMatchObject({ org: "acme", visibility: "org", updated_by: "alice" });
    await shot(page, "capability-published");
  });

  test("code holding a value of the workspace .env is not published, and the page says why", async () => {
    await open("util:token_length");
    await page.getByTestId("publish-button").click();
    await waitFor(async () => ((await page.getByTestId("publish-message").textContent()) ?? "").includes("Not published"), { what: "the refusal" });
    expect(await page.getByTestId("publish-message").textContent()).toContain("contains the value of DEPLOY_TOKEN");
    expect(readFileSync(join(dir.path, "registry.db")).toString("latin1")).not.toContain(SECRET);
    // Chromium logs the refused POST (HTTP 400) as a console error: expected here, nothing else is.
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    expect(outside).toEqual([]);
  });
});
