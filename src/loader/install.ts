// Turns a stdio descriptor into a launch spec, installing its npm package on first use.
//
// npm packages go to <PML_HOME>/deps/<name>@<version>/ and run on pml's own runtime: the pml
// executable started with BUN_BE_BUN=1 behaves as the bun CLI (`bun install`, `bun <file>`), so
// users need neither Node nor npx. Before anything from a package can run (not even its install
// scripts), pml downloads the tarball itself, checks its SHA-512 against the pinned SRI, and only
// then lets bun install from that verified local file, with --ignore-scripts. The package's own
// dependencies are checked by bun against their registry integrity.
//
// Races: concurrent first calls in one process share one install (in-flight map); several pml
// processes each install into a private temp directory and rename it into place, so a reader
// sees a complete install or none. The directory (with its .pml-install.json marker) is the
// truth; <PML_HOME>/deps.json is the summary other parts read (atomic, locked updates).
//
// Placeholders in descriptor `args`: ${workspace} (the project root) and ${pml_home} (PML_HOME or
// ~/.pml). The child's environment comes from the environment resolver.
import { HttpError, httpRequest, type HttpResponse } from "../http/request.ts";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import * as v from "valibot";
import { withFileLock, writeFileAtomic } from "../fs/atomic.ts";
import { baseEnv, substitutePmlPlaceholders, type EnvPlan } from "../env/env-resolver.ts";
import { missingMessage } from "../env/env-text.ts";
import { pmlHome } from "../config/paths.ts";
import { ToolError } from "../mcp/tool-result.ts";
import type { LaunchSpec } from "../pool/launch.ts";
import type { StdioDescriptor } from "../registry/descriptor.ts";

type Env = Record<string, string | undefined>;

export interface InstallOptions {
  signal?: AbortSignal;
  progress?(message: string): void;
  /** pml's environment: PML_HOME, the npm registry, and the basics a child inherits (PATH, HOME...).
   * Default process.env. */
  env?: Env;
  /** The project root: ${workspace}, the .env lookup, the server's working directory. */
  workspace?: string;
  /** The namespace, for messages ("memory"). */
  name?: string;
  /** Which variables the server receives, as the environment resolver decided them
   * (src/env/env-resolver.ts). Required: no caller gets a grant by forgetting it. */
  plan: EnvPlan;
}

const MARKER = ".pml-install.json";
const DEFAULT_REGISTRY = "https://registry.npmjs.org";

const MarkerSchema = v.object({
  name: v.string(),
  version: v.string(),
  integrity: v.string(),
  /** The bin script, relative to the install directory. */
  bin: v.string(),
  installedAt: v.string(),
});
type Marker = v.InferOutput<typeof MarkerSchema>;

export interface DepsState {
  version: 1;
  packages: Record<string, Marker & { dir: string }>;
}

/** The npm registry pml downloads from: PML_NPM_REGISTRY, else npm_config_registry, else npmjs. */
export function npmRegistryUrl(env: Env = process.env): string {
  const url = env.PML_NPM_REGISTRY?.trim() || env.npm_config_registry?.trim() || env.NPM_CONFIG_REGISTRY?.trim() || DEFAULT_REGISTRY;
  return url.replace(/\/+$/, "");
}

/** npm SRI of some bytes: "sha512-<base64>". */
export function sri512(bytes: Uint8Array | ArrayBuffer): string {
  return `sha512-${new Bun.CryptoHasher("sha512").update(bytes).digest("base64")}`;
}

function label(desc: StdioDescriptor, name?: string): string {
  const what = desc.package ? `${desc.package.identifier}@${desc.package.version}` : (desc.command ?? "server");
  return name ? `MCP server "${name}" (${what})` : `MCP server ${what}`;
}

const substitute = substitutePmlPlaceholders;

/** The child's complete environment: the basics from pml's own plus what the plan grants; a
 * missing required variable is a ToolError naming it. */
function childEnv(desc: StdioDescriptor, opts: InstallOptions, env: Env, workspace: string): Record<string, string> {
  const plan = opts.plan;
  if (plan.missing.length) throw new ToolError(missingMessage(plan, label(desc, opts.name), workspace));
  return { ...baseEnv(env), ...plan.env };
}

/** Bun loads the .env of its working directory (the workspace) into a script's environment on
 * its own: a server run on Bun would get every key there, whatever the resolver decided. */
const NO_ENV_FILE = "--no-env-file";

/** Where no node_modules folder is above a module (one a server generates in the temp folder, a
 * private script in a workspace with nothing installed), Bun fetches a bare import it cannot resolve
 * from the registry at run time: unpinned, from the registry the workspace's .npmrc names. */
