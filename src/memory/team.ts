// Procedural memory shared with a team: the registry at `.pml.json` cloud.url (`pml registry serve
// --database …`), the only place PML_API_KEY goes. With `"memory": {"publish": "project|org|public"}`
// a named capability is pushed there after it is saved; capabilities not found locally are looked
// up there (after the local store) and kept in <PML_HOME>/cache/team-capabilities/ so they still
// run offline. A short name means the caller's own org's capability (its own project's first);
// another org's is reached only by its full FQDN. What is sent never carries the user's secrets
// (secret-screen.ts): code or text holding one is not published at all, default arguments are sent
// only with `memory.publish_defaults: true`, and then without any the screen withholds.
import { UserError } from "../errors.ts";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { writeFileAtomic } from "../fs/atomic.ts";
import { cloudKey } from "../config/settings.ts";
import { cacheDir } from "../config/paths.ts";
import type { ProjectConfig } from "../config/pml-json.ts";
import { insecureUrlReason } from "../http/secure-url.ts";
import { log } from "../log.ts";
import { normalizeRegistryUrl } from "../registry/fqdn.ts";
import { maxAgeOf } from "../registry/client.ts";
import { formatName, parseCallName, type CapName } from "./names.ts";
import { SecretScreen } from "./secret-screen.ts";
import type { HttpResponse } from "../http/request.ts";
import { LIST_MAX_BYTES, listAnswer, messageOf, teamFetch, Unreachable } from "./team-http.ts";
import type { Capability, Scope } from "./store.ts";

export type PublishMode = "off" | "project" | "org" | "public";

export interface TeamRegistry {
  url: string;
  key?: string;
  publish: PublishMode;
  /** `memory.publish_defaults`: default arguments go with a publish (screened), else none do. */
  publishDefaults: boolean;
}

/** The team registry of this project (cloud.url), or undefined when none is configured. */
export function teamRegistry(config: ProjectConfig, workspace: string): TeamRegistry | undefined {
  const raw = config.cloud?.url;
  if (!raw || insecureUrlReason(raw, "cloud.url")) return undefined;
  const memory = config.memory as { publish?: PublishMode; publish_defaults?: boolean } | undefined;
  return { url: normalizeRegistryUrl(raw), key: cloudKey({ workspace }), publish: memory?.publish ?? "off", publishDefaults: memory?.publish_defaults === true };
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

// ---- publish ---------------------------------------------------------------------------------

export type PublishOutcome = { published: { fqdn: string; version: string; status: string; visibility: string }; warning?: string } | { warning: string };

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

/** Pushes a saved, named capability to the team registry (as team.publish says, or `visibility`);
 * never throws. `retry`: what the user is told to do when the registry cannot be reached. */
export async function publishCapability(
  team: TeamRegistry,
  cap: Capability,
  workspace: string,
  opts: { visibility?: Exclude<PublishMode, "off">; retry?: string } = {},
): Promise<PublishOutcome> {
  const where = `the team registry ${team.url}`;
  if (!team.key) return { warning: `Not published to ${where}: PML_API_KEY is not set (environment or workspace .env).` };
  const screen = SecretScreen.forWorkspace(workspace);
  for (const [what, text] of [
    ["code", cap.code],
    ["description", cap.description],
    ["intent", cap.intent],
  ] as const) {
    const why = screen.reason(text ?? "");
    if (why) return { warning: `Not published to ${where}: its ${what} contains ${why}. Pass secrets as arguments (or read them in a tool), not in the code.` };
  }
  const { defaults, schema, withheld } = publishableDefaults(cap, screen, team.publishDefaults);
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
    visibility: opts.visibility ?? team.publish,
  });
  const leak = screen.reason(body);
  if (leak) return { warning: `Not published to ${where}: it would carry ${leak}.` };
  let res: HttpResponse;
  try {
    res = await teamFetch(team, "/mcp/capabilities", { method: "POST", body });
  } catch (e) {
    return { warning: `Not published to ${where}: unreachable (${(e as Error).message}). ${opts.retry ?? "It is published the next time this code is saved by execute."}` };
  }
  if (res.status === 200 || res.status === 201) {
    const r = (await res.json()) as { fqdn: string; version: string; status: string; visibility: string };
    await rememberPublished(team.url, cap.id, r.version);
    const out: PublishOutcome = { published: { fqdn: r.fqdn, version: r.version, status: r.status, visibility: r.visibility } };
    if (!withheld.length) return out;
    return { ...out, warning: `Published without the default value of ${withheld.map((w) => `${w.name} (${w.why})`).join(", ")}: a secret never leaves this machine.` };
  }
  const message = await messageOf(res);
  if (res.status === 401 || res.status === 403) return { warning: `Not published to ${where}: ${message} (check PML_API_KEY).` };
  return { warning: `Not published to ${where}: ${message}` };
}

