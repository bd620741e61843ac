// The tool host behind the protocol core: pml's own meta-tools plus every namespace the registry
// knows, each call going through permissions -> approval -> routing -> a backend.
import { resolveWorkspace } from "../config/workspace.ts";
import { log } from "../log.ts";
import { SecretScreen } from "../memory/secret-screen.ts";
import { Memory } from "../memory/memory.ts";
import type { ToolUsage } from "../memory/store.ts";
import { Backends } from "./dispatch/backends.ts";
import { capabilityNamespace } from "./tools/capability-tools.ts";
import { CapabilityListing } from "./tools/capability-list.ts";
import { Coalesced } from "./dispatch/coalesce.ts";
import { stdlibNamespaces } from "./tools/stdlib-tools.ts";
import { Invoker } from "./dispatch/invoke.ts";
import { Asker } from "../policy/asker.ts";
import { relayedContinuation } from "../policy/approval-channel.ts";
import { Gate } from "../policy/gate.ts";
import { metaTools } from "./tools/meta-tools.ts";
import { parseToolName, type ToolId } from "../mcp/tool-names.ts";
import { Project } from "../policy/project.ts";
import type { ToolHost } from "./dispatch/call.ts";
import { serverRequestHandler } from "./dispatch/server-requests.ts";
import type { Session } from "../mcp/session.ts";
import { Surface } from "./dispatch/surface.ts";
import { UseLearning } from "./tools/learn-from-use.ts";
import { errorResult } from "../mcp/tool-result.ts";
import { noteClient, publishLive } from "./live.ts";

export interface ToolHostOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** How clients reach this gateway (shown by `pml ui`). Default stdio. */
  transport?: "stdio" | "http";
}

export async function createToolHost(opts: ToolHostOptions = {}): Promise<ToolHost> {
  // A bad PML_WORKSPACE throws here: the gateway answers with that message and retries on the next request.
  const workspace = resolveWorkspace({ env: opts.env, cwd: opts.cwd });
  if (workspace.warning) log.warn(workspace.warning);
  const project = new Project(workspace.root);
  const backends = new Backends(workspace.root, project);
  const surface = new Surface(project, backends);
  // A tool held or released (tools/pinning) changes tools/list.
  backends.holds.onChange = () => surface.changed();
  const asker = new Asker(workspace.root, project);
  const gate = new Gate(workspace.root, project, backends);
  const live = publishLive({ env: opts.env, workspace: workspace.root, transport: opts.transport ?? "stdio", backends, asker });
  const invoker = new Invoker(gate, asker, backends, surface, workspace.root);
  const memory = new Memory();
  const learning = new UseLearning(memory, () => project.memorySettings());
  const deps = { workspace, project, backends, surface, invoker, memory, learning };
  const meta = metaTools(deps);
  Object.assign(backends.inProcess, capabilityNamespace(deps), stdlibNamespaces(deps));
  invoker.onToolCall = usageRecorder(memory, SecretScreen.forWorkspace(workspace.root, opts.env ?? process.env));
  invoker.watchClientCall = (session, id, intent) => learning.watch(session, id, intent);
  const listing = new CapabilityListing(deps);
  memory.onChange(() => surface.changed());
  memory.onUsed((id) => {
    if (listing.wouldJoin(id)) surface.changed();
  });
  const sessions = new Set<Session>();
  const listChanged = new Coalesced(listChangedWindowMs(opts.env ?? process.env), () => {
    for (const s of sessions) s.notify("notifications/tools/list_changed");
  });
  surface.onChange(() => listChanged.poke());
  // Another process (a rename in `pml ui`, a save in another session) can change the list too.
  const elsewhere = setInterval(() => {
    if (sessions.size)
      void listing.staleElsewhere().then(
        (stale) => stale && listChanged.poke(),
        () => {},
      );
  }, ELSEWHERE_POLL_MS);
  elsewhere.unref?.();
  backends.onServerRequest = serverRequestHandler(workspace.root, project);

  return {
    async listTools(_session, continued) {
      const caps = await listing.tools(continued);
      return [...meta.list(), ...(await surface.list()), ...caps];
    },
    // Not async: the invoker's promise is handed on as it is (an async frame here was a promise
    // and two microtask turns more on every call).
    callTool(session, req) {
      if (session.modern) noteClient(live, session); // each 2026-07-28 request says who it is
      const own = meta.get(req.name);
      if (own) return own(session, req).then((r) => invoker.asker.noted(session, r));
      const id = surface.toolIdFor(req.name) ?? parsedToolName(req.name);
      if (!id)
        return Promise.resolve(
          errorResult(
            `Unknown tool "${req.name}". Tools are named <namespace>__<action> (e.g. memory__create_entities) or namespace:action; ` + "use `discover` to see what is available.",
          ),
        );
      if (!("continue_workflow" in req.arguments)) return invoker.invoke(session, id, req.arguments, req, { calledAs: req.name }); // no copy
      const { continue_workflow, ...args } = req.arguments;
      return invoker.invoke(session, id, args, req, { calledAs: req.name, continueWorkflow: relayedContinuation(continue_workflow) });
    },
    lane: laneEntry((name) => meta.get(name) !== undefined, learning, surface, invoker),
    onSessionReady(session) {
      noteClient(live, session);
      sessions.add(session);
    },
    onSessionClosed(session) {
      learning.forget(session);
      sessions.delete(session);
    },
    async shutdown() {
      listChanged.stop();
      clearInterval(elsewhere);
      live.close();
      await Promise.all([backends.shutdown(), memory.close()]);
    },
  };
}

