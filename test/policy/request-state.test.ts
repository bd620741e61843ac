// A 2026-07-28 request state is bound to the tool, the kind of request and the arguments it was
// issued for; the retry that brings it back is checked against all three where states are
// verified, and the state is used up whatever the check finds.
import { afterAll, expect, test } from "bun:test";
import { argsDigest, RequestStates } from "../../src/policy/state-channel.ts";
import { tempDir } from "../helpers/pml.ts";

const ws = tempDir();
afterAll(() => ws.cleanup());
const states = new RequestStates(ws.path, { PML_STATE_KEY: "a-key-of-at-least-16-characters" });
const issue = () => states.issue({ kind: "execute", tool: "execute", args: argsDigest({ code: "return 1" }), dependency: "filesystem:read_file" });

test("a retry of another kind is refused, and the state is used up", () => {
  const state = issue();
  expect(states.redeem(state, "execute", { kind: "tool", bind: { code: "return 1" } })).toBe("it belongs to another kind of request (execute)");
  expect(states.redeem(state, "execute", { kind: "execute", bind: { code: "return 1" } })).toBe("it was already used (each one works once)");
});

test("a retry with other arguments is refused, and the state is used up", () => {
  const state = issue();
  expect(states.redeem(state, "execute", { kind: "execute", bind: { code: "return 2" } })).toBe("the arguments differ from the call it was issued for");
  expect(states.redeem(state, "execute", { kind: "execute", bind: { code: "return 1" } })).toBe("it was already used (each one works once)");
});

test("the retry it was issued for redeems it once; key order does not matter", () => {
  const state = states.issue({ kind: "tool", tool: "filesystem_read_file", args: argsDigest({ path: "a", tail: 2 }) });
  const payload = states.redeem(state, "filesystem_read_file", { kind: "tool", bind: { tail: 2, path: "a" } });
  expect(typeof payload === "object" && payload.kind).toBe("tool");
});
