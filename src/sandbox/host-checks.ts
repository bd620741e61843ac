// The checks every host function of the guest goes through, written once: the workspace path
// guard, protected files (config/protected.ts) and the audit of every refusal. A refusal is
// reported to `audit` before the error reaches the guest.
import { gitExecutableAt } from "../fs/git-executables.ts";
import { readdir, realpath, stat } from "node:fs/promises";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import { PathError, resolveInWorkspace } from "../fs/path-guard.ts";
import { canonicalName, protectedComponent, protectedKind, type ProtectedKind } from "../fs/protected.ts";
import type { AuditEntry } from "./audit.ts";

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

/** A protected entry a path names or leads to, and its kind. */
export interface ProtectedHit {
  kind: ProtectedKind;
  name: string;
}

export function str(value: unknown, name: string): string {
  if (typeof value !== "string") throw new TypeError(`${name} must be a string`);
  return value;
}

export function under(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

const PROTECTED_WHY: Record<ProtectedKind, string> = {
  policy: "decides what pml, Claude Code or git run and trust",
  env: "holds secrets",
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

export class HostChecks {
  readonly workspace: string;
  readonly grants: HostGrants;

  constructor(private readonly opts: HostOptions) {
    this.workspace = opts.workspace;
    this.grants = opts.grants ?? {};
  }

  /** Reports a refusal (or a protected entry moved aside) to the audit log; never throws. */
  audit(attempted: string, reason: string): void {
    try {
      this.opts.audit?.({ tool: this.opts.tool, attempted, reason });
    } catch {}
  }

  refuse(attempted: string, reason: string, message = reason): never {
    this.audit(attempted, reason);
    throw new Error(message);
  }

  root(): Promise<string> {
    return resolveInWorkspace(this.workspace, ".");
  }

  /** `real` relative to the workspace, as the guest is shown it. */
  async rel(real: string): Promise<string> {
    return relative(await resolveInWorkspace(this.workspace, "."), real) || ".";
  }

  /**
   * Why `userPath` (as given) or `real` (where it leads) is protected: either form naming a
   * protected component, or `real` lying in the target of a top-level protected symlink.
   */
  async protection(userPath: string, real: string): Promise<ProtectedHit | undefined> {
    const r = await this.root();
    const given = isAbsolute(userPath) ? relative(resolve(this.workspace), resolve(userPath)) : userPath;
    for (const p of [given, relative(r, real)]) {
      const kind = protectedKind(p);
      if (kind) return { kind, name: protectedComponent(p)! };
    }
    for (const t of await protectedTargets(r)) if (under(real, t.real)) return { kind: t.kind, name: t.name };
    const git = gitExecutableAt(r, real);
    if (git) return { kind: "policy", name: relative(r, git) };
    return undefined;
  }

  refuseProtected(verb: string, p: string, hit: ProtectedHit, action: string): never {
    const last = basename(hit.name);
    const canon = canonicalName(last);
    const what = canon === last ? hit.name : `${hit.name} (the same name as ${canon} on some file systems)`;
    const edit = hit.kind === "env" ? "Read or edit it yourself outside the agent" : "If it should change, edit it yourself";
    return this.refuse(`${verb} ${p}`, `protected file ${hit.name}`, `"${p}" is protected: ${what} ${PROTECTED_WHY[hit.kind]}, so nothing pml runs may ${action} it. ${edit}.`);
  }

  /** The top-level `.env*` file that is the same inode as `st`, if any. */
  async envTwin(st: { dev: number; ino: number }): Promise<string | undefined> {
    const r = await this.root();
    for (const name of await readdir(r).catch(() => [] as string[])) {
      if (protectedKind(name) !== "env") continue;
      const e = await stat(join(r, name)).catch(() => undefined);
      if (e && e.dev === st.dev && e.ino === st.ino) return name;
    }
    return undefined;
  }

  /** The real path of `path` inside the workspace; secrets files are refused unless for a write. */
  async guard(verb: string, path: unknown, o: { mustExist?: boolean; forWrite?: boolean } = {}): Promise<string> {
    const p = str(path, "path");
    // The name as given is checked first, so a refusal does not depend on whether the file exists.
    const named = protectedKind(p);
    if (named === "env" && !o.forWrite) this.refuseProtected(verb, p, { kind: named, name: protectedComponent(p)! }, verb);
    let real: string;
    try {
      real = await resolveInWorkspace(this.workspace, p, o);
    } catch (e) {
      if (e instanceof PathError && e.reason !== "missing") this.refuse(`${verb} ${p}`, e.message);
      throw e;
    }
    // Secrets files are not read, listed, searched or stat-ed, under any name that leads to them.
    const hit = o.forWrite ? undefined : await this.protection(p, real);
    if (hit?.kind === "env") this.refuseProtected(verb, p, hit, verb);
    return real;
  }

  /** The real path of `path` for a change: needs the write grant, and no protected entry. */
  async needWrite(verb: string, path: unknown): Promise<string> {
    const p = str(path, "path");
    if (!this.grants.write) {
      const ns = this.opts.tool?.split(":")[0] ?? "<namespace>";
      this.refuse(
        `${verb} ${p}`,
        "write access not granted to this module",
        `write access not granted to this module; if you trust it to change files in the workspace, add "sandbox": {"grants": {"${ns}": {"write": true}}} to .pml.json`,
      );
    }
    const real = await this.guard(verb, p, { forWrite: true });
    const hit = await this.protection(p, real);
    if (hit) this.refuseProtected(verb, p, hit, "create, change, move or delete");
    return real;
  }
}
