// status: pml's workspace, configuration, permissions, mode, registries and servers.
import { cloudKey } from "../../../config/settings.ts";
import { version } from "../../../version.ts";
import { heldChanges, whatChanged } from "../../../policy/tool-pins.ts";
import { defineTool } from "../define-tool.ts";
import { jsonResult, type MetaContext, type MetaDeps } from "./context.ts";

export const status = defineTool({
  name: "status",
  title: "pml status",
  description: "Shows pml's workspace, the .pml.json in force (or its error), permissions, mode (local or cloud), registries, and installed/running servers.",
  annotations: { readOnlyHint: true },
  args: {},
  async run(_args, { deps }: MetaContext) {
    return jsonResult(await statusOf(deps));
  },
});

/** What status says about cloud mode, naming what is missing for it to work. */
function modeOf(hasKey: boolean, url: string | undefined): string {
  if (hasKey && url) return "cloud";
  if (hasKey) return 'local: PML_API_KEY is set but .pml.json has no cloud.url; add "cloud": {"url": "https://…"} to use cloud tools';
  return "local (set PML_API_KEY in the workspace .env for cloud tools)";
}

async function statusOf(deps: Pick<MetaDeps, "workspace" | "project" | "surface" | "backends">) {
  const state = await deps.project.get();
  const cfg = state.config;
  return {
    pml: version,
    workspace: { root: deps.workspace.root, resolved_from: deps.workspace.source },
    config: { path: state.path, exists: state.exists, ...(state.error ? { error: state.error } : {}), ...(state.warnings ? { warnings: state.warnings } : {}) },
    trust: state.untrusted.length
      ? { trusted: false, not_applied: state.untrusted.map((g) => g.text), to_trust: `run \`pml trust\` in ${deps.workspace.root}` }
      : { trusted: true },
    permissions: {
      allow: cfg.permissions?.allow ?? [],
      ask: cfg.permissions?.ask ?? [],
      deny: cfg.permissions?.deny ?? [],
      default: "ask",
    },
    mode: modeOf(!!cloudKey({ workspace: deps.workspace.root }), cfg.cloud?.url),
    cloud: cfg.cloud?.url ?? null,
    registries: cfg.registries ?? [],
    listed_namespaces: await deps.surface.enabledNamespaces(),
    ...deps.backends.status(),
    ...heldTools(deps.workspace.root),
  };
}

/** Tools held since their server changed what they say (tool pinning), and where to review them. */
function heldTools(workspace: string) {
  const held = heldChanges(workspace);
  if (!held.length) return {};
  return { held_tools: held.map((h) => ({ tool: `${h.ns}:${h.tool}`, held: whatChanged(h), ...(h.refused_at ? { refused: true } : {}) })), to_review: "`pml ui` (Approvals)" };
}
