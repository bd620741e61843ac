// discover finds by meaning (issue 24): word vectors built into the binary are fused with the
// lexical score, so a request sharing no word with a capability still finds it; each capability's
// vector is made when it is saved and kept in memory.db (a later process reads it, it does not
// make it again); without the vectors file discover ranks by words alone, with no error; pml's own
// tools (dns, meta, learn) rank below task tools unless the request is about capabilities.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { CapabilityDiscovery } from "../../src/memory/discover.ts";
import { readWordVectors } from "../../src/memory/word-vectors.ts";
import { captureInput, memoryFixture, storeFixture, text, type MemoryFixture } from "./helpers.ts";
import { parseDiscover } from "../helpers/discover.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

const CAPS: Array<[string, string]> = [
  ["util:convert_length_units", "convert a distance between metric and imperial units"],
  ["transform:wrap_text", "wrap text at a given column width"],
  ["util:word_count", "count words and characters in a text"],
  ["transform:slugify_title", "make a URL slug from a title"],
  ["util:format_bytes", "turn a byte count into a human readable size like 1.2 MB"],
  ["fs:read_json", "read a JSON file and parse it"],
  ["git:recent_commits", "show the last commits with author and message"],
];

async function saveAll(client: any, caps: ReadonlyArray<readonly [string, string]> = CAPS): Promise<void> {
  for (const [name, intent] of caps) {
    const r: any = await client.callTool({ name: "execute", arguments: { code: `return ${JSON.stringify({ capability: name })};`, intent, name } });
    if (r.isError) throw new Error(text(r));
  }
}

const ask = async (client: any, query: string): Promise<string[]> =>
  parseDiscover(text(await client.callTool({ name: "discover", arguments: { query } }))).results.map((r: any) => r.id);

/** A session with `caps` saved: ask it a request, get the ids of discover's answer. */
async function sessionWith(caps: ReadonlyArray<readonly [string, string]>): Promise<(query: string) => Promise<string[]>> {
  const { client } = await fx.connect();
  await saveAll(client, caps);
  return (query) => ask(client, query);
}

/** `a` is in the answer, above `b` (or `b` is not in it). */
const before = (ids: string[], a: string, b: string) => ids.indexOf(a) >= 0 && (ids.indexOf(b) < 0 || ids.indexOf(a) < ids.indexOf(b));

const vectors = (db: Database) =>
  db
    .query(
      "SELECT c.namespace || ':' || c.action AS name, v.model, v.source, hex(v.vector) AS bytes FROM capability_vectors v JOIN capabilities c ON c.id = v.capability_id ORDER BY name",
    )
    .all() as Array<{
    name: string;
    model: string;
    source: string;
    bytes: string;
  }>;

test("each capability's vector is made once and kept, and a later process reads it instead of making it again", async () => {
  const { client } = await fx.connect();
  const [first, ...rest] = CAPS;
  await saveAll(client, [first!]);
  // A process that has not discovered yet does not load the vectors to save: none kept so far.
  expect(vectors(fx.db())).toEqual([]);
  // Its first discover makes what is missing and writes it back; from then on a save keeps its own.
  await ask(client, "anything at all");
  expect(vectors(fx.db()).map((k) => k.name)).toEqual([first![0]]);
  await saveAll(client, rest);
  const db = fx.db();
  const kept = vectors(db);
  expect(kept.map((k) => k.name)).toEqual(CAPS.map(([n]) => n).sort());
  for (const k of kept) {
    expect(k.model).toBe(readWordVectors(new URL("../../src/memory/generated/word-vectors.bin", import.meta.url).pathname)!.model);
    expect(k.bytes.length).toBe(2 * 104); // a float32 scale and 100 int8
  }
  // A vector kept for the current text is used as it is: one changed in the file stays changed
  // after another process's discover (it would have been made again and written back otherwise).
  const rw = new Database(join(fx.home, "memory.db"));
  const wrap = kept.find((k) => k.name === "transform:wrap_text")!;
  const altered = `0000803F${"01".repeat(100)}`;
  rw.run("UPDATE capability_vectors SET vector = ?1 WHERE source = ?2", [Buffer.from(altered, "hex"), wrap.source]);
  // One kept for other text (an older recipe, a renamed record) is made again and written back.
  const json = kept.find((k) => k.name === "fs:read_json")!;
  rw.run("UPDATE capability_vectors SET source = 'stale' WHERE source = ?1", [json.source]);
  rw.close();
  const later = await fx.connect();
  await ask(later.client, "anything at all");
  const after = vectors(fx.db());
  expect(after.find((k) => k.name === "transform:wrap_text")!.bytes).toBe(altered);
  expect(after.find((k) => k.name === "fs:read_json")).toEqual(json);
  // The altered one goes, so the tests after this one rank with a real vector (made again at their discover).
  const clean = new Database(join(fx.home, "memory.db"));
  clean.run("DELETE FROM capability_vectors WHERE source = ?1", [wrap.source]);
  clean.close();
});

