// What the user's .pml.json says about a tool and about a set of tools run together. "Always"
// from an approval is pml's own edit of the file, written with its trust (./trust/trust-record.ts).
import { recordAlways } from "./trust/trust-record.ts";
import type { LoadedProjectConfig } from "../config/pml-json.ts";
import { exactAllows, permissionFor, type Decision, type Permissions } from "../config/permission-patterns.ts";

export type { Decision, Permissions };
export { exactAllows, permissionFor };

export interface ApprovalMode {
  /** auto: run; hil: ask the user first (the tools in `ask`); blocked: refuse (see `denied`). */
  mode: "auto" | "hil" | "blocked";
  /** The first denied tool, when blocked. */
  denied?: string;
  /** Tools that need approval: permission "ask", or not known to pml. */
  ask: string[];
}

/** For a set of tools (a capability's tools_used): any denied -> blocked; any ask or unknown
 * -> hil; all allowed -> auto. */
export function approvalMode(perms: Permissions | undefined, toolIds: readonly string[], isKnown?: (toolId: string) => boolean): ApprovalMode {
  let denied: string | undefined;
  const ask: string[] = [];
  for (const id of toolIds) {
    const decision = permissionFor(perms, id);
    if (decision === "deny") denied ??= id;
    else if (decision === "ask" || (isKnown && !isKnown(id))) {
      if (!ask.includes(id)) ask.push(id);
    }
  }
  if (denied !== undefined) return { mode: "blocked", denied, ask };
  return { mode: ask.length ? "hil" : "auto", ask };
}

/** "Always" for one tool, and for variables: pml's own edit of .pml.json (./trust/trust-record.ts). */
export async function allowAlways(workspace: string, toolId: string): Promise<LoadedProjectConfig> {
  return (await recordAlways(workspace, toolId)).loaded!;
}

export async function grantEnvAlways(workspace: string, ns: string, names: readonly string[]): Promise<LoadedProjectConfig | undefined> {
  return (await recordAlways(workspace, undefined, { ns, names })).loaded;
}
