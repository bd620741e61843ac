// The `pml ui` page in a real browser (Debian's chromium, headless) against the compiled binary:
// capabilities seeded by a real `pml stdio` session through `execute` show with their versions,
// diff and usage; a failed call's reason in Activity; a rename in the page is one request and
// reaches the session's tools/list; every view renders with no console error and no request
// leaving loopback. Screenshots: SHOTS (ui-helpers.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import type { RawPeer } from "../helpers/pml.ts";
import { HAS_CHROMIUM, callTool, launch, session, shot, startUi, type tempDir, toolNames, waitFor, watchedPage, type UiFixture, uiDirs } from "./ui-helpers.ts";

const NAME = "util:double_number";
const V1 = "return args.n * 2;";
const V2 = "// the same, by addition\nconst n = args.n;\nreturn n + n;";
// A failure that says why in its first line and more below, with a character that turns text
// around (a server's text is shown escaped).
const FAILING = 'if (args.fail) throw new Error("the disk is full\\nwhile writing /tmp/cache.json\\nfree some space\\u202e and retry"); return "ok";';

let dir: ReturnType<typeof tempDir>;
let ui: UiFixture;
let peer: RawPeer;
let browser: Browser;
let page: Page;
let problems: string[];
let outside: string[];
let requests: string[];
let failed: string[];

