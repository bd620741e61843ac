// .mcp.json, the project file Claude Code reads: {"mcpServers": {"<name>": {...}}}. pml adds or
// refreshes its own entry and keeps everything else (other servers, other keys, their order).
import { realpathSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { writeFileAtomic } from "../fs/atomic.ts";
import { ConfigError } from "../errors.ts";
import { detectIndent, formatJson, parseJsonFile } from "./json-text.ts";

export const MCP_JSON = ".mcp.json";
export const PML_SERVER_NAME = "pml";
/** How .mcp.json hands the key to pml: Claude Code expands it from the user's environment.
 * The ":-" default makes an unset variable expand to "" (pml then reads the workspace .env)
 * instead of arriving literally with a "missing environment variable" warning. */
export const API_KEY_REF = "${PML_API_KEY:-}";

export type McpServerEntry = { type: "stdio"; command: string; args: string[]; env?: Record<string, string> } | { type: "http"; url: string; headers?: Record<string, string> };

export interface LaunchCommand {
  command: string;
  /** Arguments before "stdio" (the source entry when pml runs from source). */
  args: string[];
}

/** True inside a `bun build --compile` executable (its modules live in Bun's virtual FS). */
export function isCompiledBinary(): boolean {
  const p = import.meta.path;
  return p.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(p);
}

/**
 * How to start this very pml again: `pml` when the `pml` on PATH is this binary (a committed
 * .mcp.json then works for teammates too), else the binary's absolute path, or bun + src/main.ts
 * from source.
 */
export function currentLaunchCommand(path = process.env.PATH): LaunchCommand {
  if (isCompiledBinary()) return { command: onPathIsThis(path) ? "pml" : process.execPath, args: [] };
  return { command: process.execPath, args: [resolve(import.meta.dir, "../main.ts")] };
}

export function pmlServerEntry(opts: { launch?: LaunchCommand; withApiKey: boolean; extraEnv?: Record<string, string> }): McpServerEntry {
  const launch = opts.launch ?? currentLaunchCommand();
  const env: Record<string, string> = { ...opts.extraEnv };
  delete env.PML_API_KEY;
  if (opts.withApiKey) env.PML_API_KEY = API_KEY_REF;
  const entry: McpServerEntry & { type: "stdio" } = { type: "stdio", command: launch.command, args: [...launch.args, "stdio"] };
  if (Object.keys(env).length) entry.env = env;
  return entry;
}

export interface McpJsonFile {
  path: string;
  exists: boolean;
  text?: string;
  raw: Record<string, unknown>;
}

export function mcpJsonPath(dir: string): string {
  return join(dir, MCP_JSON);
}

/** Reads .mcp.json; ConfigError (file:line:col, or the bad key) when it is not what Claude Code reads. */
export async function readMcpJson(dir: string): Promise<McpJsonFile> {
  const path = mcpJsonPath(dir);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e: any) {
    if (e?.code === "ENOENT") return { path, exists: false, raw: {} };
    throw new ConfigError(`${path}: cannot read the file (${e?.code ?? e}).`, path);
  }
  const raw = parseJsonFile(text, path);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ConfigError(`${path}: expected a JSON object like {"mcpServers": {...}} at the top level.`, path);
  }
  const servers = (raw as Record<string, unknown>).mcpServers;
  if (servers !== undefined && (typeof servers !== "object" || servers === null || Array.isArray(servers))) {
    throw new ConfigError(`${path}: mcpServers: expected an object mapping server names to servers.`, path);
  }
  return { path, exists: true, text, raw: raw as Record<string, unknown> };
}

/** A copy of `raw` with mcpServers.pml set to `entry`; other servers and keys keep their order. */
export function withPmlServer(raw: Record<string, unknown>, entry: McpServerEntry): Record<string, unknown> {
  const copy = structuredClone(raw);
  const servers = (copy.mcpServers ?? {}) as Record<string, unknown>;
  servers[PML_SERVER_NAME] = entry;
  copy.mcpServers = servers;
  return copy;
}

/** The env the user added to an existing pml entry (kept across re-inits). */
export function existingPmlEnv(raw: Record<string, unknown>): Record<string, string> {
  const entry = (raw.mcpServers as Record<string, any> | undefined)?.[PML_SERVER_NAME];
  const env = entry?.env;
  if (typeof env !== "object" || env === null) return {};
  return Object.fromEntries(Object.entries(env).filter(([, v]) => typeof v === "string")) as Record<string, string>;
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function writeMcpJson(file: McpJsonFile, raw: Record<string, unknown>): Promise<void> {
  await writeFileAtomic(file.path, formatJson(raw, detectIndent(file.text)), { within: dirname(file.path) });
}

/**
 * Copies `path` to `path.backup` (one backup, the state before pml's latest change; never a pile).
 * `keepEarlier` (a broken file replaced with --force): an earlier backup of other content may be
 * the only copy of the original, so this one goes to `path.backup.1`, `.2`... instead.
 */
export async function backupFile(path: string, { keepEarlier = false } = {}): Promise<string> {
  const content = await readFile(path);
  let target = `${path}.backup`;
  for (let n = 1; keepEarlier; n++) {
    const earlier = await readFile(target).catch(() => undefined);
    if (!earlier || earlier.equals(content)) break;
    target = `${path}.backup.${n}`;
  }
  await writeFileAtomic(target, content, { within: dirname(path) });
  return target;
}

function onPathIsThis(path: string | undefined): boolean {
  const found = Bun.which("pml", { PATH: path ?? "" });
  if (!found) return false;
  try {
    return realpathSync(found) === realpathSync(process.execPath);
  } catch {
    return false;
  }
}
