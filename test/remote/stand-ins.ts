// Stand-ins for remote MCP servers built on the SDK's own server transport (web-standard
// Streamable HTTP under Bun.serve), and an OAuth authorization server speaking the real wire
// format in front of one (protected-resource and authorization-server metadata, dynamic
// registration, an authorize step the user approves at once, a token endpoint checking PKCE).
import { createHash, randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** An SDK server with sessions: `add_tool` adds a tool (list_changed), `ask` elicits from the client. */
export function sdkApp(guard?: (req: Request) => Response | undefined) {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const tools = [
    { name: "add_tool", description: "adds a tool", inputSchema: { type: "object" as const } },
    { name: "ask", description: "asks the user", inputSchema: { type: "object" as const } },
    { name: "whoami", description: "says ok", inputSchema: { type: "object" as const } },
  ];
  const make = () => {
    const server = new Server({ name: "sdk-stand-in", version: "1" }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (req) => {
      if (req.params.name === "add_tool") {
        if (!tools.some((t) => t.name === "extra")) tools.push({ name: "extra", description: "added later", inputSchema: { type: "object" } });
        await server.sendToolListChanged();
        return { content: [{ type: "text", text: "added" }] };
      }
      if (req.params.name === "ask") {
        const answer = await server.elicitInput({ mode: "form", message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
        return { content: [{ type: "text", text: JSON.stringify(answer) }] };
      }
      return { content: [{ type: "text", text: "ok" }] };
    });
    return server;
  };
  return async (req: Request): Promise<Response> => {
    const refused = guard?.(req);
    if (refused) return refused;
    const sid = req.headers.get("mcp-session-id");
    let transport = sid ? sessions.get(sid) : undefined;
    if (!transport) {
      if (sid) return new Response("unknown session", { status: 404 });
      transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, transport!) });
      await make().connect(transport);
    }
    return transport.handleRequest(req);
  };
}

/** An SDK server behind OAuth on 127.0.0.1: `${base}/mcp` answers 401 until a token it issued is sent. */
/** `clients`: pre-registered clients (id -> secret); then there is no dynamic registration and
 * the token endpoint wants the client's credentials (HTTP Basic). */
export function oauthServer(opts: { clients?: Record<string, string> } = {}) {
  const codes = new Map<string, { challenge: string; redirect: string; client: string }>();
  const tokenRequests: Array<{ authorization: string | null; body: string }> = [];
  const issued = new Set<string>();
  const registered: any[] = [];
  let base = "";
  const guard = (req: Request) => {
    const token = req.headers.get("authorization")?.replace(/^Bearer /, "");
    if (token && issued.has(token)) return undefined;
    return new Response(JSON.stringify({ error: "invalid_token" }), {
      status: 401,
      headers: { "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`, "content-type": "application/json" },
    });
  };
  const app = sdkApp(guard);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const u = new URL(req.url);
      if (u.pathname === "/.well-known/oauth-protected-resource/mcp") return Response.json({ resource: `${base}/mcp`, authorization_servers: [base] });
      if (u.pathname === "/.well-known/oauth-authorization-server")
        return Response.json({
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          ...(opts.clients ? {} : { registration_endpoint: `${base}/register` }),
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: opts.clients ? ["client_secret_basic"] : ["none"],
        });
      if (u.pathname === "/register" && !opts.clients) {
        const meta: any = await req.json();
        registered.push(meta);
        return Response.json({ ...meta, client_id: `client-${registered.length}` }, { status: 201 });
      }
      if (u.pathname === "/authorize") {
        // The user approves at once: back to the client's redirect URI with a code and its state.
        const code = randomUUID();
        const client = u.searchParams.get("client_id") ?? "";
        if (opts.clients && !(client in opts.clients)) return new Response("unknown client", { status: 400 });
        codes.set(code, { challenge: u.searchParams.get("code_challenge")!, redirect: u.searchParams.get("redirect_uri")!, client });
        const back = new URL(u.searchParams.get("redirect_uri")!);
        back.searchParams.set("code", code);
        back.searchParams.set("state", u.searchParams.get("state") ?? "");
        return Response.redirect(back.href, 302);
      }
      if (u.pathname === "/token") {
        const body = await req.text();
        tokenRequests.push({ authorization: req.headers.get("authorization"), body });
        const form = new URLSearchParams(body);
        const entry = codes.get(form.get("code") ?? "");
        if (opts.clients && entry) {
          const basic = Buffer.from((req.headers.get("authorization") ?? "").replace(/^Basic /, ""), "base64").toString();
          const [id, secret] = basic.split(":").map(decodeURIComponent);
          if (id !== entry.client || opts.clients[id!] !== secret) return Response.json({ error: "invalid_client" }, { status: 401 });
        }
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!entry || entry.challenge !== challenge) return Response.json({ error: "invalid_grant" }, { status: 400 });
        codes.delete(form.get("code")!);
        const token = `tok-${randomUUID()}`;
        issued.add(token);
        return Response.json({ access_token: token, token_type: "Bearer", expires_in: 3600, refresh_token: `r-${randomUUID()}` });
      }
      return app(req);
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  return { base, url: `${base}/mcp`, registered, tokenRequests, stop: () => server.stop(true) };
}
