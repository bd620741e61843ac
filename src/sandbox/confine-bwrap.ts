// Confinement on Linux: the bubblewrap command line (mounts, read-only protected files, hidden
// home), and the watch and sweep that cover what a mount cannot.
import { existsSync, type FSWatcher, lstatSync, renameSync, statSync, watch } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { canonicalName, findProtectedPaths } from "../fs/protected.ts";
import { hiddenDirs, isUnder, pathDirsUnder, realOr } from "./confine-paths.ts";
import { bindRootPlaceholders, dropPlaceholders, emptySources, othersInUse, placeholdersInUse } from "./confine-placeholders.ts";
import type { ConfinedCommand, ConfinePolicy } from "./confined-command.ts";

function isEnvFile(path: string): boolean {
  const c = canonicalName(path.slice(path.lastIndexOf(sep) + 1));
  return c === ".env" || c.startsWith(".env.");
}

/** The namespaces and mounts: the root read-only, /tmp and /run private, home and PML_HOME
 * hidden (but the PATH folders inside them), the workspace and `writable` bound writable. */
function baseArgs(policy: ConfinePolicy, ws: string, hidden: string[]): string[] {
  // --cap-drop ALL: run by root, bubblewrap would leave the process its capabilities, enough to
  // unmount the read-only binds and write what they cover.
  const a = ["--die-with-parent", "--unshare-all", "--cap-drop", "ALL"];
  // Out of the caller's session, a process has no controlling terminal to feed keystrokes to
  // (TIOCSTI) or to write on. One that stays in it must not open that terminal: --dev's /dev/tty
  // is covered by /dev/null, bound nodev, so opening it fails; its stdio are pipes and a log file.
  if (!policy.inCallerSession) a.push("--new-session");
  if (policy.network) a.push("--share-net");
  a.push("--ro-bind", "/", "/", "--dev", "/dev", "--ro-bind", "/dev/null", "/dev/tty", "--proc", "/proc", "--tmpfs", "/tmp");
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
  return a;
}

/** Existing protected entries: read-only; `.env*` hidden behind an empty file. */
function bindProtected(a: string[], ws: string, existing: string[], empty: { file: string; dir: string }): void {
  const { file, dir } = empty;
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
}

/** Protected entries that appeared or were replaced since `before` was taken, other than
 * placeholders, renamed aside (see ConfinedCommand.sweep). */
function sweepNew(ws: string, before: Map<string, string>, made: string[]): Array<[string, string]> {
  const moved: Array<[string, string]> = [];
  const ours = new Set([...made, ...placeholdersInUse()]);
  for (const p of findProtectedPaths(ws)) {
    if (ours.has(p) || before.get(p) === identity(p)) continue;
    const aside = `${p}.pml-blocked-${Date.now()}`;
    try {
      renameSync(p, aside);
      moved.push([p, aside]);
    } catch {}
  }
  return moved;
}

export function confineWithBwrap(argv: string[], policy: ConfinePolicy): ConfinedCommand {
  const ws = realOr(resolve(policy.workspace));
  const hidden = hiddenDirs();
  // First, so that a dead pml's leftover placeholders are gone before the workspace is scanned.
  const others = othersInUse();
  const a = baseArgs(policy, ws, hidden);
  const empty = emptySources();
  const existing = findProtectedPaths(ws);
  const before = new Map(existing.map((p) => [p, identity(p)]));
  bindProtected(a, ws, existing, empty);
  // Absent protected names at the root: placeholders bubblewrap creates as mount points.
  const made = bindRootPlaceholders(a, ws, others, empty);
  const cwd = policy.cwd ? realOr(resolve(policy.cwd)) : ws;
  a.push("--setenv", "TMPDIR", "/tmp", "--chdir", cwd, "--");
  let released = false;
  const guarded: string[] = [];
  for (let i = 0; i + 2 < a.length; i++) if (a[i] === "--ro-bind" && isUnder(a[i + 2]!, ws)) guarded.push(a[i + 2]!);
  return {
    argv: [Bun.which("bwrap") ?? "bwrap", ...a, ...argv],
    env: { TMPDIR: "/tmp" },
    guard: (onBreach) => guardPaths(guarded, onBreach),
    sweep: () => sweepNew(ws, before, made),
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
