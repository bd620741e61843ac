// Which capability names count as variants of one (discover shows one of them).
import { expect, test } from "bun:test";
import { variantGroup } from "../../src/memory/variant-group.ts";

test("a trailing version number or small counter makes a variant; other names stay apart", () => {
  expect(variantGroup("fs read json v2")).toBe("fs read json");
  expect(variantGroup("fs read json 3")).toBe("fs read json");
  expect(variantGroup("fs read json")).toBe("fs read json");
  // A word that ends the name is not a version; nor is a long number (a hash, a date).
  expect(variantGroup("fs read json pretty")).toBe("fs read json pretty");
  expect(variantGroup("util report 20261122")).toBe("util report 20261122");
  expect(variantGroup("api call v2 v3")).toBe("api call");
  // Unnamed records (no name words) belong to no group: they are never folded together.
  expect(variantGroup("")).toBeUndefined();
  expect(variantGroup("v2")).toBe("v2");
});
