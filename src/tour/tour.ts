// `pml try`: pml's main job shown in one command, without an AI client. The tour starts this very
// pml as `pml stdio`, as a client would, in a throwaway workspace with its own temporary
// PML_HOME (or --home), plays the agent over MCP (2025-11-25, with form elicitation, so approvals
// are asked as a person would see them and answered Continue by the tour) and narrates each step.
// Only built-in tools run: nothing is installed and nothing leaves the machine.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isCompiledBinary } from "../config/mcp-json.ts";
import { TourClient } from "./client.ts";
import { Narrator } from "./narrate.ts";
import { SETTINGS, SETTINGS_FILE, StepFailed, stepAgain, stepApprove, stepDiscover, stepExecute, stepRename, type TourContext } from "./steps.ts";

export interface TourOptions {
  json: boolean;
  keep: boolean;
  /** PML_HOME for the tour's pml (kept afterwards); default a temporary one. */
  home?: string;
}

/** Variables of the caller's shell that would point the tour's pml at the user's own state,
 * project or cloud account. */
const WITHHELD = ["PML_HOME", "PML_WORKSPACE", "CLAUDE_PROJECT_DIR", "PML_API_KEY", "PML_STATE_KEY", "PML_SERVE_TOKEN"];

/** How to start this pml again: the binary itself, or bun with the source entry. */
function pmlCommand(): string[] {
  return isCompiledBinary() ? [process.execPath] : [process.execPath, resolve(import.meta.dir, "../main.ts")];
}

interface Places {
  root: string;
  workspace: string;
  home: string;
  ownHome: boolean;
}

function makePlaces(home: string | undefined): Places {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pml-try-")));
  const workspace = join(root, "project");
  mkdirSync(workspace);
  // No .pml.json: pml's defaults apply (nothing granted, every tool asks), so there is nothing to trust.
  writeFileSync(join(workspace, SETTINGS_FILE), `${JSON.stringify(SETTINGS, null, 2)}\n`);
  return { root, workspace, home: home ? resolve(home) : join(root, "home"), ownHome: !home };
}

/** Runs the tour; resolves with the exit status (0: every step behaved as expected). */
export async function runTour(opts: TourOptions): Promise<number> {
  const n = new Narrator(opts.json);
  const places = makePlaces(opts.home);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !WITHHELD.includes(k)) env[k] = v;
  Object.assign(env, { PML_HOME: places.home, PML_WORKSPACE: places.workspace });
  n.intro([
    "pml try: what pml does for an agent, played against a real `pml stdio` (no AI client, offline, a few seconds).",
    `  workspace  ${places.workspace} (throwaway; it holds ${SETTINGS_FILE})`,
    `  PML_HOME   ${places.home}${places.ownHome ? " (temporary; your own ~/.pml is not touched)" : " (--home)"}`,
  ]);

  const questions: string[] = [];
  const client = new TourClient(
    [...pmlCommand(), "stdio"],
    { cwd: places.workspace, env },
    (dir, line) => n.line(dir, line),
    (method, params) => {
      if (method !== "elicitation/create") throw new Error(`pml try does not answer ${method}`);
      const choices = params?.requestedSchema?.properties?.decision?.enumNames;
      questions.push(String(params?.message ?? ""));
      n.say(
        `pml asks the user: "${params?.message}"${Array.isArray(choices) ? `\n[ ${choices.join(" | ")} ]` : ""}\nThe tour answers Continue (this session only; Always would add the tool to .pml.json permissions.allow).`,
      );
      return { action: "accept", content: { decision: "continue" } };
    },
  );
  // Interrupted (Ctrl-C): pml stdio ends with its input, the throwaway folders go unless --keep.
  const interrupted = () => {
    client.proc.kill();
    if (!opts.keep) rmSync(places.root, { recursive: true, force: true });
    process.exit(130);
  };
  process.once("SIGINT", interrupted);
  const ctx: TourContext = { client, n, first: { calls: 0, bytes: 0, approvals: 0 } };
  const steps: [string, string, () => Promise<string>][] = [
    [
      "discover",
      "Find a tool by saying what you need",
      async () => {
        await connect(ctx);
        return stepDiscover(ctx);
      },
    ],
    ["approve", "Call a tool that needs the user's approval", () => stepApprove(ctx, questions)],
    ["execute", "Run code that calls two tools, with a name: pml keeps it", () => stepExecute(ctx)],
    ["again", "The same task again, in other words", () => stepAgain(ctx)],
    ["rename", "Rename the capability; the old name keeps working", () => stepRename(ctx)],
  ];
  let failed: { step: number; name: string; why: string } | undefined;
  for (const [i, [name, title, run]] of steps.entries()) {
    n.begin(i + 1, name, title);
    try {
      n.end(true, await run());
    } catch (e) {
      const why = e instanceof StepFailed ? e.message : `${(e as Error)?.message ?? e}`;
      n.end(false, why);
      failed = { step: i + 1, name, why };
      break;
    }
  }
  await client.close();
  process.off("SIGINT", interrupted);
  const cleaned = finish(n, places, opts.keep, failed);
  if (failed) process.stderr.write(`pml try: step ${failed.step} (${failed.name}) did not behave as expected: ${failed.why}\n`);
  return failed || !cleaned ? 1 : 0;
}

/** Opens the session as a client does: initialize with form elicitation, then initialized. */
async function connect(ctx: TourContext): Promise<void> {
  ctx.n.say("The tour starts `pml stdio` as a client would and opens an MCP session (2025-11-25), saying it can show the user a form (elicitation).");
  const init = await ctx.client.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: "pml-try", version: "1" },
  });
  if (init?.serverInfo?.name !== "pml") throw new StepFailed(`initialize answered ${JSON.stringify(init).slice(0, 200)}`);
  ctx.client.notify("notifications/initialized");
  ctx.client.meter = ctx.first; // the first time the task is done starts here
}

/** Step 6: where things are, what to run next, and the throwaway workspace removed unless --keep. */
function finish(n: Narrator, p: Places, keep: boolean, failed: { step: number } | undefined): boolean {
  n.begin(6, "where", "Where things are, and what next");
  let removed = false;
  let problem: string | undefined;
  if (!keep) {
    try {
      rmSync(p.root, { recursive: true, force: true, maxRetries: 3 });
      removed = true;
    } catch (e) {
      problem = `could not remove ${p.root}: ${(e as Error).message}`;
    }
  }
  const kept = keep ? "kept (--keep)" : removed ? "removed" : "left behind";
  n.say(`The workspace ${p.workspace}: ${kept}.`);
  n.say(`PML_HOME ${p.home} (its memory.db holds the capability and the tool usage): ${p.ownHome ? kept : "yours (--home), kept"}.`);
  if (keep) n.say(`Look at it: PML_HOME=${p.home} PML_WORKSPACE=${p.workspace} pml ui`);
  else if (!p.ownHome) n.say(`Look at it: PML_HOME=${p.home} pml ui`);
  n.say(
    "Next: in one of your projects run `pml init` (it writes .mcp.json for Claude Code and .pml.json), then start `claude`; `pml ui` shows the activity, capabilities and approvals.",
  );
  n.data({ workspace: p.workspace, home: p.home, kept: keep, removed });
  n.end(!problem, problem ?? (failed ? `the tour stopped after step ${failed.step}.` : "every step behaved as expected."));
  n.finish({ ok: !failed && !problem, ...(failed ? { failed_step: failed.step } : {}), workspace: p.workspace, home: p.home, kept: keep });
  return !problem;
}
