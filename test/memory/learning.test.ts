// Learning from use through the compiled pml: a discover followed by a successful call of one of
// its results teaches memory.db that those words meant that item, so the same words (or close
// ones) rank it first later, in another process too; failures teach nothing, an abandoned result
// gives its credit to the one used instead, and one workspace's use never shows in another's.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BIN, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { memoryFixture, text, type MemoryFixture } from "./helpers.ts";
import { parseDiscover } from "../helpers/discover.ts";

let fx: MemoryFixture;
const elsewhere = tempDir("pml-learn-elsewhere-");
beforeAll(() => {
  fx = memoryFixture();
});
afterAll(async () => {
  await fx.cleanup();
  elsewhere.cleanup();
});

type Client = Awaited<ReturnType<MemoryFixture["connect"]>>["client"];

const ok = async (client: Client, name: string, args: Record<string, unknown>) => {
  const r: any = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(text(r));
  return r;
};
const save = (client: Client, name: string, intent: string, code: string, extra: Record<string, unknown> = {}) => ok(client, "execute", { code, intent, name, ...extra });
const discover = async (client: Client, query: string, limit?: number) =>
  parseDiscover(text(await client.callTool({ name: "discover", arguments: { query, ...(limit ? { limit } : {}) } }))).results as any[];
const associations = (item?: string) =>
  fx
    .db()
    .query(
      `SELECT a.query, a.count, c.namespace || ':' || c.action AS name FROM discover_associations a LEFT JOIN capabilities c ON a.item_key = 'cap:' || c.id ${item ? "WHERE c.action = ?1" : ""}`,
    )
    .all(...(item ? [item] : [])) as Array<{ query: string; count: number; name: string }>;

const PARAPHRASE = "tidy a paragraph of markdown prose for a narrow terminal window";
const VARIANT = "tidy my markdown paragraph for a narrow terminal";

test("a paraphrase that missed ranks the capability used after it first, in a new process too", async () => {
  const { client } = await fx.connect();
  await save(client, "transform:wrap_text", "wrap text lines at a column width", "return 'wrapped'");
  await save(client, "transform:strip_markdown", "remove markdown formatting from text", "return 'plain'");

  // The variant shares no word with the capability's own text: not first by words and meaning alone.
  expect((await discover(client, VARIANT))[0]?.id).not.toBe("transform:wrap_text");
  // Found, but not first: the agent asked for more results to see it (the newest discover gets the credit).
  const before = await discover(client, PARAPHRASE, 30);
  expect(before.findIndex((r) => r.id === "transform:wrap_text")).toBeGreaterThan(0);
  expect(before.some((r) => r.learned)).toBe(false);

  await ok(client, "cap__transform__wrap_text", {});

  const after = await discover(client, PARAPHRASE);
  expect(after[0]).toMatchObject({ id: "transform:wrap_text", learned: `found before by: ${JSON.stringify(PARAPHRASE)}` });
  expect(after.slice(1).some((r) => r.learned)).toBe(false);

  // Kept in memory.db: another pml process (a new session) ranks with it.
  const fresh = (await fx.connect()).client;
  const again = await discover(fresh, VARIANT);
  expect(again[0]).toMatchObject({ id: "transform:wrap_text" });
  expect(again[0].learned).toContain("found before by:");
  expect(associations("wrap_text")).toEqual([{ query: PARAPHRASE, count: 1, name: "transform:wrap_text" }]);
});

test("a failed call teaches nothing", async () => {
  const { client } = await fx.connect();
  await save(client, "util:check_quota", "check the remaining quota", "if (args.fail) throw new Error('quota service down'); return 'ok'", {
    args: { fail: false },
    parameters: { type: "object", properties: { fail: { type: "boolean", default: false } } },
  });
  const query = "how much quota is left before the limit";
  expect((await discover(client, query, 10)).map((r) => r.id)).toContain("util:check_quota");
  const failed: any = await client.callTool({ name: "cap__util__check_quota", arguments: { fail: true } });
  expect(failed.isError).toBe(true);
  const failedViaExecute: any = await client.callTool({ name: "execute", arguments: { capability: "util:check_quota", args: { fail: true }, intent: "see the quota" } });
  expect(failedViaExecute.isError).toBe(true);
  expect(associations("check_quota")).toEqual([]);
  expect((await discover(client, query)).some((r) => r.learned)).toBe(false);
});