const NO_AUTO_INSTALL = "--no-install";

/** Bun also reads the bunfig.toml of its working directory (the workspace, which a cloned repository
 * or code sent to `execute` may write): its `preload` would run that code inside the server, before
 * it, with every variable the server was given. An empty config is read instead; a private server
 * that wants a bunfig names it in its own args (`--config ./bunfig.toml`: the last one counts). */
function noBunfig(home: string): string {
  if (process.platform !== "win32") return "--config=/dev/null";
  const empty = join(home, "empty-bunfig.toml");
  if (!existsSync(empty)) {
    mkdirSync(home, { recursive: true });
    writeFileSync(empty, "");
  }
  return `--config=${empty}`;
}

function isBun(command: string): boolean {
  return /^bun(\.exe)?$/i.test(basename(command));
}

/** Where an npm package is (or would be) installed. */
export function installDir(identifier: string, version: string, env: Env = process.env): string {
  return join(pmlHome(env), "deps", `${identifier}@${version}`);
}

const inflight = new Map<string, Promise<Marker>>();

/**
 * The launch spec for a stdio descriptor. `command` descriptors are returned as they are (with
 * placeholders substituted); npm packages are installed first if needed. Throws ToolError for a
 * missing env var (before anything else), a failed download, an integrity mismatch, or a failed
 * install. Progress: "installing <pkg>@<version>", "verifying integrity".
 */
export async function ensureInstalled(desc: StdioDescriptor, opts: InstallOptions): Promise<LaunchSpec> {
  const env = opts.env ?? process.env;
  const workspace = resolve(opts.workspace ?? process.cwd());
  const home = pmlHome(env);
  const child = childEnv(desc, opts, env, workspace);

  const pkg = desc.package;
  if (!pkg) {
    if (!desc.command) throw new ToolError(`${label(desc, opts.name)} has neither "command" nor "package": its descriptor cannot be started. Add one of them.`);
    const command = substitute(desc.command, workspace, home);
    const args = (desc.args ?? []).map((a) => substitute(a, workspace, home));
    // `bun x` refuses a --config, and --no-install stops it installing the package it was asked
    // for (its child runtime never gets the flag): a bunfig and auto-install still apply there.
    const bunArgs = () => (args[0] === "x" ? [NO_ENV_FILE, ...args] : [NO_ENV_FILE, NO_AUTO_INSTALL, noBunfig(home), ...args]);
    return { command, args: isBun(command) ? bunArgs() : args, env: child, cwd: workspace };
  }
  if (!desc.integrity) {
    throw new ToolError(
      `${label(desc, opts.name)} has no pinned integrity, so pml will not install it. Add "integrity" (the output of \`npm view ${pkg.identifier}@${pkg.version} dist.integrity\`) to its descriptor.`,
    );
  }

  const dir = installDir(pkg.identifier, pkg.version, env);
  let marker = readMarker(dir, desc.integrity);
  if (!marker) {
    let p = inflight.get(dir);
    if (!p) {
      p = install(desc, dir, env, home, opts).finally(() => inflight.delete(dir));
      inflight.set(dir, p);
    }
    marker = await p;
  }
  const args = pkg.args ?? desc.args ?? [];
  return {
    command: process.execPath,
    args: [NO_ENV_FILE, NO_AUTO_INSTALL, noBunfig(home), join(dir, marker.bin), ...args.map((a) => substitute(a, workspace, home))],
    env: { ...child, BUN_BE_BUN: "1" },
    cwd: workspace,
  };
}

/** A complete install of exactly this integrity, or undefined. */
function readMarker(dir: string, integrity: string): Marker | undefined {
  try {
    const m = v.parse(MarkerSchema, JSON.parse(readFileSync(join(dir, MARKER), "utf8")));
    return m.integrity === integrity && existsSync(join(dir, m.bin)) ? m : undefined;
  } catch {
    return undefined;
  }
}

