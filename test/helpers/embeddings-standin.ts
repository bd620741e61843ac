// A real embeddings provider on 127.0.0.1 for tests: OpenAI's wire format (POST /v1/embeddings
// {model, input: [...]} -> {data: [{index, embedding}]}) and Ollama's (POST /api/embed -> {embeddings}),
// with deterministic vectors: each word a fixed pseudo-random direction, and the words of one
// `concepts` group one shared direction (so "zorp the blint" and "quux a flarn" mean the same to it).
// `mode` makes it answer as a broken provider does; every request is recorded.

export type StandinMode = "ok" | "500" | "html" | "hang" | "count" | "dims" | "redirect";

export interface Standin {
  url: string;
  port: number;
  mode: StandinMode;
  /** Vector length in "ok" mode (per model name when `dimsOf` says). */
  dims: number;
  dimsOf: Record<string, number>;
  /** Every request: its path, Authorization header and body. */
  requests: Array<{ path: string; authorization: string | null; model?: string; input: string[] }>;
  /** Only requests whose input is exactly [text] get `mode`; others answer "ok" (a slow query, a fast batch). */
  onlyFor?: string;
  stop(): void;
}

const hash = (s: string) => {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
};

function direction(seed: string, dims: number): number[] {
  let x = hash(seed) || 1;
  const out: number[] = [];
  for (let d = 0; d < dims; d++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push(((x >>> 0) / 2 ** 32) * 2 - 1);
  }
  return out;
}

export function standinVector(text: string, dims: number, concepts: readonly string[][] = []): number[] {
  const v = new Array(dims).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const group = concepts.findIndex((g) => g.includes(word));
    const dir = direction(group >= 0 ? `concept ${group}` : word, dims);
    const weight = group >= 0 ? 4 : 1;
    for (let d = 0; d < dims; d++) v[d] += weight * dir[d]!;
  }
  return v;
}

export function startStandin(opts: { concepts?: string[][]; dims?: number; redirectTo?: string } = {}): Standin {
  const s: Standin = {
    url: "",
    port: 0,
    mode: "ok",
    dims: opts.dims ?? 16,
    dimsOf: {},
    requests: [],
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const body = (await req.json().catch(() => ({}))) as { model?: string; input?: string[] | string };
      const input = Array.isArray(body.input) ? body.input : [String(body.input ?? "")];
      s.requests.push({ path, authorization: req.headers.get("authorization"), model: body.model, input });
      const mode = s.onlyFor === undefined || (input.length === 1 && input[0] === s.onlyFor) ? s.mode : "ok";
      if (mode === "hang") return new Promise<Response>(() => {});
      if (mode === "500") return new Response("model crashed", { status: 500 });
      if (mode === "html") return new Response("<!doctype html><html><body>Welcome to nginx!</body></html>", { headers: { "content-type": "text/html" } });
      if (mode === "redirect") return new Response(null, { status: 307, headers: { location: `${opts.redirectTo}${path}` } });
      const dims = s.dimsOf[body.model ?? ""] ?? s.dims;
      const vectors = input.map((t, i) => standinVector(t, mode === "dims" && i > 0 ? dims + 3 : dims, opts.concepts));
      const kept = mode === "count" ? vectors.slice(0, Math.max(0, vectors.length - 1)) : vectors;
      if (path.endsWith("/api/embed")) return Response.json({ model: body.model, embeddings: kept });
      return Response.json({ object: "list", model: body.model, data: kept.map((embedding, index) => ({ object: "embedding", index, embedding })) });
    },
  });
  s.port = server.port!;
  s.url = `http://127.0.0.1:${server.port}/v1`;
  return s;
}
