// `bun run release` end to end, on a few targets built once for the file: linux-x64 (runs here),
// darwin-arm64 and windows-x64 (checked by their headers). A Bun.serve on 127.0.0.1 plays the
// release host, with the layout of the real one: /download/v<version>/<file>, /latest/download/<file>.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { parseTar, type ParsedTarFileItem } from "nanotar";
import pkg from "../../package.json" with { type: "json" };
import { parseSums, sha256Hex } from "../../scripts/release/checksums.ts";
import { RELEASES_URL } from "../../src/version.ts";
import { BUN, RawPeer, ROOT, tempDir, testEnv } from "../helpers/pml.ts";

// Spawns and 100 MB archives on a shared 2-core machine: no timing assumptions.
setDefaultTimeout(60_000);

const VERSION = pkg.version;
const TARGETS = ["linux-x64", "darwin-arm64", "windows-x64"];
const tmp = tempDir("pml-release-");
const out = join(tmp.path, "release");
let server: ReturnType<typeof Bun.serve>;
let base = "";
const requests: string[] = [];
let releaseLog = { code: -1, stdout: "", stderr: "" };

// System tools some checks use; without them those tests are skipped, saying so.
const ruby = Bun.which("ruby");
const sha256sum = Bun.which("sha256sum");
if (!ruby) console.warn("skipped: `ruby -c` on the Homebrew formula (ruby is not installed; `apt-get install ruby` to run it)");
if (!sha256sum) console.warn("skipped: `sha256sum -c` on the release's SHA256SUMS (sha256sum is not installed)");

/** Serves `out` as the release host; under /tampered/ every archive has one byte changed. */
function serveRelease() {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      requests.push(path);
      const m = /^\/(releases|tampered)\/(?:download\/v([^/]+)|latest\/download)\/([^/]+)$/.exec(path);
      if (!m || (m[2] && m[2] !== VERSION)) return new Response("not found", { status: 404 });
      const file = join(out, m[3]!);
      if (!existsSync(file)) return new Response("not found", { status: 404 });
      const bytes = new Uint8Array(readFileSync(file));
      if (m[1] === "tampered" && /\.(tar\.gz|zip)$/.test(file)) bytes[bytes.length >> 1]! ^= 0xff;
      return new Response(bytes);
    },
  });
}

