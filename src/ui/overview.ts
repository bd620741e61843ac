// The Overview view: the workspace, its .pml.json (trusted or not, what it grants), the effective
// permissions with where each rule comes from, and the servers pml knows with their state in the
// sessions running for this workspace.
import { loadProjectConfig, type ProjectConfig } from "../config/pml-json.ts";
import { builtinCatalog } from "../registry/catalog.ts";
import { readLiveSessions, type LiveServer, type LiveSession } from "../policy/live/live-sessions.ts";
import { reviewTrust } from "../policy/trust/review.ts";
import type { UiContext } from "./context.ts";

/** pml's in-process namespaces (gateway/tool-host.ts): the gate allows them when no rule names them. */
export const OWN_NAMESPACES = ["cap", "dns", "learn", "meta"];

export interface PermissionRule {
  pattern: string;
  decision: "allow" | "ask" | "deny";
  source: string;
  /** False for an allow the user has not trusted: it is in the file but does not apply. */
  applies: boolean;
}

export interface KnownServer {
  ns: string;
  kind: "catalog" | "private" | "remote" | "registry";
  detail: string;
  tools: string[];
  live: Array<LiveServer & { session: string }>;
}

export async function overview(ctx: UiContext) {
  const root = ctx.workspace.root;
  // The page is no hot path: read the file as it is now (Project would reuse a read for 100 ms).
  ctx.project.invalidate();
  const state = await ctx.project.get();
  let raw: ProjectConfig = state.config;
  let configError = state.error;
  try {
    raw = (await loadProjectConfig(root)).config;
  } catch (e) {
    configError ??= (e as Error).message;
  }
  const trust = configError ? undefined : await reviewTrust(root).catch(() => undefined);
  const sessions = readLiveSessions(ctx.home, root);
  return {
    workspace: { root, source: ctx.workspace.source },
    config: { path: state.path, exists: state.exists, error: configError, warnings: state.warnings ?? [] },
    trust: trust && { recorded: trust.recorded, trusted: trust.trusted.map((g) => g.text), untrusted: trust.untrusted.map((g) => g.text), record: trust.record },
    permissions: permissionRules(raw, state.config, state.path),
    servers: knownServers(raw, sessions),
    registries: raw.registries ?? null,
    sessions: sessions.map(({ id, pid, transport, client, protocol, started, updated }) => ({ id, pid, transport, client, protocol, started, updated })),
  };
}

/** Every rule of the file, whether it applies, and pml's defaults after them. */
function permissionRules(file: ProjectConfig, applied: ProjectConfig, path: string): PermissionRule[] {
  const rules: PermissionRule[] = [];
  for (const decision of ["deny", "ask", "allow"] as const) {
    for (const pattern of file.permissions?.[decision] ?? []) {
      const applies = (applied.permissions?.[decision] ?? []).includes(pattern);
      rules.push({ pattern, decision, source: applies ? `${path} permissions.${decision}` : `${path} permissions.${decision} (not trusted: not applied)`, applies });
    }
  }
  rules.push({ pattern: `pml's own tools (discover, execute, ${OWN_NAMESPACES.map((n) => `${n}:*`).join(", ")})`, decision: "allow", source: "pml's default", applies: true });
  rules.push({ pattern: "*", decision: "ask", source: "pml's default for any tool no rule names", applies: true });
  return rules;
}

function knownServers(config: ProjectConfig, sessions: LiveSession[]): KnownServer[] {
  const live = (ns: string) => sessions.flatMap((s) => s.servers.filter((srv) => srv.ns === ns).map((srv) => ({ ...srv, session: s.id })));
  const out: KnownServer[] = [];
  const seen = new Set<string>();
  for (const [ns, entry] of Object.entries(config.private_mcps ?? {})) {
    const e = entry as { type?: string; command?: string; url?: string; args?: string[] };
    const remote = e.type === "http" || e.type === "sse" || typeof e.url === "string";
    out.push({
      ns,
      kind: remote ? "remote" : "private",
      detail: remote ? String(e.url ?? "") : [e.command, ...(e.args ?? [])].filter(Boolean).join(" "),
      tools: [],
      live: live(ns),
    });
    seen.add(ns);
  }
  for (const [ns, d] of Object.entries(builtinCatalog)) {
    if (seen.has(ns)) continue;
    out.push({ ns, kind: "catalog", detail: d.package ? `${d.package.identifier}@${d.package.version}` : "a command", tools: (d.tools ?? []).map((t) => t.name), live: live(ns) });
    seen.add(ns);
  }
  // Servers a session runs that neither list names came from a registry.
  for (const s of sessions)
    for (const srv of s.servers)
      if (!seen.has(srv.ns)) {
        seen.add(srv.ns);
        out.push({ ns: srv.ns, kind: "registry", detail: "resolved through a registry", tools: srv.tools, live: live(srv.ns) });
      }
  for (const k of out) if (!k.tools.length) k.tools = [...new Set(k.live.flatMap((l) => l.tools))];
  return out;
}
