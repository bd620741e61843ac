// The one place that decides which environment variables a server, a module, a remote server's
// headers or a cloud call receive, and where their values come from.
//
// Values: the descriptor's own literal `env` (after ${workspace} / ${pml_home}), else pml's process
// environment, else the workspace .env. Which variables: a descriptor *asks* (env_required,
// `${VAR}` in its env values or headers); the user *grants*:
//   - PML_API_KEY goes only to the configured cloud.url (`cloudKey`), never to a server, module or
//     header, whatever a descriptor says: such a request is withheld;
//   - an entry the user wrote (.pml.json private_mcps) is the user's own config: what it asks is granted;
//   - anything else (registries, the built-in catalog) gets a variable only when .pml.json
//     `env_grants` grants it to that namespace, or the user approved a prompt naming it (the
//     session's grants; an "Always" writes env_grants).
// Nothing here logs a value.
import { basename, isAbsolute } from "node:path";
import { readDotEnvSync } from "../config/dotenv.ts";
import { CLOUD_KEY, isUsableEnvValue, type EnvSource, type ValueOrigin } from "../config/settings.ts";
import { pmlHome } from "../config/paths.ts";
import { visibleLine } from "../visible-text.ts";
import type { Descriptor } from "../registry/descriptor.ts";
import type { EnvOrigin } from "../registry/resolved.ts";

/** What a server inherits from pml's environment: the basics a process needs, nothing secret. */
const INHERITED_ENV = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TMPDIR",
  "TZ",
  "SYSTEMROOT",
  "SystemRoot",
  "USERPROFILE",
  "ComSpec",
  "PATHEXT",
  "TEMP",
  "TMP",
];

/** What every process pml starts inherits from pml's environment (PATH, HOME, locale...). */
export function baseEnv(env: EnvSource = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of INHERITED_ENV) {
    const value = env[k];
    if (value !== undefined && !value.startsWith("()")) out[k] = value;
  }
  return out;
}

/** `${VAR}` and `${VAR:-default}` (the forms Claude Code expands in .mcp.json). */
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
/** pml's own placeholders in descriptor args and env values; not environment lookups. */
const PML_PLACEHOLDERS = new Set(["workspace", "workspace_id", "pml_home"]);

/** What one destination asks for, taken from its descriptor. */
export interface EnvRequest {
  ns: string;
  /** A stdio server, a remote server's headers, the cloud endpoint (BYOK), sandboxed module code. */
  kind: "server" | "remote" | "cloud" | "module";
  origin: EnvOrigin;
  /** Where the values go, in words: "the command `x --y`", "https://host/mcp". */
  destination: string;
  /** env_required: must be set, passed as they are. */
  required: readonly string[];
  /** The descriptor's own env values (stdio): literals, ${workspace}, ${pml_home}, ${VAR}. */
  env?: Readonly<Record<string, string>>;
  /** Remote headers: literals and ${VAR}. */
  headers?: Readonly<Record<string, string>>;
}

export interface EnvPlan {
  request: EnvRequest;
  /** Granted variables and their values (module ctx.env, cloud BYOK headers, a child's env). */
  values: Record<string, string>;
  /** The descriptor's env with placeholders filled (stdio), plus the granted required values. */
  env: Record<string, string>;
  /** Headers with placeholders filled; a header using a withheld variable is dropped. */
  headers: Record<string, string>;
  /** Asked for, not set anywhere: the call cannot go on. */
  missing: string[];
  /** Asked for by an entry the user did not write, set, not granted: needs the user's approval. */
  ungranted: string[];
  /** Asked for, never given (PML_API_KEY). */
  withheld: string[];
  /** Where each granted or ungranted value was found. */
  from: Record<string, ValueOrigin>;
}

export interface EnvResolverOptions {
  workspace: string;
  /** Default process.env. */
  env?: EnvSource;
  /** .pml.json env_grants: namespace -> variables. */
  grants?: Readonly<Record<string, readonly string[]>>;
  /** Grants the user approved during this session. */
  sessionGranted?: (ns: string, name: string) => boolean;
}

