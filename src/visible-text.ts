// What the user reads before approving must show what will run, all of it: characters that reorder
// or hide text (bidirectional overrides, zero-width and other invisible ones, control characters)
// are written out as escapes, and long runs of blanks are collapsed to a count, so nothing can
// push a command's tail (`; curl … | sh`) out of sight or make it read backwards.

// Control characters but tab and newline; soft hyphen; Arabic letter mark; Hangul fillers;
// Mongolian vowel separator; zero-width and direction marks; bidi embeddings, overrides and
// isolates; word joiner and invisible operators; variation selectors; BOM; interlinear
// annotation; tag characters (as surrogate pairs).
// biome-ignore lint/complexity/useRegexLiterals: as a literal, the control characters it lists on purpose trip two other rules.
const HIDDEN = new RegExp(
  "[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff9-\\ufffb]|\\udb40[\\udc00-\\udc7f]",
  "g",
);
const BLANKS = /[ \t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]{4,}/g;
const BREAKS = /(?:\r?\n){3,}/g;

export function visible(text: string): string {
  return text
    .replace(HIDDEN, (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`)
    .replace(BLANKS, (run) => ` [${run.length} blanks] `)
    .replace(BREAKS, (run) => `\n[${run.split("\n").length - 1} line breaks]\n`);
}
