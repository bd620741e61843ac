// OAuth for remote MCP servers, as the SDK's `OAuthClientProvider`: the SDK does metadata
// discovery, dynamic client registration, PKCE and refresh; this keeps what must survive a
// session (client registration, tokens, the redirect port) in $PML_HOME/oauth/, one file per
// server URL, mode 0600, written atomically, never in the workspace, never logged.
//
// Signing in: the authorization URL is shown to the user (in the tool's error, or through the
// client's URL-mode elicitation when the gateway offers one); the browser comes back to a
// one-shot listener on 127.0.0.1 whose `state` must match, and the code is exchanged for tokens.
// The next call to the server then works.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { writeFileAtomicSync } from "../config/atomic.ts";
import { pmlHome } from "../config/paths.ts";
import { ToolError, type CallContext } from "../gateway/types.ts";
import { log } from "../log.ts";

/** Shows the user an authorization URL (URL-mode elicitation); false when the client cannot. */
export type AuthPrompt = (ns: string, url: URL, ctx: Partial<CallContext>) => Promise<boolean>;

const CALLBACK_WAIT_MS = 5 * 60_000;

interface Stored {
  url: string;
  port?: number;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  verifier?: string;
}

export class RemoteAuth implements OAuthClientProvider {
  private readonly file: string;
  private pendingUrl?: URL;
  private pendingState?: string;
  private listener?: ReturnType<typeof Bun.serve>;

  constructor(
    private readonly ns: string,
    private readonly serverUrl: URL,
    private readonly prompt?: AuthPrompt,
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
    this.pendingState = randomBytes(24).toString("base64url");
    return this.pendingState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.read().client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.write({ client });
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
    this.pendingUrl = url;
    this.listen();
  }

  /** The error a call ends with while the user has not signed in yet (after showing the URL
   * through the client when it can). */
  async explain(ctx: Partial<CallContext>): Promise<ToolError> {
    const url = this.pendingUrl;
    if (!url) return new ToolError(`remote MCP server ${this.ns} at ${this.serverUrl.href} requires authorization, and its OAuth metadata could not be used.`);
    const shown = this.prompt ? await this.prompt(this.ns, url, ctx).catch(() => false) : false;
    return new ToolError(
      `remote MCP server ${this.ns} at ${this.serverUrl.href} needs you to sign in${shown ? " (the link was shown to you)" : ""}: open ${url.href} in a browser and approve; ` +
        `pml waits for the browser on ${this.redirectUrl} for 5 minutes and keeps the tokens in ${join(pmlHome(), "oauth")}. Then call the tool again.`,
    );
  }

  /** One-shot loopback listener: the authorization code, if `state` is the one just issued. */
  private listen(): void {
    this.listener?.stop(true);
    const expected = this.pendingState;
    const timer = setTimeout(() => this.listener?.stop(true), CALLBACK_WAIT_MS);
    (timer as { unref?: () => void }).unref?.();
    this.listener = Bun.serve({
      hostname: "127.0.0.1",
      port: this.port(),
      fetch: async (req) => {
        const q = new URL(req.url).searchParams;
        if (new URL(req.url).pathname !== "/callback") return new Response("not found", { status: 404 });
        if (!expected || q.get("state") !== expected) return page(400, "This sign-in link is not the one pml is waiting for (state mismatch). Start again from the tool call.");
        const code = q.get("code");
        if (!code) return page(400, `The server did not authorize pml: ${q.get("error_description") ?? q.get("error") ?? "no code"}.`);
        this.pendingState = undefined;
        clearTimeout(timer);
        setTimeout(() => this.listener?.stop(true), 100);
        try {
          const result = await auth(this, { serverUrl: this.serverUrl, authorizationCode: code });
          if (result !== "AUTHORIZED") throw new Error(`unexpected result ${result}`);
          return page(200, `pml is signed in to ${this.ns}. You can close this tab and call the tool again.`);
        } catch (e) {
          log.warn(`remote ${this.ns}: exchanging the authorization code failed: ${(e as Error).message}`);
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
