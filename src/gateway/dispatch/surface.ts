// The tools/list surface. Claude Code does not reliably refresh its tool index on list_changed
// (seen on Claude Code 2.1.330: the model's index stayed as it was), so the surface is what the
// session can know at start: built-in modules and the servers the user enabled (allowed in
// .pml.json or already installed), with real schemas. Any other tool is reachable through `call`; when one gets used, it joins the list (list_changed).
import type { ToolInfo } from "../../mcp/types.ts";
import type { Backends } from "./backends.ts";
import { wireName, type ToolId } from "../../mcp/tool-names.ts";
import type { Project } from "../../policy/project.ts";
import type { WireTool } from "./call.ts";

export class Surface {
  private readonly used = new Set<string>();
  /** Namespaces in the last tools/list answer: what the client believes the surface is. */
  private listed = new Set<string>();
  private readonly byWire = new Map<string, ToolId>();
  private listeners: Array<() => void> = [];

  constructor(
    private readonly project: Project,
    private readonly backends: Backends,
  ) {}

  /** Namespaces shown in tools/list, in a stable order. */
  async enabledNamespaces(): Promise<string[]> {
    const names = new Set<string>(Object.keys(this.backends.builtinModules));
    for (const pattern of (await this.project.config()).permissions?.allow ?? []) {
      const ns = pattern.split(":")[0];
      if (ns && ns !== "*") names.add(ns);
    }
    for (const ns of this.backends.installedNamespaces()) names.add(ns);
    for (const ns of this.used) names.add(ns);
    return [...names];
  }

  async list(): Promise<WireTool[]> {
    const out: WireTool[] = [];
    this.listed = new Set();
    this.backends.holds.refresh(); // a change accepted in `pml ui` since shows again
    for (const ns of await this.enabledNamespaces()) {
      const tools = this.backends.shownTools(ns);
      if (!tools) continue;
      this.listed.add(ns);
      for (const t of tools) out.push(this.toWire(ns, t));
    }
    return out;
  }

  toolIdFor(wire: string): ToolId | undefined {
    return this.byWire.get(wire);
  }

  /** A namespace was used this session: show it from now on, and tell the client. */
  noteUsed(ns: string): void {
    if (this.used.has(ns)) return;
    this.used.add(ns);
    if (!this.listed.has(ns) && this.backends.knownTools(ns)) for (const l of this.listeners) l();
  }

  /** Something outside the namespaces changed the list (a capability was named or renamed). */
  changed(): void {
    for (const l of this.listeners) l();
  }

  /** Returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  private toWire(ns: string, t: ToolInfo): WireTool {
    const name = wireName(ns, t.name);
    this.byWire.set(name, { ns, action: t.name });
    return {
      name,
      title: `${ns}: ${t.name}`,
      description: t.description,
      inputSchema: t.inputSchema ?? { type: "object" },
      ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
      ...(t.annotations ? { annotations: t.annotations } : {}),
    };
  }
}
