// The Activity view: the workspace's audit log (<ws>/.pml/audit.log: refusals, curation decisions)
// and the user's tool_usage log (memory.db, one row per tool and second), merged newest first.
import { openSync, readSync, closeSync, fstatSync, constants } from "node:fs";
import type { Permissions } from "../config/permission-patterns.ts";
import { permissionFor } from "../policy/permissions.ts";
import { auditLogPath } from "../sandbox/audit.ts";
import { visible } from "../visible-text.ts";
import type { UiContext } from "./context.ts";
import { OWN_NAMESPACES } from "./overview.ts";

export interface ActivityRow {
  /** ISO time (tool_usage: the last call of that second). */
  time: string;
  tool: string;
  /** "ran" (every call of the row succeeded), "failed" (some did not), "refused" (audit log). */
  decision: "ran" | "failed" | "refused" | "decided";
  /** Who decided: .pml.json, the sandbox, a language model (curation), or the permissions that let it run. */
  by: string;
  calls: number;
  errors: number;
  /** Mean duration of the row's calls, ms. */
  duration_ms?: number;
  /** What was refused and why (audit), or what the row's last failed call said (its first line is
   * the reason; the page shows the rest on a click); none for calls logged before pml kept it.
   * Escaped for display, as text from a server or a file may need. */
  error?: string;
  source: "audit" | "usage";
}

/** The last bytes of the audit log read: enough for the latest few thousand lines. */
const AUDIT_TAIL_BYTES = 1024 * 1024;

export async function activity(ctx: UiContext, limit = 500): Promise<{ rows: ActivityRow[]; warnings: string[] }> {
  const warnings: string[] = [];
  const rows = auditRows(ctx.workspace.root, warnings);
  try {
    const store = await ctx.memory.open();
    const perms = (await ctx.project.config()).permissions ?? {};
    for (const u of await store.usageLog({ limit }))
      rows.push({
        time: u.last_at,
        tool: u.tool_id,
        decision: u.successes === u.calls ? "ran" : "failed",
        by: whoLetItRun(perms, u.tool_id),
        calls: u.calls,
        errors: u.calls - u.successes,
        duration_ms: Math.round((u.latency_ms_total / u.calls) * 10) / 10,
        ...(u.successes < u.calls && u.last_error ? { error: visible(u.last_error) } : {}),
        source: "usage",
      });
  } catch (e) {
    warnings.push(`tool usage not read: ${(e as Error).message}`);
  }
  rows.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
  return { rows: rows.slice(0, limit), warnings };
}

/** Who lets a tool run under the rules as they read now (a call is not logged with its decision). */
function whoLetItRun(perms: Permissions, toolId: string): string {
  const own = OWN_NAMESPACES.includes(toolId.split(":")[0]!);
  const decision = permissionFor(perms, toolId, own ? "allow" : "ask");
  const named = permissionFor(perms, toolId, "deny") === decision && permissionFor(perms, toolId, "allow") === decision;
  if (decision === "allow") return named ? ".pml.json (allow)" : "pml's default (its own tool)";
  if (decision === "ask") return "you (approval)";
  return ".pml.json (deny, since added)";
}

function auditRows(workspace: string, warnings: string[]): ActivityRow[] {
  const text = tail(auditLogPath(workspace), warnings);
  const rows: ActivityRow[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let e: { time?: unknown; tool?: unknown; attempted?: unknown; reason?: unknown; prompt?: unknown };
    try {
      e = JSON.parse(line);
    } catch {
      continue; // the first line of a tail may be cut
    }
    if (typeof e.time !== "string") continue;
    const reason = String(e.reason ?? "");
    const curation = e.prompt !== undefined;
    rows.push({
      time: e.time,
      tool: typeof e.tool === "string" ? e.tool : "",
      decision: curation ? "decided" : "refused",
      by: curation ? "language model (curation)" : /\.pml\.json/.test(reason) ? ".pml.json" : "sandbox",
      calls: 1,
      errors: curation ? 0 : 1,
      error: visible(`${String(e.attempted ?? "")}: ${reason}`),
      source: "audit",
    });
  }
  return rows;
}

/** The end of the file, read without following a link planted at its path. */
function tail(path: string, warnings: string[]): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") warnings.push(`audit log not read: ${(e as Error).message}`);
    return "";
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, AUDIT_TAIL_BYTES);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    return buf.toString("utf8");
  } finally {
    closeSync(fd);
  }
}
