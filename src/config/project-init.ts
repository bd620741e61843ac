// What `pml init` does to a project directory. The command (src/cli/init.ts) supplies prompts
// and prints the result; everything here is plain file work, testable without a terminal.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { writeFileAtomic } from "../fs/atomic.ts";
import { writeDotEnvKey } from "./dotenv.ts";
import { cloudKey } from "./settings.ts";
import { ConfigError } from "../errors.ts";
import { ensureGitignored } from "./gitignore.ts";
import { formatJson } from "./json-text.ts";
import { backupFile, existingPmlEnv, pmlServerEntry, readMcpJson, sameJson, withPmlServer, writeMcpJson, type LaunchCommand, type McpJsonFile } from "./mcp-json.ts";
import { defaultProjectConfig, loadProjectConfig, projectConfigPath, SCHEMA_REF, writeSchemaCopy } from "./pml-json.ts";
import { SERVE_AUTH_REF } from "./serve-token.ts";

export interface InitPrompts {
  /** .mcp.json exists and pml's entry would change: go ahead? (a backup is made first) */
  confirmMcpChange(info: { path: string; hasPmlEntry: boolean }): Promise<boolean>;
  /** The PML API key; "" or undefined skips it (local-only mode). */
  apiKey(): Promise<string | undefined>;
}

export interface InitOptions {
  dir: string;
  /** From --api-key. */
  apiKey?: string;
  /** Replace an unparseable .mcp.json / .pml.json with fresh ones (after backing them up). */
  force?: boolean;
  /** Absent: --yes (defaults, no questions). */
  prompts?: InitPrompts;
  /** How .mcp.json should start pml; default: this running pml. */
  launch?: LaunchCommand;
  env?: Record<string, string | undefined>;
  /** Write the Streamable HTTP form (`pml serve` at this URL) instead of stdio. */
  httpUrl?: string;
}

export interface InitResult {
  dir: string;
  mcpJson: { path: string; action: "created" | "updated" | "unchanged" | "declined" | "replaced"; backup?: string };
  pmlJson: { path: string; action: "created" | "kept" | "invalid" | "replaced"; problem?: string; backup?: string };
  schema?: string;
  apiKey: { source: "given" | "existing" | "none"; envFile?: string; gitignore?: "added" | "present" };
  mode: "cloud" | "local";
}

export async function initProject(opts: InitOptions): Promise<InitResult> {
  const dir = projectDir(opts.dir);
  // Look at everything before writing anything: a broken .mcp.json stops init untouched.
  const mcp = await readMcp(dir, opts.force === true);
  const pml = await readPml(dir);
  const key = await chooseApiKey(opts, dir);
  const plan = await planMcpJson(opts, mcp, key.source);

  // Writes, least surprising first.
  const result: InitResult = {
    dir,
    mcpJson: { path: plan.path, action: plan.action },
    pmlJson: await writePmlJson(dir, pml, opts.force === true),
    apiKey: { source: key.source },
    mode: key.source === "none" ? "local" : "cloud",
  };
  if (result.pmlJson.action !== "invalid") {
    const loaded = await loadProjectConfig(dir).catch(() => undefined);
    if (loaded?.config.$schema === SCHEMA_REF) result.schema = await writeSchemaCopy(dir);
  }

  if (key.apiKey) {
    result.apiKey.envFile = await writeDotEnvKey(dir, "PML_API_KEY", key.apiKey);
    result.apiKey.gitignore = (await ensureGitignored(dir, ".env")).action;
  }

  // pml's own state in the workspace (audit log, used approval states, the schema copy) is not
  // for commits.
  await ensureGitignored(dir, ".pml/");

  const backup = await writeMcp(mcp, plan);
  if (backup) result.mcpJson.backup = backup;
  return result;
}

/** The project folder, absolute; a ConfigError when it is not a directory. */
function projectDir(raw: string): string {
  const dir = resolve(raw);
  try {
    if (!statSync(dir).isDirectory()) throw new ConfigError(`${dir} is not a directory; pass the project folder with --dir.`);
  } catch (e: any) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`${dir} does not exist; create it or pass the project folder with --dir.`);
  }
  return dir;
}

interface McpState {
  dir: string;
  /** Undefined when it could not be read (`broken`, with --force). */
  file?: McpJsonFile;
  broken?: ConfigError;
}

