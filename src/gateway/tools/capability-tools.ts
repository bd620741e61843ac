// The in-process namespace `cap`: every learned capability, called by name (`cap__fs__read_json`,
// `call {tool: "cap:fs:read_json@v1"}`, `mcp.cap.fs__read_json()` in code). It is reached through
// the invoker, so permissions, approvals and the tool_usage log apply to it as to any tool.
import type { Workspace } from "../../config/workspace.ts";
import { memorySettings, type Memory } from "../../memory/memory.ts";
import { CAP_NS, capWireName, type CapName } from "../../memory/names.ts";
import { readSavedParameters } from "../../memory/parameters.ts";
import { answerKind, type Capability, type Resolution } from "../../memory/store.ts";
import { findTeamCapability, keyOrg, teamRegistry, teamWanted, type RemoteCapability } from "../../memory/team.ts";
import type { InProcessNamespace } from "../dispatch/backends.ts";
import { runProgram, type Program, type ProgramDeps, type Recorded } from "./execute.ts";
import { takeResumedRun } from "../../policy/approval-channel.ts";
import { formatToolId } from "../../mcp/tool-names.ts";
import { capabilityArguments } from "./capability-args.ts";
import { closest } from "../dispatch/did-you-mean.ts";
import type { WireTool } from "../dispatch/call.ts";
import { errorResult, structuredResult } from "../../mcp/tool-result.ts";
import type { ForeignCheck } from "../../policy/gate.ts";
import type { Project } from "../../policy/project.ts";

/** What the capabilities' namespace needs: their records, the project's settings, the workspace
 * (its team registry), and a program runner. */
interface CapabilityDeps extends ProgramDeps {
  memory: Pick<Memory, "resolve" | "listNamed" | "recordRun">;
  project: Pick<Project, "config" | "memorySettings">;
  workspace: Pick<Workspace, "root">;
}

export function capabilityNamespace(deps: CapabilityDeps): Record<string, InProcessNamespace> {
  const settings = () => deps.project.memorySettings();
  return {
    cap: {
      description: "code that worked, kept as a named capability",
      foreignCode: (action) => foreignCapability(deps, action),
      async run(session, action, args, call) {
        // (A bad version specifier is a UserError: the invoker answers with its message.)
        const found = await deps.memory.resolve(await settings(), action);
        // Not saved here: the team registry's, run here like local code (see team.ts).
        let team: RemoteCapability | undefined;
        if (!found) {
          const fetched = await teamCapability(deps, action);
          if (typeof fetched === "string") return errorResult(fetched);
          team = fetched;
        }
        const cap = found?.capability ?? team!;
        const display = found ? found.capability.display_name : team!.name;
        // Checked as a function's arguments (by tool, `call`, `execute` or from code: every path
        // comes here); a team record's saved schema is read as pml infers one now (readSavedParameters).
        const checked = await capabilityArguments(display, found ? cap.parameters_schema : readSavedParameters(cap.parameters_schema, cap.default_args), args);
        if ("error" in checked) return errorResult(checked.error);
        const merged = checked.args;
        const run = await runProgram(deps, session, call, {
          code: cap.code,
          args: merged,
          intent: cap.intent ?? undefined,
          capabilityId: found?.capability.id,
          ...resumable(call, action, args),
        });
        if (run.kind === "input") return errorResult("pml internal error: a capability run cannot pause for input"); // runs without `bind` never do
        const deprecation = found && deprecationNote(found, display);
        if (run.kind === "result") {
          if (found && !run.result.approval_required) await deps.memory.recordRun(found.capability.id, false, run.ms).catch(() => {});
          return deprecation ? { ...run.result, content: [...run.result.content, { type: "text", text: deprecation }] } : run.result;
        }
        if (found) await deps.memory.recordRun(found.capability.id, true, run.ms, answerKind(run.value)).catch(() => {});
        // The caller named the capability, and pml's permissions already checked the tools it used:
        // the value is what it needs (issue 46: each field is context paid on every reuse). A call by
        // an old name or of a team capability says which one ran, a version specifier which version.
        const out: Record<string, unknown> = { result: run.value ?? null };
        if (found?.version) out.version = found.version;
        if (team || found?.alias) out.capabilityName = display;
        if (team)
          out.from = {
            registry: teamRegistry(await deps.project.config(), deps.workspace.root)?.url,
            fqdn: team.version_fqdn,
            version: team.version,
            by: team.updated_by ?? team.created_by,
          };
        if (deprecation) out.deprecation = deprecation;
        return structuredResult(out);
      },
    },
  };
}

/** A run paused for approval is continued by the tool the client called (this capability's tool,
 * or `call`), which replays it; `execute {capability}` and code continue through `execute`. */
