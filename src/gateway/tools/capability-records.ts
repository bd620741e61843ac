// A learned capability as the standard library and list_capabilities show it, and the lookup
// by name or FQDN they share.
import { deprecationNote } from "../../memory/found.ts";
import type { Memory, MemorySettings } from "../../memory/memory.ts";
import { capWireName } from "../../memory/names.ts";
import type { Capability } from "../../memory/store.ts";
import { ToolError } from "../../mcp/tool-result.ts";
import { closest } from "../dispatch/did-you-mean.ts";

/** A capability as short results show it. */
export function summary(c: Capability) {
  return {
    name: c.display_name,
    fqdn: c.fqdn,
    description: c.description || c.intent,
    version: c.version_tag,
    usage_count: c.usage_count,
    success_rate: c.usage_count ? Math.round((c.success_count / c.usage_count) * 1000) / 1000 : null,
    ...(c.named ? { tool: capWireName(c) } : {}),
    ...(c.deprecated ? { deprecated: deprecationNote(c.deprecated) } : {}),
  };
}

/** What finding a capability by name reads. */
type Records = { memory: Pick<Memory, "resolve" | "listNamed"> };

/** The capability a name (with an optional @version), an old name or an FQDN points at. */
export async function resolveCapability(deps: Records, settings: MemorySettings, raw: string) {
  const found = await deps.memory.resolve(settings, raw);
  if (!found) throw new ToolError(`Capability not found: ${raw}.${await nearName(deps, settings, raw)}`);
  return found;
}

/** " Did you mean fs:read_json?" for a name a letter or two off one of the scope's, else "". */
export async function nearName(deps: Records, settings: MemorySettings, raw: string): Promise<string> {
  const names = (await deps.memory.listNamed(settings).catch(() => [])).map((c) => c.display_name);
  const near = closest(raw.replace(/@.*$/, "").trim(), names);
  return near ? ` Did you mean ${near}?` : "";
}
