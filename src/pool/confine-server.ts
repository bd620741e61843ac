// A stdio MCP server's launch spec wrapped in the OS sandbox (sandbox/confine.ts): it reads its
// installed package and pml's binary (read-only), reads and writes the workspace (not its
// protected files), writes its own data dir `$PML_HOME/data/<ns>/`, and has the network only when
// the user lists it in .pml.json sandbox.server_net. Ending the sandbox ends every descendant:
// bubblewrap runs it as the init of its own pid namespace and dies with pml (--die-with-parent).
import { existsSync, mkdirSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { depsDir, pmlHome } from "../config/paths.ts";
import { confineCommand } from "../sandbox/confine.ts";
import type { LaunchSpec } from "./launch.ts";

/** `$PML_HOME/data/<ns>`, created 0700: the one place outside the workspace a confined server may write. */
export function serverDataDir(ns: string): string {
  const dir = join(pmlHome(), "data", ns.replace(/[^A-Za-z0-9_.-]/g, "_"));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * `ownCommand`: the user's own private_mcps entry, whose absolute paths (a script under the home
 * directory) are made readable; a registry's descriptor could name any file that way, so for
 * registry and catalog servers only pml's binary and the installed packages are.
 */
export function confineServer(spec: LaunchSpec, opts: { ns: string; workspace: string; network: boolean; ownCommand?: boolean }): LaunchSpec {
  const named = opts.ownCommand ? [spec.command, ...spec.args].filter((p) => isAbsolute(p) && existsSync(p)) : [];
  const confined = confineCommand([spec.command, ...spec.args], {
    workspace: opts.workspace,
    cwd: spec.cwd,
    network: opts.network,
    readOnly: [process.execPath, depsDir(), ...named],
    writable: [serverDataDir(opts.ns)],
    // Started as a process group in pml's session where it can be (./process-group.ts).
    inCallerSession: true,
  });
  if (!confined) return spec;
  return {
    ...spec,
    command: confined.argv[0]!,
    args: confined.argv.slice(1),
    env: { ...spec.env, ...confined.env },
    release: confined.release,
    guard: confined.guard,
  };
}
