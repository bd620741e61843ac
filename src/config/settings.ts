// Settings pml itself reads: a variable from its environment, else from the workspace .env.
import { readDotEnvSync } from "./dotenv.ts";

export type EnvSource = Record<string, string | undefined>;

/** pml's own key: sent only as the Bearer token to cloud.url. */
export const CLOUD_KEY = "PML_API_KEY";

/** A value that is empty, or an unexpanded "${VAR}" (Claude Code passes an unset one literally),
 * counts as unset. */
export function isUsableEnvValue(value: string | undefined): value is string {
  return value !== undefined && value !== "" && !value.includes("${");
}

export interface LookupOptions {
  /** Default process.env. */
  env?: EnvSource;
  /** The project root: its .env is read second. */
  workspace?: string;
}

export type ValueOrigin = "environment" | ".env";

/** A variable's value and where it was found: the process environment first, then the workspace .env. */
export function lookupVar(name: string, opts: LookupOptions = {}): { value: string; from: ValueOrigin } | undefined {
  const fromEnv = (opts.env ?? process.env)[name];
  if (isUsableEnvValue(fromEnv)) return { value: fromEnv, from: "environment" };
  if (!opts.workspace) return undefined;
  const fromFile = readDotEnvSync(opts.workspace)[name];
  return isUsableEnvValue(fromFile) ? { value: fromFile, from: ".env" } : undefined;
}

/** A setting pml itself reads (PML_LOG-like settings, the sampling key the user configured). */
export function readSetting(name: string, opts: LookupOptions = {}): string | undefined {
  return lookupVar(name, opts)?.value;
}

/** PML_API_KEY, for the cloud call (and to say whether cloud mode is on). */
export function cloudKey(opts: LookupOptions = {}): string | undefined {
  return readSetting(CLOUD_KEY, opts);
}