test("requests that share no word with the capability find it by meaning (top 5)", async () => {
  const { client } = await fx.connect();
  await saveAll(client); // the same code again: the records are reused, their vectors restored
  expect((await ask(client, "how many feet is 3 meters")).slice(0, 5)).toContain("util:convert_length_units");
  expect((await ask(client, "reflow a paragraph so nothing runs past 80 characters")).slice(0, 5)).toContain("transform:wrap_text");
});

test("pml's own tools rank below task tools for a task, and not for a request about capabilities", async () => {
  const { client } = await fx.connect();
  const own = (id: string) => /^(dns|meta|learn):/.test(id);
  const people = await ask(client, "remember facts about people");
  const task = people.findIndex((id) => id === "memory:create_entities" || id === "memory:add_observations");
  expect(task).toBeGreaterThanOrEqual(0);
  const firstOwn = people.findIndex(own);
  if (firstOwn >= 0) expect(task).toBeLessThan(firstOwn);
  // About capabilities' versions and names: pml's own tools are the answer.
  expect((await ask(client, "show the history of versions of a capability")).slice(0, 3)).toContain("dns:history");
  expect((await ask(client, "rename a capability")).slice(0, 3)).toContain("dns:rename");
});

test("without the word vectors file discover ranks by words alone, with no error", async () => {
  const { dir, store, scope, settings, cleanup } = storeFixture("pml-mem-novectors-");
  try {
    await store.capture(captureInput(scope, { namespace: "fs", action: "read_json" }, { intent: "read a JSON file and parse it" }));
    const finder = new CapabilityDiscovery(
      async () => store,
      async () => readWordVectors(join(dir, "no-such-file.bin")),
    );
    const found = await finder.discover(settings, "parse a json file", []);
    expect(found.warning).toBeUndefined();
    expect(found.results[0]?.id).toBe("fs:read_json");
    // Nothing is kept without vectors, and nothing fails for it.
    expect(store.db.query("SELECT COUNT(*) AS n FROM capability_vectors").get()).toEqual({ n: 0 });
  } finally {
    cleanup();
  }
});

test("a tool of a server not set up is left out when its twin (same name, another server) is in the answer", async () => {
  const twins = async (cfg: Record<string, unknown>) => {
    const { client } = await fx.connect(cfg);
    const found = await ask(client, "create a new directory");
    return { builtin: found.includes("filesystem:create_directory"), catalog: found.includes("server_filesystem:create_directory") };
  };
  // The built-in filesystem module is there; the catalog's filesystem server is offered, not set up.
  expect(await twins({ permissions: { allow: ["filesystem"] } })).toEqual({ builtin: true, catalog: false });
  // Set up (allowed): both are the user's, both answer.
  expect(await twins({ permissions: { allow: ["filesystem", "server_filesystem"] } })).toEqual({ builtin: true, catalog: true });
});

test("a request's values are read as their kind: a cron line, a colour, a roman numeral find the capability that takes them", async () => {
  const asked = await sessionWith([
    ["util:explain_cron", "explain when a cron expression fires next"],
    ["util:hex_to_rgb", "convert a hex color code to rgb values"],
    ["util:from_roman", "convert roman numerals to integers"],
  ]);
  expect((await asked("when does 0 5 * * 1 go off")).slice(0, 3)).toContain("util:explain_cron");
  expect((await asked("split #336699 into its parts")).slice(0, 3)).toContain("util:hex_to_rgb");
  expect((await asked("MCMXCIV in digits")).slice(0, 3)).toContain("util:from_roman");
});

