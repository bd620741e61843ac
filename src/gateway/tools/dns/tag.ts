// dns:tag: adds and removes a capability's tags.
import * as v from "valibot";
import { currentUser } from "../../../memory/memory.ts";
import { ToolError } from "../../../mcp/tool-result.ts";
import { defineTool } from "../define-tool.ts";
import { filled, nonBlank } from "../schema.ts";
import { resolveCapability } from "../capability-records.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";

const normal = (tags: string[] | undefined) => (tags ?? []).map((t) => t.trim().toLowerCase());

export const tag = defineTool({
  name: "tag",
  description: 'Adds and removes tags of a capability: {name, add: ["json"], remove: ["old"]}.',
  args: { name: nonBlank("e.g. fs:read_json"), add: v.optional(v.array(filled())), remove: v.optional(v.array(filled())) },
  async run(args, { deps, settings }: StdlibContext) {
    const { capability } = await resolveCapability(deps, settings, args.name);
    const add = normal(args.add);
    const remove = normal(args.remove);
    if (!add.length && !remove.length) throw new ToolError('Give "add" and/or "remove": arrays of tags.');
    const c = await (await deps.memory.open()).tag(capability.id, add, remove, currentUser());
    return { name: c.display_name, tags: c.tags };
  },
});
