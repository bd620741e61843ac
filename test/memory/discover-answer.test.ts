// The answer of `discover {query}` through the compiled pml: ten results asked for with `limit`,
// each with the tool to call, a one-line description and its parameters in one line, under 4 KB even
// when every description and schema is long; more with `limit`, full schemas with `schemas: true`.
// (How many come without `limit`: discover-takeover.test.ts.)
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { SqliteCapabilityStore } from "../../src/memory/sqlite-store.ts";
import { entries, RawPeer, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { captureInput } from "./helpers.ts";
import { parseDiscover } from "../helpers/discover.ts";
import { answerText, firstSentence, readAnswer } from "../../src/gateway/tools/pml/discover-answer.ts";

const ws = tempDir("pml-discover-answer-ws-");
const home = tempDir("pml-discover-answer-home-");
let peer: RawPeer;
let id = 1;

const LONG =
  "Converts a temperature between Celsius, Fahrenheit and Kelvin, rounding to the precision asked for. " +
  "It accepts a single value or a list of values, keeps the sign of negative readings, refuses values below absolute zero " +
  "with a message that names the offending value, and returns the converted numbers together with the unit they are in. " +
  "Useful for weather reports, lab notes, recipes from other countries and any data set that mixes units. ".repeat(3);

// Distinct names: a number after a name would make them variants of one (discover shows one).
const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima", "mike", "november", "oscar"];

function schema(): Record<string, unknown> {
  const props: Record<string, unknown> = {
    value: { type: "number", description: "the reading" },
    from: { enum: ["celsius", "fahrenheit", "kelvin"] },
    to: { enum: ["celsius", "fahrenheit", "kelvin"] },
    values: { type: "array", items: { type: "number" } },
    precision: { type: "integer" },
    label: { anyOf: [{ type: "string" }, { type: "null" }] },
  };
  for (let i = 0; i < 12; i++) props[`option_number_${i}`] = { type: "boolean", description: "x".repeat(200) };
  return { type: "object", properties: props, required: ["value", "from", "to"] };
}

beforeAll(async () => {
  const store = new SqliteCapabilityStore(join(home.path, "memory.db"));
  for (let i = 0; i < 15; i++) {
    await store.capture(
      captureInput(
        { org: "local", project: "answer", owner: ws.path },
        { namespace: "util", action: `convert_temperature_for_${WORDS[i]}` },
        {
          code: `return args.value + ${i};`,
          intent: `convert a temperature between celsius fahrenheit and kelvin for ${WORDS[i]}`,
          description: LONG,
          parameters_schema: schema(),
        },
      ),
    );
  }
  store.close();
  await writeTrustedConfig(ws.path, { permissions: {} }, home.path);
  peer = new RawPeer(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
  await peer.initialize();
});

afterAll(() => {
  peer?.kill();
  ws.cleanup();
  home.cleanup();
});

const discover = async (args: Record<string, unknown>) => {
  const r = await peer.request(id++, "tools/call", { name: "discover", arguments: args });
  expect(r.result.isError).toBeUndefined();
  return r.result.content[0].text as string;
};

test("ten one-line results with the tool, a one-line description and the parameters, under 4 KB", async () => {
  const text = await discover({ query: "convert a temperature from celsius to fahrenheit", limit: 10 });
  expect(new TextEncoder().encode(text).length).toBeLessThan(4096);
  const answer = parseDiscover(text);
  expect(answer.results).toHaveLength(10);
  // One line each, after one note: fifteen twins fit as well as each other, so none is marked.
  const [note, ...lines] = text.split("\n");
  expect(note).toBe("note: several saved capabilities fit about as well: none is marked");
  expect(lines).toHaveLength(10);
  // `tool(params) — description [match]`: plain text, no JSON keys or quotes to pay for.
  expect(lines[0]).toMatch(
    /^cap__util__convert_temperature_for_\w+\(value: number, from: 'celsius'\|'fahrenheit'\|'kelvin'.*\) — Converts a temperature [^[]*( \[(strong|fair)\])?$/,
  );
  expect(text).not.toContain('"tool"');
  const top = answer.results[0];
  // What the tool name says is not said again: no id, no kind (cap__ is a capability).
  expect(lines[0]).not.toContain("; id:");
  expect(lines[0]).not.toContain("; kind:");
  expect(top.kind).toBe("capability");
  expect(top.tool).toStartWith("cap__");
  expect(answer.query).toBeUndefined(); // the agent's own words are not echoed
  expect(top.description).toStartWith("Converts a temperature between Celsius, Fahrenheit and Kelvin");
  expect(top.description.length).toBeLessThanOrEqual(110);
  expect(top.params).toStartWith("value: number, from: 'celsius'|'fahrenheit'|'kelvin'");
  expect(top.params).toMatch(/\+\d+ more$/);
  // How to call a result is said once, in discover's description, not in every answer.
  expect(answer.how).toBeUndefined();
  const listed = await peer.request(id++, "tools/list", {});
  expect(listed.result.tools.find((t: any) => t.name === "discover").description).toContain("Call a result by its tool name");
});

test("limit gives more; schemas: true gives full input schemas", async () => {
  const more = parseDiscover(await discover({ query: "convert a temperature from celsius to fahrenheit", limit: 15 }));
  expect(more.results).toHaveLength(15);
  const full = parseDiscover(await discover({ query: "convert a temperature", limit: 2, schemas: true }));
  expect(full.results[0].inputSchema).toEqual(schema());
  expect(full.results[0].params).toBeUndefined();
});

test("a tool result gives its wire name and parameters", async () => {
  const answer = parseDiscover(await discover({ query: "rename a capability to a new name", limit: 5 }));
  const rename = answer.results.find((r: any) => r.id === "dns:rename");
  expect(rename).toMatchObject({ kind: "tool", tool: "dns__rename", params: "name: string, newName: string" });
  // As sent: the tool name, not the id and kind it says.
  const raw = (await discover({ query: "rename a capability to a new name", limit: 5 })).split("\n").find((l) => l.startsWith("dns__rename("));
  expect(raw).toBeDefined();
  expect(raw).not.toContain("; id:");
  expect(raw).not.toContain("; kind:");
  // Tools' descriptions are cut shorter than capabilities' (the tool name carries most of it).
  const tools = answer.results.filter((r: any) => r.kind === "tool");
  expect(tools.length).toBeGreaterThan(0);
  for (const t of tools) expect(t.description.length).toBeLessThanOrEqual(48);
});

test("the plain answer reads back: notes, ids the tool name does not say, learned, deprecated, variants, schemas", () => {
  const results = [
    {
      tool: "cap__fs__read_json",
      description: "read a JSON file — and one field",
      params: "path: string, field?: string",
      match: "strong",
      learned: 'found before by: "settings file" (2 uses)',
    },
    { id: "acme.tools:fs:tail", kind: "team capability", description: "last lines", match: "fair", fqdn: "acme.tools.fs.tail", variants: ["fs:tail_2"] },
    { tool: "dns__rename", description: "Renames a capability", params: "name: string, newName: string", match: "weak", deprecated: "use fs:move; moved" },
    { tool: "cap__x__y", description: "no params known", match: "weak", inputSchema: { type: "object", properties: { a: { type: "string" } } } },
  ];
  const text = answerText(results, { warning: "the team registry did not answer" });
  expect(text.split("\n")[0]).toBe("warning: the team registry did not answer");
  const back = readAnswer(text);
  expect(back.warning).toBe("the team registry did not answer");
  expect(back.results).toHaveLength(4);
  expect(back.results[0]).toEqual({ id: "fs:read_json", kind: "capability", ...results[0] });
  expect(back.results[1]!.tool).toBeUndefined();
  expect(back.results[1]).toMatchObject({ id: "acme.tools:fs:tail", kind: "team capability", match: "fair", fqdn: "acme.tools.fs.tail", variants: ["fs:tail_2"] });
  expect(back.results[2]).toMatchObject({ id: "dns:rename", kind: "tool", match: "weak" });
  expect(back.results[2]!.deprecated).toStartWith("use fs:move");
  expect(back.results[3]!.inputSchema).toEqual(results[3]!.inputSchema);
  expect(readAnswer(answerText([], {})).results).toEqual([]);
  // A weak match is not marked: it is read back as weak.
  expect(text).not.toContain("[weak]");
  expect(text.split("\n")[3]).toStartWith("dns__rename(name: string, newName: string) — Renames a capability; deprecated: ");
  // A description cannot pass for a field ("; key: ") or for pml's match ("[strong]").
  const told = readAnswer(answerText([{ tool: "a__b", description: "reads a file; mode: fast [strong]", match: "weak" }], {})).results[0];
  expect(told).toMatchObject({ description: "reads a file, mode: fast (strong)", match: "weak" });
  expect(told!.mode).toBeUndefined();
  // A description with line breaks stays on its line.
  expect(answerText([{ tool: "a__b", description: "one\ntwo", match: "fair" }], {})).toBe("a__b — one two [fair]");
});

test("a description is cut at a word's end when one is near", () => {
  expect(firstSentence("Add new observations to existing entities in the knowledge graph", 48)).toBe("Add new observations to existing entities in…");
  expect(firstSentence("Supercalifragilisticexpialidociousnessandmore words", 20)).toBe("Supercalifragilisti…");
  expect(firstSentence("Short one. Second sentence.", 48)).toBe("Short one.");
});

// A hang guard, not a timing target: unbounded, this query held the process for 26 s.
test("a pasted megabyte as the query is read only up to its first 1,000 characters, and answered", async () => {
  const text = await discover({ query: `convert a temperature ${"x".repeat(1_000_000)}` });
  expect(parseDiscover(text).results[0].tool).toStartWith("cap__util__convert_temperature");
}, 10_000);
