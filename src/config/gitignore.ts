// Keeps secrets files out of git: adds a line to the project's .gitignore unless an equivalent
// line is already there.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic.ts";

/** Adds `entry` (e.g. ".env") to `<dir>/.gitignore`, creating the file if needed. */
export async function ensureGitignored(dir: string, entry: string): Promise<{ path: string; action: "added" | "present" }> {
  const path = join(dir, ".gitignore");
  const text = await readFile(path, "utf8").catch((e: any) => {
    if (e?.code === "ENOENT") return undefined;
    throw e;
  });
  const bare = entry.replace(/\/$/, "");
  const covering = new Set([entry, `/${entry}`, `${entry}*`, `/${entry}*`, bare, `/${bare}`]);
  const lines = (text ?? "").split(/\r?\n/).map((l) => l.trim());
  if (lines.some((l) => covering.has(l))) return { path, action: "present" };
  const prefix = text === undefined || text === "" ? "" : text.endsWith("\n") ? text : `${text}\n`;
  await writeFileAtomic(path, `${prefix}${entry}\n`, { within: dir });
  return { path, action: "added" };
}
