// What discover reads of a capability on its first candidacy is read ahead in idle time
// (src/memory/read-ahead.ts), so that a new wording on a warm server pays only for its own words.
// Reading ahead must change no answer, never run while a discover does, and survive a read that fails.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { Memory } from "../../src/memory/memory.ts";
import { ReadAhead } from "../../src/memory/read-ahead.ts";
import { captureInput, storeFixture } from "./helpers.ts";

const fx = storeFixture("pml-read-ahead-");
const { scope, settings } = fx;
const db = join(fx.dir, "memory.db");
const opened: Memory[] = [];
afterAll(async () => {
  for (const m of opened) await m.close();
  fx.cleanup();
});

const CAPS: Array<[string, string, string]> = [
  ["text", "sort_lines_ascending", "sort the lines of a text file from smallest to largest"],
  ["text", "sort_lines_descending", "sort the lines of a text file from largest to smallest"],
  ["text", "first_lines", "return the first N lines of a file"],
  ["text", "last_lines", "return the last N lines of a file"],
  ["json", "object_keys", "list the top-level keys of a JSON object"],
  ["json", "object_values", "list the top-level values of a JSON object"],
  ["b64", "encode_text", "encode a string as base64"],
  ["b64", "decode_text", "decode a base64 string back to text"],
  ["md", "open_checklist_items", "list the unchecked items of a markdown checklist"],
  ["md", "done_checklist_items", "list the checked items of a markdown checklist"],
  ["num", "decimal_to_hex", "convert a decimal number given as a string to lowercase hexadecimal"],
  ["num", "hex_to_decimal", "convert a hexadecimal string to a decimal number"],
  ["fs", "count_words", "count the words in a text file"],
  ["fs", "backup_file", "copy a file to a .bak file beside the original"],
  ["csv", "csv_to_json", "read a CSV file and return its rows as JSON objects"],
  ["log", "count_errors_by_level", "count the lines of a log file per level (ERROR, WARN, INFO)"],
  ["git", "changed_files", "list the files modified since the last commit"],
  ["url", "slugify_title", "turn a title into a lower-case URL slug"],
];
const REQUESTS = [
  "sort the lines of notes.txt biggest first",
  "show the tail of server.log, last 20 lines",
  "what are the values in package.json at the top level",
  "turn aGVsbG8= into plain text",
  "which todo boxes are still not ticked in TODO.md",
  "what's 48879 in hex?",
  "how many ERROR and WARN lines in app.log",
  "files I touched but did not commit",
  "make a slug for 'Hello World Again'",
  "read a file",
];

async function seed(): Promise<void> {
  for (const [namespace, action, intent] of CAPS) await fx.store.capture(captureInput(scope, { namespace, action }, { intent, code: `return ${JSON.stringify(action)};` }));
}

const answers = async (memory: Memory) => {
  const out: string[] = [];
  for (const q of REQUESTS) out.push(JSON.stringify(await memory.discover(settings, q, [], 10)));
  return out;
};

test("answers read ahead are the answers read on demand (results, labels, evidence)", async () => {
  await seed();
  const ahead = new Memory(db);
  const onDemand = new Memory(db);
  opened.push(ahead, onDemand);
  await ahead.discover(settings, "warm up", [], 10);
  await ahead.readAhead();
  // No idle time between its discovers: what onDemand's ranking reads, it reads when a request asks.
  const read = await answers(onDemand);
  expect(await answers(ahead)).toEqual(read);
  expect(read.join("\n")).toContain("open_checklist_items");
});

test("reading ahead waits while a discover runs and goes on after it", async () => {
  const reads: string[] = [];
  const runs: number[] = [];
  const ahead = new ReadAhead(
    (key) => reads.push(key),
    (read) => runs.push(read),
  );
  const release = ahead.hold();
  for (let i = 0; i < 500; i++) ahead.add(`k${i}`);
  await Bun.sleep(20);
  expect(reads.length).toBe(0);
  release();
  release(); // a second release frees nothing more
  await ahead.idle();
  expect(new Set(reads).size).toBe(500);
  // One run, however many slices it took: its end is told once, with every key it read.
  expect(runs).toEqual([500]);
});

test("a read that throws skips that key only; a stopped read-ahead reads nothing more", async () => {
  const reads: string[] = [];
  const ahead = new ReadAhead((key) => {
    if (key === "bad") throw new Error("unreadable");
    reads.push(key);
  });
  for (const k of ["a", "bad", "b"]) ahead.add(k);
  await ahead.idle();
  expect(reads.sort()).toEqual(["a", "b"]);
  const stopped = new ReadAhead((key) => reads.push(key));
  const release = stopped.hold();
  stopped.add("never");
  stopped.stop();
  release();
  await stopped.idle();
  await Bun.sleep(10);
  expect(reads).not.toContain("never");
});