test("a result called and then abandoned for another gives the credit to the other", async () => {
  const { client } = await fx.connect();
  await save(client, "db:export_table", "export a database table to a csv file", "return 'exported'");
  await save(client, "db:dump_schema", "dump the database schema as sql", "return 'schema'");
  const query = "back up the orders database table";
  const offered = (await discover(client, query)).map((r) => r.id);
  expect(offered).toEqual(expect.arrayContaining(["db:export_table", "db:dump_schema"]));

  await ok(client, "call", { tool: "cap:db:export_table", arguments: {} });
  expect(associations("export_table").map((a) => a.query)).toEqual([query]);
  await ok(client, "execute", { capability: "db:dump_schema", args: {} });

  expect(associations("export_table")).toEqual([]);
  expect(associations("dump_schema").map((a) => a.query)).toEqual([query]);
  const after = await discover(client, query);
  expect(after[0]).toMatchObject({ id: "db:dump_schema" });
  expect(after[0].learned).toContain(query);
  expect(after.find((r) => r.id === "db:export_table")?.learned).toBeUndefined();
});

test("an intent stated when reusing a capability counts like a discover query", async () => {
  const { client } = await fx.connect();
  await save(client, "util:roll_dice", "throw n six sided dice", "return 4");
  const intent = "pick a random number for the board game turn";
  expect((await discover(client, intent))[0]?.id).not.toBe("util:roll_dice");
  await ok(client, "execute", { capability: "util:roll_dice", args: {}, intent });
  const after = await discover(client, "pick a random number for my board game");
  expect(after[0]).toMatchObject({ id: "util:roll_dice" });
  expect(after[0].learned).toContain(intent);
});

test("code the agent writes after a discover that found nothing fit is what the discover's words meant", async () => {
  const { client } = await fx.connect();
  const query = "which day of the week does christmas fall on this year";
  expect((await discover(client, query)).some((r) => r.id === "util:weekday_of_date")).toBe(false);
  // Code without a name is not a capability the words could mean: nothing is learned.
  await ok(client, "execute", { code: "return 'Friday'", args: { date: "2026-12-25" } });
  expect(associations("weekday_of_date")).toEqual([]);
  await save(client, "util:weekday_of_date", "name the weekday of a calendar date", "return 'Friday!'", { args: { date: "2026-12-25" } });
  expect(associations("weekday_of_date")).toEqual([{ query, count: 1, name: "util:weekday_of_date" }]);
  const after = await discover(client, query);
  expect(after[0]).toMatchObject({ id: "util:weekday_of_date", learned: `found before by: ${JSON.stringify(query)}` });
});

test("a result called and then abandoned for code of the agent's own gives the credit to the code", async () => {
  const { client } = await fx.connect();
  // Near twins that are not opposites (vowels and consonants are: the one is never offered for the other).
  await save(client, "util:reverse_words", "reverse the order of the words in a text", "return 3", { args: { text: "abc" } });
  const query = "shuffle the order of the words in a text";
  expect((await discover(client, query)).map((r) => r.id)).toContain("util:reverse_words");
  // Called, answered (wrongly, the agent sees), so the agent writes the code itself and names it.
  await ok(client, "cap__util__reverse_words", { text: "abc" });
  expect(associations("reverse_words").map((a) => a.query)).toEqual([query]);
  await save(client, "util:shuffle_words", "shuffle the words of a text", "return 2", { args: { text: "abc" } });
  expect(associations("reverse_words")).toEqual([]);
  expect(associations("shuffle_words").map((a) => a.query)).toEqual([query]);
});