function resumable(call: object, action: string, args: Record<string, unknown>): Pick<Program, "pauseAs" | "replay"> {
  const replay = takeResumedRun(call) as Recorded[] | undefined;
  const tool = (call as { name?: unknown }).name;
  if (typeof tool !== "string" || tool === "execute") return { replay };
  return { replay, pauseAs: { tool, via: formatToolId(CAP_NS, action), args } };
}

/** What a call by an old name (an alias), or of a capability the user deprecated, is told. */
function deprecationNote(found: Resolution, display: string): string | undefined {
  const notes: string[] = [];
  if (found.alias) notes.push(`${found.alias} is deprecated: it was renamed to ${display}; call ${display} instead.`);
  const d = found.capability.deprecated;
  if (d)
    notes.push(
      `${display} is deprecated${d.reason ? ` (${d.reason})` : ""}: ${d.replacement ? `call ${d.replacement} instead` : "it still runs, but look for another way (discover)"}.`,
    );
  return notes.length ? notes.join(" ") : undefined;
}

/** A capability this project does not have, from the team registry (cloud.url); a string says why not. */
async function teamCapability(deps: CapabilityDeps, action: string): Promise<RemoteCapability | string> {
  const notFound = `Capability not found: ${action}.${await nearCapability(deps, action)} Use discover {query} to find capabilities and tools by what they do.`;
  const config = await deps.project.config();
  const team = teamRegistry(config, deps.workspace.root);
  const wanted = teamWanted(action.replace(/@.*$/, ""));
  if (!team || !wanted) return notFound;
  try {
    return (await findTeamCapability(team, wanted, memorySettings(config, deps.workspace.root).scope)) ?? notFound;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Whose code a call by full FQDN runs (how another org's public capability is reached): the
 * user's own when it is saved here or the FQDN's org is the key's, else that org's, asked about
 * (the gate names it). One the registry cannot give is refused with the reason, before anything
 * is asked; the run fetches the same record (kept in the cache).
 */
async function foreignCapability(deps: CapabilityDeps, action: string): Promise<ForeignCheck | undefined> {
  const wanted = teamWanted(action.replace(/@.*$/, ""));
  if (!wanted || !("fqdn" in wanted)) return undefined;
  // Saved here: the user's own code (a bad version of it is for the run to say).
  const local = await deps.memory.resolve(await deps.project.memorySettings(), action).catch(() => "unreadable");
  if (local) return { allow: true };
  const record = await teamCapability(deps, action);
  if (typeof record === "string") return { refuse: record };
  const team = teamRegistry(await deps.project.config(), deps.workspace.root)!;
  const org = wanted.fqdn.split(".")[0]!;
  if ((await keyOrg(team)) === org) return { allow: true };
  // The registry's words go into a question the user decides on: only plain names and versions.
  const plain = (t: string | undefined) => (t && /^[\w.@+-]{1,64}$/.test(t) ? t : undefined);
  const version = plain(record.version);
  const by = plain(record.updated_by ?? record.created_by);
  const detail = [version && `version ${version}`, by && `by ${by}`].filter(Boolean).join(" ");
  return { ask: { org, fqdn: wanted.fqdn, source: `the team registry ${team.url}${detail ? `: ${detail}` : ""}` } };
}

/** " Did you mean fs:read_json?" for a name one or two letters off a capability of the workspace, else "". */
async function nearCapability(deps: CapabilityDeps, action: string): Promise<string> {
  const caps = await deps.memory.listNamed(await deps.project.memorySettings()).catch(() => []);
  const near = closest(
    action.replace(/@.*$/, ""),
    caps.map((c) => c.display_name),
  );
  return near ? ` Did you mean ${near}?` : "";
}

/** A description in tools/list is cut past this: 20 capabilities with pages of text each would
 * undo the bound on the list (dns:whois shows it whole). */
const LISTED_DESCRIPTION_MAX = 480;

/** A named capability as a tools/list entry (which ones are listed: capability-list.ts). */
export function capabilityTool(cap: Capability): WireTool {
  const full = (cap.description || cap.intent || `Learned capability ${cap.display_name}`).trim();
  const what = full.length <= LISTED_DESCRIPTION_MAX ? full : `${full.slice(0, LISTED_DESCRIPTION_MAX - 1).trimEnd()}…`;
  const uses = cap.tools_used.length ? ` Uses ${cap.tools_used.join(", ")}.` : "";
  return {
    name: capWireName(cap as CapName),
    title: `capability ${cap.display_name}`,
    description: `${what}${/[.!?]$/.test(what) ? "" : "."}${uses}`,
    inputSchema: cap.parameters_schema,
  };
}
