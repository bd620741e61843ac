// The security audit log: one JSON line per refused access, under <workspace>/.pml/audit.log.
// Append-only (O_APPEND, one write per line), so concurrent writers do not interleave lines.
import { appendFile, mkdir } from "node:fs/promises";
import { join } from "node:path";

export interface AuditEntry {
  /** The tool on whose behalf the access was tried ("filesystem:read_file"), if known. */
  tool?: string;
  /** What was tried: "read ../secret", "fetch https://example.com/", "env AWS_SECRET_KEY". */
  attempted: string;
  /** Why it was refused. */
  reason: string;
}

export function auditLogPath(workspace: string): string {
  return join(workspace, ".pml", "audit.log");
}

export async function appendAudit(workspace: string, entry: AuditEntry): Promise<void> {
  const line = JSON.stringify({ time: new Date().toISOString(), tool: entry.tool, attempted: entry.attempted, reason: entry.reason }) + "\n";
  await mkdir(join(workspace, ".pml"), { recursive: true });
  await appendFile(auditLogPath(workspace), line, { flag: "a", mode: 0o600 });
}
