// A stdio server's log file: its stderr goes straight into it, pml adds `[pml]` lines, and error
// messages quote the last lines the child wrote since it started. Rotated once it grows large.
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";

const LOG_ROTATE_BYTES = 4 * 1024 * 1024;
const STDERR_TAIL_LINES = 12;

export class ServerLog {
  readonly path: string;
  /** Open for appending; the child's stderr is this descriptor. */
  readonly fd: number;
  /** Where this run's lines begin (earlier runs of the server are above). */
  private readonly start: number;
  private closed = false;

  /** Opens (rotating) `<logDir>/<ns>.log` and writes the line that starts this run. */
  constructor(logDir: string, ns: string, commandLine: string) {
    mkdirSync(logDir, { recursive: true });
    this.path = join(logDir, `${ns.replace(/[^A-Za-z0-9_.-]/g, "_")}.log`);
    try {
      if (statSync(this.path).size > LOG_ROTATE_BYTES) renameSync(this.path, `${this.path}.1`);
    } catch {}
    this.fd = openSync(this.path, "a");
    writeSync(this.fd, `--- ${new Date().toISOString()} pml starts ${ns}: ${commandLine}\n`);
    this.start = fstatSync(this.fd).size;
  }

  /** A line from pml itself (not the child's stderr); nothing once the log is closed. */
  note(text: string): void {
    if (this.closed) return;
    try {
      writeSync(this.fd, `[pml] ${text}\n`);
    } catch {}
  }

  close(): void {
    this.closed = true;
    try {
      closeSync(this.fd);
    } catch {}
  }

  /** The last lines the child wrote to stderr since it started (read back from the file). */
  stderrTail(lines = STDERR_TAIL_LINES): string {
    try {
      const st = statSync(this.path);
      const from = Math.max(this.start, st.size - 8192);
      const len = st.size - from;
      if (len <= 0) return "";
      const fd = openSync(this.path, "r");
      try {
        const buf = Buffer.alloc(len);
        readSync(fd, buf, 0, len, from);
        const all = buf
          .toString("utf8")
          .split("\n")
          .filter((l) => l.trim() && !l.startsWith("--- ") && !l.startsWith("[pml] "));
        return all.slice(-lines).join("\n");
      } finally {
        closeSync(fd);
      }
    } catch {
      return "";
    }
  }

  /** The tail, as a sentence to append to an error message. */
  stderrSection(): string {
    const tail = this.stderrTail();
    return tail ? ` Last lines of its stderr (full log: ${this.path}):\n${tail}` : ` It wrote nothing to stderr (log: ${this.path}).`;
  }
}
