// learn:publish through the compiled pml against a real `pml registry serve` (sqlite): one
// capability goes to the team registry on request, with memory.publish off, through the save's
// publish path (a secret in the code keeps it home, with the reason); it needs cloud.url in a
// trusted .pml.json, and says what to do when there is none, the file is not trusted, the key is
// missing or the registry does not answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { KEYS, listAll, startReplica, writeKeysFile, type Replica } from "../registry-db/helpers.ts";
import { text } from "./helpers.ts";

const SECRET = "ghp_publish_test_secret_value_7";
const dirs: Array<{ path: string; cleanup(): void }> = [];
const closers: Array<() => Promise<void>> = [];
let registry: Replica;
let regDir: string;

beforeAll(async () => {
  const d = tempDir("pml-publish-reg-");
  dirs.push(d);
  regDir = d.path;
  registry = await startReplica(`sqlite:${join(regDir, "registry.db")}`, writeKeysFile(regDir));
}, 30_000);
afterAll(async () => {
  for (const c of closers) await c().catch(() => {});
  await registry?.stop();
  for (const d of dirs) d.cleanup();
});

/** A pml on a new workspace and PML_HOME; `trusted: false` writes the .pml.json without trusting it. */
async function open(config: Record<string, unknown> | undefined, opts: { trusted?: boolean; env?: Record<string, string> } = {}) {
  const ws = tempDir("pml-publish-ws-");
  const home = tempDir("pml-publish-home-");
  dirs.push(ws, home);
  if (config && opts.trusted !== false) await writeTrustedConfig(ws.path, config, home.path);
  else if (config) writeFileSync(join(ws.path, ".pml.json"), JSON.stringify(config));
  const c = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path, ...opts.env }) });
  closers.push(() => c.client.close());
  const call = async (tool: string, args: Record<string, unknown>) => (await c.client.callTool({ name: "call", arguments: { tool, arguments: args } })) as any;
  return { ...c, call, ws: ws.path };
}

const save = (p: Awaited<ReturnType<typeof open>>, name: string, code: string) => p.call("learn:save", { name, code, intent: `${name} for the publish test` });

describe("learn:publish", () => {
  test("publishes one capability on request while memory.publish is off, with the visibility asked for; again, as the next version", async () => {
    const a = await open({ cloud: { url: registry.url } }, { env: { PML_API_KEY: KEYS.alice } });
    const saved = await save(a, "text:count_words", "return String(args.text).split(/\\s+/).length");
    expect(saved.structuredContent.published).toBeUndefined(); // memory.publish is off: a save publishes nothing
    expect((await listAll(registry.url, KEYS.alice)).map((i) => i.name)).not.toContain("text:count_words");

    const r = await a.call("learn:publish", { name: "text:count_words", visibility: "org" });
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent).toMatchObject({ name: "text:count_words", registry: registry.url, published: { visibility: "org", version: "1.0.0" } });
    const there = (await listAll(registry.url, KEYS.bob)).find((i) => i.name === "text:count_words");
    expect(there).toMatchObject({ org: "acme", visibility: "org", version: "1.0.0", updated_by: "alice" });
    expect(r.structuredContent.published.fqdn).toStartWith(there.fqdn);

    // A new version saved here, published on request, is the registry's next version of it.
    await a.call("learn:save", { name: "text:count_words", code: "return String(args.text).trim().split(/\\s+/).length", update: true });
    const again = await a.call("learn:publish", { name: "text:count_words" });
    expect(again.isError).toBeUndefined();
    expect(again.structuredContent.published).toMatchObject({ version: "1.1.0", visibility: "project" });
  });

  test("code holding a secret is not published, and the answer says why; an unknown name gets a did-you-mean", async () => {
    const a = await open({ cloud: { url: registry.url } }, { env: { PML_API_KEY: KEYS.alice, GITHUB_TOKEN: SECRET } });
    await save(a, "util:token_length", `return "${SECRET}".length`);
    const r = await a.call("learn:publish", { name: "util:token_length" });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("contains the value of GITHUB_TOKEN");
    const stored = readFileSync(join(regDir, "registry.db")).toString("latin1");
    expect(stored).not.toContain(SECRET);
    expect(stored).not.toContain("token_length");

    const unknown = await a.call("learn:publish", { name: "util:token_lenght" });
    expect(text(unknown)).toContain("Capability not found: util:token_lenght. Did you mean util:token_length?");
  });

  test("no team registry configured: says what to add to .pml.json", async () => {
    const a = await open({ permissions: { allow: ["cap"] } }, { env: { PML_API_KEY: KEYS.alice } });
    await save(a, "text:count_lines", "return String(args.text).split('\\n').length");
    const r = await a.call("learn:publish", { name: "text:count_lines" });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('No team registry is configured: add "cloud": {"url": "https://<your registry>"}');
    expect(text(r)).toContain(join(a.ws, ".pml.json"));
  });

  test("a .pml.json naming a registry that the user has not trusted: says `pml trust`, and nothing is sent", async () => {
    const a = await open({ cloud: { url: registry.url } }, { trusted: false, env: { PML_API_KEY: KEYS.alice } });
    await save(a, "text:count_chars", "return String(args.text).length");
    const r = await a.call("learn:publish", { name: "text:count_chars" });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("you have not trusted it: run `pml trust`");
    expect((await listAll(registry.url, KEYS.alice)).map((i) => i.name)).not.toContain("text:count_chars");
  });

  test("no PML_API_KEY, and a registry that does not answer: clear errors", async () => {
    const noKey = await open({ cloud: { url: registry.url } });
    await save(noKey, "text:count_vowels", "return (String(args.text).match(/[aeiou]/g) ?? []).length");
    expect(text(await noKey.call("learn:publish", { name: "text:count_vowels" }))).toContain("PML_API_KEY is not set");

    // A port that was free a moment ago: nothing listens there.
    const gone = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${gone.port}`;
    await gone.stop(true);
    const down = await open({ cloud: { url } }, { env: { PML_API_KEY: KEYS.alice } });
    await save(down, "text:count_vowels", "return (String(args.text).match(/[aeiou]/g) ?? []).length");
    const r = await down.call("learn:publish", { name: "text:count_vowels" });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain(`Not published to the team registry ${url}: unreachable`);
    expect(text(r)).toContain("Try again once it answers.");
  });
});
