// What a .pml.json grants, as items a person can read and pml can compare. A workspace's file may
// arrive with a cloned repository: what it grants (run a command, send a key or the arguments
// somewhere, fetch code, give variables, open the network, name where memory goes) applies only
// once the user trusted it, and so does a sandbox limit, or one that spends the user's time or
// tokens (config/cost-limits.ts), raised above pml's default. Everything else
// in the file only restricts (deny, ask, lower limits) and applies at once.
import { COST_LIMIT_DEFAULTS, type CostLimitKey } from "../../config/cost-limits.ts";
import type { ProjectConfig } from "../../config/pml-json.ts";
import { DEFAULT_SANDBOX_CONFIG } from "../../sandbox/limits.ts";
import { quoted, visibleLine } from "../../visible-text.ts";

export interface Grant {
  /** Stable and exact: the same grant has the same id in every file. */
  id: string;
  /** What it lets happen, in plain words (what `pml trust` shows), the file's values escaped
   * (visible-text.ts): a URL ending in ESC[2K cannot erase its line and show another host. */
  text: string;
}

type Config = ProjectConfig & Record<string, any>;

/** One granting key: the grants it holds, and the config without those not kept. */
interface GrantingKey {
  list(c: Config): Grant[];
  strip(c: Config, keep: (id: string) => boolean): void;
}

const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));

/** A list of strings at `parent[key]`, each one grant. */
function listKey(parentOf: (c: Config) => Record<string, any> | undefined, key: string, label: string, say: (item: string) => string): GrantingKey {
  const id = (item: string) => `${label} ${item}`;
  return {
    list: (c) => ((parentOf(c)?.[key] as string[] | undefined) ?? []).map((item) => ({ id: id(item), text: say(item) })),
    strip: (c, keep) => {
      const parent = parentOf(c);
      if (Array.isArray(parent?.[key])) parent[key] = parent[key].filter((item: string) => keep(id(item)));
    },
  };
}

/** A single value at `parent[key]`, one grant when set (and not `inert`). */
function valueKey(parentOf: (c: Config) => Record<string, any> | undefined, key: string, label: string, say: (value: any) => string, inert?: (value: any) => boolean): GrantingKey {
  const grant = (value: any): Grant | undefined => (value === undefined || inert?.(value) ? undefined : { id: `${label} ${canonical(value)}`, text: say(value) });
  return {
    list: (c) => {
      const g = grant(parentOf(c)?.[key]);
      return g ? [g] : [];
    },
    strip: (c, keep) => {
      const parent = parentOf(c);
      const g = grant(parent?.[key]);
      if (g && !keep(g.id)) delete parent![key];
    },
  };
}

/** A record at `parent[key]` whose entries are each one grant (the entry's whole content). */
function recordKey(parentOf: (c: Config) => Record<string, any> | undefined, key: string, label: string, say: (name: string, entry: any) => string): GrantingKey {
  const id = (name: string, entry: unknown) => `${label} ${name} ${canonical(entry)}`;
  return {
    list: (c) => Object.entries((parentOf(c)?.[key] as Record<string, unknown> | undefined) ?? {}).map(([name, entry]) => ({ id: id(name, entry), text: say(name, entry) })),
    strip: (c, keep) => {
      const record = parentOf(c)?.[key] as Record<string, unknown> | undefined;
      if (record) for (const [name, entry] of Object.entries(record)) if (!keep(id(name, entry))) delete record[name];
    },
  };
}

const top = (c: Config) => c as Record<string, any>;

/** env_grants: each variable given to a namespace is one grant (an "Always" adds one at a time). */
function envGrants(): GrantingKey {
  const id = (ns: string, name: string) => `env_grants ${ns} ${name}`;
  return {
    list: (c) =>
      Object.entries((c.env_grants as Record<string, string[]> | undefined) ?? {}).flatMap(([ns, names]) =>
        names.map((name) => ({ id: id(ns, name), text: `env_grants.${ns}: gives ${ns} your ${name}` })),
      ),
    strip: (c, keep) => {
      for (const [ns, names] of Object.entries((c.env_grants as Record<string, string[]> | undefined) ?? {})) c.env_grants[ns] = names.filter((n) => keep(id(ns, n)));
    },
  };
}
const section = (name: string) => (c: Config) => c[name] as Record<string, any> | undefined;

/** A sandbox limit: above pml's default it grants more (time, memory, runs) than pml would give a
 * stranger's code; at or below it only restricts. Untrusted, a raise is dropped and the default applies. */
function limitKey(key: keyof typeof DEFAULT_SANDBOX_CONFIG, what: string, unit = ""): GrantingKey {
  const byDefault = DEFAULT_SANDBOX_CONFIG[key];
  return valueKey(
    section("sandbox"),
    key,
    `sandbox.${key}`,
    (n) => `sandbox.${key}: raises ${what} to ${n}${unit} (default ${byDefault}${unit})`,
    (n) => !(typeof n === "number" && n > byDefault),
  );
}

/** A limit that spends the user's time, tokens or money outside the sandbox (config/cost-limits.ts):
 * above pml's default a grant, as a sandbox limit is. */
function costKey(key: CostLimitKey, what: string, unit = ""): GrantingKey {
  const [parent, name] = key.split(".") as [string, string];
  const byDefault = COST_LIMIT_DEFAULTS[key];
  return valueKey(
    section(parent),
    name,
    key,
    (n) => `${key}: raises ${what} to ${n}${n === "all" ? "" : unit} (default ${byDefault}${unit})`,
    (n) => !(n === "all" || (typeof n === "number" && n > byDefault)),
  );
}

