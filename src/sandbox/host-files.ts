// ctx.fs on the host side: read, write, list, stat, mkdir and move inside the workspace. Every
// path goes through the path guard (host-checks.ts); changes need the write grant and never touch
// a protected file. fs.glob is in host-glob.ts.
import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, rename, stat } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { writeFileAtomic } from "../fs/atomic.ts";
import { gitExecutableWithin } from "../fs/git-executables.ts";
import { firstProtectedUnder, protectedKind } from "../fs/protected.ts";
import type { HostOp } from "./call-state.ts";
import { type HostChecks, str } from "./host-checks.ts";
import { globFiles } from "./host-glob.ts";

const MAX_READ_BYTES = 10 * 1024 * 1024;

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

async function readFile(c: HostChecks, a: any): Promise<string> {
  const real = await c.guard("read", a?.path, { mustExist: true });
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
      const env = await c.envTwin(st);
      if (env) c.refuseProtected("read", a.path, { kind: "env", name: env }, "read");
    }
    if (st.size > MAX_READ_BYTES) throw new Error(`"${a.path}" is ${st.size} bytes, over the ${MAX_READ_BYTES}-byte read limit`);
    return await fh.readFile("utf8");
  } finally {
    await fh.close();
  }
}

async function writeFile(c: HostChecks, a: any): Promise<{ path: string; bytes: number }> {
  const content = str(a?.content, "content");
  const real = await c.needWrite("write", a?.path);
  const existing = await lstat(real).catch(() => undefined);
  const special = existing && specialKind(existing);
  if (special) throw new Error(`"${a.path}" is ${special}, not a regular file; pml writes only regular files`);
  if (existing?.isDirectory()) throw new Error(`"${a.path}" is a directory; give a file path`);
  await mkdir(dirname(real), { recursive: true });
  // `within`: a link swapped in after the check is refused, not written through.
  await writeFileAtomic(real, content, { within: await c.root() });
  return { path: await c.rel(real), bytes: Buffer.byteLength(content) };
}

async function listDirectory(c: HostChecks, a: any): Promise<Array<{ name: string; type: string }>> {
  const real = await c.guard("list", a?.path ?? ".", { mustExist: true });
  const entries = await readdir(real, { withFileTypes: true });
  return entries
    .map((e) => ({ name: e.name, type: e.isFile() ? "file" : e.isDirectory() ? "directory" : e.isSymbolicLink() ? "symlink" : "other" }))
    .sort((x, y) => x.name.localeCompare(y.name));
}

async function statPath(c: HostChecks, a: any) {
  const real = await c.guard("stat", a?.path, { mustExist: true });
  const st = await stat(real);
  return {
    path: await c.rel(real),
    type: kindOf(st),
    size: st.size,
    created: st.birthtime.toISOString(),
    modified: st.mtime.toISOString(),
    accessed: st.atime.toISOString(),
    permissions: (st.mode & 0o777).toString(8),
  };
}

async function makeDirectory(c: HostChecks, a: any): Promise<{ path: string }> {
  const real = await c.needWrite("mkdir", a?.path);
  await mkdir(real, { recursive: true });
  return { path: await c.rel(real) };
}

async function move(c: HostChecks, a: any): Promise<{ from: string; to: string }> {
  const from = str(a?.from, "from");
  // The source's parent is resolved, not the source: moving a symlink moves the link itself.
  const fromParent = await c.guard("move", dirname(from) || ".", { mustExist: true });
  const src = join(fromParent, basename(from));
  if (!(await lstat(src).catch(() => undefined))) throw new Error(`"${from}" does not exist in the workspace ${c.workspace}`);
  await c.needWrite("move", from);
  if (protectedKind(basename(from))) c.refuseProtected("move", from, { kind: protectedKind(basename(from))!, name: basename(from) }, "move");
  const dest = await c.needWrite("move", a?.to);
  // A folder is moved with what it holds: not one that holds a repository, a policy or secrets.
  if ((await lstat(src)).isDirectory()) {
    const inner = firstProtectedUnder(src);
    if (inner === "too-many") throw new Error(`"${from}" is too large a folder to check for protected files (.git, .pml.json, .env, ...); move it yourself`);
    if (inner) c.refuseProtected("move", from, { kind: protectedKind(basename(inner))!, name: relative(await c.root(), inner) }, "move");
  }
  // Nor one holding a file git runs, to change it elsewhere and move it back (either way).
  const root = await c.root();
  const held = gitExecutableWithin(root, src) ?? gitExecutableWithin(root, dest);
  if (held) c.refuseProtected("move", from, { kind: "policy", name: relative(root, held) }, "move");
  if (await lstat(dest).catch(() => undefined)) throw new Error(`"${a.to}" already exists; move it away first or choose another destination`);
  await mkdir(dirname(dest), { recursive: true });
  await rename(src, dest);
  return { from: await c.rel(src), to: await c.rel(dest) };
}

/** The ctx.fs host ops, checked by `c`. */
export function fileOps(c: HostChecks): Record<string, HostOp> {
  return {
    "fs.read": (a) => readFile(c, a),
    "fs.write": (a) => writeFile(c, a),
    "fs.list": (a) => listDirectory(c, a),
    "fs.stat": (a) => statPath(c, a),
    "fs.mkdir": (a) => makeDirectory(c, a),
    "fs.move": (a) => move(c, a),
    "fs.glob": (a) => globFiles(c, a),
  };
}
