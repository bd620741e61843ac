// execute: code that calls tools, run in pml's sandbox; code that works becomes a capability.
import * as v from "valibot";
import { executeTool, type ExecuteInput } from "../execute.ts";
import { defineTool } from "../define-tool.ts";
import { plainObject, text, words } from "../schema.ts";
import type { MetaContext, MetaTool } from "./context.ts";
import { continueWorkflow } from "./continue-workflow.ts";

const executeArgs = {
  code: v.optional(text("the body of an async function; `return` the result")),
  intent: v.optional(words("one line: what this code is for (with `capability`: what you use it for, so `discover` finds it by those words)", 500)),
  args: v.optional(plainObject("a value available as `args` in the code")),
  name: v.optional(text("save it as this capability: namespace:action_target, lower snake case")),
  description: v.optional(words("what the capability does (default: intent)", 2000)),
  parameters: v.optional(plainObject("JSON Schema of `args` (default: inferred from this run's args, which become defaults)")),
  routing: v.optional(v.pipe(v.picklist(["local", "cloud"]), v.description("where the capability runs (default: inherited from the tools it uses)"))),
  capability: v.optional(
    text(
      "run a saved capability by name instead of `code` (fs:read_json, fs:read_json@v1, @v1.2.0, @2026-11-22), or a team registry's by its FQDN (org.project.ns.action; another org's asks the user first); `args` are merged over its defaults",
    ),
  ),
  update: v.optional(v.pipe(v.boolean(), v.description("with `name` of an existing capability: save this code as its new version"))),
  version_tag: v.optional(text("explicit version for `update` (must be greater than the current)")),
  change_summary: v.optional(text("what changed, for `update`")),
  continue_workflow: v.optional(continueWorkflow),
};

type Parsed = v.InferOutput<v.StrictObjectSchema<typeof executeArgs, undefined>>;

/** Arguments a continuation resumes with, through the same schema as the call's own. */
function checkResumed(a: Record<string, unknown>): { args: ExecuteInput } | { error: string } {
  const checked = execute.check(a, "execute");
  // (Typed here: what the schema gives is what runExecute reads.)
  return "error" in checked ? checked : { args: checked.args as Parsed };
}

export const execute: MetaTool = defineTool({
  name: "execute",
  title: "Run code that calls tools",
  description:
    "Runs TypeScript/JavaScript as the body of an async function in pml's sandbox, with `args` and `mcp` in scope: " +
    '`const pkg = JSON.parse(await mcp.filesystem.read_file({path: "package.json"}))`. A call returns the tool\'s structured content, else its text. ' +
    "The result is the value you return (as JSON) and the tools used. " +
    "No network, process or file access except through mcp tools; same permissions and approval as direct calls. " +
    "Code that works is remembered: give `name` (namespace:action_target, e.g. fs:read_json; namespaces fs, api, db, transform, git, shell, ai, util) " +
    "and it becomes the tool cap__<namespace>__<action>; `capability` + `args` runs a saved one.",
  args: executeArgs,
  // A retry after an approval pause must carry exactly the call's arguments (its request state
  // is bound to them: runExecute binds req.arguments); what a continuation resumes with is
  // checked by this same schema.
  run: (args, { deps, session, req }: MetaContext) => executeTool(deps, session, req, args, checkResumed),
});
