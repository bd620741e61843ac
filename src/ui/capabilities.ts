// The Capabilities view: the list (usage, success rate, last use), search ranked by the memory
// layer's own discovery (the ranking `discover` gives), and one capability in full: code,
// parameters, versions and a diff between any two, aliases, tags and its calls over time.
import { capKey } from "../memory/discover-state.ts";
import { capWireName } from "../memory/names.ts";
import type { Capability } from "../memory/store.ts";
import type { UiContext } from "./context.ts";
import { lineDiff } from "./line-diff.ts";

export function listed(c: Capability) {
  return {
    name: c.display_name,
    tool: c.named ? capWireName(c) : undefined,
    description: c.description || c.intent,
    version: c.version_tag,
    tags: c.tags,
    pinned: c.pinned,
    deprecated: c.deprecated,
    usage_count: c.usage_count,
    success_rate: c.usage_count ? c.success_count / c.usage_count : null,
    last_used_at: c.last_used_at,
    owner: c.owner,
  };
}

/** Every named capability this workspace reads, or with `query` those discovery ranks, best first. */
export async function capabilities(ctx: UiContext, query?: string) {
  const settings = await ctx.project.memorySettings();
  const all = await ctx.memory.listNamed(settings);
  if (!query?.trim()) return { items: all.map(listed) };
  const byName = new Map(all.map((c) => [c.display_name, c]));
  const found = await ctx.memory.discover(settings, query, [], 50);
  const items = found.results.flatMap((f) => {
    const c = f.kind === "capability" ? byName.get(f.id) : undefined;
    return c ? [{ ...listed(c), score: f.score }] : [];
  });
  return { items, ...(found.warning ? { warning: found.warning } : {}) };
}

/** One capability by any of its names; undefined when it is not one this workspace reads. */
export async function capability(ctx: UiContext, name: string) {
  const settings = await ctx.project.memorySettings();
  const found = await ctx.memory.resolve(settings, name);
  if (!found) return undefined;
  const c = found.capability;
  const store = await ctx.memory.open();
  const [versions, aliases, associations] = await Promise.all([store.versions(c.id), store.aliasesOf(c.id), store.associations(settings.scope.owner)]);
  // A capability's calls are logged under the name it was called by (the invoker's tool id).
  const toolIds = [c.display_name, ...aliases].map((n) => `cap:${n}`);
  const usage = await store.usageLog({ tool_ids: toolIds, limit: 5000 });
  return {
    ...listed(c),
    fqdn: c.fqdn,
    intent: c.intent,
    code: c.code,
    parameters: c.parameters_schema,
    tools_used: c.tools_used,
    created_by: c.created_by,
    created_at: c.created_at,
    updated_at: c.updated_at,
    aliases,
    // The words that led to a successful call of it in this workspace (discover learns from them).
    found_by: associations
      .filter((a) => a.item_key === capKey(c.id))
      .sort((a, b) => b.count - a.count)
      .slice(0, 20)
      .map((a) => ({ query: a.query, count: Math.round(a.count * 10) / 10, last_at: a.last_at })),
    // Oldest first: the page diffs the last two by default.
    versions: [...versions]
      .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0))
      .map((v) => ({ tag: v.version_tag, summary: v.change_summary, by: v.created_by, at: v.created_at })),
    usage: usage.map((u) => ({ second: u.second, calls: u.calls, errors: u.calls - u.successes })),
  };
}

/** The line diff of two of its versions (tags as `versions` lists them). */
export async function versionDiff(ctx: UiContext, name: string, from: string, to: string) {
  const settings = await ctx.project.memorySettings();
  const found = await ctx.memory.resolve(settings, name);
  if (!found) return undefined;
  const versions = await ctx.memory.versions(found.capability.id);
  const a = versions.find((v) => v.version_tag === from);
  const b = versions.find((v) => v.version_tag === to);
  if (!a || !b) return { error: `No version ${!a ? from : to} of ${found.capability.display_name}; its versions: ${versions.map((v) => v.version_tag).join(", ")}.` };
  return { from, to, lines: lineDiff(a.code, b.code) };
}
