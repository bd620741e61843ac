import { defineCommand } from "citty";

export default defineCommand({
  meta: { name: "doctor", description: "Check this project's pml setup and say what to fix" },
  args: {
    dir: { type: "string", description: "project directory (default: the detected workspace)" },
    "check-update": { type: "boolean", description: "ask the release page whether a newer pml is out (otherwise only the last answer is shown)" },
  },
  async run({ args }) {
    if (args.dir !== undefined) {
      const { statSync } = await import("node:fs");
      const st = statSync(args.dir, { throwIfNoEntry: false });
      if (!st?.isDirectory()) {
        process.stderr.write(`pml doctor: --dir ${args.dir}: ${st ? "is not a directory" : "no such directory"}; give the project's folder.\n`);
        process.exit(2);
      }
    }
    const { runDoctor } = await import("../gateway/tools/doctor.ts");
    const { visibleLine } = await import("../visible-text.ts");
    const checks = await runDoctor({ cwd: args.dir, checkUpdate: args["check-update"] });
    // A detail quotes .pml.json, .mcp.json, .env and a release page: escaped (visible-text.ts), and
    // a second line indented, so no text of theirs can erase a line or pass for a check of its own.
    const shown = (detail: string) => detail.split("\n").map(visibleLine).join("\n      ");
    for (const c of checks) process.stdout.write(`${c.warn ? "warn" : c.ok ? "ok  " : "FAIL"}  ${c.name}: ${shown(c.detail)}\n`);
    if (checks.some((c) => !c.ok && !c.warn)) process.exitCode = 1;
  },
});
