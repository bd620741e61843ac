// Remote MCP servers (descriptor type "http") through the MCP SDK's own client: `Client` over
// `StreamableHTTPClientTransport`. The SDK brings the protocol work pml would otherwise redo:
// version negotiation, the GET stream (so a remote's tools/list_changed reaches pml), SSE
// resumption with Last-Event-ID and the server's retry, progress, cancellation, and OAuth
// (src/remote/oauth.ts). This module is loaded only when such a server is used.
//
// One connection per namespace, opened on first use and reused; a target or credential change
// opens a new one. A session the server forgot (HTTP 404) is replaced once. Failures become
// ToolErrors that say which server, which URL and what to do.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed } from "@modelcontextprotocol/sdk/shared/auth.js";
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResultSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { EnvResolver, type EnvPlan } from "../env/env-resolver.ts";
import { missingMessage } from "../env/env-text.ts";
import { ToolError, type CallContext } from "../mcp/tool-result.ts";
import type { CallToolResult, ToolInfo } from "../mcp/types.ts";
import { log } from "../log.ts";
import type { HttpDescriptor } from "../registry/descriptor.ts";
import { version } from "../version.ts";
import { raceAbort } from "../mcp/abort.ts";
import { RemoteAuth, type AuthPrompt } from "./oauth.ts";
import { remoteFailure, SessionExpired, SignedIn, SignInNeeded, stillRefused, type FailedConnection } from "./remote-failure.ts";
import { grantedHeaders, remoteUrl } from "./remote-target.ts";

export const DEFAULT_REMOTE_TIMEOUT_MS = 60_000;
const SHUTDOWN_TIMEOUT_MS = 1_000;
const MAX_TOOL_PAGES = 100;

export interface RemoteServersOptions {
  /** Workspace root: its .env is where the `${VAR}` of an OAuth client secret is looked up second. */
  workspace: string;
  /** Per request; progress from the server restarts it. Default 60 s. */
  timeoutMs?: number;
  /** Looked up before the workspace .env; default process.env. */
  env?: Record<string, string | undefined>;
  /** A remote's sampling or elicitation request, relayed like a pooled server's (to the client
   * whose call is in flight). Without it pml declares neither capability. */
  onServerRequest?: (ns: string, method: string, params: unknown, origins: unknown[]) => unknown;
  /** The remote said its tools changed, and the new list was fetched. */
  onToolsChanged?: (ns: string, tools: ToolInfo[]) => void;
  /** Where an OAuth authorization URL is shown to the user (URL-mode elicitation); without it, or
   * when the client cannot, the call fails with the URL and what to do. */
  onAuthorization?: AuthPrompt;
}

export interface RemoteServerStatus {
  ns: string;
  url: string;
  state: "connecting" | "connected";
  sessionId?: string;
  /** Calls sent by this pml. */
  calls: number;
  /** Its tools as last listed. */
  tools?: string[];
}

interface Connection extends FailedConnection {
  client: Client;
  /** OAuth, where the user configured no Authorization header of their own. */
  auth?: RemoteAuth;
  /** Origins of the calls in flight (a server request is on behalf of one of them). */
  inflight: Map<number, unknown>;
}

interface Entry {
  /** url + headers: a change (edited .pml.json, rotated key) opens a new connection. */
  key: string;
  conn: Promise<Connection>;
  settled?: Connection;
}

export class RemoteServers {
  private readonly entries = new Map<string, Entry>();
  private readonly tools = new Map<string, { key: string; tools: ToolInfo[] }>();
  private readonly timeoutMs: number;
  private closed = false;
  private callSeq = 0;
  private readonly calls = new Map<string, number>();

