// learn:feedback: a capability run pml could not see, counted.
import * as v from "valibot";
import { defineTool } from "../define-tool.ts";
import { nonBlank } from "../schema.ts";
import { resolveCapability, summary } from "../capability-records.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";

export const feedback = defineTool({
  name: "feedback",
  description: "Reports how a capability run went when pml could not see it (e.g. its result was wrong): {name, success, latency_ms}.",
  args: { name: nonBlank("e.g. fs:read_json"), success: v.boolean(), latency_ms: v.optional(v.pipe(v.number(), v.minValue(0))) },
  async run(args, { deps, settings }: StdlibContext) {
    const { capability } = await resolveCapability(deps, settings, args.name);
    await deps.memory.recordRun(capability.id, args.success, args.latency_ms ?? 0);
    const c = (await (await deps.memory.open()).byId(capability.id))!;
    return summary(c);
  },
});
