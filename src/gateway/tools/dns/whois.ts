// dns:whois: the whole record behind an FQDN or a name.
import { defineTool } from "../define-tool.ts";
import { nonBlank } from "../schema.ts";
import { resolveCapability } from "../capability-records.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";

export const whois = defineTool({
  name: "whois",
  description: "The whole record behind an FQDN (or a name): code, schema, defaults, tools used, routing, tags, visibility, authorship, counters, aliases, versions.",
  args: { fqdn: nonBlank("e.g. local.myproject.fs.read_json.0fc0 (a name also works)") },
  async run({ fqdn }, { deps, settings }: StdlibContext) {
    const { capability: c } = await resolveCapability(deps, settings, fqdn);
    const versions = await deps.memory.versions(c.id);
    const aliases = await (await deps.memory.open()).aliasesOf(c.id);
    return { ...c, aliases, versions: versions.map((v) => ({ version: v.version_tag, created_at: v.created_at, created_by: v.created_by, change_summary: v.change_summary })) };
  },
});
