// dns:fork: a copy of a capability under another name, remembering where it came from.
import { checkName } from "../../../memory/names.ts";
import { ToolError } from "../../../mcp/tool-result.ts";
import { defineTool } from "../define-tool.ts";
import { nonBlank } from "../schema.ts";
import { resolveCapability, summary } from "../capability-records.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";

export const fork = defineTool({
  name: "fork",
  description: "Copies a capability into another name in this project (it remembers forked_from): {name, newName}.",
  args: { name: nonBlank("the capability to copy (a name or an FQDN)"), newName: nonBlank("namespace:action_target") },
  async run(args, { deps, settings }: StdlibContext) {
    const { capability } = await resolveCapability(deps, settings, args.name);
    const checked = checkName(args.newName, settings.strictNamespaces);
    if (!checked.ok) throw new ToolError(checked.error);
    const c = await deps.memory.fork(settings, capability.id, checked.name);
    return { ...summary(c), forked_from: capability.fqdn, ...(checked.warning ? { warnings: [checked.warning] } : {}) };
  },
});
