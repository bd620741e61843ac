// `pml registry serve` as a real process on 127.0.0.1: catalog, entries, caching headers, and the
// requests that must never reach a file outside the data directory.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join, resolve } from "node:path";
import { entries, spawnListening, testEnv } from "../helpers/pml.ts";
import { GREET_TS, MEMORY_JSON, removeDirs, tempDir, writeEntries } from "../registry/fixtures.ts";

const repo = resolve(import.meta.dir, "../..");
let data: string;
let outside: string;
let proc: ReturnType<typeof Bun.spawn>;
let url: string;

/** A raw HTTP/1.1 request, so the path reaches the server exactly as written (fetch would normalize it). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((done, fail) => {
    const sock = connect(Number(u.port), u.hostname, () => sock.write(`GET ${path} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: close\r\n\r\n`));
    let buf = "";
    sock.on("data", (b) => (buf += b.toString("latin1")));
    sock.on("error", fail);
    sock.on("end", () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(buf)?.[1] ?? 0);
      done({ status, body: buf.split("\r\n\r\n").slice(1).join("\r\n\r\n") });
    });
  });
}

beforeAll(async () => {
  data = tempDir("regdata");
  outside = tempDir("outside");
  writeFileSync(join(outside, "secret.json"), JSON.stringify({ type: "stdio", command: "secret" }));
  writeFileSync(join(outside, "passwd"), "root:x:0:0");
  writeEntries(data, {
    "greet.ts": GREET_TS,
    "memory.json": MEMORY_JSON,
    "acme.tools.search.json": { type: "cloud", description: "Search", env_required: ["ACME_KEY"] },
  });
  for (let i = 0; i < 5; i++) writeEntries(data, { [`bulk${i}.json`]: { type: "http", url: `https://example.com/${i}` } });
  symlinkSync(join(outside, "secret.json"), join(data, "leak.json"));
  mkdirSync(join(data, "dir.json"));
  const server = await spawnListening([...entries.source, "registry", "serve", "--data", data, "--port", "0", "--max-age", "30"], { cwd: repo, env: testEnv() });
  proc = server.proc;
  url = server.url;
});

afterAll(async () => {
  proc?.kill();
  await proc?.exited;
  removeDirs(data, outside);
});

describe("pml registry serve", () => {
  test("serves a module as application/typescript with ETag and Cache-Control", async () => {
    const res = await fetch(`${url}/mcp/greet`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/typescript");
    expect(res.headers.get("cache-control")).toBe("max-age=30");
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await res.text()).toBe(GREET_TS);
  });

  test("serves a descriptor as application/json; dotted fqdn maps to <fqdn>.json", async () => {
    const res = await fetch(`${url}/mcp/acme.tools.search`);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    expect(((await res.json()) as { type: string }).type).toBe("cloud");
  });

  test("304 on a matching If-None-Match, 200 otherwise", async () => {
    const etag = (await fetch(`${url}/mcp/memory`)).headers.get("etag")!;
    const same = await fetch(`${url}/mcp/memory`, { headers: { "if-none-match": etag } });
    expect(same.status).toBe(304);
    expect(same.headers.get("etag")).toBe(etag);
    expect(await same.text()).toBe("");
    const list = await fetch(`${url}/mcp/memory`, { headers: { "if-none-match": `"nope", W/${etag}` } });
    expect(list.status).toBe(304);
    const other = await fetch(`${url}/mcp/memory`, { headers: { "if-none-match": '"other"' } });
    expect(other.status).toBe(200);
  });

  test("404 JSON for an unknown name", async () => {
    const res = await fetch(`${url}/mcp/nothing-here`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe("not_found");
    expect(body.message).toContain("nothing-here");
  });

  test("catalog pages through every entry with next_cursor", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: Response = await fetch(`${url}/mcp?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      const page = (await res.json()) as { items: { fqdn: string }[]; next_cursor: string | null };
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((i: { fqdn: string }) => i.fqdn));
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    // leak.json points outside the data dir and dir.json is a directory: neither is listed.
    expect(seen).toEqual(["acme.tools.search", "bulk0", "bulk1", "bulk2", "bulk3", "bulk4", "greet", "memory"]);
    const first = (await (await fetch(`${url}/mcp`)).json()) as { items: { fqdn: string; type: string }[] };
    expect(first.items.find((i) => i.fqdn === "greet") as object).toEqual({ fqdn: "greet", type: "module", description: "Says hello" });
    expect(first.items.find((i) => i.fqdn === "memory")?.type).toBe("stdio");
  });

  test("text search over the directory, and publishing is refused: the directory is read-only", async () => {
    const hits = (await (await fetch(`${url}/mcp?text=${encodeURIComponent("SAYS hello")}`)).json()) as { items: { fqdn: string }[] };
    expect(hits.items.map((i) => i.fqdn)).toEqual(["greet"]);
    expect(((await (await fetch(`${url}/mcp?text=nothing-matches-this`)).json()) as { items: unknown[] }).items).toEqual([]);
    const res = await fetch(`${url}/mcp/capabilities`, { method: "POST", body: "{}" });
    expect(res.status).toBe(405);
    expect(((await res.json()) as { message: string }).message).toContain("start it with --database sqlite:PATH or postgres://");
  });

  test("absurd limits and foreign cursors are 400", async () => {
    for (const q of ["limit=0", "limit=101", "limit=-1", "limit=abc", "limit=1e3", "limit=99999999999", "cursor=..%2F..%2Fetc", "cursor=Zm9vLi5iYXI"]) {
      const res = await fetch(`${url}/mcp?${q}`);
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
    }
  });

  test("path traversal and odd names never reach a file outside the data dir", async () => {
    const attempts = [
      "/mcp/..",
      "/mcp/../../etc/passwd",
      "/mcp/%2e%2e",
      "/mcp/%2e%2e%2fpasswd",
      "/mcp/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
      "/mcp/..%2f..%2fetc%2fpasswd",
      "/mcp/a%2fb",
      "/mcp/%2fetc%2fpasswd",
      "/mcp/..%5c..%5cpasswd",
      "/mcp/a\\..\\..\\passwd",
      "/mcp/greet%00",
      "/mcp/%00",
      "/mcp/a..b",
      "/mcp/.greet",
      "/mcp/greet.",
      "/mcp/%252e%252e",
      "/mcp/%",
      "/mcp//etc/passwd",
      `/mcp/${encodeURIComponent(join(resolve(data, ".."), "outside"))}`,
      "/mcp/leak",
      "/mcp/dir",
    ];
    for (const path of attempts) {
      const res = await rawGet(path);
      expect({ path, client: res.status >= 400 && res.status < 500 }).toEqual({ path, client: true });
      expect(res.body).not.toContain("root:x");
      expect(res.body).not.toContain("secret");
    }
  });

  test("other methods get 405, unknown endpoints 404", async () => {
    expect((await fetch(`${url}/mcp/greet`, { method: "POST", body: "{}" })).status).toBe(405);
    expect((await fetch(`${url}/nope`)).status).toBe(404);
  });
});