beforeAll(async () => {
  const made = uiDirs("pml-ui-page-");
  dir = made.dir;
  const { ws, home } = made;
  // Restricts only (no trust needed): shows in the permissions table.
  writeFileSync(`${ws}/.pml.json`, JSON.stringify({ permissions: { deny: ["shell:*"], ask: ["memory:delete_entities"] } }));
  peer = await session(ws, home);
  const first = await callTool(peer, "execute", { code: V1, args: { n: 2 }, intent: "double a number", name: NAME });
  expect(first.isError).toBeFalsy();
  const second = await callTool(peer, "execute", { code: V2, args: { n: 3 }, name: NAME, update: true, change_summary: "by addition" });
  expect(second.isError).toBeFalsy();
  // Called with an intent: the words discover learns the capability by (learning from use).
  expect((await callTool(peer, "execute", { capability: NAME, args: { n: 5 }, intent: "multiply a value by two" })).isError).toBeFalsy();
  for (const n of [1, 2, 3]) expect((await callTool(peer, "cap__util__double_number", { n })).isError).toBeFalsy();
  expect((await callTool(peer, "execute", { code: FAILING, args: { fail: false }, intent: "check the disk", name: "util:check_disk" })).isError).toBeFalsy();
  expect((await callTool(peer, "cap__util__check_disk", { fail: true })).isError).toBe(true);
  // Refused by the workspace's deny rule: a line of the audit log.
  expect((await callTool(peer, "call", { tool: "shell:exec", arguments: { command: "true" } })).isError).toBe(true);
  ui = await startUi(ws, home);
  if (HAS_CHROMIUM) {
    browser = await launch();
    ({ page, problems, outside, requests, failed } = await watchedPage(browser, ui.origin));
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  peer?.kill();
  ui?.stop();
  dir?.cleanup();
});

describe.skipIf(!HAS_CHROMIUM)("pml ui in chromium", () => {
  test("the token address opens the Overview (workspace, permissions with their source, servers) and drops the token from the URL", async () => {
    await page.goto(ui.url);
    await page.getByTestId("view-overview").waitFor();
    expect(page.url()).not.toContain("token=");
    const text = await page.getByTestId("view-overview").textContent();
    expect(text).toContain(ui.ws);
    expect(text).toContain("shell:*");
    expect(text).toContain("permissions.deny");
    expect(text).toContain("memory");
    await shot(page, "overview");
  });

  test("Activity lists the capability's calls and the audit log's refusal, newest first, with who decided and a plot", async () => {
    await page.getByTestId("tab-activity").click();
    const table = page.getByTestId("activity-table");
    await waitFor(async () => ((await table.textContent()) ?? "").includes("cap:util:double_number"), { what: "the capability's calls in Activity" });
    const first = table.locator("tbody tr").first();
    expect(await first.textContent()).toContain("shell:exec");
    expect(await first.textContent()).toContain("refused");
    expect(await first.textContent()).toContain(".pml.json");
    expect(await table.textContent()).toContain("pml's default (its own tool)");
    await page.locator(".plot canvas").first().waitFor();
    await shot(page, "activity");
    await page.getByTestId("filter-tool").fill("double");
    // Usage is counted per tool and second: the seeded calls may take one row or, on a busy
    // machine, several. The filter leaves only theirs (the refusal's row is gone).
    await waitFor(
      async () => {
        const rows = await table.locator("tbody tr").allTextContents();
        return rows.length > 0 && rows.every((r) => r.includes("cap:util:double_number"));
      },
      { what: "only the capability's rows after the filter" },
    );
  });

  test("a failed call's row in Activity shows the first line of what it said; the whole text (escaped) opens on a click and closes on Enter", async () => {
    await page.getByTestId("filter-tool").fill("check_disk");
    const row = page.getByTestId("activity-table").locator("tbody tr").filter({ hasText: "cap:util:check_disk" }).first();
    await row.waitFor();
    const error = row.getByTestId("error-text");
    const summary = error.locator("summary");
    const full = row.getByTestId("error-full");
    expect(await summary.textContent()).toBe("Error: the disk is full");
    expect(await row.textContent()).not.toContain("calls failed");
    expect(await full.isVisible()).toBe(false);
    await summary.click();
    await waitFor(() => full.isVisible(), { what: "the whole error after a click" });
    expect(await full.textContent()).toBe("Error: the disk is full\nwhile writing /tmp/cache.json\nfree some space\\u{202E} and retry (line 1, column 31)");
    await shot(page, "activity-error");
    await summary.press("Enter");
    await waitFor(async () => !(await full.isVisible()), { what: "the whole error closed by Enter" });
    await page.getByTestId("filter-tool").fill("");
  });

  test("Capabilities lists the seeded capability with its usage, and search finds it by meaning of its words", async () => {
    await page.getByTestId("tab-capabilities").click();
    await page.getByTestId("cap-link").filter({ hasText: NAME }).waitFor();
    expect(await page.getByTestId("cap-table").textContent()).toMatch(/util:double_number[\s\S]*100%/);
    await page.getByTestId("cap-search").fill("double a number");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByTestId("cap-link").filter({ hasText: NAME }).waitFor();
    await shot(page, "capabilities");
  });

  test("one capability: highlighted code, both versions with their diff, a usage plot", async () => {
    await page.getByTestId("cap-link").filter({ hasText: NAME }).click();
    await page.getByTestId("cap-name").filter({ hasText: NAME }).waitFor();
    expect(await page.getByTestId("code").textContent()).toContain("return n + n;");
    expect(await page.locator(".c-keyword").count()).toBeGreaterThan(0);
    const diff = page.getByTestId("diff");
    await diff.waitFor();
    await waitFor(async () => (await diff.locator(".del").count()) > 0 && (await diff.locator(".add").count()) > 0, { what: "the diff's lines" });
    expect(await diff.locator(".del").first().textContent()).toContain("return args.n * 2;");
    expect(await diff.locator(".add").allInnerTexts()).toContain("+ return n + n;");
    await page.locator(".plot canvas").first().waitFor();
    await waitFor(async () => ((await page.getByTestId("found-by").textContent()) ?? "").includes("multiply"), { what: "the query it was found by" });
    await shot(page, "capability");
  });

  test("a rename in the page (dns:rename's own code path), double-clicked, is one request answered 200 with no console error; the running session is told (list_changed) and lists the new name", async () => {
    expect(await toolNames(peer)).toContain("cap__util__double_number");
    const isListChanged = (line: string) => line.includes('"notifications/tools/list_changed"');
    peer.lines.splice(0, peer.lines.length, ...peer.lines.filter((l) => !isListChanged(l)));
    const from = { requests: requests.length, failed: failed.length, problems: problems.length };
    await page.getByTestId("rename-input").fill("util:twice_number");
    // A second click before the answer (a double click, an Enter after the click) sent the rename
    // again: answered 400 (the old name had just moved) though the rename had taken effect.
    await page.getByTestId("rename-button").dblclick();
    await page.getByTestId("cap-name").filter({ hasText: "util:twice_number" }).waitFor();
    expect(await page.getByTestId("aliases").textContent()).toContain(NAME);
    expect(await page.getByTestId("action-message").textContent()).toContain("keeps working as a deprecated alias");
    expect(await page.getByTestId("rename-input").inputValue()).toBe("");
    // The session is told, though the rename happened in another process (the page's).
    await peer.next((m) => m.method === "notifications/tools/list_changed");
    // The action was its one POST: no second rename, no token fetched for it.
    const sent = requests.slice(from.requests);
    expect(sent.filter((r) => r.startsWith("POST ") || r.endsWith("/api/session"))).toEqual(["POST /api/rename"]);
    expect(failed.slice(from.failed)).toEqual([]);
    expect(problems.slice(from.problems)).toEqual([]);
    await waitFor(async () => (await toolNames(peer)).includes("cap__util__twice_number"), { what: "the new name in the session's tools/list" });
    expect(await toolNames(peer)).not.toContain("cap__util__double_number");
    // The old name keeps working as an alias.
    expect((await callTool(peer, "execute", { capability: NAME, args: { n: 4 } })).isError).toBeFalsy();
    await page.getByTestId("tag-input").fill("math");
    await page.getByTestId("tag-button").click();
    await waitFor(async () => ((await page.getByTestId("tags").textContent()) ?? "").includes("math"), { what: "the tag" });
    await page.getByTestId("pin-button").click();
    await waitFor(async () => ((await page.getByTestId("pinned").textContent()) ?? "").startsWith("pinned"), { what: "the pin (dns:pin)" });
    expect(await toolNames(peer)).toContain("cap__util__twice_number");
  });

  test("a deprecation in the page (dns:deprecate) leaves the session's tools/list, names the replacement in a call and shows in the list; publish without a team registry says what to add", async () => {
    expect((await callTool(peer, "execute", { code: "return args.n * 3;", args: { n: 1 }, intent: "triple a number", name: "util:triple_number" })).isError).toBeFalsy();
    await page.getByTestId("pin-button").click(); // unpinned: a pinned capability stays listed even when deprecated
    await waitFor(async () => !((await page.getByTestId("pinned").textContent()) ?? "").startsWith("pinned"), { what: "the pin taken off" });
    await page.getByTestId("deprecate-reason").fill("triple is what callers want");
    await page.getByTestId("deprecate-replacement").fill("util:triple_number");
    await page.getByTestId("deprecate-button").click();
    await waitFor(async () => ((await page.getByTestId("deprecated").textContent()) ?? "").includes("use util:triple_number instead"), { what: "the deprecation" });
    expect(await page.getByTestId("deprecate-message").textContent()).toContain("still runs");
    await waitFor(async () => !(await toolNames(peer)).includes("cap__util__twice_number"), { what: "the deprecated capability out of tools/list" });
    const called = await callTool(peer, "cap__util__twice_number", { n: 4 });
    expect(called.structuredContent.result).toBe(8);
    expect(called.structuredContent.deprecation).toContain("call util:triple_number instead");
    await shot(page, "capability-deprecated");

    // No cloud.url in this workspace's .pml.json: the page shows learn:publish's own message.
    await page.getByTestId("publish-visibility").selectOption("org");
    await page.getByTestId("publish-button").click();
    await waitFor(async () => ((await page.getByTestId("publish-message").textContent()) ?? "").includes("No team registry is configured"), { what: "publish's error" });
    expect(await page.getByTestId("publish-message").textContent()).toContain('add "cloud": {"url"');
    // Chromium logs the refused POST (HTTP 400) as a console error: that one is expected here.
    expect(failed.filter((f) => f.startsWith("400 "))).toEqual([expect.stringMatching(/^400 POST \/api\/publish /)]);
    for (let i = problems.length - 1; i >= 0; i--) if (/status of 400/.test(problems[i]!)) problems.splice(i, 1);

    await page.getByTestId("tab-capabilities").click();
    await page.getByTestId("cap-deprecated").first().waitFor();
    expect(await page.locator("tr.deprecated").textContent()).toContain("util:twice_number");
    await page.getByTestId("cap-link").filter({ hasText: "util:twice_number" }).click();
    await page.getByTestId("undeprecate-button").click();
    await waitFor(async () => (await page.getByTestId("deprecated").textContent()) === "no", { what: "the deprecation undone" });
    await waitFor(async () => (await toolNames(peer)).includes("cap__util__twice_number"), { what: "back in tools/list" });
  });

  test("a stored text that looks like markup stays text", async () => {
    const evil = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    expect((await callTool(peer, "execute", { code: `// ${evil}\nreturn "${evil.replace(/"/g, '\\"')}";`, intent: evil, name: "util:evil_text" })).isError).toBeFalsy();
    await page.goto(`${ui.origin}/#cap/${encodeURIComponent("util:evil_text")}`);
    await page.getByTestId("cap-name").filter({ hasText: "util:evil_text" }).waitFor();
    expect(await page.getByTestId("code").textContent()).toContain(evil);
    expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    expect(await page.locator("main img").count()).toBe(0);
  });

  test("Approvals renders (empty without a waiting session); no console error and no request off loopback in all views", async () => {
    await page.getByTestId("tab-approvals").click();
    await page.getByTestId("view-approvals").waitFor();
    await page.getByText("No session is waiting").waitFor();
    await shot(page, "approvals");
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  });
});
