// Reading a module's `__meta__` without running the module. Registry code is untrusted, so its
// metadata is read as data: a leading `// __meta__: {json}` comment, or an
// `export const __meta__ = <literal>` whose initializer is parsed by a small literal parser
// (objects, arrays, strings, numbers, booleans, null; unquoted keys, trailing commas and
// comments allowed). Anything computed (calls, spreads, identifiers) is refused with a message.

export class MetaSyntaxError extends Error {
  override name = "MetaSyntaxError";
}

const COMMENT_META = /^\s*(?:#![^\n]*\n\s*)?\/\/\s*__meta__\s*:\s*(.*)$/m;
const EXPORT_META = /export\s+(?:const|let|var)\s+__meta__\s*=\s*/;

/** The `// __meta__:` JSON comment, if the source starts with one (before any code). */
export function metaFromComment(source: string): unknown | undefined {
  const m = COMMENT_META.exec(source);
  if (!m || source.slice(0, m.index).trim() !== "") return undefined;
  try {
    return JSON.parse(m[1]!.trim());
  } catch (e) {
    throw new MetaSyntaxError(`the leading "// __meta__:" comment is not valid JSON (${(e as Error).message})`);
  }
}

/** The initializer of `export const __meta__ = ...` in JavaScript (already transpiled), if any. */
export function metaFromExport(js: string): unknown | undefined {
  return exportedLiteral(js, EXPORT_META);
}

const EXPORT_SCHEMAS = /export\s+(?:const|let|var)\s+schemas\s*=\s*/;

/** `export const schemas = {<tool>: <JSON Schema>}` (the seed's modules), read as data, if any. */
export function schemasFromExport(js: string): unknown | undefined {
  return exportedLiteral(js, EXPORT_SCHEMAS);
}

function exportedLiteral(js: string, re: RegExp): unknown | undefined {
  const m = re.exec(js);
  if (!m) return undefined;
  return new LiteralParser(js, m.index + m[0].length).value();
}

/** Either form; the comment wins because it is the cheaper, explicit declaration. */
export function extractModuleMeta(source: string, js: string): unknown | undefined {
  return metaFromComment(source) ?? metaFromExport(js);
}

class LiteralParser {
  constructor(
    private readonly text: string,
    private pos: number,
  ) {}

  private fail(what: string): never {
    const line = this.text.slice(0, this.pos).split("\n").length;
    const near = this.text.slice(this.pos, this.pos + 24).replace(/\s+/g, " ");
    throw new MetaSyntaxError(`__meta__ must be a plain literal (objects, arrays, strings, numbers, booleans, null): ${what} at line ${line} near "${near}"`);
  }

  private skip(): void {
    const t = this.text;
    for (;;) {
      const c = t[this.pos];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") this.pos++;
      else if (c === "/" && t[this.pos + 1] === "/") {
        const nl = t.indexOf("\n", this.pos);
        this.pos = nl < 0 ? t.length : nl + 1;
      } else if (c === "/" && t[this.pos + 1] === "*") {
        const end = t.indexOf("*/", this.pos + 2);
        if (end < 0) this.fail("unterminated comment");
        this.pos = end + 2;
      } else return;
    }
  }

  value(): unknown {
    this.skip();
    const c = this.text[this.pos];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"' || c === "'") return this.string();
    if (c === "-" || c === "+" || c === "." || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    const word = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(this.text.slice(this.pos, this.pos + 64))?.[0];
    if (word === "true" || word === "false" || word === "null") {
      this.pos += word.length;
      return word === "true" ? true : word === "false" ? false : null;
    }
    if (c === "`") this.fail("template literal");
    if (word) this.fail(`identifier "${word}"`);
    this.fail("unexpected character");
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++; // {
    for (;;) {
      this.skip();
      if (this.text[this.pos] === "}") {
        this.pos++;
        return out;
      }
      let key: string;
      const c = this.text[this.pos];
      if (c === '"' || c === "'") key = this.string();
      else {
        const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(this.text.slice(this.pos, this.pos + 256));
        if (!m) this.fail(c === "." ? "spread" : c === "[" ? "computed key" : "unexpected key");
        key = m[0];
        this.pos += key.length;
      }
      this.skip();
      if (this.text[this.pos] === "," || this.text[this.pos] === "}") this.fail(`shorthand property "${key}" (a variable)`);
      if (this.text[this.pos] === "(") this.fail(`method "${key}"`);
      if (this.text[this.pos] !== ":") this.fail(`expected ":" after key "${key}"`);
      this.pos++;
      const value = this.value();
      // Own data property even for "__proto__", never the prototype setter.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      this.skip();
      const sep = this.text[this.pos];
      if (sep === ",") this.pos++;
      else if (sep !== "}") this.fail('expected "," or "}"');
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.pos++; // [
    for (;;) {
      this.skip();
      if (this.text[this.pos] === "]") {
        this.pos++;
        return out;
      }
      if (this.text[this.pos] === ".") this.fail("spread");
      out.push(this.value());
      this.skip();
      const sep = this.text[this.pos];
      if (sep === ",") this.pos++;
      else if (sep !== "]") this.fail('expected "," or "]"');
    }
  }

  private string(): string {
    const quote = this.text[this.pos]!;
    let out = "";
    this.pos++;
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined || c === "\n") this.fail("unterminated string");
      this.pos++;
      if (c === quote) return out;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = this.text[this.pos++];
      const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" };
      if (e === undefined) this.fail("unterminated string");
      if (e in simple) out += simple[e];
      else if (e === "u") {
        let hex: string;
        if (this.text[this.pos] === "{") {
          const end = this.text.indexOf("}", this.pos);
          hex = this.text.slice(this.pos + 1, end);
          this.pos = end + 1;
        } else {
          hex = this.text.slice(this.pos, this.pos + 4);
          this.pos += 4;
        }
        if (!/^[0-9a-fA-F]{1,6}$/.test(hex)) this.fail("bad \\u escape");
        out += String.fromCodePoint(parseInt(hex, 16));
      } else if (e === "x") {
        const hex = this.text.slice(this.pos, this.pos + 2);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) this.fail("bad \\x escape");
        out += String.fromCharCode(parseInt(hex, 16));
        this.pos += 2;
      } else if (e === "\n") {
        // line continuation
      } else out += e;
    }
  }

  private number(): number {
    const m = /^[+-]?(0[xX][0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)/.exec(this.text.slice(this.pos, this.pos + 64));
    if (!m) this.fail("bad number");
    this.pos += m[0].length;
    return Number(m[0]);
  }
}