/** pml's own placeholders in descriptor args and env values: ${workspace} (the project root),
 * ${workspace_id} (a folder name for per-project state) and ${pml_home} (PML_HOME or ~/.pml). */
export function substitutePmlPlaceholders(value: string, workspace: string, home: string): string {
  return value.replaceAll("${workspace}", workspace).replaceAll("${workspace_id}", workspaceId(workspace)).replaceAll("${pml_home}", home);
}

/** `<folder name>-<8 hex of its path>`: readable, and distinct for two projects of the same name. */
export function workspaceId(workspace: string): string {
  const name =
    basename(workspace)
      .replace(/[^A-Za-z0-9_.-]/g, "_")
      .slice(0, 40) || "root";
  return `${name}-${new Bun.CryptoHasher("sha256").update(workspace).digest("hex").slice(0, 8)}`;
}

/** Names the `${VAR}` placeholders in a template (pml's own ${workspace}/${pml_home} excluded). */
function placeholders(template: string): Array<{ name: string; fallback?: string }> {
  const out: Array<{ name: string; fallback?: string }> = [];
  for (const m of template.matchAll(PLACEHOLDER)) if (!PML_PLACEHOLDERS.has(m[1]!)) out.push({ name: m[1]!, fallback: m[2] });
  return out;
}

/** True when a descriptor asks for no variable at all: the common case costs no .env read. */
export function asksNothing(req: EnvRequest): boolean {
  if (req.required.length) return false;
  for (const v of Object.values(req.env ?? {})) if (v.includes("${") && placeholders(v).length) return false;
  return Object.keys(req.headers ?? {}).length === 0;
}

export class EnvResolver {
  private dotenv?: Record<string, string>;
  private readonly home: string;

  constructor(private readonly opts: EnvResolverOptions) {
    this.home = pmlHome(this.source());
  }

  private source(): EnvSource {
    return this.opts.env ?? process.env;
  }

  private lookup(name: string): { value: string; from: ValueOrigin } | undefined {
    const fromEnv = this.source()[name];
    this.dotenv ??= readDotEnvSync(this.opts.workspace);
    const fromFile = this.dotenv[name];
    // The same value in both: the environment most likely got it from the workspace .env (a
    // launcher such as `bun run` loads it), which is where the user would change it.
    if (isUsableEnvValue(fromEnv)) return { value: fromEnv, from: fromEnv === fromFile ? ".env" : "environment" };
    return isUsableEnvValue(fromFile) ? { value: fromFile, from: ".env" } : undefined;
  }

  private granted(req: EnvRequest, name: string): boolean {
    if (req.origin === "user") return true;
    // Own keys only: a namespace may be any name, "constructor" too.
    const grants = this.opts.grants;
    if (grants && Object.hasOwn(grants, req.ns) && grants[req.ns]!.includes(name)) return true;
    return this.opts.sessionGranted?.(req.ns, name) ?? false;
  }

  /** ${workspace} and ${pml_home}. */
  substitute(value: string): string {
    return substitutePmlPlaceholders(value, this.opts.workspace, this.home);
  }

