// The one set of build options, shared by build.ts (dist/pml for this machine) and release.ts
// (every platform): one self-contained executable (Bun runtime + pml), minified, with bytecode
// for faster start-up, and the version and target baked in (src/version.ts). Before compiling,
// the data it embeds is generated: WordNet's synonyms, word vectors, and the third-party notices of exactly
// the packages this bundle contains (found by bundling once without compiling: ~0.1 s).
import pkg from "../package.json" with { type: "json" };
import { hostTarget } from "../src/version.ts";
import { bundledPackageDirs, ensureNoticesFile, writeThirdPartyNotices } from "./third-party-notices.ts";
import { writeWordVectors } from "./word-vectors.ts";
import { writeWordnetOpposites } from "./wordnet-opposites.ts";
import { writeWordnetSynonyms } from "./wordnet-synonyms.ts";

export interface CompileOptions {
  /** Output path; Bun appends `.exe` for Windows targets. */
  outfile: string;
  /** Bun's compile target (`bun-darwin-arm64`); omitted: this machine, with the running runtime. */
  bunTarget?: string;
  /** The name baked in for `pml --version` (`darwin-arm64`); default: this machine's. */
  target?: string;
  bytecode?: boolean;
  version?: string;
}

export interface Compiled {
  outfile: string;
  bytecode: boolean;
  /** THIRD_PARTY_NOTICES.txt for this binary (also embedded in it, for `pml licenses`). */
  notices: string;
}

/**
 * Compiles src/main.ts. If the target's runtime cannot take bytecode, builds again without it
 * (start-up is a little slower, behaviour is the same) and says so in `bytecode: false`.
 */
export async function compile(opts: CompileOptions): Promise<Compiled> {
  const bytecode = opts.bytecode ?? true;
  // Data the binary embeds, generated from devDependencies (git-ignored; tests read it from source).
  writeWordVectors();
  writeWordnetSynonyms();
  writeWordnetOpposites();
  const inputs = await bundleInputs(opts);
  const { text: notices } = writeThirdPartyNotices(inputs, opts.version ?? pkg.version);
  const expected = bundledPackageDirs(inputs);
  try {
    await buildOnce(opts, bytecode, expected);
    return { outfile: exeName(opts), bytecode, notices };
  } catch (e) {
    if (!bytecode) throw e;
    await buildOnce(opts, false, expected);
    return { outfile: exeName(opts), bytecode: false, notices };
  }
}

/** The files (relative to the working directory) that the bundle of pml is made of. */
export async function bundleInputs(opts: Pick<CompileOptions, "version" | "target">): Promise<string[]> {
  ensureNoticesFile();
  const result = await Bun.build({ ...bundleConfig(opts), metafile: true, throw: false });
  if (!result.success || !result.metafile) throw new Error(`bun build (module graph) failed:\n${result.logs.map(String).join("\n")}`);
  return Object.keys(result.metafile.inputs);
}

function bundleConfig(opts: Pick<CompileOptions, "version" | "target">) {
  return {
    // The sandbox worker is an entry of its own: workers are started from it inside the binary.
    entrypoints: ["main.ts", "sandbox/worker.ts"].map((f) => new URL(`../src/${f}`, import.meta.url).pathname),
    target: "bun",
    minify: true,
    sourcemap: "none",
    format: "esm",
    // One file per dynamically imported part: Bun hoists every builtin import (`bun:sql`,
    // `node:crypto`, `readline`...) of a single-file bundle to its top, so lazy modules still loaded
    // theirs before `initialize` was answered (~8 ms of a 30 ms start-up).
    splitting: true,
    define: {
      PML_VERSION: JSON.stringify(opts.version ?? pkg.version),
      PML_TARGET: JSON.stringify(opts.target ?? hostTarget()),
      // Inside the binary, entries sit relative to src/ (the entries' common folder).
      PML_SANDBOX_WORKER: JSON.stringify("./sandbox/worker.ts"),
    },
  } satisfies Bun.BuildConfig;
}

async function buildOnce(opts: CompileOptions, bytecode: boolean, expectedPackages: string[]): Promise<void> {
  const result = await Bun.build({
    ...bundleConfig(opts),
    bytecode,
    metafile: true,
    compile: {
      outfile: opts.outfile,
      // pml reads the workspace .env itself (src/env/env-resolver.ts) and a cloned repository's
      // bunfig.toml must not configure (or preload code into) pml: the runtime loads neither.
      autoloadDotenv: false,
      autoloadBunfig: false,
      ...(opts.bunTarget ? { target: opts.bunTarget as Bun.Build.CompileTarget } : {}),
    },
    throw: false,
  });
  if (!result.success) throw new Error(`bun build ${opts.bunTarget ?? "(this machine)"} failed:\n${result.logs.map(String).join("\n")}`);
  // The notices were written from the graph of a bundle without `compile`; had the compile step
  // bundled other packages, they would be wrong: refuse rather than ship them.
  const compiled = result.metafile ? bundledPackageDirs(Object.keys(result.metafile.inputs)) : [];
  if (compiled.join("\n") !== expectedPackages.join("\n")) {
    throw new Error(
      `bun build ${opts.bunTarget ?? "(this machine)"}: the compiled bundle's packages differ from those the third-party notices were written for (only in the binary: ${compiled.filter((d) => !expectedPackages.includes(d)).join(", ") || "none"}; only in the notices: ${expectedPackages.filter((d) => !compiled.includes(d)).join(", ") || "none"}); make bundleConfig in scripts/compile.ts describe the compile step`,
    );
  }
}

function exeName(opts: CompileOptions): string {
  const windows = (opts.bunTarget ?? `bun-${hostTarget()}`).startsWith("bun-windows");
  return windows && !opts.outfile.endsWith(".exe") ? `${opts.outfile}.exe` : opts.outfile;
}
