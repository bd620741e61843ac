// What pml shows a person from a file or a server (an approval question, `pml trust`, `pml doctor`,
// a config error, a warning, the `pml ui` page) must show it all and nothing else: characters that
// reorder or hide text (bidirectional overrides, zero-width and other invisible ones, control
// characters such as ESC, which can erase a terminal line and write another) are written out as
// escapes, and long runs of blanks are collapsed to a count, so nothing can push a command's tail
// (`; curl … | sh`) out of sight, make it read backwards, or fake the line a person reads.

// Control characters but tab and newline; soft hyphen; Arabic letter mark; Hangul fillers;
// Mongolian vowel separator; zero-width and direction marks; line and paragraph separators; bidi
// embeddings, overrides and isolates; word joiner and invisible operators; variation selectors;
// BOM; interlinear annotation; tag characters (as surrogate pairs).
// biome-ignore lint/complexity/useRegexLiterals: as a literal, the control characters it lists on purpose trip two other rules.
const HIDDEN = new RegExp(
  "[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff9-\\ufffb]|\\udb40[\\udc00-\\udc7f]",
  "g",
);
const BLANKS = /[ \t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]{4,}/g;
const BREAKS = /(?:\r?\n){3,}/g;
const BREAKS_AND_TABS = /[\t\n]/g;

const asEscape = (c: string) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`;

/** Only what hides or reorders text escaped: newlines, tabs and blank runs kept (logs, code). */
export function visibleChars(text: string): string {
  return text.replace(HIDDEN, asEscape);
}

/** A text a person reads: hidden characters escaped, long runs of blanks and of line breaks counted. */
export function visible(text: string): string {
  return visibleChars(text)
    .replace(BLANKS, (run) => ` [${run.length} blanks] `)
    .replace(BREAKS, (run) => `\n[${run.split("\n").length - 1} line breaks]\n`);
}

/** One value (a URL, a name, an argument) or one line: newlines and tabs escaped too, so what the
 * value holds cannot start a line of its own (a fake grant in `pml trust`, a fake check in `pml doctor`). */
export function visibleLine(text: string): string {
  return visible(text.replace(BREAKS_AND_TABS, asEscape));
}

/** A value in double quotes: its quotes and backslashes escaped, then shown as visibleLine. */
export function quoted(text: string): string {
  return `"${visibleLine(text.replace(/["\\]/g, "\\$&"))}"`;
}

/** A name a server or a file chose (a tool id): as it is when made of name characters only (what
 * MCP asks of tool names), else quoted, so text that reads like a sentence or a line of pml's own
 * (`deploy? It only reads README.md.`) shows as the one odd name it is. */
export function visibleName(text: string): string {
  return /^[A-Za-z0-9_.:/@-]+$/.test(text) ? text : quoted(text);
}
