// How a saved schema is read (parameters.ts readSavedParameters): an integer pml once inferred from a
// whole number is a number now; whatever else is saved, malformed included, is kept as it is.
import { expect, test } from "bun:test";
import { inferParameters, readSavedParameters } from "../../src/memory/parameters.ts";

test("a number is inferred as a number, and a saved inferred integer is read as one; a declared integer is kept", () => {
  expect(inferParameters({ rate: 5, label: "x" })).toEqual({
    type: "object",
    properties: { rate: { type: "number", examples: [5] }, label: { type: "string", examples: ["x"] } },
    required: ["rate", "label"],
  });
  const saved = {
    type: "object",
    properties: {
      rate: { type: "integer", examples: [5] },
      n: { type: "integer", minimum: 1 },
      two: { type: "integer", examples: [1, 2] },
      odd: { type: "integer", examples: [4.5] },
      d: { type: "integer", description: "days", examples: [3] },
    },
    required: ["rate"],
  };
  const read = readSavedParameters(saved, {}) as { properties: Record<string, { type: string }> };
  expect(Object.fromEntries(Object.entries(read.properties).map(([k, p]) => [k, p.type]))).toEqual({ rate: "number", n: "integer", two: "integer", odd: "integer", d: "integer" });
  // A saved pre-issue-23 default of a whole number becomes an example, and a number.
  expect(readSavedParameters({ type: "object", properties: { n: { type: "integer", default: 3 } } }, { n: 3 })).toEqual({
    type: "object",
    properties: { n: { type: "number", examples: [3] } },
    required: ["n"],
  });
});

test("a malformed saved schema is returned as it is, without throwing", () => {
  for (const schema of [
    null,
    {},
    { properties: null },
    { properties: "x" },
    { properties: [null, 1] },
    { properties: { a: null, b: "integer", c: { type: "integer", examples: "5" } } },
  ])
    expect(readSavedParameters(schema as never, null)).toEqual(schema as never);
});
