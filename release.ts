// `bun run release`: pml for every platform, into dist/release/: one archive per target
// (`pml-<version>-<os>-<arch>[-variant].tar.gz|.zip`, holding pml or pml.exe, README.md, LICENSE
// and THIRD_PARTY_NOTICES.txt, the licences of what the binary bundles: scripts/third-party-notices.ts),
// install.sh and install.ps1, SHA256SUMS, and the Homebrew formula and scoop manifest pointing
// at `--base-url`.
//   bun release.ts [--base-url URL] [--targets linux-x64,darwin-arm64] [--out dist/release] [--keep-binaries]
// Progress goes to stderr, one line per target; the table of files and sizes to stdout.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import pkg from "./package.json" with { type: "json" };
import { compile } from "./scripts/compile.ts";
import { tarGz, zip, type ArchiveEntry } from "./scripts/release/archive.ts";
import { formatSums, sha256Hex } from "./scripts/release/checksums.ts";
import { homebrewFormula, scoopManifest } from "./scripts/release/packaging.ts";
import { archiveName, TARGETS, targetByName } from "./scripts/release/targets.ts";
import { RELEASES_URL } from "./src/version.ts";

const { values } = parseArgs({
  options: {
    "base-url": { type: "string", default: RELEASES_URL },
    targets: { type: "string" },
    out: { type: "string", default: "dist/release" },
    "keep-binaries": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  process.stdout.write(`bun run release [-- --base-url URL] [--targets ${TARGETS.map((t) => t.name).join(",")}] [--out DIR] [--keep-binaries]\n`);
  process.exit(0);
}

/** Homebrew wants a short `desc` (under 80 characters) that does not start with the name. */
const DESCRIPTION = "One MCP server that finds, installs, sandboxes and routes an agent's tools";
const root = import.meta.dir;
const out = resolve(values.out);
const baseUrl = values["base-url"].replace(/\/+$/, "");
if (!/^https?:\/\/\S+$/.test(baseUrl)) fail(`--base-url must be an http(s) URL, got "${baseUrl}"`);
let targets;
try {
  targets = values.targets ? values.targets.split(",").map((n) => targetByName(n.trim())) : [...TARGETS];
} catch (e) {
  fail((e as Error).message);
}
const version = pkg.version;
const mtime = releaseTime();
const docs: ArchiveEntry[] = ["README.md", "LICENSE"].map((name) => ({ name, data: readFileSync(join(root, name)) }));

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const sums: Record<string, string> = {};
const started = performance.now();
for (const [i, t] of targets.entries()) {
  const t0 = performance.now();
  const built = await compile({ outfile: join(out, "bin", t.name, "pml"), bunTarget: t.bunTarget, target: t.name, version }).catch((e) =>
    fail(`${t.name}: ${(e as Error).message}`),
  );
  const binary = readFileSync(built.outfile);
  // Each binary's own notices (the same for every target today, but it is what this one embeds).
  const notices = { name: "THIRD_PARTY_NOTICES.txt", data: new TextEncoder().encode(built.notices) };
  const entries = [...docs, notices, { name: t.exe, data: binary, executable: true }];
  const file = archiveName(t, version);
  const bytes = t.archiveExt === ".zip" ? zip(entries, mtime) : tarGz(entries, mtime);
  writeFileSync(join(out, file), bytes);
  sums[file] = sha256Hex(bytes);
  if (!values["keep-binaries"]) rmSync(join(out, "bin", t.name), { recursive: true, force: true });
  process.stderr.write(
    `[${i + 1}/${targets.length}] ${t.name}: ${mb(binary.length)} binary${built.bytecode ? "" : " (no bytecode for this target)"}, ${file} ${mb(bytes.length)}, ${secs(performance.now() - t0)}\n`,
  );
}
if (!values["keep-binaries"]) rmSync(join(out, "bin"), { recursive: true, force: true });
// The installers ship with each release, so `<base-url>/latest/download/install.sh` always works.
for (const name of ["install.sh", "install.ps1"]) {
  const data = readFileSync(join(root, name));
  writeFileSync(join(out, name), data);
  sums[name] = sha256Hex(data);
}
writeFileSync(join(out, "SHA256SUMS"), formatSums(sums));

const info = { version, baseUrl, homepage: pkg.homepage, description: DESCRIPTION, license: pkg.license, sha256: sums };
const formula = homebrewFormula(info);
const manifest = scoopManifest(info);
const written = [...Object.keys(sums).sort(), "SHA256SUMS"];
if (formula) {
  mkdirSync(join(out, "packaging/homebrew"), { recursive: true });
  writeFileSync(join(out, "packaging/homebrew/pml.rb"), formula);
  written.push("packaging/homebrew/pml.rb");
} else process.stderr.write("no macOS or Linux target built: packaging/homebrew/pml.rb not written\n");
if (manifest) {
  mkdirSync(join(out, "packaging/scoop"), { recursive: true });
  writeFileSync(join(out, "packaging/scoop/pml.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  written.push("packaging/scoop/pml.json");
} else process.stderr.write("no Windows target built: packaging/scoop/pml.json not written\n");

process.stderr.write(`pml ${version}: ${targets.length} targets in ${secs(performance.now() - started)}, downloads from ${baseUrl}/download/v${version}/\n`);
const width = Math.max(...written.map((f) => f.length));
process.stdout.write(`${"file".padEnd(width)}  size\n`);
for (const f of written) process.stdout.write(`${f.padEnd(width)}  ${mb(statSync(join(out, f)).size).padStart(9)}\n`);

/** Archive entries' time: SOURCE_DATE_EPOCH, else the release commit's, so rebuilds give the same bytes. */
function releaseTime(): number {
  const fromEnv = Number(process.env.SOURCE_DATE_EPOCH);
  if (Number.isFinite(fromEnv) && fromEnv > 0) return fromEnv * 1000;
  const git = Bun.spawnSync(["git", "log", "-1", "--format=%ct"], { cwd: root, stderr: "ignore" });
  const commit = Number(git.stdout.toString().trim());
  return git.exitCode === 0 && commit > 0 ? commit * 1000 : Date.UTC(2020, 0, 1);
}

function mb(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} kB` : `${n} B`;
}

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function fail(message: string): never {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
}
