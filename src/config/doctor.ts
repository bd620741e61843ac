// `pml doctor`: each check says what it found and, when something is wrong, what to do.
import { accessSync, constants, mkdirSync } from "node:fs";
import { version } from "../version.ts";
import { cloudKey } from "./env-resolver.ts";
import { readMcpJson, PML_SERVER_NAME } from "./mcp-json.ts";
import { pmlHome } from "./paths.ts";
import { loadProjectConfig } from "./pml-json.ts";
import { resolveWorkspace } from "./workspace.ts";

export interface Check {
  name: string;
  ok: boolean;
  warn?: boolean;
  detail: string;
}

export async function runDoctor(opts: { cwd?: string } = {}): Promise<Check[]> {
  const checks: Check[] = [{ name: "pml", ok: true, detail: `v${version} at ${process.execPath}` }];
  let root: string;
  try {
    const ws = resolveWorkspace({ cwd: opts.cwd });
    root = ws.root;
    checks.push({ name: "workspace", ok: true, warn: !!ws.warning, detail: `${ws.root} (from ${ws.source})${ws.warning ? ` — ${ws.warning}` : ""}` });
  } catch (e) {
    checks.push({ name: "workspace", ok: false, detail: (e as Error).message });
    return checks;
  }

  try {
    const cfg = await loadProjectConfig(root);
    checks.push({
      name: ".pml.json",
      ok: true,
      warn: !cfg.exists,
      detail: cfg.exists ? `${cfg.path}: ${cfg.config.permissions.allow.length} allowed, ${cfg.config.permissions.deny.length} denied` : "not found; run `pml init` (defaults apply: everything asks first)",
    });
  } catch (e) {
    checks.push({ name: ".pml.json", ok: false, detail: (e as Error).message });
  }

  try {
    const mcp = await readMcpJson(root);
    const entry = (mcp.raw.mcpServers as Record<string, any> | undefined)?.[PML_SERVER_NAME];
    if (!mcp.exists) checks.push({ name: ".mcp.json", ok: false, detail: "not found; run `pml init` in this folder" });
    else if (!entry) checks.push({ name: ".mcp.json", ok: false, detail: `${mcp.path} has no "${PML_SERVER_NAME}" server; run \`pml init\`` });
    else {
      let runnable = true;
      try {
        accessSync(entry.command, constants.X_OK);
      } catch {
        runnable = false;
      }
      checks.push({
        name: ".mcp.json",
        ok: runnable,
        detail: runnable ? `pml entry runs ${entry.command} ${(entry.args ?? []).join(" ")}` : `pml entry runs ${entry.command}, which is not an executable file; run \`pml init\` again`,
      });
    }
  } catch (e) {
    checks.push({ name: ".mcp.json", ok: false, detail: (e as Error).message });
  }

  const home = pmlHome();
  try {
    mkdirSync(home, { recursive: true });
    accessSync(home, constants.W_OK);
    checks.push({ name: "PML_HOME", ok: true, detail: home });
  } catch {
    checks.push({ name: "PML_HOME", ok: false, detail: `${home} is not writable; set PML_HOME to a writable directory` });
  }

  const key = cloudKey({ workspace: root });
  checks.push({
    name: "mode",
    ok: true,
    warn: !key,
    detail: key ? "cloud (PML_API_KEY is set)" : "local only: cloud tools are off; set PML_API_KEY in the workspace .env to enable them",
  });
  return checks;
}
