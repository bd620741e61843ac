// dns:deprecate through the compiled pml: dns:lookup shows it; tools/list leaves a deprecated
// capability out unless pinned; discover ranks it after the others and says so, with the
// replacement; a call still runs and its result names the replacement; `deprecated: false` undoes
// it; unknown names (the capability, the replacement) are refused with a did-you-mean.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { memoryFixture, text, until, type MemoryFixture } from "./helpers.ts";
import { parseDiscover } from "../helpers/discover.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
});
afterAll(() => fx.cleanup());

const call = async (client: any, tool: string, args: Record<string, unknown>) => (await client.callTool({ name: "call", arguments: { tool, arguments: args } })) as any;
const listed = async (client: any) => ((await client.listTools()).tools as Array<{ name: string }>).map((t) => t.name).filter((n) => n.startsWith("cap__"));

test("a deprecated capability still runs, says what replaces it, leaves tools/list unless pinned and ranks last in discover; deprecated: false undoes it", async () => {
  const { client, listChanged } = await fx.connect({ permissions: { allow: ["cap"] } });
  for (const [name, code, intent] of [
    ["text:shout_words", "return String(args.text).toUpperCase()", "shout the words of a text in capital letters"],
    ["text:yell_words", "return String(args.text).toUpperCase() + '!'", "shout the words of a text in capital letters, loudly"],
  ])
    expect((await call(client, "learn:save", { name, code, intent, args: { text: "hi" } })).isError).toBeUndefined();
  expect(await listed(client)).toEqual(expect.arrayContaining(["cap__text__shout_words", "cap__text__yell_words"]));

  const before = listChanged();
  const done = await call(client, "dns:deprecate", { name: "text:shout_words", reason: "no exclamation mark", replacement: "text:yell_words" });
  expect(done.isError).toBeUndefined();
  expect(done.structuredContent).toMatchObject({ name: "text:shout_words", deprecated: { reason: "no exclamation mark", replacement: "text:yell_words" } });
  expect(done.structuredContent.note).toContain("call text:yell_words instead");
  await until(() => listChanged() > before); // the client is told its list changed

  // dns:lookup shows it.
  const look = await call(client, "dns:lookup", { name: "text:shout_words" });
  expect(look.structuredContent.deprecated).toMatchObject({ reason: "no exclamation mark", replacement: "text:yell_words" });

  // list_capabilities and dns:query say so too.
  const all = JSON.parse(text(await client.callTool({ name: "list_capabilities", arguments: {} })));
  expect(all.items.find((c: any) => c.name === "text:shout_words").deprecated).toBe("deprecated: no exclamation mark; use text:yell_words instead");
  expect(all.items.find((c: any) => c.name === "text:yell_words").deprecated).toBeUndefined();

  // Not in tools/list; pinned, it is.
  expect(await listed(client)).not.toContain("cap__text__shout_words");
  expect(await listed(client)).toContain("cap__text__yell_words");
  await call(client, "dns:pin", { name: "text:shout_words" });
  expect(await listed(client)).toContain("cap__text__shout_words");
  await call(client, "dns:pin", { name: "text:shout_words", pinned: false });
  expect(await listed(client)).not.toContain("cap__text__shout_words");

  // discover: after the one that replaces it (it matched the query as well), and says so.
  const found = parseDiscover(text(await client.callTool({ name: "discover", arguments: { query: "shout the words of a text in capital letters", limit: 10 } })));
  const ids = found.results.map((r: any) => r.id);
  expect(ids).toContain("text:shout_words");
  expect(ids.indexOf("text:yell_words")).toBeLessThan(ids.indexOf("text:shout_words"));
  const old = found.results.find((r: any) => r.id === "text:shout_words");
  expect(old.deprecated).toBe("deprecated: no exclamation mark; use text:yell_words instead");
  expect(found.results.find((r: any) => r.id === "text:yell_words").deprecated).toBeUndefined();

  // A call still works, by its tool name and from code, and names the replacement.
  const run: any = await client.callTool({ name: "cap__text__shout_words", arguments: { text: "hi" } });
  expect(run.isError).toBeUndefined();
  expect(run.structuredContent.result).toBe("HI");
  expect(run.structuredContent.deprecation).toBe("text:shout_words is deprecated (no exclamation mark): call text:yell_words instead.");

  // Undone.
  const undone = await call(client, "dns:deprecate", { name: "text:shout_words", deprecated: false });
  expect(undone.structuredContent).toMatchObject({ deprecated: false });
  expect(await listed(client)).toContain("cap__text__shout_words");
  expect((await call(client, "dns:lookup", { name: "text:shout_words" })).structuredContent.deprecated).toBeUndefined();
  const again: any = await client.callTool({ name: "cap__text__shout_words", arguments: { text: "hi" } });
  expect(again.structuredContent.deprecation).toBeUndefined();
  const rediscovered = parseDiscover(text(await client.callTool({ name: "discover", arguments: { query: "shout the words of a text in capital letters", limit: 10 } })));
  expect(rediscovered.results.find((r: any) => r.id === "text:shout_words").deprecated).toBeUndefined();
  // Not deprecated, the one whose intent is the query ranks first again (so the demotion was the deprecation's).
  expect(rediscovered.results[0].id).toBe("text:shout_words");
});

test("unknown names are refused with a did-you-mean; a replacement must exist and not be itself; bad arguments are clear", async () => {
  const { client } = await fx.connect({ permissions: { allow: ["cap"] } });
  const unknown = await call(client, "dns:deprecate", { name: "text:shout_wrds" });
  expect(unknown.isError).toBe(true);
  expect(text(unknown)).toContain("Capability not found: text:shout_wrds. Did you mean text:shout_words?");

  const noSuch = await call(client, "dns:deprecate", { name: "text:shout_words", replacement: "text:yell_word" });
  expect(noSuch.isError).toBe(true);
  expect(text(noSuch)).toContain("No capability or tool text:yell_word to use instead. Did you mean text:yell_words?");
  const self = await call(client, "dns:deprecate", { name: "text:shout_words", replacement: "text:shout_words" });
  expect(text(self)).toContain("is the capability being deprecated");
  const twoLines = await call(client, "dns:deprecate", { name: "text:shout_words", reason: "a\nb" });
  expect(text(twoLines)).toContain("must be one line");
  // A refused deprecation changed nothing.
  expect((await call(client, "dns:lookup", { name: "text:shout_words" })).structuredContent.deprecated).toBeUndefined();

  // A tool pml knows is a replacement too.
  const tool = await call(client, "dns:deprecate", { name: "text:shout_words", replacement: "dns:lookup" });
  expect(tool.structuredContent.deprecated.replacement).toBe("dns:lookup");
  await call(client, "dns:deprecate", { name: "text:shout_words", deprecated: false });
});
