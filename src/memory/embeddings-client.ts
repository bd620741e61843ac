// One request to the embeddings provider: texts in, one vector per text out, or an EmbeddingsError
// whose message names the endpoint and what was wrong (a status, HTML instead of JSON, vectors of the
// wrong count or dimension, no answer in time). Nothing of a bad answer is returned, so nothing of it
// is cached. The key goes as a Bearer token to the configured endpoint only: redirects are refused.
import { HttpError, httpRequest, type HttpResponse } from "../http/request.ts";
import { quoted } from "../visible-text.ts";
import { embeddingsKey, type EmbeddingsTarget } from "./embeddings-config.ts";

export class EmbeddingsError extends Error {
  override name = "EmbeddingsError";
}

/** A whole answer for a few thousand texts of 768 floats stays well under this. */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;

/**
 * The vectors of `texts`, in order. `dims`: the dimension the vectors must have (those already
 * cached for this model); a provider that answers another is refused, never mixed in.
 */
export async function embedTexts(t: EmbeddingsTarget, texts: readonly string[], timeoutMs: number, dims?: number): Promise<Float32Array[]> {
  const fail = (why: string) => new EmbeddingsError(`embeddings provider ${t.endpoint} (${t.from}, model ${quoted(t.model)}): ${why}`);
  const { key, error } = embeddingsKey(t);
  if (error) throw new EmbeddingsError(error);
  let res: HttpResponse;
  let text: string;
  try {
    res = await httpRequest(t.endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ model: t.model, input: texts }),
      timeoutMs,
      what: "embeddings provider",
      redirects: "refuse",
      maxBytes: MAX_ANSWER_BYTES,
    });
    text = await res.text();
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    if (e.kind === "timeout") throw fail(`did not answer within ${timeoutMs} ms`);
    if (e.kind === "unreachable") throw fail(`unreachable (${e.message})`);
    throw fail(e.message);
  }
  if (res.status === 401 || res.status === 403) throw fail(`refused ${t.keyEnv ? `the key in ${t.keyEnv}` : "the request without a key"} (HTTP ${res.status}${snippet(text)})`);
  if (!res.ok) throw fail(`answered HTTP ${res.status}${snippet(text)}`);
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    const type = res.headers.get("content-type") ?? "no content-type";
    throw fail(`answered ${/^\s*</.test(text) ? "HTML" : "something"} that is not JSON (${type})${snippet(text)}`);
  }
  const vectors = t.api === "ollama" ? json?.embeddings : openaiVectors(json);
  if (!Array.isArray(vectors)) throw fail(t.api === "ollama" ? 'answered JSON without "embeddings": [[...]]' : 'answered JSON without "data": [{"embedding": [...]}]');
  if (vectors.length !== texts.length) throw fail(`sent ${vectors.length} vectors for ${texts.length} texts`);
  const out: Float32Array[] = [];
  for (const v of vectors) {
    if (!Array.isArray(v) || !v.length || !v.every((x) => typeof x === "number" && Number.isFinite(x))) throw fail("sent a vector that is not a list of numbers");
    const want = dims ?? out[0]?.length ?? v.length;
    if (v.length !== want)
      throw fail(
        `sent a vector of ${v.length} dimensions, expected ${want}${dims ? ` (what this model gave before; a changed model needs a new "model" name)` : " like the others"}`,
      );
    out.push(Float32Array.from(v));
  }
  return out;
}

/** OpenAI's `data[i].embedding`, in `index` order when the items carry one. */
function openaiVectors(json: any): unknown[] | undefined {
  const data = json?.data;
  if (!Array.isArray(data)) return undefined;
  const indexed = data.every((d) => typeof d?.index === "number");
  return (indexed ? [...data].sort((a, b) => a.index - b.index) : data).map((d) => d?.embedding);
}

function snippet(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t ? `: ${quoted(t.length > 120 ? `${t.slice(0, 120)}…` : t)}` : "";
}
