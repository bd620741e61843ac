// dns:rename: a capability under a new name; the old one stays as a deprecated alias.
import { capWireName } from "../../../memory/names.ts";
import { defineTool } from "../define-tool.ts";
import { nonBlank } from "../schema.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";

export const rename = defineTool({
  name: "rename",
  description: 'Renames a capability: {name: "fs:read_json", newName: "json:read_file"}. The old name keeps working as a deprecated alias.',
  args: { name: nonBlank("the current (or an old) name"), newName: nonBlank("namespace:action_target") },
  async run({ name, newName }, { deps, settings }: StdlibContext) {
    const done = await deps.memory.rename(settings, name, newName);
    return {
      renamed: done.old,
      to: done.capability.display_name,
      fqdn: done.capability.fqdn,
      tool: capWireName(done.capability),
      note: `${done.old} keeps working as a deprecated alias of ${done.capability.display_name}.`,
      ...(done.warning ? { warnings: [done.warning] } : {}),
    };
  },
});
