// A stdio server leading a process group of its own while staying in pml's session. Bun.spawn's
// only way to a process group is `detached`, which is setsid(), and on Linux a new session is a
// new scheduling group (autogroup): the kernel then shares the CPU between the server and pml as
// between two terminal sessions, and on a busy machine the two stop batching (one wake-up per
// message: ~2x the proxy's CPU per call, bench/proxy-cpu.ts --detached-bare). So on Linux pml
// starts the server through itself: `pml __exec-in-group <file> [args...]` resets what the
// runtime set on its process (ignored and blocked signals), calls setpgid(0, 0) and execs the
// server in place: the same pid, which pml signals as a group as before. A confined server too:
// the launcher execs bubblewrap, which then stays in that group and session (no --new-session:
// sandbox/confined-command.ts inCallerSession says how it still reaches no terminal).
import { accessSync, constants, statSync } from "node:fs";
import { resolve } from "node:path";

export const EXEC_IN_GROUP = "__exec-in-group";
/** The server's environment, as JSON: the launcher itself starts with only this variable, so
 * nothing meant for the server (BUN_BE_BUN, BUN_OPTIONS...) changes how pml's binary runs. */
const ENV_VAR = "PML_SERVER_ENV";
/** An environment larger than this is not carried (one variable holds at most 128 KiB on Linux). */
const MAX_ENV_JSON = 100 * 1024;

interface Libc {
  setpgid(pid: number, pgid: number): number;
  execve(file: unknown, argv: unknown, envp: unknown): number;
  signal(sig: number, handler: number): number;
  sigprocmask(how: number, set: unknown, old: unknown): number;
}
let libc: Libc | null | undefined;

/** glibc through bun:ffi; null elsewhere (another libc, another OS): servers are then detached. */
function loadLibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== "linux") return libc;
  try {
    const { dlopen, FFIType: T } = require("bun:ffi") as typeof import("bun:ffi");
    const lib = dlopen("libc.so.6", {
      setpgid: { args: [T.i32, T.i32], returns: T.i32 },
      execve: { args: [T.ptr, T.ptr, T.ptr], returns: T.i32 },
      signal: { args: [T.i32, T.u64], returns: T.u64 },
      sigprocmask: { args: [T.i32, T.ptr, T.ptr], returns: T.i32 },
    });
    libc = lib.symbols as unknown as Libc;
  } catch {}
  return libc;
}

const compiled = () => import.meta.path.startsWith("/$bunfs/");

/**
 * What to spawn (not detached) for `command` to lead its own group in pml's session, with the
 * environment to give that; undefined where it cannot be had (not Linux, no glibc, a command not
 * found: spawning it directly then says so as before; an environment too large to carry).
 */
export function inGroup(
  command: string,
  args: string[],
  env: Record<string, string | undefined> | undefined,
  cwd: string | undefined,
): { argv: string[]; env: Record<string, string> } | undefined {
  if (loadLibc() === null) return undefined;
  const base = env ?? process.env;
  const file = command.includes("/") ? executable(resolve(cwd ?? process.cwd(), command)) : Bun.which(command, { PATH: base.PATH ?? "", cwd });
  const json = JSON.stringify(base);
  if (!file || json.length > MAX_ENV_JSON) return undefined;
  const self = compiled() ? [process.execPath] : [process.execPath, resolve(import.meta.dir, "../main.ts")];
  return { argv: [...self, EXEC_IN_GROUP, file, ...args], env: { [ENV_VAR]: json } };
}

function executable(path: string): string | undefined {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

/** The launcher's side (`pml __exec-in-group <file> [args...]`): returns only if exec failed. */
export function execInGroup(argv: string[]): never {
  const lib = loadLibc();
  const file = argv[0];
  if (lib === null || file === undefined) fail(`pml ${EXEC_IN_GROUP}: needs Linux with glibc and a command`);
  const { ptr } = require("bun:ffi") as typeof import("bun:ffi");
  let env: Record<string, string>;
  try {
    env = JSON.parse(process.env[ENV_VAR] ?? "{}");
  } catch {
    fail(`pml ${EXEC_IN_GROUP}: ${ENV_VAR} is not the JSON pml's pool gives it (this command is pml's own, for starting servers)`);
  }
  const cstr = (s: string) => Buffer.from(`${s}\0`);
  const strings = argv.map(cstr);
  const vars = Object.entries(env).map(([k, v]) => cstr(`${k}=${v}`));
  const list = (xs: Buffer[]) => {
    const a = new BigUint64Array(xs.length + 1);
    xs.forEach((b, i) => (a[i] = BigInt(ptr(b))));
    return a;
  };
  const argvList = list(strings);
  const envList = list(vars);
  // The runtime ignores SIGPIPE and may block signals; both would carry over into the server.
  for (let sig = 1; sig < 32; sig++) if (sig !== 9 && sig !== 19) lib.signal(sig, 0);
  lib.sigprocmask(2, ptr(new Uint8Array(128)), null);
  if (lib.setpgid(0, 0) !== 0) fail(`pml ${EXEC_IN_GROUP}: setpgid failed`);
  lib.execve(ptr(strings[0]!), ptr(argvList), ptr(envList));
  fail(`pml: could not start ${file} (execve failed: not executable?)`);
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(126);
}
