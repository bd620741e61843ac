// What a call will do, from its arguments, as an approval question shows it: the paths a file
// tool touches, the arguments of any other tool. Every value is escaped (visible-text.ts) and
// bounded, long ones cut with a count of what was left out, so a question stays readable and
// nothing in an argument can hide or reorder the rest of it.
import type { FileTarget } from "../sandbox/builtins/file-targets.ts";
import { quoted as quotedLine, visible } from "../visible-text.ts";

/** The longest string value shown whole in an argument view, a path, a preview. */
const VALUE_MAX = 200;
/** The longest argument view of a call. */
const ARGS_MAX = 1000;

/** The first `n` UTF-16 units of `s`, not splitting a surrogate pair. */
function head(s: string, n: number): string {
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/** `s` cut to `max` characters, with how many more there were. */
export function clip(s: string, max = VALUE_MAX): string {
  return s.length <= max ? s : `${head(s, max)}… (${s.length - max} more characters)`;
}

/** `s` cut in the middle: its beginning and its end shown (where a command's `; curl … | sh` would be). */
export function clipMiddle(s: string, max: number): string {
  if (s.length <= max) return s;
  const tailLength = Math.floor(max / 4);
  const start = head(s, max - tailLength);
  let end = s.slice(s.length - tailLength);
  if (/^[\udc00-\udfff]/.test(end)) end = end.slice(1);
  return `${start}… (${s.length - start.length - end.length} more characters) …${end}`;
}

/** A string argument as a question shows it: quoted, cut, escaped. */
export function quoted(s: string, max = VALUE_MAX): string {
  return quotedLine(clip(s, max));
}

/** A compact view of a call's arguments: JSON, each long string cut, the whole bounded. */
export function argumentsView(args: Record<string, unknown> | undefined): string {
  if (!args || Object.keys(args).length === 0) return "no arguments";
  let json: string;
  try {
    json = JSON.stringify(args, (_k, v) => (typeof v === "string" ? clip(v) : v));
  } catch {
    return "arguments that are not JSON";
  }
  return `the arguments ${visible(clip(json, ARGS_MAX))}`;
}

/** A path as given, and where it leads when that reads differently. */
function pathText(t: FileTarget): string {
  return t.resolved === t.given ? quoted(t.given) : `${quoted(t.given)} (that is ${quoted(t.resolved)} in the workspace)`;
}

/** The first edit of an edit_file call, shortly: what it replaces with what. */
function firstEdit(edit: unknown): string {
  const e = edit as { oldText?: unknown; newText?: unknown } | undefined;
  if (typeof e?.oldText !== "string" || typeof e.newText !== "string") return "";
  return `, the first replacing ${quoted(e.oldText, 120)} with ${quoted(e.newText, 120)}`;
}

/** What a call of pml's own filesystem tool will do, naming each path it touches. */
export function fileActionText(action: string, args: Record<string, unknown> | undefined, targets: FileTarget[]): string {
  const at = (arg: string) => {
    const t = targets.find((x) => x.arg === arg);
    return t ? pathText(t) : "(no path given)";
  };
  const content = typeof args?.content === "string" ? args.content : "";
  const edits = Array.isArray(args?.edits) ? args.edits : [];
  switch (action) {
    case "write_file":
      return `It will write the file ${at("path")} (created or replaced): ${content.length} characters, starting ${quoted(content, 160)}.`;
    case "edit_file":
      return args?.dryRun === true
        ? `It will show the diff of ${edits.length} edit(s) to ${at("path")} without changing it.`
        : `It will change the file ${at("path")}: ${edits.length} edit(s)${firstEdit(edits[0])}.`;
    case "create_directory":
      return `It will create the directory ${at("path")}.`;
    case "move_file":
      return `It will move ${at("source")} to ${at("destination")}.`;
    case "read_file":
      return `It will read ${at("path")}.`;
    case "list_directory":
      return `It will list the directory ${at("path")}.`;
    case "search_files":
      return `It will search ${at("path")} for ${quoted(String(args?.pattern ?? ""))}.`;
    case "get_file_info":
      return `It will read the type, size and times of ${at("path")}.`;
    default:
      return `It will be called with ${argumentsView(args)}.`;
  }
}
