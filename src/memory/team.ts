// Procedural memory shared with a team: the registry at `.pml.json` cloud.url (`pml registry serve
// --database …`), the only place PML_API_KEY goes. With `"memory": {"publish": "project|org|public"}`
// a named capability is pushed there after it is saved; capabilities not found locally are looked
// up there (after the local store) and kept in <PML_HOME>/cache/team-capabilities/ so they still
// run offline. What is sent never carries the user's secrets: code or text holding the value of a
// secret variable is not published at all, and default arguments holding one are left out.
import { HttpError, httpRequest, type HttpResponse } from "../http/request.ts";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { writeFileAtomic } from "../fs/atomic.ts";
import { readDotEnvSync } from "../config/dotenv.ts";
import { cloudKey } from "../config/settings.ts";
import { cacheDir } from "../config/paths.ts";
import type { ProjectConfig } from "../config/pml-json.ts";
import { insecureUrlReason } from "../http/secure-url.ts";
import { log } from "../log.ts";
import { normalizeRegistryUrl } from "../registry/fqdn.ts";
import { maxAgeOf } from "../registry/client.ts";
import { formatName, type CapName } from "./names.ts";
import type { Capability, Scope } from "./store.ts";

export type PublishMode = "off" | "project" | "org" | "public";
export const PUBLISH_MODES: readonly PublishMode[] = ["off", "project", "org", "public"];

const TIMEOUT_MS = 5_000;

export interface TeamRegistry {
  url: string;
  key?: string;
  publish: PublishMode;
}

/** The team registry of this project (cloud.url), or undefined when none is configured. */
export function teamRegistry(config: ProjectConfig, workspace: string): TeamRegistry | undefined {
  const raw = config.cloud?.url;
  if (!raw || insecureUrlReason(raw, "cloud.url")) return undefined;
  const publish = ((config.memory as { publish?: PublishMode } | undefined)?.publish ?? "off") as PublishMode;
  return { url: normalizeRegistryUrl(raw), key: cloudKey({ workspace }), publish };
}

/** A capability as the team registry serves it (`GET /mcp/{fqdn}?format=record`). */
export const RemoteCapabilitySchema = v.looseObject({
  name: v.string(),
  fqdn: v.string(),
  version_fqdn: v.string(),
  version: v.string(),
  code: v.string(),
  description: v.nullish(v.string()),
  intent: v.nullish(v.string()),
  parameters_schema: v.record(v.string(), v.unknown()),
  default_args: v.record(v.string(), v.unknown()),
  tools_used: v.array(v.string()),
  routing: v.optional(v.string()),
  created_by: v.optional(v.string()),
  updated_by: v.optional(v.string()),
});
export type RemoteCapability = v.InferOutput<typeof RemoteCapabilitySchema>;

class Unreachable extends Error {}

/** One request to the team registry: the key as Bearer, a time limit, no redirects (the key stays put). */
async function teamFetch(team: TeamRegistry, path: string, init: { method?: "GET" | "POST"; body?: string; headers?: Record<string, string> } = {}): Promise<HttpResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (team.key) headers.authorization = `Bearer ${team.key}`;
  if (init.body) headers["content-type"] = "application/json";
  try {
    return await httpRequest(`${team.url}${path}`, { method: init.method ?? "GET", headers, body: init.body, timeoutMs: TIMEOUT_MS, what: "team registry", redirects: "refuse" });
  } catch (e) {
    if (e instanceof HttpError && (e.kind === "unreachable" || e.kind === "timeout")) throw new Unreachable(e.message);
    throw e;
  }
}

async function messageOf(res: HttpResponse): Promise<string> {
  const text = await res.text().catch(() => "");
  try {
    const j = JSON.parse(text);
    if (typeof j?.message === "string") return j.message;
  } catch {}
  return `HTTP ${res.status}`;
}

// ---- secrets ---------------------------------------------------------------------------------

const SECRET_NAME = /KEY|TOKEN|SECRET|PASS|CREDENTIAL|AUTH|PRIVATE|SESSION|COOKIE/i;

/** Values that must never leave in a publish: every workspace .env value and secret-named variables. */
export function secretValues(workspace: string, env: Record<string, string | undefined> = process.env): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, value] of Object.entries(env)) if (value && value.length >= 8 && SECRET_NAME.test(k)) out.set(value, k);
  let dotenv: Record<string, string> = {};
  try {
    dotenv = readDotEnvSync(workspace);
  } catch {}
  for (const [k, value] of Object.entries(dotenv)) if (value.length >= 6) out.set(value, k);
  return out;
}

function findSecret(text: string, secrets: Map<string, string>): string | undefined {
  for (const [value, name] of secrets) if (text.includes(value)) return name;
  return undefined;
}

// ---- publish ---------------------------------------------------------------------------------

