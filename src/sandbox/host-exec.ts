// ctx.exec on the host side (the built-in shell): a command run with the exec grant, in the
// workspace, with a minimal environment, confined by the OS sandbox where one works
// (confine.ts), killed whole at its timeout or when the sandbox call ends.
import type { Subprocess } from "bun";
import { baseEnv } from "../env/env-resolver.ts";
import type { HostOp } from "./call-state.ts";
import { confineCommand, confinement } from "./confine.ts";
import type { ConfinedCommand } from "./confined-command.ts";
import { type HostChecks, str } from "./host-checks.ts";
import { readCapped } from "./read-capped.ts";

const EXEC_DEFAULT_TIMEOUT_MS = 30_000;
const EXEC_MAX_TIMEOUT_MS = 10 * 60_000;
const EXEC_OUTPUT_CAP = 256 * 1024;

interface Started {
  child: Subprocess<"ignore", "pipe", "pipe">;
  confined: ConfinedCommand | undefined;
  timeout: number;
}

async function start(c: HostChecks, a: any): Promise<Started> {
  const command = str(a?.command, "command");
  if (!c.grants.exec) c.refuse(`exec ${command.slice(0, 200)}`, "running commands is not granted to this module");
  const cwd = await c.guard("exec in", a?.cwd ?? ".", { mustExist: true });
  const timeout = Math.min(Math.max(Number(a?.timeout_ms) || EXEC_DEFAULT_TIMEOUT_MS, 1), EXEC_MAX_TIMEOUT_MS);
  // What a shell command sees of pml's environment: enough to find programs, nothing secret.
  const env = baseEnv();
  const shell = process.platform === "win32" ? ["cmd.exe", "/d", "/s", "/c", command] : ["/bin/sh", "-c", command];
  // Confined by the OS sandbox where one works; the approval text said which (confine.ts).
  const confined = confineCommand(shell, { workspace: c.workspace, cwd, network: c.grants.execNet === true });
  Object.assign(env, confined?.env);
  try {
    const child = Bun.spawn(confined?.argv ?? shell, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe", detached: process.platform !== "win32" });
    return { child, confined, timeout };
  } catch (e) {
    confined?.release();
    throw e;
  }
}

/** Protected names the command created where no read-only placeholder could stand (sub/.git,
 * ...), moved aside and audited, as "created -> moved-to" lines. */
async function sweepBlocked(c: HostChecks, confined: ConfinedCommand | undefined): Promise<string[]> {
  const blocked: string[] = [];
  for (const [from, to] of confined?.sweep() ?? []) {
    const [f, t] = [await c.rel(from), await c.rel(to)];
    c.audit(`exec created ${f}`, `protected name; moved aside to ${t}`);
    blocked.push(`${f} -> ${t}`);
  }
  return blocked;
}

async function exec(c: HostChecks, a: any, signal: AbortSignal) {
  const { child, confined, timeout } = await start(c, a);
  let timedOut = false;
  const kill = () => {
    try {
      // Its own process group: the whole tree goes, not only the shell.
      if (process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
      else child.kill("SIGKILL");
    } catch {}
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, timeout);
  signal.addEventListener("abort", kill, { once: true });
  try {
    const [out, err, code] = await Promise.all([readCapped(child.stdout, EXEC_OUTPUT_CAP), readCapped(child.stderr, EXEC_OUTPUT_CAP), child.exited]);
    const blocked = await sweepBlocked(c, confined);
    return {
      exit_code: code,
      signal: child.signalCode ?? null,
      stdout: out.text,
      stderr:
        err.text +
        (timedOut ? `\n[pml: killed after ${timeout} ms timeout]` : "") +
        (blocked.length ? `\n[pml: commands may not create protected files (.git, .env*, .claude, .pml, .mcp.json, .pml.json); moved aside: ${blocked.join(", ")}]` : ""),
      truncated: out.truncated || err.truncated,
      timed_out: timedOut,
      confined: confined ? confinement().kind : "none",
    };
  } finally {
    confined?.release();
    clearTimeout(timer);
    signal.removeEventListener("abort", kill);
  }
}

/** The ctx.exec host op, checked by `c`. */
export function execOp(c: HostChecks): HostOp {
  return (a, signal) => exec(c, a, signal);
}
