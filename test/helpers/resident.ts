// What of this process's own executable is resident (src/code-pages.ts hands it back when idle).
import { readFileSync } from "node:fs";

/** Resident kB of the read-only mappings of this process's executable (Linux). */
export function residentCodeKb(): number {
  let kb = 0;
  let ours = false;
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S{4}) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) ours = head[1]![1] === "-" && head[2] === process.execPath;
    else if (ours && line.startsWith("Rss:")) kb += Number(/(\d+)/.exec(line)![1]);
  }
  return kb;
}
