import { defineCommand } from "citty";
import type { InitResult } from "../config/project-init.ts";

const NO_TTY = "stdin is not a terminal; run `pml init --yes` (add --api-key KEY for cloud mode)";

/** One line from the terminal, on stderr. (consola's text prompt returns undefined under Bun,
 * so plain readline; hidden input mutes the echo for API keys.) Ctrl+C / Ctrl+D abort: every
 * question comes before init writes anything. */
async function ask(question: string, opts: { hidden?: boolean } = {}): Promise<string> {
  const { createInterface } = await import("node:readline/promises");
  const { Writable } = await import("node:stream");
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  let answered = false;
  const cancel = () => {
    process.stderr.write("\ncancelled; nothing was written\n");
    process.exit(130);
  };
  rl.on("SIGINT", cancel);
  rl.on("close", () => answered || cancel());
  try {
    const pending = rl.question(question);
    muted = !!opts.hidden;
    const answer = await pending;
    answered = true;
    if (opts.hidden) process.stderr.write("\n");
    return answer;
  } finally {
    rl.close();
  }
}

/** The one next step that follows from what init did (`port`: .mcp.json points at `pml serve`). */
function nextStep(result: InitResult, port: number | undefined): string {
  if (result.mcpJson.action === "declined")
    return "Next: .mcp.json was left as it was, so Claude Code will not start pml here. To use pml in this folder, run `pml init` again and answer y (other servers are kept, a backup is made).";
  const fix = result.pmlJson.action === "invalid" ? "fix .pml.json (above), then " : "";
  if (port !== undefined)
    return `Next: ${fix}run \`pml serve --port ${port}\` in this folder (Claude Code does not start HTTP servers), then restart Claude Code here\nwith the token in its environment: \`export PML_SERVE_TOKEN="$(pml serve --print-token)"\`.`;
  return `Next: ${fix}restart Claude Code in this folder; run \`claude mcp list\` to check that pml is connected.`;
}

export default defineCommand({
  meta: { name: "init", description: "Set up this project for pml: writes .mcp.json (Claude Code) and .pml.json" },
  args: {
    yes: { type: "boolean", alias: "y", description: "No questions: accept the defaults (local-only unless --api-key)" },
    "api-key": { type: "string", description: "PML API key for cloud mode (stored in the project's .env, mode 0600)" },
    force: { type: "boolean", description: "Back up and replace an unparseable .mcp.json or .pml.json" },
    dir: { type: "string", description: "Project directory (default: the current directory)" },
    http: { type: "boolean", description: "Point .mcp.json at `pml serve` (Streamable HTTP) instead of stdio" },
    port: { type: "string", description: "With --http: the port `pml serve` listens on (default 7331)" },
  },
  async run({ args }) {
    const { consola } = await import("consola");
    const { initProject } = await import("../config/project-init.ts");
    const { ConfigError } = await import("../errors.ts");

    if (!args.yes && !process.stdin.isTTY) {
      // Written as is (consola would restyle the backticks): scripts grep for it.
      process.stderr.write(`pml init: ${NO_TTY}\n`);
      process.exit(2);
    }
    const prompts = args.yes
      ? undefined
      : {
          confirmMcpChange: async ({ path, hasPmlEntry }: { path: string; hasPmlEntry: boolean }) => {
            const what = hasPmlEntry ? "update its pml server" : "add the pml server to it";
            const answer = await ask(`${path} exists; ${what}? Other servers are kept and a backup is made. [Y/n] `);
            return !/^n/i.test(answer.trim());
          },
          apiKey: () => ask("PML API key for cloud tools (input hidden; Enter to skip: local-only mode): ", { hidden: true }),
        };

    if (args.port !== undefined && (!/^\d+$/.test(args.port) || Number(args.port) < 1 || Number(args.port) > 65535)) {
      process.stderr.write(`pml init: --port ${args.port}: expected a port number from 1 to 65535.\n`);
      process.exit(2);
    }
    if (args.port !== undefined && !args.http) {
      process.stderr.write("pml init: --port goes with --http (the port `pml serve` listens on).\n");
      process.exit(2);
    }
    let result;
    try {
      const httpUrl = args.http ? `http://127.0.0.1:${args.port ?? 7331}/mcp` : undefined;
      result = await initProject({ dir: args.dir ?? process.cwd(), apiKey: args["api-key"], force: !!args.force, prompts, httpUrl });
    } catch (e) {
      if (e instanceof ConfigError) {
        consola.error(e.message);
        process.exit(1);
      }
      throw e;
    }

    const m = result.mcpJson;
    const mcpLine: Record<typeof m.action, string> = {
      created: `created ${m.path}`,
      updated: `updated ${m.path} (pml server set, other servers kept)`,
      replaced: `replaced the unparseable ${m.path}`,
      unchanged: `${m.path} already starts pml`,
      declined: `left ${m.path} unchanged (as asked); Claude Code will not start pml from it`,
    };
    if (m.action === "declined") consola.info(mcpLine[m.action]);
    else consola.success(mcpLine[m.action] + (m.backup ? `; backup: ${m.backup}` : ""));
    const p = result.pmlJson;
    const pending = p.action === "invalid" ? [] : await trustWhatInitWrote(args.dir ?? process.cwd(), p.action !== "kept", m.path);
    if (p.action === "created") consola.success(`created ${p.path} (every tool asks before it runs)`);
    else if (p.action === "replaced") consola.warn(`replaced the unparseable ${p.path} with defaults; backup: ${p.backup}`);
    else if (p.action === "invalid") consola.error(`${p.problem}\nFix it (pml did not touch it), or run \`pml init --force\` to back it up and start fresh.`);
    else {
      consola.info(`kept the existing ${p.path}`);
      if (pending.length)
        consola.warn(
          `${p.path} grants what you have not trusted (${pending.length}: ${pending.map((g) => g.text).join("; ")}); it does not apply until you run \`pml trust\` here.`,
        );
    }
    if (result.apiKey.source === "given") {
      consola.success(`stored the API key in ${result.apiKey.envFile} (mode 0600; .gitignore ${result.apiKey.gitignore === "added" ? "entry added" : "already covers it"})`);
    } else if (result.apiKey.source === "existing") {
      consola.info("using the PML API key already set (environment or .env): cloud mode");
    } else {
      consola.info("no API key: local-only mode (run `pml init --api-key KEY` later for cloud tools)");
    }
    consola.box(nextStep(result, args.http ? Number(args.port ?? 7331) : undefined));
    if (p.action === "invalid") process.exitCode = 1;
  },
});

/** What init writes, it trusts (`wrote`: it wrote .pml.json); a file it kept may have come with the
 * repository, and so may the env of an existing pml entry in .mcp.json, which init keeps but does
 * not trust. The .pml.json grants left untrusted. */
async function trustWhatInitWrote(dir: string, wrote: boolean, mcpPath: string) {
  const [{ reviewTrust, trustAll }, { isEnvGrant }, { consola }] = await Promise.all([
    import("../policy/trust/review.ts"),
    import("../policy/trust/env-grants.ts"),
    import("consola"),
  ]);
  const trust = await reviewTrust(dir);
  const pending = trust.untrusted.filter((g) => !isEnvGrant(g));
  const keptEnv = trust.untrusted.filter(isEnvGrant);
  if (wrote) await trustAll({ ...trust, untrusted: pending });
  if (keptEnv.length)
    consola.warn(`${mcpPath} sets pml's environment in ways you have not trusted (${keptEnv.map((g) => g.text).join("; ")}); pml ignores them until you run \`pml trust\` here.`);
  return wrote ? [] : pending;
}
