import { defineCommand } from "citty";

export default defineCommand({
  meta: {
    name: "try",
    description: "See what pml does in a few seconds, without an AI client: a throwaway workspace, a real `pml stdio`, each step narrated (offline)",
  },
  args: {
    json: { type: "boolean", description: "print each step as a JSON line (for scripts)" },
    keep: { type: "boolean", description: "keep the throwaway workspace (and the temporary PML_HOME) to look at afterwards" },
    home: { type: "string", description: "the PML_HOME to use (kept); default a temporary one, never your ~/.pml" },
  },
  async run({ args }) {
    const { runTour } = await import("../tour/tour.ts");
    process.exitCode = await runTour({ json: Boolean(args.json), keep: Boolean(args.keep), home: args.home || undefined });
  },
});
