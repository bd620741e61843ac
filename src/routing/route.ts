// Where a tool runs. The platform decides (not the user): tools that must touch the user's
// machine run locally; API-backed ones run in the cloud. Unknown namespaces run locally, the
// safe side for private servers.
import type { Descriptor } from "../registry/descriptor.ts";

export type Routing = "local" | "cloud";

const LOCAL = [
  "filesystem",
  "fs",
  "file",
  "files",
  "shell",
  "bash",
  "terminal",
  "exec",
  "process",
  "git",
  "sqlite",
  "postgres",
  "postgresql",
  "mysql",
  "mariadb",
  "mongodb",
  "redis",
  "database",
  "db",
  "docker",
  "podman",
  "kubernetes",
  "k8s",
  "kubectl",
  "ssh",
  "sftp",
  "memory",
  "puppeteer",
  "playwright",
  "browser",
  "desktop",
  "clipboard",
  "screenshot",
  "sequential_thinking",
  "time",
];

const CLOUD = [
  "pml",
  "tavily",
  "exa",
  "brave_search",
  "brave",
  "github",
  "gitlab",
  "slack",
  "fetch",
  "notion",
  "linear",
  "jira",
  "confluence",
  "atlassian",
  "sentry",
  "stripe",
  "google_maps",
  "google_drive",
  "gdrive",
  "gmail",
  "google_calendar",
  "perplexity",
  "firecrawl",
  "serper",
  "serpapi",
  "context7",
  "huggingface",
  "discord",
  "telegram",
  "twitter",
  "openai",
  "anthropic",
  "replicate",
  "cloudflare",
  "vercel",
  "supabase",
  "airtable",
  "hubspot",
  "salesforce",
  "zapier",
  "youtube",
  "spotify",
];

export const ROUTING_TABLE: ReadonlyMap<string, Routing> = new Map<string, Routing>([...LOCAL.map((ns) => [ns, "local"] as const), ...CLOUD.map((ns) => [ns, "cloud"] as const)]);

/** The namespace of "ns:action" (or of the wire form "ns__action", or a bare "ns"). */
export function namespaceOf(toolId: string): string {
  const colon = toolId.indexOf(":");
  if (colon >= 0) return toolId.slice(0, colon);
  const wire = toolId.indexOf("__");
  return wire >= 0 ? toolId.slice(0, wire) : toolId;
}

export function routeTool(toolId: string): Routing {
  const ns = namespaceOf(toolId).toLowerCase().replace(/-/g, "_");
  return ROUTING_TABLE.get(ns) ?? "local";
}

/** A capability runs where all its tools can: an explicit routing wins; any local tool -> local;
 * all cloud -> cloud; no tools -> cloud (pure code needs no machine). */
export function routeCapability(toolIds: readonly string[], explicit?: Routing): Routing {
  if (explicit) return explicit;
  return toolIds.some((id) => routeTool(id) === "local") ? "local" : "cloud";
}

/** A module tool runs in the cloud by its own routing, else by the platform's table (API-backed
 * namespaces); cloud descriptors always do. */
export function isCloudRouted(ns: string, d: Descriptor, action: string): boolean {
  return d.type === "cloud" || (d.type === "module" && (d.routing ?? routeTool(`${ns}:${action}`)) === "cloud");
}
