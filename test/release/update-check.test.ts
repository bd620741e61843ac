// `pml doctor` and newer releases: the binary's path, the cached answer only, and the release host
// (a Bun.serve on 127.0.0.1) asked only with --check-update.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { compareVersions } from "../../src/config/update-check.ts";
import { BIN, tempDir, testEnv } from "../helpers/pml.ts";

const ws = tempDir();
let requests: string[] = [];
let latest = "99.1.0";
let status = 200;
let server: ReturnType<typeof Bun.serve>;
const hex = "a".repeat(64);

beforeAll(() => {
  writeFileSync(join(ws.path, "package.json"), "{}");
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      requests.push(new URL(req.url).pathname);
      if (status !== 200) return new Response("down", { status });
      return new Response(`${hex}  install.sh\n${hex}  pml-${latest}-darwin-arm64.tar.gz\n${hex}  pml-${latest}-linux-x64.tar.gz\n`);
    },
  });
});
afterAll(() => {
  server.stop(true);
  ws.cleanup();
});

/** Async: the release host lives in this process. */
async function doctor(args: string[] = []): Promise<string> {
  const p = Bun.spawn([BIN, "doctor", ...args], {
    cwd: ws.path,
    env: testEnv({ PML_HOME: join(ws.path, ".home"), PML_RELEASES_URL: `http://127.0.0.1:${server.port}/releases/` }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  return out;
}

test("doctor names the binary, its version and target", async () => {
  expect(await doctor()).toContain(`ok    pml: pml ${pkg.version} (`);
  expect(await doctor()).toContain(`) at ${BIN}\n`);
});

test("without --check-update doctor never calls out; with it, the answer is cached and shown later", async () => {
  requests = [];
  expect(await doctor()).toContain(`ok    update: not checked; \`pml doctor --check-update\` asks http://127.0.0.1:${server.port}/releases`);
  expect(requests).toEqual([]);

  const checked = await doctor(["--check-update"]);
  expect(requests).toEqual(["/releases/latest/download/SHA256SUMS"]);
  expect(checked).toMatch(
    new RegExp(`warn  update: pml 99\\.1\\.0 is out \\(this is ${pkg.version.replace(/\./g, "\\.")}; checked \\d{4}-\\d\\d-\\d\\d\\): run the installer again`),
  );
  expect(checked).toContain("`brew upgrade pml` or `scoop update pml`");
  expect(JSON.parse(readFileSync(join(ws.path, ".home/update-check.json"), "utf8")).latest).toBe("99.1.0");

  requests = [];
  latest = "100.0.0"; // not asked again: still the cached answer
  expect(await doctor()).toContain("warn  update: pml 99.1.0 is out");
  expect(requests).toEqual([]);
});

test("up to date, and a failed check keeps the last answer and says why", async () => {
  latest = pkg.version;
  expect(await doctor(["--check-update"])).toContain(`ok    update: up to date (latest release ${pkg.version}, checked `);
  status = 503;
  const failed = await doctor(["--check-update"]);
  expect(failed).toContain(`warn  update: could not check for a newer release: http://127.0.0.1:${server.port}/releases/latest/download/SHA256SUMS answered HTTP 503`);
  expect(await doctor()).toContain(`ok    update: up to date (latest release ${pkg.version}`);
  status = 200;
  writeFileSync(join(ws.path, ".home/update-check.json"), "{ not json");
  expect(await doctor()).toContain("ok    update: not checked;");
  expect(existsSync(join(ws.path, ".home/update-check.json"))).toBe(true);
});

test("versions compare as semver, a pre-release before its release", () => {
  expect(compareVersions("0.10.0", "0.9.9")).toBeGreaterThan(0);
  expect(compareVersions("1.0.0-rc.1", "1.0.0")).toBeLessThan(0);
  expect(compareVersions("1.0.0", "1.0.0")).toBe(0);
  expect(compareVersions("1.0.0-rc.2", "1.0.0-rc.1")).toBeGreaterThan(0);
});
