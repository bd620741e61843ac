// Module source of the built-in `filesystem` MCP. It runs in the sandbox like any registry module;
// the file access itself happens in the host (host.ts) through the workspace path guard.
export const FILESYSTEM_CODE = String.raw`
function lines(text) {
  return text.split("\n");
}

export async function read_file(args, ctx) {
  const text = await ctx.fs.read({ path: args.path });
  if (args.head != null && args.tail != null) throw new Error("give head or tail, not both");
  if (args.head != null) return lines(text).slice(0, args.head).join("\n");
  if (args.tail != null) return args.tail === 0 ? "" : lines(text).slice(-args.tail).join("\n");
  return text;
}

export async function write_file(args, ctx) {
  const r = await ctx.fs.write({ path: args.path, content: args.content });
  return "Wrote " + r.bytes + " bytes to " + r.path;
}

function unifiedDiff(path, a, b) {
  if (a === b) return "No changes.";
  const A = lines(a), B = lines(b);
  let start = 0;
  while (start < A.length && start < B.length && A[start] === B[start]) start++;
  let endA = A.length, endB = B.length;
  while (endA > start && endB > start && A[endA - 1] === B[endB - 1]) { endA--; endB--; }
  const context = 3;
  const from = Math.max(0, start - context);
  const toA = Math.min(A.length, endA + context), toB = Math.min(B.length, endB + context);
  const out = ["--- " + path, "+++ " + path, "@@ -" + (from + 1) + "," + (toA - from) + " +" + (from + 1) + "," + (toB - from) + " @@"];
  for (let i = from; i < start; i++) out.push(" " + A[i]);
  for (let i = start; i < endA; i++) out.push("-" + A[i]);
  for (let i = start; i < endB; i++) out.push("+" + B[i]);
  for (let i = endA; i < toA; i++) out.push(" " + A[i]);
  return out.join("\n");
}

export async function edit_file(args, ctx) {
  const original = await ctx.fs.read({ path: args.path });
  const crlf = original.includes("\r\n");
  const before = original.replace(/\r\n/g, "\n");
  let text = before;
  (args.edits || []).forEach((edit, i) => {
    const n = "edit " + (i + 1) + ": ";
    const oldText = String(edit.oldText).replace(/\r\n/g, "\n");
    const newText = String(edit.newText).replace(/\r\n/g, "\n");
    if (oldText === "") throw new Error(n + "oldText is empty; give the exact text to replace");
    const at = text.indexOf(oldText);
    if (at === -1) throw new Error(n + "oldText was not found in " + args.path + " (it must match exactly, including whitespace; read the file first)");
    if (text.indexOf(oldText, at + 1) !== -1) throw new Error(n + "oldText occurs more than once in " + args.path + "; include more surrounding lines to make it unique");
    text = text.slice(0, at) + newText + text.slice(at + oldText.length);
  });
  const diff = unifiedDiff(args.path, before, text);
  if (!args.dryRun && text !== before) await ctx.fs.write({ path: args.path, content: crlf ? text.replace(/\n/g, "\r\n") : text });
  return diff;
}

export async function list_directory(args, ctx) {
  const entries = await ctx.fs.list({ path: args.path || "." });
  if (entries.length === 0) return "(empty directory)";
  return entries.map((e) => (e.type === "directory" ? "[DIR] " : e.type === "symlink" ? "[LINK] " : "[FILE] ") + e.name).join("\n");
}

export async function search_files(args, ctx) {
  const r = await ctx.fs.glob({ pattern: args.pattern, path: args.path || "." });
  if (r.matches.length === 0) return "No matches for " + args.pattern;
  return r.matches.join("\n") + (r.truncated ? "\n(more matches not shown; narrow the pattern)" : "");
}

export async function get_file_info(args, ctx) {
  return await ctx.fs.stat({ path: args.path });
}

export async function create_directory(args, ctx) {
  const r = await ctx.fs.mkdir({ path: args.path });
  return "Created directory " + r.path;
}

export async function move_file(args, ctx) {
  const r = await ctx.fs.move({ from: args.source, to: args.destination });
  return "Moved " + r.from + " to " + r.to;
}
`;
