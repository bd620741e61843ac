// learn:save: code kept as a named capability without running it.
import * as v from "valibot";
import { formatName } from "../../../memory/names.ts";
import { publishAfterSave } from "../../../memory/team.ts";
import { ToolError } from "../../../mcp/tool-result.ts";
import { defineTool } from "../define-tool.ts";
import { nonBlank, plainObject, text, words } from "../schema.ts";
import { summary } from "../capability-records.ts";
import type { StdlibContext } from "../stdlib-namespace.ts";
import { syntaxProblem, toolsIn } from "./code-check.ts";

export const save = defineTool({
  name: "save",
  description: "Saves code as a named capability without running it (it must parse): {name, code, intent, description?, parameters?, args?, update?, version_tag?}.",
  args: {
    name: text("namespace:action_target"),
    code: nonBlank("the body of an async function with mcp and args in scope"),
    intent: v.optional(words("one line: what it is for", 500)),
    description: v.optional(words("what it does (default: intent)", 2000)),
    parameters: v.optional(plainObject("JSON Schema of args")),
    args: v.optional(plainObject("example args: each becomes a required parameter, its value an example (declare defaults in parameters)")),
    update: v.optional(v.pipe(v.boolean(), v.description("save as a new version of an existing name"))),
    version_tag: v.optional(text("explicit version, greater than the current")),
    change_summary: v.optional(text("what changed (for a new version)")),
    scope: v.optional(v.pipe(v.picklist(["workspace", "user"]), v.description("workspace (default): this workspace only; user: every workspace of yours reads it"))),
  },
  async run(args, { deps, settings }: StdlibContext) {
    const { code } = args;
    const problem = syntaxProblem(code);
    if (problem) throw new ToolError(`The code does not parse, so it was not saved: ${problem}`);
    // The user scope runs in every workspace of the user: only a workspace they trusted writes it.
    if (args.scope === "user" && !(await deps.project.get()).trusted)
      throw new ToolError(
        `Saving to the user scope (read by all your workspaces) needs this workspace trusted: run \`pml trust\` in ${deps.workspace.root}, or save without "scope" (this workspace only).`,
      );
    const plan = await deps.memory.plan(settings, {
      code,
      name: args.name,
      parameters: args.parameters,
      update: args.update,
      version_tag: args.version_tag,
      change_summary: args.change_summary,
      scope: args.scope,
    });
    if (!plan.ok) throw new ToolError(plan.error.replace(" Nothing was run.", " Nothing was saved."));
    if (!plan.capture) throw new ToolError(".pml.json memory.capture is false: nothing is saved.");
    const saved = await deps.memory.capture(settings, plan, {
      code,
      args: args.args ?? {},
      intent: args.intent,
      description: args.description,
      toolsUsed: toolsIn(code),
      latencyMs: 0,
      ran: false,
    });
    if (saved.kind === "taken") throw new ToolError(`Capability name '${saved.name}' already exists`);
    const pushed = await publishAfterSave(await deps.project.config(), deps.workspace.root, saved);
    const warnings = [...plan.warnings, ...(pushed && "warning" in pushed && pushed.warning ? [pushed.warning] : [])];
    // Same code = same capability: a record named otherwise keeps its name.
    const wanted = plan.name ? formatName(plan.name) : args.name;
    if (saved.capability.display_name !== wanted)
      warnings.push(
        `This code is already saved as ${saved.capability.display_name} (kept that name); to rename it use dns:rename {name: "${saved.capability.display_name}", newName: "${wanted}"}.`,
      );
    return {
      ...summary(saved.capability),
      saved: saved.kind === "created" ? "new" : saved.changes ? "updated" : saved.version ? `version ${saved.version.tag}` : "unchanged",
      ...(saved.kind === "reused" && saved.changes ? { changes: saved.changes } : {}),
      ...(saved.kind === "reused" && saved.version ? { change_summary: saved.version.change_summary } : {}),
      ...(pushed && "published" in pushed ? { published: pushed.published } : {}),
      ...(warnings.length ? { warnings } : {}),
    };
  },
});
