// The host side of ctx.fs / ctx.exec / ctx.fetch: the only ways module code reaches the machine.
// Every path goes through the workspace path guard; writes need the write grant, exec the exec
// grant, fetch an allowed host. Every refusal is reported to `audit` before the error reaches
// the guest.
import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, realpath, rename, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { writeFileAtomic } from "../fs/atomic.ts";
import { baseEnv } from "../env/env-resolver.ts";
import { PathError, resolveInWorkspace } from "../fs/path-guard.ts";
import { canonicalName, firstProtectedUnder, protectedComponent, protectedKind, type ProtectedKind } from "../fs/protected.ts";
import type { AuditEntry } from "./audit.ts";
import { confineCommand, confinement } from "./confine.ts";
import type { HostOp, SandboxHost } from "./engine.ts";

export interface HostGrants {
  /** fs.write / fs.mkdir / fs.move (never on protected files, see config/protected.ts). */
  write?: boolean;
  /** exec (the built-in shell). */
  exec?: boolean;
  /** Host names fetch may reach ("api.example.com", "*.example.com"); default none. */
  net?: string[];
  /** exec'd commands get the network (.pml.json sandbox.shell_net); default none. */
  execNet?: boolean;
  /** The module's own list, when it declares one: a host must be in both (it narrows, never widens). */
  netDeclared?: string[];
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

type StatLike = { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean };

/** What a non-regular, non-directory entry is, in words, or undefined for files and folders. */
function specialKind(st: StatLike): string | undefined {
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return undefined;
}

const PROTECTED_WHY: Record<ProtectedKind, string> = {
  policy: "it decides what pml, Claude Code or git run and trust",
  env: "it holds secrets",
};

/**
 * Real paths of the workspace's top-level protected entries (`.pml.json`, `.git`, `.env`, ...),
 * resolved: when one of them is a symlink, its target is protected as well, so writing the target
 * under another name cannot change the policy.
 */
async function protectedTargets(root: string): Promise<Array<{ real: string; name: string; kind: ProtectedKind }>> {
  const out: Array<{ real: string; name: string; kind: ProtectedKind }> = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const kind = protectedKind(name);
    if (!kind) continue;
    const real = await realpath(join(root, name)).catch(() => undefined);
    if (real && real !== join(root, name)) out.push({ real, name, kind });
  }
  return out;
}

