// The gateway's side of tool pinning (src/policy/tool-pins.ts): each list a pinnable server gives
// is compared with its pins; a held tool is left out of tools/list and `discover`, and a call of
// it asks the user with the change where the client can show a form, or is refused saying why.
import { log } from "../../log.ts";
import { sessionOf } from "../../mcp/session.ts";
import { errorResult, type CallContext } from "../../mcp/tool-result.ts";
import type { CallToolResult, ToolInfo } from "../../mcp/types.ts";
import type { Descriptor } from "../../registry/descriptor.ts";
import { appendAudit } from "../../sandbox/audit.ts";
import { changeDecision, changeElicitation, heldText } from "../../policy/tool-change-text.ts";
import { acceptChange, checkTools, heldNow, pinsTools, refuseChange, whatChanged, type HeldTool } from "../../policy/tool-pins.ts";

export class ToolHolds {
  /** Namespaces whose tools are pinned (their descriptor says so; see pinsTools). */
  private readonly pinned = new Set<string>();
  private readonly held = new Map<string, Record<string, HeldTool>>();
  /** Told when what is held changes (tools/list changes with it). */
  onChange?: () => void;

  constructor(private readonly workspace: string) {}

  /** Called when a namespace resolves: whether its tools are pinned. */
  track(ns: string, d: Descriptor | { type: string }): void {
    if (pinsTools(d)) this.pinned.add(ns);
    else if (this.pinned.delete(ns)) this.set(ns, {});
  }

  /** A list the server gave (`live`) or one kept from an earlier session, compared with the pins. */
  async note(ns: string, tools: readonly ToolInfo[], live: boolean): Promise<void> {
    if (!this.pinned.has(ns)) return;
    let checked: Awaited<ReturnType<typeof checkTools>>;
    try {
      checked = await checkTools(this.workspace, ns, tools, live);
    } catch (e) {
      // $PML_HOME unwritable: nothing can be pinned or compared; said, and the list stands.
      log.warn(`the tools of ${ns} could not be compared with their pins: ${(e as Error).message}`);
      return;
    }
    // Held at once, before the audit is written: a call arriving meanwhile is refused too.
    this.set(ns, checked.held);
    for (const c of checked.fresh)
      await appendAudit(this.workspace, {
        tool: `${ns}:${c.tool}`,
        attempted: `tool changed: server ${ns} tool ${c.tool}, ${c.was?.digest ?? "(new tool)"} -> ${c.digest}`,
        reason: `held until the user accepts the change: ${whatChanged(c)}`,
      }).catch(() => {});
  }

  /** The held tool of that name, as last compared. */
  heldTool(ns: string, name: string): HeldTool | undefined {
    const held = this.held.get(ns);
    return held && Object.hasOwn(held, name) ? held[name] : undefined;
  }

  /** The tools that may be shown: the held ones left out. */
  shown(ns: string, tools: ToolInfo[] | undefined): ToolInfo[] | undefined {
    const held = this.held.get(ns);
    if (!tools || !held || !Object.keys(held).length) return tools;
    return tools.filter((t) => !Object.hasOwn(held, t.name));
  }

  /** Why each held tool of a namespace is held (for `discover`). */
  notes(ns?: string): Array<{ id: string; held: string }> {
    this.refresh();
    const out: Array<{ id: string; held: string }> = [];
    for (const [name, held] of this.held)
      if (ns === undefined || name === ns) for (const [tool, h] of Object.entries(held)) out.push({ id: `${name}:${tool}`, held: heldText(name, tool, h) });
    return out;
  }

  /** Changes accepted or refused elsewhere (`pml ui`, another session) since the last compare. */
  refresh(): void {
    for (const [ns, held] of this.held) if (Object.keys(held).length) this.set(ns, heldNow(this.workspace, ns));
  }

  /**
   * A call of a held tool: undefined to run it (accepted now, or elsewhere since), else the result
   * that refuses it. The user is asked with the change where the client can show a form; a
   * 2026-07-28 call stops there with input_required and its retry carries the answer.
   */
  async stop(ns: string, action: string, call: CallContext): Promise<CallToolResult | undefined> {
    this.refresh();
    const h = this.heldTool(ns, action);
    if (!h) return undefined;
    const session = sessionOf(call);
    if (!h.refused_at && call.origin && session?.supportsFormElicitation()) {
      const decision = changeDecision(await call.origin.relay("elicitation/create", changeElicitation(ns, action, h), call.signal));
      if (decision) return this.decided(ns, action, h, decision, "an elicitation");
    }
    return errorResult(heldText(ns, action, h));
  }

  private async decided(ns: string, action: string, h: HeldTool, decision: "accept" | "refuse", how: string): Promise<CallToolResult | undefined> {
    const done = decision === "accept" ? await acceptChange(this.workspace, ns, action, h.digest) : await refuseChange(this.workspace, ns, action, h.digest);
    await appendAudit(this.workspace, {
      tool: `${ns}:${action}`,
      attempted: `tool change ${decision === "accept" ? "accepted" : "refused"}: server ${ns} tool ${action}, ${h.was?.digest ?? "(new tool)"} -> ${h.digest}`,
      reason: `the user answered ${how}`,
    }).catch(() => {});
    this.set(ns, heldNow(this.workspace, ns));
    if (decision === "accept" && done) return undefined;
    const now = this.heldTool(ns, action);
    return errorResult(now ? heldText(ns, action, now) : `${ns}:${action} changed again while you were asked; call it again to review it.`);
  }

  private set(ns: string, held: Record<string, HeldTool>): void {
    const before = Object.keys(this.held.get(ns) ?? {})
      .sort()
      .join("\0");
    this.held.set(ns, held);
    if (before !== Object.keys(held).sort().join("\0")) this.onChange?.();
  }
}
