// sampling/createMessage for clients that cannot sample: a stdio server pml runs asks for an LLM
// completion, and pml sends it to the LLM API the project configured, with the user's own key:
//   .pml.json  "sampling": {"provider": "anthropic" | "openai", "model"?, "url"?, "api_key_env"?, "timeout_s"?}
// "openai" means any OpenAI-compatible chat-completions API (OpenAI, OpenRouter, vLLM, Ollama...).
import { HttpError, httpRequest, type HttpResponse } from "../http/request.ts";
import { COST_LIMIT_DEFAULTS } from "../config/cost-limits.ts";
import type { ProjectConfig } from "../config/pml-json.ts";
import { CLOUD_KEY, readSetting } from "../config/settings.ts";
import { ToolError } from "../mcp/tool-result.ts";
import { isLoopbackHost } from "../http/secure-url.ts";

/** MCP `sampling/createMessage` params (spec 2025-11-25; the parts an LLM API can honour). */
export interface CreateMessageParams {
  messages: Array<{ role: "user" | "assistant"; content: SamplingContent | SamplingContent[] }>;
  modelPreferences?: { hints?: Array<{ name?: string }>; costPriority?: number; speedPriority?: number; intelligencePriority?: number };
  systemPrompt?: string;
  includeContext?: string;
  temperature?: number;
  maxTokens: number;
  stopSequences?: string[];
  metadata?: Record<string, unknown>;
  [k: string]: unknown;
}

export type SamplingContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: string; [k: string]: unknown };

export interface CreateMessageResult {
  role: "assistant";
  content: { type: "text"; text: string };
  model: string;
  stopReason?: string;
}

export interface SamplingConfig {
  provider: "anthropic" | "openai";
  url?: string;
  model?: string;
  api_key_env?: string;
  timeout_s?: number;
}

export interface SamplingOptions {
  config: ProjectConfig;
  workspace: string;
  signal?: AbortSignal;
  env?: Record<string, string | undefined>;
}

/** A sampling request pml cannot serve; the message says what to change. */
export class SamplingError extends ToolError {
  override name = "SamplingError";
}

const PROVIDERS = {
  anthropic: { url: "https://api.anthropic.com", keyEnv: "ANTHROPIC_API_KEY", example: "claude-sonnet-4-5" },
  openai: { url: "https://api.openai.com", keyEnv: "OPENAI_API_KEY", example: "gpt-4o-mini" },
} as const;

export const ANTHROPIC_VERSION = "2023-06-01";
const DEFAULT_TIMEOUT_S = COST_LIMIT_DEFAULTS["sampling.timeout_s"];

/** The most tokens one sampling request from a server may use, unless .pml.json says otherwise. */
export const DEFAULT_SAMPLING_MAX_TOKENS = COST_LIMIT_DEFAULTS["sampling.max_tokens"];

export function samplingCap(config: ProjectConfig): number {
  const cap = (config.sampling as { max_tokens?: unknown } | undefined)?.max_tokens;
  return typeof cap === "number" && Number.isInteger(cap) && cap > 0 ? cap : DEFAULT_SAMPLING_MAX_TOKENS;
}

/** The request with maxTokens clamped to the cap. Clamped rather than refused: maxTokens is an
 * upper bound, servers often ask for far more than they use, and a clamped answer is a normal
 * one (stopReason "maxTokens" if it is reached); what the user's key can spend stays bounded. */
export function capSamplingRequest(params: CreateMessageParams, cap: number): CreateMessageParams {
  const asked = params.maxTokens;
  if (Number.isInteger(asked) && asked > 0 && asked <= cap) return params;
  return { ...params, maxTokens: Number.isInteger(asked) && asked > 0 ? cap : Math.min(cap, DEFAULT_SAMPLING_MAX_TOKENS) };
}

/** Where a sampling request would go with the user's key; a SamplingError when it cannot go anywhere. */
export interface SamplingTarget {
  provider: "anthropic" | "openai";
  cfg: SamplingConfig;
  /** The API endpoint the request is POSTed to. */
  url: string;
  keyEnv: string;
  key: string;
  model: string;
}

export function samplingTarget(params: CreateMessageParams, opts: SamplingOptions): SamplingTarget {
  const cfg = samplingConfig(opts.config);
  const provider = PROVIDERS[cfg.provider];
  const keyEnv = cfg.api_key_env ?? provider.keyEnv;
  if (keyEnv === CLOUD_KEY)
    throw new SamplingError(`.pml.json "sampling.api_key_env" cannot be ${CLOUD_KEY}: pml sends that key only to cloud.url. Name your LLM API key's variable instead.`);
  const key = readSetting(keyEnv, { env: opts.env, workspace: opts.workspace });
  if (!key)
    throw new SamplingError(
      `sampling needs ${keyEnv} (your ${cfg.provider} API key): set it in ${opts.workspace}/.env (${keyEnv}=...) or in the "env" of the pml server in .mcp.json.`,
    );
  if (!Number.isInteger(params.maxTokens) || params.maxTokens <= 0)
    throw new SamplingError(`sampling/createMessage needs "maxTokens" (a positive integer), got ${JSON.stringify(params.maxTokens)}.`);
  const model = pickModel(params, cfg);
  const base = apiBase(cfg.url ?? provider.url);
  return { provider: cfg.provider, cfg, url: cfg.provider === "anthropic" ? `${base}/v1/messages` : `${base}/v1/chat/completions`, keyEnv, key, model };
}

