// Syntax and runtime errors of agent code through the compiled pml: code that ends early is said so
// (not "Unexpected }", the wrapper's brace), and a position is one in the user's code, never doubled
// with one from a capability's or pml's own module code.
import { afterAll, expect, test } from "bun:test";
import { memoryFixture, text } from "./helpers.ts";

const fx = memoryFixture();
afterAll(() => fx.cleanup());

const call = async (client: any, tool: string, args: Record<string, unknown>) => (await client.callTool({ name: "call", arguments: { tool, arguments: args } })) as any;

test("code that ends early is said so, and positions are in the user's code only (never doubled)", async () => {
  const { client } = await fx.connect();
  const early = await call(client, "learn:save", { name: "fs:ends_early", code: "return ((" });
  expect(text(early)).toContain("does not parse");
  expect(text(early)).toContain("the code ends before it is complete");
  expect(text(early)).not.toContain("Unexpected }");
  // A "}" of the user's own is still named.
  expect(text(await call(client, "learn:save", { name: "fs:stray_brace", code: "return 1 }" }))).toContain("Unexpected }");
  const run: any = await client.callTool({ name: "execute", arguments: { code: "return ((" } });
  expect(text(run)).toContain("the code does not end properly");
  expect(text(run)).toContain("(line 1)");

  await call(client, "learn:save", { name: "util:fail_now", code: "const a = 1;\nconst b = 2;\nthrow new Error('inner boom')" });
  const nested: any = await client.callTool({ name: "execute", arguments: { code: "const q = 1;\nreturn await mcp.cap.util__fail_now({})" } });
  expect(text(nested)).toContain("inner boom (line 2, column 36)\n");
  expect(text(nested)).not.toContain("(line 3");
  const module: any = await client.callTool({ name: "execute", arguments: { code: "const a = 1;\n\nreturn await mcp.filesystem.read_file({ path: 'nope.txt' })" } });
  expect(text(module)).toMatch(/does not exist in the workspace \S+ \(line 3, column 38\)\n/);
  expect(text(module).match(/\(line \d+[^)]*\)/g)).toEqual(["(line 3, column 38)"]);
  const direct: any = await client.callTool({ name: "filesystem__read_file", arguments: { path: "nope.txt" } });
  expect(text(direct)).toContain("does not exist");
  expect(text(direct)).not.toContain("(line");
});

// Issue 45 item 7: a position is the line and column in the code the agent sent, never pml's wrapper.
test("a one-line execute program: a throw and a syntax error are at line 1, with the column", async () => {
  const { client } = await fx.connect();
  const thrown: any = await client.callTool({ name: "execute", arguments: { code: 'throw new Error("x")' } });
  expect(thrown.isError).toBe(true);
  expect(text(thrown)).toBe("Error: x (line 1, column 16)");
  const syntax: any = await client.callTool({ name: "execute", arguments: { code: "const a = ;" } });
  expect(text(syntax)).toBe("SyntaxError: unexpected token in expression: ';' (line 1, column 11)");
  const second: any = await client.callTool({ name: "execute", arguments: { code: "const a = 1;\n  return a.b.c" } });
  expect(text(second)).toBe("TypeError: cannot read property 'c' of undefined (line 2, column 13)");
});
