// What an approval prompt says about how a tool runs: the exact command line of a shell command,
// and whether the OS sandbox confines it (and with or without network). Never "scoped to the
// workspace" for something that is not.
import type { ProjectConfig } from "../config/pml-json.ts";
import { isBuiltinShell } from "../sandbox/builtins/builtins.ts";
import { confinementSentence } from "../sandbox/confine.ts";
import type { Resolved } from "./backends.ts";

/** How the tool's process runs, for stdio servers and the shell; "" for everything else. */
export function confinementNote(r: Resolved, config: ProjectConfig): string {
  const d = r.descriptor;
  if (d.type === "module" && isBuiltinShell(d)) {
    const net = config.sandbox?.shell_net === true;
    return ` ${confinementSentence(net)}${net ? " (.pml.json sandbox.shell_net is true)" : ""}`;
  }
  if (d.type !== "stdio") return "";
  if (d.confine === false) return " It is not confined (its .pml.json private_mcps entry does not say \"confine\": true): it runs as you, with your files and network.";
  const net = config.sandbox?.server_net?.includes(r.ns) === true;
  let text = ` ${confinementSentence(net)}`;
  if (d.network && !net) text += ` It says it needs the network: add "${r.ns}" to sandbox.server_net in .pml.json to give it.`;
  return text;
}

/** The exact command a shell:exec call will run, where; "" for other tools. */
export function commandLine(r: Resolved, action: string, args: Record<string, unknown> | undefined): string {
  const d = r.descriptor;
  if (d.type !== "module" || !isBuiltinShell(d) || action !== "exec") return "";
  const command = typeof args?.command === "string" ? args.command : "";
  const shell = process.platform === "win32" ? "cmd.exe /d /s /c" : "/bin/sh -c";
  const cwd = typeof args?.cwd === "string" && args.cwd !== "." ? ` in ${JSON.stringify(args.cwd)} (inside the workspace)` : " in the workspace";
  return ` It will run: ${shell} ${JSON.stringify(command)}${cwd}.`;
}