function under(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);
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
  const root = () => resolveInWorkspace(workspace, ".");
  /**
   * Why `userPath` (as given) or `real` (where it leads) is protected: either form naming a
   * protected component, or `real` lying in the target of a top-level protected symlink.
   */
  const protection = async (userPath: string, real: string): Promise<{ kind: ProtectedKind; name: string } | undefined> => {
    const r = await root();
    const given = isAbsolute(userPath) ? relative(resolve(workspace), resolve(userPath)) : userPath;
    for (const p of [given, relative(r, real)]) {
      const kind = protectedKind(p);
      if (kind) return { kind, name: protectedComponent(p)! };
    }
    for (const t of await protectedTargets(r)) if (under(real, t.real)) return { kind: t.kind, name: t.name };
    return undefined;
  };
  const refuseProtected = (verb: string, p: string, hit: { kind: ProtectedKind; name: string }, action: string): never => {
    const last = basename(hit.name);
    const canon = canonicalName(last);
    const what = canon === last ? hit.name : `${hit.name} (the same name as ${canon} on some file systems)`;
    const edit = hit.kind === "env" ? "Read or edit it yourself outside the agent" : "If it should change, edit it yourself";
    return refuse(`${verb} ${p}`, `protected file ${hit.name}`, `"${p}" is protected: ${what} ${PROTECTED_WHY[hit.kind]}, so nothing pml runs may ${action} it. ${edit}.`);
  };
  /** The top-level `.env*` file that is the same inode as `st`, if any. */
  const envTwin = async (st: { dev: number; ino: number }): Promise<string | undefined> => {
    const r = await root();
    for (const name of await readdir(r).catch(() => [] as string[])) {
      if (protectedKind(name) !== "env") continue;
      const e = await stat(join(r, name)).catch(() => undefined);
      if (e && e.dev === st.dev && e.ino === st.ino) return name;
    }
    return undefined;
  };
  const guard = async (verb: string, path: unknown, o: { mustExist?: boolean; forWrite?: boolean } = {}) => {
    const p = str(path, "path");
    // The name as given is checked first, so a refusal does not depend on whether the file exists.
    const named = protectedKind(p);
    if (named === "env" && !o.forWrite) refuseProtected(verb, p, { kind: named, name: protectedComponent(p)! }, verb);
    let real: string;
    try {
      real = await resolveInWorkspace(workspace, p, o);
    } catch (e) {
      if (e instanceof PathError && e.reason !== "missing") refuse(`${verb} ${p}`, e.message);
      throw e;
    }
    // Secrets files are not read, listed, searched or stat-ed, under any name that leads to them.
    const hit = o.forWrite ? undefined : await protection(p, real);
    if (hit?.kind === "env") refuseProtected(verb, p, hit, verb);
    return real;
  };
  const needWrite = async (verb: string, path: unknown) => {
    const p = str(path, "path");
    if (!grants.write) {
      const ns = opts.tool?.split(":")[0] ?? "<namespace>";
      refuse(
        `${verb} ${p}`,
        "write access not granted to this module",
        `write access not granted to this module; if you trust it to change files in the workspace, add "sandbox": {"grants": {"${ns}": {"write": true}}} to .pml.json`,
      );
    }
    const real = await guard(verb, p, { forWrite: true });
    const hit = await protection(p, real);
    if (hit) refuseProtected(verb, p, hit, "create, change, move or delete");
    return real;
  };
  const rel = async (real: string) => relative(await resolveInWorkspace(workspace, "."), real) || ".";

  const ops: Record<string, HostOp> = {
    "fs.read": async (a) => {
      const real = await guard("read", a?.path, { mustExist: true });
      // Non-blocking and no-follow: a FIFO opens at once (then is refused) instead of hanging, and a
      // link swapped in after the check is not followed.
      const fh = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
      try {
        const st = await fh.stat();
        if (st.isDirectory()) throw new Error(`"${a.path}" is a directory; use list_directory`);
        const special = specialKind(st);
        if (special) throw new Error(`"${a.path}" is ${special}, not a regular file; pml reads only regular files`);
        // A hard link to a secrets file is the secrets file under another name.
        if (st.nlink > 1) {
          const env = await envTwin(st);
          if (env) refuseProtected("read", a.path, { kind: "env", name: env }, "read");
        }
        if (st.size > MAX_READ_BYTES) throw new Error(`"${a.path}" is ${st.size} bytes, over the ${MAX_READ_BYTES}-byte read limit`);
        return await fh.readFile("utf8");
      } finally {
        await fh.close();
      }
    },
    "fs.write": async (a) => {
      const content = str(a?.content, "content");
      const real = await needWrite("write", a?.path);
      const existing = await lstat(real).catch(() => undefined);
      const special = existing && specialKind(existing);
      if (special) throw new Error(`"${a.path}" is ${special}, not a regular file; pml writes only regular files`);
      if (existing?.isDirectory()) throw new Error(`"${a.path}" is a directory; give a file path`);
      await mkdir(dirname(real), { recursive: true });
      // `within`: a link swapped in after the check is refused, not written through.
      await writeFileAtomic(real, content, { within: await root() });
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
      if (protectedKind(basename(from))) refuseProtected("move", from, { kind: protectedKind(basename(from))!, name: basename(from) }, "move");
      const dest = await needWrite("move", a?.to);
      // A folder is moved with what it holds: not one that holds a repository, a policy or secrets.
      if ((await lstat(src)).isDirectory()) {
        const inner = firstProtectedUnder(src);
        if (inner === "too-many") throw new Error(`"${from}" is too large a folder to check for protected files (.git, .pml.json, .env, ...); move it yourself`);
        if (inner) refuseProtected("move", from, { kind: protectedKind(basename(inner))!, name: relative(await root(), inner) }, "move");
      }
      if (await lstat(dest).catch(() => undefined)) throw new Error(`"${a.to}" already exists; move it away first or choose another destination`);
      await mkdir(dirname(dest), { recursive: true });
      await rename(src, dest);
      return { from: await rel(src), to: await rel(dest) };
    },
    "fs.glob": async (a) => {
      const pattern = str(a?.pattern, "pattern");
      if (isAbsolute(pattern) || pattern.startsWith("/") || pattern.split(/[\\/]/).includes("..")) {
        refuse(`glob ${pattern}`, "glob patterns are relative to the search directory and may not contain ..");
      }
      if (pattern.includes("\\")) refuse(`glob ${pattern}`, "backslashes are not allowed in search patterns; use / between folders and [*] for a literal *");
      // Bun.Glob follows symlinks named literally at the start of a pattern (`r/etc/pass*` with
      // r -> /) even with followSymlinks off. So the literal folders are resolved through the path
      // guard first and only the rest of the pattern is walked, from the real folder they lead to.
      const parts = pattern.split("/");
      const firstMagic = parts.findIndex((seg) => /[*?[\]{}()!+@]/.test(seg));
      const literal = (firstMagic < 0 ? parts : parts.slice(0, firstMagic)).filter((x) => x && x !== ".");
      const rest = firstMagic < 0 ? "" : parts.slice(firstMagic).join("/");
      const givenBase = a?.path ?? ".";
      const base = await guard("glob", givenBase, { mustExist: true });
      const r = await root();
      const lexicalStart = join(relative(r, base) || ".", ...literal);
      const startReal = await guard("glob", lexicalStart, { mustExist: firstMagic >= 0 }).catch((e) => {
        if (e instanceof PathError && e.reason === "missing") return undefined;
        throw e;
      });
      if (startReal === undefined) return { matches: [], truncated: false };
      if (firstMagic < 0) {
        const exists = await lstat(join(r, lexicalStart)).then(() => true, () => false);
        return { matches: exists ? [lexicalStart] : [], truncated: false };
      }
      const realDirs = new Map<string, boolean>();
      const parentInside = async (full: string) => {
        const dir = dirname(full);
        let ok = realDirs.get(dir);
        if (ok === undefined) {
          ok = under(await realpath(dir).catch(() => ""), r);
          realDirs.set(dir, ok);
        }
        return ok;
      };
      const matches: string[] = [];
      let truncated = false;
      for await (const m of new Bun.Glob(rest).scan({ cwd: startReal, dot: true, onlyFiles: false, followSymlinks: false })) {
        const full = join(startReal, m);
        if (!under(full, r) || !(await parentInside(full))) continue;
        const shown = join(lexicalStart, m);
        // Names of .env* entries are shown; what is inside a .env* folder is not.
        if (protectedKind(dirname(shown)) === "env") continue;
        if (matches.length >= MAX_GLOB_RESULTS) {
          truncated = true;
          break;
        }
        matches.push(shown);
      }
      return { matches: matches.sort(), truncated };
    },
    exec: async (a, signal) => {
      const command = str(a?.command, "command");
      if (!grants.exec) refuse(`exec ${command.slice(0, 200)}`, "running commands is not granted to this module");
      const cwd = await guard("exec in", a?.cwd ?? ".", { mustExist: true });
      const timeout = Math.min(Math.max(Number(a?.timeout_ms) || EXEC_DEFAULT_TIMEOUT_MS, 1), EXEC_MAX_TIMEOUT_MS);
      // What a shell command sees of pml's environment: enough to find programs, nothing secret.
      const env = baseEnv();
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
        // Protected names it created where no read-only placeholder could stand (sub/.git, ...).
        const blocked: string[] = [];
        for (const [from, to] of confined?.sweep() ?? []) {
          const [f, t] = [await rel(from), await rel(to)];
          try {
            opts.audit?.({ tool: opts.tool, attempted: `exec created ${f}`, reason: `protected name; moved aside to ${t}` });
          } catch {}
          blocked.push(`${f} -> ${t}`);
        }
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
        if (!hostAllowed(url.hostname, grants.net ?? []) || (grants.netDeclared && !hostAllowed(url.hostname, grants.netDeclared))) {
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
