// Capability versions: semver tags chosen from what changed, and the specifiers callers use to
// pick one (`fs:read_json@v1`, `@v1.2.0`, `@2026-11-22`, `@latest`).

export interface VersionInfo {
  version_tag: string;
  created_at: string;
}

/** Why a new version gets the tag it gets. */
export type Bump = "major" | "minor" | "patch";

interface Schema {
  properties?: Record<string, { type?: unknown }>;
  required?: string[];
}

/** major: a required parameter added, or one removed or retyped; minor: other code changes; patch: metadata. */
export function bumpFor(oldSchema: Record<string, unknown>, newSchema: Record<string, unknown>, codeChanged: boolean): { bump: Bump; why: string } {
  const o = oldSchema as Schema;
  const n = newSchema as Schema;
  const oldProps = o.properties ?? {};
  const newProps = n.properties ?? {};
  for (const k of Object.keys(oldProps)) {
    if (!(k in newProps)) return { bump: "major", why: `parameter "${k}" removed` };
    const a = JSON.stringify(oldProps[k]?.type ?? null);
    const b = JSON.stringify(newProps[k]?.type ?? null);
    if (a !== b) return { bump: "major", why: `parameter "${k}" retyped from ${a} to ${b}` };
  }
  const oldRequired = new Set(o.required ?? []);
  for (const k of n.required ?? []) if (!oldRequired.has(k)) return { bump: "major", why: `parameter "${k}" is now required` };
  if (codeChanged) return { bump: "minor", why: "code changed" };
  return { bump: "patch", why: "metadata changed" };
}

export function nextTag(current: string, bump: Bump): string {
  const [ma, mi, pa] = current.split(".").map(Number) as [number, number, number];
  if (bump === "major") return `${ma + 1}.0.0`;
  if (bump === "minor") return `${ma}.${mi + 1}.0`;
  return `${ma}.${mi}.${pa + 1}`;
}

export const SEMVER_RE = /^\d+\.\d+\.\d+$/;

export function isGreater(a: string, b: string): boolean {
  return Bun.semver.order(a, b) === 1;
}

/** `name@spec` -> {name, spec}; spec undefined means latest. */
export function splitSpecifier(raw: string): { name: string; spec?: string } {
  const at = raw.lastIndexOf("@");
  if (at <= 0) return { name: raw };
  const spec = raw.slice(at + 1);
  return { name: raw.slice(0, at), spec: spec === "latest" || spec === "" ? undefined : spec };
}

export type SpecifierCheck = { ok: true } | { ok: false; error: string };

export function checkSpecifier(spec: string): SpecifierCheck {
  if (/^v\d+$/.test(spec) || /^v\d+\.\d+\.\d+$/.test(spec) || isDate(spec)) return { ok: true };
  return { ok: false, error: `Unknown version specifier "@${spec}". Use @v1 (newest 1.x), @v1.2.0 (exact), @2026-11-22 (current at the end of that UTC day) or @latest.` };
}

function isDate(spec: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(spec) && !Number.isNaN(Date.parse(`${spec}T00:00:00Z`));
}

/** The version a specifier picks among `versions` (any order); undefined when none matches. */
export function pickVersion<V extends VersionInfo>(versions: readonly V[], spec: string | undefined): V | undefined {
  const byTag = [...versions].sort((a, b) => Bun.semver.order(b.version_tag, a.version_tag));
  if (spec === undefined) return byTag[0];
  if (/^v\d+$/.test(spec)) {
    const major = spec.slice(1);
    return byTag.find((v) => v.version_tag.split(".")[0] === major);
  }
  if (/^v\d+\.\d+\.\d+$/.test(spec)) return versions.find((v) => v.version_tag === spec.slice(1));
  if (isDate(spec)) {
    // The one that was latest at the end of that UTC day.
    const end = `${spec}T23:59:59.999Z`;
    return byTag.find((v) => v.created_at <= end);
  }
  return undefined;
}
