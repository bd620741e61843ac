// OS confinement for the processes pml starts on the agent's behalf (the `shell` module's commands,
// stdio MCP servers from registries): bubblewrap on Linux, Seatbelt (sandbox-exec) on macOS.
// Policy: the workspace writable, its protected files (config/protected.ts) read-only and `.env*`
// unreadable, the home directory and PML_HOME hidden, a private /tmp, no network unless allowed.
// The tools are called directly (no @anthropic-ai/sandbox-runtime): it needs Node >= 22, socat,
// ripgrep and vendored seccomp binaries on disk, none of which a single compiled binary carries,
// and pml needs only its filesystem half plus an all-or-nothing network switch.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { confineWithBwrap } from "./confine-bwrap.ts";
import { confineWithSeatbelt } from "./confine-seatbelt.ts";
import type { ConfinedCommand, ConfinePolicy } from "./confined-command.ts";

export type ConfinementKind = "bubblewrap" | "seatbelt" | "none";

export interface Confinement {
  kind: ConfinementKind;
  /** One line for `pml doctor` and approval texts: "bubblewrap 0.8.0 (user namespaces ok)". */
  summary: string;
  /** When kind is "none": why, and what to do about it. */
  reason?: string;
  install?: string;
}

/** `PML_CONFINE=off` turns confinement off (tests, or a machine where it misbehaves); it is
 * reported as unavailable everywhere a user would look. */
const OFF_VALUES = new Set(["off", "0", "false", "no", "none"]);

/** Whether a PML_CONFINE value turns confinement off. */
export function turnsConfinementOff(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  return !!v && OFF_VALUES.has(v);
}

let cached: Confinement | undefined;

/** Which confinement works here, probed once per process (a real sandboxed `true`, not just a
 * binary on PATH: user namespaces are often restricted). */
export function confinement(): Confinement {
  if (turnsConfinementOff(process.env.PML_CONFINE)) return none("turned off by PML_CONFINE=" + process.env.PML_CONFINE, "unset PML_CONFINE");
  return (cached ??= probe());
}

function none(reason: string, install: string): Confinement {
  return { kind: "none", summary: `none: ${reason}; ${install}`, reason, install };
}

function probe(): Confinement {
  if (process.platform === "linux") return probeBwrap();
  if (process.platform === "darwin") return probeSeatbelt();
  return none(`no OS sandbox is supported on ${process.platform}`, "run pml under WSL 2 or Linux with bubblewrap for confined commands");
}

export function installHint(): string {
  if (process.platform === "darwin") return "sandbox-exec ships with macOS (/usr/bin/sandbox-exec); check that it is present";
  const managers: Array<[string, string]> = [
    ["apt-get", "sudo apt-get install bubblewrap"],
    ["dnf", "sudo dnf install bubblewrap"],
    ["pacman", "sudo pacman -S bubblewrap"],
    ["zypper", "sudo zypper install bubblewrap"],
    ["apk", "sudo apk add bubblewrap"],
  ];
  for (const [bin, cmd] of managers) if (Bun.which(bin)) return `install it with \`${cmd}\``;
  return "install bubblewrap (package `bubblewrap`) with your package manager";
}

function probeBwrap(): Confinement {
  const bwrap = Bun.which("bwrap");
  if (!bwrap) return none("bubblewrap (bwrap) is not installed", installHint());
  const version =
    spawnSync(bwrap, ["--version"], { encoding: "utf8", timeout: 5000 })
      .stdout?.trim()
      .replace(/^bubblewrap\s*/, "") || "?";
  const run = spawnSync(
    bwrap,
    [
      "--die-with-parent",
      "--new-session",
      "--unshare-all",
      "--cap-drop",
      "ALL",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--tmpfs",
      "/tmp",
      "--",
      "/bin/sh",
      "-c",
      "exit 0",
    ],
    { encoding: "utf8", timeout: 10_000 },
  );
  if (run.status !== 0) {
    const why = (run.stderr || run.error?.message || `exit ${run.status}`).trim().split("\n")[0];
    return none(
      `bubblewrap ${version} is installed but cannot create a sandbox here (${why})`,
      "user namespaces are probably restricted: allow them (e.g. `sudo sysctl kernel.unprivileged_userns_clone=1`, or an AppArmor profile for bwrap on Ubuntu 24.04+)",
    );
  }
  return { kind: "bubblewrap", summary: `bubblewrap ${version} (user namespaces ok)` };
}

function probeSeatbelt(): Confinement {
  const exe = "/usr/bin/sandbox-exec";
  if (!existsSync(exe)) return none("sandbox-exec is missing", installHint());
  const run = spawnSync(exe, ["-p", "(version 1)(allow default)", "/usr/bin/true"], { encoding: "utf8", timeout: 10_000 });
  if (run.status !== 0) return none(`sandbox-exec cannot run here (${(run.stderr || `exit ${run.status}`).trim().split("\n")[0]})`, installHint());
  return { kind: "seatbelt", summary: "Seatbelt (sandbox-exec)" };
}

/**
 * The command line that runs `argv` under `policy`, or undefined when no confinement is
 * available (the caller decides whether to run unconfined and must say so).
 */
export function confineCommand(argv: string[], policy: ConfinePolicy): ConfinedCommand | undefined {
  const c = confinement();
  if (c.kind === "bubblewrap") return confineWithBwrap(argv, policy);
  if (c.kind === "seatbelt") return confineWithSeatbelt(argv, policy);
  return undefined;
}
