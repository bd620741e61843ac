// The host side of ctx.fs / ctx.exec / ctx.fetch: the only ways module code reaches the machine.
// Every path goes through the workspace path guard; writes need the write grant, exec the exec
// grant, fetch an allowed host. Every refusal is reported to `audit` before the error reaches
// the guest.
import { lstat, mkdir, readdir, rename, stat } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { writeFileAtomic } from "../config/atomic.ts";
import { PathError, resolveInWorkspace } from "../config/path-guard.ts";
import type { AuditEntry } from "./audit.ts";
import { confineCommand, confinement } from "./confine.ts";
import type { HostOp, SandboxHost } from "./engine.ts";

export interface HostGrants {
  /** fs.write / fs.mkdir / fs.move. */
  write?: boolean;
  /** exec (the built-in shell). */
  exec?: boolean;
  /** Host names fetch may reach ("api.example.com", "*.example.com"); default none. */
  net?: string[];
  /** exec'd commands get the network (.pml.json sandbox.shell_net); default none. */
  execNet?: boolean;
}

export interface HostOptions {
  workspace: string;
  grants?: HostGrants;
  /** The tool the host serves, for audit entries ("filesystem:write_file"). */
  tool?: string;
  /** Receives every refusal; default: none. The gateway passes appendAudit. */
  audit?: (entry: AuditEntry) => void;
}

const MAX_READ_BYTES = 10 * 1024 * 1024;
const MAX_GLOB_RESULTS = 1000;
const MAX_FETCH_BYTES = 5 * 1024 * 1024;
const EXEC_DEFAULT_TIMEOUT_MS = 30_000;
const EXEC_MAX_TIMEOUT_MS = 10 * 60_000;
const EXEC_OUTPUT_CAP = 256 * 1024;
// What a shell command sees of pml's environment: enough to find programs, nothing secret.
const EXEC_ENV_KEYS = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TMPDIR", "SHELL", "SystemRoot", "ComSpec", "PATHEXT", "TEMP", "TMP"];

export const NETWORK_ISOLATED = "local modules are network-isolated; allow hosts in .pml.json sandbox.net_allow";

function str(value: unknown, name: string): string {
  if (typeof value !== "string") throw new TypeError(`${name} must be a string`);
  return value;
}

function hostAllowed(hostname: string, allow: string[]): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  return allow.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p === "*") return true;
    if (p.startsWith("*.")) return h.endsWith(p.slice(1)) && h.length > p.length - 1;
    return h === p;
  });
}

function kindOf(st: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): string {
  return st.isFile() ? "file" : st.isDirectory() ? "directory" : st.isSymbolicLink() ? "symlink" : "other";
}

async function readCapped(stream: ReadableStream<Uint8Array> | null, cap: number): Promise<{ text: string; truncated: boolean }> {
  if (!stream) return { text: "", truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream) {
    if (size >= cap) {
      truncated = true;
      continue; // keep draining so the child does not block on a full pipe
    }
    const room = cap - size;
    if (chunk.length > room) truncated = true;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    chunks.push(part);
    size += part.length;
  }
  return { text: Buffer.concat(chunks).toString("utf8"), truncated };
}

