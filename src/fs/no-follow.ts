// pml's own files under a workspace (.pml/audit.log, .pml.json, .mcp.json, .env, .gitignore,
// .pml/pml.schema.json) are written without following any symlink below the workspace: a cloned
// repository holding `.pml/audit.log -> ~/.bashrc` must not turn pml's next write into a write to
// the user's shell start-up file. Every component is lstat-ed and a link refused; the last one is
// also opened with O_NOFOLLOW where pml opens it itself. The workspace directory itself may be a
// link (the user chose it).
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync, writeSync } from "node:fs";
import { lstat, readlink } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { ConfigError } from "../errors.ts";

export class SymlinkRefusedError extends ConfigError {
  override name = "SymlinkRefusedError";
}

function linkError(target: string, component: string, to: string): SymlinkRefusedError {
  return new SymlinkRefusedError(
    `pml did not write ${target}: ${component} is a symbolic link (to ${to}). pml writes its own files in a workspace ` +
      `without following links, so a repository cannot point them at your other files. Remove the link (rm "${component}") and retry.`,
    target,
  );
}

async function refuseLink(target: string, component: string): Promise<never> {
  throw linkError(target, component, await readlink(component).catch(() => "?"));
}

/** The components of `target` below `root`, as absolute paths, shallowest first. */
function componentsBelow(root: string, target: string): string[] {
  const rel = relative(resolve(root), resolve(target));
  if (rel === "") return [];
  if (rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) {
    throw new ConfigError(`pml did not write ${target}: it is not inside ${root}`, target);
  }
  const out: string[] = [];
  let p = resolve(root);
  for (const part of rel.split(sep)) out.push((p = join(p, part)));
  return out;
}

/**
 * Throws SymlinkRefusedError if any existing component of `target` below `root` (the last one
 * included) is a symlink, or a ConfigError if a parent is not a directory. Missing components are
 * fine (they will be created).
 */
export async function assertNoSymlinkBelow(root: string, target: string): Promise<void> {
  for (const c of componentsBelow(root, target)) {
    const st = await lstat(c).catch((e: any) => {
      if (e?.code === "ENOENT") return undefined;
      throw e;
    });
    if (!st) return;
    if (st.isSymbolicLink()) await refuseLink(target, c);
  }
}

/** Creates `root/rel` (mode 0700 for what it creates) without following links; returns its path. */
export function ensureDirNoFollow(root: string, rel: string, mode = 0o700): string {
  const target = join(root, rel);
  ensureParents(target, componentsBelow(root, target), mode);
  return target;
}

/** Creates and checks each of `dirs` in turn (see ensureDirNoFollow); `target` is for messages. */
function ensureParents(target: string, dirs: string[], mode: number): void {
  for (const c of dirs) {
    let st = lstatOrUndefined(c);
    if (!st) {
      try {
        mkdirSync(c, { mode });
      } catch (e: any) {
        if (e?.code !== "EEXIST") throw e;
      }
      st = lstatSync(c);
    }
    if (st.isSymbolicLink()) refuseLinkSync(target, c);
    if (!st.isDirectory()) throw new ConfigError(`pml did not write under ${target}: ${c} is not a directory; move it away and retry.`, target);
  }
}

/**
 * Appends `data` to `root/rel` (created with `mode`), following no link: parents are created
 * (0700) and checked, the file is opened with O_NOFOLLOW and must be a regular file. Synchronous:
 * an audit line is on disk before the refusal it records reaches the caller.
 */
export function appendNoFollowSync(root: string, rel: string, data: string, mode = 0o600): void {
  const target = join(root, rel);
  ensureParents(target, componentsBelow(root, target).slice(0, -1), 0o700);
  let fd: number;
  try {
    fd = openSync(target, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
  } catch (e: any) {
    if (e?.code === "ELOOP" || e?.code === "EMLINK") refuseLinkSync(target, target);
    throw e;
  }
  try {
    if (!fstatSync(fd).isFile()) throw new ConfigError(`pml did not write ${target}: it is not a regular file; remove it and retry.`, target);
    writeSync(fd, data);
  } finally {
    closeSync(fd);
  }
}

function lstatOrUndefined(p: string) {
  try {
    return lstatSync(p);
  } catch (e: any) {
    if (e?.code === "ENOENT") return undefined;
    throw e;
  }
}

function refuseLinkSync(target: string, component: string): never {
  let to = "?";
  try {
    to = readlinkSync(component);
  } catch {}
  throw linkError(target, component, to);
}
