// What `execute` checks before running code it may keep: the name, the parameters schema and the
// version asked for, so that a taken name or a bad version costs no run.
import { codeHash } from "./code-hash.ts";
import type { MemorySettings } from "./memory-settings.ts";
import { checkName, formatName, type CapName } from "./names.ts";
import { userScopeOf, type CapabilityStore, type Scope } from "./store.ts";
import { isGreater, SEMVER_RE } from "./versions.ts";

export type CapturePlan =
  | { ok: false; error: string }
  | {
      ok: true;
      capture: boolean;
      /** Where the run is kept: the user's scope when asked for, else (also when absent) the workspace's. */
      scope?: Scope;
      name?: CapName;
      hash: string;
      warnings: string[];
      schema?: Record<string, unknown>;
      /** `update: true` on a name that exists: the run becomes a new version of that record. */
      update?: { id: string };
      versionTag?: string;
      changeSummary?: string;
    };

/** As the tools' schemas (`execute`, `learn:save`) give them: their types are checked there. */
export interface CaptureRequest {
  code: string;
  name?: string;
  parameters?: Record<string, unknown>;
  update?: boolean;
  version_tag?: string;
  change_summary?: string;
  /** "workspace" (the default) or "user": the user's scope, which every workspace reads, is
   * written only when a save asks for it. */
  scope?: "workspace" | "user";
}

/** The store is opened only when a name has to be looked up (`open` is called at most once). */
export async function planCapture(open: () => Promise<CapabilityStore>, settings: MemorySettings, input: CaptureRequest): Promise<CapturePlan> {
  const warnings: string[] = [];
  const hash = codeHash(input.code);
  const scope = input.scope === "user" ? userScopeOf(settings.scope) : settings.scope;
  let name: CapName | undefined;
  if (input.name !== undefined) {
    const checked = checkName(input.name, settings.strictNamespaces);
    if (!checked.ok) return { ok: false, error: checked.error };
    if (checked.warning) warnings.push(checked.warning);
    name = checked.name;
  }
  let schema: Record<string, unknown> | undefined;
  if (input.parameters !== undefined) {
    const p = input.parameters;
    if (p.type !== undefined && p.type !== "object")
      return {
        ok: false,
        error: '"parameters" must be a JSON Schema for the args object, e.g. {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}.',
      };
    schema = { type: "object", ...p };
  }
  if (!settings.capture) {
    if (name) warnings.push(`Not saved as ${formatName(name)}: .pml.json memory.capture is false.`);
    return { ok: true, capture: false, scope, hash, warnings };
  }
  if (input.version_tag !== undefined && !SEMVER_RE.test(input.version_tag)) return { ok: false, error: '"version_tag" must be a version like "1.2.0".' };
  const versionTag = input.version_tag;
  const changeSummary = input.change_summary;
  if (!name) return { ok: true, capture: true, scope, hash, warnings, schema };
  const store = await open();
  // Only the scope's own records: a name read from the user's scope is not updated from here.
  const held = await store.resolveOwn(scope, name);
  if (held && input.update === true) {
    if (held.alias) return { ok: false, error: `${formatName(name)} is an old name of ${held.capability.display_name}; update ${held.capability.display_name} instead.` };
    if (versionTag && !isGreater(versionTag, held.capability.version_tag))
      return {
        ok: false,
        error: `version_tag ${versionTag} is not greater than ${formatName(name)}'s current ${held.capability.version_tag}; versions are immutable, so give a greater one (or none). Nothing was run.`,
      };
    return { ok: true, capture: true, scope, name, hash, warnings, schema, update: { id: held.capability.id }, versionTag, changeSummary };
  }
  if (held && held.capability.code_hash !== hash)
    return {
      ok: false,
      error: `Capability name '${formatName(name)}' already exists. Choose another name, pass "update": true to save this code as its new version, or call it with execute {capability: "${formatName(name)}"}. Nothing was run.`,
    };
  return { ok: true, capture: true, scope, name, hash, warnings, schema };
}
