import { expect, test } from "bun:test";
import { Cancellation } from "../../src/mcp/abort.ts";

test("a Cancellation runs each listener once, skips removed ones, and its AbortSignal follows it whenever it is made", () => {
  const c = new Cancellation();
  const early = c.signal; // made before the abort
  const calls: string[] = [];
  const removed = () => calls.push("removed");
  c.addEventListener("abort", () => calls.push("a"));
  c.addEventListener("abort", removed);
  c.removeEventListener("abort", removed);
  const why = new Error("user pressed Esc");
  c.abort(why);
  c.abort(new Error("again"));
  expect(calls).toEqual(["a"]);
  expect(c.aborted).toBe(true);
  expect(c.reason).toBe(why);
  expect(early.aborted).toBe(true);
  expect(early.reason).toBe(why);
  const late = new Cancellation();
  late.abort(why);
  expect(late.signal.aborted).toBe(true); // made after the abort
  expect(late.signal.reason).toBe(why);
  late.addEventListener("abort", () => calls.push("after"));
  expect(calls).toEqual(["a"]);
});

test("a Cancellation takes listener objects too (handleEvent, as AbortSignal does), each once, removable", () => {
  const c = new Cancellation();
  const calls: string[] = [];
  const kept = { handleEvent: () => calls.push("kept") };
  const removed = { handleEvent: () => calls.push("removed") };
  c.addEventListener("abort", () => calls.push("fn"));
  c.addEventListener("abort", kept);
  c.addEventListener("abort", removed);
  c.removeEventListener("abort", removed);
  c.abort();
  c.abort();
  expect(calls).toEqual(["fn", "kept"]);
});
