// The key a misspelled argument most likely meant (messages for unknown arguments).
import { expect, test } from "bun:test";
import { closest, unknownKeyHint } from "../../src/gateway/dispatch/did-you-mean.ts";

test("closest: case, _ and -, a swap, a few edits; nothing for a word too far", () => {
  expect(closest("namedOnly", ["named_only", "namespace"])).toBe("named_only");
  expect(closest("nmae", ["name", "newName"])).toBe("name");
  expect(closest("tag", ["tags", "name"])).toBe("tags");
  expect(closest("min_usge", ["unnamed_only", "namespace", "min_usage"])).toBe("min_usage");
  expect(closest("search", ["query", "namespace", "limit"])).toBeUndefined();
  expect(closest("ab", ["xy"])).toBeUndefined();
});

test("unknownKeyHint: the near key, else the keys it takes, else nothing", () => {
  expect(unknownKeyHint("cod", ["code", "args"])).toBe(' (did you mean "code"?)');
  expect(unknownKeyHint("search", ["query", "limit"])).toBe(' (it takes "query", "limit")');
  expect(unknownKeyHint("x", [])).toBe("");
});
