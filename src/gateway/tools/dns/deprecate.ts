// dns:deprecate: a capability the user wants used no more, without breaking what calls it: it stays
// callable (each result then says so, with the replacement), leaves tools/list unless pinned, and
// discover ranks it after the rest. `deprecated: false` takes it back.
import * as v from "valibot";
import type { MemorySettings } from "../../../memory/memory.ts";
import { capWireName } from "../../../memory/names.ts";
import { ToolError } from "../../../mcp/tool-result.ts";
import { defineTool } from "../define-tool.ts";
import { nonBlank } from "../schema.ts";
import { nearName, resolveCapability } from "../capability-records.ts";
import type { StdlibContext, StdlibDeps } from "../stdlib-namespace.ts";

/** Both are shown wherever the capability is (tools/list is not, discover's one-line answer is). */
const REASON_MAX = 200;
const oneLine = (what: string, max: number) =>
  v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(max, `must be at most ${max} characters`), v.regex(/^[^\n\r]*$/, "must be one line"), v.description(what));

export const deprecate = defineTool({
  name: "deprecate",
  description:
    'Deprecates a capability: {name: "fs:read_json", reason?, replacement?: "json:read_file"}. It keeps working (each call then names the replacement), leaves tools/list unless pinned, and discover ranks it last. {name, deprecated: false} undoes it.',
  args: {
    name: nonBlank("e.g. fs:read_json"),
    reason: v.optional(oneLine("why, in one line", REASON_MAX)),
    replacement: v.optional(oneLine("the capability (or tool id) to use instead", 120)),
    deprecated: v.optional(v.pipe(v.boolean(), v.description("false takes the deprecation off (default true)")), true),
  },
  async run({ name, reason, replacement, deprecated }, { deps, settings }: StdlibContext) {
    const { capability } = await resolveCapability(deps, settings, name);
    if (!capability.named)
      throw new ToolError(`${capability.display_name} has no name: name it (dns:rename {name, newName}) or leave it; unnamed capabilities are not listed anyway.`);
    if (!deprecated) {
      if (reason !== undefined || replacement !== undefined) throw new ToolError('"reason" and "replacement" go with a deprecation, not with deprecated: false.');
      const c = capability.deprecated ? await deps.memory.setDeprecated(capability.id, null) : capability;
      return { name: c.display_name, deprecated: false, tool: capWireName(c), note: "Not deprecated: it is listed and ranked like any other capability again." };
    }
    const instead = replacement === undefined ? undefined : await replacementName(deps, settings, replacement, capability.id);
    const c = await deps.memory.setDeprecated(capability.id, { ...(reason ? { reason } : {}), ...(instead ? { replacement: instead } : {}) });
    return {
      name: c.display_name,
      deprecated: c.deprecated,
      tool: capWireName(c),
      note: `${c.display_name} still runs${instead ? `; each call says to call ${instead} instead` : ""}. tools/list leaves it out${c.pinned ? " once unpinned (it is pinned)" : ""}, and discover ranks it after the others.`,
    };
  },
});

/** The replacement as it will be called: a capability of this scope by its current name, or a
 * tool pml knows; anything else is refused (a deprecation pointing nowhere helps no one). */
async function replacementName(deps: Pick<StdlibDeps, "memory" | "backends">, settings: MemorySettings, raw: string, self: string): Promise<string> {
  const found = await deps.memory.resolve(settings, raw).catch(() => undefined);
  if (found) {
    if (found.capability.id === self) throw new ToolError(`${raw} is the capability being deprecated: give another one as "replacement".`);
    return found.capability.display_name;
  }
  // A page's action has no backends (no session): only capabilities are checked there.
  const tools = deps.backends?.allKnownTools().map(({ ns, tool }) => `${ns}:${tool.name}`) ?? [];
  if (tools.includes(raw)) return raw;
  throw new ToolError(`No capability or tool ${raw} to use instead.${await nearName(deps, settings, raw)} Give an existing capability name (dns:query lists them) or tool id.`);
}
