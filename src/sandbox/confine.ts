// OS confinement for the processes pml starts on the agent's behalf (the `shell` module's commands,
// stdio MCP servers from registries): bubblewrap on Linux, Seatbelt (sandbox-exec) on macOS.
// Policy: the workspace writable, its protected files (config/protected.ts) read-only and `.env*`
// unreadable, the home directory and PML_HOME hidden, a private /tmp, no network unless allowed.
// The tools are called directly (no @anthropic-ai/sandbox-runtime): it needs Node >= 22, socat,
// ripgrep and vendored seccomp binaries on disk, none of which a single compiled binary carries,
// and pml needs only its filesystem half plus an all-or-nothing network switch.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, type FSWatcher, watch, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, join, resolve, sep } from "node:path";
import { pmlHome } from "../config/paths.ts";
import { canonicalName, findProtectedPaths, PROTECTED_NAMES } from "../fs/protected.ts";

export interface ConfinePolicy {
  /** Readable and writable (except protected files); bound at its own path. */
  workspace: string;
  /** Where the process starts (inside the workspace); default the workspace. */
  cwd?: string;
  /** All network or none. */
  network: boolean;
  /** Extra paths visible read-only even when under a hidden directory (installed packages, pml's binary). */
  readOnly?: string[];
  /** Extra directories the process may write (a server's own data dir). */
  writable?: string[];
}

export type ConfinementKind = "bubblewrap" | "seatbelt" | "none";

export interface Confinement {
  kind: ConfinementKind;
  /** One line for `pml doctor` and approval texts: "bubblewrap 0.8.0 (user namespaces ok)". */
  summary: string;
  /** When kind is "none": why, and what to do about it. */
  reason?: string;
  install?: string;
}

export interface ConfinedCommand {
  argv: string[];
  /** Environment changes the confinement needs (TMPDIR). */
  env: Record<string, string>;
  /** Call once the process has exited: removes the placeholders it needed. */
  release(): void;
  /**
   * For long-lived processes: watches the protected paths bound read-only. A file replaced by
   * rename on the host (an editor's save, pml's own atomic write of .pml.json, `rm -rf .git`)
   * detaches the read-only mount inside the sandbox, so `onBreach` is called with that path: the
   * caller restarts the process to bind the new file. Call once the process is running (its
   * mounts are made); returns the function that stops watching.
   */
  guard(onBreach: (path: string) => void): () => void;
  /**
   * For short-lived processes, once they have exited: protected entries that appeared (or were
   * replaced) while they ran, where no read-only bind could stand in advance (`sub/.git`,
   * `.env.production`), are renamed aside to `<name>.pml-blocked-<time>` (nothing is deleted) so
   * that git, pml or a dotenv loader never picks them up. Returns [created, moved-to] pairs.
   */
  sweep(): Array<[string, string]>;
}

/** `PML_CONFINE=off` turns confinement off (tests, or a machine where it misbehaves); it is
 * reported as unavailable everywhere a user would look. */
const OFF_VALUES = new Set(["off", "0", "false", "no", "none"]);

let cached: Confinement | undefined;

/** Which confinement works here, probed once per process (a real sandboxed `true`, not just a
 * binary on PATH: user namespaces are often restricted). */
export function confinement(): Confinement {
  const off = process.env.PML_CONFINE?.trim().toLowerCase();
  if (off && OFF_VALUES.has(off)) return none("turned off by PML_CONFINE=" + process.env.PML_CONFINE, "unset PML_CONFINE");
  return (cached ??= probe());
}