async function install(desc: StdioDescriptor, dir: string, env: Env, home: string, opts: InstallOptions): Promise<Marker> {
  const pkg = desc.package!;
  const integrity = desc.integrity!;
  const key = `${pkg.identifier}@${pkg.version}`;
  const progress = opts.progress ?? (() => {});
  progress(`installing ${key}`);

  const registry = npmRegistryUrl(env);
  const tarball = await download(pkg.identifier, pkg.version, registry, opts.signal);
  progress("verifying integrity");
  const got = sri512(tarball);
  if (got !== integrity) {
    // Nothing was written yet: the bytes never touched the disk, nothing ran.
    throw new ToolError(`Integrity check failed for ${key}: expected ${integrity}, got ${got}`);
  }

  const depsDir = join(home, "deps");
  mkdirSync(depsDir, { recursive: true });
  const tmp = join(depsDir, `.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  try {
    mkdirSync(tmp);
    await writeFile(join(tmp, "package.tgz"), tarball);
    await writeFile(join(tmp, "package.json"), JSON.stringify({ name: "pml-installed-dependency", private: true, dependencies: { [pkg.identifier]: "./package.tgz" } }, null, 2));
    await runBunInstall(tmp, registry, home, env, key, opts.signal);
    const bin = findBin(tmp, pkg.identifier, pkg.version, pkg.bin, key);
    const marker: Marker = { name: pkg.identifier, version: pkg.version, integrity, bin, installedAt: new Date().toISOString() };
    await writeFile(join(tmp, MARKER), JSON.stringify(marker, null, 2));
    await rm(join(tmp, "package.tgz"), { force: true });
    await moveIntoPlace(tmp, dir, integrity);
    await recordInstall(home, dir, marker);
    return readMarker(dir, integrity) ?? marker;
  } finally {
    await rm(tmp, { recursive: true, force: true }).catch(() => {});
  }
}

const DOWNLOAD_TIMEOUT_MS = 120_000;
const MAX_TARBALL_BYTES = 256 * 1024 * 1024;

async function download(name: string, version: string, registry: string, signal?: AbortSignal): Promise<Uint8Array> {
  const unscoped = name.startsWith("@") ? name.slice(name.indexOf("/") + 1) : name;
  let url = `${registry}/${name}/-/${unscoped}-${version}.tgz`;
  let res = await get(url, registry, name, version, signal);
  if (res.status === 404) {
    await res.cancel();
    // Not every registry uses npm's tarball URL layout: ask the packument where it is.
    const doc = await get(`${registry}/${name.replace("/", "%2f")}`, registry, name, version, signal);
    const tarball = doc.ok ? (tryJson((await read(doc, "text", name, version, registry, signal)) as string) as any)?.versions?.[version]?.dist?.tarball : undefined;
    if (typeof tarball !== "string") {
      throw new ToolError(
        `${name}@${version} was not found on the npm registry ${registry} (HTTP ${doc.status}). Check the package name and version in its descriptor, or set PML_NPM_REGISTRY.`,
      );
    }
    url = tarball;
    res = await get(url, registry, name, version, signal);
  }
  if (!res.ok) {
    await res.cancel();
    throw new ToolError(`Downloading ${name}@${version} from ${url} failed: HTTP ${res.status}. Retry later, or set PML_NPM_REGISTRY to a registry that has it.`);
  }
  return (await read(res, "bytes", name, version, registry, signal)) as Uint8Array;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// The tarball is checked against its pinned integrity before anything is written, so a registry
// on plain http (a company mirror) or a redirect to its CDN cannot change what runs.
async function get(url: string, registry: string, name: string, version: string, signal?: AbortSignal): Promise<HttpResponse> {
  try {
    return await httpRequest(url, {
      signal,
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      what: "npm registry",
      headers: { accept: "application/octet-stream, application/json" },
      redirects: "anywhere",
      plainHttp: true,
      maxBytes: MAX_TARBALL_BYTES,
    });
  } catch (e) {
    throw installFailure(e, registry, name, version, signal);
  }
}

async function read(res: HttpResponse, as: "text" | "bytes", name: string, version: string, registry: string, signal?: AbortSignal): Promise<string | Uint8Array> {
  try {
    return as === "text" ? await res.text() : await res.bytes();
  } catch (e) {
    throw installFailure(e, registry, name, version, signal);
  }
}

function installFailure(e: unknown, registry: string, name: string, version: string, signal?: AbortSignal): unknown {
  if (signal?.aborted) return new ToolError(`Installing ${name}@${version} was cancelled.`);
  if (e instanceof HttpError && e.kind !== "unreachable" && e.kind !== "timeout") return new ToolError(`Installing ${name}@${version}: ${e.message}`);
  return new ToolError(
    `Could not reach the npm registry ${registry} to install ${name}@${version}: ${(e as Error)?.message ?? e}. Check the network connection, or set PML_NPM_REGISTRY to a reachable registry.`,
  );
}

async function runBunInstall(cwd: string, registry: string, home: string, env: Env, key: string, signal?: AbortSignal): Promise<void> {
  const proc = Bun.spawn([process.execPath, "install", "--ignore-scripts", "--production", "--no-progress", "--no-save", "--registry", registry], {
    cwd,
    env: {
      ...baseEnv(env),
      BUN_BE_BUN: "1",
      BUN_CONFIG_REGISTRY: registry,
      // pml's downloads stay under PML_HOME, not in a bun cache the user may not know about.
      BUN_INSTALL_CACHE_DIR: join(home, "deps", ".cache"),
      NO_COLOR: "1",
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const onAbort = () => proc.kill("SIGKILL");
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (signal?.aborted) throw new ToolError(`Installing ${key} was cancelled.`);
    if (code !== 0) {
      const tail = `${out}\n${err}`
        .split("\n")
        .filter((l) => l.trim())
        .slice(-12)
        .join("\n");
      throw new ToolError(`Installing ${key} failed (bun install exited with code ${code}):\n${tail}`);
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

function findBin(tmp: string, name: string, version: string, wanted: string | undefined, key: string): string {
  const pkgDir = join("node_modules", name);
  let meta: any;
  try {
    meta = JSON.parse(readFileSync(join(tmp, pkgDir, "package.json"), "utf8"));
  } catch {
    throw new ToolError(`Installing ${key} failed: the package is missing from node_modules after bun install.`);
  }
  if (meta.name !== name || meta.version !== version) {
    throw new ToolError(`Installing ${key} failed: the tarball holds ${meta.name}@${meta.version}, not ${key}.`);
  }
  const unscoped = name.startsWith("@") ? name.slice(name.indexOf("/") + 1) : name;
  const bins: Record<string, string> = typeof meta.bin === "string" ? { [unscoped]: meta.bin } : meta.bin && typeof meta.bin === "object" ? meta.bin : {};
  const names = Object.keys(bins);
  let chosen: string | undefined;
  if (wanted) {
    chosen = bins[wanted];
    if (!chosen) throw new ToolError(`${key} has no bin named "${wanted}" (it has: ${names.join(", ") || "none"}). Fix package.bin in its descriptor.`);
  } else if (names.length === 1) chosen = bins[names[0]!];
  else chosen = bins[unscoped];
  if (!chosen) {
    throw new ToolError(
      names.length === 0
        ? `${key} declares no bin, so pml does not know how to start it as an MCP server.`
        : `${key} has several bins (${names.join(", ")}); set package.bin in its descriptor to the one that starts the MCP server.`,
    );
  }
  return join(pkgDir, chosen);
}

/** Renames a finished temp install into place; if another process got there first with the same
 * integrity, keeps theirs; a stale install of different bytes is replaced. */
async function moveIntoPlace(tmp: string, dir: string, integrity: string): Promise<void> {
  mkdirSync(dirname(dir), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await rename(tmp, dir);
      return;
    } catch (e: any) {
      if (e?.code !== "ENOTEMPTY" && e?.code !== "EEXIST" && e?.code !== "EPERM") throw e;
    }
    if (readMarker(dir, integrity)) return; // a concurrent pml finished the same install
    const trash = `${dir}.trash-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    await rename(dir, trash).catch(() => {});
    await rm(trash, { recursive: true, force: true }).catch(() => {});
  }
  throw new ToolError(`Could not move the new install into ${dir}; remove that directory and retry.`);
}

