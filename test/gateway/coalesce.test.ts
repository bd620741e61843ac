// The list_changed coalescer on a hand-driven clock: the first change is told at once, a burst
// within the window once when it ends, and a quiet window tells nothing.
import { expect, test } from "bun:test";
import { Coalesced, type Timers } from "../../src/gateway/dispatch/coalesce.ts";

function handClock() {
  let now = 0;
  const due: Array<{ at: number; fn: () => void; id: number }> = [];
  let ids = 0;
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      const t = { at: now + ms, fn, id: ids++ };
      due.push(t);
      return t.id;
    },
    clearTimeout: (id) => {
      const i = due.findIndex((t) => t.id === id);
      if (i >= 0) due.splice(i, 1);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (let t = due.find((x) => x.at <= now); t; t = due.find((x) => x.at <= now)) {
      due.splice(due.indexOf(t), 1);
      t.fn();
    }
  };
  return { timers, advance, pending: () => due.length };
}

test("first change at once, a burst once at the end of the window, nothing after a quiet window", () => {
  const clock = handClock();
  let fired = 0;
  const c = new Coalesced(3000, () => fired++, clock.timers);
  c.poke();
  expect(fired).toBe(1);
  for (let i = 0; i < 10; i++) {
    clock.advance(100);
    c.poke();
  }
  expect(fired).toBe(1);
  clock.advance(2000); // the window (3 s from the first) ends: the burst is told once
  expect(fired).toBe(2);
  clock.advance(3000); // a window with no change: nothing, and no timer left
  expect(fired).toBe(2);
  expect(clock.pending()).toBe(0);
  c.poke(); // quiet since: told at once again
  expect(fired).toBe(3);
  c.poke();
  c.stop(); // shutting down drops what was waiting
  clock.advance(10_000);
  expect(fired).toBe(3);
});
