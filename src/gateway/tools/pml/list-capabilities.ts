// list_capabilities: the capabilities pml learned in this project, with usage and version.
import * as v from "valibot";
import { defineTool } from "../define-tool.ts";
import { integer, text } from "../schema.ts";
import { summary } from "../capability-records.ts";
import { jsonResult, type MetaContext } from "./context.ts";

export const listCapabilities = defineTool({
  name: "list_capabilities",
  title: "List learned capabilities",
  description: "Lists the capabilities pml learned in this project (named and unnamed_…), with usage and version.",
  annotations: { readOnlyHint: true },
  args: {
    named_only: v.optional(v.pipe(v.boolean(), v.description("leave out unnamed_… ones"))),
    namespace: v.optional(text("only this namespace, e.g. fs")),
    sort: v.optional(v.pipe(v.picklist(["name", "usage", "created"]), v.description("default name"))),
    limit: v.optional(integer(1, 200, "default 50")),
    offset: v.optional(integer(0)),
  },
  async run(args, { deps }: MetaContext) {
    const settings = await deps.project.memorySettings();
    const { total, items } = await (await deps.memory.open()).query({
      scope: settings.scope,
      named_only: args.named_only === true,
      namespace: args.namespace,
      sort: args.sort ?? "name",
      limit: args.limit ?? 50,
      offset: args.offset ?? 0,
    });
    return jsonResult({ total, items: items.map((c) => ({ ...summary(c), tools_used: c.tools_used, created_at: c.created_at })) });
  },
});
