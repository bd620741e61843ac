// What learning from use keeps, and for how long: the words that led to a successful call (a
// `discover` query, a stated intent) are counted per workspace owner and item, and a count halves
// every HALF_LIFE_DAYS, so what a project did long ago weighs less than what it does now.

export const HALF_LIFE_DAYS = 30;
/** Per item: the phrasings kept (the ones most counted, after decay). */
export const MAX_PER_ITEM = 20;
/** Per owner, in all: past this the least recently used go. */
export const MAX_PER_OWNER = 5000;
/** A count never grows past this: one phrasing repeated all day does not drown every other. */
export const MAX_COUNT = 10;
/** Kept words, at most (a query is a sentence, not a document). */
export const MAX_TEXT = 160;
/** Below this a decayed count is forgotten. */
export const MIN_COUNT = 0.05;

const DAY_MS = 86_400_000;

/** `count` as of `now`, set at `lastAt` (ISO). */
export function decayed(count: number, lastAt: string, now: number): number {
  const age = Math.max(0, now - Date.parse(lastAt)) / DAY_MS;
  return Number.isFinite(age) ? count * 0.5 ** (age / HALF_LIFE_DAYS) : 0;
}

/**
 * The text as kept and shown: one line, control and format characters removed, lower case, at
 * most MAX_TEXT characters. Empty when nothing is left. It is only ever compared and shown as a
 * JSON string, never run.
 */
export function associationText(raw: string): string {
  const line = raw
    .normalize("NFKC")
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
  return line.length <= MAX_TEXT ? line : line.slice(0, MAX_TEXT).replace(/\s+\S*$/, "");
}
