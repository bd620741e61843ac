// The tool lists of stdio servers, kept under $PML_HOME/tools so a new session knows a server's
// tools without starting it: `discover {namespace}` shows them, and a call to a tool the server
// does not have is refused before anyone is asked to approve it. One file per server definition:
// the key hashes what decides which program runs (command, args, package, version, integrity,
// the names of its variables), so an edited private_mcps entry or a new pin is listed anew.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { writeFileAtomicSync } from "../fs/atomic.ts";
import { pmlHome } from "../config/paths.ts";
import { ToolInfoSchema, type StdioDescriptor } from "../registry/descriptor.ts";
import type { ToolInfo } from "../mcp/types.ts";

const ToolListFile = v.object({ namespace: v.string(), key: v.string(), tools: v.array(ToolInfoSchema) });

export function toolListKey(d: StdioDescriptor): string {
  const defining = {
    command: d.command ?? null,
    args: d.args ?? [],
    package: d.package ?? null,
    integrity: d.integrity ?? d.file_sha256 ?? null,
    env: Object.keys(d.env ?? {}).sort(),
    env_required: [...(d.env_required ?? [])].sort(),
  };
  return createHash("sha256").update(JSON.stringify(defining)).digest("hex").slice(0, 16);
}

function fileFor(ns: string, key: string): string {
  // Namespaces are [A-Za-z0-9_.-] once resolved; anything else is replaced so no name can climb out.
  return join(pmlHome(), "tools", `${ns.replace(/[^A-Za-z0-9_.-]/g, "_")}-${key}.json`);
}

/** The list kept for this server definition; undefined when none (or unreadable: listed anew). */
export function readToolList(ns: string, key: string): ToolInfo[] | undefined {
  try {
    const parsed = v.safeParse(ToolListFile, JSON.parse(readFileSync(fileFor(ns, key), "utf8")));
    return parsed.success && parsed.output.namespace === ns && parsed.output.key === key ? (parsed.output.tools as ToolInfo[]) : undefined;
  } catch {
    return undefined;
  }
}

/** Best effort: a list that cannot be kept is listed again next session. */
export function writeToolList(ns: string, key: string, tools: readonly ToolInfo[]): void {
  try {
    mkdirSync(join(pmlHome(), "tools"), { recursive: true, mode: 0o700 });
    const kept = tools.map(({ name, description, inputSchema, outputSchema, annotations }) => ({ name, description, inputSchema, outputSchema, annotations }));
    writeFileAtomicSync(fileFor(ns, key), `${JSON.stringify({ namespace: ns, key, tools: kept })}\n`, { mode: 0o600 });
  } catch {
    // $PML_HOME read-only or full: the list stays in memory for this session.
  }
}