/**
 * The default arguments and parameters schema a publish may carry. No default arguments go (a call
 * gets only the defaults its schema declares, issue 23); the schema's values, declared `default`s
 * and the first run's `examples`, go only with `memory.publish_defaults`, and then not one the
 * screen withholds (a withheld parameter goes without them).
 */
function publishableDefaults(cap: Capability, screen: SecretScreen, withDefaults: boolean) {
  const schema = structuredClone(cap.parameters_schema) as { properties?: Record<string, Record<string, unknown>> };
  const properties = schema.properties && typeof schema.properties === "object" ? schema.properties : {};
  const strip = (p: Record<string, unknown> | undefined) => {
    if (!p || typeof p !== "object") return;
    delete p.default;
    delete p.examples;
  };
  if (!withDefaults) {
    for (const p of Object.values(properties)) strip(p);
    return { defaults: {}, schema, withheld: [] };
  }
  const values: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(properties)) if (p && typeof p === "object" && ("default" in p || "examples" in p)) values[k] = [p.default, p.examples];
  const { withheld } = screen.screenArguments(values);
  for (const w of withheld) strip(properties[w.name]);
  return { defaults: {}, schema, withheld };
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

/** Per registry, key (whose org a short name means) and name; "v2": entries cached before short
 * names stayed in the caller's org may hold another org's capability, so they are not read. */
