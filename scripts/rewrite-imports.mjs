// Moves files and rewrites every relative import (and "src/..." path in comments) that points at
// a moved file. Run again after merging a branch written against the old paths: an import that
// still names an old path is remapped. `node scripts/rewrite-imports.mjs [--move]`
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const MOVES = JSON.parse(fs.readFileSync(path.join(root, "scripts/moves.json"), "utf8"));

// Expand folder moves into file moves (old -> new, relative to root).
function fileMap() {
  const map = new Map();
  for (const [from, to] of Object.entries(MOVES)) {
    if (from.endsWith("/")) {
      const tracked = execFileSync("git", ["ls-files", from], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
      for (const f of tracked) map.set(f, to + f.slice(from.length));
      // After the move the old files are gone: keep the folder rule for later runs.
      map.set(from, to);
    } else map.set(from, to);
  }
  return map;
}

function target(map, rel) {
  if (map.has(rel)) return map.get(rel);
  for (const [from, to] of map) if (from.endsWith("/") && rel.startsWith(from)) return to + rel.slice(from.length);
  return undefined;
}

const map = fileMap();
if (process.argv.includes("--move")) {
  for (const [from, to] of map) {
    if (from.endsWith("/") || !fs.existsSync(path.join(root, from))) continue;
    fs.mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
    execFileSync("git", ["mv", from, to], { cwd: root });
  }
}

const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "src", "test", "bench", "scripts", "build.ts", "release.ts"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((f) => /\.(ts|tsx|mjs|js)$/.test(f) && fs.existsSync(path.join(root, f)));
// Where each file was before the move (imports inside a moved file were written from there).
const before = new Map([...map].filter(([f]) => !f.endsWith("/")).map(([a, b]) => [b, a]));
let changed = 0;
for (const rel of files) {
  const abs = path.join(root, rel);
  const text = fs.readFileSync(abs, "utf8");
  const dirNow = path.dirname(rel);
  const out = text
    .replace(/((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)(["'])/g, (all, pre, spec, post) => {
      let resolved = path.normalize(path.join(dirNow, spec));
      if (!fs.existsSync(path.join(root, resolved))) {
        // Written from the file's old place?
        const old = before.get(rel);
        if (old) resolved = path.normalize(path.join(path.dirname(old), spec));
      }
      const moved = target(map, resolved) ?? resolved;
      if (!fs.existsSync(path.join(root, moved))) return all;
      let next = path.relative(dirNow, moved);
      if (!next.startsWith(".")) next = "./" + next;
      return next === spec ? all : pre + next + post;
    })
    .replace(/\bsrc\/[\w./-]+\.ts\b/g, (p) => target(map, p) ?? p);
  if (out !== text) {
    fs.writeFileSync(abs, out);
    changed++;
  }
}
console.error(`rewrote imports in ${changed} files`);
