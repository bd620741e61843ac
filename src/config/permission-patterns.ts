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