export async function createMessageViaApi(params: CreateMessageParams, opts: SamplingOptions, target = samplingTarget(params, opts)): Promise<CreateMessageResult> {
  const { cfg, keyEnv, key, model } = target;
  const base = new URL(target.url).origin;

  const request: { url: string; headers: Record<string, string>; body: Record<string, unknown> } =
    cfg.provider === "anthropic"
      ? {
          url: target.url,
          headers: { "x-api-key": key, "anthropic-version": ANTHROPIC_VERSION },
          body: anthropicBody(params, model),
        }
      : {
          url: target.url,
          headers: { authorization: `Bearer ${key}` },
          body: openaiBody(params, model),
        };

  let res: HttpResponse;
  let text: string;
  try {
    // Redirects refused: one would carry the key to a host nobody configured.
    res = await httpRequest(request.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...request.headers },
      body: JSON.stringify(request.body),
      signal: opts.signal,
      timeoutMs: (cfg.timeout_s ?? DEFAULT_TIMEOUT_S) * 1000,
      what: `${cfg.provider} API`,
      redirects: "refuse",
    });
    text = await res.text();
  } catch (e) {
    if (opts.signal?.aborted) throw new SamplingError("sampling cancelled");
    if (!(e instanceof HttpError)) throw e;
    if (e.kind === "timeout") throw new SamplingError(`${cfg.provider} API did not answer within ${cfg.timeout_s ?? DEFAULT_TIMEOUT_S} s (${base})`);
    if (e.kind === "unreachable") throw new SamplingError(`${cfg.provider} API unreachable (${e.message} connecting to ${base})`);
    throw new SamplingError(e.message);
  }
  const json = tryJson(text) as any;
  if (res.status === 401 || res.status === 403) throw new SamplingError(`${keyEnv} was rejected by ${base} (HTTP ${res.status}${apiMessage(json)}). Check the key.`);
  if (!res.ok) throw new SamplingError(`${cfg.provider} API ${request.url} failed with HTTP ${res.status}${apiMessage(json) || snippet(text)}`);
  if (!json || typeof json !== "object") throw new SamplingError(`${cfg.provider} API ${request.url} sent a malformed answer${snippet(text)}`);
  return cfg.provider === "anthropic" ? fromAnthropic(json, model) : fromOpenai(json, model);
}

function samplingConfig(config: ProjectConfig): SamplingConfig {
  const raw = (config as { sampling?: Record<string, unknown> }).sampling;
  const hint = '.pml.json "sampling": {"provider": "anthropic", "model": "claude-sonnet-4-5"} (or "openai" with an OpenAI-compatible "url")';
  if (!raw || typeof raw !== "object")
    throw new SamplingError(
      `A server asked for an LLM completion (sampling/createMessage), but the client does not offer sampling and pml has no LLM API configured. Add ${hint}.`,
    );
  const provider = raw.provider;
  if (provider !== "anthropic" && provider !== "openai")
    throw new SamplingError(`.pml.json "sampling.provider" must be "anthropic" or "openai", got ${JSON.stringify(provider)}. Example: ${hint}.`);
  for (const k of ["url", "model", "api_key_env"] as const)
    if (raw[k] !== undefined && typeof raw[k] !== "string") throw new SamplingError(`.pml.json "sampling.${k}" must be a string, got ${JSON.stringify(raw[k])}.`);
  if (raw.timeout_s !== undefined && (typeof raw.timeout_s !== "number" || raw.timeout_s <= 0))
    throw new SamplingError(`.pml.json "sampling.timeout_s" must be a positive number, got ${JSON.stringify(raw.timeout_s)}.`);
  return raw as unknown as SamplingConfig;
}

/** The first model hint names the model (MCP hints are advisory, but a server that names one
 * usually needs it); a configured model that already contains a hint is kept. */
function pickModel(params: CreateMessageParams, cfg: SamplingConfig): string {
  const hints = (params.modelPreferences?.hints ?? []).map((h) => h?.name).filter((n): n is string => typeof n === "string" && n !== "");
  if (cfg.model && hints.some((h) => cfg.model!.includes(h))) return cfg.model;
  if (hints.length) return hints[0]!;
  if (cfg.model) return cfg.model;
  throw new SamplingError(`The sampling request names no model and .pml.json "sampling.model" is not set; add e.g. "model": "${PROVIDERS[cfg.provider].example}".`);
}

