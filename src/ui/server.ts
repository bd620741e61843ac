// The `pml ui` server: one Bun.serve on 127.0.0.1, every request through the guard first, then
// the page's files or its JSON API (one endpoint per view, and POST for the actions).
import { UserError } from "../errors.ts";
import type { Workspace } from "../config/workspace.ts";
import { openPagePresence } from "../policy/live/live-sessions.ts";
import { activity } from "./activity.ts";
import { answer, AnswerError, approvals, deprecateCapability, pinCapability, publishCapability, renameCapability, tagCapability } from "./actions.ts";
import { loadAssets, type Assets } from "./assets.ts";
import { capabilities, capability, versionDiff } from "./capabilities.ts";
import { uiContext, type UiContext } from "./context.ts";
import { Guard, plain, withHeaders } from "./guard.ts";
import { overview } from "./overview.ts";
import { answerToolChange, toolChanges } from "./tool-changes.ts";
import { visibleChars } from "../visible-text.ts";

export interface UiServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

type Get = (ctx: UiContext, q: URLSearchParams) => Promise<unknown>;
type Post = (ctx: UiContext, body: unknown) => Promise<unknown>;

const GETS: Record<string, Get> = {
  "/api/overview": (ctx) => overview(ctx),
  "/api/activity": (ctx, q) => activity(ctx, Number(q.get("limit")) || 500),
  "/api/capabilities": (ctx, q) => capabilities(ctx, q.get("q") ?? undefined),
  "/api/capability": async (ctx, q) => (await capability(ctx, q.get("name") ?? "")) ?? notFound(q.get("name")),
  "/api/diff": async (ctx, q) => (await versionDiff(ctx, q.get("name") ?? "", q.get("from") ?? "", q.get("to") ?? "")) ?? notFound(q.get("name")),
  "/api/approvals": async (ctx) => approvals(ctx),
  "/api/tool-changes": async (ctx) => toolChanges(ctx),
};

const POSTS: Record<string, Post> = {
  "/api/rename": renameCapability,
  "/api/tag": tagCapability,
  "/api/pin": pinCapability,
  "/api/deprecate": deprecateCapability,
  "/api/publish": publishCapability,
  "/api/answer": answer,
  "/api/tool-change": answerToolChange,
};

class NotFound extends Error {}
const notFound = (name: string | null): never => {
  throw new NotFound(`No capability ${JSON.stringify(name ?? "")} in this workspace.`);
};

export async function startUi(opts: { workspace: Workspace; home: string; port?: number }): Promise<UiServer> {
  const ctx = uiContext(opts.workspace, opts.home);
  const assets = await loadAssets();
  let guard: Guard | undefined;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: opts.port ?? 0,
    development: false,
    // Bun 1.4.5 shares the port with a second listener once `development` is given, unless told
    // not to: a second `pml ui --port N` must fail, not take half of the first one's requests.
    reusePort: false,
    // The page sends small JSON actions; nothing larger is read.
    maxRequestBodySize: 1024 * 1024,
    fetch: (req) => handle(req, guard!, ctx, assets),
  });
  const port = server.port!;
  guard = new Guard(port);
  // While the page runs, sessions of this workspace ask through it.
  const presence = openPagePresence(opts.home, opts.workspace.root);
  return {
    url: `http://127.0.0.1:${port}/?token=${guard.token}`,
    port,
    async stop() {
      presence.close();
      await server.stop(true);
      await ctx.memory.close();
    },
  };
}

async function handle(req: Request, guard: Guard, ctx: UiContext, assets: Assets): Promise<Response> {
  const checked = guard.check(req);
  if (checked instanceof Response) return checked;
  const path = new URL(req.url).pathname;
  if (path === "/api/session" && req.method === "GET") return json({ csrf: guard.csrf, workspace: ctx.workspace.root });
  const get = req.method === "GET" ? GETS[path] : undefined;
  const post = req.method === "POST" ? POSTS[path] : undefined;
  if (get || post) return api(req, ctx, get, post);
  const asset = req.method === "GET" || req.method === "HEAD" ? assets.get(path) : undefined;
  if (!asset) return plain(404, "Not Found\n");
  const res = withHeaders(new Response(asset.body, { headers: { "content-type": asset.type } }));
  if (checked.setCookie) res.headers.set("set-cookie", checked.setCookie);
  return res;
}

async function api(req: Request, ctx: UiContext, get: Get | undefined, post: Post | undefined): Promise<Response> {
  try {
    if (get) return json(await get(ctx, new URL(req.url).searchParams));
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      return json({ error: "The body must be JSON." }, 400);
    }
    return json(await post!(ctx, body));
  } catch (e) {
    if (e instanceof NotFound) return json({ error: e.message }, 404);
    // Messages written for the user (a taken name, bad arguments): shown in the page as they are.
    if (e instanceof UserError || e instanceof AnswerError) return json({ error: e.message }, 400);
    return json({ error: `pml ui internal error: ${(e as Error).message}` }, 500);
  }
}

/**
 * Every string the page gets (keys too) is escaped once, here (visible-text.ts): what it shows
 * comes from files and servers (a .pml.json, a capability's code, a server's tool names, an
 * approval's question), and Preact keeps out markup but not a right-to-left override, a zero-width
 * space or an ESC. Newlines, tabs and blanks are kept (code reads as written). Names the page
 * sends back (capabilities, sessions, approvals) are plain ASCII, so they come back unchanged.
 */
function json(value: unknown, status = 200): Response {
  const body = JSON.stringify(value, (_k, v) => {
    if (typeof v === "string") return visibleChars(v);
    if (v && typeof v === "object" && !Array.isArray(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [visibleChars(k), x]));
    return v;
  });
  return withHeaders(new Response(body, { status, headers: { "content-type": "application/json;charset=utf-8" } }));
}
