// learn:publish: one capability to the team registry now, because the user asked, whatever
// `.pml.json` memory.publish says. It goes through the path a save's automatic publish takes
// (memory/team.ts: the secret screen, defaults withheld, the base version), so an explicit publish
// can carry nothing an automatic one would not. The registry must be one this workspace's trusted
// .pml.json names (cloud.url): a cloned repository's file cannot send the user's code anywhere.
import * as v from "valibot";
import { insecureUrlReason } from "../../../http/secure-url.ts";
import { publishCapability, teamRegistry, type TeamRegistry } from "../../../memory/team.ts";
import { ToolError } from "../../../mcp/tool-result.ts";
import { defineTool } from "../define-tool.ts";
import { nonBlank } from "../schema.ts";
import { resolveCapability } from "../capability-records.ts";
import type { StdlibContext, StdlibDeps } from "../stdlib-namespace.ts";

export const publish = defineTool({
  name: "publish",
  description:
    'Publishes a capability to the team registry (.pml.json cloud.url) now, even with memory.publish off: {name: "fs:read_json", visibility?: "project" | "org" | "public"}. Code holding a secret is not published.',
  args: {
    name: nonBlank("e.g. fs:read_json"),
    visibility: v.optional(v.pipe(v.picklist(["project", "org", "public"]), v.description("who in the registry sees it (default: memory.publish when it is on, else project)"))),
  },
  async run({ name, visibility }, { deps, settings }: StdlibContext) {
    const team = await trustedRegistry(deps);
    const { capability } = await resolveCapability(deps, settings, name);
    if (!capability.named) throw new ToolError(`${capability.display_name} has no name, and an unnamed capability is not shared: name it first (dns:rename {name, newName}).`);
    const as = visibility ?? (team.publish === "off" ? "project" : team.publish);
    const out = await publishCapability(team, capability, deps.workspace.root, { visibility: as, retry: "Try again once it answers." });
    if (!("published" in out)) throw new ToolError(out.warning);
    return {
      name: capability.display_name,
      registry: team.url,
      published: out.published,
      ...(out.warning ? { warnings: [out.warning] } : {}),
    };
  },
});

/** The team registry of a trusted .pml.json; else an error that says what to do. */
async function trustedRegistry(deps: Pick<StdlibDeps, "project" | "workspace">): Promise<TeamRegistry> {
  const state = await deps.project.get();
  const root = deps.workspace.root;
  const team = teamRegistry(state.config, root);
  if (!team) {
    // An untrusted file's cloud.url is taken out of the config as it applies; it is still a grant to show.
    if (state.untrusted.some((g) => g.id.startsWith("cloud.url ")))
      throw new ToolError(
        `${state.path} names a team registry (cloud.url), but you have not trusted it: run \`pml trust\` in ${root} to review and accept what it grants, then publish again.`,
      );
    const raw = state.config.cloud?.url;
    const insecure = raw ? insecureUrlReason(raw, "cloud.url") : undefined;
    if (insecure) throw new ToolError(`Not published: ${insecure}`);
    throw new ToolError(
      `No team registry is configured: add "cloud": {"url": "https://<your registry>"} (where \`pml registry serve\` listens) to ${state.path}, run \`pml trust\` in ${root}, and set PML_API_KEY (environment or the workspace's .env).`,
    );
  }
  if (!state.trusted)
    throw new ToolError(`Publishing sends this capability's code to ${team.url}, so it needs this workspace trusted: run \`pml trust\` in ${root}, then publish again.`);
  return team;
}
