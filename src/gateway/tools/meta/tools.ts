// meta:tools: every tool pml knows without starting anything, by namespace.
import * as v from "valibot";
import { defineTool } from "../define-tool.ts";
import { text } from "../schema.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";

export const tools = defineTool({
  name: "tools",
  description: "Every tool pml knows without starting anything, by namespace.",
  args: { namespace: v.optional(text("only this namespace")) },
  async run({ namespace }, { deps }: StdlibContext) {
    // A Map: a namespace may be any name, "constructor" too.
    const byNs = new Map<string, string[]>();
    for (const { ns, tool } of deps.backends.allKnownTools()) {
      if (namespace && ns !== namespace) continue;
      let names = byNs.get(ns);
      if (!names) byNs.set(ns, (names = []));
      names.push(tool.name);
    }
    return { namespaces: Object.fromEntries(byNs) };
  },
});
