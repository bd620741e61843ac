// Held tools (tool pinning, src/policy/tool-pins.ts) in the Approvals view: what each one said when
// the user approved it and what it says now, as a line diff of escaped text, with Accept (the new
// text becomes its pin, and sessions list and run it again) and Refuse (it stays held). The page is
// a human channel: the model cannot answer here.
import * as v from "valibot";
import { acceptChange, heldChanges, refuseChange, whatChanged, type PinnedTool } from "../policy/tool-pins.ts";
import { indented } from "../policy/tool-change-text.ts";
import { appendAudit } from "../sandbox/audit.ts";
import { visible } from "../visible-text.ts";
import type { UiContext } from "./context.ts";
import { lineDiff } from "./line-diff.ts";
import { AnswerError } from "./actions.ts";

/** A tool as the user reads it: its description (its later lines marked, so none reads as the
 * schema's), then its input schema, one line per key (its indentation kept; JSON has no raw line
 * breaks in strings). */
function shown(t: PinnedTool | undefined): string {
  if (!t) return "";
  const schema = JSON.stringify(t.inputSchema ?? { type: "object" }, null, 2)
    .split("\n")
    .map((line) => {
      const [, indent = "", rest = ""] = /^( {0,40})(.*)$/.exec(line) ?? [];
      return indent + visible(rest);
    });
  const more = Object.entries(t.more ?? {}).map(([k, value]) => `${k}: ${visible(JSON.stringify(value))}`);
  return `${visible(indented(t.description))}\n\ninput schema:\n${schema.join("\n")}${more.length ? `\n\n${more.join("\n")}` : ""}`;
}

export function toolChanges(ctx: UiContext) {
  const env = { ...process.env, PML_HOME: ctx.home };
  return {
    changes: heldChanges(ctx.workspace.root, env).map((c) => ({
      ns: c.ns,
      tool: c.tool,
      digest: c.digest,
      was: c.was?.digest,
      why: whatChanged(c),
      seen_at: c.seen_at,
      refused_at: c.refused_at,
      lines: lineDiff(shown(c.was), shown(c)),
    })),
  };
}

const ToolChangeAnswer = v.strictObject({
  ns: v.pipe(v.string(), v.minLength(1)),
  tool: v.pipe(v.string(), v.minLength(1)),
  digest: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  answer: v.picklist(["accept", "refuse"]),
});

export async function answerToolChange(ctx: UiContext, body: unknown) {
  const parsed = v.safeParse(ToolChangeAnswer, body);
  if (!parsed.success) throw new AnswerError('Give {ns, tool, digest, answer: "accept" | "refuse"}.');
  const { ns, tool, digest, answer } = parsed.output;
  const env = { ...process.env, PML_HOME: ctx.home };
  const was = heldChanges(ctx.workspace.root, env).find((c) => c.ns === ns && c.tool === tool)?.was?.digest ?? "(new tool)";
  // Bound to the digest shown: a server that changed again since is shown anew, not accepted blind.
  const done = answer === "accept" ? await acceptChange(ctx.workspace.root, ns, tool, digest, env) : await refuseChange(ctx.workspace.root, ns, tool, digest, env);
  if (!done) throw new AnswerError(`${ns}:${tool} is no longer held with that text (accepted elsewhere, or it changed again): reload to see it as it is now.`);
  await appendAudit(ctx.workspace.root, {
    tool: `${ns}:${tool}`,
    attempted: `tool change ${answer === "accept" ? "accepted" : "refused"}: server ${ns} tool ${tool}, ${was} -> ${digest}`,
    reason: "the user answered in pml ui",
  }).catch(() => {});
  return { answered: `${ns}:${tool}`, answer };
}
