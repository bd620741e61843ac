// pml's one way to make an HTTP request (registries, the cloud endpoint, LLM APIs, package
// downloads, the update check), on ofetch: a time limit over the whole exchange, retries with
// backoff (Retry-After honoured, capped) for GETs on 408/429/5xx and network failures and never
// for anything that sends a body, redirects followed only on the same origin (never carrying
// credentials elsewhere), plain http only to this machine, buffered bodies capped. Failures are an
// HttpError with a kind, so each caller keeps the message its users know ("registry unreachable…").
import { ofetch, type FetchContext } from "ofetch";
import { insecureUrlReason } from "./secure-url.ts";

export type HttpFailure = "timeout" | "cancelled" | "unreachable" | "refused" | "too-large";

export class HttpError extends Error {
  constructor(
    readonly kind: HttpFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface HttpOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE" | "HEAD";
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The whole exchange, retries and body included. */
  timeoutMs: number;
  /** The caller's cancellation: rethrown as it is, never turned into a transport message. */
  signal?: AbortSignal;
  /** What the URL is, for refusals ("registry URL", "cloud.url"). */
  what: string;
  /** GET only: how many times to try again (default 2). */
  retries?: number;
  /** Redirects: followed on the same origin (default); refused outright (keys in headers); or, for
   * requests that carry no credentials (release files behind a CDN), followed anywhere https. */
  redirects?: "same-origin" | "refuse" | "anywhere";
  /** Cap for `text()` and `bytes()`; default 16 MiB. */
  maxBytes?: number;
  /** Plain http to other hosts too: only for downloads checked against a pinned hash (npm tarballs). */
  plainHttp?: boolean;
}

export interface HttpResponse {
  status: number;
  ok: boolean;
  headers: Headers;
  url: string;
  /** The body as text, at most `maxBytes` (else HttpError "too-large"). */
  text(): Promise<string>;
  /** The body as bytes, at most `maxBytes`. */
  bytes(): Promise<Uint8Array>;
  /** The body parsed as JSON (a SyntaxError when it is not). */
  json(): Promise<unknown>;
  /** The body as a stream, for downloads the caller verifies as it reads. */
  body: ReadableStream<Uint8Array> | null;
  cancel(): Promise<void>;
}

const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];
const MAX_REDIRECTS = 5;
const MAX_RETRY_AFTER_MS = 5_000;

export async function httpRequest(url: string, opts: HttpOptions): Promise<HttpResponse> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let target = url;
  for (let hop = 0; ; hop++) {
    const refused = opts.plainHttp && /^http:/i.test(target) ? undefined : insecureUrlReason(target, hop ? `${opts.what} (redirected)` : opts.what);
    if (refused) throw new HttpError("refused", refused);
    const res = await exchange(target, opts, signal, timeout);
    if (res.status < 300 || res.status >= 400 || res.status === 304) return wrap(res, target, opts.maxBytes ?? 16 * 1024 * 1024, signal, timeout, opts);
    await res.body?.cancel().catch(() => {});
    const location = res.headers.get("location");
    const next = location ? new URL(location, target) : undefined;
    if (opts.redirects === "refuse" || !next || (next.origin !== new URL(target).origin && (opts.redirects !== "anywhere" || opts.headers?.authorization)))
      throw new HttpError(
        "refused",
        `${opts.what} ${target} answered with a redirect (HTTP ${res.status})${next ? ` to ${next.origin}` : ""}; pml follows redirects only on the same host${opts.redirects === "refuse" ? " and not at all with your keys" : ""}. Use the final address.`,
      );
    if (hop >= MAX_REDIRECTS) throw new HttpError("refused", `${opts.what} ${url} redirects more than ${MAX_REDIRECTS} times.`);
    target = next.href;
  }
}

async function exchange(url: string, opts: HttpOptions, signal: AbortSignal, timeout: AbortSignal): Promise<Response> {
  const method = opts.method ?? "GET";
  const retries = method === "GET" ? (opts.retries ?? 2) : 0;
  try {
    return await ofetch
      .raw(url, {
        method,
        headers: opts.headers,
        body: opts.body as RequestInit["body"],
        signal,
        redirect: "manual",
        responseType: "stream",
        retry: retries,
        retryStatusCodes: RETRY_STATUSES,
        retryDelay: (ctx: FetchContext) => (signal.aborted ? 0 : retryDelay(ctx, retries)),
        // Answers of any status are the caller's to read; only retries look at them.
        onResponseError: () => {},
      })
      .catch((e: { response?: Response }) => {
        // ofetch throws for 4xx/5xx once retries are spent: the answer is still the caller's.
        if (e.response) return e.response;
        throw e;
      });
  } catch (e) {
    throw failure(e, url, opts, signal, timeout);
  }
}

/** Exponential from 250 ms, or the server's Retry-After (seconds or a date), capped. */
function retryDelay(ctx: FetchContext, total: number): number {
  const left = typeof ctx.options.retry === "number" ? ctx.options.retry : 0;
  const attempt = total - left;
  const after = ctx.response?.headers.get("retry-after");
  if (after) {
    const s = Number(after);
    const ms = Number.isFinite(s) ? s * 1000 : Date.parse(after) - Date.now();
    if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, MAX_RETRY_AFTER_MS);
  }
  return 250 * 2 ** attempt;
}

function failure(e: unknown, _url: string, opts: HttpOptions, _signal: AbortSignal, timeout: AbortSignal): unknown {
  if (e instanceof HttpError) return e;
  if (opts.signal?.aborted) return opts.signal.reason ?? e;
  if (timeout.aborted) return new HttpError("timeout", `no answer within ${opts.timeoutMs} ms`);
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err?.cause?.code ?? err?.code;
  if (code === "ConnectionRefused" || code === "ECONNREFUSED") return new HttpError("unreachable", "connection refused");
  return new HttpError("unreachable", code ?? err?.cause?.message ?? err?.message ?? String(e));
}

function wrap(res: Response, url: string, maxBytes: number, signal: AbortSignal, timeout: AbortSignal, opts: HttpOptions): HttpResponse {
  return {
    status: res.status,
    ok: res.ok,
    headers: res.headers,
    url,
    body: res.body,
    cancel: async () => {
      await res.body?.cancel().catch(() => {});
    },
    async text() {
      return new TextDecoder().decode(await this.bytes());
    },
    async json() {
      return JSON.parse(await this.text());
    },
    async bytes() {
      const declared = Number(res.headers.get("content-length") ?? 0);
      if (declared > maxBytes) {
        await res.body?.cancel().catch(() => {});
        throw new HttpError("too-large", `${opts.what} ${url} sent ${declared} bytes, more than the ${maxBytes} pml reads`);
      }
      try {
        const reader = res.body?.getReader();
        if (!reader) return new Uint8Array();
        const chunks: Uint8Array[] = [];
        let size = 0;
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > maxBytes) {
            await reader.cancel().catch(() => {});
            throw new HttpError("too-large", `${opts.what} ${url} sent more than the ${maxBytes} bytes pml reads`);
          }
          chunks.push(value);
        }
        return new Uint8Array(Buffer.concat(chunks));
      } catch (e) {
        throw failure(e, url, opts, signal, timeout);
      }
    },
  };
}
