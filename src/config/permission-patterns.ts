// Permission patterns: "*", "ns", "ns:*", "ns:action". Tool ids are "ns:action"; clients see wire names "ns__action" (src/mcp/tool-names.ts).
export type Decision = "allow" | "ask" | "deny";

export interface Permissions {
  allow?: readonly string[];
  ask?: readonly string[];
  deny?: readonly string[];
}

// Every namespace form the resolver accepts: registry names have dots ("acme.greet"); capability
// ids have a colon inside the action ("cap:fs:read_json").
const NS = "[A-Za-z0-9_-][A-Za-z0-9_.-]*";
const ACTION = "[A-Za-z0-9_.-][A-Za-z0-9_.:-]*";
const PATTERN_RE = new RegExp(`^(\\*|${NS}|${NS}:\\*|${NS}:${ACTION})$`);
const TOOL_ID_RE = new RegExp(`^${NS}:${ACTION}$`);

export const PATTERN_HINT = `a permission pattern like "ns:action", "ns:*", "ns" or "*"`;

export function isPermissionPattern(value: string): boolean {
  return PATTERN_RE.test(value);
}

/** An exact tool id ("ns:action"), the only thing "always" may add. */
export function isToolId(value: string): boolean {
  return TOOL_ID_RE.test(value);
}

/** 2 = exact tool, 1 = whole namespace ("ns" or "ns:*"), 0 = "*", -1 = no match. */
export function patternSpecificity(pattern: string, toolId: string): number {
  if (pattern === "*") return 0;
  const colon = toolId.indexOf(":");
  const ns = colon < 0 ? toolId : toolId.slice(0, colon);
  if (pattern === ns || pattern === `${ns}:*`) return 1;
  if (pattern === toolId) return 2;
  return -1;
}

const STRICTNESS: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };

/** Most specific matching pattern wins (exact > namespace > "*"); among equally specific ones
 * the strictest (deny > ask > allow); no match -> `fallback` (ask). */
export function permissionFor(perms: Permissions | undefined, toolId: string, fallback: Decision = "ask"): Decision {
  let best: { spec: number; decision: Decision } | undefined;
  for (const decision of ["allow", "ask", "deny"] as const) {
    for (const pattern of perms?.[decision] ?? []) {
      const spec = patternSpecificity(pattern, toolId);
      if (spec < 0) continue;
      if (!best || spec > best.spec || (spec === best.spec && STRICTNESS[decision] > STRICTNESS[best.decision])) {
        best = { spec, decision };
      }
    }
  }
  return best?.decision ?? fallback;
}

/** The permissions with only the allow patterns that name `toolId` exactly (deny and ask whole). */
export function exactAllows(perms: Permissions, toolId: string): Permissions {
  return { ...perms, allow: (perms.allow ?? []).filter((p) => patternSpecificity(p, toolId) === 2) };
}
