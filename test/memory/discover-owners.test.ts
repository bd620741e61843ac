// One memory.db holds every workspace's capabilities; discover in a workspace indexes only those it
// can find (its own and the user's). Another workspace's records change nothing in its ranking, not
// even the scores (word rarity, the common direction of meaning), and a finder asked for another
// workspace starts over and answers for it.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { CapabilityDiscovery } from "../../src/memory/discover.ts";
import { memorySettings } from "../../src/memory/memory-settings.ts";
import { SEARCHABLE_SQL } from "../../src/memory/sqlite-statements.ts";
import { SqliteCapabilityStore } from "../../src/memory/sqlite-store.ts";
import { USER_OWNER } from "../../src/memory/store.ts";
import { tempDir } from "../helpers/pml.ts";
import { captureInput } from "./helpers.ts";

const dir = tempDir("pml-discover-owners-");
afterAll(() => dir.cleanup());

const scopeOf = (owner: string) => ({ org: "local", project: "p", owner });
const A = scopeOf(join(dir.path, "a"));
const B = scopeOf(join(dir.path, "b"));
const settingsOf = (scope: ReturnType<typeof scopeOf>) => ({ ...memorySettings({} as Parameters<typeof memorySettings>[0], dir.path), scope });

const OWN: Array<[string, string]> = [
  ["read_json", "read a json file into an object"],
  ["count_lines", "count the lines of a text file"],
  ["send_mail", "send an email message to a colleague"],
];
const OTHERS: Array<[string, string]> = [
  ["read_json_fast", "read a json file quickly"],
  ["json_lines", "count json lines in a log file"],
  ["mail_digest", "email a digest message every morning"],
  ["file_sizes", "list file sizes in a folder"],
];

async function storeWith(others: boolean): Promise<SqliteCapabilityStore> {
  const store = new SqliteCapabilityStore(join(dir.path, `${others ? "with" : "without"}.db`));
  for (const [action, intent] of OWN) await store.capture(captureInput(A, { namespace: "util", action }, { intent }));
  await store.capture(captureInput(scopeOf(USER_OWNER), { namespace: "mine", action: "word_count" }, { intent: "count the words of a text" }));
  if (others) for (const [action, intent] of OTHERS) await store.capture(captureInput(B, { namespace: "util", action }, { intent }));
  return store;
}

const answer = async (finder: CapabilityDiscovery, scope: ReturnType<typeof scopeOf>, q: string) =>
  (await finder.discover(settingsOf(scope), q, [], 10)).results.map((r) => [r.id, r.score]);

test("another workspace's records change nothing in a workspace's answers, scores included; asked for it, the finder answers for it", async () => {
  const alone = await storeWith(false);
  const shared = await storeWith(true);
  const finder = new CapabilityDiscovery(async () => shared);
  const requests = ["read a json file", "count lines of text", "email a message", "file sizes"];
  try {
    for (const q of requests) expect(await answer(finder, A, q)).toEqual(await answer(new CapabilityDiscovery(async () => alone), A, q));
    // Now workspace B asks the same finder: its own and the user's, none of A's.
    const forB = (await finder.discover(settingsOf(B), "read a json file", [], 10)).results.map((r) => r.id);
    expect(forB).toContain("util:read_json_fast");
    expect(forB).not.toContain("util:read_json");
    expect((await finder.discover(settingsOf(B), "count the words", [], 10)).results.map((r) => r.id)).toContain("mine:word_count");
    // And A again, as before.
    for (const q of requests) expect(await answer(finder, A, q)).toEqual(await answer(new CapabilityDiscovery(async () => alone), A, q));
    // B asks while A's discover waits on the store, its index loaded: A's answer does not fail, is
    // the one A gets alone (its discover keeps the state it started with), and neither sees the
    // other's records (a process serving two workspaces).
    let release = () => {};
    let gate = Promise.resolve();
    const slow = new Proxy(shared, { get: (t, k) => (k === "adopt" ? async (...a: unknown[]) => (await gate, t.adopt(...(a as [never]))) : Reflect.get(t, k, t)) });
    const both = new CapabilityDiscovery(async () => slow);
    await both.discover(settingsOf(A), "warm up", [], 10); // loads A's index
    gate = new Promise<void>((r) => (release = r));
    const pending = both.discover(settingsOf(A), "read a json file", [], 10);
    await Bun.sleep(20);
    const other = both.discover(settingsOf(B), "read a json file", [], 10);
    release();
    const [forA, forB2] = await Promise.all([pending, other]);
    expect(forA.results.map((r) => [r.id, r.score])).toEqual(await answer(new CapabilityDiscovery(async () => alone), A, "read a json file"));
    expect(forA.results.map((r) => r.id)).not.toContain("util:read_json_fast");
    expect(forB2.results.map((r) => r.id)).not.toContain("util:read_json");
  } finally {
    alone.close();
    shared.close();
  }
});

test("the records changed since the last read are found by the change number's index, not by reading all of a workspace's", () => {
  const store = new SqliteCapabilityStore(join(dir.path, "plan.db"));
  try {
    const plan = store.db
      .query(`EXPLAIN QUERY PLAN ${SEARCHABLE_SQL}`)
      .all(5, JSON.stringify([A.owner, USER_OWNER]))
      .map((r: any) => r.detail as string);
    expect(plan.find((d) => d.startsWith("SEARCH c "))).toContain("capabilities_seq");
    expect(plan.join("\n")).not.toContain("TEMP B-TREE FOR ORDER BY");
  } finally {
    store.close();
  }
});