/** For tests: forget the probe result. */
export function resetConfinementProbe(): void {
  cached = undefined;
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
  const version = spawnSync(bwrap, ["--version"], { encoding: "utf8", timeout: 5000 }).stdout?.trim().replace(/^bubblewrap\s*/, "") || "?";
  const run = spawnSync(
    bwrap,
    ["--die-with-parent", "--new-session", "--unshare-all", "--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--", "/bin/sh", "-c", "exit 0"],
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

/** The directories a confined process must not see: the user's home and pml's own state. */
function hiddenDirs(): string[] {
  const out = new Set<string>();
  for (const h of [process.env.HOME?.trim(), homedir(), pmlHome()]) {
    if (!h) continue;
    const abs = resolve(h);
    if (abs === "/" || !existsSync(abs)) continue;
    out.add(realOr(abs));
  }
  return [...out];
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** PATH directories inside a hidden directory (~/.local/bin, ~/.bun/bin): programs the user runs
 * every day, kept visible (read-only) so confined commands still find them. */
function pathDirsUnder(hidden: string[]): string[] {
  const out: string[] = [];
  for (const d of (process.env.PATH ?? "").split(delimiter)) {
    if (!d?.startsWith("/")) continue;
    const real = realOr(d);
    // Strictly below: a PATH holding $HOME itself must not re-expose the whole home.
    if (hidden.some((h) => real !== h && isUnder(real, h)) && existsSync(real)) out.push(real);
  }
  return out;
}

/** Absent protected names at the workspace root get a read-only placeholder, so a confined process
 * cannot create them (a `.pml.json` allowing everything, a `.git` with hooks, a `.env`). */
const ROOT_PLACEHOLDERS: ReadonlyArray<{ name: string; dir: boolean }> = [
  ...PROTECTED_NAMES.map((name) => ({ name, dir: !name.endsWith(".json") })),
  { name: ".env", dir: false },
  { name: ".env.local", dir: false },
];

// Placeholders are mount points bubblewrap creates on the host (an empty file or directory). They
// are removed when no process needs them any more: counted per path in this process, and listed
// in `$PML_HOME/confine/placeholders/<pid>.json` so that another pml process does not remove one
// still in use, and leftovers of a pml that was killed are swept by the next one.
const placeholderUsers = new Map<string, number>();
let swept = false;
let exitHook = false;

function recordsDir(): string {
  return join(pmlHome(), "confine", "placeholders");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e?.code === "EPERM";
  }
}

/** Placeholders listed by live pml processes other than this one. */
function othersInUse(): Set<string> {
  const inUse = new Set<string>();
  let files: string[] = [];
  try {
    files = readdirSync(recordsDir());
  } catch {}
  for (const f of files) {
    const pid = Number.parseInt(f, 10);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const path = join(recordsDir(), f);
    let list: unknown;
    try {
      list = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      continue;
    }
    if (!Array.isArray(list)) continue;
    if (alive(pid)) for (const p of list) inUse.add(String(p));
    else if (!swept) {
      // A pml that died without cleaning up (SIGKILL, a crash): its placeholders go now.
      for (const p of list) removeIfEmpty(String(p));
      rmSync(path, { force: true });
    }
  }
  swept = true;
  return inUse;
}

function writeRecord(): void {
  const path = join(recordsDir(), `${process.pid}.json`);
  try {
    if (placeholderUsers.size === 0) rmSync(path, { force: true });
    else {
      mkdirSync(recordsDir(), { recursive: true, mode: 0o700 });
      writeFileSync(path, JSON.stringify([...placeholderUsers.keys()]));
    }
  } catch {}
}

function takePlaceholder(p: string): void {
  placeholderUsers.set(p, (placeholderUsers.get(p) ?? 0) + 1);
  if (!exitHook) {
    exitHook = true;
    // pml exiting while confined processes run: they are being ended; their placeholders go.
    process.once("exit", () => {
      const others = othersInUse();
      for (const q of placeholderUsers.keys()) if (!others.has(q)) removeIfEmpty(q);
      placeholderUsers.clear();
      writeRecord();
    });
  }
}

function dropPlaceholders(paths: string[]): void {
  let others: Set<string> | undefined;
  for (const p of paths) {
    const n = (placeholderUsers.get(p) ?? 1) - 1;
    if (n > 0) {
      placeholderUsers.set(p, n);
      continue;
    }
    placeholderUsers.delete(p);
    others ??= othersInUse();
    if (!others.has(p)) removeIfEmpty(p);
  }
  writeRecord();
}

function emptySources(): { file: string; dir: string } {
  const base = join(pmlHome(), "confine");
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const file = join(base, "empty");
  const dir = join(base, "empty.d");
  // Re-checked each time: the sources must stay empty and ours (a bind source is resolved on the host).
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.size !== 0) rmSync(file, { recursive: true, force: true });
  } catch {}
  if (!existsSync(file)) writeFileSync(file, "", { mode: 0o444 });
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory() || readdirSync(dir).length > 0) rmSync(dir, { recursive: true, force: true });
  } catch {}
  if (!existsSync(dir)) mkdirSync(dir, { mode: 0o555 });
  chmodSync(dir, 0o555);
  return { file, dir };
}

function isEnvFile(path: string): boolean {
  const c = canonicalName(path.slice(path.lastIndexOf(sep) + 1));
  return c === ".env" || c.startsWith(".env.");
}

/**
 * The command line that runs `argv` under `policy`, or undefined when no confinement is
 * available (the caller decides whether to run unconfined and must say so).
 */
export function confineCommand(argv: string[], policy: ConfinePolicy): ConfinedCommand | undefined {
  const c = confinement();
  if (c.kind === "bubblewrap") return bwrapCommand(argv, policy);
  if (c.kind === "seatbelt") return seatbeltCommand(argv, policy);
  return undefined;
}

