// Wires a running gateway to its live files (src/policy/live/): the servers it runs and the
// client it serves, for a `pml ui` page; the asker publishes its approvals there itself.
import { pmlHome } from "../config/paths.ts";
import type { Session } from "../mcp/session.ts";
import type { Asker } from "../policy/asker.ts";
import { LiveBoard } from "../policy/live/board.ts";
import type { LiveServer, LiveSession } from "../policy/live/live-sessions.ts";
import type { ServerStatus } from "../pool/pool.ts";
import type { Backends } from "./dispatch/backends.ts";

export function publishLive(opts: {
  env?: Record<string, string | undefined>;
  workspace: string;
  transport: LiveSession["transport"];
  backends: Backends;
  asker: Asker;
}): LiveBoard {
  const board = new LiveBoard(pmlHome(opts.env), { workspace: opts.workspace, transport: opts.transport }, () => liveServers(opts.backends));
  board.start();
  opts.asker.live = board;
  return board;
}

/** Which client the session serves (the latest one to call, for `pml serve`). */
export function noteClient(board: LiveBoard, session: Session): void {
  const name = session.client.info?.name;
  const client = typeof name === "string" ? name : undefined;
  if (client === board.client && session.client.protocolVersion === board.protocol) return;
  board.client = client;
  board.protocol = session.client.protocolVersion;
  board.changed();
}

function liveServers(backends: Backends): LiveServer[] {
  const { servers, remote } = backends.serverStatus();
  return [
    ...servers.map(
      (s): LiveServer => ({
        ns: s.ns,
        kind: "stdio",
        state: stdioState(s),
        calls: s.calls,
        lastError: s.lastError,
        startedAt: s.startedAt,
        tools: s.tools ?? [],
      }),
    ),
    ...remote.map((r): LiveServer => ({ ns: r.ns, kind: "remote", state: r.state === "connected" ? "running" : "starting", calls: r.calls, tools: r.tools ?? [] })),
  ];
}

function stdioState(s: ServerStatus): LiveServer["state"] {
  if (s.state === "ready") return "running";
  if (s.state === "starting") return "starting";
  if (s.state === "closing") return s.lastExit === "idle" ? "idle" : "stopped";
  return s.lastExit === "crashed" ? "crashed" : s.lastExit === "idle" ? "idle" : "stopped";
}