function runs(entry: any): string {
  if (typeof entry?.url === "string") return `sends your calls (and the headers it names) to ${entry.url}`;
  const line = [entry?.command, ...(Array.isArray(entry?.args) ? entry.args : [])].filter((x) => typeof x === "string").map((x) => (/[\s"'$`\\]/.test(x) ? quoted(x) : x));
  const env = entry?.env && typeof entry.env === "object" ? ` with variables ${Object.keys(entry.env).join(", ")}` : "";
  return `runs \`${line.join(" ")}\` on this machine${entry?.confine === true ? " (confined)" : ", as you"}${env}`;
}

/** memory.embeddings: where capability and tool texts (and requests) go, and with which key. The
 * model is not part of the grant: another model at the same address, with the same key, sends the
 * same texts to the same place. */
function embeddingsKey(): GrantingKey {
  const grant = (e: any): Grant | undefined =>
    e && typeof e === "object" && typeof e.url === "string"
      ? {
          id: `memory.embeddings ${canonical({ url: e.url, api_key_env: e.api_key_env ?? null })}`,
          text: `memory.embeddings: sends capability and tool texts to ${e.url} for embeddings, ${typeof e.api_key_env === "string" ? `with your $${e.api_key_env}` : "without a key"}`,
        }
      : undefined;
  return {
    list: (c) => {
      const g = grant(section("memory")(c)?.embeddings);
      return g ? [g] : [];
    },
    strip: (c, keep) => {
      const memory = section("memory")(c);
      const g = grant(memory?.embeddings);
      if (g && !keep(g.id)) delete memory!.embeddings;
    },
  };
}

const GRANTING: GrantingKey[] = [
  listKey(section("permissions"), "allow", "permissions.allow", (p) => `permissions.allow "${p}": runs without asking you`),
  recordKey(top, "private_mcps", "private_mcps", (ns, e) => `private_mcps.${ns}: ${runs(e)}`),
  listKey(top, "registries", "registries", (url) => `registries: fetches tools and code from ${url}`),
  envGrants(),
  valueKey(section("cloud"), "url", "cloud.url", (url) => `cloud.url: sends cloud tool calls, with your PML_API_KEY, to ${url}`),
  listKey(section("sandbox"), "net_allow", "sandbox.net_allow", (host) => `sandbox.net_allow: sandboxed code may reach ${host}`),
  valueKey(
    section("sandbox"),
    "shell_net",
    "sandbox.shell_net",
    () => "sandbox.shell_net: shell commands get the network",
    (v) => v !== true,
  ),
  listKey(section("sandbox"), "server_net", "sandbox.server_net", (ns) => `sandbox.server_net: the server ${ns} gets the network`),
  recordKey(section("sandbox"), "grants", "sandbox.grants", (ns, g) => `sandbox.grants.${ns}: ${canonical(g)}`),
  limitKey("timeout_ms", "the sandbox time limit", " ms"),
  limitKey("memory_mb", "the memory one sandboxed run may use", " MB"),
  limitKey("max_concurrent", "how many sandboxed runs may run at once"),
  limitKey("max_memory_mb", "the memory all sandboxed runs together may use", " MB"),
  limitKey("max_queued", "how many runs may wait for a free sandbox"),
  costKey("pool.call_timeout_s", "how long a call to a tool server may take", " s"),
  costKey("pool.idle_timeout_s", "how long an idle tool server keeps running", " s"),
  costKey("cloud.timeout_s", "how long a cloud tool call may take", " s"),
  costKey("sampling.timeout_s", "how long an LLM request may take", " s"),
  costKey("sampling.max_tokens", "the tokens one LLM request may spend of your key", " tokens"),
  costKey("memory.list_tools", "how many capabilities tools/list carries into every request's context"),
  listKey(section("sampling"), "allow", "sampling.allow", (ns) => `sampling.allow: ${ns} may spend your LLM key without asking`),
  valueKey(section("sampling"), "url", "sampling.url", (url) => `sampling.url: sends LLM requests, with your key, to ${url}`),
  valueKey(section("sampling"), "api_key_env", "sampling.api_key_env", (name) => `sampling.api_key_env: uses your ${name} for LLM requests`),
  valueKey(section("memory"), "org", "memory.org", (org) => `memory.org: capabilities are shared as org "${org}"`),
  valueKey(section("memory"), "project", "memory.project", (p) => `memory.project: capabilities are named for project "${p}"`),
  valueKey(
    section("memory"),
    "publish",
    "memory.publish",
    (p) => `memory.publish: saved capabilities are published to the team registry (${p})`,
    (p) => p === "off",
  ),
  embeddingsKey(),
];

/** Every grant the config holds. */
export function grantsOf(config: ProjectConfig): Grant[] {
  return GRANTING.flatMap((k) => k.list(config as Config)).map((g) => ({ id: g.id, text: visibleLine(g.text) }));
}

/** The config with only the grants `keep` accepts (a copy; what only restricts is kept whole). */
export function withGrants(config: ProjectConfig, keep: (id: string) => boolean): ProjectConfig {
  const copy = structuredClone(config) as Config;
  for (const k of GRANTING) k.strip(copy, keep);
  return copy;
}

/** The grant ids an "Always" of the user writes into .pml.json (recorded as trusted with it). */
export const alwaysGrant = {
  allow: (toolId: string) => `permissions.allow ${toolId}`,
  env: (ns: string, name: string) => `env_grants ${ns} ${name}`,
  sampling: (ns: string) => `sampling.allow ${ns}`,
};
