// `.pml.json` is JSONC, as tsconfig.json users expect: comments and trailing commas are fine.
// pml's own edits (an "Always", a grant) change only the values that changed and leave the
// user's comments, formatting and key order alone.
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { ConfigError } from "../errors.ts";

/** Parses JSONC; on failure throws ConfigError "file:line:col: invalid JSON: reason". */
export function parseJsoncFile(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === "") throw new ConfigError(`${file}: the file is empty; expected a JSON object like {}.`, file);
  const errors: ParseError[] = [];
  const value = parse(body, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  if (errors.length === 0) return value;
  const e = errors[0]!;
  const before = body.slice(0, e.offset);
  const line = before.split("\n").length;
  const column = e.offset - before.lastIndexOf("\n");
  throw new ConfigError(`${file}:${line}:${column}: invalid JSON: ${describe(printParseErrorCode(e.error))}. Fix the file and retry; pml leaves it untouched.`, file);
}

const MESSAGES: Record<string, string> = {
  InvalidSymbol: "unexpected character (property names and strings need double quotes)",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: 'expected ":" after the property name',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "," or "}"',
  CloseBracketExpected: 'expected "," or "]"',
  EndOfFileExpected: "unexpected text after the end of the top-level value",
  UnexpectedEndOfString: 'unterminated string (missing closing ")',
  UnexpectedEndOfComment: "unterminated /* comment",
  InvalidEscapeCharacter: "bad escape in string",
  InvalidCharacter: "control character inside a string; escape it",
};

function describe(code: string): string {
  return MESSAGES[code] ?? code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

type Json = unknown;
type Path = (string | number)[];

/**
 * `text` with the changes from `before` to `after` applied as edits: only changed values are
 * rewritten; entries appended to an array are inserted after its last one.
 */
export function editJsonc(text: string, before: Json, after: Json, indent: string): string {
  const formattingOptions = { insertSpaces: !indent.includes("\t"), tabSize: indent.includes("\t") ? 1 : indent.length || 2, eol: text.includes("\r\n") ? "\r\n" : "\n" };
  let out = text;
  const set = (path: Path, value: Json, isArrayInsertion = false) => {
    out = applyEdits(out, modify(out, path, value, { formattingOptions, isArrayInsertion }));
  };
  const walk = (path: Path, a: Json, b: Json) => {
    if (isObject(a) && isObject(b)) {
      for (const k of Object.keys(a)) if (!(k in b)) set([...path, k], undefined);
      for (const [k, v] of Object.entries(b)) if (!(k in a) || !same(a[k], v)) walk([...path, k], a[k], v);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && b.length > a.length && a.every((x, i) => same(x, b[i]))) {
      for (let i = a.length; i < b.length; i++) set([...path, i], b[i], true);
      return;
    }
    set(path, b);
  };
  walk([], before, after);
  return out;
}

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function same(a: Json, b: Json): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
