// meta:tools groups the tools pml knows by namespace; a namespace is whatever name a server was
// given (.pml.json, a registry), so one named like an object's own members is a namespace too.
import { expect, test } from "bun:test";
import { tools } from "../../src/gateway/tools/meta/tools.ts";
import type { StdlibContext } from "../../src/gateway/tools/stdlib-namespace.ts";

const known = [
  ["constructor", "a"],
  ["__proto__", "b"],
  ["constructor", "c"],
  ["toString", "d"],
  ["fs", "read_file"],
].map(([ns, name]) => ({ ns: ns!, tool: { name: name! } }));
const ctx = { deps: { backends: { allKnownTools: () => known } } } as unknown as StdlibContext;

test("namespaces named constructor, __proto__ or toString are listed with their tools, as any other", async () => {
  const r = (await tools.call({}, ctx, "meta:tools")) as { namespaces: Record<string, string[]> };
  // As the client reads it: the JSON text.
  const listed = Object.entries(JSON.parse(JSON.stringify(r)).namespaces);
  expect(listed).toEqual([
    ["constructor", ["a", "c"]],
    ["__proto__", ["b"]],
    ["toString", ["d"]],
    ["fs", ["read_file"]],
  ]);
  const one = (await tools.call({ namespace: "constructor" }, ctx, "meta:tools")) as { namespaces: Record<string, string[]> };
  expect(Object.entries(JSON.parse(JSON.stringify(one)).namespaces)).toEqual([["constructor", ["a", "c"]]]);
});
