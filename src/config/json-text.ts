// JSON files the user edits by hand: parse with errors that say file:line:column and what is
// wrong (JSON.parse in Bun gives neither a position nor a useful reason), and write them back
// in the indentation the user chose.
import { ConfigError } from "../errors.ts";
import { quoted } from "../visible-text.ts";

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
  const scanner = new StrictJsonScanner(text);
  try {
    scanner.document();
    return undefined;
  } catch (e: any) {
    const at: number = e instanceof JsonSyntaxError ? e.at : scanner.i;
    const before = text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - (before.lastIndexOf("\n") + 1) + 1;
    return { line, column, message: e?.message ?? String(e) };
  }
}

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

/** Reads one JSON document from the start, throwing JsonSyntaxError at the first thing that is not JSON. */
class StrictJsonScanner {
  /** The position read up to. */
  i = 0;

  constructor(private readonly text: string) {}

  document(): void {
    this.value();
    this.ws();
    if (this.i < this.text.length) this.fail(`unexpected ${this.describe(this.i)} after the end of the JSON value`);
  }

  private fail(message: string, at = this.i): never {
    throw new JsonSyntaxError(message, at);
  }

  private describe(at: number): string {
    return at >= this.text.length ? "the end of the file" : quoted(this.text[at]!);
  }

  private ws(): void {
    const text = this.text;
    for (;;) {
      const c = text[this.i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") this.i++;
      else if (c === "/" && (text[this.i + 1] === "/" || text[this.i + 1] === "*")) this.fail("comments are not allowed in JSON");
      else return;
    }
  }

  private str(): void {
    const text = this.text;
    this.i++; // opening quote
    for (;;) {
      if (this.i >= text.length) this.fail('unterminated string (missing closing ")');
      const c = text[this.i]!;
      if (c === '"') return void this.i++;
      if (c === "\n") this.fail("unterminated string (line break inside a string; use \\n)");
      if (c.charCodeAt(0) < 0x20) this.fail("control character inside a string; escape it");
      if (c === "\\") {
        const e = text[this.i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 2, this.i + 6))) this.fail("bad \\u escape: expected 4 hex digits");
          this.i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) this.i += 2;
        else this.fail(`bad escape \\${e ?? ""} in string`);
      } else this.i++;
    }
  }

  private num(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.i));
    if (!m || m[0] === "-") this.fail(`unexpected ${this.describe(this.i)}; expected a value`);
    this.i += m![0].length;
  }

  private value(): void {
    const text = this.text;
    this.ws();
    const c = text[this.i];
    if (c === "{") return this.obj();
    if (c === "[") return this.arr();
    if (c === '"') return this.str();
    if (c === "'") this.fail("strings must use double quotes");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.num();
    for (const lit of ["true", "false", "null"]) if (text.startsWith(lit, this.i)) return void (this.i += lit.length);
    if (c === undefined) this.fail("unexpected end of the file; expected a value");
    const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(this.i))?.[0];
    this.fail(word ? `unexpected ${quoted(word)}; expected a value (strings need double quotes)` : `unexpected ${this.describe(this.i)}; expected a value`);
  }

  private obj(): void {
    const text = this.text;
    this.i++;
    this.ws();
    if (text[this.i] === "}") return void this.i++;
    for (;;) {
      this.ws();
      if (text[this.i] !== '"') {
        if (text[this.i] === "}") this.fail("trailing comma before }");
        this.fail(`expected a property name in double quotes, found ${this.describe(this.i)}`);
      }
      this.str();
      this.ws();
      if (text[this.i] !== ":") this.fail(`expected ":" after the property name, found ${this.describe(this.i)}`);
      this.i++;
      this.value();
      this.ws();
      if (text[this.i] === ",") {
        this.i++;
        continue;
      }
      if (text[this.i] === "}") return void this.i++;
      this.fail(`expected "," or "}" after a property value, found ${this.describe(this.i)}`);
    }
  }

  private arr(): void {
    const text = this.text;
    this.i++;
    this.ws();
    if (text[this.i] === "]") return void this.i++;
    for (;;) {
      this.ws();
      if (text[this.i] === "]") this.fail("trailing comma before ]");
      this.value();
      this.ws();
      if (text[this.i] === ",") {
        this.i++;
        continue;
      }
      if (text[this.i] === "]") return void this.i++;
      this.fail(`expected "," or "]" after an array item, found ${this.describe(this.i)}`);
    }
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
    else out += `[${quoted(String(k))}]`;
  }
  return out || "(top level)";
}
