// What a `pml ui` page sees of the pml sessions running for the user, and how it answers their
// approvals: through the files of ./live-files.ts (a running session publishes them with
// ./board.ts). Everything here is read from, or written into, the user's own folder only.
import { readdirSync, realpathSync, rmSync, unlinkSync, utimesSync } from "node:fs";
import { resolve } from "node:path";
import * as v from "valibot";
import { UserError } from "../../errors.ts";
import { writeFileAtomic, writeFileAtomicSync } from "../../fs/atomic.ts";
import { ensureOwnDir, HEARTBEAT_MS, HOST, ID_RE, inboxDir, liveDir, mayBeAlive, newId, ownDirExists, pageFile, readOwnFile, sessionFile, STALE_MS } from "./live-files.ts";

export interface LiveServer {
  ns: string;
  /** running: its process (or remote session) is up; idle: stopped after a while without calls
   * (it starts again on the next one); crashed: it exited on its own; stopped: stopped by pml. */
  state: "starting" | "running" | "idle" | "stopped" | "crashed";
  calls: number;
  lastError?: string;
  startedAt?: string;
  tools: string[];
  /** Where it runs: a stdio server of the pool, or a remote MCP server. */
  kind?: "stdio" | "remote";
}

export type LiveAnswer = "continue" | "always" | "abort";

export interface PendingApproval {
  id: string;
  /** The tool id the user is asked about. */
  tool: string;
  question: string;
  /** What paused: a tool call, or an `execute` program at one of its calls. */
  kind: string;
  created: string;
  /** How the session asked: a form the client shows (elicitation), a result the model relays
   * (tool-result), or a 2026-07-28 input_required round. */
  channel: "elicitation" | "tool-result" | "input_required";
  /** When it expires unanswered (ISO time). */
  expires?: string;
}

export interface LiveSession {
  id: string;
  pid: number;
  workspace: string;
  started: string;
  /** The last heartbeat. */
  updated: string;
  transport: "stdio" | "http";
  client?: string;
  protocol?: string;
  servers: LiveServer[];
  approvals: PendingApproval[];
  /** The host the session runs on (a PML_HOME may be shared). */
  host?: string;
}

/** A session file as written; checked because anything in the folder is read back. */
const SessionFileSchema = v.looseObject({
  id: v.pipe(v.string(), v.regex(ID_RE)),
  pid: v.number(),
  host: v.optional(v.string()),
  workspace: v.string(),
  started: v.string(),
  transport: v.picklist(["stdio", "http"]),
  servers: v.array(v.looseObject({ ns: v.string() })),
  approvals: v.array(v.looseObject({ id: v.pipe(v.string(), v.regex(ID_RE)), tool: v.string() })),
});

/** An answer dropped into a session's inbox. */
export const AnswerSchema = v.object({
  approval: v.pipe(v.string(), v.regex(ID_RE)),
  answer: v.picklist(["continue", "always", "abort"]),
  at: v.optional(v.string()),
});

const PageFileSchema = v.looseObject({ pid: v.number(), host: v.optional(v.string()), workspace: v.string() });

/** The real path of a workspace, as sessions record theirs. */
export function realWorkspace(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return resolve(workspace);
  }
}

/** Sessions alive now (process alive and heartbeat fresh), optionally only one workspace's (real path). Stale files are ignored (and removed when their pid is dead). */
export function readLiveSessions(home: string, workspace?: string): LiveSession[] {
  const dir = liveDir(home);
  if (!ownDirExists(dir)) return [];
  const only = workspace === undefined ? undefined : realWorkspace(workspace);
  const out: LiveSession[] = [];
  for (const name of readdirSync(dir)) {
    const m = /^session-([A-Za-z0-9_-]+)\.json$/.exec(name);
    if (!m) continue;
    const s = readSession(home, m[1]!);
    if (s && (only === undefined || s.workspace === only)) out.push(s);
  }
  return out.sort((a, b) => a.started.localeCompare(b.started));
}

