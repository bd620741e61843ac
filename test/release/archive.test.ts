// Release archives and checksums, on small inputs: same inputs -> same bytes, and what tar, unzip
// and sha256sum read back.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { parseTar } from "nanotar";
import { tarGz, zip } from "../../scripts/release/archive.ts";
import { formatSums, parseSums, sha256Hex } from "../../scripts/release/checksums.ts";
import { archiveName, TARGETS, targetByBunName, targetByName } from "../../scripts/release/targets.ts";
import { tempDir } from "../helpers/pml.ts";
import { wallClockPassed } from "../helpers/wait.ts";

const enc = new TextEncoder();
const entries = () => [
  { name: "pml", data: enc.encode("#!/bin/sh\necho hi\n"), executable: true },
  { name: "README.md", data: enc.encode("# pml\n") },
  { name: "LICENSE", data: enc.encode("MIT\n") },
];
const T = Date.UTC(2026, 10, 1);

test("archives are deterministic: sorted entries, fixed time and owner", async () => {
  const a = tarGz(entries(), T);
  await wallClockPassed(Math.floor(Date.now() / 1000) * 1000 + 999); // the next second: a clock-dependent field (whole seconds in tar and gzip) would differ now
  expect(tarGz(entries().reverse(), T)).toEqual(a);
  expect(zip(entries().reverse(), T)).toEqual(zip(entries(), T));
  const items = parseTar(Bun.gunzipSync(a as Uint8Array<ArrayBuffer>));
  expect(items.map((i) => [i.name, i.attrs?.mode?.replace(/^0+/, ""), i.attrs?.mtime, i.attrs?.uid])).toEqual([
    ["LICENSE", "644", T / 1000, 0],
    ["README.md", "644", T / 1000, 0],
    ["pml", "755", T / 1000, 0],
  ]);
  expect(Object.keys(unzipSync(zip(entries(), T)))).toEqual(["LICENSE", "README.md", "pml"]);
});

// Skipped, saying so, where the system tool is not installed.
const tar = Bun.which("tar");
const unzip = Bun.which("unzip");
const sha256sum = Bun.which("sha256sum");
for (const [tool, path] of [
  ["tar", tar],
  ["unzip", unzip],
  ["sha256sum", sha256sum],
] as const) {
  if (!path) console.warn(`skipped: test/release/archive.test.ts checks with the system ${tool} (${tool} is not installed)`);
}

test.skipIf(!tar)("system tar reads them, keeping the executable bit (skipped without tar)", () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir.path, "a.tar.gz"), tarGz(entries(), T));
    const r = Bun.spawnSync([tar!, "-tvzf", "a.tar.gz"], { cwd: dir.path });
    expect(r.stdout.toString()).toMatch(/^-rwxr-xr-x .* pml$/m);
  } finally {
    dir.cleanup();
  }
});

test.skipIf(!unzip)("system unzip reads them, keeping the executable bit (skipped without unzip)", () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir.path, "a.zip"), zip(entries(), T));
    const r = Bun.spawnSync([unzip!, "-Z", "a.zip"], { cwd: dir.path });
    expect(r.stdout.toString()).toMatch(/^-rwxr-xr-x .* pml$/m);
  } finally {
    dir.cleanup();
  }
});

test("SHA256SUMS: sorted lines sha256sum -c reads; a malformed line is an error naming it", () => {
  const sums = { "b.zip": sha256Hex(enc.encode("b")), "a.tar.gz": sha256Hex(enc.encode("a")) };
  const text = formatSums(sums);
  expect(text).toBe(`${sums["a.tar.gz"]}  a.tar.gz\n${sums["b.zip"]}  b.zip\n`);
  expect(parseSums(text)).toEqual(sums);
  expect(() => parseSums(`${text}nonsense here\n`)).toThrow('SHA256SUMS line 3 is not "<sha256>  <file>": "nonsense here"');
});

test.skipIf(!sha256sum)("SHA256SUMS: the system sha256sum -c accepts it (skipped without sha256sum)", () => {
  const sums = { "b.zip": sha256Hex(enc.encode("b")), "a.tar.gz": sha256Hex(enc.encode("a")) };
  const dir = tempDir();
  try {
    writeFileSync(join(dir.path, "a.tar.gz"), "a");
    writeFileSync(join(dir.path, "b.zip"), "b");
    writeFileSync(join(dir.path, "SHA256SUMS"), formatSums(sums));
    expect(Bun.spawnSync([sha256sum!, "-c", "SHA256SUMS"], { cwd: dir.path }).exitCode).toBe(0);
  } finally {
    dir.cleanup();
  }
});

test("targets: every platform the issue names, archive names, Bun's spellings", () => {
  const names = TARGETS.map((t) => t.name);
  for (const n of ["linux-x64", "linux-x64-baseline", "linux-arm64", "linux-x64-musl", "linux-arm64-musl", "darwin-x64", "darwin-arm64", "windows-x64", "windows-x64-baseline"]) {
    expect(names).toContain(n);
  }
  expect(archiveName(targetByName("windows-x64"), "1.2.3")).toBe("pml-1.2.3-windows-x64.zip");
  expect(archiveName(targetByName("linux-arm64-musl"), "1.2.3")).toBe("pml-1.2.3-linux-arm64-musl.tar.gz");
  expect(targetByBunName("bun-linux-aarch64").name).toBe("linux-arm64");
  expect(targetByBunName("bun-linux-x64-baseline-musl").name).toBe("linux-x64-musl-baseline");
  expect(targetByBunName("bun-darwin-x64-modern").name).toBe("darwin-x64");
  expect(() => targetByName("plan9-x64")).toThrow('unknown target "plan9-x64"; known: linux-x64, ');
});

test("release.ts: a bad target or base URL fails before building anything", () => {
  const bad = Bun.spawnSync([process.execPath, "release.ts", "--targets", "linux-x64,plan9-x64", "--out", "/nonexistent/pml-release"]);
  expect(bad.exitCode).toBe(1);
  expect(bad.stderr.toString()).toContain('release: unknown target "plan9-x64"; known: linux-x64');
  const url = Bun.spawnSync([process.execPath, "release.ts", "--base-url", "ftp://mirror/pml", "--out", "/nonexistent/pml-release"]);
  expect(url.exitCode).toBe(1);
  expect(url.stderr.toString()).toContain('release: --base-url must be an http(s) URL, got "ftp://mirror/pml"');
});