/** .mcp.json as it is; one that cannot be parsed stops init unless --force replaces it. */
async function readMcp(dir: string, force: boolean): Promise<McpState> {
  try {
    return { dir, file: await readMcpJson(dir) };
  } catch (e) {
    if (!(e instanceof ConfigError) || !force) {
      if (e instanceof ConfigError) throw new ConfigError(`${e.message}\nRun \`pml init --force\` to back it up and write a fresh one.`, e.file);
      throw e;
    }
    return { dir, broken: e };
  }
}

interface PmlState {
  exists: boolean;
  problem?: ConfigError;
}

async function readPml(dir: string): Promise<PmlState> {
  try {
    return { exists: (await loadProjectConfig(dir)).exists };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { exists: false, problem: e };
  }
}

/** The key: --api-key, else one pml can already find, else ask (Enter skips). */
async function chooseApiKey(opts: InitOptions, dir: string): Promise<{ apiKey?: string; source: InitResult["apiKey"]["source"] }> {
  let apiKey = opts.apiKey?.trim() || undefined;
  let source: InitResult["apiKey"]["source"] = apiKey ? "given" : "none";
  if (!apiKey && cloudKey({ env: opts.env ?? process.env, workspace: dir })) source = "existing";
  else if (!apiKey && opts.prompts) {
    apiKey = (await opts.prompts.apiKey())?.trim() || undefined;
    if (apiKey) source = "given";
  }
  if (apiKey && /\s/.test(apiKey)) throw new ConfigError("the API key contains whitespace; paste it again without spaces or line breaks.");
  return { apiKey, source };
}

interface McpPlan {
  path: string;
  /** The whole file with pml's entry. */
  next: Record<string, unknown>;
  action: InitResult["mcpJson"]["action"];
}

/** What .mcp.json becomes, and whether it is written (a change to an existing file is asked first). */
async function planMcpJson(opts: InitOptions, mcp: McpState, keySource: InitResult["apiKey"]["source"]): Promise<McpPlan> {
  const path = mcp.file?.path ?? resolve(mcp.dir, ".mcp.json");
  const base = mcp.file?.raw ?? {};
  const entry = opts.httpUrl
    ? { type: "http" as const, url: opts.httpUrl, headers: { Authorization: SERVE_AUTH_REF } }
    : pmlServerEntry({ launch: opts.launch, withApiKey: keySource !== "none", extraEnv: existingPmlEnv(base) });
  const next = withPmlServer(base, entry);
  if (mcp.broken) return { path, next, action: "replaced" };
  if (!mcp.file!.exists) return { path, next, action: "created" };
  if (sameJson(next, mcp.file!.raw)) return { path, next, action: "unchanged" };
  const hasPmlEntry = !!(mcp.file!.raw.mcpServers as Record<string, unknown> | undefined)?.pml;
  const ok = opts.prompts ? await opts.prompts.confirmMcpChange({ path, hasPmlEntry }) : true;
  return { path, next, action: ok ? "updated" : "declined" };
}

/** .pml.json: created when absent, replaced (after a backup) when broken and --force, else kept. */
async function writePmlJson(dir: string, pml: PmlState, force: boolean): Promise<InitResult["pmlJson"]> {
  const path = projectConfigPath(dir);
  if (pml.problem && force) {
    const backup = await backupFile(path, { keepEarlier: true });
    await writeFileAtomic(path, formatJson(defaultProjectConfig()), { within: dir });
    return { path, action: "replaced", backup };
  }
  if (pml.problem) return { path, action: "invalid", problem: pml.problem.message };
  if (!pml.exists) {
    await writeFileAtomic(path, formatJson(defaultProjectConfig()), { within: dir });
    return { path, action: "created" };
  }
  return { path, action: "kept" };
}

/** Writes .mcp.json as planned, after backing up a file it replaces; the backup's path. */
async function writeMcp(mcp: McpState, plan: McpPlan): Promise<string | undefined> {
  const backup = plan.action === "updated" || plan.action === "replaced" ? await backupFile(plan.path, { keepEarlier: plan.action === "replaced" }) : undefined;
  if (plan.action === "updated" || plan.action === "created" || plan.action === "replaced") {
    await writeMcpJson(mcp.file ?? { path: plan.path, exists: false, raw: {} }, plan.next);
  }
  return backup;
}