function bwrapCommand(argv: string[], policy: ConfinePolicy): ConfinedCommand {
  const ws = realOr(resolve(policy.workspace));
  const hidden = hiddenDirs();
  // First, so that a dead pml's leftover placeholders are gone before the workspace is scanned.
  const others = othersInUse();
  // --cap-drop ALL: run by root, bubblewrap would leave the process its capabilities, enough to
  // unmount the read-only binds and write what they cover.
  const a = ["--die-with-parent", "--new-session", "--unshare-all", "--cap-drop", "ALL"];
  if (policy.network) a.push("--share-net");
  a.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");
  // /run holds other services' sockets (docker, the session bus, ssh agents): connecting to a
  // socket works through a read-only mount, so it is emptied; DNS config comes back with the network.
  if (existsSync("/run")) {
    a.push("--tmpfs", "/run");
    if (policy.network) a.push("--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve");
  }
  if (existsSync("/var/run") && !lstatSync("/var/run").isSymbolicLink()) a.push("--tmpfs", "/var/run");
  for (const h of hidden) a.push("--tmpfs", h);
  for (const p of [...pathDirsUnder(hidden), ...(policy.readOnly ?? []).map((p) => realOr(p))]) a.push("--ro-bind-try", p, p);
  a.push("--bind", ws, ws);
  for (const w of policy.writable ?? []) a.push("--bind", realOr(w), realOr(w));

  const { file, dir } = emptySources();
  const existing = findProtectedPaths(ws);
  const before = new Map(existing.map((p) => [p, identity(p)]));
  // Existing protected entries: read-only; `.env*` hidden behind an empty file.
  for (const p of existing) {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) {
      // A link's target is bound read-only (bubblewrap follows it); a dangling one is replaced
      // by nothing the process could write through: the empty file.
      const target = existsSync(p) ? realOr(p) : undefined;
      if (target && isUnder(target, ws)) a.push("--ro-bind", isEnvFile(p) && statSync(target).isFile() ? file : target, target);
      continue;
    }
    if (isEnvFile(p)) a.push("--ro-bind", st.isDirectory() ? dir : file, p);
    else a.push("--ro-bind", p, p);
  }
  // Absent protected names at the root: placeholders bubblewrap creates as mount points (or one
  // another pml process made and still uses, which this one then shares).
  const made: string[] = [];
  for (const { name, dir: isDir } of ROOT_PLACEHOLDERS) {
    const p = join(ws, name);
    if (lstatExists(p) && !others.has(p) && !placeholderUsers.has(p)) continue;
    a.push("--ro-bind", isDir ? dir : file, p);
    made.push(p);
    takePlaceholder(p);
  }
  writeRecord();
  const cwd = policy.cwd ? realOr(resolve(policy.cwd)) : ws;
  a.push("--setenv", "TMPDIR", "/tmp", "--chdir", cwd, "--");
  let released = false;
  const guarded: string[] = [];
  for (let i = 0; i + 2 < a.length; i++) if (a[i] === "--ro-bind" && isUnder(a[i + 2]!, ws)) guarded.push(a[i + 2]!);
  return {
    argv: [Bun.which("bwrap") ?? "bwrap", ...a, ...argv],
    env: { TMPDIR: "/tmp" },
    guard: (onBreach) => guardPaths(guarded, onBreach),
    sweep: () => {
      const moved: Array<[string, string]> = [];
      const ours = new Set([...made, ...othersInUse(), ...placeholderUsers.keys()]);
      for (const p of findProtectedPaths(ws)) {
        if (ours.has(p) || before.get(p) === identity(p)) continue;
        const aside = `${p}.pml-blocked-${Date.now()}`;
        try {
          renameSync(p, aside);
          moved.push([p, aside]);
        } catch {}
      }
      return moved;
    },
    release: () => {
      if (released) return;
      released = true;
      dropPlaceholders(made);
    },
  };
}

function identity(p: string): string {
  try {
    const st = lstatSync(p);
    return `${st.dev}:${st.ino}`;
  } catch {
    return "missing";
  }
}

/** Watches the parent folders of `paths` (not recursive: a few inotify watches) and reports a
 * path whose directory entry now points elsewhere. Spurious events are checked against the inode. */
function guardPaths(paths: string[], onBreach: (path: string) => void): () => void {
  const byDir = new Map<string, Map<string, { path: string; id: string }>>();
  for (const p of paths) {
    const d = dirname(p);
    if (!byDir.has(d)) byDir.set(d, new Map());
    byDir.get(d)!.set(p.slice(d.length + 1), { path: p, id: identity(p) });
  }
  const watchers: FSWatcher[] = [];
  let done = false;
  const check = (entries: Map<string, { path: string; id: string }>, name?: string | null) => {
    if (done) return;
    const list = name && entries.has(name) ? [entries.get(name)!] : [...entries.values()];
    for (const e of list) {
      if (identity(e.path) === e.id) continue;
      done = true;
      onBreach(e.path);
      return;
    }
  };
  for (const [dir, entries] of byDir) {
    try {
      const w = watch(dir, { persistent: false }, (_event, name) => check(entries, typeof name === "string" ? name : undefined));
      w.on("error", () => {});
      watchers.push(w);
    } catch {}
    check(entries); // replaced between the launch and now
  }
  return () => {
    done = true;
    for (const w of watchers) w.close();
  };
}

