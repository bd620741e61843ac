// The one JSON-RPC peer (src/mcp/peer.ts) on its own: what it writes, how answers, progress,
// timeouts, cancellation and closing settle the requests in flight.
import { expect, jest, test } from "bun:test";
import { Cancellation } from "../../src/mcp/abort.ts";
import { Peer, type Failure } from "../../src/mcp/peer.ts";

class Failed extends Error {
  constructor(readonly f: Failure) {
    super(f.kind);
  }
}
const fail = (f: Failure) => new Failed(f);

function peer(prefix?: string) {
  const lines: any[] = [];
  const p = new Peer<any>((line) => lines.push(JSON.parse(line)), prefix);
  return { p, lines };
}

test("ids, the written request, a result and an error answer", async () => {
  const { p, lines } = peer("pml-");
  const a = p.request("ping", undefined, { label: "ping", fail });
  const b = p.request("tools/call", { name: "x" }, { label: "tools/call x", fail });
  expect(lines).toEqual([
    { jsonrpc: "2.0", id: "pml-1", method: "ping" },
    { jsonrpc: "2.0", id: "pml-2", method: "tools/call", params: { name: "x" } },
  ]);
  expect(p.receive({ id: "pml-2", error: { code: -32602, message: "bad" } })).toBe(true);
  expect(p.receive({ id: "pml-1", result: { ok: 1 } })).toBe(true);
  expect(await a).toEqual({ ok: 1 });
  expect(((await b.catch((e) => e)) as Failed).f).toEqual({ kind: "error", code: -32602, message: "bad", data: undefined });
  expect(p.receive({ id: "pml-1", result: {} })).toBe(false); // already answered
  expect(p.size).toBe(0);
});

test("numeric ids come back as strings from some servers and still match", async () => {
  const { p } = peer();
  const a = p.request("ping", undefined, { label: "ping", fail });
  p.receive({ id: "1", result: "pong" });
  expect(await a).toBe("pong");
});

test("a timeout fails the request and tells the other side; progress restarts the timer", async () => {
  const { p, lines } = peer();
  const slow = p.request("tools/call", {}, { label: "slow", timeoutMs: 150, fail });
  const failure = ((await slow.catch((e) => e)) as Failed).f;
  expect(failure).toEqual({ kind: "timeout", timeoutMs: 150 });
  expect(lines.at(-1)).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "timeout" } });

  // On a fake clock (timers and performance.now()): exactly 300 ms between progress notifications,
  // however busy the machine is.
  jest.useFakeTimers();
  try {
    const seen: string[] = [];
    const kept = p.request("tools/call", {}, { label: "kept", timeoutMs: 600, fail, progress: (m) => seen.push(m) });
    for (let i = 0; i < 3; i++) {
      jest.advanceTimersByTime(300);
      p.progress({ progressToken: 2, progress: i, message: `step ${i}` });
    }
    p.receive({ id: 2, result: "done" }); // 900 ms after it was sent: alive thanks to progress
    expect(await kept).toBe("done");
    expect(seen).toEqual(["step 0", "step 1", "step 2"]);
  } finally {
    jest.useRealTimers();
  }
});

test("one timer for the peer: each request in flight times out at its own deadline, answered ones never", async () => {
  const { p, lines } = peer();
  const started = performance.now();
  const long = p.request("tools/call", {}, { label: "long", timeoutMs: 400, fail });
  const short = p.request("tools/call", {}, { label: "short", timeoutMs: 100, fail }); // earlier than the armed deadline
  const answered = p.request("tools/call", {}, { label: "answered", timeoutMs: 100, fail });
  const none = p.request("tools/call", {}, { label: "none", fail }); // no timeout at all
  p.receive({ id: 3, result: "ok" });
  expect(await answered).toBe("ok");
  expect(((await short.catch((e) => e)) as Failed).f).toEqual({ kind: "timeout", timeoutMs: 100 });
  expect(p.size).toBe(2); // the long one is still waiting
  expect(((await long.catch((e) => e)) as Failed).f).toEqual({ kind: "timeout", timeoutMs: 400 });
  expect(performance.now() - started).toBeGreaterThanOrEqual(400); // not before its own deadline
  const cancelled = lines.filter((l) => l.method === "notifications/cancelled").map((l) => l.params.requestId);
  expect(cancelled).toEqual([2, 1]);
  p.receive({ id: 4, result: "late but fine" });
  expect(await none).toBe("late but fine");
  expect(p.size).toBe(0);
});