export type PublishOutcome = { published: { fqdn: string; version: string; status: string; visibility: string } } | { warning: string };

/**
 * After a save: a named capability that is new, newly named or a new version goes to the team
 * registry when `.pml.json` memory.publish says so (a run of unchanged code publishes nothing).
 */
export async function publishAfterSave(
  config: ProjectConfig,
  workspace: string,
  saved: { kind: string; capability: Capability; named?: boolean; version?: unknown },
): Promise<PublishOutcome | undefined> {
  if (!saved.capability.named || !(saved.kind === "created" || saved.named || saved.version)) return undefined;
  const team = teamRegistry(config, workspace);
  if (!team || team.publish === "off") return undefined;
  return publishCapability(team, saved.capability, workspace);
}

/** Pushes a saved, named capability to the team registry; never throws. */
export async function publishCapability(team: TeamRegistry, cap: Capability, workspace: string): Promise<PublishOutcome> {
  const where = `the team registry ${team.url}`;
  if (!team.key) return { warning: `Not published to ${where}: PML_API_KEY is not set (environment or workspace .env).` };
  const secrets = secretValues(workspace);
  for (const [what, text] of [
    ["code", cap.code],
    ["description", cap.description],
    ["intent", cap.intent],
  ] as const) {
    const name = findSecret(text ?? "", secrets);
    if (name) return { warning: `Not published to ${where}: its ${what} contains the value of ${name}. Pass secrets as arguments (or read them in a tool), not in the code.` };
  }
  // Default arguments are the first run's: one holding a secret is left out (and its schema default).
  const defaults: Record<string, unknown> = {};
  const schema = structuredClone(cap.parameters_schema) as { properties?: Record<string, Record<string, unknown>> };
  const dropped: string[] = [];
  for (const [k, value] of Object.entries(cap.default_args)) {
    if (findSecret(JSON.stringify(value), secrets)) {
      dropped.push(k);
      delete schema.properties?.[k]?.default;
    } else defaults[k] = value;
  }
  // A change to a capability published from here names the registry version it builds on, so a
  // teammate's newer version is never overwritten (the registry answers stale_base_version).
  const base = publishedVersions(team.url)[cap.id];
  const body = JSON.stringify({
    ...(base ? { update: true, base_version: base } : {}),
    name: cap.display_name,
    project: cap.project,
    code: cap.code,
    description: cap.description || undefined,
    intent: cap.intent || undefined,
    parameters_schema: schema,
    default_args: defaults,
    tools_used: cap.tools_used,
    routing: cap.routing,
    tags: cap.tags,
    visibility: team.publish,
  });
  const leak = findSecret(body, secrets);
  if (leak) return { warning: `Not published to ${where}: it would carry the value of ${leak}.` };
  let res: HttpResponse;
  try {
    res = await teamFetch(team, "/mcp/capabilities", { method: "POST", body });
  } catch (e) {
    return { warning: `Not published to ${where}: unreachable (${(e as Error).message}). It is published the next time this code is saved by execute.` };
  }
  if (res.status === 200 || res.status === 201) {
    const r = (await res.json()) as { fqdn: string; version: string; status: string; visibility: string };
    await rememberPublished(team.url, cap.id, r.version);
    const out: PublishOutcome = { published: { fqdn: r.fqdn, version: r.version, status: r.status, visibility: r.visibility } };
    return dropped.length ? { ...out, warning: `Published without the default value of ${dropped.join(", ")}: it holds a secret.` } : out;
  }
  const message = await messageOf(res);
  if (res.status === 401 || res.status === 403) return { warning: `Not published to ${where}: ${message} (check PML_API_KEY).` };
  return { warning: `Not published to ${where}: ${message}` };
}

/** The registry version each capability was last published as from this machine, per registry. */
function publishedFile(): string {
  return join(cacheDir(), "team-published.json");
}

function publishedVersions(url: string): Record<string, string> {
  try {
    const all = JSON.parse(readFileSync(publishedFile(), "utf8")) as Record<string, Record<string, string>>;
    return all[url] ?? {};
  } catch {
    return {};
  }
}

async function rememberPublished(url: string, id: string, version: string): Promise<void> {
  let all: Record<string, Record<string, string>> = {};
  try {
    all = JSON.parse(readFileSync(publishedFile(), "utf8"));
  } catch {}
  all[url] = { ...all[url], [id]: version };
  try {
    mkdirSync(cacheDir(), { recursive: true });
    await writeFileAtomic(publishedFile(), JSON.stringify(all));
  } catch (e) {
    log.warn(`could not note the published version of ${id}: ${(e as Error).message}`);
  }
}

// ---- find ------------------------------------------------------------------------------------

