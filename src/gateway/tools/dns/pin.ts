// dns:pin: keeps a capability in tools/list whatever was used since (memory.list_tools bounds the
// list; pinned ones come first), or takes the pin off.
import * as v from "valibot";
import { capWireName } from "../../../memory/names.ts";
import { ToolError } from "../../../mcp/tool-result.ts";
import { defineTool } from "../define-tool.ts";
import { nonBlank } from "../schema.ts";
import { resolveCapability } from "../capability-records.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";

export const pin = defineTool({
  name: "pin",
  description:
    'Pins a capability so tools/list always carries it (pinned ones come first; .pml.json memory.list_tools bounds the list): {name: "fs:read_json"}; {name, pinned: false} unpins.',
  args: { name: nonBlank("e.g. fs:read_json"), pinned: v.optional(v.pipe(v.boolean(), v.description("false takes the pin off (default true)")), true) },
  async run({ name, pinned }, { deps, settings }: StdlibContext) {
    const { capability } = await resolveCapability(deps, settings, name);
    if (!capability.named) throw new ToolError(`${capability.display_name} has no name, so it is not a tool to list: name it first (dns:rename {name, newName}), then pin it.`);
    const c = capability.pinned === pinned ? capability : await deps.memory.setPinned(capability.id, pinned);
    const limit = settings.listTools;
    return {
      name: c.display_name,
      pinned: c.pinned,
      tool: capWireName(c),
      note: pinned
        ? limit === 0
          ? "Pinned, but memory.list_tools is 0 in .pml.json: tools/list carries no capability."
          : `tools/list carries it before unpinned capabilities${limit === undefined ? "" : ` (up to ${limit} capabilities in all, memory.list_tools)`}.`
        : "Unpinned: it stays in tools/list only while it is among the most recently used.",
    };
  },
});
