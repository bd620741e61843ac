// The gate's decision (src/policy/evaluate.ts) imports nothing that does I/O or keeps state
// (scripts/check-pure-policy.ts): checked on the real file, and on planted files that each reach
// out one way, so that the check is seen to catch what it is for.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { impurities, PURE_ENTRY } from "../../scripts/check-pure-policy.ts";
import { tempDir } from "../helpers/pml.ts";

const dir = tempDir();
afterAll(() => dir.cleanup());

/** A planted entry (and the files it imports), checked as the decision would be. */
function plant(files: Record<string, string>): string[] {
  const root = join(dir.path, `case-${Math.random().toString(36).slice(2)}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return impurities("entry.ts", root);
}

describe("the decision is pure", () => {
  test("src/policy/evaluate.ts and what it imports do no I/O and keep no state", () => {
    expect(impurities(PURE_ENTRY)).toEqual([]);
  });

  test("the gate, which gathers the facts, is not (the check sees through imports)", () => {
    const found = impurities("src/policy/gate.ts");
    expect(found.some((p) => p.includes("imports node:fs") && p.includes("file-targets.ts"))).toBe(true);
  });

  test("a Node module, a package or Bun's I/O, imported directly or through a helper, is caught", () => {
    expect(plant({ "entry.ts": 'import { statSync } from "node:fs";\nexport const f = () => statSync;\n' })[0]).toContain("entry.ts:1: imports node:fs");
    expect(plant({ "entry.ts": 'import * as v from "valibot";\nexport const s = v;\n' })[0]).toContain("imports valibot");
    const deep = plant({
      "entry.ts": 'import { h } from "./lib/helper.ts";\nexport const f = h;\n',
      "lib/helper.ts": 'import { readFile } from "node:fs/promises";\nexport const h = readFile;\n',
    });
    expect(deep).toEqual([expect.stringContaining("lib/helper.ts:1: imports node:fs/promises (reached by entry.ts -> lib/helper.ts)")]);
    expect(plant({ "entry.ts": "export const f = () => Bun.file('x');\n" })[0]).toContain("uses Bun.file");
  });

  test("the clock, the environment, the network, a dynamic import and module state are caught", () => {
    const found = plant({
      "entry.ts": [
        "let calls = 0;",
        "export const a = () => Date.now();",
        "export const b = () => process.env.HOME;",
        "export const c = () => fetch('https://x');",
        "export const d = () => import('./x.ts');",
        "export const e = () => new Date();",
        "export class Memo { seen = new Map(); }",
        "",
      ].join("\n"),
    });
    for (const what of ["module state", "uses Date.now", "uses process.env", "calls fetch", "a dynamic import", "reads the clock", "a class in the decision"])
      expect(found.some((p) => p.includes(what))).toBe(true);
  });

  test("types, node:path and pure computation are fine", () => {
    const found = plant({
      "entry.ts":
        'import type { Stats } from "node:fs";\nimport { type T } from "./io.ts";\nimport { join } from "node:path";\nexport const f = (s: Stats, t: T) => join(String(s), String(t), process.platform, String(Bun.hash("x")));\n',
      "io.ts": 'import { statSync } from "node:fs";\nexport type T = string;\nexport const g = statSync;\n',
    });
    expect(found).toEqual([]);
  });
});