function lstatExists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Removes a placeholder mount point left on the host, only if it is still the empty thing. */
function removeIfEmpty(p: string): void {
  try {
    const st = lstatSync(p);
    if (st.isFile() && st.size === 0) unlinkSync(p);
    else if (st.isDirectory() && readdirSync(p).length === 0) rmdirSync(p);
  } catch {}
}

// ---- macOS ----

function sbString(s: string): string {
  return `"${s.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

function reEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\"]/g, "\\$&");
}

/** Letters as [xX] classes: APFS is case-insensitive, so `.GIT` is `.git`. */
function caseless(s: string): string {
  return reEscape(s).replace(/[a-z]/g, (ch) => `[${ch}${ch.toUpperCase()}]`);
}

/** The Seatbelt profile for `policy` (exported for tests: the regexes are checked on any OS). */
export function seatbeltProfile(policy: ConfinePolicy, tmp: string, hidden: string[]): string {
  const ws = realOr(resolve(policy.workspace));
  const env = `${caseless(".env")}(\\.[^/]*)?`;
  const names = [...PROTECTED_NAMES.map(caseless), env].join("|");
  const protectedRe = `^${reEscape(ws)}(/.*)?/(${names})(/.*)?$`;
  const envRe = `^${reEscape(ws)}(/.*)?/${env}(/.*)?$`;
  const lines = [
    "(version 1)",
    "(allow default)",
    // Writes: only the workspace, this run's temp dir, and the terminal devices (last match wins).
    "(deny file-write*)",
    `(allow file-write* (subpath ${sbString(ws)}) (subpath ${sbString(tmp)}) ${(policy.writable ?? []).map((w) => `(subpath ${sbString(realOr(w))})`).join(" ")} (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))`,
    // Protected names anywhere under the workspace: not created, changed, renamed or deleted.
    `(deny file-write* (regex #"${protectedRe}"))`,
    // Reads: not the home directory or pml's state, except the workspace and what the policy names.
    ...hidden.map((h) => `(deny file-read* (subpath ${sbString(h)}))`),
    `(allow file-read* (subpath ${sbString(ws)}) (subpath ${sbString(tmp)}) ${[...pathDirsUnder(hidden), ...(policy.readOnly ?? []).map(realOr), ...(policy.writable ?? []).map(realOr)].map((p) => `(subpath ${sbString(p)})`).join(" ")})`,
    // The parents of the workspace must be listable for path resolution (getcwd, realpath).
    ...ancestors(ws).map((d) => `(allow file-read-metadata (literal ${sbString(d)}))`),
    `(deny file-read-data (regex #"${envRe}"))`,
  ];
  if (!policy.network) lines.push("(deny network*)");
  return lines.join("\n");
}

function seatbeltCommand(argv: string[], policy: ConfinePolicy): ConfinedCommand {
  const tmp = realOr(mkdtempSync(join(tmpdir(), "pml-confined-")));
  // sandbox-exec has no --chdir: the caller starts the process in policy.cwd.
  return {
    argv: ["/usr/bin/sandbox-exec", "-p", seatbeltProfile(policy, tmp, hiddenDirs()), ...argv],
    env: { TMPDIR: tmp },
    release: () => rmSync(tmp, { recursive: true, force: true }),
    // Seatbelt rules are about paths and names, not mounts: a replaced file is covered as it
    // was, and a protected name cannot be created anywhere.
    guard: () => () => {},
    sweep: () => [],
  };
}

function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let d = dirname(p); ; d = dirname(d)) {
    out.push(d);
    if (d === dirname(d)) break;
  }
  return out;
}

/** The sentence approval texts use to say how a command or server will run. */
export function confinementSentence(network: boolean): string {
  const c = confinement();
  if (c.kind === "none") {
    return `It is NOT confined: it runs as you, with your files and network (${c.reason}; ${c.install}).`;
  }
  const how = c.kind === "bubblewrap" ? "bubblewrap" : "Seatbelt";
  return (
    `Confined by ${how}: it can write only the workspace (not .pml.json, .mcp.json, .git, .claude, .pml or .env*), ` +
    `cannot read your home directory, ${network ? "and HAS network access" : "and has no network"}.`
  );
}
