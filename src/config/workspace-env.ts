// Which of pml's environment variables came from the workspace's .mcp.json. `pml init` writes a
// `pml` entry there, so a cloned repository's entry is what a user expects and approves in Claude
// Code; its `env` is not something the user reviews, yet it reaches pml as its own environment.
// This module is the one place that tells such a variable apart from one the user's shell set:
// the file sets it for an entry that launches pml, and pml's value is what that entry makes of it.
import { readFileSync, realpathSync } from "node:fs";
import { basename } from "node:path";
import { mcpJsonPath, PML_SERVER_NAME } from "./mcp-json.ts";

type Env = Record<string, string | undefined>;

/** One variable an entry that launches pml sets, as written in the file. */
export interface FileEnvVar {
  name: string;
  /** The file's value, before the client expands `${VAR}` / `${VAR:-default}` in it. */
  template: string;
}

/** The variables the workspace's .mcp.json sets for pml (the entry named `pml`, or any whose
 * command is pml); [] when there is no such file or it cannot be read (the client then did not
 * start pml from it either). */
export function pmlEntryEnv(dir: string): FileEnvVar[] {
  let raw: any;
  try {
    raw = JSON.parse(readFileSync(mcpJsonPath(dir), "utf8").replace(/^\uFEFF/, ""));
  } catch {
    return [];
  }
  const servers = raw?.mcpServers;
  if (!servers || typeof servers !== "object") return [];
  const out: FileEnvVar[] = [];
  for (const [server, entry] of Object.entries<any>(servers)) {
    if (!entry || typeof entry !== "object" || !(server === PML_SERVER_NAME || launchesPml(entry.command))) continue;
    if (!entry.env || typeof entry.env !== "object") continue;
    for (const [name, template] of Object.entries(entry.env)) if (typeof template === "string") out.push({ name, template });
  }
  return out;
}

function launchesPml(command: unknown): boolean {
  if (typeof command !== "string") return false;
  if (/^pml(\.exe)?$/i.test(basename(command))) return true;
  try {
    return realpathSync(command) === realpathSync(process.execPath);
  } catch {
    return false;
  }
}

const REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `${NAME}` or `${NAME:-default}` and nothing else: the client passes the user's own value on. */
function selfReference(v: FileEnvVar): { fallback?: string } | undefined {
  const m = new RegExp(`^\\$\\{${escapeRe(v.name)}(?::-([^}]*))?\\}$`).exec(v.template);
  return m ? { ...(m[1] !== undefined ? { fallback: m[1] } : {}) } : undefined;
}

/**
 * Whether `value` (pml's) is what the file's `v` made of the variable, and what the variable would
 * be without the file (the user's own value, where the file wraps it: `${PATH}:./bin`). `env`
 * expands the other variables the template names, as the client did from the same environment.
 */
export function fromFile(v: FileEnvVar, value: string | undefined, env: Env): { own?: string } | undefined {
  if (value === undefined) return undefined;
  if (value === v.template) return {};
  const self = selfReference(v);
  // The user's value passed through: the file chose it only when it is the file's fallback.
  if (self) return self.fallback !== undefined && self.fallback !== "" && value === self.fallback ? {} : undefined;
  let pattern = "";
  let at = 0;
  let captures = 0;
  for (const m of v.template.matchAll(REF)) {
    pattern += escapeRe(v.template.slice(at, m.index));
    at = m.index + m[0].length;
    if (m[1] === v.name) {
      pattern += captures++ ? "(?:.*)" : "(.*)";
      continue;
    }
    const set = env[m[1]!];
    pattern += escapeRe(set !== undefined && set !== "" ? set : (m[2] ?? m[0]));
  }
  pattern += escapeRe(v.template.slice(at));
  const match = new RegExp(`^${pattern}$`, "s").exec(value);
  if (!match) return undefined;
  return match[1] !== undefined ? { own: match[1] } : {};
}

/** Whether the file sets the variable to a value of its own (not only the user's passed on). */
export function setsOwnValue(v: FileEnvVar): boolean {
  const self = selfReference(v);
  return !self || (self.fallback !== undefined && self.fallback !== "");
}

/** The user's own values of the variables that came from the workspace's file (set at start). */
const own = new Map<string, string | undefined>();

/** Records that `name` came from the workspace's .mcp.json; `ownValue`: what it would be without. */
export function noteFromWorkspaceFile(name: string, ownValue: string | undefined): void {
  own.set(name, ownValue);
}

/** `env` as the user's shell set it: the variables that came from the workspace's file put back
 * to what they would be without it. The trust record is read through this, never through a
 * PML_HOME the workspace chose, even one the user trusted. */
export function userEnv(env: Env): Env {
  if (own.size === 0) return env;
  const copy = { ...env };
  for (const [name, value] of own) {
    if (value === undefined) delete copy[name];
    else copy[name] = value;
  }
  return copy;
}
