// pml's version and the platform this binary was built for. The build bakes both in with `define`
// (scripts/compile.ts): a binary cross-built on Linux for macOS cannot ask the host what it is.
// From source (`bun src/main.ts`) they come from package.json and the running platform.
import pkg from "../package.json" with { type: "json" };

declare const PML_VERSION: string | undefined;
declare const PML_TARGET: string | undefined;

export const version: string = typeof PML_VERSION === "string" ? PML_VERSION : pkg.version;

/** `<os>-<arch>[-variant]`, as in release archive names: `linux-x64`, `darwin-arm64`, `linux-x64-musl-baseline`. */
export const target: string = typeof PML_TARGET === "string" ? PML_TARGET : hostTarget();

/** Where releases are published (package.json `homepage`): `<url>/download/v<version>/<file>`, `<url>/latest/download/<file>`. */
export const RELEASES_URL = `${pkg.homepage}/releases`;

export function hostTarget(platform: string = process.platform, arch: string = process.arch, musl = isMusl()): string {
  const os = platform === "win32" ? "windows" : platform;
  return `${os}-${arch}${musl ? "-musl" : ""}`;
}

function isMusl(): boolean {
  if (process.platform !== "linux") return false;
  // glibc reports its version in the process report; musl builds have none.
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return !header?.glibcVersionRuntime;
}

/** What `pml --version` prints: `pml 0.2.0 (linux-x64)`. */
export function versionLine(): string {
  return `pml ${version} (${target})`;
}
