// What pml says about a held tool (./tool-pins.ts). To the model: why it is held and where the
// user reviews it, never the new text (which may be the very instructions a rug pull wants the
// model to read). To the user (an elicitation, the page): the text before and now, escaped.
import { visible, visibleName } from "../visible-text.ts";
import { whatChanged, type HeldTool, type ToolMore } from "./tool-pins.ts";

/** The refusal and the note in `discover`: what is held, why, and what the user can do. */
export function heldText(ns: string, tool: string, h: HeldTool): string {
  const held = `${ns}:${tool} is held: ${whatChanged(h)}. pml neither lists nor runs it until the user accepts the change`;
  if (h.refused_at)
    return `${held}. You refused this change: it is not asked again, and stays held until the server goes back to the text you approved or you accept it in \`pml ui\` (Approvals).`;
  return `${held}: review it in \`pml ui\` (Approvals), or call it again from a client that can ask the user (form elicitation).`;
}

// On one line: visible() would count a nested schema's indentation as runs of blanks.
/** One line for `discover {query}`: which tools are held (a query never ranks them). */
export function heldSummary(ids: readonly string[]): string {
  const shown = ids.slice(0, 5).join(", ") + (ids.length > 5 ? ` and ${ids.length - 5} more` : "");
  return `${shown} ${ids.length === 1 ? "is" : "are"} held (changed since the user approved ${ids.length === 1 ? "it" : "them"}); not run until the user accepts the change in \`pml ui\` (Approvals) or when asked on a call`;
}

/** A description's later lines marked as its own, so none reads as a line of the form ("Digest: ...")
 * or of the page's diff ("input schema:"). */
export const indented = (d: string | undefined) => (d ?? "").replace(/\r?\n/g, "\n  | ");

const MORE: ReadonlyArray<[string, keyof ToolMore]> = [
  ["Output schema", "outputSchema"],
  ["Annotations", "annotations"],
];

const schemaText = (s: Record<string, unknown> | undefined) => JSON.stringify(s ?? { type: "object" });

/** The change as the user reads it: each part that differs, before and now. */
export function changeText(ns: string, tool: string, h: HeldTool): string {
  const lines = [`${visibleName(`${ns}:${tool}`)}: ${whatChanged(h)}.`];
  if (!h.was) {
    lines.push(`Description: ${indented(h.description)}`, `Input schema: ${schemaText(h.inputSchema)}`);
    for (const [label, k] of MORE) if (h.more?.[k] !== undefined) lines.push(`${label}: ${JSON.stringify(h.more[k])}`);
  } else {
    if (h.was.description !== h.description) lines.push(`Description before: ${indented(h.was.description)}`, `Description now: ${indented(h.description)}`);
    const before = schemaText(h.was.inputSchema);
    const now = schemaText(h.inputSchema);
    if (before !== now) lines.push(`Input schema before: ${before}`, `Input schema now: ${now}`);
    for (const [label, k] of MORE) {
      const [was, is] = [JSON.stringify(h.was.more?.[k] ?? null), JSON.stringify(h.more?.[k] ?? null)];
      if (was !== is) lines.push(`${label} before: ${was}`, `${label} now: ${is}`);
    }
  }
  lines.push(`Digest: ${h.was ? `${h.was.digest.slice(0, 12)} → ` : ""}${h.digest.slice(0, 12)}`);
  return visible(lines.join("\n"));
}

/** The form that asks the user to accept or refuse a change (elicitation/create params). */
export function changeElicitation(ns: string, tool: string, h: HeldTool): Record<string, unknown> {
  return {
    mode: "form",
    message: `pml: a tool changed since you approved it. Accept the new text and run it, or refuse (it stays held).\n${changeText(ns, tool, h)}`,
    requestedSchema: {
      type: "object",
      properties: {
        decision: {
          type: "string",
          title: `${visibleName(`${ns}:${tool}`)} changed`,
          enum: ["accept", "refuse"],
          enumNames: ["Accept the change and run it", "Refuse (keep it held)"],
          default: "refuse",
        },
      },
      required: ["decision"],
    },
  };
}

/** The user's answer: only an explicit accept accepts; a decline refuses; anything else asks nothing. */
export function changeDecision(result: unknown): "accept" | "refuse" | undefined {
  const r = result as { action?: string; content?: { decision?: unknown } } | undefined;
  if (r?.action === "decline") return "refuse";
  if (r?.action !== "accept") return undefined;
  return r.content?.decision === "accept" ? "accept" : "refuse";
}
