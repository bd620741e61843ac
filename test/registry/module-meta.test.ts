// __meta__ is read as data, never run.
import { describe, expect, test } from "bun:test";
import { metaFromComment, metaFromExport } from "../../src/registry/module-meta.ts";

describe("module metadata", () => {
  test("plain literals: unquoted keys, single quotes, trailing commas, comments, escapes", () => {
    const js = `export const __meta__ = {
      // the tools
      type: 'deno', tools: [{ name: "a\\u0041\\n", inputSchema: { type: "object", "x-n": -1.5e2, ok: true, no: false, z: null, }, },],
      /* block */ env_required: ["K"],
    };`;
    expect(metaFromExport(js)).toEqual({
      type: "deno",
      tools: [{ name: "aA\n", inputSchema: { type: "object", "x-n": -150, ok: true, no: false, z: null } }],
      env_required: ["K"],
    });
  });

  test("anything computed is refused, nothing is evaluated", () => {
    const bad = [
      "export const __meta__ = { tools: globalThis.x };",
      "export const __meta__ = { tools: [...x] };",
      "export const __meta__ = { ...x };",
      "export const __meta__ = { [k]: 1 };",
      "export const __meta__ = { tools: `t` };",
      "export const __meta__ = { tools() { return 1 } };",
      "export const __meta__ = { tools: (() => { throw 1 })() };",
      "export const __meta__ = { a: 'unterminated };",
    ];
    for (const js of bad) expect(() => metaFromExport(js)).toThrow("__meta__ must be a plain literal");
  });

  test("__proto__ keys stay plain data", () => {
    const meta = metaFromExport(`export const __meta__ = { "__proto__": { polluted: true }, tools: [] };`) as Record<string, unknown>;
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(meta)).toEqual(["__proto__", "tools"]);
  });

  test("leading comment form is strict JSON and must come first", () => {
    expect(metaFromComment(`// __meta__: {"tools":[{"name":"a"}]}\nexport async function a() {}`)).toEqual({ tools: [{ name: "a" }] });
    expect(metaFromComment(`const x = 1;\n// __meta__: {"tools":[]}`)).toBeUndefined();
    expect(() => metaFromComment(`// __meta__: {tools: []}`)).toThrow("not valid JSON");
    expect(metaFromExport("export async function a() {}")).toBeUndefined();
  });
});
