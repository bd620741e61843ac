// Code identity: the same program written with other spacing or comments is the same capability.
// Strings and template literals are kept verbatim; comments go; whitespace shrinks to one space
// where it separates two words and disappears elsewhere.

const WORD = /[A-Za-z0-9_$]/;

export function normalizeCode(code: string): string {
  let out = "";
  let pendingSpace = false;
  const emit = (s: string) => {
    if (pendingSpace && out && WORD.test(out[out.length - 1]!) && WORD.test(s[0]!)) out += " ";
    pendingSpace = false;
    out += s;
  };
  for (let i = 0; i < code.length; ) {
    const c = code[i]!;
    const next = code[i + 1];
    if (c === "/" && next === "/") {
      while (i < code.length && code[i] !== "\n") i++;
      pendingSpace = true;
    } else if (c === "/" && next === "*") {
      const end = code.indexOf("*/", i + 2);
      i = end < 0 ? code.length : end + 2;
      pendingSpace = true;
    } else if (/\s/.test(c)) {
      i++;
      pendingSpace = true;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === "\\" ? 2 : 1;
      emit(code.slice(i, j + 1));
      i = j + 1;
    } else {
      emit(c);
      i++;
    }
  }
  return out;
}

/** Hex SHA-256 of the normalised code. */
export function codeHash(code: string): string {
  return new Bun.CryptoHasher("sha256").update(normalizeCode(code)).digest("hex");
}
