// The platforms a release ships, named as in archive names: `<os>-<arch>[-variant]`.
// Bun's x64 runtimes may need AVX2 (Haswell, 2013, and later); `-baseline` ones run on any x86-64
// CPU. With Bun 1.4.5 each x64 runtime and its baseline twin were byte-identical (checked with
// cmp on the runtimes fetched for linux-x64-musl and windows-x64); the baseline archives still
// ship so installers and package managers keep a name that is safe whatever a later Bun does.

export type Os = "linux" | "darwin" | "windows";
export type Arch = "x64" | "arm64";

export interface Target {
  /** `linux-x64-musl-baseline`: the archive suffix and what `pml --version` shows. */
  name: string;
  os: Os;
  arch: Arch;
  musl: boolean;
  baseline: boolean;
  /** Bun's `--target` for this platform. */
  bunTarget: string;
  /** `pml` or `pml.exe`. */
  exe: string;
  /** `.tar.gz` for Linux and macOS, `.zip` for Windows. */
  archiveExt: ".tar.gz" | ".zip";
}

function target(os: Os, arch: Arch, variant: { musl?: boolean; baseline?: boolean } = {}): Target {
  const musl = !!variant.musl;
  const baseline = !!variant.baseline;
  const name = `${os}-${arch}${musl ? "-musl" : ""}${baseline ? "-baseline" : ""}`;
  return {
    name,
    os,
    arch,
    musl,
    baseline,
    bunTarget: `bun-${name}`,
    exe: os === "windows" ? "pml.exe" : "pml",
    archiveExt: os === "windows" ? ".zip" : ".tar.gz",
  };
}

export const TARGETS: readonly Target[] = [
  target("linux", "x64"),
  target("linux", "x64", { baseline: true }),
  target("linux", "x64", { musl: true }),
  target("linux", "x64", { musl: true, baseline: true }),
  target("linux", "arm64"),
  target("linux", "arm64", { musl: true }),
  target("darwin", "x64"),
  target("darwin", "x64", { baseline: true }),
  target("darwin", "arm64"),
  target("windows", "x64"),
  target("windows", "x64", { baseline: true }),
  target("windows", "arm64"),
];

export function targetByName(name: string): Target {
  const t = TARGETS.find((x) => x.name === name);
  if (!t) throw new Error(`unknown target "${name}"; known: ${TARGETS.map((x) => x.name).join(", ")}`);
  return t;
}

/** Accepts Bun's spellings too (`bun-linux-aarch64`, `bun-linux-x64-baseline-musl`, `-modern`). */
export function targetByBunName(bunTarget: string): Target {
  const parts = bunTarget
    .replace(/^bun-/, "")
    .replace("aarch64", "arm64")
    .split("-")
    .filter((p) => p !== "modern");
  const [os, arch, ...variant] = parts;
  return targetByName([os, arch, ...(variant.includes("musl") ? ["musl"] : []), ...(variant.includes("baseline") ? ["baseline"] : [])].join("-"));
}

export function archiveName(t: Target, version: string): string {
  return `pml-${version}-${t.name}${t.archiveExt}`;
}
