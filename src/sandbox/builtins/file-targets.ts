// The paths a call of the built-in filesystem tools will touch, checked before anyone is asked
// with the host's own checks (host-checks.ts: the path guard, protected files): asking the user
// about a write the host will refuse (`.pml.json`, `.git/hooks/…`, outside the workspace) asks
// for nothing, so such a call is refused at once. The host still checks every access when it runs.
import type { Descriptor } from "../../registry/descriptor.ts";
import type { AuditEntry } from "../audit.ts";
import { HostChecks } from "../host-checks.ts";
import { isBuiltinFilesystem } from "./builtins.ts";

/** One path a call touches: as the caller gave it, and where it leads (relative to the workspace). */
export interface FileTarget {
  /** The argument it comes from ("path", "source", "destination"). */
  arg: string;
  given: string;
  resolved: string;
}

export type FileTargets = { refused: string } | { targets: FileTarget[] };

/** Each tool's path arguments: the host's verb for it, and whether the call changes it. */
const PATHS: Record<string, Array<{ arg: string; verb: string; write: boolean; fallback?: string }>> = {
  read_file: [{ arg: "path", verb: "read", write: false }],
  list_directory: [{ arg: "path", verb: "list", write: false, fallback: "." }],
  search_files: [{ arg: "path", verb: "glob", write: false, fallback: "." }],
  get_file_info: [{ arg: "path", verb: "stat", write: false }],
  write_file: [{ arg: "path", verb: "write", write: true }],
  edit_file: [{ arg: "path", verb: "write", write: true }],
  create_directory: [{ arg: "path", verb: "mkdir", write: true }],
  move_file: [
    { arg: "source", verb: "move", write: true },
    { arg: "destination", verb: "move", write: true },
  ],
};

/**
 * The paths a call of pml's own filesystem tool touches, or why the host would refuse it;
 * undefined for every other tool. A path the check cannot judge (not a string, a file system
 * error) is left to the host. `audit` receives the refusal, as the host's would.
 */
export async function fileTargets(
  workspace: string,
  d: Descriptor | { type: "inprocess" },
  toolId: string,
  action: string,
  args: Record<string, unknown> | undefined,
  audit?: (e: AuditEntry) => void,
): Promise<FileTargets | undefined> {
  if (d.type !== "module" || !isBuiltinFilesystem(d) || !PATHS[action]) return undefined;
  let refused = false;
  const checks = new HostChecks({
    workspace,
    grants: { write: true },
    tool: toolId,
    audit: (e) => {
      refused = true;
      audit?.(e);
    },
  });
  const targets: FileTarget[] = [];
  for (const p of PATHS[action]) {
    const given = args?.[p.arg] ?? p.fallback;
    if (typeof given !== "string") continue;
    // edit_file with dryRun only reads.
    const write = p.write && !(action === "edit_file" && args?.dryRun === true);
    try {
      const real = await (write ? checks.needWrite(p.verb, given) : checks.guard(p.verb === "write" ? "read" : p.verb, given));
      targets.push({ arg: p.arg, given, resolved: await checks.rel(real) });
    } catch (e) {
      if (refused) return { refused: (e as Error).message };
    }
  }
  return { targets };
}