function cachePath(team: TeamRegistry, name: string): string {
  const key = createHash("sha256")
    .update(`v2\n${team.url}\n${team.key ?? ""}\n${name}`)
    .digest("hex")
    .slice(0, 40);
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

/** What a call names in the team registry: a short name (`ns:action`), in the caller's own org, or a
 * full FQDN (`org.project.ns.action[.hash4]`), the only way to another org's capability. */
export type TeamWanted = CapName | { fqdn: string };

/** The team name in what a call gives (`git:release_notes`, `aaa.web.git.release_notes`); undefined
 * when it can be neither (an unnamed capability is never shared). */
export function teamWanted(raw: string): TeamWanted | undefined {
  const name = parseCallName(raw);
  if (name) return name.namespace === "unnamed" ? undefined : name;
  const fqdn = raw.trim().replace(/^cap:/, "");
  return /^[a-z0-9_-]+(\.[a-z0-9_-]+){3,4}$/i.test(fqdn) ? { fqdn } : undefined;
}

/**
 * A capability the team shares under `wanted` (a short name: the caller's own org's, its own
 * project's first), from the cache while it is fresh, else from the registry (revalidated with its
 * ETag), else, when the registry cannot be reached, from the cache however old. Undefined when the
 * registry has none the key may see.
 */
export async function findTeamCapability(team: TeamRegistry, wanted: TeamWanted, scope: Scope): Promise<RemoteCapability | undefined> {
  const display = "fqdn" in wanted ? wanted.fqdn : formatName(wanted);
  const path = cachePath(team, display);
  const cached = readCache(path);
  if (cached && Date.now() - cached.fetchedAt < cached.maxAgeS * 1000) return cached.record;
  try {
    const fqdn = "fqdn" in wanted ? wanted.fqdn : await ownOrgFqdn(team, display, scope);
    if (!fqdn) {
      if (cached) unlinkSync(path);
      return undefined;
    }
    const headers: Record<string, string> = cached?.fqdn === fqdn && cached.etag ? { "if-none-match": cached.etag } : {};
    const res = await teamFetch(team, `/mcp/${fqdn}?format=record`, { headers });
    const { maxAgeS } = maxAgeOf(res.headers.get("cache-control"));
    if (res.status === 304 && cached) {
      await writeCache(path, { ...cached, fetchedAt: Date.now(), maxAgeS });
      return cached.record;
    }
    if (res.status >= 500) throw new Unreachable(`HTTP ${res.status}`);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw new UserError(`the team registry ${team.url} refused ${fqdn}: ${await messageOf(res)}`);
    const parsed = v.safeParse(RemoteCapabilitySchema, await res.json());
    if (!parsed.success) throw new UserError(`the team registry ${team.url} sent a malformed record for ${fqdn} (at '${v.getDotPath(parsed.issues[0]) ?? "(record)"}')`);
    await writeCache(path, { fqdn, etag: res.headers.get("etag") ?? undefined, fetchedAt: Date.now(), maxAgeS, record: parsed.output });
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
    throw new UserError(`${display} is not saved here and the team registry ${team.url} is unreachable (${e.message}).`);
  }
}

/** A team capability's description is read this far (a longer one is a pasted text, and each of its
 * words would cost every discover that finds it). */
const TEAM_DESCRIPTION_CHARS = 1000;

/**
 * The FQDN a short name means for this caller: its own org's capability of that name, this
 * project's first, then the org's other projects'. Never another org's, even a public one (a
 * registry serving other orgs' names here, or no caller identity, finds nothing).
 */
async function ownOrgFqdn(team: TeamRegistry, name: string, scope: Scope): Promise<string | undefined> {
  const list = await teamFetch(team, `/mcp?name=${encodeURIComponent(name)}&limit=100`, { maxBytes: LIST_MAX_BYTES });
  if (list.status >= 500) throw new Unreachable(`HTTP ${list.status}`);
  if (list.status !== 200) throw new UserError(`the team registry ${team.url} refused the lookup of ${name}: ${await messageOf(list)}`);
  const answer = await listAnswer(list);
  const org = answer.viewer;
  if (!org) return undefined;
  const mine = answer.items.filter((i) => i.org === org);
  return (mine.find((i) => i.project === scope.project) ?? mine[0])?.fqdn;
}

const keyOrgs = new Map<string, Promise<string | undefined>>();

/** The org the key belongs to, as the registry's list answer says (`viewer`); undefined when the
 * key has no identity or the registry cannot say (then asked again next time). */
export function keyOrg(team: TeamRegistry): Promise<string | undefined> {
  const id = `${team.url}\n${team.key ?? ""}`;
  let known = keyOrgs.get(id);
  if (!known) {
    known = teamFetch(team, "/mcp?limit=1", { maxBytes: LIST_MAX_BYTES })
      .then(async (res) => (res.status === 200 ? (await listAnswer(res)).viewer : undefined))
      .catch(() => undefined);
    keyOrgs.set(id, known);
    known.then((org) => org ?? keyOrgs.delete(id));
  }
  return known;
}

export interface TeamHit {
  /** What to call it by: its short name in the caller's own org, its full FQDN in another org. */
  name: string;
  fqdn: string;
  /** The org it belongs to (another org's capability is labelled with it). */
  org?: string;
  description?: string;
  version?: string;
  by?: string;
}

/** Capabilities the team registry finds for `query` (ranked by the registry); [] when it cannot answer. */
export async function searchTeam(team: TeamRegistry, query: string, limit = 10): Promise<{ hits: TeamHit[]; note?: string }> {
  try {
    const res = await teamFetch(team, `/mcp?text=${encodeURIComponent(query.slice(0, 500))}&limit=${limit}`, { maxBytes: LIST_MAX_BYTES });
    if (res.status !== 200) return { hits: [], note: `team registry ${team.url}: ${await messageOf(res)}` };
    const answer = await listAnswer(res);
    const own = answer.viewer;
    // At most what was asked for: each hit is indexed and ranked by every discover that gets it.
    return {
      hits: answer.items
        .filter((i) => i.type === "capability" && i.name)
        .slice(0, limit)
        .map((i) => ({
          name: own !== undefined && i.org === own ? i.name! : i.fqdn,
          fqdn: i.fqdn,
          org: i.org ?? undefined,
          description: i.description?.slice(0, TEAM_DESCRIPTION_CHARS) ?? undefined,
          version: i.version ?? undefined,
          by: i.updated_by ?? undefined,
        })),
    };
  } catch (e) {
    if (e instanceof Unreachable) return { hits: [], note: `team registry ${team.url} is unreachable (${e.message})` };
    if (e instanceof SyntaxError) return { hits: [], note: `team registry ${team.url} sent a search answer that is not JSON: is cloud.url a pml registry?` };
    return { hits: [], note: (e as Error).message };
  }
}
