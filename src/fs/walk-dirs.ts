// One bounded breadth-first walk of a workspace's folders, for the scans that must see every
// folder (protected names for the OS sandbox and for moves, nested repositories) but never stall
// on a huge tree.
import { type Dirent, readdirSync } from "node:fs";
import { join, sep } from "node:path";

/**
 * Calls `visit` with each entry of `root` and of the folders below it, breadth first, reading at
 * most `limit` folders; `visit` returns true to go into that entry (a folder), or "stop" to end the
 * walk. Folders that cannot be read are passed over. Says whether the walk saw everything, was
 * stopped, or left folders unread at the limit.
 */
export function walkDirs(root: string, limit: number, visit: (dir: string, entry: Dirent, full: string) => boolean | "stop"): "all" | "stopped" | "limit" {
  const queue = [root];
  let next = 0;
  for (; next < queue.length && next < limit; next++) {
    const dir = queue[next]!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const full = dir.endsWith(sep) ? dir + e.name : join(dir, e.name);
      const into = visit(dir, e, full);
      if (into === "stop") return "stopped";
      if (into) queue.push(full);
    }
  }
  return next < queue.length ? "limit" : "all";
}
