// The optional embeddings provider (issue 46, item 3): a real pml against a real HTTP stand-in on
// 127.0.0.1 speaking OpenAI's embeddings wire format. Its vectors choose candidates (a request sharing
// no word with a capability finds it); an untrusted .pml.json sends it nothing; the key goes to it
// only; each bad answer (500, HTML, wrong count or dimension, no answer, a redirect) is said once on
// stderr naming the URL and what was wrong, discover answers with the built-in ranking, and nothing
// of the bad answer is cached; a changed model embeds again; initialize and tools/list never wait.
import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDiscover } from "../helpers/discover.ts";
import { startStandin, type Standin } from "../helpers/embeddings-standin.ts";
import { BIN, entries, RawPeer, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { trustWorkspace } from "../helpers/trust.ts";
import { waitFor } from "../helpers/wait.ts";
import { text } from "./helpers.ts";

const KEY = "sk-standin-0123456789";
/** Made-up words: neither pml's word lists nor its word vectors know them; the stand-in says they mean the same. */
const CONCEPTS = [["zorp", "quux", "blint", "flarn"]];
const CAPS: Array<[string, string]> = [
  ["text:zorp_blint", "zorp the blint"],
  ["util:word_count", "count words and characters in a text"],
  ["fs:read_json", "read a JSON file and parse it"],
];

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Run {
  ws: string;
  home: string;
  standin: Standin;
  client: any;
  stderr(): string;
  db(): Database;
  discover(query: string): Promise<any>;
  close(): Promise<void>;
}

function workspace(standin: Standin, embeddings: Record<string, unknown> = {}): { ws: string; home: string } {
  const ws = tempDir("pml-emb-ws-");
  const home = tempDir("pml-emb-home-");
  cleanups.push(ws.cleanup, home.cleanup);
  writeFileSync(join(ws.path, ".pml.json"), JSON.stringify({ memory: { embeddings: { url: standin.url, model: "standin-1", api_key_env: "EMBED_KEY", ...embeddings } } }));
  return { ws: ws.path, home: home.path };
}

async function start(standin: Standin, where: { ws: string; home: string }, opts: { trusted?: boolean; env?: Record<string, string> } = {}): Promise<Run> {
  if (opts.trusted !== false) await trustWorkspace(where.ws, where.home);
  const c = await sdkClient(entries.binary, { cwd: where.ws, env: testEnv({ PML_WORKSPACE: where.ws, PML_HOME: where.home, EMBED_KEY: KEY, ...opts.env }) });
  const close = () => c.transport.close().catch(() => {});
  cleanups.push(close);
  const dbs: Database[] = [];
  cleanups.push(() => dbs.forEach((d) => d.close()));
  return {
    ...where,
    standin,
    client: c.client,
    stderr: c.stderr,
    db: () => {
      const d = new Database(join(where.home, "memory.db"), { readonly: true });
      dbs.push(d);
      return d;
    },
    discover: async (query) => parseDiscover(text(await c.client.callTool({ name: "discover", arguments: { query } }))),
    close,
  };
}

async function save(run: Run, caps = CAPS): Promise<void> {
  for (const [name, intent] of caps) {
    const r: any = await run.client.callTool({ name: "execute", arguments: { code: `return ${JSON.stringify(name)};`, intent, name } });
    if (r.isError) throw new Error(text(r));
  }
}

const cached = (run: Run, model = "standin-1") => (run.db().query("SELECT COUNT(*) AS n FROM provider_vectors WHERE model LIKE ?").get(`% ${model}`) as { n: number }).n;

function standin(opts: Parameters<typeof startStandin>[0] = {}): Standin {
  const s = startStandin({ concepts: CONCEPTS, ...opts });
  cleanups.push(s.stop);
  return s;
}

/** A pml whose provider has embedded every record and tool. */
async function embedded(s: Standin): Promise<Run> {
  const run = await start(s, workspace(s));
  await save(run);
  await run.discover("anything");
  await waitFor(() => cached(run) >= CAPS.length + 10, { what: "the stand-in's vectors cached" });
  return run;
}

test("the provider's vectors choose candidates: a request sharing no word with a capability finds it, and the key goes only there", async () => {
  const s = standin();
  const run = await embedded(s);
  // With the built-in ranking alone (vectors not yet there) it may be anywhere; with the provider's, it leads.
  await waitFor(async () => (await run.discover("quux a flarn")).results[0]?.id === "text:zorp_blint", { what: "the capability found by meaning" });
  expect(s.requests.length).toBeGreaterThan(0);
  for (const r of s.requests) {
    expect(r.path).toBe("/v1/embeddings");
    expect(r.authorization).toBe(`Bearer ${KEY}`);
    expect(r.model).toBe("standin-1");
  }
  // Texts are embedded in batches, and a record's text is asked for once (then cached).
  const asked = s.requests.flatMap((r) => r.input);
  expect(asked.filter((t) => t.includes("zorp the blint")).length).toBe(1);
  expect(s.requests.some((r) => r.input.length > 1)).toBe(true);
});

test("an untrusted .pml.json sends nothing to the provider, and `pml trust` shows the grant", async () => {
  const s = standin();
  const where = workspace(s);
  const run = await start(s, where, { trusted: false });
  await save(run);
  expect((await run.discover("read a json file")).results[0]?.id).toBe("fs:read_json");
  await run.discover("quux a flarn");
  await run.close();
  expect(s.requests).toEqual([]);
  const shown = Bun.spawnSync([BIN, "trust"], { cwd: where.ws, env: testEnv({ PML_HOME: where.home, PML_WORKSPACE: where.ws }), stdin: "ignore" });
  expect(shown.stdout.toString() + shown.stderr.toString()).toContain(`memory.embeddings: sends capability and tool texts to ${s.url} for embeddings, with your $EMBED_KEY`);
});

test("the key is not carried to another host: a redirect is refused, and discover answers without the provider", async () => {
  const other = standin();
  const s = standin({ redirectTo: `http://127.0.0.1:${other.port}` });
  s.mode = "redirect";
  const run = await start(s, workspace(s));
  await save(run);
  expect((await run.discover("read a json file")).results[0]?.id).toBe("fs:read_json");
  await waitFor(() => run.stderr().includes("redirect"), { what: "the refusal on stderr" });
  expect(run.stderr()).toContain(`embeddings provider ${s.url}/embeddings`);
  expect(other.requests).toEqual([]);
  expect(cached(run)).toBe(0);
});

const BAD: Array<[Standin["mode"], string]> = [
  ["500", 'answered HTTP 500: "model crashed"'],
  ["html", "answered HTML that is not JSON (text/html)"],
  ["count", "vectors for"],
  ["dims", "dimensions, expected 16 like the others"],
];

for (const [mode, said] of BAD) {
  test(`a provider answering ${mode}: said once, naming the URL and what was wrong; built-in ranking; nothing cached`, async () => {
    const s = standin();
    s.mode = mode;
    const run = await start(s, workspace(s));
    await save(run);
    expect((await run.discover("read a json file")).results[0]?.id).toBe("fs:read_json");
    await waitFor(() => run.stderr().includes(said), { what: `"${said}" on stderr` });
    await run.discover("count the words");
    const lines = run
      .stderr()
      .split("\n")
      .filter((l) => l.includes(said));
    expect(lines.length).toBe(1);
    expect(lines[0]).toContain(`embeddings provider ${s.url}/embeddings`);
    expect(cached(run)).toBe(0);
  });
}

test("a request's vector that does not come within 1 s: discover answers with the built-in ranking and says so", async () => {
  const s = standin();
  const run = await embedded(s);
  s.onlyFor = "read a json file";
  s.mode = "hang";
  expect((await run.discover("read a json file")).results[0]?.id).toBe("fs:read_json");
  expect(run.stderr()).toContain(`embeddings provider ${s.url}/embeddings (.pml.json memory.embeddings, model "standin-1"): did not answer within 1000 ms`);
});

test("a request's vector of another dimension than the cached ones is refused, not mixed", async () => {
  const s = standin();
  const run = await embedded(s);
  s.dims = 8;
  expect((await run.discover("read a json file")).results[0]?.id).toBe("fs:read_json");
  expect(run.stderr()).toContain("sent a vector of 8 dimensions, expected 16 (what this model gave before");
});

test("a changed model embeds everything again, in its own dimension, beside the old model's", async () => {
  const s = standin();
  s.dimsOf = { "standin-2": 24 };
  const first = await embedded(s);
  await first.close();
  writeFileSync(join(first.ws, ".pml.json"), JSON.stringify({ memory: { embeddings: { url: s.url, model: "standin-2", api_key_env: "EMBED_KEY" } } }));
  const second = await start(s, { ws: first.ws, home: first.home });
  await second.discover("anything");
  await waitFor(() => cached(second, "standin-2") >= cached(second, "standin-1"), { what: "the new model's vectors" });
  const v2 = s.requests.filter((r) => r.model === "standin-2").flatMap((r) => r.input);
  expect(v2.some((t) => t.includes("zorp the blint"))).toBe(true);
  const dims = second.db().query("SELECT model, MIN(dims) AS lo, MAX(dims) AS hi FROM provider_vectors GROUP BY model ORDER BY model").all() as any[];
  expect(dims.map((d) => [d.model.split(" ").pop(), d.lo, d.hi])).toEqual([
    ["standin-1", 16, 16],
    ["standin-2", 24, 24],
  ]);
  await waitFor(async () => (await second.discover("quux a flarn")).results[0]?.id === "text:zorp_blint", { what: "found with the new model" });
});

test("initialize and tools/list never wait on the provider: one that never answers", async () => {
  const s = standin();
  s.mode = "hang";
  const where = workspace(s);
  await trustWorkspace(where.ws, where.home);
  const peer = new RawPeer(entries.binary, { cwd: where.ws, env: testEnv({ PML_WORKSPACE: where.ws, PML_HOME: where.home, EMBED_KEY: KEY }) });
  cleanups.push(() => peer.kill());
  expect((await peer.initialize()).result.serverInfo).toBeDefined();
  const asked = await peer.request(1, "tools/call", { name: "discover", arguments: { query: "read a json file" } });
  expect(asked.result.isError).toBeFalsy();
  await waitFor(() => s.requests.length > 0, { what: "the background batch sent" });
  // The batch hangs; tools/list and discover still answer.
  expect((await peer.request(2, "tools/list")).result.tools.length).toBeGreaterThan(0);
  expect((await peer.request(3, "tools/call", { name: "discover", arguments: { query: "count words" } })).result.isError).toBeFalsy();
});

test("a provider URL from the environment that is not http(s) is an error naming the variable", async () => {
  const s = standin();
  const ws = tempDir("pml-emb-ws-");
  const home = tempDir("pml-emb-home-");
  cleanups.push(ws.cleanup, home.cleanup);
  const run = await start(s, { ws: ws.path, home: home.path }, { env: { PML_EMBEDDINGS_URL: "ftp://127.0.0.1/v1", PML_EMBEDDINGS_MODEL: "m" } });
  expect((await run.discover("read a json file")).results.length).toBeGreaterThan(0);
  await waitFor(() => run.stderr().includes("PML_EMBEDDINGS_URL must be an http(s) URL"), { what: "the error on stderr" });
});

test("`pml doctor` asks the provider and says what failed; a .pml.json URL that is not http(s) is a config error naming the key", async () => {
  const s = standin();
  const where = workspace(s);
  // Spawned, not spawnSync: the stand-in answers from this process's event loop.
  const doctor = async () => {
    const p = Bun.spawn([BIN, "doctor"], { cwd: where.ws, env: testEnv({ PML_HOME: where.home, PML_WORKSPACE: where.ws, EMBED_KEY: KEY }), stdin: "ignore", stdout: "pipe" });
    return new Response(p.stdout).text();
  };
  expect(await doctor()).toContain("warn  embeddings: none in use; .pml.json memory.embeddings is not trusted, so nothing is sent there (run `pml trust`)");
  expect(s.requests).toEqual([]);
  await trustWorkspace(where.ws, where.home);
  expect(await doctor()).toContain(`ok    embeddings: ${s.url}/embeddings (.pml.json memory.embeddings, model standin-1, with your $EMBED_KEY) answers: 16 dimensions`);
  s.mode = "html";
  expect(await doctor()).toContain(`FAIL  embeddings: embeddings provider ${s.url}/embeddings (.pml.json memory.embeddings, model "standin-1"): answered HTML that is not JSON`);
  writeFileSync(join(where.ws, ".pml.json"), JSON.stringify({ memory: { embeddings: { url: "ftp://127.0.0.1/v1", model: "m" } } }));
  expect(await doctor()).toContain('memory.embeddings.url: expected an http(s) URL, got "ftp://127.0.0.1/v1"');
});

test("with a provider, its meaning is evidence for the label: strong only when it agrees, never strong on meaning alone", async () => {
  const s = standin();
  // Untrusted, so the built-in ranking alone: the words say util:word_count does exactly this.
  const plain = await start(s, workspace(s), { trusted: false });
  await save(plain);
  expect((await plain.discover("count words and characters in a text")).results[0]).toMatchObject({ id: "util:word_count", match: "strong" });
  await plain.close();
  const run = await embedded(s);
  await waitFor(async () => (await run.discover("quux a flarn")).results[0]?.id === "text:zorp_blint", { what: "the capability found by meaning" });
  // Found by the provider's meaning alone (no word in common): not marked a fit by it.
  expect((await run.discover("quux a flarn")).results[0]?.match).not.toBe("strong");
  // The stand-in's bag-of-words vectors put other texts near this one (it is not clearly nearest):
  // still worth calling, but not a promise.
  expect((await run.discover("count words and characters in a text")).results[0]).toMatchObject({ id: "util:word_count", match: "fair" });
});
