// The workspace path guard: every part that touches a file on behalf of a tool or a module resolves
// the user's path here first. The check is on real paths (symlinks resolved), so a link inside the
// workspace that leads out is refused just like `../..`.
import { lstat, readlink, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { UserError } from "../errors.ts";

export type PathErrorReason = "empty" | "nul" | "outside" | "symlink-outside" | "loop" | "missing" | "workspace-root";

export class PathError extends UserError {
  override name = "PathError";
  constructor(
    message: string,
    readonly path: string,
    readonly reason: PathErrorReason,
  ) {
    super(message);
  }
}

export interface ResolveOptions {
  /** The path must exist (read, stat, list, the source of a move). */
  mustExist?: boolean;
  /** The path will be written or created: the workspace root itself is refused. */
  forWrite?: boolean;
}

const MAX_LINKS = 40; // what Linux allows before ELOOP

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The real path `p` leads to, also when it does not exist (yet): the nearest existing ancestor is
 * resolved and the rest appended; a dangling symlink is followed to where it points, because
 * creating the file would create it there.
 */
async function realpathLoose(p: string, hops = 0): Promise<{ real: string; exists: boolean }> {
  if (hops > MAX_LINKS) throw Object.assign(new Error("symlink loop"), { code: "ELOOP" });
  try {
    return { real: await realpath(p), exists: true };
  } catch (e: any) {
    if (e?.code !== "ENOENT" && e?.code !== "ENOTDIR") throw e;
  }
  let st;
  try {
    st = await lstat(p);
  } catch (e: any) {
    if (e?.code !== "ENOENT" && e?.code !== "ENOTDIR") throw e;
  }
  if (st?.isSymbolicLink()) {
    const target = await readlink(p);
    const next = await realpathLoose(resolve(dirname(p), target), hops + 1);
    return { real: next.real, exists: false };
  }
  const parent = dirname(p);
  if (parent === p) return { real: p, exists: false };
  const up = await realpathLoose(parent, hops);
  return { real: join(up.real, basename(p)), exists: false };
}

const realRoots = new Map<string, string>();

async function realWorkspace(workspace: string): Promise<string> {
  const abs = resolve(workspace);
  let real = realRoots.get(abs);
  if (!real) {
    try {
      real = await realpath(abs);
    } catch {
      throw new PathError(`The workspace ${workspace} does not exist; set PML_WORKSPACE to the project directory`, workspace, "missing");
    }
    realRoots.set(abs, real);
  }
  return real;
}

/**
 * Resolves `userPath` (relative to the workspace, or absolute) to an absolute real path inside the
 * workspace, or throws a PathError saying why not. The check compares real paths, so the
 * workspace itself may sit behind a symlink (/tmp on macOS). A check-then-use race (a link swapped
 * in between) is outside what this guards against: the code that runs here cannot create links.
 */
export async function resolveInWorkspace(workspace: string, userPath: string, opts: ResolveOptions = {}): Promise<string> {
  if (typeof userPath !== "string" || userPath.length === 0) {
    throw new PathError(`Path is empty: give a file path relative to the workspace ${workspace}`, String(userPath ?? ""), "empty");
  }
  if (userPath.includes("\0")) {
    throw new PathError(`Path ${JSON.stringify(userPath)} contains a NUL byte`, userPath, "nul");
  }
  const root = await realWorkspace(workspace);
  const wsAbs = resolve(workspace);
  const lexical = isAbsolute(userPath) ? resolve(userPath) : resolve(root, userPath);
  const lexicallyInside = inside(root, lexical) || inside(wsAbs, lexical);
  if (!lexicallyInside) {
    throw new PathError(`Path "${userPath}" is outside the workspace ${workspace}`, userPath, "outside");
  }
  let found;
  try {
    found = await realpathLoose(lexical);
  } catch (e: any) {
    if (e?.code === "ELOOP") throw new PathError(`Path "${userPath}" is a symlink loop`, userPath, "loop");
    throw e;
  }
  if (!inside(root, found.real)) {
    throw new PathError(`Path "${userPath}" is outside the workspace ${workspace} (a symlink leads to ${found.real})`, userPath, "symlink-outside");
  }
  if (opts.mustExist && !found.exists) {
    throw new PathError(`Path "${userPath}" does not exist in the workspace ${workspace}`, userPath, "missing");
  }
  if (opts.forWrite && found.real === root) {
    throw new PathError(`Path "${userPath}" is the workspace directory itself; name a file inside it`, userPath, "workspace-root");
  }
  return found.real;
}
