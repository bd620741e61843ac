// What the page changes, each through the code path an agent's call takes: a rename, a tag, a pin,
// a deprecation or a publish is the stdlib tool itself (dns:rename, dns:tag, dns:pin,
// dns:deprecate, learn:publish) run with this workspace's memory and .pml.json, so the page and an
// agent cannot disagree on names, checks (trust, the secret screen) or messages; an approval answer goes to the session
// that asked, through the channel it publishes in $PML_HOME.
import * as v from "valibot";
import { deprecate } from "../gateway/tools/dns/deprecate.ts";
import { pin } from "../gateway/tools/dns/pin.ts";
import { rename } from "../gateway/tools/dns/rename.ts";
import { tag } from "../gateway/tools/dns/tag.ts";
import { publish } from "../gateway/tools/learn/publish.ts";
import type { StdlibContext, StdlibDeps } from "../gateway/tools/stdlib-namespace.ts";
import { answerApproval, readLiveSessions } from "../policy/live/live-sessions.ts";
import type { UiContext } from "./context.ts";

/** The part of a session's context these tools read (memory and project); no session or call is behind a page's action. */
async function toolContext(ctx: UiContext): Promise<StdlibContext> {
  const deps = { workspace: ctx.workspace, project: ctx.project, memory: ctx.memory } as Partial<StdlibDeps> as StdlibDeps;
  return { deps, settings: await ctx.project.memorySettings() } as Partial<StdlibContext> as StdlibContext;
}

export async function renameCapability(ctx: UiContext, body: unknown) {
  return rename.call(body as Record<string, unknown>, await toolContext(ctx), "dns:rename");
}

export async function tagCapability(ctx: UiContext, body: unknown) {
  return tag.call(body as Record<string, unknown>, await toolContext(ctx), "dns:tag");
}

export async function pinCapability(ctx: UiContext, body: unknown) {
  return pin.call(body as Record<string, unknown>, await toolContext(ctx), "dns:pin");
}

export async function deprecateCapability(ctx: UiContext, body: unknown) {
  return deprecate.call(body as Record<string, unknown>, await toolContext(ctx), "dns:deprecate");
}

export async function publishCapability(ctx: UiContext, body: unknown) {
  return publish.call(body as Record<string, unknown>, await toolContext(ctx), "learn:publish");
}

/** Pending approvals of the sessions running for this workspace. */
export function approvals(ctx: UiContext) {
  return {
    sessions: readLiveSessions(ctx.home, ctx.workspace.root).map((s) => ({
      id: s.id,
      pid: s.pid,
      client: s.client,
      transport: s.transport,
      approvals: s.approvals,
    })),
  };
}

const AnswerSchema = v.strictObject({
  session: v.pipe(v.string(), v.minLength(1)),
  id: v.pipe(v.string(), v.minLength(1)),
  answer: v.picklist(["continue", "always", "abort"]),
});

export async function answer(ctx: UiContext, body: unknown) {
  const parsed = v.safeParse(AnswerSchema, body);
  if (!parsed.success) throw new AnswerError('Give {session, id, answer: "continue" | "always" | "abort"}.');
  const { session, id, answer: choice } = parsed.output;
  // Only a session of this workspace, asking this question now, is answered from this page.
  const live = readLiveSessions(ctx.home, ctx.workspace.root).find((s) => s.id === session);
  if (!live?.approvals.some((a) => a.id === id)) throw new AnswerError("That approval is no longer pending (answered elsewhere, expired, or its session ended).");
  await answerApproval(ctx.home, session, id, choice);
  return { answered: id, answer: choice };
}

export class AnswerError extends Error {
  override name = "AnswerError";
}