export function depsStatePath(env: Env = process.env): string {
  return join(pmlHome(env), "deps.json");
}

/** The installed packages, as recorded in deps.json (empty when there is none or it is damaged). */
export function readDepsState(env: Env = process.env): DepsState {
  try {
    const parsed = JSON.parse(readFileSync(depsStatePath(env), "utf8"));
    if (parsed?.version === 1 && parsed.packages && typeof parsed.packages === "object") return parsed as DepsState;
  } catch {}
  return { version: 1, packages: {} };
}

/** Whether this exact package + integrity is installed (no network, no spawn). */
export function isInstalled(desc: StdioDescriptor, env: Env = process.env): boolean {
  if (!desc.package) return true;
  if (!desc.integrity) return false;
  return readMarker(installDir(desc.package.identifier, desc.package.version, env), desc.integrity) !== undefined;
}

async function recordInstall(home: string, dir: string, marker: Marker): Promise<void> {
  const path = join(home, "deps.json");
  await withFileLock(path, async () => {
    let state: DepsState = { version: 1, packages: {} };
    try {
      const parsed = JSON.parse(await readFile(path, "utf8"));
      if (parsed?.version === 1 && parsed.packages && typeof parsed.packages === "object") state = parsed;
    } catch {}
    state.packages[`${marker.name}@${marker.version}`] = { ...marker, dir };
    await writeFileAtomic(path, JSON.stringify(state, null, 2) + "\n");
  });
}
