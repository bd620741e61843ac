// The security audit log: one JSON line per refused access (and per curate_capabilities call that
// asked a language model: its prompt and answer), under <workspace>/.pml/audit.log.
// Append-only (O_APPEND, one write per line), so concurrent writers do not interleave lines.
// Written without following links (config/no-follow.ts), and escaped so that no line does anything
// when a shell sources the file: a tool named `shell:exec$(id>/tmp/x)` is logged as
// `shell:exec\u0024(id>/tmp/x)`, still the same string to any JSON reader.
import { join } from "node:path";
import { appendNoFollowSync } from "../fs/no-follow.ts";
import { log } from "../log.ts";

export interface AuditEntry {
  /** The tool on whose behalf the access was tried ("filesystem:read_file"), if known. */
  tool?: string;
  /** What was tried: "read ../secret", "fetch https://example.com/", "env AWS_SECRET_KEY". */
  attempted: string;
  /** Why it was refused (or, for a curation, what was decided). */
  reason: string;
  /** curate_capabilities auto: the confirmation prompt sent to the language model, and its answer. */
  prompt?: string;
  answer?: string;
}

export const AUDIT_REL_PATH = join(".pml", "audit.log");

export function auditLogPath(workspace: string): string {
  return join(workspace, AUDIT_REL_PATH);
}

// `$` and backquote expand inside a shell's double quotes, where every JSON string sits; DEL, C1
// controls and the Unicode line separators can steer terminals and line readers.
const UNSAFE = /[$`\u007f-\u009f\u2028\u2029]/g;

/** One audit line: JSON whose text holds nothing a shell or terminal acts on. */
export function auditLine(entry: AuditEntry, time = new Date()): string {
  const json = JSON.stringify({ time: time.toISOString(), tool: entry.tool, attempted: entry.attempted, reason: entry.reason, prompt: entry.prompt, answer: entry.answer });
  return json.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) + "\n";
}

const warned = new Set<string>();

/** Appends one line (synchronously: it is on disk when this returns; refusals are rare). */
export async function appendAudit(workspace: string, entry: AuditEntry): Promise<void> {
  try {
    appendNoFollowSync(workspace, AUDIT_REL_PATH, auditLine(entry));
  } catch (e) {
    // Said once per workspace and reason on stderr: callers do not wait on the audit log.
    const msg = (e as Error).message;
    if (!warned.has(msg)) {
      warned.add(msg);
      log.warn(`audit log not written: ${msg}`);
    }
    throw e;
  }
}