const CachedSchema = v.object({ fqdn: v.string(), etag: v.optional(v.string()), fetchedAt: v.number(), maxAgeS: v.number(), record: RemoteCapabilitySchema });
type Cached = v.InferOutput<typeof CachedSchema>;

function cachePath(team: TeamRegistry, name: string): string {
  const key = createHash("sha256").update(`${team.url}\n${name}`).digest("hex").slice(0, 40);
  return join(cacheDir(), "team-capabilities", `${key}.json`);
}

function readCache(path: string): Cached | undefined {
  try {
    const parsed = v.safeParse(CachedSchema, JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

async function writeCache(path: string, entry: Cached): Promise<void> {
  try {
    mkdirSync(join(cacheDir(), "team-capabilities"), { recursive: true });
    await writeFileAtomic(path, JSON.stringify(entry));
  } catch (e) {
    log.warn(`team capability cache: could not store ${entry.record.name} (${(e as Error).message})`);
  }
}

const warnedOffline = new Set<string>();

/**
 * A capability the team shares under `name` (same project first), from the cache while it is
 * fresh, else from the registry (revalidated with its ETag), else, when the registry cannot be
 * reached, from the cache however old. Undefined when the registry has none the key may see.
 */
export async function findTeamCapability(team: TeamRegistry, name: CapName, scope: Scope): Promise<RemoteCapability | undefined> {
  const display = formatName(name);
  const path = cachePath(team, display);
  const cached = readCache(path);
  if (cached && Date.now() - cached.fetchedAt < cached.maxAgeS * 1000) return cached.record;
  try {
    const list = await teamFetch(team, `/mcp?name=${encodeURIComponent(display)}&limit=100`);
    if (list.status >= 500) throw new Unreachable(`HTTP ${list.status}`);
    if (list.status !== 200) throw new Error(`the team registry ${team.url} refused the lookup of ${display}: ${await messageOf(list)}`);
    const items = ((await list.json()) as { items: { fqdn: string; project?: string }[] }).items;
    const pick = items.find((i) => i.project === scope.project) ?? items[0];
    if (!pick) {
      if (cached) unlinkSync(path);
      return undefined;
    }
    const headers: Record<string, string> = cached?.fqdn === pick.fqdn && cached.etag ? { "if-none-match": cached.etag } : {};
    const res = await teamFetch(team, `/mcp/${pick.fqdn}?format=record`, { headers });
    const { maxAgeS } = maxAgeOf(res.headers.get("cache-control"));
    if (res.status === 304 && cached) {
      await writeCache(path, { ...cached, fetchedAt: Date.now(), maxAgeS });
      return cached.record;
    }
    if (res.status >= 500) throw new Unreachable(`HTTP ${res.status}`);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw new Error(`the team registry ${team.url} refused ${pick.fqdn}: ${await messageOf(res)}`);
    const parsed = v.safeParse(RemoteCapabilitySchema, await res.json());
    if (!parsed.success) throw new Error(`the team registry ${team.url} sent a malformed record for ${pick.fqdn} (at '${v.getDotPath(parsed.issues[0]) ?? "(record)"}')`);
    await writeCache(path, { fqdn: pick.fqdn, etag: res.headers.get("etag") ?? undefined, fetchedAt: Date.now(), maxAgeS, record: parsed.output });
    return parsed.output;
  } catch (e) {
    if (!(e instanceof Unreachable)) throw e;
    if (cached) {
      if (!warnedOffline.has(team.url)) {
        warnedOffline.add(team.url);
        log.warn(`team registry ${team.url} is unreachable (${e.message}); using cached capabilities`);
      }
      return cached.record;
    }
    throw new Error(`${display} is not saved here and the team registry ${team.url} is unreachable (${e.message}).`);
  }
}

export interface TeamHit {
  name: string;
  fqdn: string;
  description?: string;
  version?: string;
  by?: string;
}

/** Capabilities the team registry finds for `query` (ranked by the registry); [] when it cannot answer. */
export async function searchTeam(team: TeamRegistry, query: string, limit = 10): Promise<{ hits: TeamHit[]; note?: string }> {
  try {
    const res = await teamFetch(team, `/mcp?text=${encodeURIComponent(query.slice(0, 500))}&limit=${limit}`);
    if (res.status !== 200) return { hits: [], note: `team registry ${team.url}: ${await messageOf(res)}` };
    const items = ((await res.json()) as { items: { type?: string; name?: string; fqdn: string; description?: string; version?: string; updated_by?: string }[] }).items;
    return {
      hits: items
        .filter((i) => i.type === "capability" && i.name)
        .map((i) => ({ name: i.name!, fqdn: i.fqdn, description: i.description, version: i.version, by: i.updated_by })),
    };
  } catch (e) {
    return { hits: [], note: `team registry ${team.url} is unreachable (${(e as Error).message})` };
  }
}
