// dns:query: capabilities by creator, tags, visibility, namespace and words.
import * as v from "valibot";
import { VISIBILITIES } from "../../../memory/store.ts";
import { defineTool } from "../define-tool.ts";
import { filled, integer, text } from "../schema.ts";
import { summary } from "../capability-records.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";

/** dns:query counts matches up to this many; beyond, `total_at_least` says the total is a floor
 * (counting 25k matches cost as much as the query itself at 100k records). */
const QUERY_COUNT_LIMIT = 1000;

export const query = defineTool({
  name: "query",
  description: "Finds capabilities by creator (glob: ali*), tags (all must match), visibility, namespace and words (text).",
  args: {
    created_by: v.optional(text("glob on the creator, e.g. ali*")),
    tags: v.optional(v.array(filled())),
    visibility: v.optional(v.picklist(VISIBILITIES)),
    namespace: v.optional(text("e.g. fs")),
    text: v.optional(text("words in the name, description or intent")),
    limit: v.optional(integer(1, 200)),
    offset: v.optional(integer(0)),
  },
  async run(args, { deps, settings }: StdlibContext) {
    const store = await deps.memory.open();
    const { total, total_at_least, items } = await store.query({
      scope: settings.scope,
      count_limit: QUERY_COUNT_LIMIT,
      created_by: args.created_by,
      tags: args.tags ?? [],
      visibility: args.visibility,
      namespace: args.namespace,
      text: args.text,
      limit: args.limit ?? 50,
      offset: args.offset ?? 0,
    });
    const out = items.map((c) => ({ ...summary(c), tags: c.tags, created_by: c.created_by, visibility: c.visibility }));
    return total_at_least ? { total, total_at_least, items: out } : { total, items: out };
  },
});
