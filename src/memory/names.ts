// Capability names (`namespace:action_target[_variant]`), their wire form (`cap__ns__action`) and
// FQDNs (`<org>.<project>.<namespace>.<action>.<hash4>`). The FQDN is for display and sharing; the
// store keys records by a stable id, since org and project can change.

export const STANDARD_NAMESPACES = ["fs", "api", "db", "transform", "git", "shell", "ai", "util"] as const;
/** pml's own in-process namespaces: a capability may not take them (its tools would be confused with pml's). */
export const RESERVED_NAMESPACES = ["cap", "dns", "meta", "learn", "unnamed", "pml"] as const;
/** Tool id / server id of capabilities in `tool_usage` and permissions (`cap:fs:read_json`). */
export const CAP_NS = "cap";
export const CAP_SERVER_ID = "pml-capabilities";

const SEGMENT = "[a-z][a-z0-9]*";
const NAME_RE = new RegExp(`^(${SEGMENT}(?:_[a-z0-9]+)*):(${SEGMENT}(?:_[a-z0-9]+)+)$`);
const UNNAMED_RE = /^unnamed_[0-9a-f]{8}$/;
/** `mcp__pml__cap__<ns>__<action>` must fit the Anthropic API's 64 characters. */
const MAX_NS_PLUS_ACTION = 64 - "mcp__pml__cap____".length;

export const NAME_FORMAT_ERROR = "Invalid capability name format. Expected: namespace:action_target";

export interface CapName {
  namespace: string;
  action: string;
}

export type NameCheck = { ok: true; name: CapName; warning?: string } | { ok: false; error: string };

/** Validates a name an agent gave; `strict` turns a non-standard namespace into an error. */
export function checkName(raw: unknown, strict = false): NameCheck {
  if (typeof raw !== "string") return { ok: false, error: `${NAME_FORMAT_ERROR} (lower snake case, e.g. fs:read_json).` };
  const m = NAME_RE.exec(raw);
  if (!m) return { ok: false, error: `${NAME_FORMAT_ERROR} (lower snake case, e.g. fs:read_json); got ${JSON.stringify(raw)}.` };
  const name = { namespace: m[1]!, action: m[2]! };
  if ((RESERVED_NAMESPACES as readonly string[]).includes(name.namespace))
    return { ok: false, error: `The namespace "${name.namespace}" is pml's own; choose another, e.g. ${STANDARD_NAMESPACES.join(", ")}.` };
  if (name.namespace.length + name.action.length > MAX_NS_PLUS_ACTION)
    return {
      ok: false,
      error: `Capability name ${raw} is too long: namespace and action together may have at most ${MAX_NS_PLUS_ACTION} characters (tool names are capped at 64).`,
    };
  if (!(STANDARD_NAMESPACES as readonly string[]).includes(name.namespace)) {
    const msg = `"${name.namespace}" is not a standard namespace (${STANDARD_NAMESPACES.join(", ")})`;
    if (strict) return { ok: false, error: `${msg}; .pml.json memory.strict_namespaces is on, so use one of those.` };
    return { ok: true, name, warning: `${msg}; consider one of those so others find it.` };
  }
  return { ok: true, name };
}

export function formatName(n: CapName): string {
  return n.namespace === "unnamed" ? n.action : `${n.namespace}:${n.action}`;
}

/**
 * A name as a caller may write it: `fs:read_json`, `fs__read_json` (the action part of the wire
 * name `cap__fs__read_json`), `cap:fs:read_json`, or an unnamed one's `unnamed_1a2b3c4d`.
 * Undefined when it cannot be a capability name.
 */
export function parseCallName(raw: string): CapName | undefined {
  let s = raw.trim();
  if (s.startsWith("cap:")) s = s.slice(4);
  else if (s.startsWith("cap__")) s = s.slice(5);
  if (UNNAMED_RE.test(s)) return { namespace: "unnamed", action: s };
  const colon = s.indexOf(":");
  const sep = colon > 0 ? colon : s.indexOf("__");
  if (sep <= 0) return undefined;
  const namespace = s.slice(0, sep);
  const action = s.slice(sep + (colon > 0 ? 1 : 2));
  if (!/^[a-z][a-z0-9_]*$/.test(namespace) || !/^[a-z][a-z0-9_]*$/.test(action)) return undefined;
  return { namespace, action };
}

/** The wire name a named capability is listed under. */
export function capWireName(n: CapName): string {
  return `${CAP_NS}__${n.namespace}__${n.action}`;
}

// --- FQDNs ---

/** An org or project as an FQDN label: lower case, dots and other separators become "-". */
export function scopeLabel(raw: string, fallback: string): string {
  const s = raw
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+|-+$/g, "");
  return s || fallback;
}

export function makeFqdn(org: string, project: string, n: CapName, codeHash: string): string {
  return `${org}.${project}.${n.namespace}.${n.action}.${codeHash.slice(0, 4)}`;
}
