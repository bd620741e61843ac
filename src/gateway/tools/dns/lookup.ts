// dns:lookup: a name to its record, a capability's or an MCP server's (mcp:<namespace>).
import { defineTool } from "../define-tool.ts";
import { nonBlank } from "../schema.ts";
import { resolveCapability, summary } from "../capability-records.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";
import { serverRecord } from "./server-record.ts";

export const lookup = defineTool({
  name: "lookup",
  description: "Looks a name up: a capability (fs:read_json, fs:read_json@v1) or an MCP server (mcp:memory, mcp:memory@v2026.8.31).",
  args: { name: nonBlank("capability name (with an optional @version), or mcp:<namespace>") },
  async run({ name }, { deps, settings, call }: StdlibContext) {
    if (name.startsWith("mcp:")) return serverRecord(deps, name, call.signal);
    const found = await resolveCapability(deps, settings, name);
    const c = found.capability;
    return {
      record_type: c.record_type,
      fqdn: c.fqdn,
      display_name: c.display_name,
      description: c.description || c.intent,
      usage_count: c.usage_count,
      success_rate: summary(c).success_rate,
      version: found.version ?? c.version_tag,
      pinned: c.pinned,
      // The kinds of value its current code has returned (what discover checks a request for an amount against).
      ...(c.returns.length ? { returns: c.returns } : {}),
      ...(c.deprecated ? { deprecated: c.deprecated } : {}),
      ...(found.alias ? { deprecation: `${found.alias} is an old name of ${c.display_name}` } : {}),
    };
  },
});
