// Where pml keeps its own state: ~/.pml by default, PML_HOME to move it (tests, CI, shared machines).
// Never secrets here: keys live in the environment or the workspace .env.
import { homedir } from "node:os";
import { join, resolve } from "node:path";

type Env = Record<string, string | undefined>;

export function pmlHome(env: Env = process.env): string {
  const override = env.PML_HOME?.trim();
  if (override) return resolve(override);
  return join(env.HOME?.trim() || homedir(), ".pml");
}

/** Installed dependencies (npm packages of stdio MCP servers) and their state. */
export function depsDir(env: Env = process.env): string {
  return join(pmlHome(env), "deps");
}

/** Transpiled modules and other re-creatable downloads. */
export function cacheDir(env: Env = process.env): string {
  return join(pmlHome(env), "cache");
}

export function logsDir(env: Env = process.env): string {
  return join(pmlHome(env), "logs");
}