  constructor(private readonly opts: RemoteServersOptions) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
  }

  /** Calls `action` on the remote server of `ns`, with the headers `plan` grants (the environment
   * resolver's, src/env/env-resolver.ts). Transport and protocol failures throw ToolError; a
   * result with isError comes back as is. */
  async call(ns: string, desc: HttpDescriptor, action: string, args: Record<string, unknown>, ctx: CallContext, plan: EnvPlan): Promise<CallToolResult> {
    const label = `tools/call ${action}`;
    this.calls.set(ns, (this.calls.get(ns) ?? 0) + 1);
    return this.withConnection(ns, desc, ctx, grantedHeaders(ns, plan, this.opts.workspace), async (c) => {
      const seq = ++this.callSeq;
      c.inflight.set(seq, ctx.origin);
      try {
        // client.request, not callTool: pml passes the result on as the server sent it (callTool
        // would also check structuredContent against an outputSchema, the client's job).
        const result = await c.client.request({ method: "tools/call", params: { name: action, arguments: args ?? {} } }, CallToolResultSchema, {
          signal: ctx.signal,
          timeout: this.timeoutMs,
          resetTimeoutOnProgress: true,
          onprogress: (p) => ctx.progress?.(typeof p.message === "string" ? p.message : "", p.progress, p.total),
        });
        return result as CallToolResult;
      } catch (e) {
        throw this.failure(c, e, label, ctx.signal);
      } finally {
        c.inflight.delete(seq);
      }
    });
  }

  /** The server's tools (fetched once per target, then kept; list_changed refreshes them). */
  async listTools(ns: string, desc: HttpDescriptor, plan: EnvPlan, ctx?: Partial<CallContext>): Promise<ToolInfo[]> {
    const headers = grantedHeaders(ns, plan, this.opts.workspace);
    const key = this.targetKey(ns, desc, headers);
    const cached = this.tools.get(ns);
    if (cached?.key === key) return cached.tools;
    return this.withConnection(ns, desc, ctx ?? {}, headers, async (c) => {
      const seen = this.tools.get(ns);
      return seen?.key === key ? seen.tools : this.fetchTools(c, key, ctx?.signal);
    });
  }

  /** Tools seen for `ns` so far, without any request. */
  cachedTools(ns: string): ToolInfo[] | undefined {
    return this.tools.get(ns)?.tools;
  }

  status(): RemoteServerStatus[] {
    return [...this.entries.entries()].map(([ns, e]) => ({
      ns,
      url: e.settled?.url.href ?? e.key.slice(0, e.key.indexOf("\n")),
      state: e.settled ? "connected" : "connecting",
      sessionId: e.settled?.transport.sessionId,
      calls: this.calls.get(ns) ?? 0,
      tools: this.tools.get(ns)?.tools.map((t) => t.name),
    }));
  }

  /** Ends every session (DELETE, best effort, short timeout) and closes the streams. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.allSettled(entries.map(async (e) => this.end(await e.conn)));
  }

  /** Runs `fn` on the namespace's connection; a session the server forgot is replaced once. */
  private async withConnection<T>(ns: string, desc: HttpDescriptor, ctx: Partial<CallContext>, headers: Record<string, string>, fn: (c: Connection) => Promise<T>): Promise<T> {
    if (this.closed) throw new ToolError(`pml is shutting down; remote MCP server ${ns} was not called.`);
    const url = remoteUrl(ns, desc.url);
    const key = this.targetKey(ns, desc, headers);
    let signedIn = false;
    for (let attempt = 0; ; attempt++) {
      const entry = this.entry(ns, desc, url, headers, key, ctx);
      let conn: Connection;
      try {
        // The connection is shared: one caller cancelling must not fail the others' wait for it.
        conn = await raceAbort(entry.conn, ctx.signal, () => new ToolError(`The call to ${ns} was cancelled while connecting to ${url.origin}.`));
      } catch (e) {
        // Signed in while connecting: connect again, now with tokens (once).
        if (e instanceof SignedIn && !signedIn) {
          signedIn = true;
          continue;
        }
        throw e instanceof SignedIn ? stillRefused(ns, url) : e;
      }
      try {
        return await fn(conn);
      } catch (e) {
        if (e instanceof SignInNeeded) {
          if (signedIn) throw stillRefused(ns, url);
          signedIn = true;
          await conn.auth!.completeSignIn(ctx);
          continue;
        }
        if (!(e instanceof SessionExpired)) throw e;
        if (this.entries.get(ns) === entry) this.entries.delete(ns);
        void this.end(conn, false);
        if (attempt >= 1) throw new ToolError(`remote MCP server ${ns} at ${url.href} dropped a new session at once (HTTP 404 twice); the server may be restarting, try again.`);
        log.debug(`remote ${ns}: session expired; opening a new one`);
      }
    }
  }

  private entry(ns: string, desc: HttpDescriptor, url: URL, headers: Record<string, string>, key: string, ctx: Partial<CallContext>): Entry {
    const current = this.entries.get(ns);
    if (current?.key === key) return current;
    if (current) {
      // The target or its credentials changed: the old session belongs to someone else now.
      this.entries.delete(ns);
      void current.conn.then(
        (c) => this.end(c),
        () => {},
      );
    }
    const entry: Entry = { key, conn: undefined as unknown as Promise<Connection> };
    entry.conn = this.open(ns, desc, url, headers, key, ctx).then(
      (c) => {
        entry.settled = c;
        return c;
      },
      (e) => {
        if (this.entries.get(ns) === entry) this.entries.delete(ns);
        throw e;
      },
    );
    this.entries.set(ns, entry);
    return entry;
  }

  private async open(ns: string, desc: HttpDescriptor, url: URL, headers: Record<string, string>, key: string, ctx: Partial<CallContext>): Promise<Connection> {
    // OAuth only where the user configured no credentials of their own: a server answering 401 to
    // a configured Authorization header has rejected that header, not asked for a login.
    const staticAuth = Object.keys(headers).some((h) => h.toLowerCase() === "authorization");
    const auth = staticAuth ? undefined : new RemoteAuth(ns, url, this.opts.onAuthorization, this.oauthClient(ns, desc));
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers },
      authProvider: auth,
      // A redirect would carry the configured headers (keys) to another address.
      redirectPolicy: "same-origin",
      reconnectionOptions: { initialReconnectionDelay: 500, maxReconnectionDelay: 10_000, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
    });
    const relay = this.opts.onServerRequest;
    const client = new Client({ name: "pml", version }, { capabilities: relay ? { sampling: {}, elicitation: { form: {} } } : {} });
    const conn: Connection = { ns, url, client, transport, auth, inflight: new Map() };
    auth?.exchangeWith((code) => transport.finishAuth(code));
    if (relay) {
      const origins = () => [...new Set(conn.inflight.values())];
      client.setRequestHandler(CreateMessageRequestSchema, async (req) => (await relay(ns, "sampling/createMessage", req.params, origins())) as any);
      client.setRequestHandler(ElicitRequestSchema, async (req) => (await relay(ns, "elicitation/create", req.params, origins())) as any);
    }
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      const tools = await this.fetchTools(conn, key, undefined).catch((e) => log.debug(`remote ${ns}: tools/list after list_changed failed: ${(e as Error).message}`));
      if (tools) this.opts.onToolsChanged?.(ns, tools);
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      const p = n.params;
      log.debug(`remote ${ns} [${p.level}] ${typeof p.data === "string" ? p.data : JSON.stringify(p.data)}`);
    });
    client.onerror = (e) => log.debug(`remote ${ns}: ${e.message}`);
    // A sign-in the user has open (an earlier call, or this request's previous round): finish
    // that one; connecting now would start another and void its link.
    if (auth?.pendingSignIn()) await auth.completeSignIn(ctx);
    ctx.progress?.(`connecting to ${ns} (${url.origin})`);
    try {
      await client.connect(transport, { signal: ctx.signal, timeout: this.timeoutMs });
    } catch (e) {
      await transport.close().catch(() => {});
      if (!(e instanceof UnauthorizedError && auth)) throw this.failure(conn, e, "initialize", ctx.signal);
      await auth.completeSignIn(ctx);
      throw new SignedIn();
    }
    // Like a pooled stdio server: the tools are known once it has been used.
    if (this.tools.get(ns)?.key !== key) await this.fetchTools(conn, key, undefined).catch((e) => log.debug(`remote ${ns}: tools/list failed: ${(e as Error).message}`));
    return conn;
  }

  private async fetchTools(c: Connection, key: string, signal: AbortSignal | undefined): Promise<ToolInfo[]> {
    const tools: ToolInfo[] = [];
    if (c.client.getServerCapabilities()?.tools) {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_TOOL_PAGES; page++) {
        let res;
        try {
          // Read loosely: a tool without an inputSchema is still callable (it takes an object).
          res = (await c.client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, ResultSchema, { signal, timeout: this.timeoutMs })) as {
            tools?: unknown;
            nextCursor?: unknown;
          };
        } catch (e) {
          throw this.failure(c, e, "tools/list", signal);
        }
        if (!Array.isArray(res.tools)) throw new ToolError(`remote MCP server ${c.ns} at ${c.url.href} sent a malformed tools/list result (no "tools" array).`);
        for (const t of res.tools as Array<Record<string, unknown>>)
          if (t && typeof t.name === "string")
            tools.push({ ...t, inputSchema: t.inputSchema && typeof t.inputSchema === "object" ? t.inputSchema : { type: "object" } } as ToolInfo);
        cursor = typeof res.nextCursor === "string" && res.nextCursor ? res.nextCursor : undefined;
        if (!cursor) break;
      }
    }
    this.tools.set(c.ns, { key, tools });
    return tools;
  }

  /** The pre-registered OAuth client of an entry, its secret's ${VAR} filled by the one resolver. */
  private oauthClient(ns: string, desc: HttpDescriptor): OAuthClientInformationMixed | undefined {
    const o = desc.oauth;
    if (!o || o.client_secret === undefined) return o && { client_id: o.client_id };
    const destination = `the OAuth authorization server of ${desc.url}`;
    const plan = new EnvResolver({ workspace: this.opts.workspace, env: this.opts.env }).plan({
      ns,
      kind: "remote",
      origin: "user",
      required: [],
      headers: { secret: o.client_secret },
      destination,
    });
    if (plan.missing.length) throw new ToolError(missingMessage(plan, `the OAuth client secret of remote MCP server '${ns}'`, this.opts.workspace));
    return { client_id: o.client_id, client_secret: plan.headers.secret };
  }

  private targetKey(ns: string, desc: HttpDescriptor, headers: Record<string, string>): string {
    return `${remoteUrl(ns, desc.url).href}\n${JSON.stringify(headers)}\n${JSON.stringify(desc.oauth ?? null)}`;
  }

  /** The message a user can act on, for any way a request can fail. */
  private failure(c: FailedConnection, e: unknown, label: string, signal: AbortSignal | undefined): Error {
    return remoteFailure(c, e, label, signal, { closed: this.closed, timeoutMs: this.timeoutMs });
  }

  private async end(c: Connection, terminate = true): Promise<void> {
    try {
      if (terminate && c.transport.sessionId) await Promise.race([c.transport.terminateSession(), Bun.sleep(SHUTDOWN_TIMEOUT_MS)]);
    } catch (e) {
      log.debug(`remote ${c.ns}: ending the session failed: ${(e as Error).message}`);
    }
    await c.client.close().catch(() => {});
  }
}
