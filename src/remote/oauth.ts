// OAuth for remote MCP servers, as the SDK's `OAuthClientProvider`: the SDK does metadata
// discovery, dynamic client registration, PKCE and refresh; this keeps what must survive a
// session (client registration, tokens, the redirect port) in $PML_HOME/oauth/, one file per
// server URL, mode 0600, written atomically, never in the workspace, never logged.
//
// Signing in: the authorization URL is shown to the user through the client's URL-mode
// elicitation when it has one (a request under 2025-11-25, an input_required result under
// 2026-07-28), else in the tool's error; the browser comes back to a one-shot listener on
// 127.0.0.1 whose `state` must match, and the code is exchanged for tokens. When the user
// accepted the link, the call waits for that and goes on; otherwise the next call works.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { raceAbort } from "../mcp/abort.ts";
import { writeFileAtomicSync } from "../fs/atomic.ts";
import { pmlHome } from "../config/paths.ts";
import { ToolError, type CallContext } from "../mcp/tool-result.ts";
import { log } from "../log.ts";

/** Shows the user an authorization URL (URL-mode elicitation) and says what they did with it.
 * Under 2026-07-28 it may throw instead: the call stops and asks the client (input_required). */
export type AuthPrompt = (ns: string, url: URL, elicitationId: string, ctx: Partial<CallContext>) => Promise<"accepted" | "declined" | "not shown">;

const CALLBACK_WAIT_MS = 5 * 60_000;

/** A sign-in waiting for the browser to come back. */
interface SignIn {
  url: URL;
  /** The elicitation id the link is shown under: the same in every round of a retried request. */
  id: string;
  state: string;
  done: Promise<void>;
  settle: (failure?: Error) => void;
  listener?: ReturnType<typeof Bun.serve>;
}

/** Sign-ins in progress, by server URL. A later call, or the retry of a 2026-07-28 request, waits
 * for the one the user has open: starting another would void its link (new state and verifier). */
const signIns = new Map<string, SignIn>();

interface Stored {
  url: string;
  port?: number;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  verifier?: string;
}

export class RemoteAuth implements OAuthClientProvider {
  private readonly file: string;
  private issuedState?: string;
  private exchange?: (code: string) => Promise<void>;

  constructor(
    private readonly ns: string,
    private readonly serverUrl: URL,
    private readonly prompt?: AuthPrompt,
    /** A client registered beforehand (.pml.json `oauth`): used instead of dynamic registration. */
    private readonly preRegistered?: OAuthClientInformationMixed,
  ) {
    const id = createHash("sha256").update(serverUrl.href).digest("hex").slice(0, 24);
    this.file = join(pmlHome(), "oauth", `${id}.json`);
  }

  private read(): Stored {
    try {
      const s = JSON.parse(readFileSync(this.file, "utf8")) as Stored;
      return s.url === this.serverUrl.href ? s : { url: this.serverUrl.href };
    } catch {
      return { url: this.serverUrl.href };
    }
  }

