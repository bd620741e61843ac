// Learning from use, the session side: a `discover {query}` followed, on the same connection, by
// a successful call of one of its results teaches memory that these words meant that item
// (memory/associations.ts ranks with it later). Calling another result of the same discover
// afterwards moves the credit there (the first was abandoned for it); a failed call teaches
// nothing. An intent the agent states when it calls (`execute {capability, intent}`, `call
// {intent}`) is kept the same way. Only the client's own calls count, not those code makes.
// Code the agent writes after a discover (`execute {code, name}`, saved) is what the discover's words
// meant when none of its results served: the credit goes to the capability it saved.
import { log } from "../../log.ts";
import type { InputRequiredResult } from "../../mcp/protocol.ts";
import type { Session } from "../../mcp/session.ts";
import { toolIdText, type ToolId } from "../../mcp/tool-names.ts";
import type { CallToolResult } from "../../mcp/types.ts";
import type { Memory } from "../../memory/memory.ts";
import type { MemorySettings } from "../../memory/memory-settings.ts";
import { CAP_NS, formatName, parseCallName } from "../../memory/names.ts";
import { splitSpecifier } from "../../memory/versions.ts";

/** A discover stays open for calls this long, and for this many of the client's calls. */
const OPEN_MS = 30 * 60_000;
const OPEN_CALLS = 20;
/** Discovers remembered per connection (the newest that lists the item called gets the credit). */
const PER_CONNECTION = 3;
const CONNECTIONS = 64;

interface OpenDiscover {
  query: string;
  /** Call id (`memory:read_graph`, `cap:fs:read_json`) -> the item's key in memory. */
  items: Map<string, string>;
  at: number;
  calls: number;
  /** The item these words are credited to so far. */
  credited?: string;
}

/** One result of a discover as the agent may call it. */
export interface Offered {
  kind: string;
  id: string;
}

type Result = CallToolResult | InputRequiredResult;

export class UseLearning {
  private readonly open = new Map<string, OpenDiscover[]>();

  constructor(
    private readonly memory: Memory,
    private readonly settings: () => Promise<MemorySettings>,
  ) {}

  /** A discover answered: its results (and their keys, in the same order) wait for a call. */
  discovered(session: Session, query: string, results: readonly Offered[], keys: readonly string[]): void {
    if (sessionless(session)) return;
    const items = new Map<string, string>();
    results.forEach((r, i) => {
      const key = keys[i];
      if (key !== undefined) items.set(r.kind === "capability" ? `${CAP_NS}:${r.id}` : r.id, key);
    });
    if (!items.size) return;
    const conn = connectionOf(session);
    const list = this.open.get(conn) ?? [];
    this.open.delete(conn); // re-inserted last: the map's order is by recent use
    list.push({ query, items, at: Date.now(), calls: 0 });
    if (list.length > PER_CONNECTION) list.shift();
    this.open.set(conn, list);
    if (this.open.size > CONNECTIONS) this.open.delete(this.open.keys().next().value!);
  }

  /** Whether `watch` would do nothing for a call without a stated intent (no discover open on the
   * session's connection): the short lane (dispatch/lane.ts) is taken only then. */
  idle(session: Session): boolean {
    return this.open.size === 0 || this.open.get(connectionOf(session)) === undefined;
  }

  /** A client's call starts: what to do with its result, or undefined when there is nothing to learn. */
  watch(session: Session, id: ToolId, intent?: string): ((r: Result) => Promise<Result>) | undefined {
    const list = this.open.size ? this.open.get(connectionOf(session)) : undefined;
    const stated = intent?.trim();
    if (!list && !stated) return undefined; // the proxy's hot path: nothing more
    const callId = list ? callIdOf(id) : "";
    const found = list && this.creditable(session, list, callId);
    if (!found && !stated) return undefined;
    return async (r) => {
      if (!succeeded(r)) return r;
      try {
        const settings = await this.settings();
        if (found) {
          const key = found.items.get(callId)!;
          if (found.credited !== key) {
            await this.memory.learn(settings, key, found.query, found.credited);
            found.credited = key;
          }
        }
        if (stated) {
          const key = await this.memory.itemKey(settings, id.ns, id.action);
          if (key) await this.memory.learn(settings, key, stated);
        }
      } catch (e) {
        log.warn(`could not learn from this call: ${(e as Error).message}`);
      }
      return r;
    };
  }

  /**
   * Counts the call against each open discover of the connection and picks the newest that lists
   * `callId`. A discover past its calls or its time can never be credited again: dropped, and a
   * connection with none left costs its later calls nothing (the proxy's hot path).
   */
  private creditable(session: Session, list: OpenDiscover[], callId: string): OpenDiscover | undefined {
    const now = Date.now();
    let found: OpenDiscover | undefined;
    let closed = 0;
    for (const d of list) {
      d.calls++;
      if (d.calls > OPEN_CALLS || now - d.at > OPEN_MS) closed++;
      else if (d.items.has(callId)) found = d;
    }
    if (closed) {
      const left = list.filter((d) => d.calls <= OPEN_CALLS && now - d.at <= OPEN_MS);
      // set() on a key kept keeps its place in the map (the order of recent discovers)
      if (left.length) this.open.set(connectionOf(session), left);
      else this.open.delete(connectionOf(session));
    }
    return found;
  }

  /**
   * `execute {code, name}` kept its code as the capability `key` (new, or the same code kept
   * before): the newest open discover's words are credited to it, taken back from a result of it
   * called before (that one was abandoned for code of the agent's own).
   */
  async wrote(session: Session, key: string): Promise<void> {
    const list = this.open.get(connectionOf(session));
    const now = Date.now();
    for (const d of list ?? []) d.calls++;
    const d = list?.at(-1);
    if (!d || now - d.at > OPEN_MS || d.calls > OPEN_CALLS || d.credited === key) return;
    try {
      await this.memory.learn(await this.settings(), key, d.query, d.credited);
      d.credited = key;
    } catch (e) {
      log.warn(`could not learn from this run: ${(e as Error).message}`);
    }
  }

  forget(session: Session): void {
    this.open.delete(connectionOf(session));
  }
}

/** 2026-07-28 over HTTP has no session: nothing ties a discover to a later request (all such
 * requests share one connection object, whoever sends them). Over stdio the process is the session. */
function sessionless(session: Session): boolean {
  return session.modern && session.servedOverHttp;
}

/** A 2026-07-28 request is a session of its own (`<connection>#<request>`): its connection's. */
function connectionOf(session: Session): string {
  const i = session.id.indexOf("#");
  return i < 0 ? session.id : session.id.slice(0, i);
}

/** `cap:fs:read_json` however the capability was named (`fs__read_json`, `@v1`), else `ns:action`. */
function callIdOf(id: ToolId): string {
  if (id.ns !== CAP_NS) return toolIdText(id);
  const name = parseCallName(splitSpecifier(id.action).name);
  return `${CAP_NS}:${name ? formatName(name) : id.action}`;
}

function succeeded(r: Result): boolean {
  return "content" in r && !r.isError && !r.approval_required;
}
