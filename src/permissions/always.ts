// "Always" from an approval: the exact tool id joins permissions.allow in the user's .pml.json.
import { ConfigError } from "../config/errors.ts";
import { updateProjectConfig, type LoadedProjectConfig } from "../config/pml-json.ts";
import { isToolId } from "./patterns.ts";

/**
 * Adds `toolId` to permissions.allow (idempotent; safe against concurrent approvals from other
 * processes). An exact entry for the same tool in `ask` is removed, since it would otherwise
 * keep winning over the new allow (same specificity, ask > allow). Broader ask/deny patterns stay.
 */
export async function allowAlways(workspace: string, toolId: string): Promise<LoadedProjectConfig> {
  if (!isToolId(toolId)) {
    throw new ConfigError(`cannot always-allow ${JSON.stringify(toolId)}: expected an exact tool id like "memory:create_entities".`);
  }
  return updateProjectConfig(workspace, (raw) => {
    if (raw.permissions === undefined) raw.permissions = {};
    const perms = raw.permissions;
    // Wrong shapes are left for validation to report with their key path.
    if (typeof perms !== "object" || perms === null || Array.isArray(perms)) return;
    const p = perms as Record<string, unknown>;
    if (p.allow === undefined) p.allow = [];
    if (Array.isArray(p.allow) && !p.allow.includes(toolId)) p.allow.push(toolId);
    if (Array.isArray(p.ask)) p.ask = p.ask.filter((x) => x !== toolId);
  });
}
