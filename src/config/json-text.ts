// JSON files the user edits by hand: parse with errors that say file:line:column and what is
// wrong (JSON.parse in Bun gives neither a position nor a useful reason), and write them back
// in the indentation the user chose.
import { ConfigError } from "../errors.ts";

export interface JsonPosition {
  line: number;
  column: number;
  message: string;
}

/** Parses `text` as JSON; on failure throws ConfigError "file:line:col: invalid JSON: reason". */
export function parseJsonFile(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === "") throw new ConfigError(`${file}: the file is empty; expected a JSON object like {}.`, file);
  try {
    return JSON.parse(body);
  } catch {
    const pos = locateJsonError(body) ?? { line: 1, column: 1, message: "not valid JSON" };
    throw new ConfigError(`${file}:${pos.line}:${pos.column}: invalid JSON: ${pos.message}. Fix the file and retry; pml leaves it untouched.`, file);
  }
}

/** Where and why `text` is not JSON; undefined if it is. A small strict scanner, run only after
 * JSON.parse failed. */
export function locateJsonError(text: string): JsonPosition | undefined {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw Object.assign(new Error(message), { at });
  };
  const describe = (at: number) => (at >= text.length ? "the end of the file" : JSON.stringify(text[at]));
  const ws = () => {
    for (;;) {
      const c = text[i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") i++;
      else if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) fail("comments are not allowed in JSON");
      else return;
    }
  };
  const str = () => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail("unterminated string (missing closing \")");
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c === "\n") fail("unterminated string (line break inside a string; use \\n)");
      if (c.charCodeAt(0) < 0x20) fail("control character inside a string; escape it");
      if (c === "\\") {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("bad \\u escape: expected 4 hex digits");
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail(`bad escape \\${e ?? ""} in string`);
      } else i++;
    }
  };
  const num = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === "-") fail(`unexpected ${describe(i)}; expected a value`);
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") return obj();
    if (c === "[") return arr();
    if (c === '"') return str();
    if (c === "'") fail("strings must use double quotes");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return num();
    for (const lit of ["true", "false", "null"]) if (text.startsWith(lit, i)) return void (i += lit.length);
    if (c === undefined) fail("unexpected end of the file; expected a value");
    const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i))?.[0];
    fail(word ? `unexpected ${JSON.stringify(word)}; expected a value (strings need double quotes)` : `unexpected ${describe(i)}; expected a value`);
  };
  const obj = () => {
    i++;
    ws();
    if (text[i] === "}") return void i++;
    for (;;) {
      ws();
      if (text[i] !== '"') {
        if (text[i] === "}") fail("trailing comma before }");
        fail(`expected a property name in double quotes, found ${describe(i)}`);
      }
      str();
      ws();
      if (text[i] !== ":") fail(`expected ":" after the property name, found ${describe(i)}`);
      i++;
      value();
      ws();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === "}") return void i++;
      fail(`expected "," or "}" after a property value, found ${describe(i)}`);
    }
  };
  const arr = () => {
    i++;
    ws();
    if (text[i] === "]") return void i++;
    for (;;) {
      ws();
      if (text[i] === "]") fail("trailing comma before ]");
      value();
      ws();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === "]") return void i++;
      fail(`expected "," or "]" after an array item, found ${describe(i)}`);
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${describe(i)} after the end of the JSON value`);
    return undefined;
  } catch (e: any) {
    const at: number = typeof e?.at === "number" ? e.at : i;
    const before = text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - (before.lastIndexOf("\n") + 1) + 1;
    return { line, column, message: e?.message ?? String(e) };
  }
}

/** The indentation unit the file already uses (2 spaces when it cannot tell). */
export function detectIndent(text: string | undefined): string {
  const m = text ? /^[ \t]*\S[^\n]*\n([ \t]+)\S/m.exec(text) : null;
  const unit = m?.[1];
  return unit && (unit === "\t" || /^ {1,8}$/.test(unit)) ? unit : "  ";
}

export function formatJson(value: unknown, indent = "  "): string {
  return `${JSON.stringify(value, null, indent)}\n`;
}

/** Renders a valibot issue path as `permissions.allow[2]` / `private_mcps["my server"]`. */
export function keyPath(path: readonly { key: unknown }[] | undefined): string {
  let out = "";
  for (const item of path ?? []) {
    const k = item.key;
    if (typeof k === "number") out += `[${k}]`;
    else if (typeof k === "string" && /^[A-Za-z_$][\w$-]*$/.test(k)) out += out ? `.${k}` : k;
    else out += `[${JSON.stringify(k)}]`;
  }
  return out || "(top level)";
}