test("a near-twin the request's data contradicts ranks below the one it fits: °F→°C for 68 F, lines for a .txt", async () => {
  const asked = await sessionWith([
    ["util:celsius_to_fahrenheit", "convert a temperature from celsius to fahrenheit"],
    ["util:fahrenheit_to_celsius", "convert a temperature from fahrenheit to celsius"],
    ["fs:count_csv_rows", "count the data rows of a CSV file, without the header"],
    ["fs:count_lines", "count the non-empty lines in a text file"],
  ]);
  expect(before(await asked("the forecast says 68 degrees F, how warm is that for a European?"), "util:fahrenheit_to_celsius", "util:celsius_to_fahrenheit")).toBe(true);
  expect(before(await asked("what is 21 °C for an American?"), "util:celsius_to_fahrenheit", "util:fahrenheit_to_celsius")).toBe(true);
  expect(before(await asked("guests.txt has a person on each row, how many people is that?"), "fs:count_lines", "fs:count_csv_rows")).toBe(true);
  expect(before(await asked("people.csv has a person on each row, how many people is that?"), "fs:count_csv_rows", "fs:count_lines")).toBe(true);
});

test("the data a request carries (quoted text, a path) is what it works on, not what it asks for", async () => {
  const asked = await sessionWith([
    ["report:quarterly_sales", "summarize the quarterly sales review"],
    ["transform:title_case", "capitalize each word of a phrase so it reads as a headline"],
    ["notes:meeting_minutes", "list the team's meeting notes and minutes"],
    ["fs:count_words", "count the words in a text file"],
  ]);
  // The capability named after the data ranked first before; the one for the task now ranks above it.
  expect(before(await asked("make 'quarterly SALES review' look like a headline"), "transform:title_case", "report:quarterly_sales")).toBe(true);
  expect(before(await asked("how many words are in team/meeting-notes/minutes.txt"), "fs:count_words", "notes:meeting_minutes")).toBe(true);
});

test("an intent or description that is a pasted text is refused with its limit, and nothing is saved", async () => {
  const { client } = await fx.connect();
  await saveAll(client, [["util:short_enough", "a line that says what it is for"]]);
  const long = "word ".repeat(200); // 1,000 characters
  for (const [tool, args] of [
    ["execute", { code: "return 1", name: "util:too_long_intent", intent: long }],
    ["execute", { code: "return 2", name: "util:too_long_description", intent: "short", description: long.repeat(3) }],
    ["call", { tool: "filesystem:list_directory", arguments: { path: "." }, intent: long }],
  ] as const) {
    const r: any = await client.callTool({ name: tool, arguments: args });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/(intent|description).*at most (500|2000) characters/);
  }
  expect(fx.db().query("SELECT COUNT(*) AS n FROM capabilities WHERE action LIKE 'too_long%'").get()).toEqual({ n: 0 });
});

test("a word no capability uses finds one through its WordNet definition: a furlong is a unit of length", async () => {
  const asked = await sessionWith([
    ["util:convert_length_units", "convert a distance between metric and imperial units"],
    ["util:next_business_day", "the next working day after a date, skipping weekends"],
    ["util:days_between_dates", "number of days between two dates"],
  ]);
  // furlong: "a unit of length equal to 220 yards" (it ranked third, below two date capabilities).
  expect((await asked("how long is a furlong"))[0]).toBe("util:convert_length_units");
});

test("a two-word verb is read as WordNet reads it: to add up the hours is to sum them, not to average them", async () => {
  const asked = await sessionWith([
    ["fs:sum_csv_column", "sum a numeric column of a CSV file"],
    ["fs:average_csv_column", "average of a numeric column in a CSV file"],
  ]);
  // "add up" is sum, total, tally; "add" and "up" alone say nothing of it (average came first).
  expect((await asked("add up all the hours logged in timesheets/week12.csv"))[0]).toBe("fs:sum_csv_column");
});
