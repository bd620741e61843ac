// pml's logger. Everything goes to stderr: in `pml stdio`, stdout carries JSON-RPC only.
// Level from PML_LOG (error|warn|info|debug), default info.
import { visibleChars } from "./visible-text.ts";

const levels = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 } as const;
type Level = keyof typeof levels;

const asked = process.env.PML_LOG;
const current: number = levels[(asked as Level) ?? "info"] ?? levels.info;
// A typo must not pass silently (every debug line would be missing with no word why); a server
// the client starts still starts, at the default level.
if (asked !== undefined && asked !== "" && !(asked in levels)) {
  process.stderr.write(`[pml] warn: PML_LOG=${JSON.stringify(asked).slice(1, -1).slice(0, 40)} is not a level; use one of error, warn, info, debug (using info).\n`);
}

function write(level: Level, parts: unknown[]): void {
  if (levels[level] > current) return;
  const text = parts.map((p) => (typeof p === "string" ? p : p instanceof Error ? p.message : JSON.stringify(p))).join(" ");
  // A message may quote a file or a server: its controls (ESC…) and bidi characters are escaped,
  // its newlines kept (visible-text.ts).
  process.stderr.write(`[pml] ${level === "info" ? "" : `${level}: `}${visibleChars(text)}\n`);
}

export const log = {
  error: (...parts: unknown[]) => write("error", parts),
  warn: (...parts: unknown[]) => write("warn", parts),
  info: (...parts: unknown[]) => write("info", parts),
  debug: (...parts: unknown[]) => write("debug", parts),
  enabled: (level: Level) => levels[level] <= current,
};
