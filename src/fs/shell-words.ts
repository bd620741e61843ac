// The words of a command line as `sh` splits it, for finding the files a git setting runs
// (`!f(){ ./tools/rel.sh; }; f` names `./tools/rel.sh`, not `./tools/rel.sh;`). Not a shell: no
// expansion happens; it only has to find every word, and which ones sit where a command goes.

export interface ShellWord {
  /** The word with quotes and backslashes removed. */
  text: string;
  /** First word of a simple command: a program `sh` looks up in PATH unless it has a `/`. */
  command: boolean;
}

/** Reserved words after which a command comes. */
const KEYWORDS = new Set(["if", "then", "else", "elif", "do", "while", "until", "!", "time"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const OPERATORS = new Set([";", "&", "|", "(", ")", "{", "}", "\n"]);
/** A word that is itself a command line (`sh -c 'a; ./b'`, `"$(./x)"`) is split again, this deep. */
const MAX_DEPTH = 4;

/** Every word of `line`, also those inside quoted command lines, `$(...)` and backquotes. */
export function shellWords(line: string, depth = 0): ShellWord[] {
  const words: ShellWord[] = [];
  let cur = "";
  let started = false;
  let command = true;
  let redirect = false;
  const end = () => {
    if (started) {
      let isCommand = false;
      // A redirection's file, or an assignment before the command (`X=1 cmd`), leaves the command to come.
      if (redirect) redirect = false;
      else if (command && !ASSIGNMENT.test(cur)) {
        isCommand = true;
        command = KEYWORDS.has(cur);
      }
      words.push({ text: cur, command: isCommand });
    }
    cur = "";
    started = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\\") {
      if (i + 1 < line.length && line[i + 1] !== "\n") cur += line[i + 1];
      started = true;
      i++;
    } else if (c === "'") {
      const j = line.indexOf("'", i + 1);
      cur += line.slice(i + 1, j < 0 ? line.length : j);
      started = true;
      i = j < 0 ? line.length : j;
    } else if (c === '"') {
      i = doubleQuoted(line, i + 1, (s) => (cur += s));
      started = true;
    } else if ((c === "$" && line[i + 1] === "(") || c === "`") {
      end();
      command = true;
      if (c === "$") i++;
    } else if (c === "<" || c === ">") {
      end();
      redirect = true;
    } else if (OPERATORS.has(c)) {
      end();
      command = true;
    } else if (c === " " || c === "\t" || c === "\r") end();
    else {
      cur += c;
      started = true;
    }
  }
  end();
  if (depth >= MAX_DEPTH) return words;
  return words.flatMap((w) => {
    const inner = /[\s;&|(){}<>`$]/.test(w.text) ? shellWords(w.text, depth + 1) : [];
    return inner.length === 1 && inner[0]!.text === w.text ? [w] : [w, ...inner];
  });
}

/** Reads a "..." body from `start`; a backslash escapes only $ ` " \ and a newline there. Returns the closing quote's index. */
function doubleQuoted(line: string, start: number, add: (s: string) => void): number {
  let i = start;
  for (; i < line.length && line[i] !== '"'; i++) {
    if (line[i] === "\\" && i + 1 < line.length && '$`"\\\n'.includes(line[i + 1]!)) {
      if (line[i + 1] !== "\n") add(line[i + 1]!);
      i++;
    } else add(line[i]!);
  }
  return i;
}
