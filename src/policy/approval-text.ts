// What an approval prompt says: what the call will do (./call-preview.ts: the paths, the exact
// command line of a shell command, the arguments), how the tool runs and whether the OS sandbox
// confines it (and with or without network). Never "scoped to the workspace" for something that is not.
// Text only: what it needs of the machine (is a package installed, which confinement works) comes
// in as a `QuestionHost`, so that the gate's decision (./evaluate.ts) stays pure.
import type { ProjectConfig } from "../config/pml-json.ts";
import { isBuiltinFilesystem, isBuiltinShell } from "../sandbox/builtins/builtins.ts";
import type { FileTarget } from "../sandbox/builtins/file-targets.ts";
import { quoted as quotedLine } from "../visible-text.ts";
import { argumentsView, clipMiddle, fileActionText, quoted } from "./call-preview.ts";
import type { Confinement } from "../sandbox/confine.ts";
import { confinementSentence } from "../sandbox/confinement-text.ts";
import type { EnvPlan } from "../env/env-resolver.ts";
import { describeEnvPlan } from "../env/env-text.ts";
import type { Resolved } from "../registry/resolved.ts";

/** What a question says of the machine, found by whoever asks (the gate's facts). */
export interface QuestionHost {
  /** A stdio server's package is installed already (nothing to download first). */
  installed: boolean;
  /** Which confinement works here; needed only where `asksConfinement`. */
  confinement?: Confinement;
}

/** Whether a question about `r` says how its process is confined (stdio servers, the shell). */
export function asksConfinement(r: Resolved): boolean {
  const d = r.descriptor;
  return (d.type === "module" && isBuiltinShell(d)) || (d.type === "stdio" && d.confine !== false);
}

/** How the tool's process runs, for stdio servers and the shell; "" for everything else. */
export function confinementNote(r: Resolved, config: ProjectConfig, c: Confinement | undefined): string {
  const d = r.descriptor;
  if (d.type === "module" && isBuiltinShell(d)) {
    const net = config.sandbox?.shell_net === true;
    return ` ${confinementSentence(c!, net)}${net ? " (.pml.json sandbox.shell_net is true)" : ""}`;
  }
  if (d.type !== "stdio") return "";
  if (d.confine === false) return ' It is not confined (its .pml.json private_mcps entry does not say "confine": true): it runs as you, with your files and network.';
  const net = config.sandbox?.server_net?.includes(r.ns) === true;
  let text = ` ${confinementSentence(c!, net)}`;
  if (d.network && !net) text += ` It says it needs the network: add "${r.ns}" to sandbox.server_net in .pml.json to give it.`;
  return text;
}

/** Code someone else published, that a call would fetch and run here (another org's capability). */
export interface ForeignCode {
  /** The org that published it (the FQDN's first part). */
  org: string;
  fqdn: string;
  /** Where it comes from (the team registry, .pml.json cloud.url). */
  source: string;
}

/** What a call of another org's capability runs: the org is named, since that is what the user decides on. */
export function foreignCodeText(f: ForeignCode): string {
  return (
    `It runs code published by org "${f.org}" (${f.fqdn}, from ${f.source}) on this machine, in pml's sandbox; ` +
    `each tool that code calls is still checked against your .pml.json and asked about as your own calls are. Always allows ${f.fqdn} (any version) from now on.`
  );
}

/** The command and folder of a shell:exec call; undefined for other tools. */
function shellCommand(r: Resolved, action: string, args: Record<string, unknown> | undefined): { command: string; cwd: string } | undefined {
  const d = r.descriptor;
  if (d.type !== "module" || !isBuiltinShell(d) || action !== "exec") return undefined;
  return { command: typeof args?.command === "string" ? args.command : "", cwd: typeof args?.cwd === "string" ? args.cwd : "." };
}

/** The longest command line shown whole; a longer one shows its beginning and its end. */
const COMMAND_MAX = 4000;

/** The exact command a shell:exec call will run and where. */
function commandLine(sh: { command: string; cwd: string }): string {
  const shell = process.platform === "win32" ? "cmd.exe /d /s /c" : "/bin/sh -c";
  const cwd = sh.cwd !== "." ? ` in ${quoted(sh.cwd)} (inside the workspace)` : " in the workspace";
  return `It will run: ${shell} ${quotedLine(clipMiddle(sh.command, COMMAND_MAX))}${cwd}.`;
}

/**
 * What a Continue approves for the rest of the session (or request): the tool, except for a shell
 * command, where it is that command in that folder. Approving `git status` must not let a later
 * `curl … | sh` of the same session run unasked.
 */
export function approvalKey(r: Resolved, toolId: string, action: string, args: Record<string, unknown> | undefined): string {
  const sh = shellCommand(r, action, args);
  return sh ? `${toolId} ${JSON.stringify([sh.cwd, sh.command])}` : toolId;
}

/** What the call will do with its arguments: the paths, the command line, the arguments. */
function whatItDoes(r: Resolved, action: string, args: Record<string, unknown> | undefined, files: FileTarget[] | undefined): string {
  const sh = shellCommand(r, action, args);
  if (sh) return commandLine(sh);
  if (files) return fileActionText(action, args, files);
  return `It will be called with ${argumentsView(args)}.`;
}

/** A registry package that is not installed yet is downloaded first: the question says so. */
function installNote(r: Resolved, installed: boolean): string {
  const d = r.descriptor;
  if (d.type !== "stdio" || !d.package) return "";
  const pkg = `${d.package.identifier}@${d.package.version}`;
  return installed ? "" : ` ${pkg} is not installed yet: a yes downloads it from npm first (checked against its pinned integrity).`;
}

/** How it runs and what it receives: the program, the URL, the variables. */
function describeRisk(r: Resolved, env: EnvPlan, host: QuestionHost): string {
  const d = r.descriptor;
  if (d.type === "inprocess") return `It is pml's own ${r.ns} tool (${d.description}).`;
  const dest = env.request.destination;
  let what: string;
  if (d.type === "stdio") what = `It runs ${dest} (from ${r.source}) on this machine.${installNote(r, host.installed)}`;
  else if (d.type === "http") what = `It sends the arguments to ${dest} (from ${r.source}).`;
  else if (env.request.kind === "cloud") what = `It sends the arguments to ${dest}.`;
  else if (d.type === "module" && isBuiltinShell(d)) what = "";
  else if (d.type === "module" && isBuiltinFilesystem(d)) what = "pml's own filesystem tool does it, in pml's sandbox, scoped to the workspace.";
  else what = `It runs module code from ${r.source} in pml's sandbox, scoped to the workspace.`;
  return [what, describeEnvPlan(env)].filter(Boolean).join(" ");
}

/**
 * The question for a call: what it will do (from its arguments: `files` for pml's own filesystem
 * tool, see sandbox/builtins/file-targets.ts), how it runs, and for a shell command what a yes covers.
 */
export function questionText(
  r: Resolved,
  action: string,
  args: Record<string, unknown> | undefined,
  env: EnvPlan,
  config: ProjectConfig,
  host: QuestionHost,
  files?: FileTarget[],
): string {
  const scope = shellCommand(r, action, args) ? " Continue approves this command only; Always allows every shell command." : "";
  const risk = describeRisk(r, env, host);
  return `${whatItDoes(r, action, args, files)}${risk ? ` ${risk}` : ""}${confinementNote(r, config, host.confinement)}${scope}`;
}
