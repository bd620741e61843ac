// Where discover's optional embeddings provider is (memory.embeddings in a trusted .pml.json, else
// the user's own environment: PML_EMBEDDINGS_URL, PML_EMBEDDINGS_MODEL, PML_EMBEDDINGS_API_KEY_ENV,
// PML_EMBEDDINGS_API), and which endpoint and key a request uses. The environment is read from
// pml's process only, never from the workspace .env: a cloned repository's .env could otherwise name
// a URL that receives the user's capability texts without a trust (the key itself may live there).
import type { ProjectConfig } from "../config/pml-json.ts";
import { CLOUD_KEY, type EnvSource, readSetting } from "../config/settings.ts";

export type EmbeddingsApi = "openai" | "ollama";

export interface EmbeddingsTarget {
  /** The base URL as configured. */
  url: string;
  /** Where the POST goes: {url}/embeddings (openai) or {url}/api/embed (ollama). */
  endpoint: string;
  model: string;
  api: EmbeddingsApi;
  /** The variable holding the key (sent as Authorization: Bearer to `endpoint` only). */
  keyEnv?: string;
  /** What configured it, for messages: ".pml.json memory.embeddings" or "PML_EMBEDDINGS_URL". */
  from: string;
  /** The workspace whose .env may hold the key. */
  workspace: string;
  /** Vectors are cached under this (api, endpoint and model): another model's never mix in. */
  identity: string;
}

/** A configured provider pml cannot use; the message names the setting to fix. */
export interface EmbeddingsMisconfigured {
  error: string;
}

export const ENV_URL = "PML_EMBEDDINGS_URL";
const ENV_MODEL = "PML_EMBEDDINGS_MODEL";
const ENV_KEY = "PML_EMBEDDINGS_API_KEY_ENV";
const ENV_API = "PML_EMBEDDINGS_API";

/** The provider the trusted config (an untrusted file's memory.embeddings is already taken out)
 * or the environment names; undefined when none does. */
export function embeddingsTarget(config: ProjectConfig, workspace: string, env: EnvSource = process.env): EmbeddingsTarget | EmbeddingsMisconfigured | undefined {
  const e = config.memory?.embeddings;
  if (e) return target({ url: e.url, model: e.model, api: e.api, keyEnv: e.api_key_env }, ".pml.json memory.embeddings", workspace);
  const url = env[ENV_URL]?.trim();
  if (!url) return undefined;
  const model = env[ENV_MODEL]?.trim();
  if (!model) return { error: `${ENV_URL} is set but ${ENV_MODEL} is not: name the model (e.g. ${ENV_MODEL}=nomic-embed-text).` };
  const api = env[ENV_API]?.trim() || undefined;
  if (api !== undefined && api !== "openai" && api !== "ollama") return { error: `${ENV_API} must be "openai" or "ollama", got ${JSON.stringify(api)}.` };
  const keyEnv = env[ENV_KEY]?.trim() || undefined;
  if (keyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) return { error: `${ENV_KEY} must be a variable's name, got ${JSON.stringify(keyEnv)}.` };
  return target({ url, model, api, keyEnv }, ENV_URL, workspace);
}

function target(c: { url: string; model: string; api?: EmbeddingsApi; keyEnv?: string }, from: string, workspace: string): EmbeddingsTarget | EmbeddingsMisconfigured {
  const key = from === ENV_URL ? ENV_URL : `${from}.url`;
  let u: URL;
  try {
    u = new URL(c.url);
  } catch {
    return { error: `${key} is not a URL: ${JSON.stringify(c.url)}; use the provider's base, e.g. http://127.0.0.1:11434/v1.` };
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return { error: `${key} must be an http(s) URL, got ${JSON.stringify(c.url)}.` };
  if (c.keyEnv === CLOUD_KEY) return { error: `${from === ENV_URL ? ENV_KEY : `${from}.api_key_env`} cannot be ${CLOUD_KEY}: pml sends it only to cloud.url.` };
  const api = c.api ?? "openai";
  const base = `${u.origin}${u.pathname.replace(/\/+$/, "")}`;
  // Ollama's native API lives beside its OpenAI one (/v1): a base given either way works.
  const endpoint = api === "ollama" ? `${base.replace(/\/(v1|api)$/, "")}/api/embed` : `${base}/embeddings`;
  return { url: c.url, endpoint, model: c.model, api, ...(c.keyEnv ? { keyEnv: c.keyEnv } : {}), from, workspace, identity: `${api} ${endpoint} ${c.model}` };
}

/** The key's value, or an error naming the variable; undefined when no key is configured. */
export function embeddingsKey(t: EmbeddingsTarget, env?: EnvSource): { key?: string; error?: string } {
  if (!t.keyEnv) return {};
  const key = readSetting(t.keyEnv, { workspace: t.workspace, ...(env ? { env } : {}) });
  return key ? { key } : { error: `${t.from} names the key ${t.keyEnv}, which is not set (in the environment or ${t.workspace}/.env).` };
}
