// dns:history: a capability's versions with the diff of each against the one before.
import { splitSpecifier } from "../../../memory/versions.ts";
import { defineTool } from "../define-tool.ts";
import { nonBlank } from "../schema.ts";
import { resolveCapability } from "../capability-records.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";

export const history = defineTool({
  name: "history",
  description: "A capability's versions, newest first, each with its change summary and a unified diff of the code against the version before.",
  args: { name: nonBlank("e.g. fs:read_json") },
  async run({ name }, { deps, settings }: StdlibContext) {
    const { capability: c } = await resolveCapability(deps, settings, splitSpecifier(name).name);
    const versions = await deps.memory.versions(c.id);
    const { createTwoFilesPatch } = await import("diff");
    return {
      name: c.display_name,
      versions: versions.map((v, i) => {
        const prev = versions[i + 1];
        return {
          version: v.version_tag,
          created_at: v.created_at,
          created_by: v.created_by,
          change_summary: v.change_summary,
          diff: prev
            ? createTwoFilesPatch(`${c.display_name}@${prev.version_tag}`, `${c.display_name}@${v.version_tag}`, `${prev.code}\n`, `${v.code}\n`, "", "", { context: 3 })
            : null,
        };
      }),
    };
  },
});