  private write(patch: Partial<Stored>): void {
    mkdirSync(join(pmlHome(), "oauth"), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(this.file, JSON.stringify({ ...this.read(), ...patch }), { mode: 0o600 });
  }

  /** The loopback port the browser returns to: chosen once per server, so the registered
   * redirect URI stays valid. */
  private port(): number {
    const known = this.read().port;
    if (known) return known;
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const port = probe.port!;
    probe.stop(true);
    this.write({ port });
    return port;
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port()}/callback`;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "pml",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  state(): string {
    this.issuedState = randomBytes(24).toString("base64url");
    return this.issuedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.preRegistered ?? this.read().client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    // A pre-registered client's secret stays where the user keeps it (their environment).
    if (!this.preRegistered) this.write({ client });
  }

  tokens(): OAuthTokens | undefined {
    return this.read().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.write({ tokens });
  }

  saveCodeVerifier(verifier: string): void {
    this.write({ verifier });
  }

  codeVerifier(): string {
    const v = this.read().verifier;
    if (!v) throw new Error("no PKCE code verifier saved for this sign-in");
    return v;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    const s = this.read();
    if (scope === "all" || scope === "client") delete s.client;
    if (scope === "all" || scope === "tokens") delete s.tokens;
    if (scope === "all" || scope === "verifier") delete s.verifier;
    this.write({ client: s.client, tokens: s.tokens, verifier: s.verifier });
  }

  /** The SDK asks the user to sign in: keep the URL and wait for the browser's return. */
  redirectToAuthorization(url: URL): void {
    signIns.get(this.serverUrl.href)?.settle(new Error("a newer sign-in replaced this one"));
    let settle!: SignIn["settle"];
    const done = new Promise<void>((resolve, reject) => (settle = (failure) => (failure ? reject(failure) : resolve())));
    done.catch(() => {});
    const signIn: SignIn = { url, id: randomUUID(), state: this.issuedState ?? "", done, settle };
    const timer = setTimeout(() => signIn.settle(new Error(`nobody came back from the browser within ${CALLBACK_WAIT_MS / 60_000} minutes`)), CALLBACK_WAIT_MS);
    (timer as { unref?: () => void }).unref?.();
    signIn.settle = (failure) => {
      clearTimeout(timer);
      if (signIns.get(this.serverUrl.href) === signIn) signIns.delete(this.serverUrl.href);
      // Not forced: the page being answered still goes out, and the port is free at once for
      // the next sign-in (a step-up asks for one right after).
      void signIn.listener?.stop(false);
      settle(failure);
    };
    signIns.set(this.serverUrl.href, signIn);
    signIn.listener = this.listen(signIn);
  }

  /** How the code is exchanged: the transport's finishAuth, which knows the resource metadata
   * URL and scope the server's 401 named (without them discovery may find another server). */
  exchangeWith(exchange: (code: string) => Promise<void>): void {
    this.exchange = exchange;
  }

  /** A sign-in for this server that is still waiting for the browser. */
  pendingSignIn(): boolean {
    return signIns.has(this.serverUrl.href);
  }

  /**
   * Shows the waiting sign-in's link through the client; once the user accepted it, waits for the
   * browser to come back (the call then goes on, signed in). Throws what the user reads when the
   * link could not be shown, was declined, or the sign-in failed.
   */
  async completeSignIn(ctx: Partial<CallContext>): Promise<void> {
    const signIn = signIns.get(this.serverUrl.href);
    if (!signIn) throw new ToolError(`remote MCP server ${this.ns} at ${this.serverUrl.href} requires authorization, and its OAuth metadata could not be used.`);
    const answer = this.prompt ? await this.prompt(this.ns, signIn.url, signIn.id, ctx) : "not shown";
    if (answer === "declined") throw new ToolError(`Signing in to remote MCP server ${this.ns} was declined; nothing was sent to it. Call the tool again to be asked again.`);
    if (answer === "not shown")
      throw new ToolError(
        `remote MCP server ${this.ns} at ${this.serverUrl.href} needs you to sign in: open ${signIn.url.href} in a browser and approve; ` +
          `pml waits for the browser on ${this.redirectUrl} for ${CALLBACK_WAIT_MS / 60_000} minutes and keeps the tokens in ${join(pmlHome(), "oauth")}. Then call the tool again.`,
      );
    ctx.progress?.(`waiting for you to sign in to ${this.ns} in the browser (${signIn.url.origin})`);
    try {
      await raceAbort(signIn.done, ctx.signal, () => new ToolError(`The call to ${this.ns} was cancelled while waiting for you to sign in.`));
    } catch (e) {
      if (e instanceof ToolError) throw e;
      throw new ToolError(`Signing in to remote MCP server ${this.ns} did not complete: ${(e as Error).message}. Call the tool again for a new link.`);
    }
  }

  /** One-shot loopback listener: the authorization code, if `state` is the one just issued. */
  private listen(signIn: SignIn): ReturnType<typeof Bun.serve> {
    return Bun.serve({
      hostname: "127.0.0.1",
      port: this.port(),
      fetch: async (req) => {
        const q = new URL(req.url).searchParams;
        if (new URL(req.url).pathname !== "/callback") return new Response("not found", { status: 404 });
        if (signIns.get(this.serverUrl.href) !== signIn || !signIn.state || q.get("state") !== signIn.state)
          return page(400, "This sign-in link is not the one pml is waiting for (state mismatch). Start again from the tool call.");
        const code = q.get("code");
        if (!code) {
          const why = q.get("error_description") ?? q.get("error") ?? "no code";
          signIn.settle(new Error(`the server did not authorize pml (${why})`));
          return page(400, `The server did not authorize pml: ${why}.`);
        }
        try {
          if (this.exchange) await this.exchange(code);
          else if ((await auth(this, { serverUrl: this.serverUrl, authorizationCode: code })) !== "AUTHORIZED") throw new Error("the server did not accept the code");
          signIn.settle();
          return page(200, `pml is signed in to ${this.ns}. You can close this tab.`);
        } catch (e) {
          log.warn(`remote ${this.ns}: exchanging the authorization code failed: ${(e as Error).message}`);
          signIn.settle(new Error(`exchanging the authorization code failed (${(e as Error).message})`));
          return page(502, `Signing in to ${this.ns} failed: ${(e as Error).message}`);
        }
      },
    });
  }
}

function page(status: number, text: string): Response {
  return new Response(`<!doctype html><meta charset="utf-8"><title>pml</title><p>${text.replace(/[<&]/g, (c) => (c === "<" ? "&lt;" : "&amp;"))}</p>`, {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
  });
}