/** The short lane's entry (dispatch/lane.ts). pml's own tools, a continuation, and a call that
 * learning from use would count take the general path. */
function laneEntry(own: (name: string) => boolean, learning: UseLearning, surface: Surface, invoker: Invoker): ToolHost["lane"] {
  return (session, requestId, name, args) => {
    if (own(name) || "continue_workflow" in args || !learning.idle(session)) return undefined;
    const id = surface.toolIdFor(name) ?? parsedToolName(name);
    return id && invoker.lane(session, requestId, id, args);
  };
}

/** Names parsed before: a client calls the same few tools again and again (one shared ToolId each,
 * not a parse and two new strings per call; nothing changes a ToolId once made). Bounded: a client
 * sending ever new names only empties it. */
const parsedNames = new Map<string, ToolId>();
const PARSED_NAMES = 1024;

function parsedToolName(name: string): ToolId | undefined {
  const hit = parsedNames.get(name);
  if (hit !== undefined) return hit;
  const id = parseToolName(name);
  if (id === undefined) return undefined;
  if (parsedNames.size >= PARSED_NAMES) parsedNames.clear();
  parsedNames.set(name, id);
  return id;
}

/** At most one notifications/tools/list_changed per this many ms (PML_LIST_CHANGED_MS: tests
 * widen it to see a burst coalesce). */
const LIST_CHANGED_MS = 3000;

/** How often memory.db is asked whether another process changed it (one PRAGMA while nothing did). */
const ELSEWHERE_POLL_MS = 2000;

function listChangedWindowMs(env: Record<string, string | undefined>): number {
  const ms = Number(env.PML_LIST_CHANGED_MS);
  return Number.isFinite(ms) && ms >= 0 && env.PML_LIST_CHANGED_MS?.trim() ? ms : LIST_CHANGED_MS;
}

/** Each ended call into tool_usage. A failed call's text is kept there for the page's Activity: a
 * server that echoed a key in its error must not leave it in ~/.pml, which holds no secrets. */
function usageRecorder(memory: Memory, screen: SecretScreen): (u: ToolUsage) => void {
  return (u) => memory.noteToolCall(u.error === undefined ? u : { ...u, error: screen.redact(u.error) });
}