test("another workspace does not see this one's associations, even for a capability both can read", async () => {
  const { client } = await fx.connect();
  // The user scope: read by every workspace of the user.
  await ok(client, "call", {
    tool: "learn:save",
    arguments: { name: "util:sum_column", code: "return 0", intent: "add up the numbers in one column", scope: "user" },
  });
  await save(client, "util:average_column", "average of the numbers in one column", "return 0");
  const query = "total of a spreadsheet column of invoice amounts";
  const offered = await discover(client, query);
  expect(offered.map((r) => r.id)).toContain("util:sum_column");
  await ok(client, "call", { tool: "cap:util:sum_column", arguments: {} });
  const mine = await discover(client, query);
  expect(mine[0]).toMatchObject({ id: "util:sum_column" });
  expect(mine[0].learned).toBeDefined();

  const other = (await fx.connect({ permissions: {} }, elsewhere.path)).client;
  const theirs = await discover(other, query);
  expect(theirs.map((r) => r.id)).toContain("util:sum_column"); // it is the user's: readable there
  expect(theirs.some((r) => r.learned)).toBe(false);
  // This workspace's capabilities stay out of the other's results, associations or not.
  expect(theirs.map((r) => r.id)).not.toContain("util:average_column");
  expect((await discover(other, PARAPHRASE)).map((r) => r.id)).not.toContain("transform:wrap_text");
});

test("a discover stays open for 20 of the client's calls: a result called after them is not credited", async () => {
  const { client } = await fx.connect();
  await save(client, "archive:zip_folder", "compress a folder into a zip archive", "return 'zipped'");
  await save(client, "archive:tar_folder", "pack a folder into a tar archive", "return 'tarred'");
  const query = "bundle the build output folder into one archive file";
  expect((await discover(client, query)).map((r) => r.id)).toEqual(expect.arrayContaining(["archive:zip_folder", "archive:tar_folder"]));
  for (let i = 0; i < 20; i++) await ok(client, "cap__archive__zip_folder", {});
  expect(associations("zip_folder").map((a) => a.query)).toEqual([query]);
  // The 21st call: the discover is closed, the credit stays where it was.
  await ok(client, "cap__archive__tar_folder", {});
  expect(associations("tar_folder")).toEqual([]);
  expect(associations("zip_folder").map((a) => a.query)).toEqual([query]);
});

test("a tool called by its wire name after a discover is learned like a capability", async () => {
  const { client } = await fx.connect();
  const query = "which servers are up in the background right now";
  const before = await discover(client, query, 30);
  expect(before.map((r) => r.id)).toContain("meta:servers");
  expect(before[0].id).not.toBe("meta:servers");
  await ok(client, "meta__servers", {});
  const after = await discover(client, query);
  expect(after[0]).toMatchObject({ id: "meta:servers", kind: "tool" });
  expect(after[0].learned).toContain(query);
});

test("2026-07-28 requests on one pml stdio learn as one session", async () => {
  const { client } = await fx.connect();
  await save(client, "util:moon_phase", "name the phase of the moon for a date", "return 'waxing'");
  const peer = new RawPeer([BIN], { cwd: fx.ws, env: testEnv({ PML_WORKSPACE: fx.ws, PML_HOME: fx.home }) });
  try {
    let id = 1;
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "learning-test", version: "0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const modern = async (name: string, args: Record<string, unknown>) => (await peer.request(id++, "tools/call", { name, arguments: args, _meta })).result;
    const query = "is tonight a full moon or a crescent";
    const before = parseDiscover(text(await modern("discover", { query }))).results;
    expect(before.map((r: any) => r.id)).toContain("util:moon_phase");
    expect((await modern("cap__util__moon_phase", {})).isError).toBeFalsy();
    const after = parseDiscover(text(await modern("discover", { query: "is tonight a full moon" }))).results;
    expect(after[0]).toMatchObject({ id: "util:moon_phase" });
    expect(after[0].learned).toContain(query);
  } finally {
    peer.close();
    await peer.proc.exited;
  }
});