export function createHost(opts: HostOptions): SandboxHost {
  const { workspace } = opts;
  const grants = opts.grants ?? {};
  const refuse = (attempted: string, reason: string, message = reason): never => {
    try {
      opts.audit?.({ tool: opts.tool, attempted, reason });
    } catch {}
    throw new Error(message);
  };
  const guard = async (verb: string, path: unknown, o: { mustExist?: boolean; forWrite?: boolean } = {}) => {
    const p = str(path, "path");
    try {
      return await resolveInWorkspace(workspace, p, o);
    } catch (e) {
      if (e instanceof PathError && e.reason !== "missing") refuse(`${verb} ${p}`, e.message);
      throw e;
    }
  };
  const needWrite = async (verb: string, path: unknown) => {
    const p = str(path, "path");
    if (!grants.write) refuse(`${verb} ${p}`, "write access not granted to this module");
    const real = await guard(verb, p, { forWrite: true });
    const pmlDir = join(await resolveInWorkspace(workspace, "."), ".pml");
    if (real === pmlDir || real.startsWith(pmlDir + sep)) refuse(`${verb} ${p}`, "the workspace's .pml directory belongs to pml (audit log)");
    return real;
  };
  const rel = async (real: string) => relative(await resolveInWorkspace(workspace, "."), real) || ".";

  const ops: Record<string, HostOp> = {
    "fs.read": async (a) => {
      const real = await guard("read", a?.path, { mustExist: true });
      const st = await stat(real);
      if (st.isDirectory()) throw new Error(`"${a.path}" is a directory; use list_directory`);
      if (st.size > MAX_READ_BYTES) throw new Error(`"${a.path}" is ${st.size} bytes, over the ${MAX_READ_BYTES}-byte read limit`);
      return await Bun.file(real).text();
    },
    "fs.write": async (a) => {
      const content = str(a?.content, "content");
      const real = await needWrite("write", a?.path);
      await mkdir(dirname(real), { recursive: true });
      await writeFileAtomic(real, content);
      return { path: await rel(real), bytes: Buffer.byteLength(content) };
    },
    "fs.list": async (a) => {
      const real = await guard("list", a?.path ?? ".", { mustExist: true });
      const entries = await readdir(real, { withFileTypes: true });
      return entries
        .map((e) => ({ name: e.name, type: e.isFile() ? "file" : e.isDirectory() ? "directory" : e.isSymbolicLink() ? "symlink" : "other" }))
        .sort((x, y) => x.name.localeCompare(y.name));
    },
    "fs.stat": async (a) => {
      const real = await guard("stat", a?.path, { mustExist: true });
      const st = await stat(real);
      return {
        path: await rel(real),
        type: kindOf(st),
        size: st.size,
        created: st.birthtime.toISOString(),
        modified: st.mtime.toISOString(),
        accessed: st.atime.toISOString(),
        permissions: (st.mode & 0o777).toString(8),
      };
    },
    "fs.mkdir": async (a) => {
      const real = await needWrite("mkdir", a?.path);
      await mkdir(real, { recursive: true });
      return { path: await rel(real) };
    },
    "fs.move": async (a) => {
      const from = str(a?.from, "from");
      // The source's parent is resolved, not the source: moving a symlink moves the link itself.
      const fromParent = await guard("move", dirname(from) || ".", { mustExist: true });
      const src = join(fromParent, basename(from));
      if (!(await lstat(src).catch(() => undefined))) throw new Error(`"${from}" does not exist in the workspace ${workspace}`);
      await needWrite("move", from);
      const dest = await needWrite("move", a?.to);
      if (await lstat(dest).catch(() => undefined)) throw new Error(`"${a.to}" already exists; move it away first or choose another destination`);
      await mkdir(dirname(dest), { recursive: true });
      await rename(src, dest);
      return { from: await rel(src), to: await rel(dest) };
    },
    "fs.glob": async (a) => {
      const pattern = str(a?.pattern, "pattern");
      if (pattern.startsWith("/") || pattern.split(/[\\/]/).includes("..")) {
        refuse(`glob ${pattern}`, "glob patterns are relative to the search directory and may not contain ..");
      }
      const base = await guard("glob", a?.path ?? ".", { mustExist: true });
      const root = await resolveInWorkspace(workspace, ".");
      const matches: string[] = [];
      let truncated = false;
      for await (const m of new Bun.Glob(pattern).scan({ cwd: base, dot: true, onlyFiles: false, followSymlinks: false })) {
        if (matches.length >= MAX_GLOB_RESULTS) {
          truncated = true;
          break;
        }
        matches.push(relative(root, join(base, m)));
      }
      return { matches: matches.sort(), truncated };
    },
    exec: async (a, signal) => {
      const command = str(a?.command, "command");
      if (!grants.exec) refuse(`exec ${command.slice(0, 200)}`, "running commands is not granted to this module");
      const cwd = await guard("exec in", a?.cwd ?? ".", { mustExist: true });
      const timeout = Math.min(Math.max(Number(a?.timeout_ms) || EXEC_DEFAULT_TIMEOUT_MS, 1), EXEC_MAX_TIMEOUT_MS);
      const env: Record<string, string> = {};
      for (const k of EXEC_ENV_KEYS) if (process.env[k] !== undefined) env[k] = process.env[k]!;
      const shell = process.platform === "win32" ? ["cmd.exe", "/d", "/s", "/c", command] : ["/bin/sh", "-c", command];
      // Confined by the OS sandbox where one works; the approval text said which (confine.ts).
      const confined = confineCommand(shell, { workspace, cwd, network: grants.execNet === true });
      Object.assign(env, confined?.env);
      let child;
      try {
        child = Bun.spawn(confined?.argv ?? shell, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe", detached: process.platform !== "win32" });
      } catch (e) {
        confined?.release();
        throw e;
      }
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
        return {
          exit_code: code,
          signal: child.signalCode ?? null,
          stdout: out.text,
          stderr: err.text + (timedOut ? `\n[pml: killed after ${timeout} ms timeout]` : ""),
          truncated: out.truncated || err.truncated,
          timed_out: timedOut,
          confined: confined ? confinement().kind : "none",
        };
      } finally {
        confined?.release();
        clearTimeout(timer);
        signal.removeEventListener("abort", kill);
      }
    },
    fetch: async (a, signal) => {
      let url: URL;
      try {
        url = new URL(str(a?.url, "url"));
      } catch {
        throw new TypeError(`invalid URL ${JSON.stringify(a?.url)}`);
      }
      const method = typeof a?.method === "string" ? a.method.toUpperCase() : "GET";
      for (let hop = 0; ; hop++) {
        if (url.protocol !== "https:" && url.protocol !== "http:") refuse(`fetch ${url.href}`, `only http and https URLs can be fetched`);
        if (!hostAllowed(url.hostname, grants.net ?? [])) {
          refuse(`fetch ${url.href}`, `host ${url.hostname} is not in sandbox.net_allow`, `${NETWORK_ISOLATED} (refused: ${url.hostname})`);
        }
        const res = await fetch(url, {
          method,
          headers: a?.headers && typeof a.headers === "object" ? a.headers : undefined,
          body: typeof a?.body === "string" ? a.body : undefined,
          redirect: "manual",
          signal,
        });
        const location = res.headers.get("location");
        if (res.status >= 300 && res.status < 400 && location && hop < 5) {
          url = new URL(location, url); // each hop is checked against the allow list again
          await res.body?.cancel();
          continue;
        }
        const body = await readCapped(res.body, MAX_FETCH_BYTES);
        return { url: url.href, status: res.status, statusText: res.statusText, headers: Object.fromEntries(res.headers), body: body.text, truncated: body.truncated };
      }
    },
  };
  return {
    ops,
    refused: (attempted, reason) => {
      try {
        opts.audit?.({ tool: opts.tool, attempted, reason });
      } catch {}
    },
  };
}
