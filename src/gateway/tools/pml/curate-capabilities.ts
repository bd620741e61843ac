// curate_capabilities: names for the capabilities a busy day left as unnamed_… (see curate.ts).
import { curate } from "../curate.ts";
import { defineTool } from "../define-tool.ts";
import { CURATE_DESCRIPTION, curateArgs } from "../curate-args.ts";
import { jsonResult, type MetaContext } from "./context.ts";

export const curateCapabilities = defineTool({
  name: "curate_capabilities",
  title: "Name learned capabilities",
  description: CURATE_DESCRIPTION,
  args: curateArgs,
  async run(args, { deps, req }: MetaContext) {
    const settings = await deps.project.memorySettings();
    return jsonResult(await curate(deps, settings, args, { signal: req.signal, origin: req.origin }));
  },
});