test("the caller's signal cancels: the request fails at once and a cancellation goes out", async () => {
  const { p, lines } = peer();
  const c = new AbortController();
  const r = p.request("tools/call", {}, { label: "x", signal: c.signal, fail });
  c.abort(new Error("user"));
  expect(((await r.catch((e) => e)) as Failed).f.kind).toBe("cancelled");
  expect(lines.at(-1).method).toBe("notifications/cancelled");
  expect(p.receive({ id: 1, result: {} })).toBe(false);
  const already = p.request("tools/call", {}, { label: "y", signal: c.signal, fail });
  expect(((await already.catch((e) => e)) as Failed).f.kind).toBe("cancelled");
});

test("a client call's Cancellation cancels its request only while it is in flight; the request listens without a closure of its own", async () => {
  const { p, lines } = peer();
  const answered = new Cancellation();
  const a = p.request("tools/call", {}, { label: "a", signal: answered, fail });
  p.receive({ id: 1, result: "done" });
  expect(await a).toBe("done");
  answered.abort(new Error("too late")); // the request settled: its listener is gone
  expect(lines.filter((l) => l.method === "notifications/cancelled")).toEqual([]);
  const c = new Cancellation();
  const b = p.request("tools/call", {}, { label: "b", signal: c, fail });
  c.abort(new Error("user"));
  expect(((await b.catch((e) => e)) as Failed).f).toEqual({ kind: "cancelled", reason: new Error("user") });
  expect(lines.at(-1)).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "cancelled by the client" } });
  expect(p.size).toBe(0);
});

test("closing fails everything in flight and every later request; owners and settle hooks", async () => {
  const { p, lines } = peer();
  let settled = 0;
  const o1 = { who: "a" };
  const a = p.request("x", {}, { label: "x", fail, owner: o1, settled: () => settled++ });
  const b = p.request("x", {}, { label: "x", fail, owner: o1, settled: () => settled++ });
  const c = p.request("x", {}, { label: "x", fail, owner: "b", settled: () => settled++ });
  expect(p.owners()).toEqual([o1, "b"]);
  p.close("exited");
  for (const r of [a, b, c]) expect(((await r.catch((e) => e)) as Failed).f).toEqual({ kind: "closed", reason: "exited" });
  expect(settled).toBe(3);
  const later = await p.request("x", {}, { label: "x", fail }).catch((e) => e);
  expect((later as Failed).f.kind).toBe("closed");
  expect(lines.filter((l) => l.method === "notifications/cancelled")).toEqual([]); // nobody to tell
});

test("sendTo: the answer, a failure, a cancellation and a closed link are told to the caller's Settle, at once and without a promise", () => {
  const { p, lines } = peer();
  const told: unknown[] = [];
  const to = { resolve: (v: unknown) => told.push(["ok", v]), reject: (e: Error) => told.push(["failed", (e as Failed).f.kind]) };
  const a = p.nextId();
  expect(p.sendTo(a, `{"jsonrpc":"2.0","id":${a},"method":"x"}\n`, { label: "x", fail }, to)).toBeUndefined();
  expect(lines).toEqual([{ jsonrpc: "2.0", id: a, method: "x" }]);
  p.receive({ id: a, result: { n: 1 } });
  expect(told).toEqual([["ok", { n: 1 }]]); // in the same turn: no microtask in between
  const b = p.nextId();
  p.sendTo(b, "{}\n", { label: "y", fail }, to);
  p.receive({ id: b, error: { code: -1, message: "no" } });
  const cancel = new Cancellation();
  const c = p.nextId();
  p.sendTo(c, "{}\n", { label: "z", fail, signal: cancel }, to);
  cancel.abort(new Error("enough"));
  expect(lines.at(-1)).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: c, reason: "cancelled by the client" } });
  const d = p.nextId();
  p.sendTo(d, "{}\n", { label: "w", fail }, to);
  p.close("gone");
  p.sendTo(p.nextId(), "{}\n", { label: "v", fail }, to); // after the close: told at once
  expect(told.slice(1)).toEqual([
    ["failed", "error"],
    ["failed", "cancelled"],
    ["failed", "closed"],
    ["failed", "closed"],
  ]);
  expect(p.size).toBe(0);
});
