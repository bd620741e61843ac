// Approval workflows: random, single-use, bound to session and tool, expiring after 5 minutes.
import { expect, test } from "bun:test";
import { WORKFLOW_TTL_MS } from "../../src/policy/approvals.ts";
import { Workflows } from "../../src/policy/workflow-channel.ts";

const base = { sessionId: "s1", tool: "memory__create_entities", dependency: "memory:create_entities", kind: "tool" as const, args: { a: 1 } };

test("a workflow works once, for its own session and tool", () => {
  const w = new Workflows();
  const wf = w.open(base);
  expect(wf.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(w.open(base).id).not.toBe(wf.id);
  expect(w.take(wf.id, "s2", base.tool)).toBeUndefined();
  // Another tool: told which one it was issued for, and not used up.
  expect(w.take(wf.id, "s1", "memory__read_graph")).toEqual({ issuedFor: base.tool });
  expect((w.take(wf.id, "s1", base.tool) as { args?: unknown })?.args).toEqual({ a: 1 });
  expect(w.take(wf.id, "s1", base.tool)).toBeUndefined();
  expect(w.take(undefined, "s1", base.tool)).toBeUndefined();
  expect(w.take({ id: wf.id } as any, "s1", base.tool)).toBeUndefined();
});

test("a workflow expires after 5 minutes", () => {
  const w = new Workflows();
  const t0 = 1_000_000;
  const fresh = w.open(base, t0);
  const stale = w.open(base, t0);
  expect(w.take(fresh.id, "s1", base.tool, t0 + WORKFLOW_TTL_MS - 1)).toBeDefined();
  expect(w.take(stale.id, "s1", base.tool, t0 + WORKFLOW_TTL_MS)).toBeUndefined();
  expect(WORKFLOW_TTL_MS).toBe(5 * 60_000);
});