  plan(req: EnvRequest): EnvPlan {
    const plan: EnvPlan = { request: req, values: {}, env: {}, headers: {}, missing: [], ungranted: [], withheld: [], from: {} };
    const add = (list: string[], name: string) => {
      if (!list.includes(name)) list.push(name);
    };
    /** The value a request for `name` gets, or undefined (and the reason recorded). */
    const resolve = (name: string, optional: boolean): string | undefined => {
      if (name === CLOUD_KEY) {
        add(plan.withheld, name);
        return undefined;
      }
      if (Object.hasOwn(plan.values, name)) return plan.values[name];
      const found = this.lookup(name);
      if (!found) {
        if (!optional) add(plan.missing, name);
        return undefined;
      }
      plan.from[name] = found.from;
      if (!this.granted(req, name)) {
        add(plan.ungranted, name);
        return undefined;
      }
      plan.values[name] = found.value;
      return found.value;
    };

    /** A template with its ${VAR} filled, or undefined when one of them may not be given (then
     * nothing of it goes out: a header or variable half-filled would still say what it was for). */
    const fill = (template: string): string | undefined => {
      let dropped = false;
      const value = template.replace(PLACEHOLDER, (_m, name: string, fallback: string | undefined) => {
        const v = resolve(name, fallback !== undefined);
        if (v !== undefined) return v;
        // A default stands in for an unset variable, never for one the user has not granted.
        if (fallback !== undefined && !plan.ungranted.includes(name) && name !== CLOUD_KEY) return fallback;
        dropped = true;
        return "";
      });
      return dropped ? undefined : value;
    };

    // The descriptor's own env: a literal the entry gives is its value; ${VAR} inside is a request.
    for (const [key, raw] of Object.entries(req.env ?? {})) {
      if (key === CLOUD_KEY) {
        add(plan.withheld, key);
        continue;
      }
      const value = fill(this.substitute(raw));
      if (value !== undefined) plan.env[key] = value;
    }
    for (const name of req.required) {
      // A value the entry itself gives (private_mcps `env: {TOKEN: "..."}`) satisfies its own requirement.
      if (Object.hasOwn(plan.env, name) && isUsableEnvValue(plan.env[name]) && name !== CLOUD_KEY) continue;
      const v = resolve(name, false);
      if (v !== undefined) plan.env[name] = v;
    }
    for (const [header, template] of Object.entries(req.headers ?? {})) {
      const value = fill(template);
      if (value !== undefined) plan.headers[header.toLowerCase()] = value;
    }
    return plan;
  }

  /** A child process's complete environment: the basics from pml's own plus the plan's. */
  childEnv(plan: EnvPlan): Record<string, string> {
    return { ...baseEnv(this.source()), ...plan.env };
  }
}

/** The command line a stdio descriptor runs, as a user would type it (for approval text). */
export function commandLine(d: Extract<Descriptor, { type: "stdio" }>, substitute: (s: string) => string = (s) => s): string {
  // One argument stays on its line (a newline in it is written \u{A}): it cannot add a sentence to the question.
  const quote = (s: string) => (/^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${visibleLine(s).replace(/'/g, `'\\''`)}'`);
  if (d.package) {
    const args = (d.package.args ?? d.args ?? []).map(substitute);
    const bin = d.package.bin ? `its bin ${d.package.bin}` : "its bin";
    const home = substitute("${pml_home}");
    const where = home === "${pml_home}" ? "," : `, installed in ${home}/deps/${d.package.identifier}@${d.package.version},`;
    return `the npm package ${d.package.identifier}@${d.package.version} (${bin}${where} run on pml's own runtime)${args.length ? ` with arguments ${args.map(quote).join(" ")}` : ""}`;
  }
  const cmd = substitute(d.command ?? "");
  return `the command \`${[cmd, ...(d.args ?? []).map(substitute)].map(quote).join(" ")}\`${isAbsolute(cmd) ? "" : " (found on PATH)"}`;
}

/** What a resolved descriptor asks for. `cloudEndpoint` is where a cloud call goes (BYOK). */
export function envRequestFor(
  ns: string,
  d: Descriptor,
  origin: EnvOrigin,
  where: { cloudEndpoint?: string; cloudRouted?: boolean; substitute?: (s: string) => string } = {},
): EnvRequest {
  const required = d.env_required ?? [];
  if (d.type === "cloud" || where.cloudRouted) return { ns, kind: "cloud", origin, required, destination: `the pml cloud endpoint ${where.cloudEndpoint ?? "(cloud.url)"}` };
  if (d.type === "stdio") return { ns, kind: "server", origin, required, env: d.env, destination: commandLine(d, where.substitute) };
  if (d.type === "http") return { ns, kind: "remote", origin, required, headers: d.headers, destination: d.url };
  return { ns, kind: "module", origin, required, destination: `module code of ${ns} (from ${d.source ?? "a registry"}) in pml's sandbox` };
}
