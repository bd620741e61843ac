// learn:curate: curate_capabilities in the standard library (names for unnamed_… capabilities).
import { curate as curateNames } from "../curate.ts";
import { defineTool } from "../define-tool.ts";
import { CURATE_DESCRIPTION, curateArgs } from "../curate-args.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";

export const curate = defineTool({
  name: "curate",
  description: CURATE_DESCRIPTION,
  args: curateArgs,
  async run(args, { deps, settings, call }: StdlibContext) {
    return curateNames(deps, settings, args, { signal: call.signal, origin: call.origin });
  },
});
