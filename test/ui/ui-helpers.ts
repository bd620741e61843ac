// `pml ui` in tests: the compiled binary serving a temp workspace, a real `pml stdio` session
// beside it that seeds capabilities, and Debian's chromium driven by playwright-core.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { BIN, ROOT, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { waitFor } from "../helpers/wait.ts";

export const CHROMIUM = "/usr/bin/chromium";
export const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) process.stderr.write(`test/ui: ${CHROMIUM} is missing (apt-get install chromium): the browser tests are skipped.\n`);

/** Where screenshots go (git-ignored); PML_UI_SCREENSHOTS moves them. */
export const SHOTS = process.env.PML_UI_SCREENSHOTS ?? join(ROOT, ".ci/out/ui-screenshots");

export interface UiFixture {
  ws: string;
  home: string;
  env: Record<string, string>;
  url: string;
  origin: string;
  port: number;
  token: string;
  stop(): void;
}

/** `pml ui --no-open --dir ws`, once it printed its address. */
export async function startUi(ws: string, home: string): Promise<UiFixture> {
  const env = testEnv({ PML_HOME: home });
  const proc = Bun.spawn([BIN, "ui", "--no-open", "--dir", ws], { cwd: ws, env, stdout: "pipe", stderr: "pipe" });
  let out = "";
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const dec = new TextDecoder();
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`pml ui exited: ${await new Response(proc.stderr as ReadableStream).text()}`);
    out += dec.decode(value);
  }
  const m = /^pml ui: (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([A-Za-z0-9_-]+)$/m.exec(out);
  if (!m) throw new Error(`unexpected first line: ${out}`);
  return { ws, home, env, url: `${m[1]}/?token=${m[3]}`, origin: m[1]!, port: Number(m[2]), token: m[3]!, stop: () => proc.kill() };
}

/** A `pml stdio` session of the workspace, initialized. */
export async function session(ws: string, home: string, capabilities: Record<string, unknown> = {}): Promise<RawPeer> {
  const peer = new RawPeer([BIN], { cwd: ws, env: testEnv({ PML_HOME: home, PML_WORKSPACE: ws }) });
  await peer.initialize(capabilities);
  return peer;
}

let ids = 100;
export async function callTool(peer: RawPeer, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await peer.request(ids++, "tools/call", { name, arguments: args });
  if (r.error) throw new Error(JSON.stringify(r.error));
  return r.result;
}

export async function toolNames(peer: RawPeer): Promise<string[]> {
  return (await peer.request(ids++, "tools/list", {})).result.tools.map((t: { name: string }) => t.name);
}

export async function launch(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

export interface WatchedPage {
  page: Page;
  /** Console errors and page errors. */
  problems: string[];
  /** Requests that are not to the ui server. */
  outside: string[];
  /** Every request to the ui server, as "METHOD /path" (no query). */
  requests: string[];
  /** Its answers of status 400 or more: "STATUS METHOD /path body". */
  failed: string[];
}

/** A page that records console errors, page errors, its requests to the ui server, their failed
 * answers, and every request that is not to the ui server. */
export async function watchedPage(browser: Browser, origin: string): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const watched: WatchedPage = { page, problems: [], outside: [], requests: [], failed: [] };
  page.on("console", (m) => m.type() === "error" && watched.problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => watched.problems.push(`pageerror: ${e.message}`));
  page.on("request", (r) => {
    const u = r.url();
    if (u.startsWith(`${origin}/`)) watched.requests.push(`${r.method()} ${new URL(u).pathname}`);
    else if (!u.startsWith("data:") && !u.startsWith("blob:")) watched.outside.push(u);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) watched.failed.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname} ${r.request().postData() ?? ""}`);
  });
  return watched;
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

export { tempDir, waitFor };

/** A temporary folder with a workspace (a git root) and a PML_HOME in it. */
export function uiDirs(prefix: string): { dir: ReturnType<typeof tempDir>; ws: string; home: string } {
  const dir = tempDir(prefix);
  const ws = `${dir.path}/ws`;
  const home = `${dir.path}/home`;
  mkdirSync(`${ws}/.git`, { recursive: true });
  mkdirSync(home);
  return { dir, ws, home };
}
