// A stdio server as an OS process: spawned in its own process group with stdin a pipe only pml
// holds, signalled as a group, and ended when pml exits.
import type { Subprocess } from "bun";
import { inGroup } from "./exec-in-group.ts";
import type { LaunchSpec } from "./launch.ts";

export type StopSignal = "SIGTERM" | "SIGKILL";

interface Killable {
  kill(signal: StopSignal): void;
}

/** Every child still running, for the exit hook. */
const live = new Set<Killable>();
let exitHookInstalled = false;

/** Spawns `spec` with its stderr going to `stderrFd`; throws when it cannot be started. */
export function spawnInGroup(spec: LaunchSpec, stderrFd: number, onExit: (code: number | null, signal: string | null) => void): Subprocess<"pipe", "pipe", number> {
  // Its own process group, so ending the server ends what it started too (`sh -c "sleep …"`
  // leaves no sleep behind): in pml's session where it can (./exec-in-group.ts says why), else
  // in a session of its own. A confined one too: bubblewrap, started so, keeps it in that group.
  const grouped = inGroup(spec.command, spec.args, spec.env, spec.cwd);
  return Bun.spawn(grouped?.argv ?? [spec.command, ...spec.args], {
    cwd: spec.cwd,
    env: grouped?.env ?? spec.env,
    // stdin is a pipe only pml holds: when pml dies, even by SIGKILL, the server reads EOF and
    // exits (MCP stdio servers stop on stdin close), so no orphan is left behind.
    stdin: "pipe",
    stdout: "pipe",
    stderr: stderrFd,
    detached: grouped === undefined,
    onExit: (_p, code, signal) => onExit(code, signal == null ? null : String(signal)),
  });
}

/** Signals a server's whole process group (it leads one: spawnInGroup). */
export function killGroup(pid: number, signal: StopSignal): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {} // ESRCH: the group is gone
}

/** Keeps `child` on the list the exit hook ends, until `forget`. */
export function remember(child: Killable): void {
  live.add(child);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // pml exiting without awaiting Pool.shutdown() (process.exit, an uncaught error): the
  // children would see stdin EOF anyway; this makes it immediate for servers that ignore it.
  process.once("exit", () => {
    for (const p of live) p.kill("SIGTERM");
  });
}

export function forget(child: Killable): void {
  live.delete(child);
}

/** Whether `p` settles within `ms`. */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = await Promise.race([p.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
  clearTimeout(timer);
  return done;
}
