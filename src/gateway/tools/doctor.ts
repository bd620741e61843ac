// `pml doctor`: each check says what it found and, when something is wrong, what to do.
import { reviewTrust, trustSummary } from "../../policy/trust/review.ts";
import { accessSync, constants, mkdirSync } from "node:fs";
import { confinement } from "../../sandbox/confine.ts";
import { versionLine } from "../../version.ts";
import { cloudKey } from "../../config/settings.ts";
import { insecureUrlReason } from "../../http/secure-url.ts";
import { readMcpJson, PML_SERVER_NAME } from "../../config/mcp-json.ts";
import { pmlHome } from "../../config/paths.ts";
import { loadProjectConfig } from "../../config/pml-json.ts";
import { unknownConfigKeys } from "../../config/unknown-keys.ts";
import { updateStatus } from "../../config/update-check.ts";
import { resolveWorkspace } from "../../config/workspace.ts";
import { heldChanges, whatChanged } from "../../policy/tool-pins.ts";
import { patternChecks, privateEnvChecks } from "./doctor-config.ts";
import { embeddingsCheck } from "./doctor-embeddings.ts";

export interface Check {
  name: string;
  ok: boolean;
  warn?: boolean;
  detail: string;
}

export async function runDoctor(opts: { cwd?: string; checkUpdate?: boolean } = {}): Promise<Check[]> {
  const checks: Check[] = [{ name: "pml", ok: true, detail: `${versionLine()} at ${process.execPath}` }];
  checks.push({ name: "update", ...(await updateStatus({ check: opts.checkUpdate })) });
  let root: string;
  try {
    const ws = resolveWorkspace({ cwd: opts.cwd });
    root = ws.root;
    checks.push({ name: "workspace", ok: true, warn: !!ws.warning, detail: `${ws.root} (from ${ws.source})${ws.warning ? ` — ${ws.warning}` : ""}` });
  } catch (e) {
    checks.push({ name: "workspace", ok: false, detail: (e as Error).message });
    return checks;
  }
  checks.push(...(await projectConfigChecks(root)), await mcpJsonCheck(root), pmlHomeCheck(), ...heldToolsCheck(root));

  // What confines shell:exec and stdio MCP servers here (a real probe, not just a binary on PATH).
  const c = confinement();
  checks.push({
    name: "confinement",
    ok: true,
    warn: c.kind === "none",
    detail: c.kind === "none" ? `${c.summary} (shell commands and registry servers run unconfined)` : c.summary,
  });

  const key = cloudKey({ workspace: root });
  checks.push({
    name: "mode",
    ok: true,
    warn: !key,
    detail: key ? "cloud (PML_API_KEY is set)" : "local only: cloud tools are off; set PML_API_KEY in the workspace .env to enable them",
  });
  return checks;
}

/** Tools held since their server changed what they say (tool pinning): none is a quiet line. */
function heldToolsCheck(root: string): Check[] {
  const held = heldChanges(root);
  if (!held.length) return [];
  const each = held.map((h) => `${h.ns}:${h.tool} (${whatChanged(h)}${h.refused_at ? "; you refused it" : ""})`);
  return [{ name: "held tools", ok: true, warn: true, detail: `${each.join(", ")}: not listed nor run until you accept the change in \`pml ui\` (Approvals)` }];
}

/** .pml.json: found, its unknown keys, registries it names that pml refuses, keys it grants. */
async function projectConfigChecks(root: string): Promise<Check[]> {
  const checks: Check[] = [];
  try {
    const cfg = await loadProjectConfig(root);
    checks.push({
      name: ".pml.json",
      ok: true,
      warn: !cfg.exists,
      detail: cfg.exists
        ? `${cfg.path}: ${cfg.config.permissions.allow.length} allowed, ${cfg.config.permissions.deny.length} denied`
        : "not found; run `pml init` (defaults apply: everything asks first)",
    });
    for (const w of unknownConfigKeys(cfg.raw)) checks.push({ name: ".pml.json", ok: true, warn: true, detail: w });
    checks.push(...patternChecks(cfg.config), ...privateEnvChecks(root, cfg.config));
    const review = await reviewTrust(root);
    checks.push({ name: "trust", ok: true, warn: review.untrusted.length > 0, detail: trustSummary(review) });
    const embeddings = await embeddingsCheck(root, cfg.config, review.untrusted);
    if (embeddings) checks.push(embeddings);
    const refused = [...(cfg.config.registries ?? []), ...(cfg.config.cloud?.url ? [cfg.config.cloud.url] : [])]
      .map((u) => insecureUrlReason(u, "registry"))
      .filter((x): x is string => x !== undefined);
    for (const why of refused) checks.push({ name: "registries", ok: false, detail: why });
    const grants = Object.entries(cfg.config.env_grants ?? {}).filter(([, names]) => names.length);
    checks.push({
      name: "keys",
      ok: true,
      detail:
        (grants.length
          ? `granted to registry entries: ${grants.map(([ns, names]) => `${ns} (${names.join(", ")})`).join("; ")}`
          : "no keys granted to registry entries (.pml.json env_grants)") + "; PML_API_KEY goes only to cloud.url",
    });
  } catch (e) {
    checks.push({ name: ".pml.json", ok: false, detail: (e as Error).message });
  }
  return checks;
}

/** .mcp.json: has a pml entry, and that entry can start (or names the URL to serve). */
async function mcpJsonCheck(root: string): Promise<Check> {
  try {
    const mcp = await readMcpJson(root);
    const entry = (mcp.raw.mcpServers as Record<string, any> | undefined)?.[PML_SERVER_NAME];
    if (!mcp.exists) return { name: ".mcp.json", ok: false, detail: "not found; run `pml init` in this folder" };
    if (!entry) return { name: ".mcp.json", ok: false, detail: `${mcp.path} has no "${PML_SERVER_NAME}" server; run \`pml init\`` };
    if (typeof entry.url === "string") {
      // `pml init --http`: Claude Code connects to a `pml serve` the user starts.
      const port = /:(\d+)\//.exec(entry.url)?.[1] ?? "7331";
      return { name: ".mcp.json", ok: true, detail: `pml entry connects to ${entry.url}; start it with \`pml serve --port ${port}\` in this folder` };
    }
    let runnable = true;
    try {
      // A bare "pml" is looked up on PATH, as the client will.
      accessSync(entry.command.includes("/") || entry.command.includes("\\") ? entry.command : (Bun.which(entry.command) ?? entry.command), constants.X_OK);
    } catch {
      runnable = false;
    }
    return {
      name: ".mcp.json",
      ok: runnable,
      detail: runnable
        ? `pml entry runs ${entry.command} ${(entry.args ?? []).join(" ")}`
        : `pml entry runs ${entry.command}, which is not an executable file; run \`pml init\` again`,
    };
  } catch (e) {
    return { name: ".mcp.json", ok: false, detail: (e as Error).message };
  }
}

function pmlHomeCheck(): Check {
  const home = pmlHome();
  try {
    mkdirSync(home, { recursive: true });
    accessSync(home, constants.W_OK);
    return { name: "PML_HOME", ok: true, detail: home };
  } catch {
    return { name: "PML_HOME", ok: false, detail: `${home} is not writable; set PML_HOME to a writable directory` };
  }
}