/** One session's file, when it is alive; a file whose process is gone is removed. */
function readSession(home: string, id: string): LiveSession | undefined {
  const file = readOwnFile(sessionFile(home, id));
  if (!file) return undefined;
  let parsed: v.InferOutput<typeof SessionFileSchema>;
  try {
    const r = v.safeParse(SessionFileSchema, JSON.parse(file.text));
    if (!r.success || r.output.id !== id) return undefined;
    parsed = r.output;
  } catch {
    return undefined; // written by another version, or half of a file: read again next time
  }
  if (!mayBeAlive(parsed.pid, parsed.host)) {
    removeSessionFiles(home, id);
    return undefined;
  }
  if (Date.now() - file.mtimeMs > STALE_MS) return undefined;
  return { ...(parsed as unknown as LiveSession), updated: new Date(file.mtimeMs).toISOString() };
}

/** A session's file and inbox, removed (it ended, or its process is gone). */
export function removeSessionFiles(home: string, id: string): void {
  try {
    unlinkSync(sessionFile(home, id));
  } catch {}
  rmSync(inboxDir(home, id), { recursive: true, force: true });
}

/** The human's answer from the page; resolves once written (the session acts on it in < 1 s). Throws a UserError if the session or approval is gone. */
export async function answerApproval(home: string, sessionId: string, approvalId: string, answer: LiveAnswer): Promise<void> {
  if (!ID_RE.test(sessionId) || !ID_RE.test(approvalId)) throw new UserError("No such pml session or approval: the ids are not ones pml issued.");
  if (!v.is(AnswerSchema.entries.answer, answer)) throw new UserError(`An approval is answered continue, always or abort, not ${JSON.stringify(answer)}.`);
  ensureOwnDir(liveDir(home));
  const session = readSession(home, sessionId);
  if (!session) throw new UserError("That pml session has ended; its approvals went with it. Nothing was answered.");
  if (!session.approvals.some((a) => a.id === approvalId))
    throw new UserError(`That approval is no longer pending in the pml session (answered, expired, or its call ended). Nothing was answered.`);
  const inbox = ensureOwnDir(inboxDir(home, sessionId));
  const body = JSON.stringify({ approval: approvalId, answer, at: new Date().toISOString() });
  // A file of its own per answer: two answers never overwrite each other, the session takes the first.
  await writeFileAtomic(`${inbox}/${approvalId}-${newId()}.json`, body, { mode: 0o600, within: liveDir(home) });
}

/** The page for `workspace` is open while the returned handle is not closed (a heartbeat file); sessions of that workspace then treat the page as the human channel. */
export function openPagePresence(home: string, workspace: string): { close(): void } {
  const dir = ensureOwnDir(liveDir(home));
  const path = pageFile(home, newId());
  const body = JSON.stringify({ pid: process.pid, host: HOST, workspace: realWorkspace(workspace), opened: new Date().toISOString() });
  writeFileAtomicSync(path, body, { mode: 0o600, within: dir });
  const beat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      writeFileAtomicSync(path, body, { mode: 0o600, within: dir });
    }
  }, HEARTBEAT_MS);
  beat.unref?.();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(beat);
    process.off("exit", close);
    try {
      unlinkSync(path);
    } catch {}
  };
  process.on("exit", close);
  return { close };
}

/** Whether a page is open for `workspace` (a real path) now; pages whose process is gone are removed. */
export function pageOpenFor(home: string, workspace: string): boolean {
  const dir = liveDir(home);
  let names: string[];
  try {
    if (!ownDirExists(dir)) return false;
    names = readdirSync(dir);
  } catch {
    return false; // a folder pml does not trust holds no page either
  }
  for (const name of names) {
    if (!name.startsWith("page-") || !name.endsWith(".json")) continue;
    const file = readOwnFile(`${dir}/${name}`);
    if (!file) continue;
    let page: v.InferOutput<typeof PageFileSchema>;
    try {
      const r = v.safeParse(PageFileSchema, JSON.parse(file.text));
      if (!r.success) continue;
      page = r.output;
    } catch {
      continue;
    }
    if (!mayBeAlive(page.pid, page.host)) {
      try {
        unlinkSync(`${dir}/${name}`);
      } catch {}
      continue;
    }
    if (page.workspace === workspace && Date.now() - file.mtimeMs <= STALE_MS) return true;
  }
  return false;
}