function apiBase(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SamplingError(`.pml.json "sampling.url" is not a URL: ${JSON.stringify(url)}.`);
  }
  if (u.protocol !== "https:" && !(u.protocol === "http:" && isLoopbackHost(u.hostname)))
    throw new SamplingError(`Refusing to send an API key to ${u.origin}: "sampling.url" must use https (plain http only for localhost/127.0.0.1/::1).`);
  // Accept both "https://host" and "https://host/v1" for the base.
  return `${u.origin}${u.pathname.replace(/\/+$/, "").replace(/\/v1$/, "")}`;
}

function blocks(content: SamplingContent | SamplingContent[]): SamplingContent[] {
  return Array.isArray(content) ? content : [content];
}

function unsupported(block: SamplingContent): never {
  throw new SamplingError(`sampling content of type "${block.type}" is not supported by pml's LLM API bridge (text and image are).`);
}

function anthropicBody(p: CreateMessageParams, model: string): Record<string, unknown> {
  const messages = p.messages.map((m) => ({
    role: m.role,
    content: blocks(m.content).map((b) => {
      if (b.type === "text") return { type: "text", text: (b as { text: string }).text };
      if (b.type === "image") {
        const img = b as { data: string; mimeType: string };
        return { type: "image", source: { type: "base64", media_type: img.mimeType, data: img.data } };
      }
      return unsupported(b);
    }),
  }));
  return {
    model,
    max_tokens: p.maxTokens,
    messages,
    ...(p.systemPrompt ? { system: p.systemPrompt } : {}),
    ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
    ...(p.stopSequences?.length ? { stop_sequences: p.stopSequences } : {}),
  };
}

function openaiBody(p: CreateMessageParams, model: string): Record<string, unknown> {
  const messages: Array<Record<string, unknown>> = p.systemPrompt ? [{ role: "system", content: p.systemPrompt }] : [];
  for (const m of p.messages) {
    const parts = blocks(m.content);
    if (parts.every((b) => b.type === "text")) {
      messages.push({ role: m.role, content: parts.map((b) => (b as { text: string }).text).join("\n") });
      continue;
    }
    messages.push({
      role: m.role,
      content: parts.map((b) => {
        if (b.type === "text") return { type: "text", text: (b as { text: string }).text };
        if (b.type === "image") {
          const img = b as { data: string; mimeType: string };
          return { type: "image_url", image_url: { url: `data:${img.mimeType};base64,${img.data}` } };
        }
        return unsupported(b);
      }),
    });
  }
  return {
    model,
    messages,
    max_tokens: p.maxTokens,
    ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
    ...(p.stopSequences?.length ? { stop: p.stopSequences } : {}),
  };
}

// Maps: a provider's stop reason is any string ("constructor" must not find Object's).
const ANTHROPIC_STOP = new Map(Object.entries({ end_turn: "endTurn", max_tokens: "maxTokens", stop_sequence: "stopSequence", tool_use: "toolUse" }));
const OPENAI_STOP = new Map(Object.entries({ stop: "endTurn", length: "maxTokens", tool_calls: "toolUse", function_call: "toolUse" }));

function fromAnthropic(json: any, model: string): CreateMessageResult {
  if (!Array.isArray(json.content)) throw new SamplingError(`anthropic API sent a malformed message (no "content" array)${snippet(JSON.stringify(json))}`);
  const text = json.content
    .filter((b: any) => b?.type === "text")
    .map((b: any) => String(b.text ?? ""))
    .join("");
  const stop = typeof json.stop_reason === "string" ? (ANTHROPIC_STOP.get(json.stop_reason) ?? json.stop_reason) : undefined;
  return { role: "assistant", content: { type: "text", text }, model: typeof json.model === "string" ? json.model : model, ...(stop ? { stopReason: stop } : {}) };
}

function fromOpenai(json: any, model: string): CreateMessageResult {
  const choice = Array.isArray(json.choices) ? json.choices[0] : undefined;
  if (!choice?.message) throw new SamplingError(`openai-compatible API sent a malformed answer (no "choices[0].message")${snippet(JSON.stringify(json))}`);
  const c = choice.message.content;
  const text =
    typeof c === "string"
      ? c
      : Array.isArray(c)
        ? c
            .filter((b: any) => b?.type === "text")
            .map((b: any) => b.text)
            .join("")
        : "";
  const stop = typeof choice.finish_reason === "string" ? (OPENAI_STOP.get(choice.finish_reason) ?? choice.finish_reason) : undefined;
  return { role: "assistant", content: { type: "text", text }, model: typeof json.model === "string" ? json.model : model, ...(stop ? { stopReason: stop } : {}) };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The API's own error text: Anthropic {error: {type, message}}, OpenAI {error: {message}}. */
function apiMessage(json: any): string {
  const m = json?.error?.message;
  return typeof m === "string" ? `: ${m}` : "";
}

function snippet(text: string): string {
  const t = text.trim().replace(/\s+/g, " ");
  return t ? `: ${t.length > 200 ? `${t.slice(0, 200)}…` : t}` : "";
}
