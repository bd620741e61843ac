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
import {
  backupFile,
  existingPmlEnv,
  pmlServerEntry,
  readMcpJson,
  sameJson,
  withPmlServer,
  writeMcpJson,
  type LaunchCommand,
  type McpJsonFile,
} from "./mcp-json.ts";
import { defaultProjectConfig, loadProjectConfig, projectConfigPath, SCHEMA_REF, writeSchemaCopy } from "./pml-json.ts";

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
  const dir = resolve(opts.dir);
  try {
    if (!statSync(dir).isDirectory()) throw new ConfigError(`${dir} is not a directory; pass the project folder with --dir.`);
  } catch (e: any) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`${dir} does not exist; create it or pass the project folder with --dir.`);
  }
  const env = opts.env ?? process.env;

  // Look at everything before writing anything: a broken .mcp.json stops init untouched.
  let mcp: McpJsonFile | undefined;
  let mcpBroken: ConfigError | undefined;
  try {
    mcp = await readMcpJson(dir);
  } catch (e) {
    if (!(e instanceof ConfigError) || !opts.force) {
      if (e instanceof ConfigError) throw new ConfigError(`${e.message}\nRun \`pml init --force\` to back it up and write a fresh one.`, e.file);
      throw e;
    }
    mcpBroken = e;
  }

  let pmlProblem: ConfigError | undefined;
  let pmlExists = false;
  try {
    pmlExists = (await loadProjectConfig(dir)).exists;
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    pmlProblem = e;
  }

  // The key: --api-key, else one pml can already find, else ask (Enter skips).
  let apiKey = opts.apiKey?.trim() || undefined;
  let keySource: InitResult["apiKey"]["source"] = apiKey ? "given" : "none";
  if (!apiKey && cloudKey({ env, workspace: dir })) keySource = "existing";
  else if (!apiKey && opts.prompts) {
    apiKey = (await opts.prompts.apiKey())?.trim() || undefined;
    if (apiKey) keySource = "given";
  }
  if (apiKey && /\s/.test(apiKey)) throw new ConfigError("the API key contains whitespace; paste it again without spaces or line breaks.");

  const mcpPath = mcp?.path ?? resolve(dir, ".mcp.json");
  const base = mcp?.raw ?? {};
  const entry = opts.httpUrl
    ? { type: "http" as const, url: opts.httpUrl }
    : pmlServerEntry({ launch: opts.launch, withApiKey: keySource !== "none", extraEnv: existingPmlEnv(base) });
  const next = withPmlServer(base, entry);
  let mcpAction: InitResult["mcpJson"]["action"];
  let mcpBackup: string | undefined;
  if (mcpBroken) {
    mcpAction = "replaced";
  } else if (!mcp!.exists) {
    mcpAction = "created";
  } else if (sameJson(next, mcp!.raw)) {
    mcpAction = "unchanged";
  } else {
    const hasPmlEntry = !!(mcp!.raw.mcpServers as Record<string, unknown> | undefined)?.pml;
    const ok = opts.prompts ? await opts.prompts.confirmMcpChange({ path: mcpPath, hasPmlEntry }) : true;
    mcpAction = ok ? "updated" : "declined";
  }

  // Writes, least surprising first.
  const result: InitResult = {
    dir,
    mcpJson: { path: mcpPath, action: mcpAction },
    pmlJson: { path: projectConfigPath(dir), action: "kept" },
    apiKey: { source: keySource },
    mode: keySource === "none" ? "local" : "cloud",
  };

  if (pmlProblem && opts.force) {
    result.pmlJson.backup = await backupFile(result.pmlJson.path);
    await writeFileAtomic(result.pmlJson.path, formatJson(defaultProjectConfig()), { within: dir });
    result.pmlJson.action = "replaced";
  } else if (pmlProblem) {
    result.pmlJson.action = "invalid";
    result.pmlJson.problem = pmlProblem.message;
  } else if (!pmlExists) {
    await writeFileAtomic(result.pmlJson.path, formatJson(defaultProjectConfig()), { within: dir });
    result.pmlJson.action = "created";
  }
  if (result.pmlJson.action !== "invalid") {
    const loaded = await loadProjectConfig(dir).catch(() => undefined);
    if (loaded?.config.$schema === SCHEMA_REF) result.schema = await writeSchemaCopy(dir);
  }

  if (apiKey) {
    result.apiKey.envFile = await writeDotEnvKey(dir, "PML_API_KEY", apiKey);
    result.apiKey.gitignore = (await ensureGitignored(dir, ".env")).action;
  }

  // pml's own state in the workspace (audit log, used approval states, the schema copy) is not
  // for commits.
  await ensureGitignored(dir, ".pml/");

  if (mcpAction === "updated" || mcpAction === "replaced") mcpBackup = await backupFile(mcpPath);
  if (mcpAction === "updated" || mcpAction === "created" || mcpAction === "replaced") {
    await writeMcpJson(mcp ?? { path: mcpPath, exists: false, raw: {} }, next);
  }
  if (mcpBackup) result.mcpJson.backup = mcpBackup;
  return result;
}