beforeAll(async () => {
  server = serveRelease();
  base = `http://127.0.0.1:${server.port}/releases`;
  const p = Bun.spawn([BUN, join(ROOT, "release.ts"), "--targets", TARGETS.join(","), "--out", out, "--base-url", base], {
    cwd: ROOT,
    env: testEnv(),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  releaseLog = { code, stdout, stderr };
  if (code !== 0) throw new Error(`release failed (${code}):\n${stderr}`);
}, 300_000);

afterAll(() => {
  server?.stop(true);
  tmp.cleanup();
});

/** Each archive is unpacked once (gunzip natively: 100 MB through a JS inflater is slow on CI). */
const unpacked = new Map<string, Record<string, { data: Uint8Array; mode?: string }>>();
function unpack(target: string): Record<string, { data: Uint8Array; mode?: string }> {
  let files = unpacked.get(target);
  if (!files) {
    const bytes = readFileSync(join(out, archive(target)));
    files = {};
    if (target.startsWith("windows")) for (const [name, data] of Object.entries(unzipSync(bytes))) files[name] = { data };
    else for (const i of parseTar(Bun.gunzipSync(bytes)) as ParsedTarFileItem[]) files[i.name] = { data: i.data!, mode: i.attrs?.mode };
    unpacked.set(target, files);
  }
  return files;
}

const archive = (target: string) => `pml-${VERSION}-${target}${target.startsWith("windows") ? ".zip" : ".tar.gz"}`;
const sums = () => parseSums(readFileSync(join(out, "SHA256SUMS"), "utf8"));

describe("bun run release", () => {
  test("one progress line per target on stderr, a table of files and sizes on stdout", () => {
    for (const [i, t] of TARGETS.entries()) expect(releaseLog.stderr).toContain(`[${i + 1}/${TARGETS.length}] ${t}: `);
    for (const f of [...TARGETS.map(archive), "SHA256SUMS", "packaging/homebrew/pml.rb", "packaging/scoop/pml.json"]) {
      expect(releaseLog.stdout).toMatch(new RegExp(`^${f.replace(/[.]/g, "\\.")}\\s+[\\d.]+ (MB|kB|B)$`, "m"));
    }
    expect(readdirSync(out)).not.toContain("bin"); // raw binaries are removed unless --keep-binaries
  });

  test("SHA256SUMS: sorted `<hex>  <file>` lines whose hashes match the files", () => {
    const text = readFileSync(join(out, "SHA256SUMS"), "utf8");
    const files = text
      .trim()
      .split("\n")
      .map((l) => l.split("  ")[1]);
    expect(files).toEqual([...files].sort());
    expect(Object.keys(sums()).sort()).toEqual([...TARGETS.map(archive), "install.ps1", "install.sh"].sort());
    for (const [file, hex] of Object.entries(sums())) expect({ file, hex: sha256Hex(readFileSync(join(out, file))) }).toEqual({ file, hex });
  });

  test.skipIf(!sha256sum)("SHA256SUMS: the system `sha256sum -c` accepts it (skipped without sha256sum)", () => {
    const check = Bun.spawnSync([sha256sum!, "-c", "SHA256SUMS"], { cwd: out });
    expect(check.stdout.toString()).toContain(`${archive("linux-x64")}: OK`);
    expect(check.exitCode).toBe(0);
  });

  test("archives hold the binary (executable), README.md, LICENSE and THIRD_PARTY_NOTICES.txt", () => {
    for (const t of ["linux-x64", "darwin-arm64"]) {
      expect(Object.keys(unpack(t))).toEqual(["LICENSE", "README.md", "THIRD_PARTY_NOTICES.txt", "pml"]);
      expect(unpack(t).pml!.mode).toMatch(/755$/);
    }
    expect(Object.keys(unpack("windows-x64"))).toEqual(["LICENSE", "README.md", "THIRD_PARTY_NOTICES.txt", "pml.exe"]);
    expect(new TextDecoder().decode(unpack("windows-x64").LICENSE!.data)).toContain("MIT License");
    const notices = unpack("linux-x64")["THIRD_PARTY_NOTICES.txt"]!.data;
    expect(new TextDecoder().decode(notices)).toStartWith(`Third-party notices for pml ${VERSION}\n`);
    for (const t of ["darwin-arm64", "windows-x64"]) expect(unpack(t)["THIRD_PARTY_NOTICES.txt"]!.data).toEqual(notices);
    expect(unpack("linux-x64")["README.md"]!.data).toEqual(new Uint8Array(readFileSync(join(ROOT, "README.md"))));
  }, 120_000);

  test("cross-built binaries have the right headers: Mach-O arm64, PE x86-64, ELF x86-64", () => {
    const mac = unpack("darwin-arm64").pml!.data;
    const macView = new DataView(mac.buffer, mac.byteOffset);
    expect(macView.getUint32(0, true)).toBe(0xfeedfacf); // MH_MAGIC_64
    expect(macView.getUint32(4, true)).toBe(0x0100000c); // CPU_TYPE_ARM64
    const exe = unpack("windows-x64")["pml.exe"]!.data;
    const exeView = new DataView(exe.buffer, exe.byteOffset);
    expect(String.fromCharCode(exe[0]!, exe[1]!)).toBe("MZ");
    const pe = exeView.getUint32(0x3c, true);
    expect(exeView.getUint32(pe, true)).toBe(0x00004550); // "PE\0\0"
    expect(exeView.getUint16(pe + 4, true)).toBe(0x8664); // IMAGE_FILE_MACHINE_AMD64
    const elf = unpack("linux-x64").pml!.data;
    expect([...elf.subarray(0, 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]);
    expect(new DataView(elf.buffer, elf.byteOffset).getUint16(18, true)).toBe(62); // EM_X86_64
  }, 120_000);

  test("the linux-x64 archive unpacks to a binary that answers --version and an MCP initialize", async () => {
    const dir = join(tmp.path, "unpacked");
    mkdirSync(dir, { recursive: true });
    for (const [name, f] of Object.entries(unpack("linux-x64"))) writeFileSync(join(dir, name), f.data);
    const bin = join(dir, "pml");
    chmodSync(bin, 0o755);
    const v = Bun.spawnSync([bin, "--version"], { env: testEnv() });
    expect(v.stdout.toString()).toBe(`pml ${VERSION} (linux-x64)\n`);
    // The notices beside it are the ones it embeds (test/release/third-party-notices.test.ts checks their content).
    const licenses = Bun.spawnSync([bin, "licenses"], { env: testEnv() });
    expect(licenses.exitCode).toBe(0);
    expect(licenses.stdout.toString()).toBe(readFileSync(join(dir, "THIRD_PARTY_NOTICES.txt"), "utf8"));
    expect(licenses.stdout.toString()).toContain("WordNet 3.0 Copyright 2006 by Princeton University");
    const ws = tempDir();
    const peer = new RawPeer([bin], { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: join(ws.path, ".home") }) });
    try {
      const init = await peer.initialize();
      expect(init.result.serverInfo.name).toBe("pml");
      expect(init.result.serverInfo.version).toBe(VERSION);
    } finally {
      peer.kill();
      ws.cleanup();
    }
  }, 60_000);

  test("Homebrew formula: on_macos/on_linux with arm branches, url + sha256 from this build, livecheck, test", () => {
    const rb = readFileSync(join(out, "packaging/homebrew/pml.rb"), "utf8");
    for (const s of [
      "class Pml < Formula",
      "on_macos do",
      "on_linux do",
      "Hardware::CPU.arm?",
      'bin.install "pml"',
      'prefix.install "THIRD_PARTY_NOTICES.txt"',
      "livecheck do",
      "test do",
      `version "${VERSION}"`,
      'license "MIT"',
    ]) {
      expect(rb).toContain(s);
    }
    expect(rb).toContain('shell_output("#{bin}/pml --version")');
    const pairs = [...rb.matchAll(/url "([^"]+)"\n\s+sha256 "([0-9a-f]{64})"/g)].map((m) => [m[1], m[2]]);
    // This build has darwin-arm64 and linux-x64; the other branches say there is no build.
    expect(pairs).toEqual([
      [`${base}/download/v${VERSION}/${archive("darwin-arm64")}`, sums()[archive("darwin-arm64")]],
      [`${base}/download/v${VERSION}/${archive("linux-x64")}`, sums()[archive("linux-x64")]],
    ]);
    expect(rb).toContain(`odie "pml ${VERSION} has no build for macOS on Intel"`);
    expect(rb).toContain(`url "${base}/latest/download/SHA256SUMS"`);
  });

  test.skipIf(!ruby)("the formula passes `ruby -c` (skipped without ruby)", () => {
    const r = Bun.spawnSync([ruby!, "-c", join(out, "packaging/homebrew/pml.rb")]);
    expect(r.stderr.toString()).toBe("");
    expect(r.stdout.toString()).toContain("Syntax OK");
  });

  test("scoop manifest: the fields scoop reads, and a hash that matches the zip it names", async () => {
    const m = JSON.parse(readFileSync(join(out, "packaging/scoop/pml.json"), "utf8"));
    expect(m).toMatchObject({ version: VERSION, homepage: pkg.homepage, license: "MIT", bin: "pml.exe" });
    expect(m.description.length).toBeGreaterThan(10);
    const x64 = m.architecture["64bit"];
    expect(x64.url).toBe(`${base}/download/v${VERSION}/${archive("windows-x64")}`);
    const zip = new Uint8Array(await (await fetch(x64.url)).arrayBuffer());
    expect(x64.hash).toBe(sha256Hex(zip));
    expect(m.autoupdate.architecture["64bit"].url).toBe(`${base}/download/v$version/pml-$version-windows-x64.zip`);
    expect(m.autoupdate.hash.url).toBe("$baseurl/SHA256SUMS");
    // checkver reads the latest SHA256SUMS and finds this version in it.
    const latest = await (await fetch(m.checkver.url)).text();
    expect(new RegExp(m.checkver.regex).exec(latest)?.[1]).toBe(VERSION);
  });
});

describe("install.sh", () => {
  // Async: the release host is served from this process, so a blocking spawn would deadlock.
  const install = async (args: string[], home: string) => {
    const p = Bun.spawn(["sh", join(ROOT, "install.sh"), ...args], {
      env: testEnv({ HOME: home, PATH: "/usr/bin:/bin", SHELL: "/bin/bash" }),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { exitCode, stdout: { toString: () => stdout }, stderr: { toString: () => stderr } };
  };

  test("installs the latest release, and a given --version, into --prefix from --base-url", async () => {
    const home = tempDir();
    try {
      const prefix = join(home.path, "tools");
      const r = await install(["--prefix", prefix, "--base-url", base], home.path);
      expect(r.stderr.toString()).toContain(`installed pml ${VERSION} (linux-x64) to ${prefix}/bin/pml`);
      expect(r.stderr.toString()).toContain(`export PATH="${prefix}/bin:$PATH"' >> ${home.path}/.bashrc`);
      expect(r.exitCode).toBe(0);
      expect(requests).toContain(`/releases/latest/download/${archive("linux-x64")}`);
      expect(Bun.spawnSync([join(prefix, "bin/pml"), "--version"]).stdout.toString()).toBe(`pml ${VERSION} (linux-x64)\n`);
      expect(statSync(join(prefix, "bin/pml")).mode & 0o777).toBe(0o755);

      const again = await install(["--version", `v${VERSION}`, "--prefix", prefix, "--base-url", `${base}/`], home.path);
      expect({ code: again.exitCode, err: again.stderr.toString() }).toMatchObject({ code: 0, err: expect.stringContaining("installed") });
      expect(requests).toContain(`/releases/download/v${VERSION}/${archive("linux-x64")}`);
      expect(readdirSync(join(prefix, "bin"))).toEqual(["pml"]); // no temp files left behind
    } finally {
      home.cleanup();
    }
  }, 60_000);

  test("defaults to ~/.pml/bin", async () => {
    const home = tempDir();
    try {
      const r = await install(["--base-url", base], home.path);
      expect(r.exitCode).toBe(0);
      expect(existsSync(join(home.path, ".pml/bin/pml"))).toBe(true);
    } finally {
      home.cleanup();
    }
  }, 60_000);

  test("refuses a tampered archive, naming both hashes, and installs nothing", async () => {
    const home = tempDir();
    try {
      const prefix = join(home.path, "tools");
      const tampered = base.replace(/\/releases$/, "/tampered");
      const r = await install(["--prefix", prefix, "--base-url", tampered], home.path);
      const err = r.stderr.toString();
      expect(r.exitCode).not.toBe(0);
      const expected = sums()[archive("linux-x64")]!;
      const actual = /its sha256 is ([0-9a-f]{64})/.exec(err)?.[1];
      expect(err).toContain(`but SHA256SUMS says ${expected}`);
      expect(actual).toBeDefined();
      expect(actual).not.toBe(expected);
      expect(err).toContain("nothing was installed");
      expect(existsSync(prefix)).toBe(false);
    } finally {
      home.cleanup();
    }
  }, 60_000);

  test("a missing version, a missing build and a bad option each say what to do", async () => {
    const home = tempDir();
    try {
      const noVersion = await install(["--version", "9.9.9", "--prefix", home.path, "--base-url", base], home.path);
      expect(noVersion.exitCode).not.toBe(0);
      expect(noVersion.stderr.toString()).toContain(`could not fetch ${base}/download/v9.9.9/SHA256SUMS: is there a release v9.9.9 at --base-url ${base}?`);
      const noBuild = await install(["--target", "linux-arm64-musl", "--prefix", home.path, "--base-url", base], home.path);
      expect(noBuild.stderr.toString()).toContain("no pml build for linux-arm64-musl");
      expect(noBuild.stderr.toString()).toContain("it lists: darwin-arm64, linux-x64");
      const wrong = await install(["--target", "darwin-arm64", "--prefix", home.path, "--base-url", base], home.path);
      expect(wrong.stderr.toString()).toContain("the darwin-arm64 build does not run on this machine");
      expect(existsSync(join(home.path, "bin"))).toBe(false);
      const bad = await install(["--frobnicate"], home.path);
      expect(bad.exitCode).not.toBe(0);
      expect(bad.stderr.toString()).toContain('unknown option "--frobnicate"');
    } finally {
      home.cleanup();
    }
  }, 60_000);
});

describe("install.ps1 (no PowerShell here: checked as text)", () => {
  const ps1 = readFileSync(join(ROOT, "install.ps1"), "utf8");

  test("verifies the archive against SHA256SUMS before installing and names both hashes on a mismatch", () => {
    expect(ps1).toContain("$dirUrl/SHA256SUMS");
    expect(ps1).toContain("Get-FileHash -Algorithm SHA256");
    expect(ps1).toMatch(/if \(\$actual -ne \$expected\) \{\s*Fail "refusing to install \$\{file\}: its sha256 is \$actual but SHA256SUMS says \$expected/);
    expect(ps1.indexOf("Get-FileHash")).toBeLessThan(ps1.indexOf("Expand-Archive"));
  });

  test("has the same options, default release page and layout as install.sh", () => {
    for (const p of ["[string]$Version", "[string]$Prefix", "[string]$BaseUrl", "[string]$Target"]) expect(ps1).toContain(p);
    expect(ps1).toContain(`"${RELEASES_URL}"`);
    expect(readFileSync(join(ROOT, "install.sh"), "utf8")).toContain(`BASE_URL="\${PML_RELEASES_URL:-${RELEASES_URL}}"`);
    expect(ps1).toContain('"$BaseUrl/download/v$Version"');
    expect(ps1).toContain('"$BaseUrl/latest/download"');
    expect(ps1).toContain("IsProcessorFeaturePresent(40)"); // AVX2 -> windows-x64, else -baseline
  });
});
