import { defineCommand } from "citty";

export default defineCommand({
  meta: {
    name: "trust",
    description: "Show what this workspace's .pml.json grants (commands, URLs, variables, patterns) and trust it; until then only what restricts applies",
  },
  args: {
    dir: { type: "string", description: "the workspace (default: the detected one)" },
    yes: { type: "boolean", description: "trust without asking (scripts, CI)" },
    revoke: { type: "boolean", description: "forget the trust: the file's grants stop applying" },
  },
  async run({ args }) {
    const { resolveWorkspace } = await import("../config/workspace.ts");
    const { reviewTrust, revoke, trustAll } = await import("../policy/trust/review.ts");
    const { visibleLine } = await import("../visible-text.ts");
    const workspace = resolveWorkspace({ cwd: args.dir }).root;
    if (args.revoke) {
      const had = revoke(workspace);
      process.stderr.write(had ? `pml trust: revoked; what ${workspace}/.pml.json grants no longer applies.\n` : `pml trust: ${workspace} was not trusted; nothing to revoke.\n`);
      return;
    }
    const review = await reviewTrust(workspace);
    const say = (line = "") => process.stderr.write(`${line}\n`);
    if (!review.exists && !review.untrusted.length) {
      await trustAll(review);
      return say(`pml trust: ${workspace} has no .pml.json (pml's defaults apply); trusted, so it may write your user-scope capabilities.`);
    }
    if (review.exists) say(visibleLine(review.file));
    if (review.trusted.length) {
      say("Already trusted:");
      for (const g of review.trusted) say(`  ${g.text}`);
    }
    if (!review.untrusted.length) return say(review.trusted.length ? "Everything it grants is trusted." : "It grants nothing (it only restricts): nothing to trust.");
    say(review.recorded ? "Added since you last trusted it (not applied until you trust it):" : "It grants (not applied until you trust it):");
    for (const g of review.untrusted) say(`  ${g.text}`);
    if (!args.yes && !(await confirm())) {
      process.exitCode = 1;
      return say(process.stdin.isTTY ? "Not trusted; nothing changed." : "Not trusted: stdin is not a terminal; run `pml trust --yes` to trust it.");
    }
    await trustAll(review);
    say(`Trusted (recorded in ${review.record}). An edit that adds a grant needs \`pml trust\` again.`);
  },
});

async function confirm(): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return /^y(es)?$/i.test((await rl.question("Trust it? [y/N] ")).trim());
  } finally {
    rl.close();
  }
}
